// The upstream corpus (label `upstream`): random graphs in the upstream dialect, compiled against the Catlass
// checkout (corpus_gen.cpp, upstream_harness.hpp), each run over random runtime parameters: m, n, k with
// tails and 1-row / 1-column problems, AI cores, the in-order or an adversarial scheduler, the data seed.
// Every run of upstream's kernel is judged by the one judge (lib/verify: every checker, flag balance, every
// output written and equal to the oracle's), after taking out the findings docs/upstream-findings.md explains
// (known_findings.txt), and compared with evgcheck's copy (lib/catlass, through run_on_model) on the same
// problem, data and schedule: every tensor bit for bit. A failure is shrunk over the runtime parameters
// (towards one core, the in-order scheduler, small m, n, k) and printed with its replay line.
//
//   UpstreamCorpus.MatchesOracleAndEvgcheck/instanceNNNN   one property per compiled instance
//   UpstreamCorpusShape.*                                  the corpus holds what it must
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "corpus_check.hpp"
#include "corpus_emit.hpp"
#include "coverage.hpp"
#include "evg/graph/emit_cpp.hpp"
#include "evg/graph/implementation.hpp"
#include "evg/hw/arch.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/props/model_property.hpp"
#include "evg/props/regression.hpp"
#include "evg/props/require.hpp"
#include "evg/props/runner.hpp"
#include "evg/verify/data.hpp"
#include "evg/verify/judge.hpp"
#include "evg/verify/known_findings.hpp"

namespace evg::upstream::corpus {
namespace {

verify::KnownFindings& known_findings() {
    static verify::KnownFindings known = verify::KnownFindings::read(EVG_UPSTREAM_KNOWN_FINDINGS);
    return known;
}

}  // namespace

// gtest prints a parameter with this (not as bytes).
void PrintTo(const Instance& i, std::ostream* os) {
    *os << "instance " << i.index << (std::string_view(i.name).empty() ? "" : " ") << i.name;
}

namespace {

class UpstreamCorpus : public ::testing::TestWithParam<Instance> {};

TEST_P(UpstreamCorpus, MatchesOracleAndEvgcheck) {
    const Instance& instance = GetParam();
    const props::Case base = props::case_from_text(instance.text);
    props::RunConfig cfg;
    cfg.cases = props::scaled_cases(30);
    // Instance i of the corpus of seed S is graph i of `evgcheck check --seed S`, which runs its runtime
    // cases from S + i too: the line printed on a failure shrinks its graph as well.
    cfg.seed = props::env_seed(EVG_UPSTREAM_CORPUS_SEED + static_cast<uint64_t>(instance.index));
    cfg.jobs = 1;
    cfg.replay_filter = fmt::format("*UpstreamCorpus.MatchesOracleAndEvgcheck/instance{:04}", instance.index);
    cfg.case_source = runtime_cases(base);
    cfg.dialect = graph::Implementation::upstream;
    const props::Outcome out = props::check_property(
        fmt::format("UpstreamCorpus/instance{:04}", instance.index),
        [&](const props::Case& c) { upstream_matches_oracle_and_evgcheck(instance, c, known_findings()); },
        cfg);
    EXPECT_TRUE(out.ok) << "instance:\n"
                        << instance.text << "\n"
                        << out.report
                        << fmt::format(
                               "\nto shrink its graph too, compiling smaller graphs against the checkout: "
                               "{} check --catlass-root {} --seed {} --graph {} --cases {}\n",
                               EVGCHECK_BINARY, EVG_UPSTREAM_CATLASS_ROOT, EVG_UPSTREAM_CORPUS_SEED,
                               instance.index, cfg.cases);
    EXPECT_EQ(out.passed, cfg.cases);
}

INSTANTIATE_TEST_SUITE_P(, UpstreamCorpus, ::testing::ValuesIn(random_instances()),
                         [](const ::testing::TestParamInfo<Instance>& info) {
                             return fmt::format("instance{:04}", info.param.index);
                         });

// The corpus holds as many instances as the build asked for, every one a graph upstream can run, with trees
// (some with a TopologicalVisitor twin) and DAGs, both workspace paths and every node kind upstream has.
TEST(UpstreamCorpusShape, HoldsTheRequestedInstancesOfEveryUpstreamNodeKind) {
    const std::vector<Instance> instances = random_instances();
    EXPECT_EQ(static_cast<int>(instances.size()), EVG_UPSTREAM_CORPUS_INSTANCES);
    std::map<std::string, int> count;
    for (const Instance& i : instances) {
        const graph::Problem p = props::case_from_text(i.text).problem;
        EXPECT_EQ(graph::first_missing(graph::Implementation::upstream, p), std::nullopt) << i.text;
        if (graph::known_hazard(graph::Implementation::upstream, p.graph)) ++count["store of a load"];
        ++count[graph::runs_as_tree(p.graph) ? "tree" : "topological"];
        ++count[std::string(graph::workspace_path_name(p.path))];
        if (i.run_topological) ++count["tree with a TopologicalVisitor twin"];
        for (const graph::Node& n : p.graph.nodes) ++count[std::string(graph::node_kind_name(n.kind))];
    }
    for (const auto& [k, v] : count) std::printf("upstream corpus %s: %d\n", k.c_str(), v);
    // No drawn graph is left out: graphs that store a load (upstream's known race, excused in their runs) are
    // instances too.
    for (const char* k :
         {"tree", "topological", "gm", "ub", "tree with a TopologicalVisitor twin", "store of a load"})
        EXPECT_GE(count[k], 1) << k;
    for (const graph::NodeKindInfo& k : graph::all_node_kinds()) {
        if (graph::implements(graph::Implementation::upstream, k.kind)) {
            EXPECT_GE(count[std::string(k.name)], 1) << k.name;
        }
    }
}

// Instance i of the corpus is graph i of `evgcheck check --catlass-root ROOT --seed S --graphs N` (the same
// plan, corpus_emit.hpp), which is what the failure line of MatchesOracleAndEvgcheck relies on.
TEST(UpstreamCorpusShape, InstanceIIsGraphIOfTheCheckCommandsPlan) {
    const std::vector<Draw> plan = plan_instances(EVG_UPSTREAM_CORPUS_SEED, EVG_UPSTREAM_CORPUS_INSTANCES);
    const std::vector<Instance> instances = random_instances();
    ASSERT_EQ(instances.size(), plan.size());
    for (std::size_t i = 0; i < instances.size(); ++i)
        EXPECT_EQ(props::to_text(plan[i].c, "x"),
                  props::to_text(props::case_from_text(instances[i].text), "x"))
            << "instance " << instances[i].index;
}

// The corpus of the test run covers every reachable cell of docs/upstream-coverage.md.
TEST(UpstreamCorpusShape, CoversEveryReachableCell) {
    Coverage coverage;
    for (const Instance& i : random_instances())
        coverage.add(props::case_from_text(i.text), i.run_topological != nullptr);
    std::printf("%s", coverage.summary().c_str());
    EXPECT_EQ(coverage.left_out(), std::vector<std::string>{});
}

// The twin check's comparison of synchronisation: two runs of one instance are the same; a run whose first
// SetFlag is given another event id parts there, and the sentence names the core, the pipe and both calls.
TEST(UpstreamCorpusShape, SyncDifferenceNamesWhereTwoRunsPart) {
    const std::vector<Instance> instances = random_instances();
    const auto twin = std::find_if(instances.begin(), instances.end(),
                                   [](const Instance& i) { return i.run_topological != nullptr; });
    ASSERT_NE(twin, instances.end());
    const props::Case c = props::case_from_text(twin->text);
    const verify::CaseData data = verify::make_case_data(c.problem, c.data, c.data_seed, c.sign);
    RunRequest rq = make_request(c, data);
    rq.config.keep_trace = true;
    InstanceRun a = twin->run(rq), b = twin->run_topological(rq);
    adopt_trace(a);
    adopt_trace(b);
    EXPECT_EQ(first_sync_difference(a.trace, b.trace), "");
    size_t set = 0;
    while (set < b.trace.size() && b.trace[set].kind != hw::InstrKind::set_flag) ++set;
    ASSERT_LT(set, b.trace.size());
    const std::string op(b.trace[set].op());
    b.trace[set].set_op(op + "'");
    const std::string diff = first_sync_difference(a.trace, b.trace);
    EXPECT_NE(diff.find(fmt::format("core {} pipe {}", b.trace[set].core, hw::pipe_name(b.trace[set].pipe))),
              std::string::npos)
        << diff;
    EXPECT_NE(diff.find("'" + op + "' / '" + op + "''"), std::string::npos) << diff;
}

// docs/upstream-findings.md §4, on upstream's own code: a store that reads a load's buffer directly races
// with the next load into that buffer (GM path: MTE3 read, then MTE2 write with no MTE3 -> MTE2 flag) or with
// the cube's next write of the C region (UB path). Each named instance must show exactly that race on
// upstream's kernel and nothing on evgcheck's copy, whose BlockEpilogue orders the two; known_hazard names
// the store. The known-findings entries of §4 take out exactly those races, and only when told the graph
// stores a load (run_conditions): then the run is clean, values and all. When upstream fixes it, this fails
// and the document is to be updated.
struct FindingCase {
    const char* name;
    const char* race;  // the start of the race's sentence
};

void PrintTo(const FindingCase& c, std::ostream* os) {
    *os << c.name;
}

class UpstreamCorpusFindings : public ::testing::TestWithParam<FindingCase> {};

TEST_P(UpstreamCorpusFindings, StoreOfALoadRacesOnUpstreamAndNotOnEvgcheck) {
    const Instance* instance = named_instance(GetParam().name);
    ASSERT_NE(instance, nullptr) << GetParam().name;
    const props::Case c = props::case_from_text(instance->text);
    EXPECT_NE(graph::known_hazard(graph::Implementation::upstream, c.problem.graph), std::nullopt);
    EXPECT_EQ(graph::known_hazard(graph::Implementation::evgcheck, c.problem.graph), std::nullopt);

    const verify::CaseData data = verify::make_case_data(c.problem, c.data, c.data_seed, c.sign);
    UpstreamVerdict theirs = run_and_judge(*instance, c, data, nullptr);
    std::erase_if(theirs.run.report.violations,
                  [](const hw::Violation& v) { return known_findings().match(v); });
    ASSERT_FALSE(theirs.run.report.violations.empty())
        << "upstream's kernel no longer races: update docs/upstream-findings.md §4";
    verify::KnownFindings known = verify::KnownFindings::read(EVG_UPSTREAM_KNOWN_FINDINGS);
    for (const hw::Violation& v : theirs.run.report.violations) {
        EXPECT_EQ(v.kind, hw::ViolationKind::race) << theirs.run.report.text();
        EXPECT_EQ(v.message.rfind(GetParam().race, 0), 0u) << v.message;
        const verify::KnownFinding* k = known.match(v, run_conditions(c.problem));
        ASSERT_NE(k, nullptr) << v.message;
        EXPECT_EQ(k->note, "4") << k->spelling;
    }
    verify::KnownFindings again = verify::KnownFindings::read(EVG_UPSTREAM_KNOWN_FINDINGS);
    const UpstreamVerdict excused = run_and_judge(*instance, c, data, &again);
    EXPECT_TRUE(excused.verdict.clean()) << excused.verdict.text();
    EXPECT_FALSE(excused.excused.empty());
    const props::CaseRun ours = props::run_case(evgcheck_copy(c), 1, 0);
    EXPECT_TRUE(ours.model.report.clean()) << ours.model.report.text();
}

// A corpus run launches from evgcheck's harness (upstream_harness.hpp, registry.cpp), not from a user's line:
// the ACL shim captures no call chains for it (Report::set_launch_site, which reads them, runs for the user's
// launches only), unless the checker node-slots, their other reader, is on. The findings are the same either
// way, and say the same.
TEST_P(UpstreamCorpusFindings, AHarnessLaunchCapturesCallChainsOnlyForNodeSlots) {
    const Instance* instance = named_instance(GetParam().name);
    ASSERT_NE(instance, nullptr) << GetParam().name;
    const props::Case c = props::case_from_text(instance->text);
    const verify::CaseData data = verify::make_case_data(c.problem, c.data, c.data_seed, c.sign);
    RunRequest rq = make_request(c, data);
    const InstanceRun without = instance->run(rq);
    rq.config.checks.node_slots = true;
    const InstanceRun with = instance->run(rq);
    EXPECT_EQ(with.report.stats.instructions, without.report.stats.instructions);
    EXPECT_EQ(with.tensors, without.tensors);
    ASSERT_FALSE(without.report.violations.empty());
    ASSERT_EQ(with.report.violations.size(), without.report.violations.size()) << with.report.text();
    size_t chained = 0;
    for (size_t i = 0; i < with.report.violations.size(); ++i) {
        const hw::Violation &a = with.report.violations[i], &b = without.report.violations[i];
        EXPECT_EQ(a.kind, b.kind);
        EXPECT_EQ(a.message, b.message);
        ASSERT_EQ(a.locations.size(), b.locations.size());
        for (size_t k = 0; k < a.locations.size(); ++k) {
            EXPECT_EQ(a.locations[k].site, b.locations[k].site);
            EXPECT_EQ(b.locations[k].chain_id, 0u) << "a chain captured for a harness's launch";
            chained += a.locations[k].chain_id != 0 ? 1 : 0;
        }
    }
    EXPECT_GT(chained, 0u) << "node-slots is on, and no location has a chain: " << with.report.text();
}

INSTANTIATE_TEST_SUITE_P(, UpstreamCorpusFindings,
                         ::testing::Values(FindingCase{"store_of_accload_gm", "WAR race on UB[AIV 0]"},
                                           FindingCase{"store_of_auxload_gm", "WAR race on UB[AIV 0]"},
                                           FindingCase{"store_of_accload_ub", "RAW race on UB[AIV 0]"}),
                         [](const ::testing::TestParamInfo<FindingCase>& info) {
                             return std::string(info.param.name);
                         });

// What model_run takes out of a report with the known-findings file, on a report made by hand: §4's race by
// its two places, only in a graph that stores a load; its uninit_to_gm into a racing store's output with it,
// and into any other output not; the same race in a graph that stores no load stays a finding.
hw::Violation violation(hw::ViolationKind kind, std::string message, std::vector<hw::Location> at) {
    return hw::Violation{kind, hw::Severity::error, std::move(message), std::move(at), 1};
}
hw::Location store_at(const char* source) {
    hw::Location l;
    l.pipe = "MTE3";
    l.memory = "UB[AIV 0]";
    l.site = "copy_ub_to_gm_tla.hpp:88";
    l.source = source;
    return l;
}

TEST(UpstreamKnownFindings, TheStoreOfALoadRaceAndItsUninitGoOnlyWhereTheGraphStoresALoad) {
    const char* store_line =
        "AscendC::DataCopyPad(dstTensor.data()[dstOffset], srcTensor.data()[srcOffset], p);";
    hw::Location load;
    load.pipe = "MTE2";
    load.memory = "UB[AIV 0]";
    load.site = "copy_gm_to_ub_tla.hpp:121";
    load.source = "AscendC::DataCopyPad(dstTensor.data()[dstOffset], srcTensor.data()[srcOffset], p, pad);";
    InstanceRun run;
    run.report.violations = {
        violation(hw::ViolationKind::race, "WAR race", {store_at(store_line), load}),
        violation(
            hw::ViolationKind::uninit_to_gm,
            "DataCopyPad UB->GM stores never-written bytes to GM: byte 2 of UB[AIV 0] (copied to D offset 2) "
            "was never written",
            {store_at(store_line)}),
        violation(
            hw::ViolationKind::uninit_to_gm,
            "DataCopyPad UB->GM stores never-written bytes to GM: byte 2 of UB[AIV 0] (copied to E offset 2) "
            "was never written",
            {store_at(store_line)})};
    const auto remaining = [&](const char* graph) {
        const props::Case c = props::case_from_text(
            std::string("# case data=exact data_seed=0 cores=1 sched=0\n"
                        "problem arch=Ascend950 m=4 n=4 k=4 a=half b=half c=float cl=2048 tile=32x64x64\n") +
            graph);
        run.tensors.assign(c.problem.graph.tensors.size(), {});
        verify::KnownFindings known = verify::KnownFindings::read(EVG_UPSTREAM_KNOWN_FINDINGS);
        std::vector<const verify::KnownFinding*> excused;
        const graph::ModelRun m = model_run(run, c.problem, &known, &excused);
        std::vector<std::string> out;
        for (const hw::Violation& v : m.report.violations) out.push_back(v.message);
        EXPECT_EQ(excused.size() + m.report.violations.size(), 3u);
        for (const verify::KnownFinding* k : excused) EXPECT_EQ(k->note, "4");
        return out;
    };
    // D stores X as is (the race's graph), E stores a Relu of it: the uninit into E stays.
    const std::vector<std::string> stores = remaining(
        "input X : float[4, 4]\noutput D : float[4, 4]\noutput E : float[4, 4]\n%0 = AuxLoad float X\n"
        "%1 = AuxStore float D (%0)\n%2 = Compute Relu float (%0)\n%3 = AuxStore float E (%2)\n");
    ASSERT_EQ(stores.size(), 1u);
    EXPECT_NE(stores[0].find("(copied to E offset 2)"), std::string::npos) << stores[0];
    // No store of a load: nothing is taken out.
    EXPECT_EQ(remaining("input X : float[4, 4]\noutput D : float[4, 4]\noutput E : float[4, 4]\n"
                        "%0 = AuxLoad float X\n%1 = Compute Relu float (%0)\n%2 = AuxStore float D (%1)\n"
                        "%3 = AuxStore float E (%1)\n")
                  .size(),
              3u);
}

// docs/upstream-findings.md §7, on upstream's own code: int8 A and B with an L0 K of 64 and M and N under 17
// make the transposed L1 -> L0A load (column-major A: int8_l0a_chunks) and L1 -> L0B load (row-major B:
// int8_l0b_chunks) write their second K chunk over the first one's second fractal with no MTE1 barrier. The
// known-findings file takes exactly that race out (the run is then clean: in issue order the values are
// right), and evgcheck's copy, which loads A and B in its one configuration, has none. The fixed copy runs
// both clean (UpstreamCorpusFixed). When upstream fixes it, this fails and the document is to be updated.
class UpstreamCorpusFinding7 : public ::testing::TestWithParam<FindingCase> {};

TEST_P(UpstreamCorpusFinding7, Int8TransposedL0LoadOverlapsItsChunks) {
    const Instance* instance = named_instance(GetParam().name);
    ASSERT_NE(instance, nullptr) << GetParam().name;
    const props::Case c = props::case_from_text(instance->text);
    const verify::CaseData data = verify::make_case_data(c.problem, c.data, c.data_seed, c.sign);
    const UpstreamVerdict theirs = run_and_judge(*instance, c, data, nullptr);
    int races = 0;
    verify::KnownFindings known = verify::KnownFindings::read(EVG_UPSTREAM_KNOWN_FINDINGS);
    for (const hw::Violation& v : theirs.run.report.violations) {
        if (v.kind != hw::ViolationKind::race) continue;
        EXPECT_EQ(v.message.rfind(GetParam().race, 0), 0u) << v.message;
        ASSERT_NE(known.match(v), nullptr) << v.message;
        ++races;
    }
    ASSERT_GT(races, 0) << "upstream's load no longer overlaps: update docs/upstream-findings.md §7\n"
                        << theirs.run.report.text();
    verify::KnownFindings again = verify::KnownFindings::read(EVG_UPSTREAM_KNOWN_FINDINGS);
    const UpstreamVerdict excused = run_and_judge(*instance, c, data, &again);
    EXPECT_TRUE(excused.verdict.clean()) << excused.verdict.text();
    EXPECT_FALSE(excused.excused.empty());
    const props::CaseRun ours = props::run_case(evgcheck_copy(c), 1, 0);
    EXPECT_TRUE(ours.model.report.clean()) << ours.model.report.text();
}

INSTANTIATE_TEST_SUITE_P(, UpstreamCorpusFinding7,
                         ::testing::Values(FindingCase{"int8_l0a_chunks", "WAW race on L0A[AIC 0]"},
                                           FindingCase{"int8_l0b_chunks", "WAW race on L0B[AIC 0]"}),
                         [](const ::testing::TestParamInfo<FindingCase>& info) {
                             return std::string(info.param.name);
                         });

// Two places of upstream's code that looked suspicious on reading, settled by runs of named instances with
// the trace kept (every access of every instruction): docs/upstream-findings.md §5 (a finding) and §6 (none).
struct TracedRun {
    props::Case c;
    UpstreamVerdict theirs;
};

TracedRun traced_run(const char* name) {
    const Instance* instance = named_instance(name);
    if (!instance) throw std::logic_error(fmt::format("no named instance {}", name));
    TracedRun out;
    out.c = props::case_from_text(instance->text);
    const verify::CaseData data =
        verify::make_case_data(out.c.problem, out.c.data, out.c.data_seed, out.c.sign);
    RunRequest rq = make_request(out.c, data);
    rq.config.keep_trace = true;
    rq.config.trace_accesses = true;
    out.theirs = judge_run(instance->run(rq), out.c, data, &known_findings());
    return out;
}

// (1) docs/upstream-findings.md §5: on the UB path the C tile sits in UB bytes [0, L0C_SIZE / 2) and
// upstream's AccLoad hands the next node the tile's start there; a Compute or a Cast then works over the
// whole computeLength. The last, partial tile of a full C region (256 x 256 floats: 128 KiB an AIV) therefore
// reads past the region's end, into the epilogue's own buffers. The outputs stay right (the lanes past the
// tile are never stored); where the node's own destination is the first buffer after the region, the
// instruction's source and destination overlap, which the vector API does not allow (docs/hardware-model.md
// §6.2), and the model reports it (known_findings.txt, §5).
class UpstreamCorpusSettledOverread : public ::testing::TestWithParam<const char*> {};

TEST_P(UpstreamCorpusSettledOverread, TheLastTileReadsPastTheCRegion) {
    const TracedRun r = traced_run(GetParam());
    EXPECT_TRUE(r.theirs.verdict.clean()) << r.theirs.verdict.text();
    const uint64_t region_end = hw::kAscend950.l0c_size / 2;
    uint64_t past = 0;
    std::string where;
    for (const hw::TraceEntry& e : r.theirs.run.trace) {
        if (e.pipe != hw::Pipe::V || e.kind != hw::InstrKind::plain) continue;
        for (const hw::TraceAccess& a : r.theirs.run.trace.accesses_of(e))
            if (a.kind == hw::MemKind::UB && !a.write && a.begin < region_end && a.end > region_end &&
                a.end - region_end > past) {
                past = a.end - region_end;
                where = fmt::format("{} reads UB [{}, {})", e.op(), a.begin, a.end);
            }
    }
    std::printf("%s: %s, %llu bytes past the C region's end (%llu)\n", GetParam(), where.c_str(),
                static_cast<unsigned long long>(past), static_cast<unsigned long long>(region_end));
    EXPECT_GT(past, 0u)
        << "no instruction reads past the C region any more: update docs/upstream-findings.md §5";
    // Whether the read meets the computing node's own destination depends on which buffer follows the region:
    // upstream's VisitorImpl builds its callbacks as the arguments of one constructor call, whose order C++
    // leaves open. A unary node over AccLoad carves the only buffer, so it meets it under any order; the Add
    // of ub_last_tile_add carves its own first only under GCC's order (right to left), and X's buffer follows
    // the region under Bisheng's (corpus_order_test.cpp runs both builds).
    int overlaps = 0;
    for (const hw::Violation& v : r.theirs.run.report.violations)
        if (v.kind == hw::ViolationKind::operand_overlap) {
            ++overlaps;
            std::printf("%s\n", v.message.c_str());
        }
    const KernelCompilerInfo compiler = upstream_corpus_kernel_compiler();
    std::printf("kernel code built by %s\n", compiler.description);
    if (std::string_view(GetParam()) == "ub_last_tile_add" && compiler.left_to_right) {
        EXPECT_EQ(overlaps, 0) << r.theirs.run.report.text();
    } else {
        EXPECT_GT(overlaps, 0) << r.theirs.run.report.text();
    }
    const props::CaseRun ours = props::run_case(evgcheck_copy(r.c), 1, 0);
    EXPECT_TRUE(ours.model.report.clean()) << "evgcheck's copy:\n" << ours.model.report.text();
}

INSTANTIATE_TEST_SUITE_P(, UpstreamCorpusSettledOverread,
                         ::testing::Values("ub_last_tile_relu", "ub_last_tile_cast", "ub_last_tile_add"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                             return std::string(info.param);
                         });

// (2) docs/upstream-findings.md §6: RowBroadcast copies its first row down the tile UB -> UB (DataCopy, on
// PIPE_V) with no PipeBarrier<PIPE_V> before the Compute that reads the rows. On Ascend950 the V pipe keeps
// order in hardware (docs/hardware-model.md §1), so the pair needs none: each run must show such a copy
// followed by a V read of its bytes with no barrier between, and no finding.
class UpstreamCorpusSettledRowBroadcast : public ::testing::TestWithParam<const char*> {};

TEST_P(UpstreamCorpusSettledRowBroadcast, TheCopyAndItsReaderAreBothOnV) {
    const TracedRun r = traced_run(GetParam());
    EXPECT_TRUE(r.theirs.verdict.clean()) << r.theirs.verdict.text();
    EXPECT_TRUE(hw::arch_spec(hw::ArchId::Ascend950).v_pipe_ordered);
    constexpr std::string_view kCopy = "DataCopy UB->UB";
    int pairs = 0;
    std::map<uint16_t, std::vector<std::pair<uint64_t, uint64_t>>> copied;  // per core: UB written by copies
    for (const hw::TraceEntry& e : r.theirs.run.trace) {
        if (e.pipe != hw::Pipe::V && !(e.kind == hw::InstrKind::barrier && e.barrier_pipe == hw::Pipe::V))
            continue;
        auto& mine = copied[e.core];
        if (e.kind == hw::InstrKind::barrier) {
            mine.clear();
            continue;
        }
        if (e.kind != hw::InstrKind::plain) continue;
        const auto accesses = r.theirs.run.trace.accesses_of(e);
        for (const hw::TraceAccess& a : accesses)
            if (!a.write && a.kind == hw::MemKind::UB)
                for (const auto& [b, end] : mine)
                    if (a.begin < end && b < a.end && e.op() != kCopy) ++pairs;
        if (e.op() == kCopy)
            for (const hw::TraceAccess& a : accesses)
                if (a.write) mine.emplace_back(a.begin, a.end);
    }
    std::printf("%s: %d V reads of bytes a UB -> UB copy wrote, with no PipeBarrier<PIPE_V> between\n",
                GetParam(), pairs);
    EXPECT_GT(pairs, 0) << "the case no longer shows the copy and its reader back to back";
}

INSTANTIATE_TEST_SUITE_P(, UpstreamCorpusSettledRowBroadcast,
                         ::testing::Values("row_broadcast_gm", "row_broadcast_ub"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                             return std::string(info.param);
                         });

}  // namespace
}  // namespace evg::upstream::corpus
