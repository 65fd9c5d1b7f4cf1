// The race checker alone, driven by a scripted event stream: a conflicting access the accessor does not
// happen-after is a race named with its missing edge; the same stream with the edge is quiet.
#include <gtest/gtest.h>

#include "scripted_host.hpp"

namespace evg::hw::testing {
namespace {

struct RaceScript {
    ScriptedHost host{{CoreType::AIV, CoreType::AIV}};
    std::unique_ptr<Checker> race = host.make("race");
    Memory ub{MemKind::UB, "UB[AIV 0]", 4096};
    Memory gm{MemKind::GM, "GM#1 (X)", 4096};

    Instr& access(int core, Pipe p, Memory& m, uint64_t begin, uint64_t end, bool write) {
        Instr& in = host.instr(core, p, write ? "Store" : "Load");
        in.accesses.push_back({&m, begin, end, write, false});
        return in;
    }
    void execute(int core, const Instr& in, const VectorClock& known) {
        race->on_execute({in, core, agent_of(core, in.pipe), known});
    }
};

TEST(RaceCheckerEvents, AReadThatDoesNotKnowTheWriteIsARawNamingTheWaitFlag) {
    RaceScript s;
    ASSERT_NE(s.race, nullptr);
    Instr& w = s.access(0, Pipe::V, s.ub, 0, 256, true);
    s.execute(0, w, {});
    Instr& r = s.access(0, Pipe::MTE3, s.ub, 128, 512, false);
    s.execute(0, r, {});
    ASSERT_EQ(s.host.count(ViolationKind::race), 1u) << s.host.text();
    const Violation& v = s.host.violations[0];
    EXPECT_NE(v.message.find("RAW race on UB[AIV 0] bytes [128, 256) between V write #1"), std::string::npos)
        << v.message;
    EXPECT_NE(v.message.find("no WaitFlag<V_MTE3> orders V write #1 before MTE3 read #2"), std::string::npos)
        << v.message;
    ASSERT_EQ(v.locations.size(), 2u);
    EXPECT_EQ(v.locations[0].instr, 1u);
    EXPECT_EQ(v.locations[1].access, "read");
}

TEST(RaceCheckerEvents, TheSameReadKnowingTheWriteIsQuiet) {
    RaceScript s;
    Instr& w = s.access(0, Pipe::V, s.ub, 0, 256, true);
    s.execute(0, w, {});
    Instr& r = s.access(0, Pipe::MTE3, s.ub, 128, 512, false);
    s.execute(0, r, ScriptedHost::knowing({ScriptedHost::epoch_of(0, w)}));
    EXPECT_TRUE(s.host.violations.empty()) << s.host.text();
}

TEST(RaceCheckerEvents, AWaitThatConsumedAnEarlierSetIsNamedAsNotCoveringTheWrite) {
    RaceScript s;
    Instr& set = s.host.instr(0, Pipe::V, "SetFlag<V_MTE3>(0)", InstrKind::set_flag);
    Instr& w = s.access(0, Pipe::V, s.ub, 0, 64, true);
    s.execute(0, w, {});
    Instr& wait = s.host.instr(0, Pipe::MTE3, "WaitFlag<V_MTE3>(0)", InstrKind::wait_flag);
    wait.event = HardEvent::V_MTE3;
    s.race->on_sync({.kind = SyncKind::flag_wait,
                     .core = 0,
                     .in = &wait,
                     .agent = agent_of(0, Pipe::MTE3),
                     .matched = set.id});
    Instr& r = s.access(0, Pipe::MTE3, s.ub, 0, 64, false);
    s.execute(0, r, ScriptedHost::knowing({ScriptedHost::epoch_of(0, set)}));
    ASSERT_EQ(s.host.count(ViolationKind::race), 1u) << s.host.text();
    EXPECT_NE(
        s.host.violations[0].message.find(
            ": WaitFlag<V_MTE3>(0) #3 consumed SetFlag<V_MTE3>(0) #1, which was issued before V write #2"),
        std::string::npos)
        << s.host.violations[0].message;
}

TEST(RaceCheckerEvents, ACrossCoreSetOnTheWrongPipeIsNamed) {
    RaceScript s;
    Instr& w = s.access(0, Pipe::MTE3, s.gm, 0, 64, true);
    s.execute(0, w, {});
    Instr& set = s.host.instr(0, Pipe::V, "CrossCoreSetFlag<0, PIPE_V>(1)", InstrKind::cross_set);
    const SyncRecord rec = sync_record(0, agent_of(0, Pipe::V), set);
    const VectorClock clock = ScriptedHost::knowing({ScriptedHost::epoch_of(0, set)});
    const int targets[] = {1};
    SyncEvent e{.kind = SyncKind::cross_set,
                .core = 0,
                .in = &set,
                .agent = rec.at.agent,
                .clock = &clock,
                .record = &rec};
    e.targets = targets;
    s.race->on_sync(e);
    Instr& r = s.access(1, Pipe::MTE2, s.gm, 0, 64, false);
    s.execute(1, r, clock);  // knows the set, which did not wait for MTE3
    ASSERT_EQ(s.host.count(ViolationKind::race), 1u) << s.host.text();
    const std::string& m = s.host.violations[0].message;
    EXPECT_NE(m.find("no cross-core flag orders MTE3 write #1 of AIV 0 before MTE2 read #3 of AIV 1"),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("CrossCoreSetFlag<0, PIPE_V>(1) #2 of AIV 0 reaches AIV 1 but is set on V"),
              std::string::npos)
        << m;
}

TEST(RaceCheckerEvents, ItNamesTheInstructionsItsStateHoldsAndForgetsOldWaits) {
    RaceScript s;
    Instr& w = s.access(0, Pipe::V, s.ub, 0, 64, true);
    s.execute(0, w, {});
    std::vector<uint64_t> live;
    s.race->live_instrs(live);
    EXPECT_EQ(live, std::vector<uint64_t>{w.id});
    for (int i = 0; i < 3; ++i) {
        Instr& wait = s.host.instr(0, Pipe::MTE3, "WaitFlag<V_MTE3>(0)", InstrKind::wait_flag);
        wait.event = HardEvent::V_MTE3;
        s.race->on_sync({.kind = SyncKind::flag_wait, .core = 0, .in = &wait, .agent = 0, .matched = 0});
    }
    live.clear();
    s.race->live_instrs(live);
    EXPECT_EQ(live.size(), 1u + 3u * 2u);
    // Every instruction before #5 has executed: of the waits #2, #3, #4 only the last can still be the wait
    // before a later access.
    s.race->forget_before(5);
    live.clear();
    s.race->live_instrs(live);
    EXPECT_EQ(live, (std::vector<uint64_t>{w.id, 4, 0}));
}

}  // namespace
}  // namespace evg::hw::testing
