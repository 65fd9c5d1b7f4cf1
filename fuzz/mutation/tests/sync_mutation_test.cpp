// Sync mutations of real kernels against the schedule explorer: node-kind attribution, a planted dropped
// wait caught by the race checker, a spurious barrier proven harmless, and the small SYNC mutation table
// (two seed examples and a few random graphs on small shapes, both chips) with no missed, falsely alarmed or
// divergent mutation.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "evg/conformance/examples.hpp"
#include "evg/fuzz/mutation.hpp"
#include "evg/fuzz/sync_table.hpp"

using namespace evg;
using namespace evg::fuzz;

namespace {

Subject small_example(const std::string& name, hw::ArchId arch, graph::WorkspacePath path) {
    for (const conformance::ExampleProblem& ex : conformance::example_problems(true))
        if (ex.name == name && ex.problem.arch == arch && ex.problem.path == path)
            return graph_subject(ex.id, ex.problem, ex.data_seed, 1);
    throw std::runtime_error("no example " + name);
}

}  // namespace

TEST(SyncMutation, NodeKindComesFromTheFileThatIssuedTheSyncCall) {
    EXPECT_EQ(node_kind_of_file("/x/catlass/epilogue/fusion/visitor_row_broadcast.hpp", ""), "RowBroadcast");
    EXPECT_EQ(node_kind_of_file("visitor_scalar_reduce.hpp", ""), "ScalarReduce");
    EXPECT_EQ(node_kind_of_file("/x/operations.hpp", ""), "Compute");
    EXPECT_EQ(node_kind_of_file("/x/block/block_epilogue_visitor.hpp", ""), "BlockEpilogue");
    EXPECT_EQ(node_kind_of_file("/x/kernel/basic_matmul_tla_ub_visitor.hpp", ""), "Kernel");
    EXPECT_EQ(node_kind_of_file("/x/arch/cross_core_sync.hpp", ""), "Kernel");
    EXPECT_EQ(node_kind_of_file("/x/fuzz/kernels/src/epilogue_protocol.cpp", "epilogue_protocol"),
              "epilogue_protocol");
    EXPECT_EQ(node_kind_of_file("/x/other.cpp", ""), "other.cpp");
}

TEST(SyncMutation, ReferenceRunOfAnExampleIsCleanAndHasMutationPoints) {
    const Subject s = small_example("seed003_bias", hw::ArchId::AtlasA2, graph::WorkspacePath::GM);
    const Reference ref = reference_run(s);
    EXPECT_TRUE(ref.clean) << ref.problem;
    EXPECT_FALSE(ref.points.empty());
    std::vector<std::string> kinds;
    for (const hw::SyncMutation& m : ref.points) kinds.push_back(node_kind(s, ref, m));
    EXPECT_NE(std::find(kinds.begin(), kinds.end(), "BlockEpilogue"), kinds.end());
    EXPECT_NE(std::find(kinds.begin(), kinds.end(), "RowBroadcast"), kinds.end());
    EXPECT_EQ(std::find(kinds.begin(), kinds.end(), "?"), kinds.end());
}

// A WaitFlag<MTE2_V> of the epilogue dropped: the vector pipe reads UB the copy may still be writing; the
// explorer proves the race and the race checker reports it.
TEST(SyncMutation, DroppedMte2VWaitIsCaughtByTheRaceChecker) {
    const Subject s = small_example("seed003_add", hw::ArchId::AtlasA2, graph::WorkspacePath::GM);
    const Reference ref = reference_run(s);
    ASSERT_TRUE(ref.clean) << ref.problem;
    const hw::TraceEntry* wait = nullptr;
    for (const hw::TraceEntry& e : ref.run.trace)
        if (e.kind == hw::InstrKind::wait_flag && e.event == hw::HardEvent::MTE2_V) {
            wait = &e;
            break;
        }
    ASSERT_NE(wait, nullptr);
    hw::SyncMutation m;
    m.op = hw::SyncOp::drop_wait;
    m.core = hw::core_short_name(s.type, s.block_dim, wait->core);
    m.n = wait->sync_index;
    const Classification c = classify(s, ref, {m});
    EXPECT_EQ(c.verdict, SyncVerdict::caught) << c.detail;
    EXPECT_NE(std::find(c.checkers.begin(), c.checkers.end(), "race"), c.checkers.end()) << c.detail;
    EXPECT_NE(std::find(c.explorer.begin(), c.explorer.end(), "race"), c.explorer.end()) << c.detail;
    EXPECT_FALSE(c.divergent_instr.empty());

    // Its patterns (the epilogue_mutation target's table): the launch, the operator where it struck, with its
    // verdict, and the two sides' kinds.
    const std::string kind = node_kind(s, ref, m);
    const std::vector<std::string> patterns = mutation_patterns(s, ref, {m}, c);
    auto has = [&](const std::string& p) {
        return std::find(patterns.begin(), patterns.end(), p) != patterns.end();
    };
    EXPECT_TRUE(has("drop-wait in " + kind)) << fmt::format("{}", fmt::join(patterns, " | "));
    EXPECT_TRUE(has("launch A2 gm")) << fmt::format("{}", fmt::join(patterns, " | "));
    EXPECT_TRUE(has("drop-wait in " + kind + ": caught")) << fmt::format("{}", fmt::join(patterns, " | "));
    const auto sides = std::find_if(patterns.begin(), patterns.end(),
                                    [](const std::string& p) { return p.starts_with("caught: checkers "); });
    ASSERT_NE(sides, patterns.end());
    EXPECT_NE(sides->find("race"), std::string::npos);
    EXPECT_NE(sides->find("; explorer "), std::string::npos);
    EXPECT_EQ(patterns.size(), 4u);
}

// A spurious PipeBarrier<PIPE_V> orders more, never less: proven harmless, clean under adversarial schedules.
TEST(SyncMutation, SpuriousBarrierIsProvenHarmless) {
    const Subject s = small_example("seed003_add", hw::ArchId::Ascend950, graph::WorkspacePath::UB);
    const Reference ref = reference_run(s);
    ASSERT_TRUE(ref.clean) << ref.problem;
    const auto it = std::find_if(ref.points.begin(), ref.points.end(), [](const hw::SyncMutation& m) {
        return m.op == hw::SyncOp::insert_barrier && m.pipe == hw::Pipe::V;
    });
    ASSERT_NE(it, ref.points.end());
    const Classification c = classify(s, ref, {*it});
    EXPECT_EQ(c.verdict, SyncVerdict::harmless) << c.detail;
}

TEST(SyncMutation, SmallTableHasNoMissedFalseAlarmOrDivergentMutation) {
    TableOptions opt;
    opt.small = true;
    opt.graphs = 2;
    opt.seed = 3;
    opt.max_examples = 2;
    opt.adversarial = 2;
    const std::vector<Subject> subjects = table_subjects(opt);
    const reports::SyncTableData t = run_sync_table(subjects, opt);
    std::cout << reports::sync_table_text(t) << reports::sync_table_summary(t) << "\n";
    EXPECT_GT(t.subjects, 4);
    const reports::SyncTableRow total = reports::table_totals(t);
    EXPECT_GT(total.count(SyncVerdict::caught), 0u);
    EXPECT_GT(total.count(SyncVerdict::harmless), 0u);
    EXPECT_FALSE(reports::sync_table_fails(t)) << reports::sync_table_summary(t);
}

// Planted checker faults: the classification must notice them.
namespace {

hw::SyncMutation first_point(const Reference& ref, hw::SyncOp op, hw::HardEvent event = hw::HardEvent::MAX) {
    for (const hw::SyncMutation& m : ref.points) {
        if (m.op != op) continue;
        if (event == hw::HardEvent::MAX) return m;
        for (const hw::TraceEntry& e : ref.run.trace)
            if (e.sync_index == m.n && e.event == event &&
                hw::core_short_name(hw::KernelType::mix_aic_1_2, 1, e.core) == m.core)
                return m;
    }
    throw std::runtime_error("no such mutation point");
}

}  // namespace

// With every sync checker switched off in the mutated runs, a dropped WaitFlag<MTE2_V> that the explorer
// proves racy is a checker miss (missed, or output-only when the outputs show it).
TEST(SyncMutation, SilencedCheckersMakeADroppedWaitAMiss) {
    Subject s = small_example("seed003_add", hw::ArchId::AtlasA2, graph::WorkspacePath::GM);
    const Reference ref = reference_run(s);
    ASSERT_TRUE(ref.clean) << ref.problem;
    const hw::SyncMutation m = first_point(ref, hw::SyncOp::drop_wait, hw::HardEvent::MTE2_V);
    auto run = s.run;
    s.run = [run](const hw::Config& c) {
        hw::Config silenced = c;
        silenced.checks.race = false;
        silenced.checks.flags = false;
        return run(silenced);
    };
    const Classification c = classify(s, ref, {m});
    EXPECT_TRUE(c.verdict == SyncVerdict::missed || c.verdict == SyncVerdict::output_only)
        << reports::sync_verdict_name(c.verdict) << ": " << c.detail;
    EXPECT_NE(std::find(c.explorer.begin(), c.explorer.end(), "race"), c.explorer.end()) << c.detail;
}

namespace {

// The problem of fuzz/regressions/epilogue_mutation/reordered-mmad-before-its-load.bin (its bytes: rapidcheck
// seed 4, size 40, AtlasA2, GM path, two mutations at indices 0x2d1d7463 and 17): a WaitFlag<MTE1_M>(0) and a
// SetFlag<M_MTE1>(0) of the cube's block MMAD rewritten, which pairs the Mmad's wait with a set issued before
// the load of its operands, and the load's wait with the set after the Mmad.
struct Reordering {
    Subject s = generated_subject(4, 40, hw::ArchId::AtlasA2, false, true, "");
    Reference ref = reference_run(s);
    std::vector<hw::SyncMutation> plan;
    Reordering() {
        if (ref.points.empty()) return;
        plan.push_back(ref.points[0x2d1d7463u % ref.points.size()]);
        plan.push_back(ref.points[17u % ref.points.size()]);
    }
};

}  // namespace

// The Mmad is ordered before its own operand load: no race (every schedule agrees), but it reads L0A/L0B
// before anything wrote them. The explorer's reads say so, and the uninit checker or the outputs show it: a
// reordering, an agreement. (It was "divergent" when the explorer's only ground truth was its hazards.)
TEST(SyncMutation, AMutationThatOrdersAReadBeforeItsWriteIsAReordering) {
    const Reordering r;
    ASSERT_TRUE(r.ref.clean) << r.ref.problem;
    ASSERT_TRUE(r.ref.explored.reads_known);
    ASSERT_EQ(r.plan.size(), 2u);
    const Classification c = classify(r.s, r.ref, r.plan);
    EXPECT_EQ(c.verdict, SyncVerdict::reordered) << reports::sync_verdict_name(c.verdict) << ": " << c.detail;
    EXPECT_TRUE(c.explorer.empty()) << c.detail;
    EXPECT_TRUE(c.checkers.empty()) << c.detail;
    EXPECT_NE(c.changed_read.find("Mmad"), std::string::npos) << c.changed_read;
    EXPECT_NE(c.changed_read.find("no write of the launch"), std::string::npos) << c.changed_read;
    EXPECT_FALSE(reports::sync_verdict_fails(c.verdict));
    // Either mutation alone leaves the reads as they were.
    for (const hw::SyncMutation& m : r.plan) {
        const Classification one = classify(r.s, r.ref, {m});
        EXPECT_NE(one.verdict, SyncVerdict::reordered) << hw::to_string({m}) << ": " << one.detail;
        EXPECT_FALSE(reports::sync_verdict_fails(one.verdict)) << hw::to_string({m}) << ": " << one.detail;
    }
}

// The same reordering with nothing left to show it (the uninit checker off, the unmutated outputs handed
// back): the changed read alone makes it a miss, never harmless.
TEST(SyncMutation, AReorderingNothingShowsIsAMiss) {
    Reordering r;
    ASSERT_EQ(r.plan.size(), 2u);
    const SubjectRun unmutated = r.s.run(hw::Config{});
    auto run = r.s.run;
    r.s.run = [run, unmutated](const hw::Config& c) {
        hw::Config quiet = c;
        quiet.checks.uninit = false;
        SubjectRun out = run(quiet);
        out.outputs = unmutated.outputs;
        return out;
    };
    const Classification c = classify(r.s, r.ref, r.plan);
    EXPECT_EQ(c.verdict, SyncVerdict::missed) << reports::sync_verdict_name(c.verdict) << ": " << c.detail;
    EXPECT_FALSE(c.changed_read.empty());
    EXPECT_NE(c.detail.find("nothing shows it"), std::string::npos) << c.detail;
}

// A race checker that fires on every mutated run: a spurious barrier, proven harmless, is a false alarm.
TEST(SyncMutation, ACheckerFiringOnAHarmlessMutationIsAFalseAlarm) {
    Subject s = small_example("seed003_add", hw::ArchId::AtlasA2, graph::WorkspacePath::GM);
    const Reference ref = reference_run(s);
    ASSERT_TRUE(ref.clean) << ref.problem;
    const hw::SyncMutation m = first_point(ref, hw::SyncOp::insert_barrier);
    auto run = s.run;
    s.run = [run](const hw::Config& c) {
        SubjectRun r = run(c);
        if (!c.mutations.empty())
            r.report.violations.push_back({hw::ViolationKind::race, hw::Severity::error, "planted", {}, 1});
        return r;
    };
    const Classification c = classify(s, ref, {m});
    EXPECT_EQ(c.verdict, SyncVerdict::false_alarm) << c.detail;
}

// Outputs an adversarial schedule changes, on a mutation the explorer proves harmless: divergent.
TEST(SyncMutation, AdversarialOutputsThatDifferOnAHarmlessMutationAreDivergent) {
    Subject s = small_example("seed003_add", hw::ArchId::AtlasA2, graph::WorkspacePath::GM);
    const Reference ref = reference_run(s);
    ASSERT_TRUE(ref.clean) << ref.problem;
    const hw::SyncMutation m = first_point(ref, hw::SyncOp::insert_barrier);
    auto run = s.run;
    s.run = [run](const hw::Config& c) {
        SubjectRun r = run(c);
        if (c.scheduler == hw::SchedulerKind::adversarial) r.outputs.begin()->second.at(0) ^= 1;
        return r;
    };
    const Classification c = classify(s, ref, {m});
    EXPECT_EQ(c.verdict, SyncVerdict::divergent) << c.detail;
}
