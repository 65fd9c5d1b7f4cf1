// Property 5 (props/README.md): static ≡ dynamic over the compiled corpus. Every case of the generated files
// (corpus_gen.cpp) runs twice on the model with the same data, cores and in-order scheduler: as the static
// EVG emit_cpp printed for it (compiled into this binary) and as a DynamicVisitor through run_on_model. The
// two runs must issue the same instruction trace (core, pipe, kind, op, in order), reach the same UB
// peak, report the same violations, and write the same bytes to every output tensor.
//
// The corpus is fixed at build time (no generation at run time, nothing to shrink), so each case is a gtest
// case of its own, named by its index; a failure prints the case as text and the first differing
// instruction.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>

#include "corpus_harness.hpp"
#include "evg/graph/emit_cpp.hpp"
#include "evg/props/regression.hpp"

namespace {

// An instruction as both runs must issue it. The source site is left out: DynamicVisitor runs an n-ary
// Compute as a chain of binary visits whose PipeBarrier<PIPE_V> between steps is issued by the node
// (visitor_compute.hpp) where the static n-ary functor issues it itself (operations.hpp): the same
// instruction at the same place in the trace, from another line of the library.
std::string describe(const evg::hw::TraceEntry& e) {
    return fmt::format("core {} pipe {} kind {} {}", e.core, static_cast<int>(e.pipe),
                       static_cast<int>(e.kind), e.op);
}

// The report as both runs must give it. Node labels are left out on purpose: the static EVG names a node by
// its C++ type (VisitorAuxStore<half, ...>), the DynamicVisitor by its graph line (%3 AuxStore half D), so
// they differ by construction. (Only clean runs are compared, so no race sentence embeds them.)
std::string report_text(evg::hw::Report r) {
    r.node_labels.clear();
    for (auto& v : r.violations)
        for (auto& l : v.locations) l.node.clear();
    return r.text();
}

class Corpus : public ::testing::TestWithParam<evg_corpus::Entry> {};

TEST_P(Corpus, StaticEqualsDynamic) {
    const evg_corpus::Entry& entry = GetParam();
    const evg::props::Case c = evg::props::case_from_text(entry.text);
    SCOPED_TRACE(std::string("case:\n") + entry.text);

    const evg_corpus::StaticRun s = entry.run(c);
    evg::graph::RunOptions opt;
    opt.block_dim = c.cores;
    opt.config = evg_corpus::run_config(c);
    const evg::graph::ModelRun d = evg::graph::run_on_model(c.problem, evg_corpus::run_inputs(c), opt);

    EXPECT_TRUE(s.report.clean()) << s.report.text();
    EXPECT_EQ(report_text(s.report), report_text(d.report));
    EXPECT_EQ(s.report.stats.ub_peak, d.report.stats.ub_peak);
    ASSERT_GT(s.trace.size(), 0u);
    const std::size_t common = std::min(s.trace.size(), d.trace.size());
    for (std::size_t i = 0; i < common; ++i)
        ASSERT_EQ(describe(s.trace[i]), describe(d.trace[i])) << "instruction " << i << " of " << common;
    ASSERT_EQ(s.trace.size(), d.trace.size());
    ASSERT_EQ(s.outputs.size(), d.outputs.size());
    for (const auto& [name, bytes] : s.outputs) {
        ASSERT_TRUE(d.outputs.count(name)) << name;
        EXPECT_TRUE(bytes == d.outputs.at(name)) << "output " << name << " differs";
    }
}

// The corpus holds as many cases as the build asked for: DAGs and trees, both archs, both workspace paths.
TEST(CorpusShape, HasTheRequestedCasesWithDagsTreesArchsAndPaths) {
    const auto& entries = evg_corpus::registry();
    EXPECT_EQ(static_cast<int>(entries.size()), EVG_CORPUS_CASES);
    std::map<std::string, int> count;
    for (const evg_corpus::Entry& e : entries) {
        const evg::graph::Problem p = evg::props::case_from_text(e.text).problem;
        ++count[evg::graph::is_tree(p.graph) ? "tree" : "topological"];
        ++count[std::string(evg::hw::arch_name(p.arch))];
        ++count[std::string(evg::graph::workspace_path_name(p.path))];
    }
    for (const auto& [k, v] : count) std::cout << "corpus " << k << ": " << v << "\n";
    for (const char* k : {"tree", "topological", "AtlasA2", "Ascend950", "gm", "ub"})
        EXPECT_GE(count[k], EVG_CORPUS_CASES / 20) << k;
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
