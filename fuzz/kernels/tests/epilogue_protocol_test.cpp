// The BlockEpilogue event protocol kernel: clean under every checker and numerically right for 1, 2, 3 and
// 5 tiles per AIV on both chips; its sync calls are BlockEpilogue's, in BlockEpilogue's order; and the
// MTE3_MTE2 events it adds to upstream's sequence are load-bearing.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "evg/fuzz/epilogue_protocol.hpp"

namespace evg::fuzz {
namespace {

using hw::ArchId;

TEST(EpilogueProtocol, CleanAndRightForEveryTileCountOnBothChips) {
    for (ArchId arch : hw::kAllArchs)
        for (uint32_t tiles : {1u, 2u, 3u, 5u}) {
            ProtocolShape s;
            s.tiles = tiles;
            const KernelRun r = run_epilogue_protocol({}, arch, s);
            SCOPED_TRACE(std::string(hw::arch_name(arch)) + " tiles=" + std::to_string(tiles));
            EXPECT_EQ(r.report.arch, hw::arch_name(arch));
            EXPECT_TRUE(r.report.violations.empty()) << r.report.text();
            EXPECT_TRUE(r.report.mutations_unapplied.empty());
            EXPECT_EQ(r.outputs, protocol_reference(s, protocol_inputs(s)));
            EXPECT_EQ(r.report.stats.events_set, r.report.stats.events_waited);
            EXPECT_FALSE(r.trace.empty());
        }
}

// Every schedule the flags allow gives the same outputs: seeded adversarial runs are clean and exact.
TEST(EpilogueProtocol, CleanAndRightUnderAdversarialSchedules) {
    for (ArchId arch : hw::kAllArchs)
        for (uint64_t seed = 1; seed <= 8; ++seed) {
            hw::Config c;
            c.scheduler = hw::SchedulerKind::adversarial;
            c.seed = seed;
            ProtocolShape s;
            s.tiles = 5;
            const KernelRun r = run_epilogue_protocol(c, arch, s);
            EXPECT_TRUE(r.report.violations.empty()) << hw::arch_name(arch) << " seed " << seed << "\n"
                                                     << r.report.text();
            EXPECT_EQ(r.outputs, protocol_reference(s, protocol_inputs(s)))
                << hw::arch_name(arch) << " seed " << seed;
        }
}

// The core's SetFlag/WaitFlag calls in issue order, as the trace prints them ("SetFlag<V_MTE2>(0)").
std::vector<std::string> sync_calls(const hw::Trace& trace, int core) {
    std::vector<std::string> out;
    for (const hw::TraceEntry& e : trace)
        if (e.core == core && (e.kind == hw::InstrKind::set_flag || e.kind == hw::InstrKind::wait_flag))
            out.emplace_back(e.op());
    return out;
}

// BlockEpilogue (lib/catlass/include/catlass/epilogue/block/block_epilogue_visitor.hpp): constructor
// pre-sets, then per tile LOAD / COMPUTE / STORE with id = tile % 2, then the destructor's waits.
std::vector<std::string> block_epilogue_sequence(uint32_t tiles) {
    std::vector<std::string> seq = {"SetFlag<V_MTE2>(0)", "SetFlag<V_MTE2>(1)",    "SetFlag<MTE3_V>(0)",
                                    "SetFlag<MTE3_V>(1)", "SetFlag<MTE3_MTE2>(0)", "SetFlag<MTE3_MTE2>(1)"};
    for (uint32_t t = 0; t < tiles; ++t) {
        const char* id = t % 2 ? "(1)" : "(0)";
        for (const char* call : {"WaitFlag<V_MTE2>", "WaitFlag<MTE3_MTE2>", "SetFlag<MTE2_V>",
                                 "WaitFlag<MTE2_V>", "WaitFlag<MTE3_V>", "SetFlag<V_MTE2>", "SetFlag<V_MTE3>",
                                 "WaitFlag<V_MTE3>", "SetFlag<MTE3_V>", "SetFlag<MTE3_MTE2>"})
            seq.push_back(std::string(call).append(id));
    }
    for (const char* call : {"WaitFlag<V_MTE2>(0)", "WaitFlag<V_MTE2>(1)", "WaitFlag<MTE3_V>(0)",
                             "WaitFlag<MTE3_V>(1)", "WaitFlag<MTE3_MTE2>(0)", "WaitFlag<MTE3_MTE2>(1)"})
        seq.push_back(call);
    return seq;
}

TEST(EpilogueProtocol, SyncCallsAreBlockEpiloguesOnEveryAiv) {
    for (ArchId arch : hw::kAllArchs) {
        ProtocolShape s;
        s.tiles = 3;
        const KernelRun r = run_epilogue_protocol({}, arch, s);
        int cores_seen = 0;
        for (int core = 0; core < 8; ++core) {
            const std::vector<std::string> calls = sync_calls(r.trace, core);
            if (calls.empty()) continue;
            ++cores_seen;
            EXPECT_EQ(calls, block_epilogue_sequence(3)) << hw::arch_name(arch) << " core " << core;
        }
        EXPECT_EQ(cores_seen, s.blocks);
    }
}

// Upstream's sequence (no MTE3_MTE2): the STORE of X from set 0 (tile 0) and the LOAD of tile 2 into the same
// buffer are unordered. With two tiles no set is reused, so the same kernel is clean.
TEST(EpilogueProtocol, WithoutMte3Mte2TheStoreOfALoadBufferRacesWithTheNextLoad) {
    for (ArchId arch : hw::kAllArchs) {
        ProtocolShape s;
        s.upstream_store_load = true;
        s.tiles = 3;
        const KernelRun r3 = run_epilogue_protocol({}, arch, s);
        const hw::Violation* v = r3.report.first(hw::ViolationKind::race);
        ASSERT_NE(v, nullptr) << r3.report.text();
        ASSERT_EQ(v->locations.size(), 2u);
        std::vector<std::string> pipes = {v->locations[0].pipe, v->locations[1].pipe};
        std::sort(pipes.begin(), pipes.end());
        EXPECT_EQ(pipes, (std::vector<std::string>{"MTE2", "MTE3"})) << v->message;
        EXPECT_NE(v->message.find("no WaitFlag<MTE3_MTE2> orders MTE3 read"), std::string::npos)
            << v->message;
        s.tiles = 2;
        const KernelRun r2 = run_epilogue_protocol({}, arch, s);
        EXPECT_TRUE(r2.report.violations.empty()) << r2.report.text();
    }
}

}  // namespace
}  // namespace evg::fuzz
