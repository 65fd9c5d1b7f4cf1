// The output comparison and the flag balance of checks.hpp.
#include "evg/props/checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <utility>

#include "evg/oracle/compare.hpp"
#include "evg/oracle/data.hpp"
#include "evg/oracle/numeric.hpp"
#include "evg/oracle/tolerance.hpp"

namespace evg::props {

using graph::DType;
using graph::Functor;
using graph::NodeKind;

namespace {

oracle::HostTensor host(DType t, const std::vector<uint8_t>& bytes) {
    oracle::HostTensor h(t, bytes.size() / static_cast<std::size_t>(oracle::dtype_bytes(t)));
    std::copy(bytes.begin(), bytes.end(), reinterpret_cast<uint8_t*>(h.bytes().data()));
    return h;
}

oracle::Region region(const graph::Tensor& t) {
    return {t.rows, t.cols, t.row_stride > 0 ? t.row_stride : t.cols};
}

}  // namespace

bool exact_friendly(DataMode data, const graph::Problem& p, const oracle::OracleResult& golden) {
    if (data != DataMode::Exact) return false;
    const auto& nodes = p.graph.nodes;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const graph::Node& n = nodes[i];
        if (!graph::is_reduce(n.kind) || n.fn != Functor::Add || !golden.nodes[i].evaluated) continue;
        const oracle::Values& v = golden.nodes[static_cast<std::size_t>(n.inputs[0])].values;
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
        if (nodes[i].tensor == tensor && golden.nodes[i].evaluated &&
            (nodes[i].kind == NodeKind::AuxStore || graph::is_reduce(nodes[i].kind)))
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
                            const graph::Tensor& t, const graph::ModelRun& run) {
    const graph::Node& n = p.graph.nodes[static_cast<std::size_t>(writer)];
    const oracle::Values& x = golden.nodes[static_cast<std::size_t>(n.inputs[0])].values;
    const oracle::HostTensor got = host(t.element, run.outputs.at(t.name));
    const oracle::HostTensor& want = golden.output(t.name);
    const oracle::Real u = t.element == DType::f32   ? std::ldexp(oracle::Real{1}, -24)
                           : t.element == DType::f16 ? std::ldexp(oracle::Real{1}, -11)
                                                     : std::ldexp(oracle::Real{1}, -8);
    const oracle::Real rtol = oracle::catlass_rtol(p.k);
    const oracle::Real maxf = oracle::dtype_max(t.element);
    std::string bad;
    int reported = 0;
    const int64_t outs = n.kind == NodeKind::RowReduce ? p.n : n.kind == NodeKind::ColReduce ? p.m : 1;
    const int64_t stride = t.row_stride > 0 ? t.row_stride : t.cols;
    for (int64_t e = 0; e < outs; ++e) {
        oracle::Real s = 0;
        int64_t terms = 1;
        bool nan = false, pinf = false, ninf = false;
        for (int64_t i = 0; i < p.m; ++i)
            for (int64_t j = 0; j < p.n; ++j) {
                const bool in = n.kind == NodeKind::RowReduce   ? j == e
                                : n.kind == NodeKind::ColReduce ? i == e
                                                                : true;
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
        const std::size_t idx = static_cast<std::size_t>(n.kind == NodeKind::ColReduce ? e * stride : e);
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
            if ((golden.nodes[static_cast<std::size_t>(in)].values < lim).any()) hit[i] = true;
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

OutputComparison compare_outputs(const graph::Problem& p, const graph::ModelRun& run,
                                 const oracle::OracleResult& golden, bool exact) {
    OutputComparison out;
    const std::vector<bool> overflowed = overflow_domain_nodes(p, golden);
    for (const graph::Tensor* t : written_outputs(p, golden)) {
        const int w = writer_of(p, golden, t->name);
        if (run.outputs.find(t->name) == run.outputs.end()) {
            out.mismatch += fmt::format("output {} was not read back\n", t->name);
            continue;
        }
        if (depends_on(p.graph, w, overflowed)) {
            ++out.not_compared;
            continue;
        }
        if (order_dependent(p, w, exact)) {
            out.mismatch += check_sum_bound(p, golden, w, *t, run);
            continue;
        }
        const oracle::ComparePlan plan = oracle::plan_comparison(p, t->name, exact);
        const oracle::CompareResult cr = oracle::compare(t->name, host(t->element, run.outputs.at(t->name)),
                                                         golden.output(t->name), region(*t), plan.options);
        out.worst_ulp = std::max(out.worst_ulp, static_cast<double>(cr.max_ulp));
        if (!cr.ok()) out.mismatch += cr.to_string(plan.options.mode) + " (" + plan.reason + ")\n";
    }
    return out;
}

std::string compare_runs(const graph::Problem& p, const graph::ModelRun& a, const graph::ModelRun& b,
                         const oracle::OracleResult& golden, bool exact) {
    std::string bad;
    for (const graph::Tensor* t : written_outputs(p, golden)) {
        const int w = writer_of(p, golden, t->name);
        if (order_dependent(p, w, exact)) {
            bad += check_sum_bound(p, golden, w, *t, a);
            bad += check_sum_bound(p, golden, w, *t, b);
            continue;
        }
        const oracle::CompareResult cr =
            oracle::compare(t->name, host(t->element, b.outputs.at(t->name)),
                            host(t->element, a.outputs.at(t->name)), region(*t), oracle::bit_exact());
        if (!cr.ok()) bad += cr.to_string(oracle::CompareMode::BitExact) + "\n";
    }
    return bad;
}

std::string unbalanced_flags(const std::vector<hw::TraceEntry>& trace) {
    static const std::regex re(R"(^(SetFlag|WaitFlag)<(\w+)>\((\d+)\))");
    std::map<std::string, std::pair<int, int>> counts;
    for (const hw::TraceEntry& e : trace) {
        std::smatch m;
        if (!std::regex_search(e.op, m, re)) continue;
        auto& [sets, waits] = counts[fmt::format("core{} {}({})", e.core, m[2].str(), m[3].str())];
        (m[1] == "SetFlag" ? sets : waits)++;
    }
    std::string bad;
    for (const auto& [k, sw] : counts)
        if (sw.first != sw.second) bad += fmt::format("{}: {} sets, {} waits\n", k, sw.first, sw.second);
    return bad;
}

}  // namespace evg::props
