// DynamicVisitor's program: which visitor form the graph takes (tree or topological, as emit_cpp decides),
// the UB carving order, the flattened input lists, and one erased op per node.
#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "dynamic_ops.hpp"
#include "evg/graph/emit_cpp.hpp"
#include "evg/graph/text.hpp"
#include "evg/graph/validate.hpp"

namespace evg::graph::dynamic {

std::vector<int> carve_order(const Graph& g) {
    std::vector<int> order;
    order.reserve(g.nodes.size());
    if (!runs_as_tree(g)) {
        for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i) order.push_back(i);
        return order;
    }
    // Post-order: TreeVisitor<Node, Children...> stores VisitorImpl<Children..., Node>.
    std::vector<std::pair<int, size_t>> stack{{g.root(), 0}};
    while (!stack.empty()) {
        auto& [i, k] = stack.back();
        if (k < g.nodes[i].inputs.size()) {
            const int child = g.nodes[i].inputs[k++];
            stack.emplace_back(child, 0);
        } else {
            order.push_back(i);
            stack.pop_back();
        }
    }
    return order;
}

template <class ArchTag>
std::unique_ptr<NodeOp<ArchTag>> make_node_op(const Node& n, const Tensor* tensor, GM_ADDR ptr) {
    switch (node_kind_info(n.kind).dynamic) {
        case DynamicFamily::Compute:
            return make_compute_op<ArchTag>(n);
        case DynamicFamily::Cast:
            return make_cast_op<ArchTag>(n);
        case DynamicFamily::AccLoad:
            unsupported(
                n, fmt::format("{} is made by the DynamicVisitor instance (it knows ElementC and the path)",
                               node_kind_name(n.kind)));
        case DynamicFamily::Data:
            break;
    }
    if (tensor == nullptr) unsupported(n, "the node has no tensor");
    return make_data_op<ArchTag>(n, *tensor, ptr);
}

template <class ArchTag>
void build_program(Program<ArchTag>& p, const Graph& g, std::span<const GM_ADDR> tensors,
                   uint32_t compute_length, DType element_c, bool use_ub,
                   std::unique_ptr<NodeOp<ArchTag>> (*acc_load)(), std::string_view source) {
    throw_on_error(validate(g, ArchTag::EVG_ARCH));
    if (tensors.size() != g.tensors.size())
        throw GraphError(fmt::format("DynamicVisitor: {} tensor pointers for {} graph tensors",
                                     tensors.size(), g.tensors.size()));
    const int count = static_cast<int>(g.nodes.size());
    p.ops.reserve(count);
    p.input_begin.resize(count);
    p.input_end.resize(count);
    p.store_stage.resize(count);
    p.labels.reserve(count);
    for (int i = 0; i < count; ++i) p.labels.push_back(node_label(g.nodes[i], i, source));
    for (int i = 0; i < count; ++i) {
        const Node& n = g.nodes[i];
        p.input_begin[i] = static_cast<uint32_t>(p.inputs.size());
        p.inputs.insert(p.inputs.end(), n.inputs.begin(), n.inputs.end());
        p.input_end[i] = static_cast<uint32_t>(p.inputs.size());
        p.store_stage[i] = writes_tensor(n.kind);
        if (node_kind_info(n.kind).dynamic == DynamicFamily::AccLoad) {
            if (n.element != element_c || n.use_ub != use_ub)
                throw GraphError(fmt::format(
                    "DynamicVisitor: %{} {} {} {} does not match the kernel's C ({} {} workspace)", i,
                    node_kind_name(n.kind), hw::dtype_name(n.element), n.use_ub ? "UB" : "GM",
                    hw::dtype_name(element_c), use_ub ? "UB" : "GM"));
            p.ops.push_back(acc_load());
            continue;
        }
        const Tensor* tensor = nullptr;
        GM_ADDR ptr = nullptr;
        if (has_tensor(n.kind)) {
            for (size_t t = 0; t < g.tensors.size(); ++t)
                if (g.tensors[t].name == n.tensor) {
                    tensor = &g.tensors[t];
                    ptr = tensors[t];
                }
            if (tensor == nullptr)
                throw GraphError(fmt::format("DynamicVisitor: %{} names no tensor '{}'", i, n.tensor));
        }
        p.ops.push_back(make_node_op<ArchTag>(n, tensor, ptr));
    }
    p.root = g.root();
    p.tree = runs_as_tree(g);
    p.carve_order = carve_order(g);
    const std::vector<UbNodeBuffers> by_node = ub_node_buffers(g);
    p.ub_nodes.clear();
    for (int i : p.carve_order) p.ub_nodes.push_back(by_node[i]);
    p.compute_length = compute_length;
}

// NOLINTBEGIN(bugprone-macro-parentheses): ARCH is a template argument
#define EVG_DYNAMIC_INSTANTIATE(ARCH)                                                                   \
    template std::unique_ptr<NodeOp<ARCH>> make_node_op<ARCH>(const Node&, const Tensor*, GM_ADDR);     \
    template void build_program<ARCH>(Program<ARCH>&, const Graph&, std::span<const GM_ADDR>, uint32_t, \
                                      DType, bool, std::unique_ptr<NodeOp<ARCH>> (*)(), std::string_view);
EVG_DYNAMIC_INSTANTIATE(Catlass::Arch::AtlasA2)
EVG_DYNAMIC_INSTANTIATE(Catlass::Arch::Ascend950)
#undef EVG_DYNAMIC_INSTANTIATE
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace evg::graph::dynamic
