// Tree expansion of a runtime graph (property 4 of props/README.md): the graph a TreeVisitor runs to compute
// what a TopologicalVisitor computes for a DAG, with every shared subgraph duplicated.
//
// * Only nodes the root reaches take part; the result lists them in post-order (inputs in edge order, then
//   the node), so the root is last and emit_cpp / DynamicVisitor run it as a TreeVisitor nest.
// * Pure nodes (loads, broadcasts, Cast, Compute) reached along several paths are duplicated, once per
//   path.
// * AuxStore and the reduces cannot be duplicated without changing the result (a second store writes
//   twice, a second reduce accumulates twice). They return their input unchanged (docs/evg-semantics.md §5),
//   so the first use of such a node in visit order keeps it and every later use reads a fresh expansion of
//   its input instead: the tensor is written exactly once, and every consumer sees the same values.
//
// expand_once() is the same walk with every repeated use (of any node) replaced by an AuxLoad of a new input
// tensor "__share<i>" of the node's element type and the output shape: it computes each node exactly once,
// like the DAG, and its loads issue no vector compute instruction, so its count of V-pipe compute
// instructions is the DAG's.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "evg/graph/graph.hpp"

namespace evg::props {

struct Expansion {
    graph::Graph graph;
    int duplicated =
        0;  // nodes added by duplication (expand) or repeated uses replaced by loads (expand_once)
    std::vector<int> source;  // for every node of `graph`: the node of the original graph it copies (-1: new)
};

namespace topo_tree_detail {

class Expander {
  public:
    Expander(const graph::Graph& g, bool once, int64_t rows, int64_t cols)
        : g_(g), once_(once), rows_(rows), cols_(cols), uses_(g.nodes.size(), 0) {
        out_.graph.tensors = g.tensors;
    }

    Expansion run() {
        if (!g_.nodes.empty()) visit(g_.root());
        return std::move(out_);
    }

  private:
    int visit(int i) {
        const graph::Node& n = g_.nodes[static_cast<std::size_t>(i)];
        const bool repeated = uses_[static_cast<std::size_t>(i)]++ > 0;
        if (repeated) ++out_.duplicated;
        if (repeated && once_) return share_load(i);
        if (repeated && graph::writes_tensor(n.kind))
            return visit(n.inputs.front());  // the store returns its input: read a copy of the input
        graph::Node copy = n;
        for (int& in : copy.inputs) in = visit(in);
        out_.graph.nodes.push_back(std::move(copy));
        out_.source.push_back(i);
        return static_cast<int>(out_.graph.nodes.size()) - 1;
    }

    int share_load(int i) {
        const graph::Node& n = g_.nodes[static_cast<std::size_t>(i)];
        graph::Tensor t;
        t.name = "__share" + std::to_string(out_.graph.tensors.size());
        t.role = graph::TensorRole::Input;
        t.element = n.element;
        t.rows = rows_;
        t.cols = cols_;
        t.row_stride = cols_;
        out_.graph.tensors.push_back(t);
        graph::Node load;
        load.kind = graph::NodeKind::AuxLoad;
        load.element = n.element;
        load.tensor = t.name;
        out_.graph.nodes.push_back(std::move(load));
        out_.source.push_back(-1);
        return static_cast<int>(out_.graph.nodes.size()) - 1;
    }

    const graph::Graph& g_;
    bool once_;
    int64_t rows_, cols_;
    std::vector<int> uses_;
    Expansion out_;
};

}  // namespace topo_tree_detail

// The tree expansion of `g` (see above).
inline Expansion expand_tree(const graph::Graph& g) {
    return topo_tree_detail::Expander(g, false, 0, 0).run();
}

// The walk that computes each node once, repeated uses loaded from new m x n input tensors "__share<i>".
inline Expansion expand_once(const graph::Graph& g, int64_t m, int64_t n) {
    return topo_tree_detail::Expander(g, true, m, n).run();
}

// Paths from the root to every node (0 for unreachable nodes), saturating at 1 << 30. Edges may point
// either way (TopologicalVisitor allows forward edges); the graph must be acyclic.
inline std::vector<int64_t> path_counts(const graph::Graph& g) {
    const std::size_t count = g.nodes.size();
    std::vector<int64_t> paths(count, 0);
    if (count == 0) return paths;
    // Post-order of the nodes the root reaches; walked in reverse, every consumer comes before its inputs.
    std::vector<int> post;
    std::vector<uint8_t> state(count, 0);  // 0 new, 1 open, 2 done
    std::vector<std::pair<int, std::size_t>> stack{{g.root(), 0}};
    state.back() = 1;
    while (!stack.empty()) {
        auto& [i, next] = stack.back();
        const std::vector<int>& in = g.nodes[static_cast<std::size_t>(i)].inputs;
        if (next < in.size()) {
            const int j = in[next++];
            if (state[static_cast<std::size_t>(j)] == 0) {
                state[static_cast<std::size_t>(j)] = 1;
                stack.emplace_back(j, 0);
            }
            continue;
        }
        state[static_cast<std::size_t>(i)] = 2;
        post.push_back(i);
        stack.pop_back();
    }
    paths[static_cast<std::size_t>(g.root())] = 1;
    for (auto it = post.rbegin(); it != post.rend(); ++it)
        for (int in : g.nodes[static_cast<std::size_t>(*it)].inputs) {
            int64_t& p = paths[static_cast<std::size_t>(in)];
            p = std::min<int64_t>(p + paths[static_cast<std::size_t>(*it)], int64_t{1} << 30);
        }
    return paths;
}

}  // namespace evg::props
