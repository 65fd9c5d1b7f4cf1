// The redundant-wait checker alone, driven by a scripted event stream: a (wait, set) pair of call sites that
// orders nothing in every execution, at least twice on a core, and shares its sites with no other wait or
// set is reported at kernel end; the same stream with one execution that orders something, one execution
// only, another consumer of the set site, or a set on the scalar unit is quiet.
#include <gtest/gtest.h>

#include "scripted_host.hpp"

namespace evg::hw::testing {
namespace {

struct RedundantScript {
    ScriptedHost host{{CoreType::AIV, CoreType::AIV}};
    std::unique_ptr<Checker> checker = host.make("redundant-waits");
    std::deque<VectorClock> clocks;

    Instr& call(int core, Pipe p, const std::string& op, InstrKind kind, HardEvent e, int id) {
        Instr& in = host.instr(core, p, op, kind);
        in.event = e;
        in.event_id = id;
        return in;
    }
    // SetFlag<e>(id), which knew `set_knew`, consumed by a WaitFlag that knew `before` (each at its one
    // site).
    void handover(int core, HardEvent e, int id, const VectorClock& set_knew, const VectorClock& before) {
        Instr& set = call(core, event_src(e), "SetFlag", InstrKind::set_flag, e, id);
        Instr& wait = call(core, event_dst(e), "WaitFlag", InstrKind::wait_flag, e, id);
        clocks.push_back(set_knew);
        const VectorClock* set_clock = &clocks.back();
        clocks.push_back(before);
        checker->on_sync({.kind = SyncKind::flag_wait,
                          .core = core,
                          .in = &wait,
                          .agent = agent_of(core, wait.pipe),
                          .clock = &clocks.back(),
                          .matched = set.id,
                          .matched_clock = set_clock});
    }
    void end() { checker->on_kernel_end({2, {}, {}}); }
};

// What MTE2 of core 0 had done, up to its v-th instruction.
VectorClock knows(uint32_t v) {
    return ScriptedHost::knowing({{agent_of(0, Pipe::MTE2), v}});
}

TEST(RedundantWaitEvents, APairThatOrdersNothingInBothItsExecutionsIsReported) {
    RedundantScript s;
    ASSERT_NE(s.checker, nullptr);
    s.host.same_site_for_op = true;
    s.handover(0, HardEvent::MTE2_V, 1, knows(1), knows(2));
    s.handover(0, HardEvent::MTE2_V, 1, knows(3), knows(4));
    s.end();
    ASSERT_EQ(s.host.count(ViolationKind::redundant_wait), 1u) << s.host.text();
    const Violation& v = s.host.violations[0];
    EXPECT_NE(v.message.find("WaitFlag #2 on PIPE_V of AIV 0"), std::string::npos) << v.message;
    EXPECT_NE(v.message.find("in each of its 2 execution(s) PIPE_V already happened-after the SetFlag it "
                             "consumed (#1 on PIPE_MTE2"),
              std::string::npos)
        << v.message;
    EXPECT_EQ(v.occurrences, 2u);
}

TEST(RedundantWaitEvents, OneExecutionThatOrdersSomethingKeepsThePair) {
    RedundantScript s;
    s.host.same_site_for_op = true;
    s.handover(0, HardEvent::MTE2_V, 1, knows(1), knows(2));
    s.handover(0, HardEvent::MTE2_V, 1, knows(5), knows(4));  // the wait learns MTE2 up to 5
    s.end();
    EXPECT_TRUE(s.host.violations.empty()) << s.host.text();
}

TEST(RedundantWaitEvents, APairThatRunsOncePerCoreIsSetUpNotALoop) {
    RedundantScript s;
    s.host.same_site_for_op = true;
    s.handover(0, HardEvent::MTE2_V, 1, knows(1), knows(2));
    s.handover(1, HardEvent::MTE2_V, 1, ScriptedHost::knowing({{agent_of(1, Pipe::MTE2), 1}}),
               ScriptedHost::knowing({{agent_of(1, Pipe::MTE2), 2}}));
    s.end();
    EXPECT_TRUE(s.host.violations.empty()) << s.host.text();
}

TEST(RedundantWaitEvents, ASetSiteAnotherWaitAlsoConsumesIsKept) {
    RedundantScript s;
    s.host.same_site_for_op = true;
    s.handover(0, HardEvent::MTE2_V, 1, knows(1), knows(2));
    s.handover(0, HardEvent::MTE2_V, 1, knows(3), knows(4));
    // The same set site, consumed by a wait at another site (a clean-up wait after the loop).
    Instr& set = s.call(0, Pipe::MTE2, "SetFlag", InstrKind::set_flag, HardEvent::MTE2_V, 1);
    Instr& wait = s.call(0, Pipe::V, "WaitFlag (after the loop)", InstrKind::wait_flag, HardEvent::MTE2_V, 1);
    const VectorClock set_knew = knows(5), before = knows(1);
    s.checker->on_sync({.kind = SyncKind::flag_wait,
                        .core = 0,
                        .in = &wait,
                        .agent = agent_of(0, Pipe::V),
                        .clock = &before,
                        .matched = set.id,
                        .matched_clock = &set_knew});
    s.end();
    EXPECT_TRUE(s.host.violations.empty()) << s.host.text();
}

TEST(RedundantWaitEvents, AWaitOnAScalarSetIsNeverCalledRedundant) {
    RedundantScript s;
    s.host.same_site_for_op = true;
    const VectorClock s_knew = ScriptedHost::knowing({{agent_of(0, Pipe::S), 1}});
    s.handover(0, HardEvent::S_MTE3, 0, s_knew, s_knew);
    s.handover(0, HardEvent::S_MTE3, 0, s_knew, s_knew);
    s.end();
    EXPECT_TRUE(s.host.violations.empty()) << s.host.text();
}

}  // namespace
}  // namespace evg::hw::testing
