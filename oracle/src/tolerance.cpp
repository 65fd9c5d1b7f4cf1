#include "evg/oracle/tolerance.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "evg/hw/error.hpp"

namespace evg::oracle {
namespace {

using graph::Functor;
using graph::Node;
using graph::NodeKind;

// How far a node's value may be from the oracle's.
struct Closeness {
    enum Kind { Exact, Ulp, Loose } kind = Exact;
    std::uint64_t ulp = 0;  // Ulp: bound in ULPs of the node's element type
    std::string why;  // Ulp and Loose: the node that made it so, in words (the comparison's stated reason)
    static Closeness exact() { return {Exact, 0, {}}; }
    static Closeness within(std::uint64_t u, std::string why) { return {Ulp, u, std::move(why)}; }
    static Closeness loose(std::string why) { return {Loose, 0, std::move(why)}; }
};

Closeness worst(const Closeness& a, const Closeness& b) {
    if (a.kind != b.kind) return a.kind > b.kind ? a : b;
    return a.ulp >= b.ulp ? a : b;
}

class Planner {
  public:
    Planner(const graph::Problem& p, bool exact_friendly) : p_(p), exact_friendly_(exact_friendly) {
        memo_.resize(p.graph.nodes.size());
    }

    Closeness of(int idx) {
        auto& slot = memo_[static_cast<std::size_t>(idx)];
        if (!slot) {
            slot = Closeness::loose("the graph has a cycle");  // refused by evaluate anyway
            slot = compute(idx, node(idx));
        }
        return *slot;
    }

    // Reachable nodes from the root, for finding the writers.
    std::vector<int> reachable() const {
        std::vector<int> out;
        if (p_.graph.nodes.empty()) return out;
        std::vector<bool> seen(p_.graph.nodes.size());
        std::vector<int> stack{p_.graph.root()};
        while (!stack.empty()) {
            const int v = stack.back();
            stack.pop_back();
            if (v < 0 || v >= static_cast<int>(seen.size()) || seen[static_cast<std::size_t>(v)]) continue;
            seen[static_cast<std::size_t>(v)] = true;
            out.push_back(v);
            for (int e : node(v).inputs) stack.push_back(e);
        }
        return out;
    }

    const Node& node(int idx) const { return p_.graph.nodes[static_cast<std::size_t>(idx)]; }

    bool sums_exact() const { return exact_friendly_; }

  private:
    Closeness input(const Node& n, std::size_t i) {
        const int e = n.inputs[i];
        if (e < 0 || e >= static_cast<int>(memo_.size())) return Closeness::loose("an input edge is invalid");
        return of(e);
    }

    static std::string label(int idx, const Node& n) {
        std::string s = fmt::format("%{} {}", idx, graph::node_kind_name(n.kind));
        if (n.kind == NodeKind::Compute) s += fmt::format(" {}", graph::functor_name(n.fn));
        return s;
    }

    Closeness compute(int idx, const Node& n) {
        switch (n.kind) {
            case NodeKind::AccLoad:
                if (exact_friendly_ || p_.k <= 1) return Closeness::exact();
                // exact_friendly_ is about the whole run's data (verify::exact_friendly): A and B may be
                // integers while other inputs carry special values, so the sentence claims nothing about A
                // and B.
                return Closeness::loose(fmt::format(
                    "the data is not exact-friendly, so the GEMM result C (a sum of K = {} products, "
                    "accumulated in float by the cube) is held to Catlass's tolerance",
                    p_.k));
            case NodeKind::AuxLoad:
            case NodeKind::RowBroadcast:
            case NodeKind::ColBroadcast:
            case NodeKind::ScalarBroadcast:
                return Closeness::exact();
            case NodeKind::AuxStore:
            case NodeKind::RowReduce:
            case NodeKind::ColReduce:
            case NodeKind::ScalarReduce:  // all four pass their input on
                return n.inputs.empty() ? Closeness::loose(label(idx, n) + " has no input") : input(n, 0);
            case NodeKind::Cast: {
                if (n.inputs.empty()) return Closeness::loose(label(idx, n) + " has no input");
                Closeness x = input(n, 0);
                if (x.kind != Closeness::Ulp) return x;
                // rounding is monotone, so a narrower float grid cannot separate two values further
                const bool narrowing_float =
                    is_float_dtype(n.element) && is_float_dtype(n.from) &&
                    float_format(n.element).precision <= float_format(n.from).precision;
                if (narrowing_float) return x;
                return Closeness::loose(
                    fmt::format("{} widens or converts to an integer a value within {} ULP ({})",
                                label(idx, n), x.ulp, x.why));
            }
            case NodeKind::Compute: {
                for (std::size_t i = 0; i < n.inputs.size(); ++i) {
                    Closeness x = input(n, i);
                    if (x.kind == Closeness::Loose) return x;  // the first cause stays the reason
                    if (x.kind == Closeness::Ulp)
                        return Closeness::loose(
                            fmt::format("{} computes further on a value within {} ULP ({})", label(idx, n),
                                        x.ulp, x.why));
                }
                if (!is_transcendental(n.fn)) return Closeness::exact();
                const std::uint64_t u = functor_ulp_bound(n.fn, static_cast<int>(n.inputs.size()));
                return Closeness::within(
                    u, fmt::format("{} is within {} ULP of the exact result", label(idx, n), u));
            }
        }
        return Closeness::loose(label(idx, n) + " is of an unknown kind");
    }

    const graph::Problem& p_;
    bool exact_friendly_;
    std::vector<std::optional<Closeness>> memo_;
};

}  // namespace

bool is_transcendental(Functor fn) {
    switch (fn) {
        case Functor::Exp:
        case Functor::Silu:
        case Functor::Sigmoid:
        case Functor::Rsqrt:
        case Functor::RsqrtFast:
        case Functor::Sqrt:
        case Functor::Reciprocal:
        case Functor::Div:
            return true;
        default:
            return false;
    }
}

std::uint64_t functor_ulp_bound(Functor fn, int inputs) {
    switch (fn) {
        case Functor::Exp:
        case Functor::Sqrt:
        case Functor::Reciprocal:
            return 1;
        case Functor::Div: {
            std::uint64_t b = 0;  // b ULPs after each division: 2b + 1
            for (int i = 1; i < std::max(inputs, 2); ++i) b = 2 * b + 1;
            return b;
        }
        case Functor::RsqrtFast:
            return 2;
        case Functor::Rsqrt:
        case Functor::Sigmoid:
            return 3;
        case Functor::Silu:
            return 4;
        default:
            return 0;
    }
}

ComparePlan plan_comparison(const graph::Problem& problem, std::string_view output,
                            bool exact_friendly_data) {
    const graph::Tensor* t = problem.graph.find_tensor(output);
    if (t == nullptr || t->role != graph::TensorRole::Output)
        throw evg::Error(fmt::format("oracle: the graph has no output tensor \"{}\"", output));

    Planner planner(problem, exact_friendly_data);
    Closeness c = Closeness::exact();
    for (int w : planner.reachable()) {
        const Node& n = planner.node(w);
        if (!graph::writes_tensor(n.kind) || n.tensor != output) continue;
        Closeness x = planner.of(w);
        if (graph::is_reduce(n.kind) && n.fn == Functor::Add && x.kind != Closeness::Loose) {
            // a sum of many values: exact only when the data keeps every partial sum exact
            if (x.kind == Closeness::Ulp)
                x = Closeness::loose(fmt::format("%{} {} sums values within {} ULP ({})", w,
                                                 graph::node_kind_name(n.kind), x.ulp, x.why));
            else if (!planner.sums_exact())
                x = Closeness::loose(fmt::format(
                    "%{} {} sums real values, whose order across tiles and cores (GM atomics) is not fixed",
                    w, graph::node_kind_name(n.kind)));
        }
        c = worst(c, x);
    }

    ComparePlan plan;
    switch (c.kind) {
        case Closeness::Exact:
            plan.options = bit_exact();
            plan.reason =
                fmt::format("{}: no transcendental functor and no order-dependent sum feeds it", output);
            break;
        case Closeness::Ulp:
            plan.options = within_ulp(c.ulp);
            plan.reason = fmt::format("{}: {}, and only rounding nodes follow; {} ULP", output, c.why, c.ulp);
            break;
        case Closeness::Loose:
            plan.options = catlass_rule(problem.k);
            plan.reason =
                fmt::format("{}: {}; Catlass rule rtol 1/{}", output, c.why, problem.k < 2048 ? 256 : 128);
            break;
    }
    return plan;
}

}  // namespace evg::oracle
