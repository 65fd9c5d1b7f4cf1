// Rounding on the bits: a finite x is sig * 2^(e - 63) with a 64-bit integer significand; rounding it to a
// format is keeping the significand bits at or above q, the exponent of the format's last significand bit at
// x's magnitude (clamped at the subnormal quantum), and deciding from the discarded bits whether the kept
// count goes up by one, which is what every RoundMode defines. Integer operations only, and exact.
#include "evg/oracle/numeric.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>

#include "evg/hw/error.hpp"
#include "evg/hw/numeric/dtype.hpp"

namespace evg::oracle {
namespace {

// Rounding works on the bits of the Real, with integer operations only (no libm call per element: the
// oracle rounds every element of every node, and `scalbnl`/`ilogbl` were a quarter of a property case's
// time). A finite nonzero Real is (-1)^negative * sig * 2^(exp - 63) with sig's bit 63 set: the x87 80-bit
// format stores exactly that (a 64-bit significand with an explicit leading bit, a 15-bit exponent biased by
// 16383).
static_assert(std::numeric_limits<Real>::digits == 64 && std::numeric_limits<Real>::max_exponent == 16384 &&
                  sizeof(Real) >= 10,
              "the oracle's rounding reads the x87 80-bit long double format");

struct Parts {
    bool negative;
    int exp;       // exponent of the leading bit
    uint64_t sig;  // bit 63 set
};

// x finite and nonzero.
[[gnu::always_inline]] inline Parts parts_of(Real x) {
    unsigned char b[sizeof(Real)];
    std::memcpy(b, &x, sizeof(Real));
    uint64_t sig = 0;
    std::memcpy(&sig, b, 8);
    const unsigned se = b[8] | (unsigned(b[9]) << 8);
    const bool negative = (se >> 15) != 0;
    int exp = static_cast<int>(se & 0x7fffu) - 16383;
    if ((se & 0x7fffu) == 0) exp = 1 - 16383;  // a long double subnormal: no leading bit stored
    const int lz = std::countl_zero(sig);      // 0 for normal numbers
    return {negative, exp - lz, sig << lz};
}

// (-1)^negative * n * 2^scale, exactly (n < 2^64, the result within the long double normal range).
[[gnu::always_inline]] inline Real real_of(bool negative, uint64_t n, int scale) {
    if (n == 0) return negative ? -Real(0) : Real(0);
    const int lz = std::countl_zero(n);
    const uint64_t sig = n << lz;
    const int exp = scale + 63 - lz;
    const unsigned se = static_cast<unsigned>(exp + 16383) | (negative ? 0x8000u : 0u);
    unsigned char b[sizeof(Real)] = {};
    std::memcpy(b, &sig, 8);
    b[8] = static_cast<unsigned char>(se & 0xffu);
    b[9] = static_cast<unsigned char>(se >> 8);
    Real x;
    std::memcpy(&x, b, sizeof(Real));
    return x;
}

// The magnitude sig * 2^(exp - 63) rounded under m to a multiple of 2^q, as a count of 2^q (the sign only
// decides the direction of FLOOR and CEIL). Every mode looks at the discarded bits: whether any is set
// (inexact) and how they compare with half a unit of the last kept bit.
[[gnu::always_inline]] inline uint64_t round_to_quantum(const Parts& p, int q, RoundMode m) {
    const int shift = q - (p.exp - 63);      // low bits of sig that fall below 2^q
    if (shift <= 0) return p.sig << -shift;  // already a multiple (callers keep the result below 2^64)
    uint64_t kept = 0;
    bool inexact = true;
    int half_cmp = -1;  // discarded part vs half a unit: -1 below, 0 equal, 1 above
    if (shift < 64) {
        kept = p.sig >> shift;
        const uint64_t rem = p.sig & ((uint64_t{1} << shift) - 1);
        const uint64_t half = uint64_t{1} << (shift - 1);
        inexact = rem != 0;
        half_cmp = rem < half ? -1 : rem == half ? 0 : 1;
    } else if (shift == 64) {
        const uint64_t half = uint64_t{1} << 63;  // sig >= half always
        half_cmp = p.sig == half ? 0 : 1;
    }
    bool up = false;
    switch (m) {
        case RoundMode::CAST_TRUNC:
            break;
        case RoundMode::CAST_FLOOR:
            up = p.negative && inexact;
            break;
        case RoundMode::CAST_CEIL:
            up = !p.negative && inexact;
            break;
        case RoundMode::CAST_ROUND:  // halfway cases away from zero
            up = half_cmp >= 0;
            break;
        case RoundMode::CAST_ODD:
            return inexact ? kept | 1 : kept;
        case RoundMode::CAST_NONE:
        case RoundMode::CAST_RINT:
            up = half_cmp > 0 || (half_cmp == 0 && (kept & 1) != 0);
            break;
        default:
            throw evg::Error("oracle: unknown RoundMode " + std::to_string(static_cast<int>(m)));
    }
    return kept + (up ? 1 : 0);
}

// Whether m rounds a value of sign `negative` toward zero (so an overflow saturates at max finite).
bool rounds_toward_zero(RoundMode m, bool negative) {
    switch (m) {
        case RoundMode::CAST_TRUNC:
        case RoundMode::CAST_ODD:
            return true;
        case RoundMode::CAST_FLOOR:
            return !negative;
        case RoundMode::CAST_CEIL:
            return negative;
        default:
            return false;
    }
}

struct IntRange {
    Real lo, hi;
};
IntRange int_range(DType t) {
    switch (t) {
        case DType::i8:
            return {-128.0L, 127.0L};
        case DType::u8:
            return {0.0L, 255.0L};
        case DType::i16:
            return {-32768.0L, 32767.0L};
        case DType::i32:
            return {-2147483648.0L, 2147483647.0L};
        case DType::i64:
            return {-9223372036854775808.0L, 9223372036854775807.0L};
        default:
            break;
    }
    throw evg::Error(std::string("oracle: ") + dtype_label(t) + " is not an integer type");
}

}  // namespace

Real max_finite(const FloatFormat& f) {
    return real_of(false, (uint64_t{1} << f.precision) - 1, f.emax - f.precision + 1);
}

namespace {

// A finite nonzero x rounded to format f under m: (-1)^negative * n * 2^q (n = 0: a signed zero), or, above
// the largest finite value, that value or infinity as the mode says. round_float builds the Real from it and
// encode the bit pattern, so both round the same way.
struct RoundedFloat {
    enum class Kind : uint8_t { value, max_finite, infinity };
    bool negative;
    uint64_t n;  // at most 2^precision
    int q;       // exponent of the last kept bit
    Kind kind;
};

[[gnu::always_inline]] inline RoundedFloat round_parts(Real x, const FloatFormat& f, RoundMode m) {
    const Parts p = parts_of(x);
    const int q = std::max(p.exp, f.emin) - (f.precision - 1);
    const uint64_t n = round_to_quantum(p, q, m);
    if (n != 0 && q + 63 - std::countl_zero(n) > f.emax)
        return {p.negative, 0, 0,
                rounds_toward_zero(m, p.negative) ? RoundedFloat::Kind::max_finite
                                                  : RoundedFloat::Kind::infinity};
    return {p.negative, n, q, RoundedFloat::Kind::value};
}

// Inlined into a call per format (round_to, encode), so that the format's constants fold into the bit
// operations instead of being loaded and re-derived for every element.
[[gnu::always_inline]] inline Real round_float_with(Real x, const FloatFormat& f, RoundMode m) {
    if (std::isnan(x) || std::isinf(x) || x == 0) return x;
    const RoundedFloat r = round_parts(x, f, m);
    if (r.kind != RoundedFloat::Kind::value) {
        const Real sat =
            r.kind == RoundedFloat::Kind::max_finite ? max_finite(f) : std::numeric_limits<Real>::infinity();
        return r.negative ? -sat : sat;
    }
    return real_of(r.negative, r.n, r.q);
}

}  // namespace

Real round_float(Real x, const FloatFormat& f, RoundMode m) {
    return round_float_with(x, f, m);
}

Real round_integer(Real x, Real lo, Real hi, RoundMode m) {
    if (std::isnan(x)) return 0;
    if (std::isinf(x)) return x < 0 ? lo : hi;
    if (x == 0) return 0;
    const Parts p = parts_of(x);
    if (p.exp >= 63) return p.negative ? lo : hi;  // |x| >= 2^63: beyond every integer type's range
    const Real r = real_of(p.negative, round_to_quantum(p, 0, m), 0);
    if (r < lo) return lo;
    if (r > hi) return hi;
    return r + 0;  // -0 -> +0: integers have no negative zero
}

bool is_float_dtype(DType t) {
    return t == DType::f32 || t == DType::f16 || t == DType::bf16;
}
bool is_integer_dtype(DType t) {
    return !is_float_dtype(t);
}

const FloatFormat& float_format(DType t) {
    switch (t) {
        case DType::f32:
            return kFloat;
        case DType::f16:
            return kHalf;
        case DType::bf16:
            return kBf16;
        default:
            break;
    }
    throw evg::Error(std::string("oracle: ") + dtype_label(t) + " is not a floating-point type");
}

Real dtype_lowest(DType t) {
    return is_float_dtype(t) ? -max_finite(float_format(t)) : int_range(t).lo;
}
Real dtype_max(DType t) {
    return is_float_dtype(t) ? max_finite(float_format(t)) : int_range(t).hi;
}

// Names are the vocabulary's (lib/vocab: one table per vocabulary), like the sizes; only arithmetic is the
// oracle's own.
const char* dtype_label(DType t) {
    return evg::hw::dtype_name(t).data();  // a string literal: NUL-terminated
}

Real round_to(DType t, Real x, RoundMode m) {
    switch (t) {
        case DType::f32:
            return round_float_with(x, kFloat, m);
        case DType::f16:
            return round_float_with(x, kHalf, m);
        case DType::bf16:
            return round_float_with(x, kBf16, m);
        default:
            break;
    }
    const IntRange r = int_range(t);
    return round_integer(x, r.lo, r.hi, m);
}

std::uint64_t bit_mask(DType t) {
    const int bits = 8 * dtype_bytes(t);
    return bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
}

Real decode_by_format(DType t, std::uint64_t bits) {
    bits &= bit_mask(t);
    if (is_integer_dtype(t)) {
        const int width = 8 * dtype_bytes(t);
        if (t == DType::u8) return static_cast<Real>(bits);
        // two's complement: subtract 2^width when the sign bit is set
        const bool neg = (bits >> (width - 1)) & 1;
        if (!neg) return static_cast<Real>(bits);
        return -static_cast<Real>((~bits & bit_mask(t)) + 1);
    }
    const FloatFormat& f = float_format(t);
    const int mant_bits = f.precision - 1;
    const int total = 1 + f.exponent_bits + mant_bits;
    const bool neg = (bits >> (total - 1)) & 1;
    const std::uint64_t exp_field = (bits >> mant_bits) & ((std::uint64_t{1} << f.exponent_bits) - 1);
    const std::uint64_t mant = bits & ((std::uint64_t{1} << mant_bits) - 1);
    if (exp_field == (std::uint64_t{1} << f.exponent_bits) - 1) {
        const Real v =
            mant == 0 ? std::numeric_limits<Real>::infinity() : std::numeric_limits<Real>::quiet_NaN();
        return neg ? -v : v;
    }
    if (exp_field == 0) return real_of(neg, mant, f.emin - mant_bits);
    const int e = static_cast<int>(exp_field) - f.emax;
    return real_of(neg, mant + (std::uint64_t{1} << mant_bits), e - mant_bits);
}

namespace {

// decode's fast paths. Every finite float value is a long double, so the host's float -> long double
// conversion is exact (no rounding can happen, whatever the FPU's rounding mode); half and bfloat16 become
// that float by moving their fields. NaN and infinity take the same constants as decode_by_format (a NaN
// carries no payload into the oracle).
Real non_finite(bool negative, bool nan) {
    const Real v = nan ? std::numeric_limits<Real>::quiet_NaN() : std::numeric_limits<Real>::infinity();
    return negative ? -v : v;
}

Real decode_f32(std::uint32_t b) {
    if ((b & 0x7f800000u) == 0x7f800000u) return non_finite(b >> 31, (b & 0x007fffffu) != 0);
    return static_cast<Real>(std::bit_cast<float>(b));
}

Real decode_bf16(std::uint16_t b) {
    // bfloat16 is the high half of a float
    return decode_f32(std::uint32_t{b} << 16);
}

Real decode_f16(std::uint16_t b) {
    const std::uint32_t sign = std::uint32_t{b & 0x8000u} << 16;
    const std::uint32_t exp_field = (b >> 10) & 0x1fu, mant = b & 0x3ffu;
    if (exp_field == 0x1f) return non_finite(sign != 0, mant != 0);
    if (exp_field == 0) {
        // zero or subnormal: mant * 2^-24, exact in float (mant < 2^10 and 2^-24 is a normal float)
        const Real v = static_cast<Real>(static_cast<float>(mant) * 0x1p-24f);
        return sign != 0 ? -v : v;
    }
    // rebias 15 -> 127 and widen the fraction from 10 to 23 bits
    return static_cast<Real>(std::bit_cast<float>(sign | ((exp_field + 112) << 23) | (mant << 13)));
}

// decode's body, inlined where the dtype is a constant (decode_n).
[[gnu::always_inline]] inline Real decode_inline(DType t, std::uint64_t bits) {
    switch (t) {
        case DType::f32:
            return decode_f32(static_cast<std::uint32_t>(bits));
        case DType::f16:
            return decode_f16(static_cast<std::uint16_t>(bits));
        case DType::bf16:
            return decode_bf16(static_cast<std::uint16_t>(bits));
        case DType::i8:
            return static_cast<std::int8_t>(bits);
        case DType::u8:
            return static_cast<std::uint8_t>(bits);
        case DType::i16:
            return static_cast<std::int16_t>(bits);
        case DType::i32:
            return static_cast<std::int32_t>(bits);
        case DType::i64:
            return static_cast<Real>(static_cast<std::int64_t>(bits));
    }
    return decode_by_format(t, bits);
}

}  // namespace

Real decode(DType t, std::uint64_t bits) {
    return decode_inline(t, bits);
}

namespace {

// encode for one float format, inlined per format like round_float_with.
[[gnu::always_inline]] inline std::uint64_t encode_float(const FloatFormat& f, Real x, RoundMode m) {
    const int mant_bits = f.precision - 1;
    const int total = 1 + f.exponent_bits + mant_bits;
    const std::uint64_t sign = std::signbit(x) ? std::uint64_t{1} << (total - 1) : 0;
    const std::uint64_t exp_ones = (std::uint64_t{1} << f.exponent_bits) - 1;
    const std::uint64_t hidden = std::uint64_t{1} << mant_bits;
    if (std::isnan(x)) return sign | (exp_ones << mant_bits) | (hidden >> 1);
    if (std::isinf(x)) return sign | (exp_ones << mant_bits);
    if (x == 0) return sign;
    // Straight from the rounded count, without building the rounded Real and taking it apart again.
    const RoundedFloat r = round_parts(x, f, m);
    if (r.kind == RoundedFloat::Kind::infinity) return sign | (exp_ones << mant_bits);
    if (r.kind == RoundedFloat::Kind::max_finite) return sign | ((exp_ones - 1) << mant_bits) | (hidden - 1);
    if (r.n == 0) return sign;
    const int top = r.q + 63 - std::countl_zero(r.n);  // exponent of the result's leading bit
    if (top < f.emin) return sign | r.n;        // subnormal: q is the subnormal quantum, n < 2^mant_bits
    const int shift = mant_bits - (top - r.q);  // -1 when rounding carried n to 2^precision
    const uint64_t sig = shift >= 0 ? r.n << shift : r.n >> -shift;  // in [2^mant_bits, 2^precision)
    const int biased = top + f.emax;                                 // in [1, 2 * emax]
    const auto exp_field = static_cast<std::uint64_t>(biased);
    return sign | (exp_field << mant_bits) | (sig - hidden);
}

// encode's body, inlined where the dtype is a constant (encode_n).
[[gnu::always_inline]] inline std::uint64_t encode_inline(DType t, Real x, RoundMode m) {
    switch (t) {
        case DType::f32:
            return encode_float(kFloat, x, m);
        case DType::f16:
            return encode_float(kHalf, x, m);
        case DType::bf16:
            return encode_float(kBf16, x, m);
        default:
            break;
    }
    const Real v = round_to(t, x, m);
    // v is an integer within the type's range: exact in int64 (for i64 the range ends are +-2^63-ish,
    // and both ends are representable in Real and int64)
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(v)) & bit_mask(t);
}

}  // namespace

std::uint64_t encode(DType t, Real x, RoundMode m) {
    return encode_inline(t, x, m);
}

namespace {

// The element type of each dtype's storage, for decode_n / encode_n (little-endian host: the element's bytes
// are the integer's bytes).
template <class F>
void with_storage(DType t, F&& f) {
    switch (dtype_bytes(t)) {
        case 1:
            return f(std::uint8_t{});
        case 2:
            return f(std::uint16_t{});
        case 4:
            return f(std::uint32_t{});
        default:
            return f(std::uint64_t{});
    }
}

// One loop per dtype with the dtype a constant inside it, so decode/encode's switch folds away.
template <class F>
void with_dtype(DType t, F&& f) {
    switch (t) {
        case DType::f32:
            return f(std::integral_constant<DType, DType::f32>{});
        case DType::f16:
            return f(std::integral_constant<DType, DType::f16>{});
        case DType::bf16:
            return f(std::integral_constant<DType, DType::bf16>{});
        case DType::i8:
            return f(std::integral_constant<DType, DType::i8>{});
        case DType::u8:
            return f(std::integral_constant<DType, DType::u8>{});
        case DType::i16:
            return f(std::integral_constant<DType, DType::i16>{});
        case DType::i32:
            return f(std::integral_constant<DType, DType::i32>{});
        case DType::i64:
            return f(std::integral_constant<DType, DType::i64>{});
    }
    throw evg::Error("oracle: unknown DType " + std::to_string(static_cast<int>(t)));
}

}  // namespace

void decode_n(DType t, const std::byte* src, std::size_t n, Real* dst, std::ptrdiff_t dst_stride) {
    with_dtype(t, [&](auto type) {
        with_storage(type, [&](auto storage) {
            using U = decltype(storage);
            for (std::size_t i = 0; i < n; ++i) {
                U u;
                std::memcpy(&u, src + i * sizeof(U), sizeof(U));
                dst[static_cast<std::ptrdiff_t>(i) * dst_stride] = decode_inline(type, u);
            }
        });
    });
}

void encode_n(DType t, const Real* src, std::ptrdiff_t src_stride, std::size_t n, std::byte* dst,
              RoundMode m) {
    with_dtype(t, [&](auto type) {
        with_storage(type, [&](auto storage) {
            using U = decltype(storage);
            for (std::size_t i = 0; i < n; ++i) {
                const auto u =
                    static_cast<U>(encode_inline(type, src[static_cast<std::ptrdiff_t>(i) * src_stride], m));
                std::memcpy(dst + i * sizeof(U), &u, sizeof(U));
            }
        });
    });
}

}  // namespace evg::oracle
