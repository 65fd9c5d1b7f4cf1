// The generators, shrinkers, coverage and regression files on their own (no model): every generated case is
// valid, survives the text form, shrinks to valid cases, evaluates on the oracle, and covers every class.
// The properties here run through the project's runner (check_property), whose bodies use RC_ASSERT only;
// the gtest lines judge the Outcome it returns. Shrink-candidate validity is a plain rapidcheck property in
// shrink_candidates_prop_test.cpp.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <chrono>
#include <iostream>

#include "evg/graph/emit_cpp.hpp"
#include "evg/graph/text.hpp"
#include "evg/graph/validate.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/props/coverage.hpp"
#include "evg/props/generators.hpp"
#include "evg/props/regression.hpp"
#include "evg/props/runner.hpp"

using namespace evg;
using namespace evg::props;

namespace {

std::string errors_of(const graph::Problem& p) {
    std::string errors;
    for (const graph::Diagnostic& d : graph::validate(p))
        if (d.severity == graph::Severity::Error) errors += d.format() + "\n";
    return errors;
}

RunConfig config(int cases, uint64_t seed = 1) {
    RunConfig cfg;
    cfg.cases = scaled_cases(cases);
    cfg.seed = env_seed(seed);
    return cfg;
}

}  // namespace

TEST(GeneratedCases, ValidateWithoutErrorsAndCoverEveryClass) {
    Coverage cov;
    const Outcome o = check_property(
        "GeneratedCases/Validate", [](const Case& c) { RC_ASSERT(errors_of(c.problem) == std::string()); },
        config(2000), &cov);
    EXPECT_TRUE(o.ok) << o.report;
    std::cout << cov.table();
    const std::vector<std::string> unmet = cov.unmet(default_requirements());
    EXPECT_TRUE(unmet.empty()) << fmt::format("{}", fmt::join(unmet, "\n"));
}

TEST(GeneratedCases, SurviveTheTextForm) {
    const Outcome o = check_property(
        "GeneratedCases/Text",
        [](const Case& c) {
            RC_ASSERT(graph::parse_problem(graph::print(c.problem)) == c.problem);
            RC_ASSERT(case_from_text(to_text(c, "p")) == c);
            RC_ASSERT(property_from_text(to_text(c, "Props/X")) == "Props/X");
        },
        config(500));
    EXPECT_TRUE(o.ok) << o.report;
}

TEST(GeneratedCases, EvaluateOnTheOracle) {
    const Outcome o = check_property(
        "GeneratedCases/Oracle",
        [](const Case& c) {
            const oracle::Inputs in = make_inputs(c);
            const oracle::OracleResult r = oracle::evaluate(c.problem, in);
            RC_ASSERT(r.outputs.count("D") == 1u);
            RC_ASSERT(r.nodes.back().evaluated);
        },
        config(500));
    EXPECT_TRUE(o.ok) << o.report;
}

// Bypassing a gene rewires its consumers to its input: a chain load -> Relu -> Exp -> store loses the Relu
// and the Exp reads the load.
// traversal_share = 100: every case is traversal_genes(): valid, a tree (or, a third of them, a DAG whose
// shared node is read by two non-commutative Subs in different argument positions), with a Compute of two or
// more inputs that is Sub, Div, Prelu, Max or Min.
TEST(GeneratedCases, TraversalGenesGiveTreesAndDagsOfNoncommutativeNodes) {
    RunConfig cfg = config(500);
    cfg.gen.traversal_share = 100;
    int trees = 0, dags = 0;
    const Outcome o = check_property(
        "GeneratedCases/Traversal",
        [&](const Case& c) {
            const graph::Graph& g = c.problem.graph;
            RC_ASSERT(errors_of(c.problem) == std::string());
            bool multi = false;
            for (const graph::Node& n : g.nodes)
                if (n.kind == graph::NodeKind::Compute && n.inputs.size() >= 2) {
                    RC_ASSERT(n.fn == graph::Functor::Sub || n.fn == graph::Functor::Div ||
                              n.fn == graph::Functor::Prelu || n.fn == graph::Functor::Max ||
                              n.fn == graph::Functor::Min);
                    multi = true;
                }
            RC_ASSERT(multi);
            if (graph::runs_as_tree(g)) {
                ++trees;
                return;
            }
            ++dags;
            // The DAG's last Compute is Sub(root, S), S the root's first input.
            const graph::Node& last = g.nodes[static_cast<std::size_t>(g.nodes.back().inputs[0])];
            RC_ASSERT(last.kind == graph::NodeKind::Compute && last.fn == graph::Functor::Sub);
            const graph::Node& root = g.nodes[static_cast<std::size_t>(last.inputs[0])];
            RC_ASSERT(root.inputs.size() >= 2u);
            RC_ASSERT(root.inputs[0] == last.inputs[1]);
        },
        cfg);
    EXPECT_TRUE(o.ok) << o.report;
    EXPECT_GT(trees, cfg.cases / 2);
    EXPECT_GT(dags, cfg.cases / 5);
}

TEST(Shrinking, BypassRewiresConsumersToTheInput) {
    Spec s;
    s.m = s.n = s.k = 32;
    const Gene load = make_gene(GeneOp::AuxLoad);
    const Gene relu = make_gene(GeneOp::Compute, 1);
    const Gene exp = make_gene(GeneOp::Compute, 0);
    s.genes = {load, relu, exp};
    const Case before = decode(s);
    ASSERT_EQ(graph::print(before.problem.graph),
              "input  x0 : float[32, 32]\noutput D : float[32, 32]\n%0 = AuxLoad float x0\n"
              "%1 = Compute Relu float (%0)\n%2 = Compute Exp float (%1)\n%3 = AuxStore float D (%2)\n");
    const Case after = decode(bypass_gene(s, 1));
    EXPECT_EQ(graph::print(after.problem.graph),
              "input  x0 : float[32, 32]\noutput D : float[32, 32]\n%0 = AuxLoad float x0\n"
              "%1 = Compute Exp float (%0)\n%2 = AuxStore float D (%1)\n");
}

// Shrink quality on a planted fault of the oracle-only kind: "a RowBroadcast feeds a Compute that feeds a
// store". The minimal counterexample has 3 nodes plus perhaps a conversion; over 20 seeds the median must be
// at most 4 nodes.
TEST(Shrinking, PlantedPatternShrinksToAFewNodes) {
    std::vector<int> nodes;
    std::vector<double> secs;
    for (uint64_t seed = 1; seed <= 20; ++seed) {
        RunConfig cfg = config(1000, seed * 7919);
        cfg.seed = seed * 7919;
        const Outcome o = check_property(
            "Shrinking/Planted",
            [](const Case& c) {
                const auto& nodes = c.problem.graph.nodes;
                bool bug = false;
                for (const graph::Node& n : nodes)
                    if (n.kind == graph::NodeKind::Compute)
                        for (int i : n.inputs)
                            bug |= nodes[static_cast<std::size_t>(i)].kind == graph::NodeKind::RowBroadcast;
                RC_ASSERT(!bug);
            },
            cfg);
        ASSERT_FALSE(o.ok) << "seed " << seed;
        ASSERT_TRUE(o.minimal.has_value());
        nodes.push_back(node_count(*o.minimal));
        secs.push_back(o.shrink_seconds);
    }
    std::sort(nodes.begin(), nodes.end());
    std::sort(secs.begin(), secs.end());
    std::cout << fmt::format("planted pattern: median {} nodes (min {}, max {}), median shrink {:.3f} s\n",
                             nodes[10], nodes.front(), nodes.back(), secs[10]);
    EXPECT_LE(nodes[10], 4);
}

// The shrink budget stops shrinking and keeps the best case so far.
TEST(Shrinking, BudgetStopsAndKeepsTheBestCaseSoFar) {
    RunConfig cfg = config(200, 99);
    cfg.seed = 99;
    cfg.shrink_steps = 3;
    const Outcome o = check_property(
        "Shrinking/Budget", [](const Case& c) { RC_ASSERT(node_count(c) < 3); }, cfg);
    ASSERT_FALSE(o.ok);
    EXPECT_TRUE(o.budget_exhausted);
    EXPECT_LE(o.shrink_steps, 4);
    ASSERT_TRUE(o.minimal.has_value());
    EXPECT_GE(node_count(*o.minimal), 3);
    EXPECT_NE(o.report.find("best case so far"), std::string::npos);
    EXPECT_NE(o.report.find("using EVG ="), std::string::npos) << o.report;
    EXPECT_NE(o.report.find("problem arch="), std::string::npos);
}
