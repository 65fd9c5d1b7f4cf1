// The three comparison modes, NaN/Inf awareness in each, ULP distances and the mismatch report.
#include <gtest/gtest.h>

#include "evg/hw/error.hpp"
#include "evg/oracle/compare.hpp"
#include "oracle_test_util.hpp"

namespace evg::oracle {
namespace {

using namespace evg::oracle::test;
const CompareMode kAllModes[] = {CompareMode::BitExact, CompareMode::Ulp, CompareMode::Catlass};

CompareOptions options(CompareMode m) {
    CompareOptions o;
    o.mode = m;
    o.max_ulp = 1000;  // generous, so that only the NaN/Inf rules can fail
    o.rtol = 1.0;
    return o;
}

CompareResult cmp1(DType t, std::uint64_t out, std::uint64_t golden, const CompareOptions& o) {
    return compare("D", HostTensor::from_bits(t, {out}), HostTensor::from_bits(t, {golden}),
                   Region::dense(1, 1), o);
}

TEST(Oracle_Compare, UlpDistance) {
    EXPECT_EQ(ulp_distance(F16, 0x3c00, 0x3c00), 0u);
    EXPECT_EQ(ulp_distance(F16, 0x3c00, 0x3c02), 2u);
    EXPECT_EQ(ulp_distance(F16, 0x3bff, 0x3c00), 1u);  // across a binade
    EXPECT_EQ(ulp_distance(F16, 0x0001, 0x8001), 2u);  // across zero
    EXPECT_EQ(ulp_distance(F16, 0x0000, 0x8000), 0u);  // +0 and -0
    EXPECT_EQ(ulp_distance(F16, 0x7bff, 0x7c00), 1u);  // max finite to inf
    EXPECT_EQ(ulp_distance(F16, 0x7e00, 0x3c00), kNoUlp);
    EXPECT_EQ(ulp_distance(F32, 0x3f800000, 0x3f800005), 5u);
    EXPECT_EQ(ulp_distance(DType::bf16, 0xbf80, 0x3f80), 2u * 0x3f80);
    EXPECT_EQ(ulp_distance(DType::i32, 0xfffffffe, 3), 5u);  // -2 vs 3
    EXPECT_EQ(ulp_distance(DType::i8, 0x80, 0x7f), 255u);
}

TEST(Oracle_Compare, BitExact) {
    EXPECT_TRUE(cmp1(F16, 0x3c00, 0x3c00, bit_exact()).ok());
    const CompareResult r = cmp1(F16, 0x3c01, 0x3c00, bit_exact());
    ASSERT_EQ(r.mismatches, 1u);
    EXPECT_EQ(r.max_ulp, 1u);
    EXPECT_EQ(r.first.at(0).out_bits, 0x3c01u);
    EXPECT_EQ(r.first.at(0).golden_bits, 0x3c00u);
    EXPECT_EQ(r.first.at(0).ulp, 1u);
}

TEST(Oracle_Compare, BitExactSignedZero) {
    EXPECT_FALSE(cmp1(F32, 0x80000000, 0, bit_exact()).ok());
    CompareOptions o = bit_exact();
    o.signed_zero_equal = true;
    EXPECT_TRUE(cmp1(F32, 0x80000000, 0, o).ok());
    EXPECT_TRUE(cmp1(F32, 0x80000000, 0, within_ulp(0)).ok());
}

TEST(Oracle_Compare, NaNMatchesNaNInEveryMode) {
    for (CompareMode m : kAllModes) {
        EXPECT_TRUE(cmp1(F16, 0xfe01, 0x7e00, options(m)).ok()) << compare_mode_name(m);  // any sign, payload
        EXPECT_TRUE(cmp1(F32, 0x7fc00000, 0xffc00001, options(m)).ok()) << compare_mode_name(m);
    }
}

TEST(Oracle_Compare, NaNAgainstFiniteFailsInEveryMode) {
    for (CompareMode m : kAllModes) {
        const CompareResult r = cmp1(F16, 0x7e00, 0x3c00, options(m));  // NaN where the golden is 1
        EXPECT_FALSE(r.ok()) << compare_mode_name(m);
        EXPECT_EQ(r.first.at(0).ulp, kNoUlp);
        EXPECT_FALSE(cmp1(F16, 0x3c00, 0x7e00, options(m)).ok()) << compare_mode_name(m);  // and the reverse
        EXPECT_FALSE(cmp1(F16, 0x7c00, 0x7e00, options(m)).ok()) << compare_mode_name(m);  // inf vs NaN
    }
}

TEST(Oracle_Compare, InfMustMatchTheSameInf) {
    for (CompareMode m : kAllModes) {
        EXPECT_TRUE(cmp1(F16, 0x7c00, 0x7c00, options(m)).ok()) << compare_mode_name(m);
        EXPECT_FALSE(cmp1(F16, 0xfc00, 0x7c00, options(m)).ok()) << compare_mode_name(m);
        // one ULP from max finite, and within rtol 1.0 relative -- still a mismatch
        EXPECT_FALSE(cmp1(F16, 0x7c00, 0x7bff, options(m)).ok()) << compare_mode_name(m);
        EXPECT_FALSE(cmp1(F16, 0x7bff, 0x7c00, options(m)).ok()) << compare_mode_name(m);
    }
}

TEST(Oracle_Compare, UlpBound) {
    EXPECT_TRUE(cmp1(F16, 0x3c02, 0x3c00, within_ulp(2)).ok());
    EXPECT_FALSE(cmp1(F16, 0x3c02, 0x3c00, within_ulp(1)).ok());
    EXPECT_TRUE(cmp1(F16, 0x8001, 0x0001, within_ulp(2)).ok());
    EXPECT_FALSE(cmp1(F16, 0x8001, 0x0001, within_ulp(1)).ok());
}

TEST(Oracle_Compare, CatlassRule) {
    EXPECT_EQ(catlass_rtol(2047), 1.0 / 256);
    EXPECT_EQ(catlass_rtol(2048), 1.0 / 128);
    const CompareOptions o = catlass_rule(1024);  // rtol 1/256
    const auto f = [](Real v) { return encode(F32, v); };
    // |golden| <= 1: absolute 1/256
    EXPECT_TRUE(cmp1(F32, f(0.5 + p2(-8)), f(0.5), o).ok());
    EXPECT_FALSE(cmp1(F32, f(0.5 + p2(-8) + p2(-20)), f(0.5), o).ok());
    // |golden| > 1: relative, 100/256 = 0.390625
    EXPECT_TRUE(cmp1(F32, f(100.390625), f(100), o).ok());
    EXPECT_FALSE(cmp1(F32, f(100.3907), f(100), o).ok());
    EXPECT_TRUE(cmp1(F32, f(100.78), f(100), catlass_rule(4096)).ok());  // rtol 1/128
}

TEST(Oracle_Compare, RegionSkipsPaddingAndReportsPositions) {
    // 2x3 with row stride 4: the padding column differs and is ignored; (1,2) differs and is reported
    const HostTensor golden = HostTensor::of(F16, {1, 2, 3, 0, 4, 5, 1.25, 0});
    const HostTensor out = HostTensor::of(F16, {1, 2, 3, 9, 4, 5, 1.5, 9});
    const CompareResult r = compare("D", out, golden, Region{2, 3, 4}, bit_exact());
    EXPECT_EQ(r.compared, 6u);
    ASSERT_EQ(r.mismatches, 1u);
    EXPECT_EQ(r.first[0].row, 1);
    EXPECT_EQ(r.first[0].col, 2);
    EXPECT_EQ(r.first[0].to_string(), "D[1,2]: out 1.5 (0x3e00) golden 1.25 (0x3d00), 256 ULP");
    EXPECT_EQ(r.max_ulp, 256u);
}

TEST(Oracle_Compare, ListsFirstMismatchesAndCountsAll) {
    HostTensor golden(F32, 20), out(F32, 20);
    for (std::size_t i = 0; i < 20; ++i) out.set_value(i, Real(i + 1));
    CompareOptions o = bit_exact();
    o.max_reported = 3;
    const CompareResult r = compare("X", out, golden, Region::dense(4, 5), o);
    EXPECT_EQ(r.mismatches, 20u);
    ASSERT_EQ(r.first.size(), 3u);
    EXPECT_EQ(r.first[2].row, 0);
    EXPECT_EQ(r.first[2].col, 2);
    const std::string text = r.to_string(o.mode);
    EXPECT_NE(text.find("20 of 20 elements differ (bit-exact)"), std::string::npos) << text;
    EXPECT_NE(text.find("and 17 more"), std::string::npos) << text;

    CompareResult total;
    total.merge(r, 4);
    total.merge(r, 4);
    EXPECT_EQ(total.mismatches, 40u);
    EXPECT_EQ(total.first.size(), 4u);
}

TEST(Oracle_Compare, MisuseThrows) {
    EXPECT_THROW(compare("D", HostTensor(F16, 4), HostTensor(F32, 4), Region::dense(2, 2), bit_exact()),
                 evg::Error);
    EXPECT_THROW(compare("D", HostTensor(F16, 3), HostTensor(F16, 4), Region::dense(2, 2), bit_exact()),
                 evg::Error);
    EXPECT_THROW(compare("D", HostTensor(F16, 8), HostTensor(F16, 8), Region{2, 3, 2}, bit_exact()),
                 evg::Error);
}

}  // namespace
}  // namespace evg::oracle
