// Where "the k-th wait consumes the k-th set" does not hold for cross-core counters: two unordered sets of
// one core to one flag, one flag id in two modes at once, two unordered waits on one counter (Ascend950). The
// in-order run reports each pattern as cross_core_ambiguous; adversarial schedules show the race or deadlock
// it warns about; the same kernel with the sets (or waits) ordered stays clean. Also: a deadlocked wait on a
// flag that was set says who consumed the sets.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "evg/hw/schedule_sweep.hpp"
#include "test_kernels.hpp"

namespace evg::hw::testing {
namespace {

using namespace AscendC;

Config cfg_of(ArchId a, SchedulerKind k = SchedulerKind::in_order, uint64_t seed = 0) {
    Config c;
    c.arch = a;
    c.scheduler = k;
    c.seed = seed;
    return c;
}

bool has(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

// ---- (a) one core sets one flag from two pipes ----
// Each AIV stores its half of X on MTE3 and signals the AIC with CrossCoreSetFlag<2, PIPE_MTE3>(0) ("X is
// written"), then signals again from PIPE_V ("b is computed"). The AIC's first wait expects the MTE3 round;
// when the V sets take effect first, it reads X too early.
Report run_two_pipe_sets(const Config& cfg, bool ordered) {
    Device dev(cfg);
    void* x = dev.malloc(512, "X");
    auto xp = static_cast<GM_ADDR>(x);
    return dev.launch(1, KernelType::mix_aic_1_2, [&] {
        GlobalTensor<float> gx;
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(xp));
        if ASCEND_IS_AIC {
            LocalTensor<float> l1(TPosition::A1, 0, 128);
            CrossCoreWaitFlag<2, PIPE_MTE2>(0);
            DataCopy(l1, gx, 128);  // MTE2 read X
            CrossCoreWaitFlag<2, PIPE_MTE2>(0);
        } else {
            TPipe pipe;
            TBuf<TPosition::VECCALC> buf;
            pipe.InitBuffer(buf, 2 * 256);
            LocalTensor<float> a = buf.Get<float>(), b = a[64];
            Duplicate(a, 1.0f, 64);
            SetFlag<HardEvent::V_MTE3>(0);
            WaitFlag<HardEvent::V_MTE3>(0);
            DataCopy(gx[64 * GetSubBlockIdx()], a, 64);  // MTE3 write X
            CrossCoreSetFlag<2, PIPE_MTE3>(0);
            Duplicate(b, 2.0f, 64);
            if (ordered) {  // the second signal also leaves from MTE3, after the first
                SetFlag<HardEvent::V_MTE3>(1);
                WaitFlag<HardEvent::V_MTE3>(1);
                CrossCoreSetFlag<2, PIPE_MTE3>(0);
            } else {
                CrossCoreSetFlag<2, PIPE_V>(0);
            }
        }
    });
}

TEST(CrossCoreAmbiguity, OneFlagSetFromTwoUnorderedPipesIsReported) {
    for (ArchId a : kAllArchs) {
        Report r = run_two_pipe_sets(cfg_of(a), false);
        EXPECT_EQ(r.count(ViolationKind::race), 0u) << "the in-order run itself is race-free\n" << r.text();
        const Violation* v = r.first(ViolationKind::cross_core_ambiguous);
        ASSERT_NE(v, nullptr) << r.text();
        EXPECT_EQ(v->severity, Severity::error);
        const std::string& m = v->message;
        EXPECT_TRUE(has(m, "CrossCoreSetFlag<2, PIPE_MTE3>(0) on MTE3 of AIV 0 (block 0, sub 0)")) << m;
        EXPECT_TRUE(has(m, "CrossCoreSetFlag<2, PIPE_V>(0) on V of AIV 0 (block 0, sub 0)")) << m;
        EXPECT_TRUE(has(m, "cross_core_ambiguity_test.cpp:")) << m;
        EXPECT_TRUE(has(m, "both set cross-core flag 0 (mode 2) with no happens-before between them")) << m;
        EXPECT_TRUE(has(m, "may take effect in any order")) << m;
        EXPECT_TRUE(has(m, "set the flag from one pipe")) << m;
        EXPECT_TRUE(has(m, "not for every schedule")) << m;
        ASSERT_EQ(v->locations.size(), 2u);
        EXPECT_EQ(v->locations[0].pipe, "MTE3");
        EXPECT_EQ(v->locations[1].pipe, "V");
        EXPECT_FALSE(r.clean());
    }
}

TEST(CrossCoreAmbiguity, UnorderedSetsRaceUnderSomeSchedule) {
    int racing = 0;
    for (uint64_t seed = 1; seed <= 200; ++seed) {
        Report r = run_two_pipe_sets(cfg_of(ArchId::AtlasA2, SchedulerKind::adversarial, seed), false);
        ASSERT_GE(r.count(ViolationKind::cross_core_ambiguous), 1u) << "seed " << seed << "\n" << r.text();
        if (const Violation* v = r.first(ViolationKind::race)) {
            ++racing;
            EXPECT_TRUE(has(v->message, "RAW race on X bytes")) << v->message;
        }
    }
    EXPECT_GT(racing, 0) << "no schedule let the V sets complete the AIC's first round";
}

TEST(CrossCoreAmbiguity, SetsFromOnePipeAreCleanUnderEverySchedule) {
    for (ArchId a : kAllArchs) {
        Report r = run_two_pipe_sets(cfg_of(a), true);
        EXPECT_TRUE(r.violations.empty()) << r.text();
        for (uint64_t seed = 1; seed <= 100; ++seed) {
            Report s = run_two_pipe_sets(cfg_of(a, SchedulerKind::adversarial, seed), true);
            ASSERT_TRUE(s.clean()) << "seed " << seed << "\n" << s.text();
        }
    }
}

// ---- (b) one flag id used by two modes at once ----
// The AIVs tell each other "Y is written" with mode 1 on flag 3 while the AIC signals them with mode 2 on the
// same flag 3. Either increment may arrive first, so AIV 0's mode-1 wait may consume the AIC's and read Y too
// early.
Report run_two_modes(const Config& cfg, int mode1_flag) {
    Device dev(cfg);
    void* y = dev.malloc(256, "Y");
    auto yp = static_cast<GM_ADDR>(y);
    return dev.launch(1, KernelType::mix_aic_1_2, [&] {
        GlobalTensor<float> gy;
        gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(yp));
        if ASCEND_IS_AIC {
            CrossCoreWaitFlag<2, PIPE_FIX>(5);  // both AIVs have started
            CrossCoreSetFlag<2, PIPE_FIX>(3);
        } else {
            TPipe pipe;
            TBuf<TPosition::VECCALC> buf;
            pipe.InitBuffer(buf, 256);
            LocalTensor<float> a = buf.Get<float>();
            CrossCoreSetFlag<2, PIPE_MTE3>(5);
            if (GetSubBlockIdx() == 1) {
                Duplicate(a, 1.0f, 64);
                SetFlag<HardEvent::V_MTE3>(0);
                WaitFlag<HardEvent::V_MTE3>(0);
                DataCopy(gy, a, 64);  // MTE3 write Y
            }
            if (mode1_flag == 3) {
                CrossCoreSetFlag<1, PIPE_MTE3>(3);
                CrossCoreWaitFlag<1, PIPE_MTE2>(3);
            } else {
                CrossCoreSetFlag<1, PIPE_MTE3>(4);
                CrossCoreWaitFlag<1, PIPE_MTE2>(4);
            }
            if (GetSubBlockIdx() == 0) DataCopy(a, gy, 64);  // MTE2 read Y
            CrossCoreWaitFlag<2, PIPE_MTE2>(3);
        }
    });
}

TEST(CrossCoreAmbiguity, OneFlagIdInTwoModesAtOnceIsReported) {
    Report r = run_two_modes(cfg_of(ArchId::AtlasA2), 3);
    EXPECT_EQ(r.count(ViolationKind::race), 0u) << "the in-order run itself is race-free\n" << r.text();
    const Violation* v = r.first(ViolationKind::cross_core_ambiguous);
    ASSERT_NE(v, nullptr) << r.text();
    const std::string& m = v->message;
    EXPECT_TRUE(has(m, "cross-core flag 3 of AIV 0 (block 0, sub 0) is used in mode 1 by")) << m;
    // The mode-1 increment is the round's: one of its members' sets, neither of which the AIC's set follows.
    EXPECT_TRUE(has(m, "CrossCoreSetFlag<1, PIPE_MTE3>(3) on MTE3 of AIV 0 (block 0, sub 0)") ||
                has(m, "CrossCoreSetFlag<1, PIPE_MTE3>(3) on MTE3 of AIV 1 (block 0, sub 1)"))
        << m;
    EXPECT_TRUE(has(m, "and in mode 2 by")) << m;
    EXPECT_TRUE(has(m, "CrossCoreSetFlag<2, PIPE_FIX>(3) on FIX of AIC 0")) << m;
    EXPECT_TRUE(has(m, "needs every set and wait of the first mode completed first")) << m;
    EXPECT_TRUE(has(m, "use a different flag id for each mode")) << m;
}

TEST(CrossCoreAmbiguity, TwoModesOnOneFlagRaceUnderSomeSchedule) {
    int racing = 0;
    for (uint64_t seed = 1; seed <= 200; ++seed) {
        Report r = run_two_modes(cfg_of(ArchId::AtlasA2, SchedulerKind::adversarial, seed), 3);
        ASSERT_GE(r.count(ViolationKind::cross_core_ambiguous), 1u) << "seed " << seed << "\n" << r.text();
        racing += r.count(ViolationKind::race) > 0;
    }
    EXPECT_GT(racing, 0) << "no schedule let the mode-1 wait consume the AIC's mode-2 increment";
}

TEST(CrossCoreAmbiguity, OneFlagIdPerModeIsCleanUnderEverySchedule) {
    Report r = run_two_modes(cfg_of(ArchId::AtlasA2), 4);
    EXPECT_TRUE(r.violations.empty()) << r.text();
    for (uint64_t seed = 1; seed <= 100; ++seed) {
        Report s = run_two_modes(cfg_of(ArchId::AtlasA2, SchedulerKind::adversarial, seed), 4);
        ASSERT_TRUE(s.clean()) << "seed " << seed << "\n" << s.text();
    }
}

// ---- (b') a mode-1 round and a mode-2 set on one flag, the round completed by either member ----
// The storing AIV writes W on MTE3 and tells its sibling with CrossCoreSetFlag<1, PIPE_MTE3>(A) ("W is
// written"); it also joins a mode-2 round on flag B from MTE2, which is not after the store. The reading AIV
// sets A (mode 1) and B (mode 2) from MTE2, waits on A and reads W. The AIC waits on B and sets A in mode 2.
// The AIC's set follows the reader's mode-1 set but not the storer's, so the reader's first wait on A may
// take the AIC's increment and read W before it is written. `storer` is the sub-block that stores; `fixed`
// gives the AIC's signal its own flag id.
constexpr uint16_t kFlagA = 2, kFlagB = 1, kFlagC = 3;
Report run_round_and_direct(const Config& cfg, int storer, bool fixed) {
    Device dev(cfg);
    void* w = dev.malloc(256, "W");
    auto wp = static_cast<GM_ADDR>(w);
    const uint16_t aic_flag = fixed ? kFlagC : kFlagA;
    return dev.launch(1, KernelType::mix_aic_1_2, [&] {
        GlobalTensor<float> gw;
        gw.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(wp));
        if ASCEND_IS_AIC {
            CrossCoreWaitFlag<2, PIPE_FIX>(kFlagB);
            CrossCoreSetFlag<2, PIPE_FIX>(aic_flag);
        } else {
            TPipe pipe;
            TBuf<TPosition::VECCALC> buf;
            pipe.InitBuffer(buf, 256);
            LocalTensor<float> a = buf.Get<float>();
            if (GetSubBlockIdx() == storer) {
                Duplicate(a, 1.0f, 64);
                SetFlag<HardEvent::V_MTE3>(0);
                WaitFlag<HardEvent::V_MTE3>(0);
                DataCopy(gw, a, 64);  // MTE3 write W
                CrossCoreSetFlag<1, PIPE_MTE3>(kFlagA);
                CrossCoreSetFlag<2, PIPE_MTE2>(kFlagB);
                CrossCoreWaitFlag<1, PIPE_MTE2>(kFlagA);
                CrossCoreWaitFlag<2, PIPE_MTE2>(aic_flag);
            } else {
                CrossCoreSetFlag<1, PIPE_MTE2>(kFlagA);
                CrossCoreSetFlag<2, PIPE_MTE2>(kFlagB);
                CrossCoreWaitFlag<1, PIPE_MTE2>(kFlagA);  // "W is written"
                DataCopy(a, gw, 64);                      // MTE2 read W
                CrossCoreWaitFlag<2, PIPE_MTE2>(aic_flag);
            }
        }
    });
}

TEST(CrossCoreAmbiguity, RoundAndDirectSetOnOneFlagAreReportedWhicheverMemberCompletesTheRound) {
    for (ArchId arch : kAllArchs)
        for (int storer = 0; storer < 2; ++storer) {
            Report r = run_round_and_direct(cfg_of(arch), storer, false);
            const Violation* v = r.first(ViolationKind::cross_core_ambiguous);
            ASSERT_NE(v, nullptr) << arch_name(arch) << ", storer sub " << storer << "\n" << r.text();
            const std::string& m = v->message;
            EXPECT_TRUE(has(m, "is used in mode 1 by")) << m;
            EXPECT_TRUE(has(m, "and in mode 2 by")) << m;
            // The mode-1 use named is the storer's set, the one the AIC's set does not follow.
            EXPECT_TRUE(
                has(m, fmt::format("CrossCoreSetFlag<1, PIPE_MTE3>({}) on MTE3 of AIV {} (block 0, sub {})",
                                   kFlagA, storer, storer)))
                << m;
            EXPECT_TRUE(has(m, fmt::format("CrossCoreSetFlag<2, PIPE_FIX>({}) on FIX of AIC 0", kFlagA)))
                << m;
        }
}

TEST(CrossCoreAmbiguity, RoundAndDirectSetOnTheirOwnFlagsAreCleanUnderEverySchedule) {
    for (ArchId arch : kAllArchs)
        for (int storer = 0; storer < 2; ++storer) {
            Report r = run_round_and_direct(cfg_of(arch), storer, true);
            EXPECT_TRUE(r.violations.empty()) << r.text();
            for (uint64_t seed = 1; seed <= 100; ++seed) {
                Report s = run_round_and_direct(cfg_of(arch, SchedulerKind::adversarial, seed), storer, true);
                ASSERT_TRUE(s.clean()) << arch_name(arch) << " storer " << storer << " seed " << seed << "\n"
                                       << s.text();
            }
        }
}

// ---- (c) two pipes of one AIV wait on one counter (Ascend950: a cross-core wait blocks only its pipe) ----
// The AIC sets flag 0 for AIV 0, waits for AIV 0's answer on flag 1 (sent from V after its wait), and sets
// flag 0 again. AIV 0 waits on flag 0 from V and from MTE2; when MTE2 takes the first increment, V never
// answers.
Report run_two_waiters(const Config& cfg, bool ordered) {
    Device dev(cfg);
    return dev.launch(1, KernelType::mix_aic_1_2, [&] {
        if ASCEND_IS_AIC {
            CrossCoreSetFlag<4, PIPE_FIX>(0);
            CrossCoreWaitFlag<4, PIPE_FIX>(1);
            CrossCoreSetFlag<4, PIPE_FIX>(0);
        } else if (GetSubBlockIdx() == 0) {
            CrossCoreWaitFlag<4, PIPE_V>(0);
            CrossCoreSetFlag<4, PIPE_V>(1);
            if (ordered) {  // MTE2 waits only after V has taken its increment
                SetFlag<HardEvent::V_MTE2>(0);
                WaitFlag<HardEvent::V_MTE2>(0);
            }
            CrossCoreWaitFlag<4, PIPE_MTE2>(0);
        }
    });
}

TEST(CrossCoreAmbiguity, TwoUnorderedWaitersOnOneCounterAreReported) {
    Report r = run_two_waiters(cfg_of(ArchId::Ascend950), false);
    EXPECT_EQ(r.count(ViolationKind::deadlock), 0u) << "the in-order run itself completes\n" << r.text();
    const Violation* v = r.first(ViolationKind::cross_core_ambiguous);
    ASSERT_NE(v, nullptr) << r.text();
    const std::string& m = v->message;
    EXPECT_TRUE(has(m, "CrossCoreWaitFlag<4, PIPE_V>(0) on V of AIV 0 (block 0, sub 0)")) << m;
    EXPECT_TRUE(has(m, "CrossCoreWaitFlag<4, PIPE_MTE2>(0) on MTE2 of AIV 0 (block 0, sub 0)")) << m;
    EXPECT_TRUE(
        has(m, "both wait on cross-core flag 0 (mode 4) of AIV 0 (block 0, sub 0) with no happens-before"))
        << m;
    EXPECT_TRUE(has(m, "either may take the next increment")) << m;
    EXPECT_TRUE(has(m, "wait on one pipe and pass the order on with an intra-core flag")) << m;
}

TEST(CrossCoreAmbiguity, TwoWaitersDeadlockUnderSomeScheduleAndTheMessageNamesTheConsumer) {
    Config base = cfg_of(ArchId::Ascend950);
    base.seed = 1;
    auto sw = adversarial_sweep([](const Config& c) { return run_two_waiters(c, false); }, base, 200);
    // Either outcome is possible: both verdicts appear.
    ASSERT_EQ(sw.distinct_verdicts(), 2u) << sw.text();
    uint64_t dl_seed = 0;
    for (const auto& v : sw.verdicts) {
        EXPECT_TRUE(v.verdict == "cross_core_ambiguous" || v.verdict == "cross_core_ambiguous+deadlock")
            << v.verdict;
        if (v.verdict == "cross_core_ambiguous+deadlock") dl_seed = v.first_seed;
    }
    ASSERT_NE(dl_seed, 0u);
    Report r = run_two_waiters(cfg_of(ArchId::Ascend950, SchedulerKind::adversarial, dl_seed), false);
    const Violation* d = r.first(ViolationKind::deadlock);
    ASSERT_NE(d, nullptr) << r.text();
    EXPECT_TRUE(has(d->message, "CrossCoreWaitFlag<4, PIPE_V>(0)")) << d->message;
    EXPECT_TRUE(has(d->message, "whose cross-core flag 0 was set once; the set was consumed by #"))
        << d->message;
    EXPECT_FALSE(has(d->message, "flag 0 is never set")) << d->message;
}

TEST(CrossCoreAmbiguity, OrderedWaitersAreCleanUnderEverySchedule) {
    Report r = run_two_waiters(cfg_of(ArchId::Ascend950), true);
    EXPECT_TRUE(r.violations.empty()) << r.text();
    for (uint64_t seed = 1; seed <= 100; ++seed) {
        Report s = run_two_waiters(cfg_of(ArchId::Ascend950, SchedulerKind::adversarial, seed), true);
        ASSERT_TRUE(s.clean()) << "seed " << seed << "\n" << s.text();
    }
}

// The AIC sets AIV 0's mode-4 flag 0 once; AIV 0 waits on it from MTE2 and from its scalar unit. One of the
// two waits takes the increment, the other waits forever, and which one depends on timing. The in-order run
// has MTE2 take it and leaves the scalar unit blocked: the ambiguity is named there too, not only when a
// stuck pipe wait lost the increment (found by the sync_program fuzzer).
Report run_scalar_and_pipe_waiter(const Config& cfg, bool ordered) {
    Device dev(cfg);
    return dev.launch(1, KernelType::mix_aic_1_2, [&] {
        if ASCEND_IS_AIC {
            CrossCoreSetFlag<4, PIPE_FIX>(0);
        } else if (GetSubBlockIdx() == 0) {
            CrossCoreWaitFlag<4, PIPE_MTE2>(0);
            if (ordered) {  // the scalar unit waits only after MTE2 has taken its increment
                SetFlag<HardEvent::MTE2_S>(0);
                WaitFlag<HardEvent::MTE2_S>(0);
            }
            CrossCoreWaitFlag<4, PIPE_S>(0);
        }
    });
}

TEST(CrossCoreAmbiguity, AScalarWaitBlockedForeverNextToAnUnorderedPipeWaitIsReported) {
    Report r = run_scalar_and_pipe_waiter(cfg_of(ArchId::Ascend950), false);
    ASSERT_EQ(r.count(ViolationKind::deadlock), 1u) << r.text();
    const Violation* v = r.first(ViolationKind::cross_core_ambiguous);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_TRUE(has(v->message, "CrossCoreWaitFlag<4, PIPE_MTE2>(0) on MTE2 of AIV 0 (block 0, sub 0)"))
        << v->message;
    EXPECT_TRUE(has(v->message, "CrossCoreWaitFlag<4, PIPE_S>(0) on S of AIV 0 (block 0, sub 0)"))
        << v->message;
    EXPECT_TRUE(has(v->message, "either may take the next increment")) << v->message;

    Report ordered = run_scalar_and_pipe_waiter(cfg_of(ArchId::Ascend950), true);
    EXPECT_EQ(ordered.count(ViolationKind::deadlock), 1u) << ordered.text();
    EXPECT_EQ(ordered.count(ViolationKind::cross_core_ambiguous), 0u) << ordered.text();
}

// ---- deadlock messages ----

TEST(CrossCoreAmbiguity, DeadlockOnAConsumedFlagSaysWhoConsumedIt) {
    Config c;
    Device dev(c);
    Report r = dev.launch(1, KernelType::aiv_only, [] {
        SetFlag<HardEvent::MTE2_V>(0);   // #1
        WaitFlag<HardEvent::MTE2_V>(0);  // #2
        SetFlag<HardEvent::MTE2_V>(0);   // #3
        WaitFlag<HardEvent::MTE2_V>(0);  // #4
        WaitFlag<HardEvent::MTE2_V>(0);  // #5: one wait too many
    });
    const Violation* v = r.first(ViolationKind::deadlock);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_TRUE(has(v->message, "stuck at #5 WaitFlag<MTE2_V>(0)")) << v->message;
    EXPECT_TRUE(has(v->message,
                    "which no further SetFlag<MTE2_V>(0) will satisfy: the flag was set 2 times; both "
                    "sets were consumed by #2 and #4"))
        << v->message;
    EXPECT_FALSE(has(v->message, "will ever satisfy")) << v->message;
}

}  // namespace
}  // namespace evg::hw::testing
