// TreeVisitor<NodeOp, ChildOps...> and its alias EVG<...> (docs/evg-semantics.md §3.3).
//
// The parent is listed first, but the ops are stored children first, parent last: VisitorImpl<ChildOps...,
// NodeOp>. Hence Arguments = {children's Arguments in order..., parent's Arguments}, nested per level, and UB
// is carved in post-order (children, then the parent). visit<Stage> visits every child in order with the tile
// arguments and the caller's extra inputs, then the parent with the children's outputs in child order, and
// returns the parent's output. Upstream leaves both orders to constructor-argument evaluation (§11.2 item 9);
// here both are braced lists, which C++ evaluates left to right.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>

#include "catlass/arch/resource.hpp"
#include "catlass/coord.hpp"
#include "catlass/epilogue/fusion/compute_length.hpp"
#include "catlass/epilogue/fusion/static_checks.hpp"
#include "catlass/epilogue/fusion/visitor_impl.hpp"

namespace Catlass::Epilogue::Fusion {

template <class NodeOp, class... ChildOps>
struct TreeVisitor : VisitorImpl<ChildOps..., NodeOp> {
    using Impl = VisitorImpl<ChildOps..., NodeOp>;
    using Arguments = typename Impl::Arguments;
    using Params = typename Impl::Params;
    using ElementOutput = typename NodeOp::ElementOutput;

    // The UB every op carves, in carving order: children first, then the parent.
    static constexpr auto UB_NODES = concat_ub_nodes<ChildOps..., NodeOp>();
    static constexpr size_t CHILD_COUNT = sizeof...(ChildOps);

    static_assert(detail::check_inputs<TreeVisitor, NodeOp, typename ChildOps::ElementOutput...>());

    TreeVisitor() = default;
    explicit TreeVisitor(const Params& params) : Impl(params) {}

    template <class CallbacksTuple>
    struct Callbacks : Impl::template Callbacks<CallbacksTuple> {
        using Base = typename Impl::template Callbacks<CallbacksTuple>;
        Callbacks() = default;
        explicit Callbacks(const CallbacksTuple& t) : Base(t) {}

        // On exit every child and then the parent has been visited once for this stage.
        template <VisitStage Stage, class ArchTag, class TensorTile, class... Inputs>
        CATLASS_DEVICE const AscendC::LocalTensor<ElementOutput>& visit(const TensorTile& tensorTile,
                                                                        const MatrixCoord& alignedTileShape,
                                                                        const MatrixCoord& globalOffset,
                                                                        const Inputs&... inputs) {
            return visit_impl<Stage, ArchTag>(std::index_sequence_for<ChildOps...>{}, tensorTile,
                                              alignedTileShape, globalOffset, inputs...);
        }

      private:
        template <VisitStage Stage, class ArchTag, size_t... I, class TensorTile, class... Inputs>
        CATLASS_DEVICE const AscendC::LocalTensor<ElementOutput>& visit_impl(
            std::index_sequence<I...>, const TensorTile& tensorTile, const MatrixCoord& alignedTileShape,
            const MatrixCoord& globalOffset, const Inputs&... inputs) {
            // Children in declaration order (a braced list evaluates left to right). Their outputs are
            // handles held by their own callbacks, so pointers to them stay valid. Each op visits as its
            // node (node_label.hpp).
            tla::tuple<const AscendC::LocalTensor<typename ChildOps::ElementOutput>*...> outs{
                &detail::in_node<ChildOps>([&]() -> decltype(auto) {
                    return tla::get<I>(this->callbacks_tuple)
                        .template visit<Stage, ArchTag>(tensorTile, alignedTileShape, globalOffset,
                                                        inputs...);
                })...};
            (void)outs;
            return detail::in_node<NodeOp>([&]() -> decltype(auto) {
                return tla::get<CHILD_COUNT>(this->callbacks_tuple)
                    .template visit<Stage, ArchTag>(tensorTile, alignedTileShape, globalOffset,
                                                    *tla::get<I>(outs)...);
            });
        }
    };

    // Carves UB for every op in op order (children, then the parent), advancing ub_offset.
    template <class ArchTag>
    CATLASS_DEVICE auto get_callbacks(Arch::Resource<ArchTag>& resource, uint32_t& ub_offset,
                                      uint32_t compute_length) {
        auto tuple = this->get_op_callbacks(resource, ub_offset, compute_length);
        return Callbacks<decltype(tuple)>(tuple);
    }
};

// The name Catlass examples use: EVG<Parent, Children...>.
template <class NodeOp, class... ChildOps>
using EVG = TreeVisitor<NodeOp, ChildOps...>;

}  // namespace Catlass::Epilogue::Fusion
