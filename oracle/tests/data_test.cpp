// Data generators: determinism, ranges, coverage of special values, and that exact-friendly data makes
// the GEMM exact (so any summation order gives the oracle's result).
#include <cmath>
#include <set>

#include <gtest/gtest.h>

#include "evg/oracle/data.hpp"
#include "evg/oracle/gemm.hpp"
#include "oracle_test_util.hpp"

namespace evg::oracle {
namespace {

using namespace evg::oracle::test;

TEST(Oracle_Data, SameSeedSameBytes) {
    HostTensor a(DType::f16, 1000), b(DType::f16, 1000), c(DType::f16, 1000);
    fill_uniform(a, -5, 5, 42);
    fill_uniform(b, -5, 5, 42);
    fill_uniform(c, -5, 5, 43);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
}

TEST(Oracle_Data, IntegersInRangeAndBothEndsDrawn) {
    HostTensor t(DType::f16, 2000);
    fill_integers(t, -5, 5, 1);
    std::set<Real> seen;
    for (Real v : values_of(t)) {
        EXPECT_EQ(v, std::floor(v));
        EXPECT_GE(v, -5);
        EXPECT_LE(v, 5);
        seen.insert(v);
    }
    EXPECT_EQ(seen.size(), 11u);
}

TEST(Oracle_Data, Dyadic) {
    HostTensor t(DType::f32, 1000);
    fill_dyadic(t, -8, 8, 3, 2);
    std::set<Real> seen;
    for (Real v : values_of(t)) {
        const Real k = v * 8;
        EXPECT_EQ(k, std::floor(k));
        EXPECT_LE(std::fabs(k), 8);
        seen.insert(v);
    }
    EXPECT_EQ(seen.size(), 17u);
}

TEST(Oracle_Data, UniformInRange) {
    HostTensor t(DType::bf16, 1000);
    fill_uniform(t, 2, 3, 5);
    for (Real v : values_of(t)) {
        EXPECT_GE(v, 2);
        EXPECT_LE(v, 3);  // rounding to bfloat16 may reach the upper end
    }
}

TEST(Oracle_Data, SpecialValuesAppear) {
    HostTensor t(DType::f32, 5000);
    fill_special(t, 9, 0.5);
    int nan = 0, pinf = 0, ninf = 0, nzero = 0, sub = 0, half_ties = 0, bf16_ties = 0, ordinary = 0;
    for (Real v : values_of(t)) {
        if (std::isnan(v))
            ++nan;
        else if (v == kInf)
            ++pinf;
        else if (v == -kInf)
            ++ninf;
        else if (v == 0 && std::signbit(v))
            ++nzero;
        else if (v != 0 && std::fabs(v) < p2(-126))
            ++sub;
        if (!std::isnan(v) &&
            encode(DType::f16, v, RoundMode::CAST_RINT) != encode(DType::f16, v, RoundMode::CAST_ROUND))
            ++half_ties;
        if (!std::isnan(v) &&
            encode(DType::bf16, v, RoundMode::CAST_RINT) != encode(DType::bf16, v, RoundMode::CAST_ROUND))
            ++bf16_ties;
        if (std::fabs(v) < 8 && v != std::floor(v)) ++ordinary;
    }
    EXPECT_GT(nan, 0);
    EXPECT_GT(pinf, 0);
    EXPECT_GT(ninf, 0);
    EXPECT_GT(nzero, 0);
    EXPECT_GT(sub, 0);
    EXPECT_GT(half_ties, 0);
    EXPECT_GT(bf16_ties, 0);
    EXPECT_GT(ordinary, 1000);

    HostTensor i(DType::i8, 500);
    fill_special(i, 9, 0.5);
    const std::vector<Real> v = values_of(i);
    EXPECT_NE(std::find(v.begin(), v.end(), Real(-128)), v.end());
    EXPECT_NE(std::find(v.begin(), v.end(), Real(127)), v.end());
}

TEST(Oracle_Data, ExactRanges) {
    EXPECT_EQ(max_exact_integer(DType::f32), p2(24));
    EXPECT_EQ(max_exact_integer(DType::f16), 2048);
    EXPECT_EQ(max_exact_integer(DType::bf16), 256);
    EXPECT_EQ(exact_gemm_range(1024, DType::f16, DType::f32), 128);  // 1024 * 128^2 = 2^24
    EXPECT_EQ(exact_gemm_range(1024, DType::f16, DType::f16), 1);    // 1024 * r^2 <= 2048
    EXPECT_EQ(exact_gemm_range(1024, DType::i8, DType::i32), 127);   // capped by int8
    EXPECT_EQ(exact_gemm_range(10, DType::bf16, DType::f32), 256);   // capped by bfloat16's exact integers
    EXPECT_EQ(exact_gemm_range(0, DType::f16, DType::f32), 0);
}

// With integers in exact_gemm_range the float-accumulated GEMM equals the exact integer product, whatever
// the order: the oracle's sequential float sum is compared with an int64 product computed separately.
TEST(Oracle_Data, ExactFriendlyGemmIsExact) {
    const std::int64_t m = 5, n = 7, k = 300;
    const std::int64_t r = exact_gemm_range(k, DType::f16, DType::f32);
    ASSERT_GE(r, 1);
    HostTensor a(DType::f16, m * k), b(DType::f16, k * n);
    fill_integers(a, -r, r, 3);
    fill_integers(b, -r, r, 4);
    const Values c = gemm(a, b, m, n, k, DType::f32);
    for (std::int64_t i = 0; i < m; ++i) {
        for (std::int64_t j = 0; j < n; ++j) {
            std::int64_t exact = 0;
            for (std::int64_t p = 0; p < k; ++p)
                exact += static_cast<std::int64_t>(a.value(i * k + p)) *
                         static_cast<std::int64_t>(b.value(p * n + j));
            EXPECT_EQ(c(i, j), Real(exact));
        }
    }
}

}  // namespace
}  // namespace evg::oracle
