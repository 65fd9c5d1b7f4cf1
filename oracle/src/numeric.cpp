// Rounding by scaling: a finite x is written as s * 2^q where q is the exponent of x's last significand bit
// in the target format (clamped at the subnormal quantum). Scaling by a power of two is exact in Real,
// so rounding x to the format is rounding s to an integer, which is what every RoundMode defines.
#include "evg/oracle/numeric.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "evg/hw/error.hpp"
#include "evg/hw/numeric/dtype.hpp"

namespace evg::oracle {
namespace {

// s rounded to an integer under m. Exact: floor/ceil/trunc/round of a Real are exact operations, and
// the tie test compares an exact difference against 0.5.
Real round_scaled(Real s, RoundMode m) {
    switch (m) {
        case RoundMode::CAST_FLOOR:
            return std::floor(s);
        case RoundMode::CAST_CEIL:
            return std::ceil(s);
        case RoundMode::CAST_TRUNC:
            return std::trunc(s);
        case RoundMode::CAST_ROUND:
            return std::round(s);  // halfway cases away from zero
        case RoundMode::CAST_ODD: {
            const Real t = std::trunc(s);
            if (t != s && std::fmod(t, Real(2)) == 0) return t + (s < 0 ? -1 : 1);
            return t;
        }
        case RoundMode::CAST_NONE:
        case RoundMode::CAST_RINT: {
            const Real f = std::floor(s);
            const Real d = s - f;
            if (d > Real(0.5)) return f + 1;
            if (d < Real(0.5)) return f;
            return std::fmod(f, Real(2)) == 0 ? f : f + 1;
        }
    }
    throw evg::Error("oracle: unknown RoundMode " + std::to_string(static_cast<int>(m)));
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
    return std::ldexp(std::ldexp(Real(1), f.precision) - 1, f.emax - f.precision + 1);
}

Real round_float(Real x, const FloatFormat& f, RoundMode m) {
    if (std::isnan(x) || std::isinf(x) || x == 0) return x;
    const bool negative = std::signbit(x);
    const int e = std::max(std::ilogb(x), f.emin);  // exponent of x's leading bit, at least emin
    const int q = e - (f.precision - 1);            // exponent of the last kept bit
    const Real r = std::ldexp(round_scaled(std::ldexp(x, -q), m), q);
    if (std::fabs(r) > max_finite(f)) {
        const Real sat =
            rounds_toward_zero(m, negative) ? max_finite(f) : std::numeric_limits<Real>::infinity();
        return negative ? -sat : sat;
    }
    return r == 0 ? std::copysign(Real(0), x) : r;
}

Real round_integer(Real x, Real lo, Real hi, RoundMode m) {
    if (std::isnan(x)) return 0;
    if (std::isinf(x)) return x < 0 ? lo : hi;
    const Real r = round_scaled(x, m);
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

// Sizes and names are the vocabulary's (lib/vocab: one table per vocabulary); only arithmetic is the oracle's
// own.
int dtype_bytes(DType t) {
    return evg::hw::dtype_size(t);
}

const char* dtype_label(DType t) {
    return evg::hw::dtype_name(t).data();  // a string literal: NUL-terminated
}

Real round_to(DType t, Real x, RoundMode m) {
    if (is_float_dtype(t)) return round_float(x, float_format(t), m);
    const IntRange r = int_range(t);
    return round_integer(x, r.lo, r.hi, m);
}

std::uint64_t bit_mask(DType t) {
    const int bits = 8 * dtype_bytes(t);
    return bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
}

Real decode(DType t, std::uint64_t bits) {
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
    Real v;
    if (exp_field == (std::uint64_t{1} << f.exponent_bits) - 1) {
        v = mant == 0 ? std::numeric_limits<Real>::infinity() : std::numeric_limits<Real>::quiet_NaN();
    } else if (exp_field == 0) {
        v = std::ldexp(static_cast<Real>(mant), f.emin - mant_bits);
    } else {
        const int e = static_cast<int>(exp_field) - f.emax;
        v = std::ldexp(static_cast<Real>(mant + (std::uint64_t{1} << mant_bits)), e - mant_bits);
    }
    return neg ? -v : v;
}

std::uint64_t encode(DType t, Real x, RoundMode m) {
    const Real v = round_to(t, x, m);
    if (is_integer_dtype(t)) {
        // v is an integer within the type's range: exact in int64 (for i64 the range ends are +-2^63-ish,
        // and both ends are representable in Real and int64)
        return static_cast<std::uint64_t>(static_cast<std::int64_t>(v)) & bit_mask(t);
    }
    const FloatFormat& f = float_format(t);
    const int mant_bits = f.precision - 1;
    const int total = 1 + f.exponent_bits + mant_bits;
    const std::uint64_t sign = std::signbit(v) ? std::uint64_t{1} << (total - 1) : 0;
    const std::uint64_t exp_ones = (std::uint64_t{1} << f.exponent_bits) - 1;
    if (std::isnan(v)) return sign | (exp_ones << mant_bits) | (std::uint64_t{1} << (mant_bits - 1));
    if (std::isinf(v)) return sign | (exp_ones << mant_bits);
    if (v == 0) return sign;
    const Real a = std::fabs(v);
    const int e = std::ilogb(a);
    if (e < f.emin) {  // subnormal: exponent field 0, significand counts quanta of 2^(emin - mant_bits)
        return sign | static_cast<std::uint64_t>(std::ldexp(a, mant_bits - f.emin));
    }
    const auto sig = static_cast<std::uint64_t>(std::ldexp(a, mant_bits - e));  // in [2^mant_bits, 2^p)
    const auto exp_field = static_cast<std::uint64_t>(e + f.emax);
    return sign | (exp_field << mant_bits) | (sig - (std::uint64_t{1} << mant_bits));
}

}  // namespace evg::oracle
