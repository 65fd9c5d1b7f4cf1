// The flags and counters checker alone, driven by a scripted event stream: each finding fires on the stream
// that has the fault and stays quiet on the same stream with it fixed.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "evg/hw/cube_state.hpp"
#include "scripted_host.hpp"

namespace evg::hw::testing {
namespace {

struct FlagScript {
    // Core 0 is the AIC of block 0, cores 1 and 2 its AIVs.
    ScriptedHost host{{CoreType::AIC, CoreType::AIV, CoreType::AIV}};
    std::unique_ptr<Checker> flags = host.make("flags");
    std::deque<SyncRecord> records;
    std::deque<VectorClock> clocks;

    Instr& set(int core, HardEvent e, int id, VectorClock knows = {}) {
        Instr& in = host.instr(core, event_src(e), fmt::format("SetFlag<{}>({})", event_name(e), id),
                               InstrKind::set_flag);
        in.event = e;
        in.event_id = id;
        knows.raise(agent_of(core, in.pipe), in.epoch);
        clocks.push_back(std::move(knows));
        flags->on_sync({.kind = SyncKind::flag_set,
                        .core = core,
                        .in = &in,
                        .agent = agent_of(core, in.pipe),
                        .clock = &clocks.back()});
        return in;
    }
    Instr& wait(int core, HardEvent e, int id, const Instr& matched) {
        Instr& in = host.instr(core, event_dst(e), fmt::format("WaitFlag<{}>({})", event_name(e), id),
                               InstrKind::wait_flag);
        in.event = e;
        in.event_id = id;
        flags->on_sync({.kind = SyncKind::flag_wait,
                        .core = core,
                        .in = &in,
                        .agent = agent_of(core, in.pipe),
                        .matched = matched.id});
        return in;
    }
    // A cross-core set of `setter` on pipe p, landing as one increment on counter (0, flag) of `target`.
    Instr& increment(int setter, Pipe p, int target, int flag, uint8_t mode = 0, VectorClock knows = {}) {
        Instr& in =
            host.instr(setter, p, fmt::format("CrossCoreSetFlag<{}, PIPE_{}>({})", mode, pipe_name(p), flag),
                       InstrKind::cross_set);
        in.cross_mode = mode;
        in.cross_flag = static_cast<uint16_t>(flag);
        knows.raise(agent_of(setter, p), in.epoch);
        clocks.push_back(std::move(knows));
        records.push_back(sync_record(setter, agent_of(setter, p), in));
        const int targets[] = {target};
        SyncEvent cs{.kind = SyncKind::cross_set,
                     .core = setter,
                     .in = &in,
                     .agent = records.back().at.agent,
                     .clock = &clocks.back(),
                     .record = &records.back()};
        cs.targets = targets;
        flags->on_sync(cs);
        flags->on_sync({.kind = SyncKind::counter_increment,
                        .core = target,
                        .in = &in,
                        .agent = records.back().at.agent,
                        .clock = &clocks.back(),
                        .ns = 0,
                        .flag = flag,
                        .record = &records.back()});
        return in;
    }
    Instr& counter_wait(int core, Pipe p, int flag, VectorClock before = {}) {
        Instr& in = host.instr(core, p, fmt::format("CrossCoreWaitFlag<0, PIPE_{}>({})", pipe_name(p), flag),
                               InstrKind::cross_wait);
        in.cross_flag = static_cast<uint16_t>(flag);
        records.push_back(sync_record(core, agent_of(core, p), in));
        clocks.push_back(std::move(before));
        flags->on_sync({.kind = SyncKind::counter_wait,
                        .core = core,
                        .in = &in,
                        .agent = records.back().at.agent,
                        .clock = &clocks.back(),
                        .ns = 0,
                        .flag = flag,
                        .record = &records.back()});
        return in;
    }
    void end(std::span<const KernelEndEvent::AtomicLeftOn> atomic = {},
             std::span<const KernelEndEvent::OpenRound> rounds = {}) {
        flags->on_kernel_end({3, atomic, rounds});
    }
};

TEST(FlagCheckerEvents, ASecondSetBeforeAnyWaitIsSetTwice) {
    FlagScript s;
    ASSERT_NE(s.flags, nullptr);
    s.set(1, HardEvent::MTE2_V, 0);
    s.set(1, HardEvent::MTE2_V, 0);
    ASSERT_EQ(s.host.count(ViolationKind::flag_set_twice), 1u) << s.host.text();
    EXPECT_NE(
        s.host.violations[0].message.find("SetFlag<MTE2_V>(0) on AIV 1 may execute while the flag is still "
                                          "set by #1"),
        std::string::npos)
        << s.host.violations[0].message;
}

TEST(FlagCheckerEvents, ASecondSetAfterAWaitItKnowsIsQuietAndLeavesNothingSet) {
    FlagScript s;
    Instr& first = s.set(1, HardEvent::MTE2_V, 0);
    Instr& w = s.wait(1, HardEvent::MTE2_V, 0, first);
    Instr& second = s.set(1, HardEvent::MTE2_V, 0, ScriptedHost::knowing({ScriptedHost::epoch_of(1, w)}));
    s.wait(1, HardEvent::MTE2_V, 0, second);
    s.end();
    EXPECT_TRUE(s.host.violations.empty()) << s.host.text();
}

TEST(FlagCheckerEvents, ASecondSetAfterAWaitItDoesNotKnowIsSetTwice) {
    FlagScript s;
    Instr& first = s.set(1, HardEvent::MTE2_V, 0);
    s.wait(1, HardEvent::MTE2_V, 0, first);
    s.set(1, HardEvent::MTE2_V, 0);  // MTE2 knows nothing of V's wait
    EXPECT_EQ(s.host.count(ViolationKind::flag_set_twice), 1u) << s.host.text();
}

TEST(FlagCheckerEvents, ASetNobodyWaitsForIsLeftSetAtKernelEnd) {
    FlagScript s;
    s.set(1, HardEvent::V_MTE3, 2);
    s.end();
    ASSERT_EQ(s.host.count(ViolationKind::flag_left_set), 1u) << s.host.text();
    EXPECT_NE(s.host.violations[0].message.find("SetFlag<V_MTE3>(2) of AIV 1 is still set at kernel end (1 "
                                                "unconsumed set(s))"),
              std::string::npos);
    EXPECT_EQ(s.host.violations[0].locations.at(0).instr, 1u);
}

TEST(FlagCheckerEvents, TheLastUnitFlagReleaseIsNotLeftSet) {
    FlagScript s;
    s.set(0, HardEvent::FIX_M, kUnitFlagId);
    s.end();
    EXPECT_TRUE(s.host.violations.empty()) << s.host.text();
}

TEST(FlagCheckerEvents, SixteenIncrementsWithoutAWaitOverflowTheCounter) {
    FlagScript s;
    const int max = s.host.arch().cross_core_counter_max;
    for (int i = 0; i < max; ++i) s.increment(1, Pipe::MTE3, 0, 3);
    EXPECT_TRUE(s.host.violations.empty()) << s.host.text();
    s.increment(1, Pipe::MTE3, 0, 3);
    ASSERT_EQ(s.host.count(ViolationKind::counter_overflow), 1u) << s.host.text();
    EXPECT_NE(
        s.host.violations[0].message.find(fmt::format("can raise cross-core flag 3 of AIC 0 to {}", max + 1)),
        std::string::npos)
        << s.host.violations[0].message;
}

TEST(FlagCheckerEvents, AWaitTheNextIncrementKnowsKeepsTheCounterInRange) {
    FlagScript s;
    const int max = s.host.arch().cross_core_counter_max;
    for (int i = 0; i < max; ++i) s.increment(1, Pipe::MTE3, 0, 3);
    Instr& w = s.counter_wait(0, Pipe::FIX, 3);
    s.increment(1, Pipe::MTE3, 0, 3, 0, ScriptedHost::knowing({ScriptedHost::epoch_of(0, w)}));
    EXPECT_EQ(s.host.count(ViolationKind::counter_overflow), 0u) << s.host.text();
}

TEST(FlagCheckerEvents, TwoUnorderedWaitersOfOneCounterAreAmbiguous) {
    FlagScript s;
    s.increment(1, Pipe::MTE3, 0, 5);
    s.increment(1, Pipe::MTE3, 0, 5);
    s.counter_wait(0, Pipe::MTE1, 5);
    s.counter_wait(0, Pipe::FIX, 5);
    ASSERT_EQ(s.host.count(ViolationKind::cross_core_ambiguous), 1u) << s.host.text();
    EXPECT_NE(s.host.violations[0].message.find("both wait on cross-core flag 5 of AIC 0"),
              std::string::npos);
}

TEST(FlagCheckerEvents, TwoWaitersOrderedByAFlagAreQuiet) {
    FlagScript s;
    s.increment(1, Pipe::MTE3, 0, 5);
    s.increment(1, Pipe::MTE3, 0, 5);
    Instr& first = s.counter_wait(0, Pipe::MTE1, 5);
    s.counter_wait(0, Pipe::FIX, 5, ScriptedHost::knowing({ScriptedHost::epoch_of(0, first)}));
    s.end();
    EXPECT_TRUE(s.host.violations.empty()) << s.host.text();
}

TEST(FlagCheckerEvents, TwoUnorderedSetsOfOneFlagFromTwoPipesAreAmbiguous) {
    FlagScript s;
    s.increment(1, Pipe::MTE3, 0, 6);
    s.increment(1, Pipe::V, 0, 6);
    EXPECT_EQ(s.host.count(ViolationKind::cross_core_ambiguous), 1u) << s.host.text();
}

TEST(FlagCheckerEvents, OneCounterUsedInTwoModesWithoutOrderIsAmbiguous) {
    FlagScript s;
    s.increment(1, Pipe::MTE3, 0, 7, 2);
    s.increment(2, Pipe::MTE3, 0, 7, 0);
    ASSERT_EQ(s.host.count(ViolationKind::cross_core_ambiguous), 1u) << s.host.text();
    EXPECT_NE(s.host.violations[0].message.find("is used in mode 2 by"), std::string::npos);
}

TEST(FlagCheckerEvents, AnUnconsumedIncrementAnOpenRoundAndAtomicModeAreReportedAtKernelEnd) {
    FlagScript s;
    s.increment(1, Pipe::MTE3, 0, 4);
    const KernelEndEvent::AtomicLeftOn atomic[] = {{2, Site{"kernel.cpp", 9}}};
    const KernelEndEvent::OpenRound rounds[] = {{1, 8, 1}};
    s.end(atomic, rounds);
    EXPECT_EQ(s.host.count(ViolationKind::counter_left_nonzero), 2u) << s.host.text();
    ASSERT_EQ(s.host.count(ViolationKind::atomic_left_on), 1u) << s.host.text();
    EXPECT_NE(s.host.text().find("AIV 2 ends the kernel with GM atomic mode on (set at kernel.cpp:9)"),
              std::string::npos);
    EXPECT_NE(s.host.text().find("mode 1 cross-core flag 8 was set by AIV 1 but not by every participant"),
              std::string::npos);
}

}  // namespace
}  // namespace evg::hw::testing
