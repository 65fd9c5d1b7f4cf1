#include "evg/graph/graph.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace evg::graph {
namespace {

bool same_scalar(double a, double b) {
    return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b) || (std::isnan(a) && std::isnan(b));
}

}  // namespace

bool operator==(const Node& a, const Node& b) {
    if (a.kind != b.kind || a.element != b.element || a.inputs != b.inputs) return false;
    // The fields the kind's text syntax carries (node_kind.hpp).
    switch (node_kind_info(a.kind).syntax) {
        case NodeSyntax::Workspace:
            return a.use_ub == b.use_ub;
        case NodeSyntax::Cast:
            return a.from == b.from && a.round == b.round;
        case NodeSyntax::FunctorScalars:
            if (a.fn != b.fn || a.scalars.size() != b.scalars.size()) return false;
            for (std::size_t i = 0; i < a.scalars.size(); ++i)
                if (!same_scalar(a.scalars[i], b.scalars[i])) return false;
            return true;
        case NodeSyntax::FunctorTensor:
            return a.fn == b.fn && a.tensor == b.tensor;
        case NodeSyntax::Tensor:
            return a.tensor == b.tensor;
    }
    return true;
}

std::string_view tensor_role_name(TensorRole r) {
    return r == TensorRole::Input ? "input" : "output";
}

// Both saturate at the largest uint64_t: a size past it is one no allocation can meet, and an estimate
// (tools/evgcheck/estimate.cpp) still reads it as too big rather than as a wrapped small number.
uint64_t buffer_elements(const Tensor& t) {
    if (t.rows <= 0 || t.cols <= 0) return 0;
    uint64_t rows_before = 0, elems = 0;
    if (__builtin_mul_overflow(static_cast<uint64_t>(t.rows - 1),
                               static_cast<uint64_t>(std::max(t.row_stride, t.cols)), &rows_before) ||
        __builtin_add_overflow(rows_before, static_cast<uint64_t>(t.cols), &elems))
        return std::numeric_limits<uint64_t>::max();
    return elems;
}

uint64_t buffer_bytes(const Tensor& t) {
    uint64_t bytes = 0;
    if (__builtin_mul_overflow(buffer_elements(t), static_cast<uint64_t>(hw::dtype_size(t.element)), &bytes))
        return std::numeric_limits<uint64_t>::max();
    return bytes;
}

const Tensor* Graph::find_tensor(std::string_view name) const {
    for (const auto& t : tensors)
        if (t.name == name) return &t;
    return nullptr;
}

std::string_view workspace_path_name(WorkspacePath p) {
    return p == WorkspacePath::GM ? "gm" : "ub";
}

std::string_view mmad_policy_name(MmadPolicy p) {
    return p == MmadPolicy::Pingpong ? "pingpong" : "pingpong_mutex";
}

std::string_view matrix_layout_name(MatrixLayout l) {
    return l == MatrixLayout::RowMajor ? "row" : "col";
}

void drop_unreachable_writers(Graph& g) {
    if (g.nodes.empty()) return;
    const int n = static_cast<int>(g.nodes.size());
    std::vector<char> reach(static_cast<size_t>(n), 0);
    std::vector<int> todo{g.root()};
    reach[static_cast<size_t>(g.root())] = 1;
    while (!todo.empty()) {
        const int v = todo.back();
        todo.pop_back();
        for (int in : g.nodes[static_cast<size_t>(v)].inputs)
            if (!reach[static_cast<size_t>(in)]) {
                reach[static_cast<size_t>(in)] = 1;
                todo.push_back(in);
            }
    }
    std::vector<char> drop(static_cast<size_t>(n), 0);
    for (int i = 0; i < n; ++i) {  // inputs come first
        const Node& x = g.nodes[static_cast<size_t>(i)];
        if (reach[static_cast<size_t>(i)]) continue;
        bool d = writes_tensor(x.kind);
        for (int in : x.inputs) d = d || drop[static_cast<size_t>(in)];
        drop[static_cast<size_t>(i)] = d ? 1 : 0;
    }
    std::vector<int> index(static_cast<size_t>(n), -1);
    std::vector<Node> kept;
    for (int i = 0; i < n; ++i)
        if (!drop[static_cast<size_t>(i)]) {
            index[static_cast<size_t>(i)] = static_cast<int>(kept.size());
            kept.push_back(g.nodes[static_cast<size_t>(i)]);
        }
    if (kept.size() == g.nodes.size()) return;
    for (Node& x : kept)
        for (int& in : x.inputs) in = index[static_cast<size_t>(in)];
    g.nodes = std::move(kept);
    std::erase_if(g.tensors, [&](const Tensor& t) {
        if (t.role != TensorRole::Output) return false;
        for (const Node& x : g.nodes)
            if (has_tensor(x.kind) && x.tensor == t.name) return false;
        return true;
    });
}

Problem with_shape(const Problem& p, int64_t m, int64_t n, int64_t k) {
    Problem out = p;
    out.m = m;
    out.n = n;
    out.k = k;
    for (Tensor& t : out.graph.tensors) {
        const int64_t pad = t.row_stride - t.cols;
        for (const Node& node : out.graph.nodes) {
            if (!has_tensor(node.kind) || node.tensor != t.name) continue;
            const NodeKindInfo& info = node_kind_info(node.kind);
            t.rows = info.rows == TensorExtent::Problem ? m : 1;
            t.cols = info.cols == TensorExtent::Problem ? n : 1;
            t.row_stride = t.cols + pad;
            break;
        }
    }
    return out;
}

}  // namespace evg::graph
