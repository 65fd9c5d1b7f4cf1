// Exhaustive 16-bit checks: every half and bfloat16 bit pattern widens exactly and narrows back unchanged in
// every RoundMode (docs/hardware-model.md §7).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "evg/hw/numeric/convert.hpp"
#include "numeric_reference.hpp"

namespace evg::hw {
namespace {

using testref::decode_bf16;
using testref::decode_half;
using testref::float_bits;
using testref::Mismatches;

bool half_is_nan(uint16_t h) {
    return (h & 0x7C00) == 0x7C00 && (h & 0x03FF) != 0;
}
bool bf16_is_nan(uint16_t b) {
    return (b & 0x7F80) == 0x7F80 && (b & 0x007F) != 0;
}

TEST(NumericRoundTrip, HalfToFloatIsExactForAllPatterns) {
    Mismatches bad;
    for (uint32_t h = 0; h < 65536; ++h) {
        const uint16_t hb = static_cast<uint16_t>(h);
        const float f = half_to_float(hb);
        const uint32_t u = float_bits(f);
        if (half_is_nan(hb)) {
            // NaN widens to NaN with the sign and the payload (shifted into the float mantissa) kept.
            const uint32_t want = ((h & 0x8000u) << 16) | 0x7F800000u | ((h & 0x3FFu) << 13);
            if (u != want) bad.add([&](auto& os) { os << std::hex << "half 0x" << h << " -> 0x" << u; });
        } else {
            const double want = decode_half(hb);
            if (!testref::same_value(static_cast<double>(f), want)) {
                bad.add(
                    [&](auto& os) { os << std::hex << "half 0x" << h << " -> " << f << " want " << want; });
            }
        }
        // The storage type and to_float agree with the free function.
        if (float_bits(static_cast<float>(half::from_bits(hb))) != u ||
            float_bits(to_float(half::from_bits(hb))) != u) {
            bad.add([&](auto& os) { os << std::hex << "half struct 0x" << h; });
        }
    }
    EXPECT_EQ(bad.count, 0) << bad.report();
}

TEST(NumericRoundTrip, Bf16ToFloatIsExactForAllPatterns) {
    Mismatches bad;
    for (uint32_t b = 0; b < 65536; ++b) {
        const uint16_t bb = static_cast<uint16_t>(b);
        const uint32_t u = float_bits(bf16_to_float(bb));
        if (u != b << 16) bad.add([&](auto& os) { os << std::hex << "bf16 0x" << b << " -> 0x" << u; });
        if (!bf16_is_nan(bb) &&
            !testref::same_value(static_cast<double>(bf16_to_float(bb)), decode_bf16(bb))) {
            bad.add([&](auto& os) { os << std::hex << "bf16 0x" << b << " value"; });
        }
        if (float_bits(static_cast<float>(bfloat16::from_bits(bb))) != u ||
            float_bits(to_float(bfloat16::from_bits(bb))) != u) {
            bad.add([&](auto& os) { os << std::hex << "bfloat16 struct 0x" << b; });
        }
    }
    EXPECT_EQ(bad.count, 0) << bad.report();
}

TEST(NumericRoundTrip, HalfFloatHalfInEveryMode) {
    Mismatches bad;
    for (RoundMode m : kAllRoundModes) {
        for (uint32_t h = 0; h < 65536; ++h) {
            const uint16_t hb = static_cast<uint16_t>(h);
            const uint16_t back = float_to_half(half_to_float(hb), m);
            const bool ok = half_is_nan(hb) ? (back == ((h & 0x8000u) | 0x7E00u)) : back == hb;
            if (!ok) {
                bad.add([&](auto& os) {
                    os << round_mode_name(m) << std::hex << ": half 0x" << h << " -> float -> 0x" << back;
                });
            }
        }
    }
    // The storage type's converting constructor is the RINT narrowing.
    for (uint32_t h = 0; h < 65536; ++h) {
        const uint16_t hb = static_cast<uint16_t>(h);
        const half x(half_to_float(hb));
        if (!half_is_nan(hb) && !(x == half::from_bits(hb)))
            bad.add([&](auto& os) { os << "half(float) " << h; });
    }
    EXPECT_EQ(bad.count, 0) << bad.report();
}

TEST(NumericRoundTrip, Bf16FloatBf16InEveryMode) {
    Mismatches bad;
    for (RoundMode m : kAllRoundModes) {
        for (uint32_t b = 0; b < 65536; ++b) {
            const uint16_t bb = static_cast<uint16_t>(b);
            const uint16_t back = float_to_bf16(bf16_to_float(bb), m);
            const bool ok = bf16_is_nan(bb) ? (back == ((b & 0x8000u) | 0x7FC0u)) : back == bb;
            if (!ok) {
                bad.add([&](auto& os) {
                    os << round_mode_name(m) << std::hex << ": bf16 0x" << b << " -> float -> 0x" << back;
                });
            }
        }
    }
    for (uint32_t b = 0; b < 65536; ++b) {
        const uint16_t bb = static_cast<uint16_t>(b);
        const bfloat16 x(bf16_to_float(bb));
        if (!bf16_is_nan(bb) && !(x == bfloat16::from_bits(bb)))
            bad.add([&](auto& os) { os << "bfloat16(float) " << b; });
    }
    EXPECT_EQ(bad.count, 0) << bad.report();
}

// Through convert_element as the Cast instruction uses it: half -> float -> half and bf16 -> float -> bf16.
TEST(NumericRoundTrip, ConvertElementWidenNarrowAllPatterns) {
    Mismatches bad;
    for (RoundMode m : kAllRoundModes) {
        for (uint32_t v = 0; v < 65536; ++v) {
            const uint16_t in = static_cast<uint16_t>(v);
            for (DType t : {DType::f16, DType::bf16}) {
                float wide = 0;
                uint16_t back = 0;
                convert_element(t, &in, DType::f32, &wide, RoundMode::CAST_NONE);
                convert_element(DType::f32, &wide, t, &back, m);
                const bool nan = t == DType::f16 ? half_is_nan(in) : bf16_is_nan(in);
                const uint16_t canon = t == DType::f16 ? 0x7E00 : 0x7FC0;
                if (nan ? back != ((v & 0x8000u) | canon) : back != in) {
                    bad.add([&](auto& os) {
                        os << dtype_name(t) << " " << round_mode_name(m) << std::hex << " 0x" << v;
                    });
                }
            }
        }
    }
    EXPECT_EQ(bad.count, 0) << bad.report();
}

}  // namespace
}  // namespace evg::hw
