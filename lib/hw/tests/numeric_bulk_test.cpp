// The bulk conversions (evg/hw/numeric/bulk.hpp) against the scalar ones, bit for bit: every 16-bit pattern
// widened, and floats around every rounding boundary of every binade narrowed, through the portable and (when
// the CPU has it) the F16C implementation, at unaligned addresses and lengths that are not a multiple of 8.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <random>
#include <vector>

#include "evg/hw/numeric/bulk.hpp"
#include "evg/hw/numeric/convert.hpp"

namespace evg::hw {
namespace {

using Widen = void (*)(const void*, float*, size_t);
using Narrow = void (*)(const float*, void*, size_t);

// Every 16-bit pattern, in order (groups of eight mix NaNs with Inf and finite values at 0x7C00 / 0xFC00).
std::vector<uint16_t> every_pattern() {
    std::vector<uint16_t> v(65536);
    for (uint32_t i = 0; i < 65536; ++i) v[i] = static_cast<uint16_t>(i);
    return v;
}

// Floats of every sign, exponent and top 7 mantissa bits, with low 16 bits at and around the rounding
// boundaries of half (bit 12 halfway for normal results; bits 13 to 23 for subnormal ones, which the top bits
// enumerate) and of bfloat16 (bit 15 halfway), plus random floats.
std::vector<float> boundary_floats() {
    const uint32_t lows[] = {0x0000, 0x0001, 0x0FFF, 0x1000, 0x1001, 0x1FFF, 0x2000, 0x2001, 0x3000, 0x5000,
                             0x7FFF, 0x8000, 0x8001, 0x9000, 0xBFFF, 0xC000, 0xEFFF, 0xF000, 0xF001, 0xFFFF};
    std::vector<float> v;
    v.reserve(65536 * std::size(lows) + (1u << 20));
    for (uint32_t hi = 0; hi < 65536; ++hi)
        for (uint32_t lo : lows) v.push_back(std::bit_cast<float>((hi << 16) | lo));
    std::mt19937 rng(11);
    for (uint32_t i = 0; i < (1u << 20); ++i) v.push_back(std::bit_cast<float>(static_cast<uint32_t>(rng())));
    return v;
}

// Widens `in` starting at element `skip`, from a byte buffer offset by one byte (unaligned), and compares
// with the scalar conversion.
void expect_widen(Widen f, float (*scalar)(uint16_t), const std::vector<uint16_t>& in, size_t skip) {
    const size_t n = in.size() - skip;
    std::vector<uint8_t> bytes(2 * n + 1);
    std::memcpy(bytes.data() + 1, in.data() + skip, 2 * n);
    std::vector<float> out(n);
    f(bytes.data() + 1, out.data(), n);
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t want = std::bit_cast<uint32_t>(scalar(in[skip + i]));
        const uint32_t got = std::bit_cast<uint32_t>(out[i]);
        if (want != got && bad++ < 5)
            ADD_FAILURE() << "pattern 0x" << std::hex << in[skip + i] << ": 0x" << got << ", want 0x" << want;
    }
    EXPECT_EQ(bad, 0u);
}

void expect_narrow(Narrow f, uint16_t (*scalar)(float), const std::vector<float>& in, size_t skip) {
    const size_t n = in.size() - skip;
    std::vector<uint8_t> bytes(2 * n + 1);
    f(in.data() + skip, bytes.data() + 1, n);
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) {
        uint16_t got = 0;
        std::memcpy(&got, bytes.data() + 1 + 2 * i, 2);
        const uint16_t want = scalar(in[skip + i]);
        if (want != got && bad++ < 5)
            ADD_FAILURE() << "float 0x" << std::hex << std::bit_cast<uint32_t>(in[skip + i]) << ": 0x" << got
                          << ", want 0x" << want;
    }
    EXPECT_EQ(bad, 0u);
}

float half_ref(uint16_t b) {
    return half_to_float(b);
}
float bf16_ref(uint16_t b) {
    return bf16_to_float(b);
}
uint16_t half_rne_ref(float f) {
    return float_to_half(f, RoundMode::CAST_RINT);
}
uint16_t bf16_rne_ref(float f) {
    return float_to_bf16(f, RoundMode::CAST_RINT);
}

TEST(NumericBulk, HalfWideningEqualsTheScalarForEveryPattern) {
    const auto all = every_pattern();
    for (size_t skip : {0, 3}) {
        expect_widen(half_to_float_n, half_ref, all, skip);
        expect_widen(detail::half_to_float_n_portable, half_ref, all, skip);
        if (detail::bulk_has_f16c()) expect_widen(detail::half_to_float_n_f16c, half_ref, all, skip);
    }
}

TEST(NumericBulk, Bf16WideningEqualsTheScalarForEveryPattern) {
    const auto all = every_pattern();
    for (size_t skip : {0, 5}) expect_widen(bf16_to_float_n, bf16_ref, all, skip);
}

TEST(NumericBulk, HalfNarrowingEqualsTheScalarAtEveryBoundary) {
    const auto floats = boundary_floats();
    for (size_t skip : {0, 1}) {
        expect_narrow(float_to_half_rne_n, half_rne_ref, floats, skip);
        expect_narrow(detail::float_to_half_rne_n_portable, half_rne_ref, floats, skip);
        if (detail::bulk_has_f16c())
            expect_narrow(detail::float_to_half_rne_n_f16c, half_rne_ref, floats, skip);
    }
}

TEST(NumericBulk, Bf16NarrowingEqualsTheScalarAtEveryBoundary) {
    const auto floats = boundary_floats();
    for (size_t skip : {0, 7}) expect_narrow(float_to_bf16_rne_n, bf16_rne_ref, floats, skip);
}

// Every half value survives widening then narrowing (NaNs become sign | 0x7E00), through the bulk path.
TEST(NumericBulk, HalfRoundTripsThroughFloat) {
    const auto all = every_pattern();
    std::vector<float> f(all.size());
    std::vector<uint16_t> back(all.size());
    half_to_float_n(all.data(), f.data(), all.size());
    float_to_half_rne_n(f.data(), back.data(), all.size());
    for (size_t i = 0; i < all.size(); ++i) {
        const bool nan = (all[i] & 0x7FFF) > 0x7C00;
        ASSERT_EQ(back[i], nan ? static_cast<uint16_t>((all[i] & 0x8000) | 0x7E00) : all[i]) << i;
    }
}

}  // namespace
}  // namespace evg::hw
