// float -> half / bfloat16 narrowing in every RoundMode against independent references
// (docs/hardware-model.md §7):
//  * RINT against GCC's _Float16 (when the compiler has it) and against an exact integer reference that
//    binary-searches the half encodings (runs on every compiler);
//  * every mode against the double-arithmetic bracketing reference of numeric_reference.hpp.
// Each mode sees kCount floats from a fixed-seed generator weighted towards exact ties, near-ties, subnormal
// results, the overflow boundary and NaN / Inf / +-0.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <iomanip>

#include "evg/hw/numeric/convert.hpp"
#include "numeric_reference.hpp"

namespace evg::hw {
namespace {

using testref::bits_float;
using testref::decode_bf16;
using testref::decode_half;
using testref::float_bits;
using testref::Mismatches;
using testref::SplitMix64;

constexpr long kCount = 10'000'000;  // floats per mode and per format
constexpr uint64_t kSeed = 0x5EED'A5CE'2201'0950ull;

// A float from a list of hand-picked hard cases (sign applied by the caller).
float special_input(SplitMix64& r) {
    static const float kSpecials[] = {0.0f,
                                      INFINITY,
                                      FLT_MIN,
                                      FLT_MAX,
                                      FLT_TRUE_MIN,
                                      1.0f,
                                      65504.0f,
                                      65505.0f,
                                      65519.0f,
                                      65520.0f,
                                      std::nextafter(65520.0f, 0.0f),
                                      65536.0f,
                                      131072.0f,
                                      0x1p-24f,
                                      0x1p-25f,
                                      std::nextafter(0x1p-25f, 1.0f),
                                      0x3p-26f,
                                      0x1p-14f,
                                      std::nextafter(0x1p-14f, 0.0f),
                                      0x1.ff8p-15f,
                                      2049.0f,
                                      2051.0f,
                                      0x1.fffffep127f,
                                      0x1.fe8p127f,
                                      0x1.ff0p127f,
                                      0x1p-126f,
                                      0x1p-133f,
                                      0x1p-134f,
                                      0x3p-135f,
                                      1e-30f,
                                      1e30f};
    const uint32_t n = sizeof kSpecials / sizeof kSpecials[0];
    const uint32_t k = r.below(n + 2);
    if (k == n) return bits_float(0x7F800000u | (1u + r.below(0x7FFFFFu)));  // NaN, random payload
    if (k == n + 1) return bits_float(1u + r.below(0x7FFFFEu));              // float subnormal
    return kSpecials[k];
}

// Inputs aimed at float -> half.
float half_input(SplitMix64& r) {
    const uint64_t x = r.next();
    const uint32_t c = static_cast<uint32_t>(x & 15);
    const bool neg = ((x >> 4) & 1) != 0;
    const uint32_t hi = static_cast<uint32_t>(x >> 32);
    auto sgn = [neg](float f) { return neg ? -f : f; };
    auto tie = [&] {  // exact midpoint of two consecutive halves (65520 between max and 2^16 included)
        const uint16_t h = static_cast<uint16_t>(hi % 0x7C00u);
        const double lo = decode_half(h);
        const double up = h == 0x7BFF ? 65536.0 : decode_half(static_cast<uint16_t>(h + 1));
        return static_cast<float>((lo + up) / 2);  // exact: 12 significant bits
    };
    switch (c) {
        case 0:
        case 1:
            return bits_float(hi);  // any pattern, NaN and Inf included
        case 2:
        case 3:
        case 4:
            return sgn(tie());
        case 5:
        case 6: {  // one float ulp either side of a tie
            const float t = tie();
            return sgn(bits_float(float_bits(t) + (((x >> 5) & 1) ? 1u : (t == 0.0f ? 0u : ~0u))));
        }
        case 7: {  // an exact half, or a few float ulps away from it
            const float v = static_cast<float>(decode_half(static_cast<uint16_t>(hi % 0x7C00u)));
            const int k = static_cast<int>((x >> 5) % 7) - 3;
            if (v == 0.0f && k < 0) return sgn(v);
            return sgn(bits_float(float_bits(v) + static_cast<uint32_t>(k)));
        }
        case 8:
        case 9: {  // around the half subnormal range: 2^-29 .. 2^-13
            const uint32_t e = 98 + hi % 16;
            return sgn(bits_float((e << 23) | static_cast<uint32_t>(r.next() & 0x7FFFFFu)));
        }
        case 10: {  // overflow boundary: 65000 .. 140000
            const uint32_t lo = float_bits(65000.0f);
            const uint32_t up = float_bits(140000.0f);
            return sgn(bits_float(lo + hi % (up - lo)));
        }
        case 11:
            return sgn(special_input(r));
        default: {  // half normal range with the 13 dropped bits chosen near the rounding decisions
            static const uint32_t kLow[] = {0, 0x1000, 0x0FFF, 0x1001, 0x1FFF, 1, 0x0800, 0x1800};
            const uint32_t e = 113 + hi % 30;
            const uint32_t top = static_cast<uint32_t>(r.next() & 0x3FFu) << 13;
            const uint32_t sel = (hi >> 8) % 10;
            const uint32_t low = sel < 8 ? kLow[sel] : static_cast<uint32_t>(r.next() & 0x1FFFu);
            return sgn(bits_float((e << 23) | top | low));
        }
    }
}

// Inputs aimed at float -> bfloat16.
float bf16_input(SplitMix64& r) {
    const uint64_t x = r.next();
    const uint32_t c = static_cast<uint32_t>(x & 15);
    const uint32_t sign = ((x >> 4) & 1) ? 0x80000000u : 0u;
    const uint32_t hi = static_cast<uint32_t>(x >> 32);
    const uint32_t tie =
        ((hi % 0x7F80u) << 16) | 0x8000u;  // midpoint of two consecutive bf16 (max/2^128 too)
    switch (c) {
        case 0:
        case 1:
            return bits_float(hi);
        case 2:
        case 3:
        case 4:
            return bits_float(sign | tie);
        case 5:
        case 6:
            return bits_float(sign | (((x >> 5) & 1) ? tie + 1 : tie - 1));
        case 7: {
            const uint32_t v = (hi % 0x7F80u) << 16;
            const int k = static_cast<int>((x >> 5) % 7) - 3;
            if (v == 0 && k < 0) return bits_float(sign);
            return bits_float(sign | (v + static_cast<uint32_t>(k)));
        }
        case 8:
        case 9: {  // float / bf16 subnormals and the smallest normals
            const uint32_t e = hi % 3;
            return bits_float(sign | (e << 23) | static_cast<uint32_t>(r.next() & 0x7FFFFFu));
        }
        case 10: {  // overflow boundary: the top two binades
            const uint32_t e = 253 + hi % 2;
            return bits_float(sign | (e << 23) | static_cast<uint32_t>(r.next() & 0x7FFFFFu));
        }
        case 11: {
            const float s = special_input(r);
            return sign ? -s : s;
        }
        default: {
            static const uint32_t kLow[] = {0, 0x8000, 0x7FFF, 0x8001, 0xFFFF, 1, 0x4000, 0xC000};
            const uint32_t top = (hi % 0x7F80u) << 16;
            const uint32_t sel = (hi >> 20) % 10;
            const uint32_t low = sel < 8 ? kLow[sel] : static_cast<uint32_t>(r.next() & 0xFFFFu);
            return bits_float(sign | top | low);
        }
    }
}

// ---- exact integer reference for float -> half, round to nearest even ----
using u128 = unsigned __int128;

// The value of a non-negative half encoding in units of 2^-50; 0x7C00 stands for 2^16 (the next value after
// max finite with an unbounded exponent, which RINT maps to Inf).
u128 half_units(uint32_t h) {
    if (h == 0x7C00) return u128{1} << 66;
    const uint32_t e = h >> 10;
    const uint32_t man = h & 0x3FF;
    if (e == 0) return u128{man} << 26;    // man * 2^-24
    return u128{1024u + man} << (e + 25);  // (1024 + man) * 2^(e - 25) = (1024 + man) * 2^(e + 25) units
}

uint16_t ref_half_rne_integer(float f) {
    const uint32_t u = float_bits(f);
    const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
    const uint32_t a = u & 0x7FFFFFFFu;
    if (a > 0x7F800000u) return sign | 0x7E00;
    const uint32_t e = a >> 23;
    if (e >= 144) return sign | 0x7C00;  // |f| >= 2^17 (and Inf): far beyond 65520
    if (e < 100) return sign;            // |f| < 2^-27: far below 2^-25
    const uint32_t man = (a & 0x7FFFFFu) | 0x800000u;
    const u128 x = u128{man} << (e - 100);  // |f| = man * 2^(e - 150) = x * 2^-50
    uint32_t lo = 0, up = 0x7C00;           // invariant: units(lo) <= x, and x < units(up + 1) conceptually
    while (lo < up) {                       // largest h in [0, 0x7C00] with units(h) <= x
        const uint32_t mid = (lo + up + 1) / 2;
        if (half_units(mid) <= x)
            lo = mid;
        else
            up = mid - 1;
    }
    if (lo == 0x7C00 || half_units(lo) == x) return static_cast<uint16_t>(sign | lo);
    const u128 twice = x * 2;
    const u128 sum = half_units(lo) + half_units(lo + 1);
    uint32_t h;
    if (twice < sum)
        h = lo;
    else if (twice > sum)
        h = lo + 1;
    else
        h = (lo & 1) ? lo + 1 : lo;
    return static_cast<uint16_t>(sign | h);
}

TEST(NumericNarrowing, IntegerReferenceSelfCheck) {
    // The reference itself on values whose answer is known from the IEEE definition.
    EXPECT_EQ(ref_half_rne_integer(1.0f), 0x3C00);
    EXPECT_EQ(ref_half_rne_integer(65504.0f), 0x7BFF);
    EXPECT_EQ(ref_half_rne_integer(65519.0f), 0x7BFF);
    EXPECT_EQ(ref_half_rne_integer(65520.0f), 0x7C00);
    EXPECT_EQ(ref_half_rne_integer(0x1p-24f), 0x0001);
    EXPECT_EQ(ref_half_rne_integer(0x1p-25f), 0x0000);
    EXPECT_EQ(ref_half_rne_integer(0x3p-25f), 0x0002);
    EXPECT_EQ(ref_half_rne_integer(-2049.0f), 0xE800);
    EXPECT_EQ(ref_half_rne_integer(2051.0f), 0x6802);
    EXPECT_EQ(ref_half_rne_integer(0x1.ff8p-15f), 0x03FF);  // largest subnormal
    EXPECT_EQ(ref_half_rne_integer(0x1.ffcp-15f), 0x0400);  // tie above it
}

TEST(NumericNarrowing, FloatToHalfRintMatchesIntegerReferenceAndFloat16) {
    SplitMix64 rng(kSeed);
    Mismatches bad;
    for (long i = 0; i < kCount; ++i) {
        const float f = half_input(rng);
        const uint16_t got = float_to_half(f, RoundMode::CAST_RINT);
        const uint16_t want = ref_half_rne_integer(f);
        if (got != want) {
            bad.add([&](auto& os) {
                os << std::hexfloat << f << std::hex << " (0x" << float_bits(f) << "): got 0x" << got
                   << " want 0x" << want;
            });
        }
        if (half(f).bits != got)
            bad.add([&](auto& os) { os << std::hexfloat << f << ": half(float) differs"; });
#if defined(__FLT16_MAX__)
        const _Float16 g = static_cast<_Float16>(f);
        uint16_t gb;
        std::memcpy(&gb, &g, sizeof gb);
        if (std::isnan(f)) gb = static_cast<uint16_t>((gb & 0x8000) | 0x7E00);  // canonical payload
        if (got != gb) {
            bad.add([&](auto& os) {
                os << std::hexfloat << f << std::hex << ": got 0x" << got << " _Float16 0x" << gb;
            });
        }
#endif
    }
    EXPECT_EQ(bad.count, 0) << bad.report();
#if !defined(__FLT16_MAX__)
    GTEST_LOG_(INFO)
        << "_Float16 not available with this compiler: checked against the integer reference only";
#endif
}

// Checks one narrowing result against the double reference.
template <class Decode>
void check_narrowing(Mismatches& bad, const char* what, float f, uint16_t got, RoundMode m,
                     const testref::RefFormat& fmt, uint16_t canonical_nan, Decode decode) {
    bool ok;
    double want = 0;
    if (std::isnan(f)) {
        ok = got == ((std::signbit(f) ? 0x8000 : 0) | canonical_nan);
    } else {
        want = testref::ref_round(static_cast<double>(f), fmt, m);
        ok = testref::same_value(decode(got), want);
    }
    if (!ok) {
        bad.add([&](auto& os) {
            os << what << " " << round_mode_name(m) << ": " << std::hexfloat << f << std::hex << " (0x"
               << float_bits(f) << "): got 0x" << got << " = " << decode(got) << ", want " << want;
        });
    }
}

class NarrowingPerMode : public ::testing::TestWithParam<RoundMode> {};

TEST_P(NarrowingPerMode, FloatToHalfMatchesReference) {
    const RoundMode m = GetParam();
    SplitMix64 rng(kSeed ^ static_cast<uint64_t>(m));
    Mismatches bad;
    for (long i = 0; i < kCount; ++i) {
        const float f = half_input(rng);
        check_narrowing(bad, "float->half", f, float_to_half(f, m), m, testref::kRefHalf, 0x7E00,
                        decode_half);
    }
    EXPECT_EQ(bad.count, 0) << bad.report();
}

TEST_P(NarrowingPerMode, FloatToBf16MatchesReference) {
    const RoundMode m = GetParam();
    SplitMix64 rng(~kSeed ^ static_cast<uint64_t>(m));
    Mismatches bad;
    for (long i = 0; i < kCount; ++i) {
        const float f = bf16_input(rng);
        check_narrowing(bad, "float->bf16", f, float_to_bf16(f, m), m, testref::kRefBf16, 0x7FC0,
                        decode_bf16);
    }
    EXPECT_EQ(bad.count, 0) << bad.report();
}

// half <-> bfloat16 (one rounding from the exact value), exhaustive over the source patterns.
TEST_P(NarrowingPerMode, HalfBf16BothWaysExhaustive) {
    const RoundMode m = GetParam();
    Mismatches bad;
    for (uint32_t v = 0; v < 65536; ++v) {
        const uint16_t in = static_cast<uint16_t>(v);
        uint16_t out = 0;
        convert_element(DType::f16, &in, DType::bf16, &out, m);
        check_narrowing(bad, "half->bf16", half_to_float(in), out, m, testref::kRefBf16, 0x7FC0, decode_bf16);
        convert_element(DType::bf16, &in, DType::f16, &out, m);
        check_narrowing(bad, "bf16->half", bf16_to_float(in), out, m, testref::kRefHalf, 0x7E00, decode_half);
    }
    EXPECT_EQ(bad.count, 0) << bad.report();
}

INSTANTIATE_TEST_SUITE_P(AllModes, NarrowingPerMode, ::testing::ValuesIn(kAllRoundModes),
                         [](const ::testing::TestParamInfo<RoundMode>& info) {
                             return std::string(round_mode_name(info.param));
                         });

// Hand-checked values per mode: ties, overflow and the subnormal boundary.
TEST(NumericNarrowing, HandPickedHalf) {
    using M = RoundMode;
    struct Case {
        float in;
        M m;
        uint16_t want;
    };
    const Case cases[] = {
        {65520.0f, M::CAST_RINT, 0x7C00},     {65520.0f, M::CAST_ROUND, 0x7C00},
        {65520.0f, M::CAST_NONE, 0x7C00},     {65520.0f, M::CAST_TRUNC, 0x7BFF},
        {65520.0f, M::CAST_FLOOR, 0x7BFF},    {65520.0f, M::CAST_CEIL, 0x7C00},
        {65520.0f, M::CAST_ODD, 0x7BFF},      {-65520.0f, M::CAST_FLOOR, 0xFC00},
        {-65520.0f, M::CAST_CEIL, 0xFBFF},    {1e9f, M::CAST_ODD, 0x7BFF},
        {-1e9f, M::CAST_ODD, 0xFBFF},         {1e9f, M::CAST_TRUNC, 0x7BFF},
        {65536.0f, M::CAST_TRUNC, 0x7BFF},    {INFINITY, M::CAST_TRUNC, 0x7C00},
        {-INFINITY, M::CAST_ODD, 0xFC00},     {2049.0f, M::CAST_RINT, 0x6800},
        {2049.0f, M::CAST_ROUND, 0x6801},     {2049.0f, M::CAST_CEIL, 0x6801},
        {2049.0f, M::CAST_ODD, 0x6801},       {2050.0f, M::CAST_ODD, 0x6801},
        {-2049.0f, M::CAST_FLOOR, 0xE801},    {-2049.0f, M::CAST_CEIL, 0xE800},
        {0x1p-25f, M::CAST_RINT, 0x0000},     {0x1p-25f, M::CAST_ROUND, 0x0001},
        {0x1p-30f, M::CAST_CEIL, 0x0001},     {-0x1p-30f, M::CAST_CEIL, 0x8000},
        {-0x1p-30f, M::CAST_FLOOR, 0x8001},   {0x1p-30f, M::CAST_ODD, 0x0001},
        {-0.0f, M::CAST_FLOOR, 0x8000},       {0.0f, M::CAST_CEIL, 0x0000},
        {0x1.ffcp-15f, M::CAST_RINT, 0x0400}, {0x1.ffcp-15f, M::CAST_TRUNC, 0x03FF},
        {-NAN, M::CAST_TRUNC, 0xFE00},        {NAN, M::CAST_ODD, 0x7E00},
    };
    for (const Case& c : cases) {
        EXPECT_EQ(float_to_half(c.in, c.m), c.want) << std::hexfloat << c.in << " " << round_mode_name(c.m);
    }
    // bf16 overflow mode rules at FLT_MAX (between bf16 max 0x7F7F and 2^128).
    EXPECT_EQ(float_to_bf16(FLT_MAX, RoundMode::CAST_RINT), 0x7F80);
    EXPECT_EQ(float_to_bf16(FLT_MAX, RoundMode::CAST_TRUNC), 0x7F7F);
    EXPECT_EQ(float_to_bf16(FLT_MAX, RoundMode::CAST_ODD), 0x7F7F);
    EXPECT_EQ(float_to_bf16(-FLT_MAX, RoundMode::CAST_CEIL), 0xFF7F);
    EXPECT_EQ(float_to_bf16(-FLT_MAX, RoundMode::CAST_FLOOR), 0xFF80);
    EXPECT_EQ(float_to_bf16(bits_float(0x3F808000u), RoundMode::CAST_RINT), 0x3F80);
    EXPECT_EQ(float_to_bf16(bits_float(0x3F818000u), RoundMode::CAST_RINT), 0x3F82);
    EXPECT_EQ(float_to_bf16(bits_float(0x3F808000u), RoundMode::CAST_ROUND), 0x3F81);
    EXPECT_EQ(float_to_bf16(bits_float(0x00008001u), RoundMode::CAST_RINT), 0x0001);  // float subnormal
    EXPECT_EQ(float_to_bf16(-NAN, RoundMode::CAST_RINT), 0xFFC0);
    EXPECT_EQ(bfloat16(-NAN).bits, 0xFFC0);
}

}  // namespace
}  // namespace evg::hw
