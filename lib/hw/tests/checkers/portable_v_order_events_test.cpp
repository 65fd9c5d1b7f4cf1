// The portable-v-order checker alone, driven by a scripted event stream: on Ascend950 two dependent V
// instructions that only the in-order V pipe orders are reported as the race they are on AtlasA2; a
// PipeBarrier<PIPE_V>, a V-side wait of a set that followed the first, or the scalar unit knowing the first
// complete, orders them, and the checker is quiet; on AtlasA2 it leaves the pair to the race checker.
#include <gtest/gtest.h>

#include <memory>

#include "scripted_host.hpp"

namespace evg::hw::testing {
namespace {

struct VScript {
    explicit VScript(ArchId arch = ArchId::Ascend950) : host({CoreType::AIV, CoreType::AIV}, arch) {}
    ScriptedHost host;
    std::unique_ptr<Checker> checker = host.make("portable-v-order");
    Memory ub{MemKind::UB, "UB[AIV 0]", 4096};
    Memory ub1{MemKind::UB, "UB[AIV 1]", 4096};

    // A V instruction of `core` that writes or reads [begin, end) of `m`, issued and executed in order.
    Instr& v(int core, Memory& m, uint64_t begin, uint64_t end, bool write, const char* op = nullptr) {
        Instr& in = host.instr(core, Pipe::V, op ? op : (write ? "Muls" : "ReduceSum"));
        in.accesses.push_back({&m, begin, end, write, false});
        checker->on_issue({in, core});
        checker->on_execute({in, core, agent_of(core, Pipe::V), known_});
        return in;
    }
    void barrier(int core) {
        Instr& b = host.instr(core, Pipe::V, "PipeBarrier<PIPE_V>", InstrKind::barrier);
        checker->on_issue({b, core});
    }
    // A WaitFlag on core's V pipe consuming a set that knew `set_knew`.
    void v_wait(int core, const VectorClock& set_knew) {
        Instr& set = host.instr(core, Pipe::MTE3, "SetFlag<MTE3_V>(0)", InstrKind::set_flag);
        Instr& wait = host.instr(core, Pipe::V, "WaitFlag<MTE3_V>(0)", InstrKind::wait_flag);
        checker->on_issue({wait, core});
        const VectorClock before;
        checker->on_sync({.kind = SyncKind::flag_wait,
                          .core = core,
                          .in = &wait,
                          .agent = agent_of(core, Pipe::V),
                          .clock = &before,
                          .matched = set.id,
                          .matched_clock = &set_knew});
    }
    VectorClock known_;  // the V pipe's clock: the model's own on Ascend950 knows its earlier V epochs
};

TEST(PortableVOrderEvents, ADependentPairWithNoBarrierIsTheRaceItWouldBeOnAtlasA2) {
    VScript s;
    ASSERT_NE(s.checker, nullptr);
    s.v(0, s.ub, 0, 256, true);
    s.v(0, s.ub, 128, 512, false);
    ASSERT_EQ(s.host.count(ViolationKind::v_order_unportable), 1u) << s.host.text();
    const Violation& v = s.host.violations[0];
    EXPECT_NE(
        v.message.find("RAW on UB[AIV 0] bytes [128, 256) between V write #1 Muls (issued at script.cpp:1) "
                       "and V read #2 ReduceSum (issued at script.cpp:2) of AIV 0"),
        std::string::npos)
        << v.message;
    EXPECT_NE(v.message.find("races on AtlasA2, whose V pipe keeps no order; a PipeBarrier<PIPE_V>() after "
                             "script.cpp:1 makes it portable"),
              std::string::npos)
        << v.message;
    ASSERT_EQ(v.locations.size(), 2u);
    EXPECT_EQ(v.locations[0].instr, 1u);
    EXPECT_EQ(v.locations[1].instr, 2u);
}

TEST(PortableVOrderEvents, WarAndWawToo) {
    VScript s;
    s.v(0, s.ub, 0, 256, false);  // read
    s.v(0, s.ub, 0, 64, true);    // WAR
    s.v(0, s.ub, 32, 64, true);   // WAW with the write before
    EXPECT_EQ(s.host.count(ViolationKind::v_order_unportable), 2u) << s.host.text();
    EXPECT_NE(s.host.text().find("WAR on UB[AIV 0] bytes [0, 64)"), std::string::npos) << s.host.text();
    EXPECT_NE(s.host.text().find("WAW on UB[AIV 0] bytes [32, 64)"), std::string::npos) << s.host.text();
}

TEST(PortableVOrderEvents, APipeBarrierBetweenOrdersThePair) {
    VScript s;
    s.v(0, s.ub, 0, 256, true);
    s.barrier(0);
    s.v(0, s.ub, 128, 512, false);
    EXPECT_TRUE(s.host.violations.empty()) << s.host.text();
}

TEST(PortableVOrderEvents, AVWaitOrdersThePairOnlyWhenItsSetFollowedTheFirst) {
    VScript s;
    const Instr& w = s.v(0, s.ub, 0, 256, true);
    s.v_wait(0, ScriptedHost::knowing({ScriptedHost::epoch_of(0, w)}));  // V_MTE3 ... MTE3_V after the write
    s.v(0, s.ub, 0, 256, false);
    EXPECT_TRUE(s.host.violations.empty()) << s.host.text();

    VScript t;
    t.v(0, t.ub, 0, 256, true);
    t.v_wait(0, VectorClock{});  // the set knew nothing of the write
    t.v(0, t.ub, 0, 256, false);
    EXPECT_EQ(t.host.count(ViolationKind::v_order_unportable), 1u) << t.host.text();
}

TEST(PortableVOrderEvents, TheScalarUnitKnowingTheFirstCompleteOrdersThePair) {
    VScript s;
    const Instr& w = s.v(0, s.ub, 0, 256, true);
    Instr& r = s.host.instr(0, Pipe::V, "ReduceSum");
    r.accesses.push_back({&s.ub, 0, 256, false, false});
    r.issued = std::make_shared<const VectorClock>(ScriptedHost::knowing({ScriptedHost::epoch_of(0, w)}));
    s.checker->on_issue({r, 0});
    s.checker->on_execute({r, 0, agent_of(0, Pipe::V), VectorClock{}});
    EXPECT_TRUE(s.host.violations.empty()) << s.host.text();
}

TEST(PortableVOrderEvents, IndependentBytesAndOtherCoresAreQuiet) {
    VScript s;
    s.v(0, s.ub, 0, 256, true);
    s.v(0, s.ub, 256, 512, false);  // other bytes
    s.v(1, s.ub1, 0, 256, false);   // another core's UB
    s.v(0, s.ub, 512, 768, false);
    s.v(0, s.ub, 512, 768, false);  // read after read
    EXPECT_TRUE(s.host.violations.empty()) << s.host.text();
}

TEST(PortableVOrderEvents, OnAtlasA2ThePairIsTheRaceCheckersAndThisOneIsQuiet) {
    VScript s(ArchId::AtlasA2);
    s.v(0, s.ub, 0, 256, true);
    s.v(0, s.ub, 128, 512, false);
    EXPECT_TRUE(s.host.violations.empty()) << s.host.text();
}

}  // namespace
}  // namespace evg::hw::testing
