// The functor ULP bounds and the per-output comparison plan. The bounds are defended empirically: a
// plausible float-based model of each functor (host <cmath> in float, rounding to ElementCompute once per
// instruction, no lib/hw code) stays within its bound of the oracle over every half input and a large
// sample of float inputs.
#include <cmath>
#include <cstring>
#include <functional>
#include <random>

#include <gtest/gtest.h>
#include <Eigen/Core>

#include "evg/hw/error.hpp"
#include "evg/oracle/functors.hpp"
#include "evg/oracle/tolerance.hpp"
#include "oracle_test_util.hpp"

namespace evg::oracle {
namespace {

using graph::Functor;
using namespace evg::oracle::test;

TEST(Oracle_Tolerance, BoundsPerFunctor) {
    EXPECT_EQ(functor_ulp_bound(Functor::Exp, 1), 1u);
    EXPECT_EQ(functor_ulp_bound(Functor::Sqrt, 1), 1u);
    EXPECT_EQ(functor_ulp_bound(Functor::Reciprocal, 1), 1u);
    EXPECT_EQ(functor_ulp_bound(Functor::Div, 2), 1u);
    EXPECT_EQ(functor_ulp_bound(Functor::Div, 3), 3u);
    EXPECT_EQ(functor_ulp_bound(Functor::Div, 4), 7u);
    EXPECT_EQ(functor_ulp_bound(Functor::RsqrtFast, 1), 2u);
    EXPECT_EQ(functor_ulp_bound(Functor::Rsqrt, 1), 3u);
    EXPECT_EQ(functor_ulp_bound(Functor::Sigmoid, 1), 3u);
    EXPECT_EQ(functor_ulp_bound(Functor::Silu, 1), 4u);
    for (Functor fn :
         {Functor::Add, Functor::Mul, Functor::Relu, Functor::Muls, Functor::Max, Functor::AddRelu}) {
        EXPECT_EQ(functor_ulp_bound(fn, 2), 0u);
        EXPECT_FALSE(is_transcendental(fn));
    }
    for (Functor fn : {Functor::Exp, Functor::Silu, Functor::Sigmoid, Functor::Rsqrt, Functor::RsqrtFast,
                       Functor::Sqrt, Functor::Reciprocal, Functor::Div})
        EXPECT_TRUE(is_transcendental(fn));
}

// ---- the empirical defence -------------------------------------------------------------------------

// A model computing in float and rounding each instruction's result to T (half via Eigen::half, an
// implementation independent of both the oracle and lib/hw).
float to_t(DType t, float f) {
    return t == F16 ? static_cast<float>(Eigen::half(f)) : f;
}

using ModelFn = std::function<float(DType, float)>;

float model_sigmoid(DType t, float x) {
    const float neg = to_t(t, -x);
    const float e = to_t(t, std::exp(neg));
    const float d = to_t(t, e + 1.0f);
    return to_t(t, 1.0f / d);
}

std::uint64_t max_ulp_vs_oracle(Functor fn, DType t, const std::vector<float>& xs, const ModelFn& model) {
    Values x(1, static_cast<Eigen::Index>(xs.size()));
    for (std::size_t i = 0; i < xs.size(); ++i) x(0, static_cast<Eigen::Index>(i)) = xs[i];
    const Values* in[] = {&x};
    const Values golden = apply_functor(fn, t, in, {});
    std::uint64_t worst = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
        const Real g = golden(0, static_cast<Eigen::Index>(i));
        const float m = model(t, xs[i]);
        if (std::isnan(g) && std::isnan(m)) continue;
        const std::uint64_t d = ulp_distance(t, encode(t, m), encode(t, g));
        EXPECT_NE(d, kNoUlp) << graph::functor_name(fn) << " x=" << xs[i];
        if (d != kNoUlp) worst = std::max(worst, d);
    }
    return worst;
}

// Every finite half value, optionally restricted to an interval.
std::vector<float> all_halves(float lo = -70000, float hi = 70000) {
    std::vector<float> v;
    for (std::uint32_t b = 0; b < 0x10000; ++b) {
        const auto x = static_cast<float>(decode(F16, b));
        if (std::isfinite(x) && x >= lo && x <= hi) v.push_back(x);
    }
    return v;
}

// Random floats spread over exponents -30..30 (both signs), plus some simple values.
std::vector<float> sample_floats(float lo, float hi, int count) {
    std::mt19937 rng(1234);
    std::vector<float> v = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f};
    while (static_cast<int>(v.size()) < count) {
        const std::uint32_t exp = 127 - 30 + rng() % 61;
        const std::uint32_t bits = (rng() & 0x807fffffu) | (exp << 23);
        float f;
        std::memcpy(&f, &bits, 4);
        if (f >= lo && f <= hi) v.push_back(f);
    }
    return v;
}

struct BoundCase {
    Functor fn;
    ModelFn model;
    float lo, hi;  // input interval where the bound is claimed
};

std::vector<BoundCase> bound_cases() {
    return {
        {Functor::Exp, [](DType t, float x) { return to_t(t, std::exp(x)); }, -1e30f, 1e30f},
        {Functor::Sqrt, [](DType t, float x) { return to_t(t, std::sqrt(x)); }, -1e30f, 1e30f},
        {Functor::Reciprocal, [](DType t, float x) { return to_t(t, 1.0f / x); }, -1e30f, 1e30f},
        // RsqrtFast modelled as sqrt then divide in float (two float roundings), one rounding to T
        {Functor::RsqrtFast, [](DType t, float x) { return to_t(t, 1.0f / std::sqrt(x)); }, -1e30f, 1e30f},
        {Functor::Rsqrt, [](DType t, float x) { return to_t(t, 1.0f / to_t(t, std::sqrt(x))); }, -1e30f,
         1e30f},
        {Functor::Sigmoid, model_sigmoid, -1e30f, 1e30f},
        // Silu as the library might do it: the Sigmoid chain, then a multiply by x, each rounded to T
        {Functor::Silu, [](DType t, float x) { return to_t(t, x * model_sigmoid(t, x)); }, -11.0f, 1e30f},
    };
}

TEST(Oracle_Tolerance, BoundsHoldForAFloatModel_half_everyInput) {
    for (const BoundCase& c : bound_cases()) {
        const std::uint64_t worst = max_ulp_vs_oracle(c.fn, F16, all_halves(c.lo, c.hi), c.model);
        EXPECT_LE(worst, functor_ulp_bound(c.fn, 1)) << graph::functor_name(c.fn);
        RecordProperty(std::string(graph::functor_name(c.fn)) + "_half_max_ulp", static_cast<int>(worst));
    }
}

TEST(Oracle_Tolerance, BoundsHoldForAFloatModel_float_sample) {
    for (const BoundCase& c : bound_cases()) {
        const std::uint64_t worst = max_ulp_vs_oracle(c.fn, F32, sample_floats(c.lo, c.hi, 200000), c.model);
        EXPECT_LE(worst, functor_ulp_bound(c.fn, 1)) << graph::functor_name(c.fn);
        RecordProperty(std::string(graph::functor_name(c.fn)) + "_float_max_ulp", static_cast<int>(worst));
    }
}

TEST(Oracle_Tolerance, DivChainBoundHolds_half) {
    // ((a / b) / c) in float with each quotient rounded to half equals the oracle (division is correctly
    // rounded both ways); the bound 3 leaves room for an approximate divide
    std::mt19937 rng(5);
    const std::vector<float> h = all_halves(-1000, 1000);
    const auto pick = [&] { return h[rng() % h.size()]; };
    Values a(1, 20000), b(1, 20000), c(1, 20000);
    for (Eigen::Index i = 0; i < a.cols(); ++i) a(0, i) = pick(), b(0, i) = pick(), c(0, i) = pick();
    const Values* in[] = {&a, &b, &c};
    const Values golden = apply_functor(Functor::Div, F16, in, {});
    for (Eigen::Index i = 0; i < a.cols(); ++i) {
        const float m = to_t(F16, to_t(F16, float(a(0, i)) / float(b(0, i))) / float(c(0, i)));
        if (std::isnan(m) && std::isnan(golden(0, i))) continue;
        EXPECT_LE(ulp_distance(F16, encode(F16, m), encode(F16, golden(0, i))),
                  functor_ulp_bound(Functor::Div, 3));
    }
}

// ---- plan_comparison ---------------------------------------------------------------------------------

ProblemBuilder base(std::int64_t k = 64) {
    ProblemBuilder b(4, 4, k, F16, F16, F32);
    b.input("X", F32, 4, 4);
    return b;
}

TEST(Oracle_Tolerance, PlanBitExactWithoutTranscendentals) {
    ProblemBuilder b = base();
    b.output("D", F32, 4, 4);
    b.store(F32, "D", b.compute(Functor::Add, F32, {b.acc(), b.aux(F32, "X")}));
    EXPECT_EQ(plan_comparison(b.p, "D", true).options.mode, CompareMode::BitExact);
    // random data: the GEMM's float sums depend on the order
    EXPECT_EQ(plan_comparison(b.p, "D", false).options.mode, CompareMode::Catlass);
    b.p.k = 1;  // a single product per element: no order
    EXPECT_EQ(plan_comparison(b.p, "D", false).options.mode, CompareMode::BitExact);
}

TEST(Oracle_Tolerance, PlanUlpForOneTranscendental) {
    ProblemBuilder b = base();
    b.output("D", F16, 4, 4);
    b.output("E", F16, 4, 4);
    const int sig = b.compute(Functor::Sigmoid, F32, {b.acc()});
    b.store(F16, "D", b.cast(F16, F32, RoundMode::CAST_RINT, sig));  // narrowing: the bound carries over
    const ComparePlan d = plan_comparison(b.p, "D", true);
    EXPECT_EQ(d.options.mode, CompareMode::Ulp);
    EXPECT_EQ(d.options.max_ulp, 3u);
    b.store(F16, "E", b.compute(Functor::Exp, F16, {b.cast(F16, F32, RoundMode::CAST_RINT, b.acc())}));
    EXPECT_EQ(plan_comparison(b.p, "E", true).options.max_ulp, 1u);
}

TEST(Oracle_Tolerance, PlanCatlassWhenErrorsCanGrow) {
    ProblemBuilder b = base(4096);
    b.output("D", F32, 4, 4);
    b.output("W", F32, 4, 4);
    b.output("rowOut", F32, 1, 4);
    b.output("rowMax", F32, 1, 4);
    const int e = b.compute(Functor::Exp, F32, {b.acc()});
    b.store(F32, "D", b.compute(Functor::Add, F32, {e, b.aux(F32, "X")}));  // exp then a sum: cancellation
    b.row_reduce(Functor::Add, F32, "rowOut", e);                           // a sum of exps
    b.row_reduce(Functor::Max, F32, "rowMax", e);                           // a max of exps keeps the bound
    b.store(F32, "W",
            b.cast(F32, F16, RoundMode::CAST_NONE,
                   b.compute(Functor::Exp, F16, {b.cast(F16, F32, RoundMode::CAST_RINT, b.acc())})));
    // make every writer reachable: a root that reads them all
    const int root = b.compute(Functor::Add, F32, {4, 5, 6, 11});
    (void)root;
    const ComparePlan d = plan_comparison(b.p, "D", true);
    EXPECT_EQ(d.options.mode, CompareMode::Catlass);
    EXPECT_EQ(d.options.rtol, 1.0 / 128);  // K = 4096
    EXPECT_EQ(plan_comparison(b.p, "rowOut", true).options.mode, CompareMode::Catlass);
    EXPECT_EQ(plan_comparison(b.p, "rowMax", true).options.mode, CompareMode::Ulp);
    EXPECT_EQ(plan_comparison(b.p, "W", true).options.mode, CompareMode::Catlass);  // widening after exp
    EXPECT_THROW(plan_comparison(b.p, "X", true), evg::Error);                      // an input
    EXPECT_THROW(plan_comparison(b.p, "nope", true), evg::Error);
}

TEST(Oracle_Tolerance, PlanAddReductionNeedsExactData) {
    ProblemBuilder b = base(1);
    b.output("rowOut", F32, 1, 4);
    b.row_reduce(Functor::Add, F32, "rowOut", b.aux(F32, "X"));
    EXPECT_EQ(plan_comparison(b.p, "rowOut", true).options.mode, CompareMode::BitExact);
    EXPECT_EQ(plan_comparison(b.p, "rowOut", false).options.mode, CompareMode::Catlass);
}

// The stated reason is the node that made the comparison loose, not one sentence for every case.
TEST(Oracle_Tolerance, ThePlanSaysWhichNodeMadeItLoose) {
    ProblemBuilder b = base(64);
    b.output("D", F32, 4, 4);
    b.store(F32, "D",
            b.compute(Functor::Relu, F32, {b.compute(Functor::Add, F32, {b.acc(), b.aux(F32, "X")})}));
    EXPECT_EQ(
        plan_comparison(b.p, "D", false).reason,
        "D: the data is not exact-friendly, so the GEMM result C (a sum of K = 64 products, accumulated in "
        "float by the cube) is held to Catlass's tolerance; Catlass rule rtol 1/256");

    ProblemBuilder s = base(64);
    s.output("D", F32, 4, 4);
    s.output("E", F32, 4, 4);
    const int sig = s.compute(Functor::Sigmoid, F32, {s.acc()});  // %1
    const int e = s.store(F32, "E", sig);                         // %2, passes %1 on
    s.store(F32, "D", s.compute(Functor::Add, F32, {e, s.aux(F32, "X")}));
    EXPECT_EQ(
        plan_comparison(s.p, "E", true).reason,
        "E: %1 Compute Sigmoid is within 3 ULP of the exact result, and only rounding nodes follow; 3 ULP");
    EXPECT_EQ(
        plan_comparison(s.p, "D", true).reason,
        "D: %4 Compute Add computes further on a value within 3 ULP (%1 Compute Sigmoid is within 3 ULP of "
        "the exact result); Catlass rule rtol 1/256");

    ProblemBuilder r = base(1);
    r.output("rowOut", F32, 1, 4);
    r.row_reduce(Functor::Add, F32, "rowOut", r.aux(F32, "X"));
    EXPECT_EQ(plan_comparison(r.p, "rowOut", false).reason,
              "rowOut: %1 RowReduce sums real values, whose order across tiles and cores (GM atomics) is not "
              "fixed; Catlass rule rtol 1/256");
}

}  // namespace
}  // namespace evg::oracle
