// A typed host buffer: `size()` elements of `dtype()` stored bit-exactly, little-endian, as they would sit in
// GM. This is what the oracle reads its inputs from and writes its outputs to.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

#include "evg/oracle/numeric.hpp"

namespace evg::oracle {

class HostTensor {
  public:
    HostTensor() = default;
    // `count` elements, every byte zero (the value +0 of every dtype).
    HostTensor(DType dtype, std::size_t count);
    // Each value rounded to `dtype` with round-to-nearest-even, e.g. HostTensor::of(DType::f16, {1, 2.5,
    // -3}).
    static HostTensor of(DType dtype, std::initializer_list<Real> values);
    // Raw patterns, e.g. HostTensor::from_bits(DType::f16, {0x7c00, 0x8000}).
    static HostTensor from_bits(DType dtype, std::initializer_list<std::uint64_t> bits);

    DType dtype() const { return dtype_; }
    std::size_t size() const { return bytes_.size() / static_cast<std::size_t>(dtype_bytes(dtype_)); }

    // The stored pattern of element i, zero-extended (half 0x3c00 is 1.0, int8 0xff is -1).
    std::uint64_t bits(std::size_t i) const;
    void set_bits(std::size_t i, std::uint64_t bits);
    // The exact value of element i (oracle decoding).
    Real value(std::size_t i) const { return decode(dtype_, bits(i)); }
    // Stores v rounded to the dtype under m.
    void set_value(std::size_t i, Real v, RoundMode m = RoundMode::CAST_RINT) {
        set_bits(i, encode(dtype_, v, m));
    }

    std::span<std::byte> bytes() { return bytes_; }
    std::span<const std::byte> bytes() const { return bytes_; }

    friend bool operator==(const HostTensor&, const HostTensor&) = default;  // same dtype, same bytes

  private:
    DType dtype_ = DType::f32;
    std::vector<std::byte> bytes_;
};

}  // namespace evg::oracle
