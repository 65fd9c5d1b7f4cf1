// The oracle's own conversions against values worked out by hand (bit patterns from the IEEE layouts:
// half 1.0 = 0x3c00 with 10 fraction bits, bfloat16 1.0 = 0x3f80 with 7), and against two independent
// round-to-nearest-even implementations (Eigen::half / Eigen::bfloat16 in software, the host FPU's
// double -> float conversion).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

#include <gtest/gtest.h>
#include <Eigen/Core>

#include "evg/oracle/numeric.hpp"

namespace evg::oracle {
namespace {

using M = RoundMode;
constexpr M kModes[] = {M::CAST_NONE,  M::CAST_RINT,  M::CAST_FLOOR, M::CAST_CEIL,
                        M::CAST_ROUND, M::CAST_TRUNC, M::CAST_ODD};

Real p2(int e) {
    return std::ldexp(Real(1), e);
}
const Real kInf = std::numeric_limits<Real>::infinity();
const Real kNaN = std::numeric_limits<Real>::quiet_NaN();

// Expected bit patterns for one input under NONE, RINT, FLOOR, CEIL, ROUND, TRUNC, ODD.
struct Case {
    Real x;
    std::uint64_t none, rint, floor, ceil, round, trunc, odd;
};

void check_cases(DType t, std::initializer_list<Case> cases) {
    for (const Case& c : cases) {
        const std::uint64_t want[] = {c.none, c.rint, c.floor, c.ceil, c.round, c.trunc, c.odd};
        for (int i = 0; i < 7; ++i)
            EXPECT_EQ(encode(t, c.x, kModes[i]), want[i])
                << dtype_label(t) << " x=" << static_cast<double>(c.x) << " mode=" << i;
    }
}

TEST(Oracle_Numeric, FloatToHalfEveryModeByHand) {
    check_cases(DType::f16,
                {
                    // exact values are kept in every mode
                    {1.5, 0x3e00, 0x3e00, 0x3e00, 0x3e00, 0x3e00, 0x3e00, 0x3e00},
                    // 1 + 2^-11: halfway between 0x3c00 (even) and 0x3c01
                    {1 + p2(-11), 0x3c00, 0x3c00, 0x3c00, 0x3c01, 0x3c01, 0x3c00, 0x3c01},
                    // 1 + 3*2^-11: halfway between 0x3c01 (odd) and 0x3c02 (even)
                    {1 + 3 * p2(-11), 0x3c02, 0x3c02, 0x3c01, 0x3c02, 0x3c02, 0x3c01, 0x3c01},
                    // just above the first tie
                    {1 + p2(-11) + p2(-20), 0x3c01, 0x3c01, 0x3c00, 0x3c01, 0x3c01, 0x3c00, 0x3c01},
                    // negative tie: FLOOR goes away from zero, CEIL toward it
                    {-(1 + p2(-11)), 0xbc00, 0xbc00, 0xbc01, 0xbc00, 0xbc01, 0xbc00, 0xbc01},
                    // 65520 is halfway between max finite 65504 (0x7bff) and 65536 (overflow)
                    {65520, 0x7c00, 0x7c00, 0x7bff, 0x7c00, 0x7c00, 0x7bff, 0x7bff},
                    {65519, 0x7bff, 0x7bff, 0x7bff, 0x7c00, 0x7bff, 0x7bff, 0x7bff},
                    {-1e6, 0xfc00, 0xfc00, 0xfc00, 0xfbff, 0xfc00, 0xfbff, 0xfbff},
                    // subnormals: quantum 2^-24 (0x0001)
                    {p2(-25), 0x0000, 0x0000, 0x0000, 0x0001, 0x0001, 0x0000, 0x0001},
                    {-p2(-25), 0x8000, 0x8000, 0x8001, 0x8000, 0x8001, 0x8000, 0x8001},
                    {3 * p2(-25), 0x0002, 0x0002, 0x0001, 0x0002, 0x0002, 0x0001, 0x0001},
                    {p2(-30), 0x0000, 0x0000, 0x0000, 0x0001, 0x0000, 0x0000, 0x0001},
                    // halfway between the largest subnormal 0x03ff and the smallest normal 0x0400
                    {p2(-14) - p2(-25), 0x0400, 0x0400, 0x03ff, 0x0400, 0x0400, 0x03ff, 0x03ff},
                    // specials pass through in every mode
                    {kInf, 0x7c00, 0x7c00, 0x7c00, 0x7c00, 0x7c00, 0x7c00, 0x7c00},
                    {-kInf, 0xfc00, 0xfc00, 0xfc00, 0xfc00, 0xfc00, 0xfc00, 0xfc00},
                    {0.0L, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000},
                    {-0.0L, 0x8000, 0x8000, 0x8000, 0x8000, 0x8000, 0x8000, 0x8000},
                    {kNaN, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00, 0x7e00},
                    {-kNaN, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00, 0xfe00},
                });
}

TEST(Oracle_Numeric, FloatToBf16EveryModeByHand) {
    const Real flt_max = std::numeric_limits<float>::max();
    check_cases(DType::bf16,
                {
                    {1 + p2(-8), 0x3f80, 0x3f80, 0x3f80, 0x3f81, 0x3f81, 0x3f80, 0x3f81},
                    {1 + 3 * p2(-8), 0x3f82, 0x3f82, 0x3f81, 0x3f82, 0x3f82, 0x3f81, 0x3f81},
                    {-(1 + p2(-8) + p2(-20)), 0xbf81, 0xbf81, 0xbf81, 0xbf80, 0xbf81, 0xbf80, 0xbf81},
                    // FLT_MAX lies above the tie between bf16 max finite 0x7f7f and 2^128
                    {flt_max, 0x7f80, 0x7f80, 0x7f7f, 0x7f80, 0x7f80, 0x7f7f, 0x7f7f},
                    // the float subnormal 2^-149 is far below bf16's quantum 2^-133
                    {p2(-149), 0x0000, 0x0000, 0x0000, 0x0001, 0x0000, 0x0000, 0x0001},
                    {kNaN, 0x7fc0, 0x7fc0, 0x7fc0, 0x7fc0, 0x7fc0, 0x7fc0, 0x7fc0},
                });
}

TEST(Oracle_Numeric, FloatTargetEveryModeByHand) {
    // int32 -> float: 2^24 + 1 is halfway between 2^24 (significand even) and 2^24 + 2
    check_cases(
        DType::f32,
        {
            {16777217, 0x4b800000, 0x4b800000, 0x4b800000, 0x4b800001, 0x4b800001, 0x4b800000, 0x4b800001},
            // 2^24 + 3: halfway between 2^24 + 2 (odd significand) and 2^24 + 4 (even)
            {16777219, 0x4b800002, 0x4b800002, 0x4b800001, 0x4b800002, 0x4b800002, 0x4b800001, 0x4b800001},
            {-16777217, 0xcb800000, 0xcb800000, 0xcb800001, 0xcb800000, 0xcb800001, 0xcb800000, 0xcb800001},
        });
}

TEST(Oracle_Numeric, FloatToIntegerEveryModeAndSaturation) {
    check_cases(
        DType::i32,
        {
            {2.5, 2, 2, 2, 3, 3, 2, 3},
            {3.5, 4, 4, 3, 4, 4, 3, 3},
            {-2.5, 0xfffffffe, 0xfffffffe, 0xfffffffd, 0xfffffffe, 0xfffffffd, 0xfffffffe, 0xfffffffd},
            {2.25, 2, 2, 2, 3, 2, 2, 3},
            {3e9, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff},
            {-3e9, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000},
            {kNaN, 0, 0, 0, 0, 0, 0, 0},
            {kInf, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff},
            {-kInf, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000},
            {-0.0L, 0, 0, 0, 0, 0, 0, 0},
        });
    // docs/hardware-model.md §7 examples: half 127.5 -> int8 127 in every mode; float 2^22+0.5 -> int16 32767
    for (M m : kModes) {
        EXPECT_EQ(encode(DType::i8, 127.5, m), 0x7fu);
        EXPECT_EQ(encode(DType::i16, p2(22) + 0.5, m), 0x7fffu);
        EXPECT_EQ(encode(DType::i32, p2(31), m), 0x7fffffffu);  // int64 2^31 -> int32 2^31 - 1
        EXPECT_EQ(encode(DType::u8, -1.0, m), 0u);
        EXPECT_EQ(encode(DType::u8, 300.0, m), 255u);
    }
    EXPECT_EQ(encode(DType::i64, 1e30, M::CAST_RINT), 0x7fffffffffffffffu);
    EXPECT_EQ(encode(DType::i64, -1e30, M::CAST_RINT), 0x8000000000000000u);
}

TEST(Oracle_Numeric, DecodeByHand) {
    EXPECT_EQ(decode(DType::f16, 0x3c00), 1);
    EXPECT_EQ(decode(DType::f16, 0x0001), p2(-24));
    EXPECT_EQ(decode(DType::f16, 0x03ff), p2(-14) - p2(-24));
    EXPECT_EQ(decode(DType::f16, 0x7bff), 65504);
    EXPECT_EQ(decode(DType::f16, 0xc500), -5);
    EXPECT_EQ(decode(DType::f16, 0xfc00), -kInf);
    EXPECT_TRUE(std::isnan(decode(DType::f16, 0x7e00)));
    EXPECT_TRUE(std::isnan(decode(DType::f16, 0x7c01)));
    EXPECT_TRUE(std::signbit(decode(DType::f16, 0x8000)));
    EXPECT_EQ(decode(DType::bf16, 0x3f80), 1);
    EXPECT_EQ(decode(DType::bf16, 0x0001), p2(-133));
    EXPECT_EQ(decode(DType::bf16, 0x7f7f), (2 - p2(-7)) * p2(127));
    EXPECT_EQ(decode(DType::f32, 0x00000001), p2(-149));
    EXPECT_EQ(decode(DType::f32, 0x3fc00000), 1.5);
    EXPECT_EQ(decode(DType::i8, 0xff), -1);
    EXPECT_EQ(decode(DType::u8, 0xff), 255);
    EXPECT_EQ(decode(DType::i16, 0x8000), -32768);
    EXPECT_EQ(decode(DType::i32, 0x80000000), -2147483648.0L);
    EXPECT_EQ(decode(DType::i64, 0x8000000000000000), -p2(63));
    EXPECT_EQ(decode(DType::i64, 0x7fffffffffffffff), p2(63) - 1);
}

// Every non-NaN pattern of the 16-bit float types decodes and encodes back to itself in every mode
// (a representable value needs no rounding).
TEST(Oracle_Numeric, Every16BitPatternRoundTrips) {
    for (DType t : {DType::f16, DType::bf16}) {
        for (std::uint32_t b = 0; b < 0x10000; ++b) {
            const Real v = decode(t, b);
            if (std::isnan(v)) continue;
            for (M m : kModes) ASSERT_EQ(encode(t, v, m), b) << dtype_label(t) << " " << b;
        }
    }
}

// RINT against Eigen's software float -> half/bfloat16 (round to nearest even) over every float whose upper
// 16 bits range over all patterns, with assorted low bits (ties, just-below and just-above ties, randoms).
TEST(Oracle_Numeric, RintMatchesEigenHalfAndBfloat16) {
    std::mt19937 rng(7);
    const std::uint32_t lows[] = {0x0000, 0x0001, 0x0fff, 0x1000, 0x1001, 0x7fff, 0x8000, 0x8001, 0xffff};
    for (std::uint32_t hi = 0; hi < 0x10000; ++hi) {
        for (int j = 0; j < 10; ++j) {
            const std::uint32_t bits = (hi << 16) | (j < 9 ? lows[j] : (rng() & 0xffff));
            float f;
            std::memcpy(&f, &bits, 4);
            if (std::isnan(f)) continue;  // Eigen::half drops the NaN sign; NaNs are checked by hand above
            ASSERT_EQ(encode(DType::bf16, f, M::CAST_RINT), Eigen::bfloat16(f).value) << std::hex << bits;
            ASSERT_EQ(encode(DType::f16, f, M::CAST_RINT), Eigen::half(f).x) << std::hex << bits;
        }
    }
}

// RINT to float against the host FPU's double -> float conversion.
TEST(Oracle_Numeric, RintToFloatMatchesHostConversion) {
    std::mt19937_64 rng(11);
    for (int i = 0; i < 200000; ++i) {
        std::uint64_t bits = rng();
        // keep exponents near float's range so that subnormals, overflow and ties all occur
        const std::uint64_t exp = 1023 - 160 + (rng() % 300);
        bits = (bits & 0x800fffffffffffffu) | (exp << 52);
        if (i % 4 == 0) bits &= ~std::uint64_t{0x0fffffff};  // many low zeros: ties and exact values
        double d;
        std::memcpy(&d, &bits, 8);
        const float host = static_cast<float>(d);
        std::uint32_t want;
        std::memcpy(&want, &host, 4);
        ASSERT_EQ(encode(DType::f32, d, M::CAST_RINT), want) << std::hexfloat << d;
    }
}

// The rounding works on the bits of the long double; this is the definition it must agree with, written the
// slow way: scale x so that the last kept bit is the units digit (exact for powers of two), round that to an
// integer with libm's floor / ceil / trunc / round and an exact tie test, scale back, saturate.
Real scaled_round_to_integer(Real s, M m) {
    switch (m) {
        case M::CAST_FLOOR:
            return std::floor(s);
        case M::CAST_CEIL:
            return std::ceil(s);
        case M::CAST_TRUNC:
            return std::trunc(s);
        case M::CAST_ROUND:
            return std::round(s);
        case M::CAST_ODD: {
            const Real t = std::trunc(s);
            return t != s && std::fmod(t, Real(2)) == 0 ? t + (s < 0 ? -1 : 1) : t;
        }
        default: {
            const Real f = std::floor(s), d = s - f;
            if (d != Real(0.5)) return d > Real(0.5) ? f + 1 : f;
            return std::fmod(f, Real(2)) == 0 ? f : f + 1;
        }
    }
}

Real scaled_round_float(Real x, const FloatFormat& f, M m) {
    if (std::isnan(x) || std::isinf(x) || x == 0) return x;
    const int q = std::max(std::ilogb(x), f.emin) - (f.precision - 1);
    const Real r = std::ldexp(scaled_round_to_integer(std::ldexp(x, -q), m), q);
    if (std::fabs(r) > max_finite(f)) {
        const bool toward_zero = m == M::CAST_TRUNC || m == M::CAST_ODD || (m == M::CAST_FLOOR && x > 0) ||
                                 (m == M::CAST_CEIL && x < 0);
        const Real sat = toward_zero ? max_finite(f) : kInf;
        return x < 0 ? -sat : sat;
    }
    return r == 0 ? std::copysign(Real(0), x) : r;
}

// A long double with a random 64-bit significand and an exponent in [lo, hi]; some with many low zero bits
// (exact values and ties in every format).
Real random_real(std::mt19937_64& rng, int lo, int hi) {
    std::uint64_t sig = rng() | (std::uint64_t{1} << 63);
    if (rng() % 3 == 0) sig &= ~((std::uint64_t{1} << (rng() % 63)) - 1);
    const int e = lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
    const Real v = std::ldexp(static_cast<Real>(sig), e - 63);
    return rng() % 2 ? -v : v;
}

TEST(Oracle_Numeric, BitRoundingAgreesWithScaledRoundingInEveryModeAndFormat) {
    std::mt19937_64 rng(2026);
    for (const DType t : {DType::f16, DType::bf16, DType::f32}) {
        const FloatFormat* f = &float_format(t);
        for (int i = 0; i < 100000; ++i) {
            // from far below the smallest subnormal to past the largest finite value
            const Real x = random_real(rng, f->emin - f->precision - 3, f->emax + 2);
            for (M m : kModes) {
                const Real want = scaled_round_float(x, *f, m), got = round_float(x, *f, m);
                ASSERT_TRUE(got == want && std::signbit(got) == std::signbit(want))
                    << std::hexfloat << "x=" << x << " precision=" << f->precision << " mode=" << int(m)
                    << " got=" << got << " want=" << want;
                // encode packs the same rounding straight into bits: they decode to that value
                const Real back = decode(t, encode(t, x, m));
                ASSERT_TRUE(back == want && std::signbit(back) == std::signbit(want))
                    << std::hexfloat << "encode x=" << x << " " << dtype_label(t) << " mode=" << int(m)
                    << " bits=" << encode(t, x, m) << " want=" << want;
            }
        }
    }
    for (int i = 0; i < 200000; ++i) {
        const Real x = random_real(rng, -3, 66);
        for (M m : kModes) {
            Real want = scaled_round_to_integer(x, m);
            want = std::clamp(want, Real(-2147483648.0L), Real(2147483647.0L)) + 0;
            ASSERT_EQ(round_to(DType::i32, x, m), want) << std::hexfloat << x << " mode=" << int(m);
            Real want64 =
                std::clamp(scaled_round_to_integer(x, m), dtype_lowest(DType::i64), dtype_max(DType::i64));
            ASSERT_EQ(round_to(DType::i64, x, m), want64) << std::hexfloat << x << " mode=" << int(m);
        }
    }
}

// decode's direct paths (through float) against decode_by_format, which assembles the value from the format's
// fields: the same long double, compared by its 80 value bits (so NaN, its sign and the sign of zero count).
testing::AssertionResult same_decode(DType t, std::uint64_t bits) {
    const Real fast = decode(t, bits), reference = decode_by_format(t, bits);
    if (std::memcmp(&fast, &reference, 10) == 0) return testing::AssertionSuccess();
    return testing::AssertionFailure() << dtype_label(t) << " bits=0x" << std::hex << bits << std::hexfloat
                                       << " decode=" << fast << " decode_by_format=" << reference;
}

TEST(Oracle_Numeric, DirectDecodeAgreesWithFormatDecode) {
    for (const DType t : {DType::f16, DType::bf16, DType::i16})
        for (std::uint64_t b = 0; b <= 0xffff; ++b) ASSERT_TRUE(same_decode(t, b));
    for (const DType t : {DType::i8, DType::u8})
        for (std::uint64_t b = 0; b <= 0xff; ++b) ASSERT_TRUE(same_decode(t, b));
    // every float exponent (subnormals, NaNs and infinities included) with random fractions and signs
    std::mt19937_64 rng(7);
    for (std::uint64_t e = 0; e <= 0xff; ++e) {
        for (const std::uint64_t f : {0ull, 1ull, 0x400000ull, 0x7fffffull}) {
            ASSERT_TRUE(same_decode(DType::f32, (e << 23) | f));
            ASSERT_TRUE(same_decode(DType::f32, 0x80000000ull | (e << 23) | f));
        }
    }
    for (int i = 0; i < 4000000; ++i) ASSERT_TRUE(same_decode(DType::f32, rng() & 0xffffffffu));
    for (int i = 0; i < 100000; ++i) {
        const std::uint64_t b = rng();
        ASSERT_TRUE(same_decode(DType::i32, b & 0xffffffffu));
        ASSERT_TRUE(same_decode(DType::i64, b));
    }
    for (const std::uint64_t b : {0ull, 0x8000000000000000ull, 0x7fffffffffffffffull, ~0ull})
        ASSERT_TRUE(same_decode(DType::i64, b));
}

TEST(Oracle_Numeric, MaxFiniteAndLimits) {
    EXPECT_EQ(max_finite(kHalf), 65504);
    EXPECT_EQ(max_finite(kFloat), std::numeric_limits<float>::max());
    EXPECT_EQ(dtype_lowest(DType::i8), -128);
    EXPECT_EQ(dtype_max(DType::u8), 255);
    EXPECT_EQ(dtype_lowest(DType::bf16), -decode(DType::bf16, 0x7f7f));
}

}  // namespace
}  // namespace evg::oracle
