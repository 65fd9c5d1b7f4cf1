// TopologicalVisitor<EdgeTuple, Ops...>: an EVG that is a DAG (docs/evg-semantics.md §3.4, MASTER).
//
// EdgeTuple = tla::tuple<tla::seq<child indices...>, ...>, one entry per op; entry i lists, in order, the ops
// whose outputs are op i's inputs (duplicates allowed). The last op is the root. Arguments are flat, in op
// order; UB is carved in op order.
//
// visit<Stage>: reset the visited flags, then visit the root recursively. An op visits its inputs in edge
// order, then itself; its output handle is cached, so within one stage call every op reachable from the root
// runs exactly once (shared loads, computes, stores and reduces alike). Ops not reachable from the root are
// never visited. The caller's extra inputs are threaded through the recursion but given to no op.
//
// Faithful on demand: with upstream_hazards().topo_store_per_consumer, STORE-stage ops (AuxStore and the
// reduces) are not cached, as in the L1 lineage (§3.5, §11.2 item 7): a shared store or reduce runs once per
// consumer path, so a shared reduce accumulates twice.
//
// Rules checked at compile time (static_checks.hpp): one edge list per op, indices in range, no cycle, and
// each op's input element types.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "catlass/arch/resource.hpp"
#include "catlass/coord.hpp"
#include "catlass/epilogue/fusion/compute_length.hpp"
#include "catlass/epilogue/fusion/static_checks.hpp"
#include "catlass/epilogue/fusion/upstream_hazards.hpp"
#include "catlass/epilogue/fusion/visitor_impl.hpp"

namespace Catlass::Epilogue::Fusion {

namespace detail {
template <size_t I, class EdgeTuple>
using EdgeSeq = tla::tuple_element_t<I, EdgeTuple>;

template <class EdgeTuple, class OpsTuple, class Idx>
struct EdgeInputChecks;
template <class EdgeTuple, class... Ops, size_t... I>
struct EdgeInputChecks<EdgeTuple, tla::tuple<Ops...>, std::index_sequence<I...>> {
    using OpsTuple = tla::tuple<Ops...>;
    template <size_t Op, size_t... C>
    static constexpr bool one(tla::seq<C...>) {
        return check_inputs<void, tla::tuple_element_t<Op, OpsTuple>,
                            typename tla::tuple_element_t<C, OpsTuple>::ElementOutput...>();
    }
    static constexpr bool all() { return (true && ... && one<I>(EdgeSeq<I, EdgeTuple>{})); }
};
}  // namespace detail

template <class EdgeTuple, class... Ops>
struct TopologicalVisitor : VisitorImpl<Ops...> {
    using Impl = VisitorImpl<Ops...>;
    using Arguments = typename Impl::Arguments;
    using Params = typename Impl::Params;
    static constexpr size_t OP_COUNT = sizeof...(Ops);
    static constexpr size_t ROOT = OP_COUNT - 1;

    static constexpr bool EDGES_VALID = check_edges<EdgeTuple, OP_COUNT>();

    template <size_t I>
    using Op = tla::tuple_element_t<I, tla::tuple<Ops...>>;
    using ElementOutput = typename Op<ROOT>::ElementOutput;

    // The element rules are checked only on a well-formed edge list (otherwise the indices mean nothing).
    static constexpr bool INPUTS_VALID = [] {
        if constexpr (EDGES_VALID)
            return detail::EdgeInputChecks<EdgeTuple, tla::tuple<Ops...>,
                                           std::index_sequence_for<Ops...>>::all();
        else
            return false;
    }();

    // The UB every op carves, in op order.
    static constexpr auto UB_NODES = concat_ub_nodes<Ops...>();

    TopologicalVisitor() = default;
    explicit TopologicalVisitor(const Params& params) : Impl(params) {}

    template <class CallbacksTuple>
    struct Callbacks : Impl::template Callbacks<CallbacksTuple> {
        using Base = typename Impl::template Callbacks<CallbacksTuple>;
        Callbacks() = default;
        Callbacks(const CallbacksTuple& t, bool store_per_consumer)
            : Base(t), store_per_consumer_(store_per_consumer) {}

        // On exit every op reachable from the root has been visited for this stage: once each (or, with
        // topo_store_per_consumer, STORE-stage ops once per consumer path).
        template <VisitStage Stage, class ArchTag, class TensorTile, class... Inputs>
        CATLASS_DEVICE const AscendC::LocalTensor<ElementOutput>& visit(const TensorTile& tensorTile,
                                                                        const MatrixCoord& alignedTileShape,
                                                                        const MatrixCoord& globalOffset,
                                                                        const Inputs&... inputs) {
            for (bool& v : visited_) v = false;
            if constexpr (EDGES_VALID) {
                return visit_node<Stage, ArchTag, ROOT>(tensorTile, alignedTileShape, globalOffset,
                                                        inputs...);
            } else {
                return tla::get<ROOT>(cache_);
            }
        }

      private:
        template <VisitStage Stage, class ArchTag, size_t I, class TensorTile, class... Inputs>
        CATLASS_DEVICE const AscendC::LocalTensor<typename Op<I>::ElementOutput>& visit_node(
            const TensorTile& tensorTile, const MatrixCoord& alignedTileShape,
            const MatrixCoord& globalOffset, const Inputs&... inputs) {
            const bool cacheable = !(IsStoreStageOp<Op<I>>::value && store_per_consumer_);
            if (visited_[I] && cacheable) return tla::get<I>(cache_);
            return visit_children<Stage, ArchTag, I>(
                std::make_index_sequence<detail::EdgeSeq<I, EdgeTuple>::size>{}, tensorTile, alignedTileShape,
                globalOffset, inputs...);
        }

        template <VisitStage Stage, class ArchTag, size_t I, size_t... K, class TensorTile, class... Inputs>
        CATLASS_DEVICE const AscendC::LocalTensor<typename Op<I>::ElementOutput>& visit_children(
            std::index_sequence<K...>, const TensorTile& tensorTile, const MatrixCoord& alignedTileShape,
            const MatrixCoord& globalOffset, const Inputs&... inputs) {
            using Edges = detail::EdgeSeq<I, EdgeTuple>;
            // Inputs in edge order (a braced list evaluates left to right); each points at a cache entry.
            tla::tuple<const AscendC::LocalTensor<typename Op<tla::seq_get<K>(Edges{})>::ElementOutput>*...>
                outs{&visit_node<Stage, ArchTag, tla::seq_get<K>(Edges{})>(tensorTile, alignedTileShape,
                                                                           globalOffset, inputs...)...};
            (void)outs;
            tla::get<I>(cache_) = detail::in_node<Op<I>>([&]() -> decltype(auto) {
                return tla::get<I>(this->callbacks_tuple)
                    .template visit<Stage, ArchTag>(tensorTile, alignedTileShape, globalOffset,
                                                    *tla::get<K>(outs)...);
            });
            visited_[I] = true;
            return tla::get<I>(cache_);
        }

        tla::tuple<AscendC::LocalTensor<typename Ops::ElementOutput>...> cache_{};
        bool visited_[OP_COUNT] = {};
        bool store_per_consumer_ = false;
    };

    // Carves UB for every op in op order, advancing ub_offset.
    template <class ArchTag>
    CATLASS_DEVICE auto get_callbacks(Arch::Resource<ArchTag>& resource, uint32_t& ub_offset,
                                      uint32_t compute_length) {
        auto tuple = this->get_op_callbacks(resource, ub_offset, compute_length);
        return Callbacks<decltype(tuple)>(tuple, upstream_hazards().topo_store_per_consumer);
    }
};

}  // namespace Catlass::Epilogue::Fusion
