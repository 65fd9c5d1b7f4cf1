// Property 5 (props/README.md): the library's static visitors over the compiled corpus. Every case of the
// generated files (corpus_gen.cpp) runs on the model with the same data, cores and in-order scheduler as the
// static EVG emit_cpp printed for it (compiled into this binary: TreeVisitor nests and TopologicalVisitors)
// and as a DynamicVisitor through run_on_model, whose traversal is its own code. The two runs must issue the
// same instruction trace (core, pipe, kind, op, in order), reach the same UB peak, report the same
// violations and write the same bytes to every output tensor; and the static run must pass the judge of
// lib/verify against the oracle (verify::judge: checkers, UB rule, flag balance, every output written and
// equal to the oracle's).
//
// Three entries:
//   Props/Corpus.StaticEqualsDynamicAndOracle/caseNNN   each compiled case on its own data (a failure prints
//                                                        the case as text and the first difference);
//   CorpusProperty.StaticEqualsDynamicAndOracleOnRandomDataAndCores   a rapidcheck property: a compiled graph
//                                                        (its structure, shapes and computeLength are fixed
//                                                        at build time) on random data (exact or float mode,
//                                                        any seed) and cores, shrunk over those;
//   CorpusShape.*                                        the corpus holds what it must to test the traversal.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>

#include "corpus_harness.hpp"
#include "evg/graph/emit_cpp.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/props/regression.hpp"
#include "evg/props/require.hpp"
#include "evg/props/runner.hpp"
#include "evg/verify/judge.hpp"

namespace {

// An instruction as both runs must issue it. The source site is left out: DynamicVisitor runs an n-ary
// Compute as a chain of binary visits whose PipeBarrier<PIPE_V> between steps is issued by the node
// (visitor_compute.hpp) where the static n-ary functor issues it itself (operations.hpp): the same
// instruction at the same place in the trace, from another line of the library.
std::string describe(const evg::hw::TraceEntry& e) {
    return fmt::format("core {} pipe {} kind {} {}", e.core, static_cast<int>(e.pipe),
                       static_cast<int>(e.kind), e.op());
}

// The report as both runs must give it. Node labels are left out on purpose: the static EVG names a node by
// its C++ type (VisitorAuxStore<half, ...>), the DynamicVisitor by its graph line (%3 AuxStore half D), so
// they differ by construction. (Only clean runs are compared, so no race sentence embeds them.)
std::string report_text(evg::hw::Report r) {
    r.node_labels.clear();
    // The checker fp's findings and counts are left out too: the NaN a graph makes is the oracle's to judge
    // (both runs are compared with it), and how many lanes make one depends on the lanes a run computes (the
    // DynamicVisitor's n-ary Compute is a chain of binary steps over intermediate tiles).
    std::erase_if(r.violations,
                  [](const evg::hw::Violation& v) { return evg::hw::violation_kind_finder(v.kind) == "fp"; });
    r.fp = {};
    r.buffers.clear();  // the GM buffers the findings name: those were the checker fp's
    for (auto& v : r.violations)
        for (auto& l : v.locations) l.node.clear();
    return r.text();
}

// What one run of a compiled case gives: the first difference between the static and the dynamic run (""
// when none) and the judge's Verdict on the static run against the oracle.
struct Comparison {
    std::string difference;
    evg::verify::Verdict verdict;
};

Comparison compare(const evg_corpus::Entry& entry, const evg::props::Case& c) {
    const evg::verify::CaseData data = evg::verify::make_case_data(c.problem, c.data, c.data_seed, c.sign);
    const evg_corpus::StaticRun s = entry.run(c);
    evg::graph::RunOptions opt;
    opt.block_dim = c.cores;
    opt.config = evg_corpus::run_config(c);
    const evg::graph::ModelRun d = evg::graph::run_on_model(c.problem, evg_corpus::run_inputs(c), opt);

    Comparison out;
    if (report_text(s.report) != report_text(d.report))
        out.difference = "reports differ:\nstatic: " + s.report.text() + "\ndynamic: " + d.report.text();
    else if (s.report.stats.ub_peak != d.report.stats.ub_peak)
        out.difference =
            fmt::format("UB peak: static {}, dynamic {}", s.report.stats.ub_peak, d.report.stats.ub_peak);
    else if (s.trace.empty())
        out.difference = "the static run issued no instruction";
    if (out.difference.empty()) {
        const std::size_t common = std::min(s.trace.size(), d.trace.size());
        for (std::size_t i = 0; i < common && out.difference.empty(); ++i)
            if (describe(s.trace[i]) != describe(d.trace[i]))
                out.difference = fmt::format("instruction {} of {}: static {}, dynamic {}", i, common,
                                             describe(s.trace[i]), describe(d.trace[i]));
        if (out.difference.empty() && s.trace.size() != d.trace.size())
            out.difference =
                fmt::format("traces: static {} instructions, dynamic {}", s.trace.size(), d.trace.size());
    }
    for (const auto& [name, bytes] : s.outputs)
        if (out.difference.empty() && (!d.outputs.count(name) || bytes != d.outputs.at(name)))
            out.difference = "output " + name + " differs";
    if (out.difference.empty() && s.outputs.size() != d.outputs.size()) out.difference = "output sets differ";

    evg::graph::ModelRun as_run;
    as_run.report = s.report;
    as_run.outputs = s.outputs;
    as_run.trace = s.trace;
    as_run.predicted_ub_end = d.predicted_ub_end;
    evg::verify::JudgeOptions jo;
    jo.exact_data = data.exact_data;
    out.verdict = evg::verify::judge(c.problem, as_run, evg::oracle::evaluate(c.problem, data.inputs), jo);
    return out;
}

class Corpus : public ::testing::TestWithParam<evg_corpus::Entry> {};

TEST_P(Corpus, StaticEqualsDynamicAndOracle) {
    const evg_corpus::Entry& entry = GetParam();
    const evg::props::Case c = evg::props::case_from_text(entry.text);
    SCOPED_TRACE(std::string("case:\n") + entry.text);
    const Comparison r = compare(entry, c);
    EXPECT_EQ(r.difference, "");
    EXPECT_TRUE(r.verdict.clean()) << r.verdict.text();
}

// The compiled graphs on random data, data modes and cores: static ≡ dynamic, and the static run passes the
// judge. Shrinks towards exact data, seed 0 and one core; the graph stays the drawn one.
TEST(CorpusProperty, StaticEqualsDynamicAndOracleOnRandomDataAndCores) {
    const std::vector<evg_corpus::Entry>& entries = evg_corpus::registry();
    std::vector<evg::graph::Problem> problems;
    problems.reserve(entries.size());
    for (const evg_corpus::Entry& e : entries) problems.push_back(evg::props::case_from_text(e.text).problem);
    evg::props::RunConfig cfg;
    cfg.cases = evg::props::scaled_cases(300);
    cfg.seed = evg::props::env_seed(11);
    cfg.jobs = evg::props::env_jobs(1);
    cfg.replay_filter = "CorpusProperty.*";
    cfg.case_source = rc::gen::exec([&entries] {
        const auto i = *rc::gen::noShrink(rc::gen::inRange<std::size_t>(0, entries.size()));
        evg::props::Case c = evg::props::case_from_text(entries[i].text);
        c.data = *rc::gen::element(evg::verify::DataMode::Exact, evg::verify::DataMode::Special);
        c.data_seed = *rc::gen::inRange<uint64_t>(0, 1u << 20);
        c.cores = *rc::gen::inRange<uint32_t>(1, 5);
        return c;
    });
    const evg::props::Outcome out = evg::props::check_property(
        "CorpusProperty/StaticEqualsDynamicAndOracleOnRandomDataAndCores",
        [&](const evg::props::Case& c) {
            const auto at = std::find(problems.begin(), problems.end(), c.problem);
            RC_ASSERT(at != problems.end());
            const Comparison r = compare(entries[static_cast<std::size_t>(at - problems.begin())], c);
            if (!r.difference.empty()) RC_FAIL("static and dynamic runs differ: " + r.difference);
            evg::props::require_clean(r.verdict, "the static run against the oracle");
        },
        cfg);
    EXPECT_TRUE(out.ok) << out.report;
    EXPECT_EQ(out.passed, cfg.cases);
}

// Whether a graph has a Compute of two or more inputs whose result depends on their order (Sub, Div, Prelu).
bool has_noncommutative_node(const evg::graph::Graph& g) {
    using evg::graph::Functor;
    for (const evg::graph::Node& n : g.nodes)
        if (n.kind == evg::graph::NodeKind::Compute && n.inputs.size() >= 2 &&
            (n.fn == Functor::Sub || n.fn == Functor::Div || n.fn == Functor::Prelu))
            return true;
    return false;
}

// The corpus holds as many cases as the build asked for: DAGs and trees, both archs, both workspace paths;
// and, on each arch, trees and DAGs with a non-commutative node of two or more inputs (the cases that tell a
// TreeVisitor or TopologicalVisitor passing its children in another order).
TEST(CorpusShape, HasTheRequestedCasesWithDagsTreesArchsPathsAndNoncommutativeNodes) {
    const auto& entries = evg_corpus::registry();
    EXPECT_EQ(static_cast<int>(entries.size()), EVG_CORPUS_CASES);
    std::map<std::string, int> count;
    for (const evg_corpus::Entry& e : entries) {
        const evg::graph::Problem p = evg::props::case_from_text(e.text).problem;
        const std::string shape = evg::graph::runs_as_tree(p.graph) ? "tree" : "topological";
        const std::string arch(evg::hw::arch_name(p.arch));
        ++count[shape];
        ++count[arch];
        ++count[std::string(evg::graph::workspace_path_name(p.path))];
        if (has_noncommutative_node(p.graph)) ++count[fmt::format("{} {} non-commutative", arch, shape)];
    }
    for (const auto& [k, v] : count) std::cout << "corpus " << k << ": " << v << "\n";
    for (const char* k : {"tree", "topological", "AtlasA2", "Ascend950", "gm", "ub"})
        EXPECT_GE(count[k], EVG_CORPUS_CASES / 20) << k;
    for (const char* k : {"AtlasA2 tree non-commutative", "AtlasA2 topological non-commutative",
                          "Ascend950 tree non-commutative", "Ascend950 topological non-commutative"})
        EXPECT_GE(count[k], EVG_CORPUS_CASES / 25) << k;
}

std::vector<evg_corpus::Entry> sorted_entries() {
    std::vector<evg_corpus::Entry> v = evg_corpus::registry();
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
    return v;
}

INSTANTIATE_TEST_SUITE_P(Props, Corpus, ::testing::ValuesIn(sorted_entries()),
                         [](const ::testing::TestParamInfo<evg_corpus::Entry>& info) {
                             return fmt::format("case{:03}", info.param.index);
                         });

}  // namespace
