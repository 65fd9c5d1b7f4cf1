// The one place where the oracle meets lib/hw's conversions: the two independent implementations must agree
// bit for bit (the oracle shares no code with the model: docs/glossary.md, "oracle"). NaN results are
// compared as "NaN with the same sign": lib/hw keeps payloads, the oracle does not carry them (the comparison
// treats every NaN alike).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <vector>

#include <gtest/gtest.h>

#include "evg/hw/numeric/convert.hpp"
#include "evg/oracle/numeric.hpp"

namespace evg::oracle {
namespace {

const RoundMode kModes[] = {RoundMode::CAST_NONE, RoundMode::CAST_RINT,  RoundMode::CAST_FLOOR,
                            RoundMode::CAST_CEIL, RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC,
                            RoundMode::CAST_ODD};

float from_bits(std::uint32_t b) {
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}
std::uint32_t bits_of(float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

// Equal bit patterns, or both NaN with the same sign.
::testing::AssertionResult same_pattern(DType t, std::uint64_t oracle, std::uint64_t hw) {
    if (oracle == hw) return ::testing::AssertionSuccess();
    const Real o = decode(t, oracle), h = decode(t, hw);
    if (std::isnan(o) && std::isnan(h) && std::signbit(o) == std::signbit(h))
        return ::testing::AssertionSuccess();
    std::ostringstream os;
    os << std::hex << "oracle 0x" << oracle << " vs lib/hw 0x" << hw;
    return ::testing::AssertionFailure() << os.str();
}

TEST(Oracle_ConvertCrosscheck, EveryHalfAndBf16PatternToFloat) {
    for (std::uint32_t b = 0; b < 0x10000; ++b) {
        const auto u = static_cast<std::uint16_t>(b);
        ASSERT_TRUE(same_pattern(DType::f32, encode(DType::f32, decode(DType::f16, b)),
                                 bits_of(hw::half_to_float(u))))
            << "half 0x" << std::hex << b;
        ASSERT_TRUE(same_pattern(DType::f32, encode(DType::f32, decode(DType::bf16, b)),
                                 bits_of(hw::bf16_to_float(u))))
            << "bfloat16 0x" << std::hex << b;
    }
}

// Floats that stress a narrowing to `t`: for every finite pattern of t (both signs), the value itself, the
// midpoint to its upper neighbour (exact in float: one more bit), and the floats just below and above that
// midpoint; plus overflow, subnormal, NaN/Inf and random patterns over every exponent.
std::vector<float> narrowing_sample(DType t) {
    std::vector<float> v;
    for (std::uint32_t b = 0; b < 0x10000; ++b) {
        const Real x = decode(t, b), next = decode(t, b + 1);
        if (!std::isfinite(x)) continue;
        v.push_back(static_cast<float>(x));
        if (std::signbit(x) || std::isnan(next)) continue;  // midpoints on the positive side, mirrored below
        const float mid = static_cast<float>((x + next) / 2);  // exact in float
        for (float m :
             {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, std::numeric_limits<float>::infinity())}) {
            v.push_back(m);
            v.push_back(-m);
        }
    }
    const float specials[] = {0.0f,
                              -0.0f,
                              std::numeric_limits<float>::infinity(),
                              -std::numeric_limits<float>::infinity(),
                              std::numeric_limits<float>::max(),
                              -std::numeric_limits<float>::max(),
                              std::numeric_limits<float>::min(),
                              std::numeric_limits<float>::denorm_min(),
                              from_bits(0x7fc00000),
                              from_bits(0xffc00000),
                              from_bits(0x7f800001),  // NaNs
                              from_bits(0x7fbfffff),
                              65504.0f,
                              65519.99f,
                              65520.0f,
                              65536.0f,
                              1e10f,
                              -1e10f};
    v.insert(v.end(), std::begin(specials), std::end(specials));
    std::mt19937 rng(2024);
    for (int i = 0; i < 400000; ++i) v.push_back(from_bits(static_cast<std::uint32_t>(rng())));
    return v;
}

TEST(Oracle_ConvertCrosscheck, FloatToHalfEveryMode) {
    const std::vector<float> sample = narrowing_sample(DType::f16);
    for (RoundMode m : kModes)
        for (float f : sample)
            ASSERT_TRUE(same_pattern(DType::f16, encode(DType::f16, f, m), hw::float_to_half(f, m)))
                << "float 0x" << std::hex << bits_of(f) << " mode " << std::dec << static_cast<int>(m);
}

TEST(Oracle_ConvertCrosscheck, FloatToBf16EveryMode) {
    const std::vector<float> sample = narrowing_sample(DType::bf16);
    for (RoundMode m : kModes)
        for (float f : sample)
            ASSERT_TRUE(same_pattern(DType::bf16, encode(DType::bf16, f, m), hw::float_to_bf16(f, m)))
                << "float 0x" << std::hex << bits_of(f) << " mode " << std::dec << static_cast<int>(m);
}

TEST(Oracle_ConvertCrosscheck, FloatToIntegerEveryModeSaturating) {
    std::vector<float> sample = {0.0f,
                                 -0.0f,
                                 0.5f,
                                 -0.5f,
                                 1.5f,
                                 -1.5f,
                                 2.5f,
                                 -2.5f,
                                 127.5f,
                                 -128.5f,
                                 255.5f,
                                 256.0f,
                                 32767.5f,
                                 -32768.5f,
                                 2147483520.0f,
                                 2147483648.0f,
                                 -2147483648.0f,
                                 -2147483904.0f,
                                 9.2233715e18f,
                                 9.223372e18f,
                                 -9.223372e18f,
                                 1e30f,
                                 -1e30f,
                                 std::numeric_limits<float>::infinity(),
                                 -std::numeric_limits<float>::infinity(),
                                 std::numeric_limits<float>::quiet_NaN(),
                                 -std::numeric_limits<float>::quiet_NaN()};
    for (int k = -300; k <= 300; ++k)
        for (float frac : {0.0f, 0.25f, 0.5f, 0.75f}) sample.push_back(static_cast<float>(k) + frac);
    std::mt19937 rng(77);
    for (int i = 0; i < 100000; ++i) {
        const std::uint32_t exp = 127 - 4 + rng() % 70;  // magnitudes 2^-4 .. 2^65
        sample.push_back(from_bits((rng() & 0x807fffffu) | (exp << 23)));
    }
    for (DType t : {DType::i8, DType::u8, DType::i16, DType::i32, DType::i64})
        for (RoundMode m : kModes)
            for (float f : sample) {
                const auto hw_value = static_cast<Real>(hw::float_to_int(f, m, t));
                ASSERT_EQ(round_to(t, f, m), hw_value)
                    << dtype_label(t) << " " << f << " mode " << static_cast<int>(m);
            }
}

TEST(Oracle_ConvertCrosscheck, IntegerToFloatHalfBf16EveryMode) {
    std::vector<std::int64_t> sample = {0,
                                        1,
                                        -1,
                                        2047,
                                        2049,
                                        2051,
                                        65504,
                                        65519,
                                        65520,
                                        65535,
                                        70000,
                                        -70000,
                                        (1 << 24) + 1,
                                        (1 << 24) + 3,
                                        -(1 << 24) - 1,
                                        2147483647,
                                        -2147483647 - 1,
                                        std::numeric_limits<std::int64_t>::max(),
                                        std::numeric_limits<std::int64_t>::min()};
    std::mt19937_64 rng(99);
    for (int i = 0; i < 20000; ++i) sample.push_back(static_cast<std::int64_t>(rng()) >> (rng() % 63));
    for (RoundMode m : kModes)
        for (std::int64_t v : sample) {
            const Real x = static_cast<Real>(v);  // exact: 64-bit significand
            ASSERT_TRUE(same_pattern(DType::f32, encode(DType::f32, x, m), bits_of(hw::int_to_float(v, m))))
                << v << " mode " << static_cast<int>(m);
            ASSERT_TRUE(same_pattern(DType::f16, encode(DType::f16, x, m), hw::int_to_half(v, m)))
                << v << " mode " << static_cast<int>(m);
            ASSERT_TRUE(same_pattern(DType::bf16, encode(DType::bf16, x, m), hw::int_to_bf16(v, m)))
                << v << " mode " << static_cast<int>(m);
        }
}

TEST(Oracle_ConvertCrosscheck, IntegerSaturation) {
    const std::int64_t sample[] = {0,
                                   1,
                                   -1,
                                   127,
                                   128,
                                   -129,
                                   255,
                                   256,
                                   32767,
                                   32768,
                                   -32769,
                                   2147483647,
                                   2147483648,
                                   -2147483649LL,
                                   std::numeric_limits<std::int64_t>::max(),
                                   std::numeric_limits<std::int64_t>::min()};
    for (DType t : {DType::i8, DType::u8, DType::i16, DType::i32, DType::i64})
        for (std::int64_t v : sample)
            ASSERT_EQ(round_to(t, static_cast<Real>(v)), static_cast<Real>(hw::int_saturate(v, t)))
                << dtype_label(t) << " " << v;
}

}  // namespace
}  // namespace evg::oracle
