#include "evg/oracle/host_tensor.hpp"

#include <bit>
#include <cstring>
#include <string>

#include "evg/hw/error.hpp"
#include "evg/hw/numeric/dtype.hpp"

namespace evg::oracle {

static_assert(std::endian::native == std::endian::little, "host tensors are stored little-endian, as in GM");

HostTensor::HostTensor(DType dtype, std::size_t count)
    : dtype_(dtype), bytes_(count * static_cast<std::size_t>(dtype_bytes(dtype))) {}

HostTensor HostTensor::of(DType dtype, std::initializer_list<Real> values) {
    HostTensor t(dtype, values.size());
    std::size_t i = 0;
    for (Real v : values) t.set_value(i++, v);
    return t;
}

HostTensor HostTensor::from_bits(DType dtype, std::initializer_list<std::uint64_t> bits) {
    HostTensor t(dtype, bits.size());
    std::size_t i = 0;
    for (std::uint64_t b : bits) t.set_bits(i++, b);
    return t;
}

namespace {
void check_index(std::size_t i, std::size_t size) {
    if (i >= size)
        throw evg::Error("oracle: element " + std::to_string(i) + " is outside a host tensor of " +
                         std::to_string(size) + " elements");
}

// The element width from the vocabulary's inline table, and the bounds check without a division: these two
// run for every element the oracle reads or writes.
std::size_t width_of(DType t) {
    return static_cast<std::size_t>(evg::hw::dtype_size(t));
}
bool in_bounds(std::size_t i, std::size_t width, std::size_t bytes) {
    return i < bytes && (i + 1) * width <= bytes;  // i < bytes: (i + 1) * width cannot overflow
}
}  // namespace

std::uint64_t HostTensor::bits(std::size_t i) const {
    const std::size_t width = width_of(dtype_);
    if (!in_bounds(i, width, bytes_.size())) check_index(i, size());
    std::uint64_t b = 0;
    std::memcpy(&b, bytes_.data() + i * width, width);  // little-endian host: low bytes first
    return b;
}

void HostTensor::set_bits(std::size_t i, std::uint64_t b) {
    const std::size_t width = width_of(dtype_);
    if (!in_bounds(i, width, bytes_.size())) check_index(i, size());
    if (width < 8) b &= (std::uint64_t{1} << (8 * width)) - 1;  // bit_mask(dtype_)
    std::memcpy(bytes_.data() + i * width, &b, width);
}

}  // namespace evg::oracle
