#include "evg/graph/implementation.hpp"

#include <fmt/format.h>

#include "evg/graph/kernel_config.hpp"
#include "evg/graph/text.hpp"

namespace evg::graph {
namespace {

std::string kinds_of(Implementation impl) {
    std::string out;
    for (const NodeKindInfo& k : all_node_kinds())
        if (implements(impl, k.kind)) out += fmt::format("{}{}", out.empty() ? "" : ", ", k.name);
    return out;
}

std::string functors_of(Implementation impl) {
    std::string out;
    for (const FunctorInfo& f : all_functors())
        if (implements(impl, f.fn)) out += fmt::format("{}{}", out.empty() ? "" : ", ", f.name);
    return out;
}

std::string_view catlass_of(Implementation impl) {
    return impl == Implementation::upstream ? "upstream Catlass" : "evgcheck's Catlass";
}

}  // namespace

std::string_view implementation_name(Implementation impl) {
    return impl == Implementation::upstream ? "upstream" : "evgcheck";
}

std::optional<Implementation> implementation_from_name(std::string_view name) {
    for (Implementation impl : {Implementation::evgcheck, Implementation::upstream})
        if (implementation_name(impl) == name) return impl;
    return std::nullopt;
}

bool implements(Implementation impl, NodeKind kind) {
    return impl == Implementation::evgcheck || node_kind_info(kind).in_upstream;
}

bool implements(Implementation impl, Functor fn) {
    return impl == Implementation::evgcheck || functor_info(fn).in_upstream;
}

bool implements(Implementation impl, ArchId arch) {
    return impl == Implementation::evgcheck || arch == ArchId::Ascend950;
}

std::optional<std::string> first_missing(Implementation impl, const Graph& g, std::string_view source) {
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        const Node& n = g.nodes[i];
        const std::string label = node_label(n, static_cast<int>(i), source);
        if (!implements(impl, n.kind))
            return fmt::format("{}: {} has no {} node (its nodes: {})", label, catlass_of(impl),
                               node_kind_name(n.kind), kinds_of(impl));
        if (n.kind == NodeKind::Compute && !implements(impl, n.fn))
            return fmt::format("{}: {} has no {} functor (its functors: {})", label, catlass_of(impl),
                               functor_name(n.fn), functors_of(impl));
    }
    return std::nullopt;
}

std::optional<std::string> first_missing(Implementation impl, const Problem& p, std::string_view source) {
    if (!implements(impl, p.arch))
        return fmt::format(
            "arch {}: {} has its Epilogue Visitor Graph on Ascend950 only (the EVG BlockEpilogue "
            "is compiled for CATLASS_ARCH 3510)",
            hw::arch_name(p.arch), catlass_of(impl));
    if (impl == Implementation::evgcheck && !(p.kernel == KernelConfig{}))
        return fmt::format(
            "kernel configuration {}: {} runs one configuration ({}); another is upstream's alone",
            kernel_config_summary(p.kernel), catlass_of(impl), kernel_config_summary(KernelConfig{}));
    return first_missing(impl, p.graph, source);
}

std::vector<int> stores_of_loads(const Graph& g) {
    const int count = static_cast<int>(g.nodes.size());
    // reads_load[i]: node i's buffer is a load's (a load itself, or a store of such a buffer).
    std::vector<bool> reads_load(g.nodes.size(), false);
    std::vector<int> out;
    for (int i = 0; i < count; ++i) {  // inputs come before their users
        const Node& n = g.nodes[static_cast<std::size_t>(i)];
        if (node_kind_info(n.kind).max_inputs == 0) {
            reads_load[static_cast<std::size_t>(i)] = true;
            continue;
        }
        if (n.kind != NodeKind::AuxStore || n.inputs.empty()) continue;
        const int owner = n.inputs.front();
        if (owner < 0 || owner >= i || !reads_load[static_cast<std::size_t>(owner)]) continue;
        reads_load[static_cast<std::size_t>(i)] = true;
        out.push_back(i);
    }
    return out;
}

std::optional<std::string> known_hazard(Implementation impl, const Graph& g, std::string_view source) {
    if (impl != Implementation::upstream) return std::nullopt;
    const std::vector<int> stores = stores_of_loads(g);
    if (stores.empty()) return std::nullopt;
    const int i = stores.front();
    const Node& n = g.nodes[static_cast<std::size_t>(i)];
    const int owner = n.inputs.front();
    return fmt::format(
        "{} stores the buffer of {} directly: upstream Catlass orders the next load into that buffer after "
        "the "
        "compute stage only, not after this store (a race on the UB; docs/upstream-findings.md §4)",
        node_label(n, i, source), node_label(g.nodes[static_cast<std::size_t>(owner)], owner, source));
}

}  // namespace evg::graph
