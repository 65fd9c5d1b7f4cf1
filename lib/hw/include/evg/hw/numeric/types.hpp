// Bit-exact storage types of the machine (half, bfloat16) and the C++ type of each DType
// (docs/hardware-model.md §7). The DType catalogue itself (names, sizes) is the vocabulary's:
// evg/hw/numeric/dtype.hpp.
#pragma once
#include <bit>
#include <cstdint>

#include "evg/hw/numeric/dtype.hpp"

namespace evg::hw {

// IEEE binary16 storage. Arithmetic is never done on it directly: the machine widens to float,
// computes, and narrows once per instruction (round to nearest even).
struct half {
    uint16_t bits = 0;
    half() = default;
    constexpr explicit half(uint16_t b, int /*from_bits tag*/) : bits(b) {}
    constexpr half(
        float f);  // round to nearest even (constexpr: device code declares constexpr half constants)
    operator float() const;
    static constexpr half from_bits(uint16_t b) { return half(b, 0); }
    friend bool operator==(half a, half b) { return a.bits == b.bits; }  // bitwise identity
};

// bfloat16 storage (upper 16 bits of a float).
struct bfloat16 {
    uint16_t bits = 0;
    bfloat16() = default;
    constexpr explicit bfloat16(uint16_t b, int /*from_bits tag*/) : bits(b) {}
    constexpr bfloat16(float f);  // round to nearest even
    operator float() const;
    static constexpr bfloat16 from_bits(uint16_t b) { return bfloat16(b, 0); }
    friend bool operator==(bfloat16 a, bfloat16 b) { return a.bits == b.bits; }
};

// Hot-path conversions used by the storage types above and by convert.hpp (vector arithmetic narrows and
// widens tens of millions of elements per second, so these are inline and branch-light).
namespace detail {

// The 65536 float values of every half bit pattern (NaN payloads kept). The constructor (types.cpp) fills it.
struct HalfToFloatTable {
    HalfToFloatTable() noexcept;
    float value[65536];
};

// Built once, on first use, by a thread-safe function-local static (no static-initialisation-order hazard:
// half constants defined at namespace scope in other translation units may use it).
inline const HalfToFloatTable& half_to_float_table() noexcept {
    static const HalfToFloatTable table;
    return table;
}

inline float half_bits_to_float(uint16_t b) noexcept {
    return half_to_float_table().value[b];
}

inline float bf16_bits_to_float(uint16_t b) noexcept {
    return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

// float -> half, round to nearest, ties to even. NaN -> canonical quiet NaN 0x7E00 with the sign kept,
// overflow -> +-Inf, subnormal results rounded correctly.
constexpr uint16_t float_to_half_rne(float f) noexcept {
    const uint32_t u = std::bit_cast<uint32_t>(f);
    const uint32_t sign = (u >> 16) & 0x8000u;
    uint32_t a = u & 0x7FFFFFFFu;
    if (a >= 0x47800000u) {  // |f| >= 2^16 (rounds to Inf), Inf or NaN
        return static_cast<uint16_t>(sign | (a > 0x7F800000u ? 0x7E00u : 0x7C00u));
    }
    if (a < 0x38800000u) {  // |f| < 2^-14: the result is subnormal or zero
        const uint32_t e = a >> 23;
        if (e < 102) return static_cast<uint16_t>(sign);  // |f| < 2^-25 rounds to zero
        const uint32_t m = (a & 0x7FFFFFu) | 0x800000u;
        const uint32_t shift = 126 - e;  // 14..24: value = m * 2^(e-150), half unit 2^-24
        uint32_t q = m >> shift;
        const uint32_t rem = m & ((1u << shift) - 1u);
        const uint32_t halfway = 1u << (shift - 1u);
        q += static_cast<uint32_t>(rem > halfway) | (static_cast<uint32_t>(rem == halfway) & q & 1u);
        return static_cast<uint16_t>(sign | q);  // q == 0x400 is the smallest normal: the encoding carries
    }
    // Normal range: rebias the exponent (127 -> 15) and round the 13 dropped bits to nearest even; a carry
    // out of the mantissa increments the exponent (up to 0x7C00 = Inf, which is the correct RINT overflow).
    a += 0xC8000000u + 0x0FFFu + ((a >> 13) & 1u);  // 0xC8000000 = (15 - 127) << 23 modulo 2^32
    return static_cast<uint16_t>(sign | (a >> 13));
}

// float -> bfloat16, round to nearest, ties to even. NaN -> canonical quiet NaN 0x7FC0 with the sign kept.
constexpr uint16_t float_to_bf16_rne(float f) noexcept {
    const uint32_t u = std::bit_cast<uint32_t>(f);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>(((u >> 16) & 0x8000u) | 0x7FC0u);
    return static_cast<uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

}  // namespace detail

constexpr half::half(float f) : bits(detail::float_to_half_rne(f)) {}
inline half::operator float() const {
    return detail::half_bits_to_float(bits);
}
constexpr bfloat16::bfloat16(float f) : bits(detail::float_to_bf16_rne(f)) {}
inline bfloat16::operator float() const {
    return detail::bf16_bits_to_float(bits);
}

template <class T>
struct dtype_of;
template <>
struct dtype_of<float> {
    static constexpr DType value = DType::f32;
};
template <>
struct dtype_of<half> {
    static constexpr DType value = DType::f16;
};
template <>
struct dtype_of<bfloat16> {
    static constexpr DType value = DType::bf16;
};
template <>
struct dtype_of<int8_t> {
    static constexpr DType value = DType::i8;
};
template <>
struct dtype_of<uint8_t> {
    static constexpr DType value = DType::u8;
};
template <>
struct dtype_of<int16_t> {
    static constexpr DType value = DType::i16;
};
template <>
struct dtype_of<int32_t> {
    static constexpr DType value = DType::i32;
};
template <>
struct dtype_of<int64_t> {
    static constexpr DType value = DType::i64;
};
template <class T>
inline constexpr DType dtype_of_v = dtype_of<T>::value;

}  // namespace evg::hw
