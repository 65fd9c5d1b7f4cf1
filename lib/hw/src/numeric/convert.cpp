// Bit-exact conversions for every (source, destination, RoundMode) of docs/hardware-model.md §7.
//
// All rounding goes through one integer routine: a finite non-zero value is written as m * 2^e2 (m an
// unsigned integer), the bits below the destination's quantum are dropped, and the mode decides whether to
// add one quantum (CAST_ODD instead ORs the kept LSB when anything non-zero was dropped). The hot CAST_RINT
// narrowings and the half -> float table live inline in types.hpp.
#include "evg/hw/numeric/convert.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>

namespace evg::hw {

namespace {

// Drops the low `shift` (> 0) bits of the magnitude `m` and rounds per mode; `neg` is the sign of the value
// (FLOOR/CEIL are directed on the signed value). Sets `inexact` when a non-zero bit was dropped.
uint64_t round_shift_right(uint64_t m, int shift, bool neg, RoundMode mode, bool& inexact) {
    uint64_t q;
    uint64_t rem;
    int cmp;  // dropped part compared with half a quantum: -1 below, 0 equal, +1 above
    if (shift >= 64) {
        q = 0;
        rem = m;
        if (shift == 64) {
            const uint64_t halfway = uint64_t{1} << 63;
            cmp = rem < halfway ? -1 : (rem == halfway ? 0 : 1);
        } else {
            cmp = -1;  // m < 2^64 <= half a quantum
        }
    } else {
        q = m >> shift;
        rem = m & ((uint64_t{1} << shift) - 1);
        const uint64_t halfway = uint64_t{1} << (shift - 1);
        cmp = rem < halfway ? -1 : (rem == halfway ? 0 : 1);
    }
    inexact = rem != 0;
    if (!inexact) return q;
    bool up = false;
    switch (mode) {
        case RoundMode::CAST_FLOOR:
            up = neg;
            break;
        case RoundMode::CAST_CEIL:
            up = !neg;
            break;
        case RoundMode::CAST_ROUND:
            up = cmp >= 0;
            break;  // ties away from zero
        case RoundMode::CAST_TRUNC:
            up = false;
            break;
        case RoundMode::CAST_ODD:
            return q | 1u;          // von Neumann: make the kept LSB 1
        case RoundMode::CAST_NONE:  // inexact: behaves as RINT
        case RoundMode::CAST_RINT:
        default:
            up = cmp > 0 || (cmp == 0 && (q & 1u) != 0);
            break;
    }
    return q + (up ? 1u : 0u);
}

// A binary floating-point destination format: `exp_bits` exponent bits, `man_bits` stored mantissa bits.
struct Format {
    int exp_bits;
    int man_bits;
    uint64_t inf_bits() const { return ((uint64_t{1} << exp_bits) - 1) << man_bits; }
    uint64_t max_bits() const { return inf_bits() - 1; }
    uint64_t sign_bit() const { return uint64_t{1} << (exp_bits + man_bits); }
    uint64_t qnan_bits() const { return inf_bits() | (uint64_t{1} << (man_bits - 1)); }
};
constexpr Format kHalf{5, 10};
constexpr Format kBf16{8, 7};
constexpr Format kFloat{8, 23};

// Result of a finite value too large for the format, per mode (docs/hardware-model.md §7):
// RINT/ROUND/NONE -> Inf; TRUNC -> max finite; FLOOR -> +max / -Inf; CEIL -> +Inf / -max;
// ODD -> max finite (round-to-odd never produces the even Inf encoding: truncation gives max, whose LSB is
// 1).
uint64_t overflow_bits(Format fmt, bool neg, RoundMode mode) {
    switch (mode) {
        case RoundMode::CAST_TRUNC:
        case RoundMode::CAST_ODD:
            return fmt.max_bits();
        case RoundMode::CAST_FLOOR:
            return neg ? fmt.inf_bits() : fmt.max_bits();
        case RoundMode::CAST_CEIL:
            return neg ? fmt.max_bits() : fmt.inf_bits();
        case RoundMode::CAST_NONE:
        case RoundMode::CAST_RINT:
        case RoundMode::CAST_ROUND:
        default:
            return fmt.inf_bits();
    }
}

// Encodes (neg ? -1 : 1) * m * 2^e2, m > 0, into `fmt` with one rounding per mode (subnormals kept).
uint64_t encode_rounded(Format fmt, bool neg, uint64_t m, int e2, RoundMode mode) {
    const int bias = (1 << (fmt.exp_bits - 1)) - 1;
    const int emin = 1 - bias;                      // exponent of the smallest normal
    const int p = e2 + (63 - std::countl_zero(m));  // floor(log2 |value|)
    const int te = std::max(p, emin);               // exponent of the result's binade
    const int shift = (te - fmt.man_bits) - e2;     // bits of m below the result quantum
    uint64_t q;
    if (shift <= 0) {
        q = m << -shift;  // exact; q < 2^(man_bits + 1)
    } else {
        bool inexact = false;
        q = round_shift_right(m, shift, neg, mode, inexact);
    }
    // q holds the implicit bit for normals (q in [2^man, 2^(man+1)]); adding it to (te + bias - 1) << man
    // gives the encoding, and a rounding carry (q == 2^(man+1), or a subnormal reaching 2^man) moves to the
    // next binade.
    uint64_t bits = (static_cast<uint64_t>(te + bias - 1) << fmt.man_bits) + q;
    if (bits > fmt.max_bits()) bits = overflow_bits(fmt, neg, mode);
    return bits | (neg ? fmt.sign_bit() : 0);
}

// Narrows a float to a 16-bit format: NaN -> canonical quiet NaN with the sign, +-Inf and +-0 kept.
uint64_t narrow_float(Format fmt, float f, RoundMode mode) {
    const uint32_t u = std::bit_cast<uint32_t>(f);
    const bool neg = (u >> 31) != 0;
    const uint32_t a = u & 0x7FFFFFFFu;
    const uint64_t sign = neg ? fmt.sign_bit() : 0;
    if (a > 0x7F800000u) return fmt.qnan_bits() | sign;
    if (a == 0x7F800000u) return fmt.inf_bits() | sign;
    if (a == 0) return sign;
    const uint32_t exp = a >> 23;
    const uint32_t man = a & 0x7FFFFFu;
    if (exp == 0) return encode_rounded(fmt, neg, man, -149, mode);
    return encode_rounded(fmt, neg, man | 0x800000u, static_cast<int>(exp) - 150, mode);
}

uint64_t encode_int(Format fmt, int64_t v, RoundMode mode) {
    if (v == 0) return 0;
    const bool neg = v < 0;
    const uint64_t mag = neg ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    return encode_rounded(fmt, neg, mag, 0, mode);
}

struct IntRange {
    int64_t lo, hi;
};
IntRange int_range(DType t) {
    switch (t) {
        case DType::i8:
            return {INT8_MIN, INT8_MAX};
        case DType::u8:
            return {0, UINT8_MAX};
        case DType::i16:
            return {INT16_MIN, INT16_MAX};
        case DType::i32:
            return {INT32_MIN, INT32_MAX};
        case DType::i64:
        case DType::f32:
        case DType::f16:
        case DType::bf16:
            break;
    }
    return {INT64_MIN, INT64_MAX};
}

// Reads one element; floating-point sources come back as their exact float value.
struct Loaded {
    bool is_float;
    float f;
    int64_t i;
};
Loaded load(DType t, const void* p) {
    switch (t) {
        case DType::f32: {
            float v;
            std::memcpy(&v, p, sizeof v);
            return {true, v, 0};
        }
        case DType::f16:
        case DType::bf16: {
            uint16_t b;
            std::memcpy(&b, p, sizeof b);
            return {true, t == DType::f16 ? half_to_float(b) : bf16_to_float(b), 0};
        }
        case DType::i8: {
            int8_t v;
            std::memcpy(&v, p, sizeof v);
            return {false, 0.0f, v};
        }
        case DType::u8: {
            uint8_t v;
            std::memcpy(&v, p, sizeof v);
            return {false, 0.0f, v};
        }
        case DType::i16: {
            int16_t v;
            std::memcpy(&v, p, sizeof v);
            return {false, 0.0f, v};
        }
        case DType::i32: {
            int32_t v;
            std::memcpy(&v, p, sizeof v);
            return {false, 0.0f, v};
        }
        case DType::i64: {
            int64_t v;
            std::memcpy(&v, p, sizeof v);
            return {false, 0.0f, v};
        }
    }
    return {false, 0.0f, 0};
}

template <class T>
void store_as(void* p, T v) {
    std::memcpy(p, &v, sizeof v);
}

// Stores an integer already inside the range of `t`.
void store_int(DType t, void* p, int64_t v) {
    switch (t) {
        case DType::i8:
            store_as(p, static_cast<int8_t>(v));
            break;
        case DType::u8:
            store_as(p, static_cast<uint8_t>(v));
            break;
        case DType::i16:
            store_as(p, static_cast<int16_t>(v));
            break;
        case DType::i32:
            store_as(p, static_cast<int32_t>(v));
            break;
        case DType::i64:
            store_as(p, v);
            break;
        case DType::f32:
        case DType::f16:
        case DType::bf16:
            break;
    }
}

}  // namespace

namespace detail {

uint16_t float_to_half_mode(float f, RoundMode m) {
    return static_cast<uint16_t>(narrow_float(kHalf, f, m));
}
uint16_t float_to_bf16_mode(float f, RoundMode m) {
    return static_cast<uint16_t>(narrow_float(kBf16, f, m));
}

}  // namespace detail

float float_round_integral(float f, RoundMode m) {
    const uint32_t u = std::bit_cast<uint32_t>(f);
    const uint32_t a = u & 0x7FFFFFFFu;
    if (a > 0x7F800000u)
        return std::bit_cast<float>(u | 0x00400000u);  // quiet the NaN, keep sign and payload
    if (a >= 0x4B000000u || a == 0) return f;          // |f| >= 2^23 (already integral), +-Inf, +-0
    const bool neg = (u >> 31) != 0;
    const uint32_t exp = a >> 23;
    const uint64_t man = exp == 0 ? (a & 0x7FFFFFu) : ((a & 0x7FFFFFu) | 0x800000u);
    const int e2 = exp == 0 ? -149 : static_cast<int>(exp) - 150;  // < 0 here
    bool inexact = false;
    const uint64_t q = round_shift_right(man, -e2, neg, m, inexact);  // q <= 2^23: exact in float
    const float r = static_cast<float>(q);
    return neg ? -r : r;  // a zero result keeps the sign
}

int64_t float_to_int(float f, RoundMode m, DType dst) {
    if (f != f) return 0;  // NaN -> 0
    const IntRange r = int_range(dst);
    const double v = float_round_integral(f, m);      // integral (or +-Inf), exact in double
    if (v >= static_cast<double>(r.hi)) return r.hi;  // int64: hi rounds to 2^63 in double, still correct
    if (v <= static_cast<double>(r.lo)) return r.lo;
    return static_cast<int64_t>(v);
}

float int_to_float(int64_t v, RoundMode m) {
    return std::bit_cast<float>(static_cast<uint32_t>(encode_int(kFloat, v, m)));
}
uint16_t int_to_half(int64_t v, RoundMode m) {
    return static_cast<uint16_t>(encode_int(kHalf, v, m));
}
uint16_t int_to_bf16(int64_t v, RoundMode m) {
    return static_cast<uint16_t>(encode_int(kBf16, v, m));
}

int64_t int_saturate(int64_t v, DType dst) {
    if (dtype_is_float(dst)) return v;
    const IntRange r = int_range(dst);
    return std::clamp(v, r.lo, r.hi);
}

void convert_element(DType from, const void* src, DType to, void* dst, RoundMode m) {
    if (from == to && (from == DType::f16 || from == DType::bf16)) {
        std::memmove(dst, src, 2);  // no conversion: copy the bits (NaN payloads included)
        return;
    }
    const Loaded x = load(from, src);
    if (x.is_float) {
        switch (to) {
            case DType::f32:
                store_as(dst, from == DType::f32 ? float_round_integral(x.f, m) : x.f);
                return;
            case DType::f16:
                store_as(dst, float_to_half(x.f, m));
                return;
            case DType::bf16:
                store_as(dst, float_to_bf16(x.f, m));
                return;
            case DType::i8:
            case DType::u8:
            case DType::i16:
            case DType::i32:
            case DType::i64:
                store_int(to, dst, float_to_int(x.f, m, to));
                return;
        }
        return;
    }
    switch (to) {
        case DType::f32:
            store_as(dst, int_to_float(x.i, m));
            return;
        case DType::f16:
            store_as(dst, int_to_half(x.i, m));
            return;
        case DType::bf16:
            store_as(dst, int_to_bf16(x.i, m));
            return;
        case DType::i8:
        case DType::u8:
        case DType::i16:
        case DType::i32:
        case DType::i64:
            store_int(to, dst, int_saturate(x.i, to));
            return;
    }
}

}  // namespace evg::hw
