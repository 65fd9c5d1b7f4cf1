// DynamicVisitor's instantiations of the data nodes: AuxLoad, AuxStore, Row/Col/Scalar Broadcast (every
// element type) and Row/Col/Scalar Reduce (Add, Max, Min over half, float and bfloat16), for both archs. Each
// node's Params come from its own to_underlying_arguments over the Arguments emit_cpp writes ({ptr, layout}).
#include "dynamic_ops.hpp"

namespace evg::graph::dynamic {
namespace {

template <class ArchTag, class NodeT, InputForm Form, class In>
OpPtr<ArchTag> make(GM_ADDR ptr, const tla::RowMajorLayout& layout) {
    typename NodeT::Arguments args{ptr, layout};
    return std::make_unique<OpImpl<ArchTag, NodeT, Form, In>>(
        NodeT::to_underlying_arguments(Catlass::GemmCoord{}, args, nullptr));
}

template <class ArchTag, template <template <class> class, class, class, F::ReduceStrategy> class Reduce,
          class E>
OpPtr<ArchTag> make_reduce(const Node& n, GM_ADDR ptr, const tla::RowMajorLayout& layout) {
    constexpr auto S = F::ReduceStrategy::ATOMIC_REDUCE;
    switch (n.fn) {
        case Functor::Add:
            return make<ArchTag, Reduce<F::Add, E, tla::RowMajorLayout, S>, InputForm::One, E>(ptr, layout);
        case Functor::Max:
            return make<ArchTag, Reduce<F::Max, E, tla::RowMajorLayout, S>, InputForm::One, E>(ptr, layout);
        case Functor::Min:
            return make<ArchTag, Reduce<F::Min, E, tla::RowMajorLayout, S>, InputForm::One, E>(ptr, layout);
        default:
            unsupported(n, "the reduce functor must be Add, Max or Min");
    }
}

// The element types Col/ScalarBroadcast accept (their rows are filled with Duplicate; validation rule
// broadcast-dtype rejects the others before a run gets here).
template <class E>
constexpr bool duplicate_fills =
    std::is_same_v<E, int16_t> || std::is_same_v<E, half> || std::is_same_v<E, bfloat16_t> ||
    std::is_same_v<E, int32_t> || std::is_same_v<E, float>;

}  // namespace

template <class ArchTag>
OpPtr<ArchTag> make_data_op(const Node& n, const Tensor& t, GM_ADDR ptr) {
    const tla::RowMajorLayout layout = tla::MakeLayout<float, Catlass::layout::RowMajor>(
        static_cast<uint32_t>(t.rows), static_cast<uint32_t>(t.cols), t.row_stride);
    if (is_reduce(n.kind)) {
        const auto reduce = [&](auto tag) -> OpPtr<ArchTag> {
            using E = typename decltype(tag)::type;
            if (n.kind == NodeKind::RowReduce)
                return make_reduce<ArchTag, F::VisitorRowReduce, E>(n, ptr, layout);
            if (n.kind == NodeKind::ColReduce)
                return make_reduce<ArchTag, F::VisitorColReduce, E>(n, ptr, layout);
            return make_reduce<ArchTag, F::VisitorScalarReduce, E>(n, ptr, layout);
        };
        switch (n.element) {
            case DType::f32:
                return reduce(TypeTag<float>{});
            case DType::f16:
                return reduce(TypeTag<half>{});
            case DType::bf16:
                return reduce(TypeTag<bfloat16_t>{});
            default:
                unsupported(n, "reductions take half, float or bfloat16");
        }
    }
    // The one switch over NodeKind in DynamicVisitor: each case names the library's class template for the
    // kind, which the node kind table (lib/graph, which does not compile the EVG library) cannot hold.
    return with_dtype(n.element, [&](auto tag) -> OpPtr<ArchTag> {
        using E = typename decltype(tag)::type;
        using L = tla::RowMajorLayout;
        switch (n.kind) {
            case NodeKind::AuxLoad:
                return make<ArchTag, F::VisitorAuxLoad<E, L>, InputForm::None, uint8_t>(ptr, layout);
            case NodeKind::AuxStore:
                return make<ArchTag, F::VisitorAuxStore<E, L>, InputForm::One, E>(ptr, layout);
            case NodeKind::RowBroadcast:
                return make<ArchTag, F::VisitorRowBroadcast<E, L>, InputForm::None, uint8_t>(ptr, layout);
            case NodeKind::ColBroadcast:
                if constexpr (duplicate_fills<E>)
                    return make<ArchTag, F::VisitorColBroadcast<E, L>, InputForm::None, uint8_t>(ptr, layout);
                else
                    unsupported(n, "Duplicate fills int16, half, bfloat16, int32 and float only");
            case NodeKind::ScalarBroadcast:
                if constexpr (duplicate_fills<E>)
                    return make<ArchTag, F::VisitorScalarBroadcast<E, L>, InputForm::None, uint8_t>(ptr,
                                                                                                    layout);
                else
                    unsupported(n, "Duplicate fills int16, half, bfloat16, int32 and float only");
            default:
                unsupported(n, "not a data node");
        }
    });
}

template OpPtr<Catlass::Arch::AtlasA2> make_data_op<Catlass::Arch::AtlasA2>(const Node&, const Tensor&,
                                                                            GM_ADDR);
template OpPtr<Catlass::Arch::Ascend950> make_data_op<Catlass::Arch::Ascend950>(const Node&, const Tensor&,
                                                                                GM_ADDR);

}  // namespace evg::graph::dynamic
