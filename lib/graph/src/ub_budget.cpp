#include "evg/graph/ub_budget.hpp"

#include <fmt/format.h>

namespace evg::graph {

namespace ub = Catlass::Epilogue::Fusion::UbAccounting;

namespace {

ub::NodeClass node_class(const Node& n) {
    const NodeKindInfo& info = node_kind_info(n.kind);
    return n.use_ub ? info.ub_use_ub : info.ub;
}

uint64_t base_for(ArchId arch, WorkspacePath path) {
    return ub::base_offset(path == WorkspacePath::UB, hw::arch_spec(arch).l0c_size);
}

}  // namespace

std::vector<UbNodeBuffers> ub_node_buffers(const Graph& g) {
    std::vector<UbNodeBuffers> out;
    out.reserve(g.nodes.size());
    // Cast buffers hold ElementTo and Compute buffers ElementCompute: both are Node::element.
    for (const Node& n : g.nodes)
        out.push_back(ub::node_buffers(node_class(n), static_cast<uint32_t>(hw::dtype_size(n.element))));
    return out;
}

UbBudget ub_budget(const Graph& g, ArchId arch, WorkspacePath path, uint32_t compute_length) {
    const auto nodes = ub_node_buffers(g);
    UbBudget b;
    b.compute_length = compute_length;
    b.bytes_per_element = ub::bytes_per_element(nodes);
    b.bytes_per_set = ub::bytes_per_set(nodes, compute_length);
    b.base = base_for(arch, path);
    b.end = ub::ub_end(nodes, compute_length, b.base);
    b.ub_size = hw::arch_spec(arch).ub_size;
    b.max_compute_length = ub::max_compute_length(nodes, b.base, b.ub_size);
    return b;
}

uint32_t max_compute_length(const Graph& g, ArchId arch, WorkspacePath path) {
    return ub::max_compute_length(ub_node_buffers(g), base_for(arch, path), hw::arch_spec(arch).ub_size);
}

std::string ub_overflow_message(const UbBudget& b, ArchId arch, WorkspacePath path) {
    std::string from = path == WorkspacePath::UB
                           ? fmt::format(" from offset {} (UB workspace path: C occupies [0, L0C_SIZE/2))",
                                         thousands(b.base))
                           : std::string();
    std::string hint = b.max_compute_length > 0
                           ? fmt::format("the largest computeLength that fits is {}", b.max_compute_length)
                           : std::string("no computeLength fits");
    return fmt::format("computeLength {} needs {} B of UB per buffer set x 2 sets{} = {} B; {} has {} B ({})",
                       b.compute_length, thousands(b.bytes_per_set), from, thousands(b.end),
                       hw::arch_name(arch), thousands(b.ub_size), hint);
}

}  // namespace evg::graph
