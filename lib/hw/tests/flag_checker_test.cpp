// The flag checker: set twice, never-set waits (deadlock, reported, never hung), flags left set, cross-core
// deadlocks and counter overflow, illegal events; each against its fixed counterpart.
#include <gtest/gtest.h>

#include <chrono>

#include "test_kernels.hpp"

namespace evg::hw::testing {
namespace {

using namespace AscendC;

Report launch(const std::function<void()>& k, KernelType t = KernelType::aiv_only, int blocks = 1,
              ArchId arch = ArchId::AtlasA2) {
    Config c;
    c.arch = arch;
    Device dev(c);
    return dev.launch(blocks, t, k);
}

TEST(FlagChecker, WaitNeverSetIsADeadlockReportedQuickly) {
    auto t0 = std::chrono::steady_clock::now();
    Report r = launch([] { WaitFlag<HardEvent::MTE2_V>(0); });
    auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    const Violation* v = r.first(ViolationKind::deadlock);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(v->message.find("pipe V of AIV 0 is stuck at #1 WaitFlag<MTE2_V>(0)"), std::string::npos)
        << v->message;
    EXPECT_NE(v->message.find("which no SetFlag<MTE2_V>(0) will ever satisfy"), std::string::npos)
        << v->message;
    EXPECT_LT(ms, 1000);
}

TEST(FlagChecker, ScalarWaitNeverSetIsADeadlock) {
    Report r = launch([] { WaitFlag<HardEvent::V_S>(0); });
    const Violation* v = r.first(ViolationKind::deadlock);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(v->message.find("scalar unit of AIV 0 is blocked in WaitFlag<V_S>(0)"), std::string::npos)
        << v->message;
}

TEST(FlagChecker, MatchedSetAndWaitIsClean) {
    Report r = launch([] {
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        SetFlag<HardEvent::V_S>(1);
        WaitFlag<HardEvent::V_S>(1);
    });
    EXPECT_TRUE(r.clean()) << r.text();
    EXPECT_TRUE(r.violations.empty()) << r.text();
}

TEST(FlagChecker, WaitIssuedBeforeItsSetIsNotADeadlock) {
    // The scalar unit may issue a wait before the matching set: the waiting pipe just stalls.
    Report r = launch([] {
        WaitFlag<HardEvent::MTE2_V>(0);
        SetFlag<HardEvent::MTE2_V>(0);
    });
    EXPECT_TRUE(r.clean()) << r.text();
}

TEST(FlagChecker, SetTwiceWithoutWait) {
    Report r = launch([] {
        SetFlag<HardEvent::MTE2_V>(0);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
    });
    const Violation* v = r.first(ViolationKind::flag_set_twice);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(v->message.find("SetFlag<MTE2_V>(0) on AIV 0 may execute while the flag is still set by #1"),
              std::string::npos)
        << v->message;
}

TEST(FlagChecker, SetAfterAnOrderedWaitIsClean) {
    // MTE2 sets, V waits, V tells MTE2 it waited (V_MTE2), MTE2 waits for that, then sets again.
    Report r = launch([] {
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        SetFlag<HardEvent::V_MTE2>(0);
        WaitFlag<HardEvent::V_MTE2>(0);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
    });
    EXPECT_TRUE(r.clean()) << r.text();
}

TEST(FlagChecker, FlagLeftSetAtExit) {
    Report r = launch([] { SetFlag<HardEvent::V_MTE3>(3); });
    const Violation* v = r.first(ViolationKind::flag_left_set);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(v->message.find("SetFlag<V_MTE3>(3) of AIV 0 is still set at kernel end"), std::string::npos)
        << v->message;
}

TEST(FlagChecker, EventIdEightIsIllegal) {
    Report r = launch([] {
        SetFlag<HardEvent::MTE2_V>(8);
        WaitFlag<HardEvent::MTE2_V>(8);
    });
    const Violation* v = r.first(ViolationKind::illegal_event);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(v->message.find("uses event id 8; AtlasA2 has event ids 0..7"), std::string::npos)
        << v->message;
    EXPECT_EQ(r.count(ViolationKind::deadlock), 0u) << "an illegal event must not also hang the model";
}

TEST(FlagChecker, ReservedEventIdIsAWarning) {
    Report r = launch([] {
        SetFlag<HardEvent::MTE2_V>(7);
        WaitFlag<HardEvent::MTE2_V>(7);
    });
    const Violation* v = r.first(ViolationKind::illegal_event);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_EQ(v->severity, Severity::warning);
    EXPECT_TRUE(r.clean());
}

TEST(FlagChecker, CubeEventOnVectorCoreIsIllegal) {
    Report r = launch([] { SetFlag<HardEvent::M_MTE1>(0); });
    const Violation* v = r.first(ViolationKind::illegal_event);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(v->message.find("HardEvent M_MTE1 does not exist on an AIV core"), std::string::npos)
        << v->message;
}

TEST(FlagChecker, CrossCoreDeadlock) {
    // The AIC waits for a flag its AIVs never set.
    Report r = launch(
        [] {
            if ASCEND_IS_AIC {
                CrossCoreWaitFlag<2, PIPE_FIX>(3);
            }
        },
        KernelType::mix_aic_1_2, 1);
    const Violation* v = r.first(ViolationKind::deadlock);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(v->message.find("scalar unit of AIC 0 is blocked in CrossCoreWaitFlag<2, PIPE_FIX>(3)"),
              std::string::npos)
        << v->message;
}

TEST(FlagChecker, CrossCoreMode2HandshakeIsClean) {
    // The AIC signals both AIVs (mode 2); both AIVs answer; the AIC's counter fires once both have set.
    for (ArchId a : kAllArchs) {
        Report r = launch(
            [] {
                if ASCEND_IS_AIC {
                    CrossCoreSetFlag<2, PIPE_FIX>(0);
                    CrossCoreWaitFlag<2, PIPE_FIX>(1);
                } else {
                    CrossCoreWaitFlag<2, PIPE_MTE2>(0);
                    CrossCoreSetFlag<2, PIPE_MTE3>(1);
                }
            },
            KernelType::mix_aic_1_2, 2, a);
        EXPECT_TRUE(r.clean()) << r.text();
        EXPECT_TRUE(r.violations.empty()) << r.text();
    }
}

TEST(FlagChecker, CrossCoreWaitWithItsDefaultModeAndScalarPipeIsLegal) {
    // CrossCoreWaitFlag's template arguments default to <0, PIPE_S>: the scalar unit waits, whatever mode the
    // set used (upstream Catlass waits this way, Arch::CrossCoreWaitFlag). A set on the scalar pipe in mode 2
    // stays illegal.
    for (ArchId a : kAllArchs) {
        Report r = launch(
            [] {
                if ASCEND_IS_AIC {
                    CrossCoreSetFlag<2, PIPE_FIX>(0);
                    CrossCoreWaitFlag(1);
                } else {
                    CrossCoreWaitFlag(0);
                    CrossCoreSetFlag<2, PIPE_MTE3>(1);
                }
            },
            KernelType::mix_aic_1_2, 2, a);
        EXPECT_TRUE(r.violations.empty()) << r.text();
        Report bad = launch(
            [] {
                if ASCEND_IS_AIC {
                    CrossCoreSetFlag<2, PIPE_S>(0);
                } else {
                    CrossCoreWaitFlag(0);
                }
            },
            KernelType::mix_aic_1_2, 1, a);
        EXPECT_EQ(bad.count(ViolationKind::illegal_cross_core), 1u) << bad.text();
    }
}

TEST(FlagChecker, SixteenCrossCoreSetsWithoutAWaitOverflow) {
    Report r = launch(
        [] {
            if ASCEND_IS_AIC {
                for (int i = 0; i < 16; ++i) CrossCoreSetFlag<2, PIPE_FIX>(0);
            } else {
                for (int i = 0; i < 16; ++i) CrossCoreWaitFlag<2, PIPE_MTE2>(0);
            }
        },
        KernelType::mix_aic_1_2, 1, ArchId::Ascend950);
    const Violation* v = r.first(ViolationKind::counter_overflow);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(v->message.find("can raise cross-core flag 0 of AIV 0 (block 0, sub 0) to 16"),
              std::string::npos)
        << v->message;
}

TEST(FlagChecker, FifteenSetsWithReverseFlagAreClean) {
    // Catlass's CrossCoreFlagWithReverse: after 15 sets the producer waits for the consumer's reverse flag.
    Report r = launch(
        [] {
            if ASCEND_IS_AIC {
                for (int i = 1; i <= 30; ++i) {
                    CrossCoreSetFlag<2, PIPE_FIX>(0);
                    if (i % 15 == 0) CrossCoreWaitFlag<2, PIPE_FIX>(1);
                }
            } else {
                for (int i = 1; i <= 30; ++i) {
                    CrossCoreWaitFlag<2, PIPE_MTE2>(0);
                    if (i % 15 == 0) CrossCoreSetFlag<2, PIPE_MTE2>(1);
                }
            }
        },
        KernelType::mix_aic_1_2, 1, ArchId::AtlasA2);
    EXPECT_TRUE(r.clean()) << r.text();
}

TEST(FlagChecker, CrossCoreCounterLeftNonZero) {
    Report r = launch(
        [] {
            if ASCEND_IS_AIC {
                CrossCoreSetFlag<2, PIPE_FIX>(0);
            }
        },
        KernelType::mix_aic_1_2, 1);
    EXPECT_GE(r.count(ViolationKind::counter_left_nonzero), 1u) << r.text();
}

TEST(FlagChecker, Mode4IsIllegalOnAtlasA2) {
    Report r = launch(
        [] {
            if ASCEND_IS_AIV {
                CrossCoreSetFlag<4, PIPE_V>(1);
            }
        },
        KernelType::mix_aic_1_2, 1, ArchId::AtlasA2);
    const Violation* v = r.first(ViolationKind::illegal_cross_core);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(v->message.find("mode 4 (AIC <-> one AIV) exists only on Ascend950"), std::string::npos);
}

TEST(FlagChecker, Mode4PairsAicWithEachAivOnAscend950) {
    Report r = launch(
        [] {
            if ASCEND_IS_AIC {
                CrossCoreSetFlag<4, PIPE_FIX>(0);    // to AIV0
                CrossCoreSetFlag<4, PIPE_FIX>(16);   // to AIV1
                CrossCoreWaitFlag<4, PIPE_FIX>(1);   // from AIV0
                CrossCoreWaitFlag<4, PIPE_FIX>(17);  // from AIV1
            } else {
                CrossCoreWaitFlag<4, PIPE_V>(0);
                CrossCoreSetFlag<4, PIPE_V>(1);
            }
        },
        KernelType::mix_aic_1_2, 1, ArchId::Ascend950);
    EXPECT_TRUE(r.clean()) << r.text();
}

TEST(FlagChecker, Mode0IsABarrierOverAllCoresOfOneType) {
    // Every AIV sets flag 8 once and waits once: the counters move only when all have set.
    Report ok = launch(
        [] {
            if ASCEND_IS_AIV {
                CrossCoreSetFlag<0, PIPE_MTE3>(8);
                CrossCoreWaitFlag<0, PIPE_MTE3>(8);
            }
        },
        KernelType::mix_aic_1_2, 3);
    EXPECT_TRUE(ok.clean()) << ok.text();
    // If one AIV skips the set, nobody passes the barrier.
    Report bad = launch(
        [] {
            if ASCEND_IS_AIV {
                if (AscendC::GetBlockIdx() != 3) CrossCoreSetFlag<0, PIPE_MTE3>(8);
                CrossCoreWaitFlag<0, PIPE_MTE3>(8);
            }
        },
        KernelType::mix_aic_1_2, 3);
    EXPECT_EQ(bad.count(ViolationKind::deadlock), 1u) << bad.text();
}

TEST(FlagChecker, Mode1PairsTheTwoAivsOfOneAiCore) {
    Report ok = launch(
        [] {
            if ASCEND_IS_AIV {
                CrossCoreSetFlag<1, PIPE_V>(10);
                CrossCoreWaitFlag<1, PIPE_V>(10);
            }
        },
        KernelType::mix_aic_1_2, 2, ArchId::Ascend950);
    EXPECT_TRUE(ok.clean()) << ok.text();
    Report aic = launch(
        [] {
            if ASCEND_IS_AIC {
                CrossCoreSetFlag<1, PIPE_FIX>(10);
            }
        },
        KernelType::mix_aic_1_2, 1);
    EXPECT_EQ(aic.count(ViolationKind::illegal_cross_core), 1u) << aic.text();
}

TEST(FlagChecker, CrossCoreFlagsNeedAMixKernel) {
    Report r = launch([] { CrossCoreSetFlag<2, PIPE_MTE3>(0); }, KernelType::aiv_only, 1);
    const Violation* v = r.first(ViolationKind::illegal_cross_core);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(v->message.find("need a mix (AIC + AIV) kernel"), std::string::npos) << v->message;
}

TEST(FlagChecker, AtomicModeLeftOn) {
    Report r = launch([] { SetAtomicAdd<float>(); });
    ASSERT_EQ(r.count(ViolationKind::atomic_left_on), 1u) << r.text();
    Report ok = launch([] {
        SetAtomicAdd<float>();
        SetAtomicNone();
    });
    EXPECT_TRUE(ok.clean()) << ok.text();
}

TEST(FlagChecker, FlagCheckerCanBeSwitchedOff) {
    Config c;
    c.checks.flags = false;
    Device dev(c);
    Report r = dev.launch(1, KernelType::aiv_only, [] { SetFlag<HardEvent::V_MTE3>(3); });
    EXPECT_EQ(r.count(ViolationKind::flag_left_set), 0u) << r.text();
}

}  // namespace
}  // namespace evg::hw::testing
