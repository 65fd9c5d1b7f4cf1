// Property 4 (props/README.md): TopologicalVisitor ≡ TreeVisitor.
//
// A random DAG (a generated case whose root reaches some node along two or more paths, or, when it has none,
// the case with one input edge rewired so that it has: as_dag below) runs through
// run_on_model as a TopologicalVisitor; its tree expansion (props/topo_tree.hpp: shared pure subgraphs
// duplicated, a shared AuxStore or reduce kept at its first use and read through its input elsewhere) runs as
// a TreeVisitor nest. Both on the same data, cores and computeLength (the largest both fit, capped at the
// case's), with the in-order scheduler:
//   * both reports are clean and every output tensor is equal byte for byte;
//   * the DAG computes each node once per tile: its count of V-pipe compute instructions (kind plain) equals
//     that of expand_once (every repeated use loaded from a tensor, which issues no V compute), and the
//     tree's count is larger exactly when a Compute or Cast was duplicated.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <iostream>
#include <optional>

#include "evg/graph/emit_cpp.hpp"
#include "evg/graph/run.hpp"
#include "evg/graph/ub_budget.hpp"
#include "evg/graph/validate.hpp"
#include "evg/props/generators.hpp"
#include "evg/props/runner.hpp"
#include "topo_tree.hpp"

using namespace evg;
using namespace evg::props;

namespace {

graph::RunInputs run_inputs(const Case& c, const graph::Graph& g) {
    graph::RunInputs in;
    for (const auto& [name, t] : make_inputs(c)) {
        const auto* b = reinterpret_cast<const uint8_t*>(t.bytes().data());
        in.tensors[name] = std::vector<uint8_t>(b, b + t.bytes().size());
    }
    for (const graph::Tensor& t : g.tensors)
        if (!in.tensors.count(t.name))  // the loads of expand_once: zeros (only their instructions count)
            in.tensors[t.name] = std::vector<uint8_t>(
                static_cast<std::size_t>((t.rows - 1) * t.row_stride + t.cols) * hw::dtype_size(t.element));
    return in;
}

graph::ModelRun run(const Case& c, const graph::Graph& g, uint32_t compute_length) {
    graph::Problem p = c.problem;
    p.graph = g;
    p.compute_length = compute_length;
    graph::RunOptions opt;
    opt.block_dim = c.cores;
    opt.config.scheduler = hw::SchedulerKind::in_order;
    return graph::run_on_model(p, run_inputs(c, g), opt);
}

std::size_t vector_compute_count(const hw::Trace& trace) {
    return static_cast<std::size_t>(std::count_if(trace.begin(), trace.end(), [](const hw::TraceEntry& e) {
        return e.pipe == hw::Pipe::V && e.kind == hw::InstrKind::plain;
    }));
}

int count_kinds(const graph::Graph& g, std::initializer_list<graph::NodeKind> kinds) {
    return static_cast<int>(std::count_if(g.nodes.begin(), g.nodes.end(), [&](const graph::Node& n) {
        return std::find(kinds.begin(), kinds.end(), n.kind) != kinds.end();
    }));
}

bool has_shared(const graph::Graph& g) {
    const std::vector<int64_t> paths = path_counts(g);
    return std::any_of(paths.begin(), paths.end(), [](int64_t p) { return p > 1; });
}

// A graph with an Add node inserted on edge (u, k): the new node sits just before u and adds u's k-th input x
// and w (w < u; w = x allowed), so w, reached through x or directly, gets a second path.
graph::Graph insert_add(const graph::Graph& g, int u, int k, int w) {
    graph::Graph d = g;
    graph::Node add;
    add.kind = graph::NodeKind::Compute;
    add.fn = graph::Functor::Add;
    const int x = g.nodes[static_cast<std::size_t>(u)].inputs[static_cast<std::size_t>(k)];
    add.element = g.nodes[static_cast<std::size_t>(x)].element;
    add.inputs = {x, w};
    for (graph::Node& n : d.nodes)
        for (int& in : n.inputs)
            if (in >= u) ++in;
    d.nodes.insert(d.nodes.begin() + u, add);
    d.nodes[static_cast<std::size_t>(u) + 1].inputs[static_cast<std::size_t>(k)] = u;
    return d;
}

// Most generated graphs share nothing (trees, chains, or nodes left unreachable). Such a graph is made a DAG
// deterministically, by the first of these edits (tried from an offset the case's data seed picks) that
// shares a node and validates for the arch:
//   * rewire one input edge (consumer u, slot k, input x) to another node w < u of x's element type that
//     the root already reaches (w gains a second consumer when it is reached some other way);
//   * else insert Add(x, w) on that edge for a reached w < u of x's element type, x itself included.
// Returns the graph unchanged when it already shares a node, nothing when no edit works.
std::optional<graph::Graph> as_dag(const Case& c) {
    const graph::Graph& g = c.problem.graph;
    if (has_shared(g)) return g;
    const std::vector<int64_t> paths = path_counts(g);
    std::vector<std::array<int, 3>> candidates;  // (u, k, w), x = w included
    for (int u = 0; u <= g.root(); ++u) {
        if (paths[static_cast<std::size_t>(u)] == 0) continue;
        const std::vector<int>& in = g.nodes[static_cast<std::size_t>(u)].inputs;
        for (std::size_t k = 0; k < in.size(); ++k)
            for (int w = 0; w < u; ++w)
                if (paths[static_cast<std::size_t>(w)] > 0 &&
                    g.nodes[static_cast<std::size_t>(w)].element ==
                        g.nodes[static_cast<std::size_t>(in[k])].element)
                    candidates.push_back({u, static_cast<int>(k), w});
    }
    const auto valid = [&](const graph::Graph& d) {
        if (!has_shared(d)) return false;
        const std::vector<graph::Diagnostic> diags = graph::validate(d, c.problem.arch);
        return std::none_of(diags.begin(), diags.end(),
                            [](const graph::Diagnostic& x) { return x.severity == graph::Severity::Error; });
    };
    for (int insert = 0; insert < 2; ++insert)
        for (std::size_t t = 0; t < candidates.size(); ++t) {
            const auto [u, k, w] = candidates[(t + c.data_seed) % candidates.size()];
            const int x = g.nodes[static_cast<std::size_t>(u)].inputs[static_cast<std::size_t>(k)];
            if (!insert && w == x) continue;
            graph::Graph d = g;
            if (insert)
                d = insert_add(g, u, k, w);
            else
                d.nodes[static_cast<std::size_t>(u)].inputs[static_cast<std::size_t>(k)] = w;
            if (valid(d)) return d;
        }
    return std::nullopt;
}

// Tallies "tree issued more" (props::tally, which reaches the outcome from every worker): passing cases in
// which the tree issued more V compute instructions than the DAG (a shared Compute, Cast or broadcast was
// duplicated), the share the property must reach to mean something.
void topological_equals_tree(const Case& generated) {
    const std::optional<graph::Graph> shared = as_dag(generated);
    RC_PRE(shared.has_value());
    Case c = generated;
    c.problem.graph = *shared;
    const graph::Graph& dag = c.problem.graph;
    const std::vector<int64_t> paths = path_counts(dag);
    RC_ASSERT(!graph::is_tree(dag));

    const Expansion tree = expand_tree(dag);
    const Expansion once = expand_once(dag, c.problem.m, c.problem.n);
    RC_ASSERT(graph::is_tree(tree.graph));
    RC_ASSERT(graph::is_tree(once.graph));
    // Without a shared store or reduce the tree holds one copy of every node per path from the root.
    bool impure_shared = false;
    int64_t expanded = 0;
    for (std::size_t i = 0; i < dag.nodes.size(); ++i) {
        expanded += paths[i];
        impure_shared |= paths[i] > 1 && (dag.nodes[i].kind == graph::NodeKind::AuxStore ||
                                          graph::is_reduce(dag.nodes[i].kind));
    }
    if (!impure_shared) RC_ASSERT(static_cast<int64_t>(tree.graph.nodes.size()) == expanded);

    const graph::ArchId arch = c.problem.arch;
    const graph::WorkspacePath path = c.problem.path;
    const uint32_t cl = std::min({c.problem.compute_length, graph::max_compute_length(tree.graph, arch, path),
                                  graph::max_compute_length(once.graph, arch, path),
                                  graph::max_compute_length(dag, arch, path)});
    RC_PRE(cl >= 32u);

    const graph::ModelRun d = run(c, dag, cl);
    const graph::ModelRun t = run(c, tree.graph, cl);
    const graph::ModelRun o = run(c, once.graph, cl);
    if (!d.report.clean()) RC_FAIL("TopologicalVisitor run:\n" + d.report.text());
    if (!t.report.clean()) RC_FAIL("TreeVisitor run:\n" + t.report.text());
    RC_ASSERT(d.outputs.size() == t.outputs.size());
    for (const auto& [name, bytes] : d.outputs) {
        const auto it = t.outputs.find(name);
        RC_ASSERT(it != t.outputs.end());
        if (it->second != bytes) {
            std::size_t at = 0;
            while (at < bytes.size() && bytes[at] == it->second[at]) ++at;
            RC_FAIL(fmt::format("output {} differs between the DAG and its tree at byte {} of {}\ntree:\n{}",
                                name, at, bytes.size(), graph::emit_cpp(tree.graph).text()));
        }
    }

    const std::size_t vd = vector_compute_count(d.trace);
    const std::size_t vt = vector_compute_count(t.trace);
    const std::size_t vo = vector_compute_count(o.trace);
    RC_ASSERT(vd == vo);
    const int computes = count_kinds(tree.graph, {graph::NodeKind::Compute, graph::NodeKind::Cast});
    const int once_computes = count_kinds(once.graph, {graph::NodeKind::Compute, graph::NodeKind::Cast});
    if (computes > once_computes)
        RC_ASSERT(vt > vd);
    else
        RC_ASSERT(vt >= vd);
    if (vt > vd) tally("tree issued more");
}

}  // namespace

TEST(TopoTree, TopologicalVisitorEqualsItsTreeExpansion) {
    RunConfig cfg;
    cfg.cases = scaled_cases(500);
    cfg.seed = env_seed(41);
    cfg.jobs = env_jobs(1);
    cfg.shrink_seconds = 60;
    const Outcome o = check_property("Props/TopoTree", topological_equals_tree, cfg);
    EXPECT_TRUE(o.ok) << o.report;
    const long long tree_issued_more =
        o.tallies.count("tree issued more") ? o.tallies.at("tree issued more") : 0;
    std::cout << "TopoTree: " << o.passed << " DAG cases passed, in " << tree_issued_more
              << " of them the tree issued more V compute instructions than the DAG\n";
    EXPECT_GE(o.passed, cfg.cases);
    EXPECT_GE(tree_issued_more, o.passed / 4);
}

// The expansion itself on a hand-made DAG: X feeds two Adds, the first Add feeds a RowReduce and the root
// Mul twice over, and the reduce is used by the root too.
TEST(TopoTree, ExpansionDuplicatesPureNodesAndKeepsAReduceOnce) {
    graph::Graph g;
    graph::Tensor x{"X", graph::TensorRole::Input, graph::DType::f32, 4, 8, 8, {}};
    graph::Tensor r{"R", graph::TensorRole::Output, graph::DType::f32, 1, 8, 8, {}};
    graph::Tensor dt{"D", graph::TensorRole::Output, graph::DType::f32, 4, 8, 8, {}};
    g.tensors = {x, r, dt};
    auto node = [](graph::NodeKind k, std::vector<int> in, std::string tensor = {}) {
        graph::Node n;
        n.kind = k;
        n.element = graph::DType::f32;
        n.inputs = std::move(in);
        n.tensor = std::move(tensor);
        return n;
    };
    g.nodes = {node(graph::NodeKind::AccLoad, {}),        node(graph::NodeKind::AuxLoad, {}, "X"),
               node(graph::NodeKind::Compute, {0, 1}),    node(graph::NodeKind::RowReduce, {2}, "R"),
               node(graph::NodeKind::Compute, {3, 2, 3}), node(graph::NodeKind::AuxStore, {4}, "D")};
    EXPECT_EQ(path_counts(g), (std::vector<int64_t>{3, 3, 3, 2, 1, 1}));
    const Expansion t = expand_tree(g);
    ASSERT_TRUE(graph::is_tree(t.graph));
    // Post-order: [Acc X Add R] [Acc X Add] [Acc X Add] Mul Store; the second use of R reads its Add.
    EXPECT_EQ(t.source, (std::vector<int>{0, 1, 2, 3, 0, 1, 2, 0, 1, 2, 4, 5}));
    EXPECT_EQ(t.duplicated, 7);  // repeated uses met by the walk, including those under R's second use
    EXPECT_EQ(t.graph.nodes[10].inputs, (std::vector<int>{3, 6, 9}));
    const Expansion o = expand_once(g, 4, 8);
    ASSERT_TRUE(graph::is_tree(o.graph));
    EXPECT_EQ(o.source, (std::vector<int>{0, 1, 2, 3, -1, -1, 4, 5}));
    EXPECT_EQ(o.duplicated, 2);
    ASSERT_EQ(o.graph.tensors.size(), 5u);
    EXPECT_EQ(o.graph.tensors[3].name, "__share3");
    EXPECT_EQ(o.graph.nodes[4].tensor, "__share3");
    EXPECT_EQ(o.graph.nodes[5].tensor, "__share4");
}

// A forward edge (TopologicalVisitor allows them): %1 reads %2, which comes after it.
TEST(TopoTree, PathCountsFollowForwardEdges) {
    graph::Graph g;
    auto node = [](graph::NodeKind k, std::vector<int> in) {
        graph::Node n;
        n.kind = k;
        n.inputs = std::move(in);
        return n;
    };
    g.nodes = {node(graph::NodeKind::AccLoad, {}), node(graph::NodeKind::Compute, {2, 0}),
               node(graph::NodeKind::Compute, {0}), node(graph::NodeKind::AuxStore, {1})};
    EXPECT_EQ(path_counts(g), (std::vector<int64_t>{2, 1, 1, 1}));
    const Expansion t = expand_tree(g);
    EXPECT_EQ(t.source, (std::vector<int>{0, 2, 0, 1, 3}));
    EXPECT_TRUE(graph::is_tree(t.graph));
}
