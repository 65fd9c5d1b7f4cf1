// What the adversarial scheduler lets an unordered pipe do (a later plain instruction over an earlier one or
// over an earlier set, a wait over earlier plain instructions), that happens-before does not depend on when
// an instruction runs, the schedule statistics, adversarial_sweep, and the set each wait consumed.
#include <gtest/gtest.h>

#include "evg/hw/error.hpp"
#include "evg/hw/schedule_sweep.hpp"
#include "test_kernels.hpp"

namespace evg::hw::testing {
namespace {

using namespace AscendC;

// MTE2 loads `a`, sets MTE2_V, then V reads `a` BEFORE its WaitFlag<MTE2_V> (the wait sits one instruction
// too late). The read is issued after the set but precedes the wait in its pipe: nothing orders the load
// before it.
struct LateWait {
    Report report;
    Trace trace;
};
LateWait run_late_wait(const Config& cfg, bool fixed = false) {
    Device dev(cfg);
    void* x = dev.malloc(256, "X");
    dev.copy_to_device(x, std::vector<float>(64, 1.0f).data(), 256);
    auto xp = static_cast<GM_ADDR>(x);
    LateWait r;
    r.report = dev.launch(1, KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 5 * 256);
        LocalTensor<float> a = buf.Get<float>(), b = a[64], c = a[128], d = a[192], e = a[256];
        GlobalTensor<float> gx;
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(xp));
        Duplicate(c, 0.0f, 64);  // keeps V busy so that the wait can overtake queued plain work
        Duplicate(d, 0.0f, 64);
        DataCopy(a, gx, 64);  // MTE2 write a
        SetFlag<HardEvent::MTE2_V>(0);
        if (fixed) WaitFlag<HardEvent::MTE2_V>(0);
        Adds(b, a, 1.0f, 64);  // V read a
        if (!fixed) WaitFlag<HardEvent::MTE2_V>(0);
        Duplicate(e, 2.0f, 64);
    });
    r.trace = dev.take_last_trace();
    return r;
}

TEST(Reorder, ReadIssuedBeforeTheWaitRacesWithTheLoadUnderEverySeed) {
    auto in_order = run_late_wait(Config{});
    ASSERT_EQ(in_order.report.count(ViolationKind::race), 1u) << in_order.report.text();
    int overtaken = 0;
    for (uint64_t seed = 1; seed <= 300; ++seed) {
        auto r = run_late_wait(adversarial(seed));
        // The wait may complete before the read (it holds back only later instructions); the read must still
        // not learn what the wait learned.
        const Violation* v = r.report.first(ViolationKind::race);
        ASSERT_NE(v, nullptr) << "seed " << seed << "\n" << r.report.text();
        EXPECT_NE(v->message.find("RAW race on UB[AIV 0]"), std::string::npos) << v->message;
        EXPECT_NE(v->message.find("MTE2 write #3"), std::string::npos) << v->message;
        EXPECT_NE(v->message.find("V read #5"), std::string::npos) << v->message;
        overtaken += r.report.stats.coverage.wait_over_plain > 0;
    }
    EXPECT_GT(overtaken, 0) << "no seed let the wait overtake the read: the test proves nothing";
}

TEST(Reorder, WaitBeforeTheReadIsCleanUnderEverySeed) {
    for (uint64_t seed = 1; seed <= 300; ++seed) {
        auto r = run_late_wait(adversarial(seed), true);
        ASSERT_TRUE(r.report.clean()) << "seed " << seed << "\n" << r.report.text();
    }
}

// V fills `a`, sets V_MTE3, then fills `b`; MTE3 waits and stores `a`. The fill of `b` may overtake the set;
// the stored data never changes, because a set waits for every earlier instruction of its pipe.
std::pair<Report, std::vector<float>> run_plain_after_set(const Config& cfg) {
    Device dev(cfg);
    void* y = dev.malloc(256, "Y");
    auto yp = static_cast<GM_ADDR>(y);
    Report rep = dev.launch(1, KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 3 * 256);
        LocalTensor<float> a = buf.Get<float>(), b = a[64], c = a[128];
        GlobalTensor<float> gy;
        gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(yp));
        Duplicate(a, 1.0f, 64);
        PipeBarrier<PIPE_V>();
        Adds(a, a, 2.0f, 64);
        SetFlag<HardEvent::V_MTE3>(0);
        Duplicate(b, 5.0f, 64);
        Duplicate(c, 6.0f, 64);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(gy, a, 64);
    });
    std::vector<float> out(64);
    dev.copy_to_host(out.data(), y, 256);
    return {rep, out};
}

TEST(Reorder, PlainOvertakesAnEarlierSetButTheSetStillCoversEverythingBeforeIt) {
    auto [ref, ref_out] = run_plain_after_set(Config{});
    ASSERT_TRUE(ref.clean()) << ref.text();
    ASSERT_EQ(ref_out, std::vector<float>(64, 3.0f));
    EXPECT_EQ(ref.stats.scheduler, SchedulerKind::in_order);
    EXPECT_EQ(ref.stats.coverage, ScheduleCoverage{}) << "the in-order scheduler reorders nothing";
    EXPECT_GT(ref.stats.steps, 0u);
    int over_set = 0;
    for (uint64_t seed = 1; seed <= 300; ++seed) {
        auto [r, out] = run_plain_after_set(adversarial(seed));
        ASSERT_TRUE(r.clean()) << "seed " << seed << "\n" << r.text();
        ASSERT_EQ(out, ref_out) << "seed " << seed;
        over_set += r.stats.coverage.plain_over_set > 0;
    }
    EXPECT_GT(over_set, 0) << "no seed let a plain instruction overtake the SetFlag";
}

TEST(Reorder, ScheduleStatsArePrintedForAdversarialRuns) {
    auto [r, out] = run_plain_after_set(adversarial(7));
    EXPECT_EQ(r.stats.scheduler, SchedulerKind::adversarial);
    EXPECT_EQ(r.stats.seed, 7u);
    std::string text = r.text();
    EXPECT_NE(text.find("schedule: adversarial, seed 7, "), std::string::npos) << text;
    EXPECT_NE(text.find(" plain over set, "), std::string::npos) << text;
    std::string json = r.json();
    EXPECT_NE(json.find("\"scheduler\": \"adversarial\""), std::string::npos) << json;
    EXPECT_NE(json.find("\"wait_over_plain\""), std::string::npos) << json;
    auto [ref, ref_out] = run_plain_after_set(Config{});
    EXPECT_EQ(ref.text().find("schedule:"), std::string::npos) << "in-order text stays as it was";
}

TEST(Reorder, EachWaitRecordsTheSetItConsumed) {
    Device dev(Config{});
    dev.launch(1, KernelType::aiv_only, [] {
        SetFlag<HardEvent::MTE2_V>(0);   // #1
        SetFlag<HardEvent::MTE2_V>(1);   // #2
        WaitFlag<HardEvent::MTE2_V>(1);  // #3
        WaitFlag<HardEvent::MTE2_V>(0);  // #4
        SetFlag<HardEvent::V_S>(0);      // #5
        WaitFlag<HardEvent::V_S>(0);     // #6 (scalar unit)
    });
    const auto& t = dev.take_last_trace();
    ASSERT_EQ(t.size(), 6u);
    EXPECT_EQ(t[2].matched, 2u);
    EXPECT_EQ(t[3].matched, 1u);
    EXPECT_EQ(t[5].matched, 5u);
    EXPECT_EQ(t[0].matched, 0u) << "a set consumes nothing";
}

TEST(Reorder, CrossCoreWaitRecordsTheSetThatCompletedItsRound) {
    Device dev(Config{});
    dev.launch(1, KernelType::mix_aic_1_2, [] {
        if ASCEND_IS_AIC {
            CrossCoreWaitFlag<2, PIPE_MTE2>(0);
            CrossCoreSetFlag<2, PIPE_FIX>(1);
        } else {
            CrossCoreSetFlag<2, PIPE_MTE3>(0);
            CrossCoreWaitFlag<2, PIPE_MTE2>(1);
        }
    });
    ASSERT_TRUE(dev.last_report().clean()) << dev.last_report().text();
    const auto& t = dev.take_last_trace();
    uint32_t last_aiv_set = 0, aic_set = 0;
    for (const auto& e : t) {
        if (e.op() == "CrossCoreSetFlag<2, PIPE_MTE3>(0)") last_aiv_set = std::max(last_aiv_set, e.id);
        if (e.op() == "CrossCoreSetFlag<2, PIPE_FIX>(1)") aic_set = e.id;
    }
    ASSERT_NE(last_aiv_set, 0u);
    ASSERT_NE(aic_set, 0u);
    int waits = 0;
    for (const auto& e : t) {
        if (e.op().rfind("CrossCoreWaitFlag", 0) != 0) continue;
        ++waits;
        EXPECT_EQ(e.matched, e.op().find("(0)") != std::string::npos ? last_aiv_set : aic_set)
            << e.op() << " #" << e.id;
    }
    EXPECT_EQ(waits, 3);
}

// ---- adversarial_sweep ----

TEST(ScheduleSweepTest, SweepsSeedsAndReportsCoverageAndVerdicts) {
    Config base;
    base.seed = 100;
    auto sw = adversarial_sweep([&](const Config& c) { return run_late_wait(c).report; }, base, 40);
    EXPECT_EQ(sw.schedules, 40);
    EXPECT_GT(sw.steps, 0u);
    EXPECT_GT(sw.covered.wait_over_plain, 0u) << sw.text();
    EXPECT_GT(sw.covered.plain_over_plain, 0u) << sw.text();
    EXPECT_GT(sw.runs_with_each[2], 0) << sw.text();
    // Happens-before does not depend on the schedule: every seed says "race".
    ASSERT_EQ(sw.distinct_verdicts(), 1u) << sw.text();
    EXPECT_EQ(sw.verdicts[0].verdict, "race");
    EXPECT_EQ(sw.verdicts[0].runs, 40);
    EXPECT_EQ(sw.verdicts[0].first_seed, 100u);
    EXPECT_NE(sw.text().find("40 adversarial schedule(s)"), std::string::npos) << sw.text();
    EXPECT_NE(sw.text().find("1 distinct verdict(s): race (40 run(s), first seed 100)"), std::string::npos)
        << sw.text();
}

TEST(ScheduleSweepTest, SeedsAreTheBaseSeedOnwardsAndRunsAreAdversarial) {
    std::vector<uint64_t> seen;
    Config base;
    base.seed = 5;
    auto sw = adversarial_sweep(
        [&](const Config& c) {
            EXPECT_EQ(c.scheduler, SchedulerKind::adversarial);
            seen.push_back(c.seed);
            Report r;
            if (c.seed == 6) r.violations.push_back({ViolationKind::deadlock, Severity::error, "x", {}, 1});
            if (c.seed == 7) r.violations.push_back({ViolationKind::race, Severity::warning, "w", {}, 1});
            return r;
        },
        base, 3);
    EXPECT_EQ(seen, (std::vector<uint64_t>{5, 6, 7}));
    ASSERT_EQ(sw.distinct_verdicts(), 2u) << sw.text();
    EXPECT_EQ(sw.verdicts[0].verdict, "clean");
    EXPECT_EQ(sw.verdicts[0].runs, 2);
    EXPECT_EQ(sw.verdicts[1].verdict, "deadlock");
    EXPECT_EQ(sw.verdicts[1].first_seed, 6u);
    EXPECT_THROW(adversarial_sweep([](const Config&) { return Report{}; }, base, 0), HostError);
}

}  // namespace
}  // namespace evg::hw::testing
