// The checker "fp" on small kernels: a NaN or an infinity born from finite values is found at its
// instruction, followed into GM through in-place arithmetic, casts and copies, and graded by whether it got
// there; values that were already NaN in an input, results on never-written padding and values made finite
// again are counts, not findings. The expected counts are worked out here from the inputs, not read from the
// checker.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace {

using namespace AscendC;
using evg::hw::Severity;
using evg::hw::ViolationKind;

constexpr uint32_t kN = 64;

GlobalTensor<float> gm(void* p) {
    GlobalTensor<float> t;
    t.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(p));
    return t;
}

struct FpRun {
    evg::hw::Report report;
    std::vector<float> y;
};

// Y = body(X) for kN floats on one AIV; body gets the UB tile holding X (on V) and returns the tile to store.
FpRun run(const std::vector<float>& x,
          const std::function<LocalTensor<float>(LocalTensor<float>, TBuf<TPosition::VECCALC>&)>& body,
          evg::hw::Config cfg = {}) {
    evg::hw::Device dev(std::move(cfg));
    void* gx = dev.malloc(kN * 4, "X");
    void* gy = dev.malloc(kN * 4, "Y");
    dev.copy_to_device(gx, x.data(), kN * 4);
    const std::vector<float> zeros(kN, 0.0f);
    dev.copy_to_device(gy, zeros.data(), kN * 4);
    FpRun r;
    r.report = dev.launch(1, evg::hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 16 * kN * 4);
        LocalTensor<float> t = buf.Get<float>();
        DataCopy(t, gm(gx), kN);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        LocalTensor<float> out = body(t, buf);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(gm(gy), out, kN);
    });
    r.y.resize(kN);
    dev.copy_to_host(r.y.data(), gy, kN * 4);
    return r;
}

std::vector<float> ramp(float scale) {
    std::vector<float> v(kN);
    for (uint32_t i = 0; i < kN; ++i) v[i] = static_cast<float>(static_cast<int>(i % 13) - 6) * scale;
    return v;
}

// Exp in half of X (widened back to float): e^x is above half's 65504 for x above 11.09.
LocalTensor<float> exp_in_half(LocalTensor<float> t, TBuf<TPosition::VECCALC>& buf) {
    LocalTensor<half> h = buf.Get<half>()[4 * kN];
    Cast(h, t, RoundMode::CAST_RINT, kN);
    PipeBarrier<PIPE_V>();
    Exp(h, h, kN);
    PipeBarrier<PIPE_V>();
    Muls(h, h, half(0.5f), kN);  // in place: an infinity stays one, and keeps its origin
    PipeBarrier<PIPE_V>();
    Cast(t, h, RoundMode::CAST_NONE, kN);
    PipeBarrier<PIPE_V>();
    return t;
}

TEST(FpChecker, AnOverflowThatReachesGmIsAnErrorAtItsInstruction) {
    const std::vector<float> x = ramp(2.5f);  // -15 .. 15
    uint64_t over = 0;
    for (float v : x) over += std::exp(double(evg::hw::half(v))) > 65504.0 ? 1 : 0;
    ASSERT_GT(over, 0u);
    const FpRun r = run(x, exp_in_half);
    ASSERT_EQ(r.report.count(ViolationKind::fp_inf_born), 1u) << r.report.text();
    EXPECT_EQ(r.report.count(ViolationKind::fp_nan_born), 0u) << r.report.text();
    const evg::hw::Violation& v = *r.report.first(ViolationKind::fp_inf_born);
    EXPECT_EQ(v.severity, Severity::error);
    ASSERT_EQ(v.locations.size(), 1u);
    EXPECT_EQ(v.locations[0].op, "Exp");
    EXPECT_NE(v.message.find("Exp of 12.5 in half gives +inf"), std::string::npos) << v.message;
    EXPECT_NE(v.message.find("65504"), std::string::npos) << v.message;
    EXPECT_NE(v.message.find(fmt::format("Y holds {} infinite", over)), std::string::npos) << v.message;
    uint64_t inf_in_y = 0;
    for (float y : r.y) inf_in_y += std::isinf(y) ? 1 : 0;
    EXPECT_EQ(inf_in_y, over);
    ASSERT_EQ(r.report.fp.gm.size(), 1u);
    EXPECT_EQ(r.report.fp.gm[0].buffer, "Y");
    EXPECT_EQ(r.report.fp.gm[0].inf, over);
    EXPECT_EQ(r.report.fp.gm[0].from_inputs, 0u);
}

TEST(FpChecker, ZeroOverZeroIsANanBornAtTheDivision) {
    const std::vector<float> x = ramp(1.0f);
    uint64_t zeros = 0;
    for (float v : x) zeros += v == 0.0f ? 1 : 0;
    const FpRun r = run(x, [](LocalTensor<float> t, TBuf<TPosition::VECCALC>& buf) {
        LocalTensor<float> y = buf.Get<float>()[kN];
        Div(y, t, t, kN);
        PipeBarrier<PIPE_V>();
        return y;
    });
    ASSERT_EQ(r.report.count(ViolationKind::fp_nan_born), 1u) << r.report.text();
    const evg::hw::Violation& v = *r.report.first(ViolationKind::fp_nan_born);
    EXPECT_EQ(v.severity, Severity::error);
    EXPECT_NE(v.message.find("Div of (0, 0) in float gives NaN: a division by zero"), std::string::npos)
        << v.message;
    EXPECT_NE(v.message.find(fmt::format("Y holds {} NaN", zeros)), std::string::npos) << v.message;
}

TEST(FpChecker, ANanThatWasOnlyInAnInputIsACount) {
    std::vector<float> x = ramp(1.0f);
    x[3] = NAN;
    x[9] = -INFINITY;
    const FpRun r = run(x, [](LocalTensor<float> t, TBuf<TPosition::VECCALC>&) {
        Adds(t, t, 1.0f, kN);
        PipeBarrier<PIPE_V>();
        return t;
    });
    EXPECT_TRUE(r.report.violations.empty()) << r.report.text();
    ASSERT_EQ(r.report.fp.gm.size(), 1u) << r.report.text();
    EXPECT_EQ(r.report.fp.gm[0].nan, 1u);
    EXPECT_EQ(r.report.fp.gm[0].inf, 1u);
    EXPECT_EQ(r.report.fp.gm[0].from_inputs, 2u);
    EXPECT_NE(r.report.text().find("numeric: Y holds 1 NaN and 1 infinite (all passed on from the inputs)"),
              std::string::npos)
        << r.report.text();
}

TEST(FpChecker, AnInfinityMadeFiniteAgainBeforeTheStoreIsAWarning) {
    const FpRun r = run(ramp(2.5f), [](LocalTensor<float> t, TBuf<TPosition::VECCALC>& buf) {
        LocalTensor<half> h = buf.Get<half>()[4 * kN];
        Cast(h, t, RoundMode::CAST_RINT, kN);
        PipeBarrier<PIPE_V>();
        Exp(h, h, kN);
        PipeBarrier<PIPE_V>();
        Mins(h, h, half(100.0f), kN);  // clamps +inf to 100: nothing non-finite is stored
        PipeBarrier<PIPE_V>();
        Cast(t, h, RoundMode::CAST_NONE, kN);
        PipeBarrier<PIPE_V>();
        return t;
    });
    ASSERT_EQ(r.report.count(ViolationKind::fp_inf_born), 1u) << r.report.text();
    const evg::hw::Violation& v = *r.report.first(ViolationKind::fp_inf_born);
    EXPECT_EQ(v.severity, Severity::warning);
    EXPECT_NE(v.message.find("none of its values reached GM"), std::string::npos) << v.message;
    EXPECT_TRUE(r.report.clean());
    EXPECT_TRUE(r.report.fp.gm.empty());
}

TEST(FpChecker, ResultsOnNeverWrittenLanesArePaddingNotFindings) {
    const FpRun r = run(ramp(1.0f), [](LocalTensor<float> t, TBuf<TPosition::VECCALC>& buf) {
        // The upper half of a tile that was never written (zeros): Ln gives -inf there, and nothing is stored
        // from it.
        LocalTensor<float> pad = buf.Get<float>()[8 * kN];
        Ln(pad, pad, kN);
        PipeBarrier<PIPE_V>();
        return t;
    });
    EXPECT_TRUE(r.report.violations.empty()) << r.report.text();
    EXPECT_EQ(r.report.fp.padding, kN);
}

TEST(FpChecker, SubnormalResultsAreCounted) {
    std::vector<float> x(kN, 1.0f);
    const FpRun r = run(x, [](LocalTensor<float> t, TBuf<TPosition::VECCALC>&) {
        Muls(t, t, 1e-40f, kN);  // 1e-40 is below float's smallest normal 1.18e-38
        PipeBarrier<PIPE_V>();
        return t;
    });
    EXPECT_EQ(r.report.fp.subnormal, kN);
    EXPECT_TRUE(r.report.violations.empty()) << r.report.text();
}

TEST(FpChecker, PolicyWarnMakesEveryFindingAWarningAndOffSwitchesItOff) {
    evg::hw::Config warn;
    warn.fp_policy = evg::hw::FpPolicy::warn;
    const FpRun w = run(ramp(2.5f), exp_in_half, warn);
    ASSERT_EQ(w.report.count(ViolationKind::fp_inf_born), 1u) << w.report.text();
    EXPECT_EQ(w.report.first(ViolationKind::fp_inf_born)->severity, Severity::warning);
    EXPECT_TRUE(w.report.clean());

    evg::hw::Config off;
    off.checks.fp = false;
    const FpRun o = run(ramp(2.5f), exp_in_half, off);
    EXPECT_TRUE(o.report.violations.empty()) << o.report.text();
    EXPECT_FALSE(o.report.fp.on);
    EXPECT_EQ(o.y, w.y);  // the checker only looks
}

}  // namespace
