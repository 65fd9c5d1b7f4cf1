// EmptyCallbacks and VisitorImpl<Ops...>: builds the per-op callbacks, carving UB in op order (left to right,
// made explicit: upstream relies on constructor-argument evaluation order, §11.2 item 9).
#pragma once
#include <cstdint>
#include <utility>

#include "catlass/arch/resource.hpp"
#include "catlass/epilogue/fusion/node_concept.hpp"
#include "catlass/epilogue/fusion/node_label.hpp"
#include "catlass/epilogue/fusion/visitor_impl_base.hpp"

namespace Catlass::Epilogue::Fusion {

struct EmptyCallbacks {
    CATLASS_DEVICE void begin_epilogue() {}
    CATLASS_DEVICE void end_epilogue() {}
};

// The node concept every Visitor* follows (node_concept.hpp checks it; visitor_acc_load.hpp is an example):
//   using ElementOutput; static constexpr uint32_t UB_BUFFERS (buffers of CL elements it carves);
//   struct Arguments; struct Params; static to_underlying_arguments / get_workspace_size / can_implement /
//   initialize_workspace; constructors from Params; member `Params params`;
//   template <class ArchTag> Callbacks get_callbacks(Arch::Resource<ArchTag>&, uint32_t& ub_offset, uint32_t
//   CL); Callbacks : EmptyCallbacks with template <VisitStage Stage, class ArchTag, class TensorTile,
//   class... Inputs> const AscendC::LocalTensor<ElementOutput>& visit(const TensorTile&, const MatrixCoord&
//   alignedTileShape,
//                                                    const MatrixCoord& globalOffset, const Inputs&...
//                                                    inputs);
template <class... Ops>
struct VisitorImpl : VisitorImplBase<Ops...> {
    static_assert((true && ... && detail::check_node<Ops>()));
    using Base = VisitorImplBase<Ops...>;
    using Base::Base;
    using Params = typename Base::Params;

    template <class ProblemShape, class Arguments>
    static Status initialize_workspace(const ProblemShape& shape, const Arguments& args, void* workspace) {
        return Base::initialize_workspace(shape, args, workspace);
    }

    template <class CallbacksTuple>
    struct Callbacks : EmptyCallbacks {
        CallbacksTuple callbacks_tuple;
        Callbacks() = default;
        explicit Callbacks(const CallbacksTuple& t) : callbacks_tuple(t) {}
        // Each op's hook runs as that op's node (node_label.hpp).
        CATLASS_DEVICE void begin_epilogue() {
            [&]<size_t... I>(std::index_sequence<I...>) {
                (detail::in_node<Ops>([&] { tla::get<I>(callbacks_tuple).begin_epilogue(); }), ...);
            }
            (std::index_sequence_for<Ops...>{});
        }
        CATLASS_DEVICE void end_epilogue() {
            [&]<size_t... I>(std::index_sequence<I...>) {
                (detail::in_node<Ops>([&] { tla::get<I>(callbacks_tuple).end_epilogue(); }), ...);
            }
            (std::index_sequence_for<Ops...>{});
        }
    };

    // Calls every op's get_callbacks in op order, each as its node; each advances ub_offset by the UB it
    // carves. The order is fixed by the braced list (its initialisers are evaluated left to right, under any
    // compiler): the order in which Bisheng evaluates upstream's parenthesised call, which C++ leaves open
    // (docs/hardware-model.md §18). A parenthesised call here would carve in GCC's order under GCC.
    template <class ArchTag>
    CATLASS_DEVICE auto get_op_callbacks(Arch::Resource<ArchTag>& resource, uint32_t& ub_offset,
                                         uint32_t compute_length) {
        return [&]<size_t... I>(std::index_sequence<I...>) {
            using Tuple = tla::tuple<decltype(tla::get<I>(this->ops).get_callbacks(resource, ub_offset,
                                                                                   compute_length))...>;
            return Tuple{detail::in_node<Ops>([&] {
                return tla::get<I>(this->ops).get_callbacks(resource, ub_offset, compute_length);
            })...};
        }
        (std::index_sequence_for<Ops...>{});
    }
};

}  // namespace Catlass::Epilogue::Fusion
