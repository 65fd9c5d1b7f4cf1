// Integer conversions (docs/hardware-model.md §7): float/half -> int rounding and saturation, NaN -> 0,
// int -> float/half/bf16 rounding above the mantissa width, int -> int saturation, and convert_element over
// every pair of kAllDTypes in every RoundMode against an independent reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "evg/hw/numeric/convert.hpp"
#include "numeric_reference.hpp"

namespace evg::hw {
namespace {

using M = RoundMode;
using testref::bits_float;
using testref::float_bits;
using testref::Mismatches;
using testref::SplitMix64;

static_assert(std::numeric_limits<long double>::digits >= 64,
              "the int64 reference needs a long double that holds every int64 exactly");

constexpr RoundMode kModes[] = {M::CAST_NONE,  M::CAST_RINT,  M::CAST_FLOOR, M::CAST_CEIL,
                                M::CAST_ROUND, M::CAST_TRUNC, M::CAST_ODD};
constexpr DType kIntTypes[] = {DType::i8, DType::u8, DType::i16, DType::i32, DType::i64};

// ---- float -> int ----

TEST(NumericInt, FloatToIntPerModeOnHalfIntegers) {
    const float in[] = {-2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f, -0.3f, 0.7f, 3.0f, -0.0f};
    struct Row {
        RoundMode m;
        int64_t want[10];
    };
    const Row rows[] = {
        {M::CAST_RINT, {-2, -2, 0, 0, 2, 2, 0, 1, 3, 0}},
        {M::CAST_NONE, {-2, -2, 0, 0, 2, 2, 0, 1, 3, 0}},
        {M::CAST_FLOOR, {-3, -2, -1, 0, 1, 2, -1, 0, 3, 0}},
        {M::CAST_CEIL, {-2, -1, 0, 1, 2, 3, 0, 1, 3, 0}},
        {M::CAST_ROUND, {-3, -2, -1, 1, 2, 3, 0, 1, 3, 0}},
        {M::CAST_TRUNC, {-2, -1, 0, 0, 1, 2, 0, 0, 3, 0}},
        {M::CAST_ODD, {-3, -1, -1, 1, 1, 3, -1, 1, 3, 0}},
    };
    for (const Row& r : rows) {
        for (int i = 0; i < 10; ++i) {
            for (DType t : {DType::i8, DType::i16, DType::i32, DType::i64}) {
                EXPECT_EQ(float_to_int(in[i], r.m, t), r.want[i])
                    << in[i] << " " << round_mode_name(r.m) << " -> " << dtype_name(t);
            }
            // The same through half and bfloat16 sources (the narrowed values round to the same integers).
            const uint16_t h = float_to_half(in[i], M::CAST_NONE);
            const uint16_t b = float_to_bf16(in[i], M::CAST_RINT);
            int32_t out = 99;
            convert_element(DType::f16, &h, DType::i32, &out, r.m);
            EXPECT_EQ(out, r.want[i]) << "half " << in[i] << " " << round_mode_name(r.m);
            convert_element(DType::bf16, &b, DType::i32, &out, r.m);
            EXPECT_EQ(out, r.want[i]) << "bf16 " << in[i] << " " << round_mode_name(r.m);
        }
    }
}

TEST(NumericInt, FloatToIntSaturates) {
    for (RoundMode m : kModes) {
        SCOPED_TRACE(std::string(round_mode_name(m)));
        EXPECT_EQ(float_to_int(0x1p31f, m, DType::i32), INT32_MAX);
        EXPECT_EQ(float_to_int(-0x1p31f, m, DType::i32), INT32_MIN);
        EXPECT_EQ(float_to_int(-0x1p31f - 256.0f, m, DType::i32), INT32_MIN);
        EXPECT_EQ(float_to_int(0x1.fffffep30f, m, DType::i32),
                  2147483520);                               // largest float below 2^31: exact
        EXPECT_EQ(float_to_int(127.5f, m, DType::i8), 127);  // the §7 example, every mode
        EXPECT_EQ(float_to_int(-128.5f, m, DType::i8), -128);
        EXPECT_EQ(float_to_int(1000.0f, m, DType::i8), 127);
        EXPECT_EQ(float_to_int(255.5f, m, DType::u8), 255);
        EXPECT_EQ(float_to_int(-1.0f, m, DType::u8), 0);
        EXPECT_EQ(float_to_int(-0.5f, m, DType::u8), 0);
        EXPECT_EQ(float_to_int(0x1p22f + 0.5f, m, DType::i16), 32767);  // §7: float 2^22+0.5 -> int16 32767
        EXPECT_EQ(float_to_int(-40000.0f, m, DType::i16), -32768);
        EXPECT_EQ(float_to_int(0x1p63f, m, DType::i64), INT64_MAX);
        EXPECT_EQ(float_to_int(-0x1p63f, m, DType::i64), INT64_MIN);
        EXPECT_EQ(float_to_int(1e30f, m, DType::i64), INT64_MAX);
        EXPECT_EQ(float_to_int(0x1.fffffep62f, m, DType::i64), int64_t{0xFFFFFF} << 39);
        EXPECT_EQ(float_to_int(INFINITY, m, DType::i32), INT32_MAX);
        EXPECT_EQ(float_to_int(-INFINITY, m, DType::i64), INT64_MIN);
        EXPECT_EQ(float_to_int(-INFINITY, m, DType::u8), 0);
        // half sources: 127.5 -> int8 127 and 65504 -> int16 32767 for every mode.
        const uint16_t h1275 = 0x57F8, h65504 = 0x7BFF, hm65504 = 0xFBFF, hinf = 0x7C00, hm3 = 0xC200;
        ASSERT_EQ(half_to_float(h1275), 127.5f);
        int8_t i8 = 0;
        int16_t i16 = 0;
        uint8_t u8 = 7;
        convert_element(DType::f16, &h1275, DType::i8, &i8, m);
        EXPECT_EQ(i8, 127);
        convert_element(DType::f16, &h65504, DType::i16, &i16, m);
        EXPECT_EQ(i16, 32767);
        convert_element(DType::f16, &hm65504, DType::i16, &i16, m);
        EXPECT_EQ(i16, -32768);
        convert_element(DType::f16, &hinf, DType::u8, &u8, m);
        EXPECT_EQ(u8, 255);
        convert_element(DType::f16, &hm3, DType::u8, &u8, m);
        EXPECT_EQ(u8, 0);
    }
}

// The destination element's bytes of `out` (which was pre-filled with ones).
int64_t low_bytes(int64_t out, DType t) {
    return dtype_size(t) == 8 ? out : (out & ((int64_t{1} << (8 * dtype_size(t))) - 1));
}

TEST(NumericInt, NanToIntIsZero) {
    const float nans[] = {NAN, -NAN, bits_float(0x7F800001u), bits_float(0xFFBFFFFFu)};
    const uint16_t hnan[] = {0x7E00, 0xFE00, 0x7C01, 0xFFFF};
    const uint16_t bnan[] = {0x7FC0, 0xFFC0, 0x7F81, 0xFFFF};
    for (RoundMode m : kModes) {
        for (DType t : kIntTypes) {
            for (float f : nans) {
                EXPECT_EQ(float_to_int(f, m, t), 0) << dtype_name(t);
                int64_t out = -1;
                convert_element(DType::f32, &f, t, &out, m);
                EXPECT_EQ(low_bytes(out, t), 0) << "float NaN -> " << dtype_name(t);
            }
            for (int k = 0; k < 4; ++k) {
                int64_t out = -1;
                convert_element(DType::f16, &hnan[k], t, &out, m);
                EXPECT_EQ(low_bytes(out, t), 0) << "half NaN -> " << dtype_name(t);
                out = -1;
                convert_element(DType::bf16, &bnan[k], t, &out, m);
                EXPECT_EQ(low_bytes(out, t), 0) << "bf16 NaN -> " << dtype_name(t);
            }
        }
    }
}

int64_t ref_clamp(double v, DType t) {
    double lo = -0x1p63, hi = 0x1p63;  // int64: hi is exclusive
    switch (t) {
        case DType::i8:
            lo = -128, hi = 127;
            break;
        case DType::u8:
            lo = 0, hi = 255;
            break;
        case DType::i16:
            lo = -32768, hi = 32767;
            break;
        case DType::i32:
            lo = -2147483648.0, hi = 2147483647.0;
            break;
        default:
            break;
    }
    if (t == DType::i64 || dtype_is_float(t)) {
        if (v >= hi) return INT64_MAX;
        if (v <= lo) return INT64_MIN;
        return static_cast<int64_t>(v);
    }
    return static_cast<int64_t>(v < lo ? lo : (v > hi ? hi : v));
}

float random_float_for_int(SplitMix64& r) {
    const uint64_t x = r.next();
    const uint32_t hi = static_cast<uint32_t>(x >> 32);
    const float s = (x & 1) ? -1.0f : 1.0f;
    switch ((x >> 1) % 6) {
        case 0:
            return bits_float(hi);  // anything
        case 1:
            return s * static_cast<float>(hi % 2000) * 0.5f;  // k/2: ties
        case 2:
            return s * static_cast<float>(hi % 400000) * 0.25f;  // quarters
        case 3:
            return bits_float((x & 1) << 31 | ((120u + hi % 45u) << 23) | (hi & 0x7FFFFFu));  // 2^-7..2^37
        case 4:
            return s * std::ldexp(1.0f + static_cast<float>(hi % 64) / 64.0f, static_cast<int>(hi % 70));
        default:
            return s * (static_cast<float>(hi % 1000) / 1000.0f);  // |f| < 1
    }
}

TEST(NumericInt, FloatToIntRandomAgainstReference) {
    SplitMix64 rng(0xF10A7'1A7ull);
    Mismatches bad;
    for (int i = 0; i < 400000; ++i) {
        const float f = random_float_for_int(rng);
        for (RoundMode m : kModes) {
            const double r = std::isnan(f) ? 0.0 : testref::ref_round_integral(f, m);
            // float -> float (round to integral): bit-exact, including the sign of a zero result.
            const float g = float_round_integral(f, m);
            if (std::isnan(f) ? !(std::isnan(g) && std::signbit(g) == std::signbit(f))
                              : !testref::same_value(static_cast<double>(g), r)) {
                bad.add([&](auto& os) {
                    os << "round_integral " << std::hexfloat << f << " " << round_mode_name(m) << " got " << g
                       << " want " << r;
                });
            }
            for (DType t : kIntTypes) {
                const int64_t want = std::isnan(f) ? 0 : ref_clamp(r, t);
                const int64_t got = float_to_int(f, m, t);
                if (got != want) {
                    bad.add([&](auto& os) {
                        os << std::hexfloat << f << " " << round_mode_name(m) << " -> " << dtype_name(t)
                           << ": got " << got << " want " << want;
                    });
                }
            }
        }
    }
    EXPECT_EQ(bad.count, 0) << bad.report();
}

TEST(NumericInt, FloatRoundIntegralSpecials) {
    for (RoundMode m : kModes) {
        EXPECT_EQ(float_bits(float_round_integral(-0.0f, m)), 0x80000000u);
        EXPECT_EQ(float_round_integral(INFINITY, m), INFINITY);
        EXPECT_EQ(float_round_integral(-INFINITY, m), -INFINITY);
        EXPECT_EQ(float_round_integral(0x1p23f + 1.0f, m), 0x1p23f + 1.0f);
        EXPECT_EQ(float_round_integral(FLT_MAX, m), FLT_MAX);
        EXPECT_EQ(float_bits(float_round_integral(bits_float(0xFF800123u), m)), 0xFFC00123u);  // quieted
    }
    EXPECT_EQ(float_round_integral(0x1.fffffep22f, M::CAST_RINT), 0x1p23f);  // 8388607.5 -> even 8388608
    EXPECT_EQ(float_round_integral(0x1.fffffcp22f, M::CAST_RINT), 8388607.0f);
    EXPECT_EQ(float_bits(float_round_integral(-0.3f, M::CAST_CEIL)), 0x80000000u);
    EXPECT_EQ(float_round_integral(FLT_TRUE_MIN, M::CAST_CEIL), 1.0f);
    EXPECT_EQ(float_round_integral(-FLT_TRUE_MIN, M::CAST_ODD), -1.0f);
}

// ---- int -> float / half / bf16 ----

TEST(NumericInt, IntToFloatRoundsAbove2To24) {
    struct Case {
        int64_t v;
        float want[7];  // NONE RINT FLOOR CEIL ROUND TRUNC ODD
    };
    const float a = 16777216.0f, b = 16777218.0f, c = 16777220.0f;
    const Case cases[] = {
        {16777216, {a, a, a, a, a, a, a}},
        {16777217, {a, a, a, b, b, a, b}},
        {16777219, {c, c, b, c, c, b, b}},
        {-16777217, {-a, -a, -b, -a, -b, -a, -b}},
        {16777218, {b, b, b, b, b, b, b}},
        {INT64_MIN, {-0x1p63f, -0x1p63f, -0x1p63f, -0x1p63f, -0x1p63f, -0x1p63f, -0x1p63f}},
        {INT64_MAX, {0x1p63f, 0x1p63f, 0x1.fffffep62f, 0x1p63f, 0x1p63f, 0x1.fffffep62f, 0x1.fffffep62f}},
        {INT32_MAX, {0x1p31f, 0x1p31f, 0x1.fffffep30f, 0x1p31f, 0x1p31f, 0x1.fffffep30f, 0x1.fffffep30f}},
        {-1, {-1, -1, -1, -1, -1, -1, -1}},
    };
    for (const Case& cs : cases) {
        for (int k = 0; k < 7; ++k) {
            EXPECT_EQ(int_to_float(cs.v, kModes[k]), cs.want[k]) << cs.v << " " << round_mode_name(kModes[k]);
        }
    }
    EXPECT_EQ(float_bits(int_to_float(0, M::CAST_FLOOR)), 0u);  // +0, never -0
}

TEST(NumericInt, IntToHalfAndBf16) {
    EXPECT_EQ(int_to_half(65504, M::CAST_NONE), 0x7BFF);
    EXPECT_EQ(int_to_half(65505, M::CAST_RINT), 0x7BFF);
    EXPECT_EQ(int_to_half(65520, M::CAST_RINT), 0x7C00);
    EXPECT_EQ(int_to_half(65520, M::CAST_ROUND), 0x7C00);
    EXPECT_EQ(int_to_half(65520, M::CAST_TRUNC), 0x7BFF);
    EXPECT_EQ(int_to_half(70000, M::CAST_TRUNC), 0x7BFF);
    EXPECT_EQ(int_to_half(70000, M::CAST_ODD), 0x7BFF);
    EXPECT_EQ(int_to_half(65536, M::CAST_TRUNC), 0x7BFF);  // exact power of two, still beyond max
    EXPECT_EQ(int_to_half(-70000, M::CAST_FLOOR), 0xFC00);
    EXPECT_EQ(int_to_half(-70000, M::CAST_CEIL), 0xFBFF);
    EXPECT_EQ(int_to_half(70000, M::CAST_CEIL), 0x7C00);
    EXPECT_EQ(int_to_half(INT64_MIN, M::CAST_RINT), 0xFC00);
    EXPECT_EQ(int_to_half(2049, M::CAST_RINT), 0x6800);
    EXPECT_EQ(int_to_half(2049, M::CAST_CEIL), 0x6801);
    EXPECT_EQ(int_to_half(-2049, M::CAST_ROUND), 0xE801);
    EXPECT_EQ(int_to_half(-1, M::CAST_NONE), 0xBC00);
    EXPECT_EQ(int_to_half(0, M::CAST_FLOOR), 0x0000);
    EXPECT_EQ(int_to_bf16(257, M::CAST_RINT), 0x4380);  // 256
    EXPECT_EQ(int_to_bf16(257, M::CAST_CEIL), 0x4381);  // 258
    EXPECT_EQ(int_to_bf16(259, M::CAST_RINT), 0x4382);  // tie -> 260
    // Single rounding straight from the integer: 2^24 + 2^16 + 1 is just above the bf16 tie 2^24 + 2^16, so
    // RINT goes up; rounding through float first would land on the tie and go down to even.
    EXPECT_EQ(int_to_bf16((1 << 24) + (1 << 16) + 1, M::CAST_RINT), 0x4B81);
    // int16 -> half (a real A2 Cast) for every int16, every mode, against the reference.
    Mismatches bad;
    for (int v = -32768; v <= 32767; ++v) {
        for (RoundMode m : kModes) {
            const int16_t s = static_cast<int16_t>(v);
            uint16_t out = 0;
            convert_element(DType::i16, &s, DType::f16, &out, m);
            const double want = testref::ref_round(static_cast<double>(v), testref::kRefHalf, m);
            if (!testref::same_value(testref::decode_half(out), want)) {
                bad.add(
                    [&](auto& os) { os << v << " " << round_mode_name(m) << " got " << std::hex << out; });
            }
        }
    }
    EXPECT_EQ(bad.count, 0) << bad.report();
}

int64_t random_int64(SplitMix64& r) {
    const uint64_t x = r.next();
    const int bits = static_cast<int>(x % 65);  // magnitude bit length 0..64
    uint64_t mag = bits == 0 ? 0 : (r.next() >> (64 - bits));
    if (bits > 0) mag |= uint64_t{1} << (bits - 1);
    // Also aim at ties: clear a random run of low bits and set the one above.
    if ((x >> 8) % 3 == 0 && bits > 2) {
        const int k = 1 + static_cast<int>((x >> 16) % static_cast<uint64_t>(bits - 1));
        mag = (mag >> k << k) | (uint64_t{1} << (k - 1));
    }
    const int64_t v = static_cast<int64_t>(mag);  // wraps for bit length 64
    return ((x >> 7) & 1) ? static_cast<int64_t>(uint64_t{0} - static_cast<uint64_t>(v)) : v;
}

TEST(NumericInt, IntToFloatHalfBf16RandomAgainstReference) {
    SplitMix64 rng(0x1A7'70F1'0A7ull);
    Mismatches bad;
    for (int i = 0; i < 300000; ++i) {
        const int64_t v = random_int64(rng);
        const long double x = static_cast<long double>(v);  // exact
        for (RoundMode m : kModes) {
            const long double wf = testref::ref_round(x, testref::kRefFloat, m);
            const float gf = int_to_float(v, m);
            if (!testref::same_value(static_cast<long double>(gf), wf)) {
                bad.add([&](auto& os) {
                    os << v << " -> float " << round_mode_name(m) << " got " << std::hexfloat << gf;
                });
            }
            const long double wh = testref::ref_round(x, testref::kRefHalf, m);
            const uint16_t gh = int_to_half(v, m);
            if (!testref::same_value(static_cast<long double>(testref::decode_half(gh)), wh)) {
                bad.add([&](auto& os) {
                    os << v << " -> half " << round_mode_name(m) << " got 0x" << std::hex << gh;
                });
            }
            const long double wb = testref::ref_round(x, testref::kRefBf16, m);
            const uint16_t gb = int_to_bf16(v, m);
            if (!testref::same_value(static_cast<long double>(testref::decode_bf16(gb)), wb)) {
                bad.add([&](auto& os) {
                    os << v << " -> bf16 " << round_mode_name(m) << " got 0x" << std::hex << gb;
                });
            }
        }
    }
    EXPECT_EQ(bad.count, 0) << bad.report();
}

// ---- int -> int ----

TEST(NumericInt, IntSaturate) {
    EXPECT_EQ(int_saturate(40000, DType::i16), 32767);
    EXPECT_EQ(int_saturate(-40000, DType::i16), -32768);
    EXPECT_EQ(int_saturate(int64_t{1} << 31, DType::i32), INT32_MAX);  // §7: int64 2^31 -> int32 2^31-1
    EXPECT_EQ(int_saturate(INT64_MIN, DType::i32), INT32_MIN);
    EXPECT_EQ(int_saturate(-1, DType::u8), 0);
    EXPECT_EQ(int_saturate(300, DType::u8), 255);
    EXPECT_EQ(int_saturate(-200, DType::i8), -128);
    EXPECT_EQ(int_saturate(12345, DType::i32), 12345);
    EXPECT_EQ(int_saturate(INT64_MAX, DType::i64), INT64_MAX);
    int32_t s32 = 100000;
    int16_t d16 = 0;
    convert_element(DType::i32, &s32, DType::i16, &d16, M::CAST_NONE);
    EXPECT_EQ(d16, 32767);
    int64_t s64 = int64_t{1} << 31;
    int32_t d32 = 0;
    convert_element(DType::i64, &s64, DType::i32, &d32, M::CAST_NONE);
    EXPECT_EQ(d32, INT32_MAX);
}

// ---- convert_element: every pair, every mode ----

// A source element and its exact value.
struct Sample {
    alignas(8) unsigned char bytes[8];
    bool nan;
    bool neg;  // sign bit (for NaN and -0)
    long double value;
};

std::vector<Sample> samples_of(DType t, SplitMix64& r) {
    std::vector<Sample> out;
    auto add_float = [&](float f) {
        Sample s{};
        std::memcpy(s.bytes, &f, 4);
        s.nan = std::isnan(f);
        s.neg = std::signbit(f);
        s.value = s.nan ? 0 : f;
        out.push_back(s);
    };
    auto add_16 = [&](uint16_t b) {
        Sample s{};
        std::memcpy(s.bytes, &b, 2);
        const double v = t == DType::f16 ? testref::decode_half(b) : testref::decode_bf16(b);
        s.nan = std::isnan(v);
        s.neg = (b & 0x8000) != 0;
        s.value = s.nan ? 0 : v;
        out.push_back(s);
    };
    auto add_int = [&](int64_t v) {
        Sample s{};
        switch (t) {
            case DType::i8:
                v = static_cast<int8_t>(v);
                break;
            case DType::u8:
                v = static_cast<uint8_t>(v);
                break;
            case DType::i16:
                v = static_cast<int16_t>(v);
                break;
            case DType::i32:
                v = static_cast<int32_t>(v);
                break;
            default:
                break;
        }
        const int64_t le = v;  // little-endian host: the low bytes are the narrow value
        std::memcpy(s.bytes, &le, 8);
        s.value = static_cast<long double>(v);
        s.neg = v < 0;
        out.push_back(s);
    };
    switch (t) {
        case DType::f32: {
            const float fs[] = {0.0f,         -0.0f,     0.5f,     -0.5f,    1.5f,        -1.5f,     2.5f,
                                -2.5f,        127.5f,    -128.5f,  255.5f,   256.0f,      -1.0f,     32767.5f,
                                32768.0f,     -32769.0f, 65504.0f, 65520.0f, 1e5f,        0x1p31f,   -0x1p31f,
                                0x1p63f,      -0x1p63f,  1e20f,    -1e20f,   INFINITY,    -INFINITY, NAN,
                                -NAN,         1e-8f,     0x1p-24f, 3.3e38f,  16777217.0f, 0.3f,      -0.7f,
                                FLT_TRUE_MIN, 0x1p-130f};
            for (float f : fs) add_float(f);
            for (int i = 0; i < 3000; ++i) add_float(random_float_for_int(r));
            break;
        }
        case DType::f16:
        case DType::bf16:
            for (uint32_t b = 0; b < 65536; ++b) add_16(static_cast<uint16_t>(b));
            break;
        case DType::i8:
        case DType::u8:
            for (int v = 0; v < 256; ++v) add_int(v);
            break;
        case DType::i16:
            for (int v = -32768; v <= 32767; ++v) add_int(v);
            break;
        case DType::i32:
        case DType::i64: {
            const int64_t vs[] = {0,
                                  1,
                                  -1,
                                  127,
                                  -128,
                                  255,
                                  256,
                                  32767,
                                  32768,
                                  -32769,
                                  65504,
                                  65505,
                                  65519,
                                  65520,
                                  65536,
                                  (1 << 24) + 1,
                                  (1 << 24) + 3,
                                  -(1 << 24) - 1,
                                  INT32_MAX,
                                  INT32_MIN,
                                  int64_t{1} << 31,
                                  -(int64_t{1} << 31) - 1,
                                  INT64_MAX,
                                  INT64_MIN,
                                  (int64_t{1} << 53) + 1};
            for (int64_t v : vs) add_int(v);
            for (int i = 0; i < 3000; ++i) add_int(random_int64(r));
            break;
        }
    }
    return out;
}

TEST(NumericInt, ConvertElementEveryPairEveryMode) {
    SplitMix64 rng(0xA11'DA7Aull);
    Mismatches bad;
    long checked = 0;
    for (DType from : kAllDTypes) {
        const std::vector<Sample> samples = samples_of(from, rng);
        for (DType to : kAllDTypes) {
            for (RoundMode m : kModes) {
                for (const Sample& s : samples) {
                    alignas(8) unsigned char out[8];
                    std::memset(out, 0xCD, sizeof out);
                    convert_element(from, s.bytes, to, out, m);
                    // Bytes past the destination element stay untouched.
                    bool ok =
                        std::all_of(out + dtype_size(to), out + 8, [](unsigned char c) { return c == 0xCD; });
                    if (to == DType::f32) {
                        float g;
                        std::memcpy(&g, out, 4);
                        if (s.nan) {
                            ok = ok && std::isnan(g) && std::signbit(g) == s.neg;
                        } else if (from == DType::f32) {
                            ok = ok && testref::same_value(
                                           static_cast<double>(g),
                                           testref::ref_round_integral(static_cast<double>(s.value), m));
                        } else {
                            const long double w = (dtype_is_float(from) || s.value == 0)
                                                      ? s.value
                                                      : testref::ref_round(s.value, testref::kRefFloat, m);
                            ok = ok && testref::same_value(static_cast<long double>(g), w);
                        }
                    } else if (to == DType::f16 || to == DType::bf16) {
                        uint16_t g;
                        std::memcpy(&g, out, 2);
                        if (from == to) {
                            ok = ok && std::memcmp(out, s.bytes, 2) == 0;  // plain copy
                        } else if (s.nan) {
                            ok = ok && g == ((s.neg ? 0x8000 : 0) | (to == DType::f16 ? 0x7E00 : 0x7FC0));
                        } else {
                            const long double w =
                                s.value == 0
                                    ? s.value
                                    : testref::ref_round(
                                          s.value, to == DType::f16 ? testref::kRefHalf : testref::kRefBf16,
                                          m);
                            const double d =
                                to == DType::f16 ? testref::decode_half(g) : testref::decode_bf16(g);
                            ok = ok && testref::same_value(static_cast<long double>(d), w);
                        }
                    } else {
                        int64_t g = 0;
                        switch (to) {
                            case DType::i8:
                                g = static_cast<int8_t>(out[0]);
                                break;
                            case DType::u8:
                                g = out[0];
                                break;
                            case DType::i16: {
                                int16_t x;
                                std::memcpy(&x, out, 2);
                                g = x;
                                break;
                            }
                            case DType::i32: {
                                int32_t x;
                                std::memcpy(&x, out, 4);
                                g = x;
                                break;
                            }
                            default:
                                std::memcpy(&g, out, 8);
                                break;
                        }
                        int64_t w;
                        if (dtype_is_float(from)) {
                            w = s.nan ? 0
                                      : ref_clamp(
                                            testref::ref_round_integral(static_cast<double>(s.value), m), to);
                        } else {
                            const int64_t v = static_cast<int64_t>(s.value);
                            w = to == DType::i64 ? v
                                                 : ref_clamp(static_cast<double>(v), to);  // exact below 2^53
                        }
                        ok = ok && g == w;
                    }
                    ++checked;
                    if (!ok) {
                        bad.add([&](auto& os) {
                            os << dtype_name(from) << " -> " << dtype_name(to) << " " << round_mode_name(m)
                               << " value " << static_cast<double>(s.value) << (s.nan ? " (NaN)" : "");
                        });
                    }
                }
            }
        }
    }
    EXPECT_GT(checked, 5'000'000);
    EXPECT_EQ(bad.count, 0) << bad.report();
}

}  // namespace
}  // namespace evg::hw
