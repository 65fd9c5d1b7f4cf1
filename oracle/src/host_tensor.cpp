#include "evg/oracle/host_tensor.hpp"

#include <bit>
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

void HostTensor::out_of_range(std::size_t i) const {
    throw evg::Error("oracle: element " + std::to_string(i) + " is outside a host tensor of " +
                     std::to_string(size()) + " elements");
}

}  // namespace evg::oracle
