// The instantiation tables behind DynamicVisitor: one factory per node family, templated on the arch, and
// explicitly instantiated for AtlasA2 and Ascend950 in small translation units (dynamic_*.cpp) so that no
// one file compiles every node type.
#pragma once
#include <fmt/format.h>

#include <memory>

#include "catlass/epilogue/fusion/fusion.hpp"
#include "evg/graph/dynamic_visitor.hpp"
#include "evg/graph/error.hpp"

namespace evg::graph::dynamic {

namespace F = Catlass::Epilogue::Fusion;

template <class T>
struct TypeTag {
    using type = T;
};

// Calls f(TypeTag<T>{}) with the C++ type of `t`.
template <class Fn>
auto with_dtype(DType t, Fn&& f) {
    switch (t) {
        case DType::f32:
            return f(TypeTag<float>{});
        case DType::f16:
            return f(TypeTag<half>{});
        case DType::bf16:
            return f(TypeTag<bfloat16_t>{});
        case DType::i8:
            return f(TypeTag<int8_t>{});
        case DType::u8:
            return f(TypeTag<uint8_t>{});
        case DType::i16:
            return f(TypeTag<int16_t>{});
        case DType::i32:
            return f(TypeTag<int32_t>{});
        case DType::i64:
            break;
    }
    return f(TypeTag<int64_t>{});
}

[[noreturn]] inline void unsupported(const Node& n, std::string_view why) {
    throw GraphError(fmt::format("DynamicVisitor: no instantiation for node {} {}: {}",
                                 node_kind_name(n.kind), hw::dtype_name(n.element), why));
}

template <class ArchTag>
using OpPtr = std::unique_ptr<NodeOp<ArchTag>>;

// AuxLoad, AuxStore, the broadcasts and the reduces (dynamic_data.cpp).
template <class ArchTag>
OpPtr<ArchTag> make_data_op(const Node& n, const Tensor& t, GM_ADDR ptr);
// Compute (dynamic_compute_<arch>.cpp).
template <class ArchTag>
OpPtr<ArchTag> make_compute_op(const Node& n);
// Cast (dynamic_cast_<arch>.cpp).
template <class ArchTag>
OpPtr<ArchTag> make_cast_op(const Node& n);

}  // namespace evg::graph::dynamic
