// Sync mutations: the text form (parse, print, errors), the listing of mutation points, and each operator
// applied to the double-buffered sample kernel with the checker that must fire.
#include <gtest/gtest.h>

#include "evg/hw/error.hpp"
#include "test_kernels.hpp"

namespace evg::hw::testing {
namespace {

using namespace AscendC;

constexpr uint32_t kStreamTotal = 4 * 256, kStreamTile = 256;

// The double-buffered kernel on one AIV ("AIV0"). Stream positions: 1-4 the initial sets; tile t (base 4 +
// 13t): +1 WaitFlag<V_MTE2>, +2 DataCopy in, +3 SetFlag<MTE2_V>, +4 WaitFlag<MTE2_V>, +5 WaitFlag<MTE3_V>, +6
// Muls, +7 PipeBarrier<V>, +8 Adds, +9 SetFlag<V_MTE2>, +10 SetFlag<V_MTE3>, +11 WaitFlag<V_MTE3>, +12
// DataCopy out, +13 SetFlag<MTE3_V>. Sync indices: 0-3 the initial sets; tile t (base 4 + 9t): +0
// WaitFlag<V_MTE2>, +1 SetFlag<MTE2_V>, +2 WaitFlag<MTE2_V>, +3 WaitFlag<MTE3_V>, +4 PipeBarrier<V>, +5
// SetFlag<V_MTE2>, +6 SetFlag<V_MTE3>, +7 WaitFlag<V_MTE3>, +8 SetFlag<MTE3_V>; 40-43 the final waits.
DbRun mutated(const std::string& plan, ArchId arch = ArchId::AtlasA2) {
    Config c;
    c.arch = arch;
    c.mutations = parse_sync_mutations(plan);
    return run_double_buffered(c, kStreamTotal, kStreamTile);
}

const DbRun& reference() {
    static const DbRun r = run_double_buffered(Config{}, kStreamTotal, kStreamTile);
    return r;
}

// ---- text form ----

TEST(SyncMutationText, ParsesEachFormByHand) {
    SyncMutation m = parse_sync_mutation("drop-wait core=AIV0.1 n=7");
    EXPECT_EQ(m.op, SyncOp::drop_wait);
    EXPECT_EQ(m.core, "AIV0.1");
    EXPECT_EQ(m.n, 7);
    m = parse_sync_mutation("set-id core=AIV0.0 n=3 id=1");
    EXPECT_EQ(m.op, SyncOp::set_id);
    EXPECT_EQ(m.id, 1);
    m = parse_sync_mutation("set-event core=AIC2 n=0 event=V_MTE2");
    EXPECT_EQ(m.op, SyncOp::set_event);
    EXPECT_EQ(m.core, "AIC2");
    EXPECT_EQ(m.event, HardEvent::V_MTE2);
    m = parse_sync_mutation("move-set core=AIV3 n=5 by=2 at=40 event=MTE2_V id=0");
    EXPECT_EQ(m.op, SyncOp::move_set);
    EXPECT_EQ(m.by, 2);
    EXPECT_EQ(m.at, 40u);
    EXPECT_EQ(m.event, HardEvent::MTE2_V);
    EXPECT_EQ(m.id, 0);
    m = parse_sync_mutation("  insert-barrier   core=AIC0 n=4 pipe=MTE1 ");
    EXPECT_EQ(m.op, SyncOp::insert_barrier);
    EXPECT_EQ(m.pipe, Pipe::MTE1);
    m = parse_sync_mutation("drop-pair core=AIV0 n=5 pair=6");
    EXPECT_EQ(m.pair, 6);
    m = parse_sync_mutation("cross-wait-flag core=AIV1.0 n=2 id=9");
    EXPECT_EQ(m.op, SyncOp::cross_wait_flag);
    EXPECT_EQ(m.id, 9);
    EXPECT_EQ(to_string(parse_sync_mutation("insert-pair core=AIV0 n=1 id=5 event=MTE2_V")),
              "insert-pair core=AIV0 n=1 event=MTE2_V id=5");
    auto plan = parse_sync_mutations("drop-set core=AIV0 n=5; dup-cross-set core=AIC0 n=0;");
    ASSERT_EQ(plan.size(), 2u);
    EXPECT_EQ(to_string(plan), "drop-set core=AIV0 n=5; dup-cross-set core=AIC0 n=0");
    EXPECT_TRUE(parse_sync_mutations("  ").empty());
}

void expect_error(const std::string& text, const std::string& part) {
    try {
        parse_sync_mutation(text);
        ADD_FAILURE() << "accepted: " << text;
    } catch (const HostError& e) {
        EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
}

TEST(SyncMutationText, ErrorsNameTheWordAndTheForm) {
    expect_error("drop-wiat core=AIV0 n=1",
                 "unknown operator 'drop-wiat' (expected one of drop-set, drop-wait");
    expect_error("set-id core=AIV0 n=1", "'id=' is missing (expected form 'set-id core=");
    expect_error("drop-wait core=AIV0 n=x", "bad value in 'n=x'");
    expect_error("drop-wait core=AIV0 n=-1", "bad value in 'n=-1'");
    expect_error("drop-wait core=VEC0 n=1",
                 "bad value in 'core=VEC0': a core is named AIC<b>, AIV<b>.<s> or AIV<v>");
    expect_error("drop-wait core=AIV0 n=1 id=3", "unexpected word 'id=3' (expected form 'drop-wait core=");
    expect_error("drop-wait core=AIV0 n=1 n=2", "'n' is given twice");
    expect_error("set-event core=AIV0 n=1 event=V_XX", "bad value in 'event=V_XX': not a HardEvent name");
    expect_error("insert-barrier core=AIV0 n=1 pipe=S", "bad value in 'pipe=S'");
    expect_error("move-wait core=AIV0 n=1 by=0", "bad value in 'by=0'");
    expect_error("", "empty text");
    EXPECT_THROW(parse_sync_mutations("drop-set core=AIV0 n=1; oops"), HostError);
}

TEST(SyncMutationText, EveryListedPointRoundTrips) {
    std::vector<SyncMutation> points =
        mutation_points(reference().trace, ArchId::AtlasA2, KernelType::aiv_only, 1);
    ASSERT_FALSE(points.empty());
    for (const auto& m : points) {
        std::string text = to_string(m);
        EXPECT_EQ(parse_sync_mutation(text), m) << text;
        EXPECT_EQ(to_string(parse_sync_mutation(text)), text);
    }
    EXPECT_EQ(parse_sync_mutations(to_string(points)), points);
}

// ---- mutation points ----

TEST(MutationPoints, FirstSetOfTheDoubleBufferedKernelByHand) {
    auto points = mutation_points(reference().trace, ArchId::AtlasA2, KernelType::aiv_only, 1);
    std::vector<std::string> first;
    for (const auto& m : points)
        if (m.n == 0) first.push_back(to_string(m));
    // SetFlag<V_MTE2>(0) at stream 1: no move (nothing before it); ids 0/1 are used by every event, so 2 is
    // the unused id; the first WaitFlag<V_MTE2>(0) is sync index 4; the flipped event is MTE2_V and the first
    // other AIV event issued from V is V_MTE3 (for a wait on MTE2_V: the first other one V waits on, MTE3_V).
    EXPECT_EQ(first, (std::vector<std::string>{
                         "insert-barrier core=AIV0 n=0 pipe=V",
                         "insert-pair core=AIV0 n=0 event=MTE2_V id=2",
                         "drop-set core=AIV0 n=0",
                         "drop-pair core=AIV0 n=0 pair=4",
                         "dup-set core=AIV0 n=0",
                         "set-id core=AIV0 n=0 id=1",
                         "set-id core=AIV0 n=0 id=2",
                         "set-event core=AIV0 n=0 event=MTE2_V",
                         "set-event core=AIV0 n=0 event=V_MTE3",
                     }));
    std::vector<std::string> wait6;  // WaitFlag<MTE2_V>(0) of tile 0 at stream 8
    for (const auto& m : points)
        if (m.n == 6 && m.op != SyncOp::insert_barrier && m.op != SyncOp::insert_pair)
            wait6.push_back(to_string(m));
    EXPECT_EQ(wait6, (std::vector<std::string>{
                         "drop-wait core=AIV0 n=6",
                         "wait-id core=AIV0 n=6 id=1",
                         "wait-id core=AIV0 n=6 id=2",
                         "wait-event core=AIV0 n=6 event=V_MTE2",
                         "wait-event core=AIV0 n=6 event=MTE3_V",
                         "move-wait core=AIV0 n=6 by=1",
                         "move-wait core=AIV0 n=6 by=3",
                     }));
    std::vector<std::string> set5;  // SetFlag<MTE2_V>(0) of tile 0 at stream 7
    for (const auto& m : points)
        if (m.n == 5 && m.op == SyncOp::move_set) set5.push_back(to_string(m));
    EXPECT_EQ(set5, (std::vector<std::string>{"move-set core=AIV0 n=5 by=1 at=6 event=MTE2_V id=0",
                                              "move-set core=AIV0 n=5 by=3 at=4 event=MTE2_V id=0"}));
    size_t barriers = 0;
    for (const auto& m : points) barriers += m.op == SyncOp::drop_barrier;
    EXPECT_EQ(barriers, 4u);
    // Deterministic.
    EXPECT_EQ(points, mutation_points(reference().trace, ArchId::AtlasA2, KernelType::aiv_only, 1));
}

// ---- operators on the double-buffered kernel ----

TEST(SyncMutationRun, DropWaitIsARace) {
    auto r = mutated("drop-wait core=AIV0 n=6");
    EXPECT_TRUE(r.report.mutations_unapplied.empty());
    const Violation* v = r.report.first(ViolationKind::race);
    ASSERT_NE(v, nullptr) << r.report.text();
    EXPECT_NE(v->message.find("no WaitFlag<MTE2_V> orders MTE2 write"), std::string::npos) << v->message;
    for (const auto& t : r.trace) EXPECT_NE(t.sync_index, 6) << "the dropped wait was issued";
}

TEST(SyncMutationRun, DropSetIsADeadlock) {
    auto r = mutated("drop-set core=AIV0 n=5");
    EXPECT_TRUE(r.report.mutations_unapplied.empty());
    ASSERT_EQ(r.report.count(ViolationKind::deadlock), 1u) << r.report.text();
    EXPECT_NE(r.report.first(ViolationKind::deadlock)->message.find("WaitFlag<MTE2_V>(0)"),
              std::string::npos);
}

TEST(SyncMutationRun, DupSetIsSetTwice) {
    auto r = mutated("dup-set core=AIV0 n=0");
    EXPECT_TRUE(r.report.mutations_unapplied.empty());
    ASSERT_GE(r.report.count(ViolationKind::flag_set_twice), 1u) << r.report.text();
    // The duplicate shares the stream position and has no sync index.
    EXPECT_EQ(r.trace[0].sync_index, 0);
    EXPECT_EQ(r.trace[1].sync_index, -1);
    EXPECT_EQ(r.trace[1].stream, 1u);
    EXPECT_EQ(r.trace[1].op(), "SetFlag<V_MTE2>(0)");
}

TEST(SyncMutationRun, SetIdIsADeadlockOrAFlagLeftSet) {
    for (const char* plan : {"set-id core=AIV0 n=5 id=2", "set-id core=AIV0 n=5 id=1"}) {
        auto r = mutated(plan);
        EXPECT_TRUE(r.report.mutations_unapplied.empty());
        EXPECT_TRUE(r.report.count(ViolationKind::deadlock) || r.report.count(ViolationKind::flag_left_set))
            << plan << "\n"
            << r.report.text();
    }
    auto r = mutated("set-id core=AIV0 n=5 id=2");
    EXPECT_EQ(r.trace[4 + 2].op(), "SetFlag<MTE2_V>(2)");
    EXPECT_EQ(r.trace[4 + 2].sync_index, 5);
}

TEST(SyncMutationRun, WaitIdAndWaitEventAreDeadlocks) {
    for (const char* plan : {"wait-id core=AIV0 n=6 id=2", "wait-event core=AIV0 n=6 event=S_V"}) {
        auto r = mutated(plan);
        EXPECT_TRUE(r.report.mutations_unapplied.empty()) << plan;
        EXPECT_GE(r.report.count(ViolationKind::deadlock), 1u) << plan << "\n" << r.report.text();
    }
}

TEST(SyncMutationRun, SetEventMovesTheSetToAnotherPipe) {
    auto r = mutated("set-event core=AIV0 n=5 event=V_MTE2");
    EXPECT_TRUE(r.report.mutations_unapplied.empty());
    EXPECT_EQ(r.trace[6].op(), "SetFlag<V_MTE2>(0)");
    EXPECT_EQ(r.trace[6].pipe, Pipe::V);
    EXPECT_FALSE(r.report.clean());
    EXPECT_GE(r.report.count(ViolationKind::deadlock), 1u) << r.report.text();
}

TEST(SyncMutationRun, DropPairIsARaceWithBalancedFlags) {
    auto r = mutated("drop-pair core=AIV0 n=5 pair=6");
    EXPECT_TRUE(r.report.mutations_unapplied.empty());
    EXPECT_GE(r.report.count(ViolationKind::race), 1u) << r.report.text();
    EXPECT_EQ(r.report.count(ViolationKind::flag_left_set), 0u) << r.report.text();
    EXPECT_EQ(r.report.count(ViolationKind::deadlock), 0u) << r.report.text();
}

TEST(SyncMutationRun, MoveWaitPastTheComputeIsARace) {
    auto r = mutated("move-wait core=AIV0 n=6 by=3");
    EXPECT_TRUE(r.report.mutations_unapplied.empty());
    ASSERT_GE(r.report.count(ViolationKind::race), 1u) << r.report.text();
    // The wait (stream 8) is issued right after stream 11 (the PipeBarrier), before stream 12 (Adds).
    size_t at = 0;
    for (size_t i = 0; i < r.trace.size(); ++i)
        if (r.trace[i].sync_index == 6) at = i;
    ASSERT_GT(at, 0u);
    EXPECT_EQ(r.trace[at].stream, 8u);
    EXPECT_EQ(r.trace[at - 1].stream, 11u);
    EXPECT_EQ(r.trace[at + 1].stream, 12u);
}

TEST(SyncMutationRun, MoveWaitPastTheEndIsIssuedAtKernelEnd) {
    auto r = mutated("move-wait core=AIV0 n=43 by=3");  // the last call of the kernel
    EXPECT_TRUE(r.report.mutations_unapplied.empty());
    EXPECT_TRUE(r.report.clean()) << r.report.text();
    EXPECT_EQ(r.trace.back().sync_index, 43);
    EXPECT_EQ(r.out, reference().out);
}

TEST(SyncMutationRun, MoveSetBeforeTheCopyIsARace) {
    auto r = mutated("move-set core=AIV0 n=5 by=1 at=6 event=MTE2_V id=0");
    EXPECT_TRUE(r.report.mutations_unapplied.empty());
    ASSERT_GE(r.report.count(ViolationKind::race), 1u) << r.report.text();
    // The set (own stream 7) is issued just before stream 6 (the copy) and not again at 7.
    EXPECT_EQ(r.trace[5].sync_index, 5);
    EXPECT_EQ(r.trace[5].stream, 7u);
    EXPECT_EQ(r.trace[6].stream, 6u);
    EXPECT_EQ(r.trace[7].stream, 8u);
    EXPECT_EQ(r.trace.size(), reference().trace.size());
}

TEST(SyncMutationRun, DropBarrierIsARaceOnAtlasA2AndHarmlessOnAscend950) {
    auto a2 = mutated("drop-barrier core=AIV0 n=8");
    EXPECT_TRUE(a2.report.mutations_unapplied.empty());
    EXPECT_GE(a2.report.count(ViolationKind::race), 1u) << a2.report.text();
    auto a5 = mutated("drop-barrier core=AIV0 n=8", ArchId::Ascend950);
    EXPECT_TRUE(a5.report.clean()) << a5.report.text();
}

TEST(SyncMutationRun, InsertedBarrierAndPairAreHarmless) {
    auto r = mutated("insert-barrier core=AIV0 n=10 pipe=V; insert-pair core=AIV0 n=10 event=MTE2_V id=2");
    EXPECT_TRUE(r.report.mutations_unapplied.empty());
    EXPECT_TRUE(r.report.clean()) << r.report.text();
    EXPECT_TRUE(r.report.violations.empty()) << r.report.text();
    EXPECT_EQ(r.out, reference().out);
    ASSERT_EQ(r.trace.size(), reference().trace.size() + 3);
    // Before sync call 10 (stream 14): the barrier, then the set and the wait, all at stream 14, no sync
    // index.
    for (size_t i = 13; i < 16; ++i) {
        EXPECT_EQ(r.trace[i].stream, 14u);
        EXPECT_EQ(r.trace[i].sync_index, -1);
    }
    EXPECT_EQ(r.trace[13].op(), "PipeBarrier<PIPE_V>");
    EXPECT_EQ(r.trace[14].op(), "SetFlag<MTE2_V>(2)");
    EXPECT_EQ(r.trace[15].op(), "WaitFlag<MTE2_V>(2)");
    EXPECT_EQ(r.trace[16].sync_index, 10);
}

TEST(SyncMutationRun, EveryListedPointApplies) {
    auto points = mutation_points(reference().trace, ArchId::AtlasA2, KernelType::aiv_only, 1);
    for (const auto& m : points) {
        Config c;
        c.mutations = {m};
        auto r = run_double_buffered(c, kStreamTotal, kStreamTile);
        EXPECT_TRUE(r.report.mutations_unapplied.empty())
            << to_string(m) << ": " << r.report.mutations_unapplied[0];
        if (m.op == SyncOp::insert_barrier || m.op == SyncOp::insert_pair) {
            EXPECT_TRUE(r.report.violations.empty()) << to_string(m) << "\n" << r.report.text();
            EXPECT_EQ(r.out, reference().out) << to_string(m);
        }
    }
}

TEST(SyncMutationRun, WrongCallsAreListedUnapplied) {
    auto r = mutated(
        "drop-wait core=AIV0 n=5; drop-set core=AIV0 n=999; drop-set core=AIV7 n=0; drop-set core=AIV0.0 "
        "n=0; "
        "drop-cross-set core=AIV0 n=0");
    ASSERT_EQ(r.report.mutations_unapplied.size(), 5u);
    EXPECT_EQ(r.report.mutations_unapplied[0],
              "drop-wait core=AIV0 n=5: sync call n=5 of AIV0 is a SetFlag, not a WaitFlag");
    EXPECT_EQ(r.report.mutations_unapplied[1],
              "drop-set core=AIV0 n=999: AIV0 made 44 sync call(s); sync call n=999 was never reached");
    EXPECT_NE(r.report.mutations_unapplied[2].find("no core named AIV7 in this launch (AIV-only, blockDim 1"),
              std::string::npos)
        << r.report.mutations_unapplied[2];
    EXPECT_NE(r.report.mutations_unapplied[3].find("no core named AIV0.0"), std::string::npos);
    EXPECT_EQ(r.report.mutations_unapplied[4],
              "drop-cross-set core=AIV0 n=0: sync call n=0 of AIV0 is a SetFlag, not a CrossCoreSetFlag");
    // None of them found its call: the run is the unmutated one.
    EXPECT_TRUE(r.report.clean()) << r.report.text();
    EXPECT_EQ(r.out, reference().out);
    ASSERT_EQ(r.trace.size(), reference().trace.size());
    for (size_t i = 0; i < r.trace.size(); ++i) {
        EXPECT_EQ(r.trace[i].op(), reference().trace[i].op());
        EXPECT_EQ(r.trace[i].stream, reference().trace[i].stream);
        EXPECT_EQ(r.trace[i].epoch, reference().trace[i].epoch);
    }
    EXPECT_EQ(r.report.stats.instructions, reference().report.stats.instructions);
    EXPECT_NE(r.report.text().find("sync mutation not applied: drop-set core=AIV7 n=0: no core named AIV7"),
              std::string::npos)
        << r.report.text();
}

// ---- cross-core operators ----

Report run_cross(const std::string& plan, ArchId arch) {
    Config c;
    c.arch = arch;
    c.mutations = parse_sync_mutations(plan);
    Device dev(c);
    return dev.launch(1, KernelType::mix_aic_1_2, [] {
        if ASCEND_IS_AIC {
            CrossCoreSetFlag<2, PIPE_FIX>(3);
        } else {
            CrossCoreWaitFlag<2, PIPE_V>(3);
        }
    });
}

TEST(SyncMutationRun, CrossCoreOperators) {
    for (ArchId a : kAllArchs) {
        SCOPED_TRACE(std::string(arch_name(a)));
        EXPECT_TRUE(run_cross("", a).clean());
        auto drop_set = run_cross("drop-cross-set core=AIC0 n=0", a);
        EXPECT_GE(drop_set.count(ViolationKind::deadlock), 1u) << drop_set.text();
        auto drop_wait = run_cross("drop-cross-wait core=AIV0.1 n=0", a);
        EXPECT_GE(drop_wait.count(ViolationKind::counter_left_nonzero), 1u) << drop_wait.text();
        auto dup = run_cross("dup-cross-set core=AIC0 n=0", a);
        EXPECT_GE(dup.count(ViolationKind::counter_left_nonzero), 1u) << dup.text();
        auto set_flag = run_cross("cross-set-flag core=AIC0 n=0 id=4", a);
        EXPECT_GE(set_flag.count(ViolationKind::deadlock), 1u) << set_flag.text();
        auto wait_flag = run_cross("cross-wait-flag core=AIV0.0 n=0 id=4", a);
        EXPECT_GE(wait_flag.count(ViolationKind::deadlock), 1u) << wait_flag.text();
        for (const Report* r : {&drop_set, &drop_wait, &dup, &set_flag, &wait_flag})
            EXPECT_TRUE(r->mutations_unapplied.empty()) << r->mutations_unapplied[0];
    }
}

TEST(MutationPoints, CrossCoreKernel) {
    Device dev;
    dev.launch(1, KernelType::mix_aic_1_2, [] {
        if ASCEND_IS_AIC {
            CrossCoreSetFlag<2, PIPE_FIX>(3);
        } else {
            CrossCoreWaitFlag<2, PIPE_V>(0);
        }
    });
    std::vector<std::string> got;
    for (const auto& m : mutation_points(dev.last_trace(), ArchId::AtlasA2, KernelType::mix_aic_1_2, 1))
        got.push_back(to_string(m));
    // Flags 3 and 0 are used: 1 is the first free one. AIC inserts barriers on M and MTE1 and a MTE1_M pair.
    EXPECT_EQ(got, (std::vector<std::string>{
                       "insert-barrier core=AIC0 n=0 pipe=M",
                       "insert-barrier core=AIC0 n=0 pipe=MTE1",
                       "insert-pair core=AIC0 n=0 event=MTE1_M id=0",
                       "drop-cross-set core=AIC0 n=0",
                       "dup-cross-set core=AIC0 n=0",
                       "cross-set-flag core=AIC0 n=0 id=1",
                       "insert-barrier core=AIV0.0 n=0 pipe=V",
                       "insert-pair core=AIV0.0 n=0 event=MTE2_V id=0",
                       "drop-cross-wait core=AIV0.0 n=0",
                       "cross-wait-flag core=AIV0.0 n=0 id=1",
                       "insert-barrier core=AIV0.1 n=0 pipe=V",
                       "insert-pair core=AIV0.1 n=0 event=MTE2_V id=0",
                       "drop-cross-wait core=AIV0.1 n=0",
                       "cross-wait-flag core=AIV0.1 n=0 id=1",
                   }));
}

}  // namespace
}  // namespace evg::hw::testing
