// A typed host buffer: `size()` elements of `dtype()` stored bit-exactly, little-endian, as they would sit in
// GM. This is what the oracle reads its inputs from and writes its outputs to.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
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

    // The stored pattern of element i, zero-extended (half 0x3c00 is 1.0, int8 0xff is -1). Inline, with one
    // fixed-width load per element width: every element the oracle and the verifier read or write passes
    // through here, and a memcpy of a run-time width was a library call per element.
    std::uint64_t bits(std::size_t i) const {
        switch (dtype_bytes(dtype_)) {
            case 1:
                return load<std::uint8_t>(i);
            case 2:
                return load<std::uint16_t>(i);
            case 4:
                return load<std::uint32_t>(i);
            default:
                return load<std::uint64_t>(i);
        }
    }
    // Keeps the low bytes of `bits` (those of bit_mask(dtype())).
    void set_bits(std::size_t i, std::uint64_t bits) {
        switch (dtype_bytes(dtype_)) {
            case 1:
                return store<std::uint8_t>(i, bits);
            case 2:
                return store<std::uint16_t>(i, bits);
            case 4:
                return store<std::uint32_t>(i, bits);
            default:
                return store<std::uint64_t>(i, bits);
        }
    }
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
    // Little-endian host (checked in host_tensor.cpp): the element's bytes are the integer's bytes.
    template <class U>
    U load(std::size_t i) const {
        if (i >= bytes_.size() / sizeof(U)) [[unlikely]]
            out_of_range(i);
        U u;
        std::memcpy(&u, bytes_.data() + i * sizeof(U), sizeof(U));
        return u;
    }
    template <class U>
    void store(std::size_t i, std::uint64_t b) {
        if (i >= bytes_.size() / sizeof(U)) [[unlikely]]
            out_of_range(i);
        const auto u = static_cast<U>(b);
        std::memcpy(bytes_.data() + i * sizeof(U), &u, sizeof(U));
    }
    [[noreturn]] void out_of_range(std::size_t i) const;

    DType dtype_ = DType::f32;
    std::vector<std::byte> bytes_;
};

}  // namespace evg::oracle
