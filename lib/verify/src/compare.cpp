// The comparison rules of compare.hpp: exact-friendliness, the summation bound, the Silu/Sigmoid overflow
// domain. The sentinel scan and compare_outputs / compare_runs are in
// outputs.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "evg/hw/error.hpp"
#include "evg/oracle/compare.hpp"
#include "evg/oracle/data.hpp"
#include "evg/oracle/numeric.hpp"
#include "evg/oracle/tolerance.hpp"
#include "evg/verify/compare.hpp"
#include "host_bytes.hpp"

namespace evg::verify {

using graph::DType;
using graph::Functor;
using graph::NodeKind;

namespace {

// The values of node `i` from the oracle; they must not have been released (values_the_judge_reads).
const oracle::Values& values_of(const oracle::OracleResult& golden, int i) {
    const oracle::NodeValue& v = golden.nodes[static_cast<std::size_t>(i)];
    if (v.released)
        throw evg::Error(
            fmt::format("verify: the oracle released the values of node %{} that the judge reads; "
                        "evaluate with keep_values = verify::values_the_judge_reads(problem)",
                        i));
    return v.values;
}

}  // namespace

std::vector<bool> values_the_judge_reads(const graph::Problem& p) {
    const auto& nodes = p.graph.nodes;
    std::vector<bool> keep(nodes.size(), false);
    auto mark = [&](int i) {
        if (i >= 0 && static_cast<std::size_t>(i) < keep.size()) keep[static_cast<std::size_t>(i)] = true;
    };
    for (const graph::Node& n : nodes) {
        if (graph::is_reduce(n.kind) && n.fn == Functor::Add && !n.inputs.empty()) mark(n.inputs[0]);
        if (n.kind == NodeKind::Compute && (n.fn == Functor::Silu || n.fn == Functor::Sigmoid))
            for (int in : n.inputs) mark(in);
    }
    return keep;
}

bool exact_friendly(bool exact_data, const graph::Problem& p, const oracle::OracleResult& golden) {
    if (!exact_data) return false;
    const auto& nodes = p.graph.nodes;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const graph::Node& n = nodes[i];
        if (!graph::is_reduce(n.kind) || n.fn != Functor::Add || !golden.nodes[i].evaluated) continue;
        const oracle::Values& v = values_of(golden, n.inputs[0]);
        oracle::Real total = 0;
        for (Eigen::Index k = 0; k < v.size(); ++k) {
            const oracle::Real x = v(k);
            if (!std::isfinite(static_cast<double>(x)) || x != std::floor(x)) return false;
            total += std::fabs(x);
        }
        if (total > oracle::max_exact_integer(n.element)) return false;
    }
    return true;
}

int writer_of(const graph::Problem& p, const oracle::OracleResult& golden, const std::string& tensor) {
    const auto& nodes = p.graph.nodes;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].tensor == tensor && golden.nodes[i].evaluated && graph::writes_tensor(nodes[i].kind))
            return static_cast<int>(i);
    return -1;
}

std::vector<const graph::Tensor*> written_outputs(const graph::Problem& p,
                                                  const oracle::OracleResult& golden) {
    std::vector<const graph::Tensor*> out;
    for (const graph::Tensor& t : p.graph.tensors)
        if (t.role == graph::TensorRole::Output && writer_of(p, golden, t.name) >= 0) out.push_back(&t);
    return out;
}

bool order_dependent(const graph::Problem& p, int writer, bool exact) {
    const graph::Node& n = p.graph.nodes[static_cast<std::size_t>(writer)];
    return !exact && graph::is_reduce(n.kind) && n.fn == Functor::Add;
}

std::string check_sum_bound(const graph::Problem& p, const oracle::OracleResult& golden, int writer,
                            const graph::Tensor& t, const std::vector<uint8_t>& got_bytes) {
    const graph::Node& n = p.graph.nodes[static_cast<std::size_t>(writer)];
    const oracle::Values& x = values_of(golden, n.inputs[0]);
    const oracle::HostTensor got = host(t.element, got_bytes);
    const oracle::HostTensor& want = golden.output(t.name);
    const oracle::Real u = t.element == DType::f32   ? std::ldexp(oracle::Real{1}, -24)
                           : t.element == DType::f16 ? std::ldexp(oracle::Real{1}, -11)
                                                     : std::ldexp(oracle::Real{1}, -8);
    const oracle::Real rtol = oracle::catlass_rtol(p.k);
    const oracle::Real maxf = oracle::dtype_max(t.element);
    std::string bad;
    int reported = 0;
    // The output's shape is the kind's ([1, n], [m, 1] or [1, 1]): one element per column kept, per row kept.
    const graph::NodeKindInfo& kind = graph::node_kind_info(n.kind);
    const bool per_row = kind.rows == graph::TensorExtent::Problem;
    const bool per_col = kind.cols == graph::TensorExtent::Problem;
    const int64_t outs = per_col ? p.n : per_row ? p.m : 1;
    const int64_t stride = t.row_stride > 0 ? t.row_stride : t.cols;
    for (int64_t e = 0; e < outs; ++e) {
        oracle::Real s = 0;
        int64_t terms = 1;
        bool nan = false, pinf = false, ninf = false;
        for (int64_t i = 0; i < p.m; ++i)
            for (int64_t j = 0; j < p.n; ++j) {
                const bool in = per_col ? j == e : per_row ? i == e : true;
                if (!in) continue;
                const oracle::Real v = x(i, j);
                if (std::isnan(v))
                    nan = true;
                else if (std::isinf(v))
                    (v > 0 ? pinf : ninf) = true;
                else
                    s += std::fabs(v);
                ++terms;
            }
        // (1, N) dense; (M, 1) at the row stride (dense when the tensor has none); (1, 1) element 0.
        const std::size_t idx = static_cast<std::size_t>(per_row ? e * stride : e);
        const oracle::Real g = want.value(idx);
        const oracle::Real v = got.value(idx);
        std::string why;
        if (nan || (pinf && ninf)) {
            if (!std::isnan(v)) why = "a NaN term or both infinities must give NaN";
        } else if (s > maxf) {
            // partial sums may overflow in some order: any result
        } else if (pinf || ninf) {
            if (!(std::isinf(v) && (v > 0) == pinf)) why = "one infinite term must give that infinity";
        } else {
            const oracle::Real tol = 2 * terms * u * s + rtol * s;
            if (!std::isfinite(v) || std::fabs(v - g) > tol)
                why = fmt::format("|out - golden| above the summation bound {}", static_cast<double>(tol));
        }
        if (!why.empty() && reported++ < 8)
            bad += fmt::format("  {}[{}]: out {} golden {} (S = {}): {}\n", t.name, e, static_cast<double>(v),
                               static_cast<double>(g), static_cast<double>(s), why);
    }
    return bad;
}

std::vector<bool> overflow_domain_nodes(const graph::Problem& p, const oracle::OracleResult& golden) {
    const auto& nodes = p.graph.nodes;
    std::vector<bool> hit(nodes.size(), false);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const graph::Node& n = nodes[i];
        if (n.kind != NodeKind::Compute || !golden.nodes[i].evaluated ||
            (n.fn != Functor::Silu && n.fn != Functor::Sigmoid))
            continue;
        const oracle::Real lim = -std::log(oracle::dtype_max(n.element));
        for (int in : n.inputs)
            if ((values_of(golden, in) < lim).any()) hit[i] = true;
    }
    return hit;
}

bool depends_on(const graph::Graph& g, int node, const std::vector<bool>& set) {
    std::vector<int> stack{node};
    std::vector<bool> seen(g.nodes.size(), false);
    while (!stack.empty()) {
        const int i = stack.back();
        stack.pop_back();
        if (seen[static_cast<std::size_t>(i)]) continue;
        seen[static_cast<std::size_t>(i)] = true;
        if (set[static_cast<std::size_t>(i)]) return true;
        for (int in : g.nodes[static_cast<std::size_t>(i)].inputs) stack.push_back(in);
    }
    return false;
}

}  // namespace evg::verify
