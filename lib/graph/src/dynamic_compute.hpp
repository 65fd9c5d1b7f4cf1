// DynamicVisitor's Compute instantiations: every functor of functor.hpp over half, float, int16, int32 (and
// bfloat16 on Ascend950), as VisitorCompute<Fn, E> or, with one or two scalars, VisitorCompute<Fn, E, E> or
// VisitorCompute<Fn, E, E, E> (the type emit_cpp prints). Included by dynamic_compute_<arch>.cpp, one
// translation unit per arch.
#pragma once
#include <type_traits>

#include "dynamic_ops.hpp"

namespace evg::graph::dynamic {
namespace compute_detail {

// The scalar as the kernel sees it: ElementCompute(float(value)) for floating types, truncated for integers.
template <class E>
E scalar_value(double v) {
    if constexpr (std::is_integral_v<E>)
        return static_cast<E>(static_cast<int64_t>(v));
    else
        return E(static_cast<float>(v));
}

template <class ArchTag, template <class> class Fn, class E, InputForm Form>
OpPtr<ArchTag> plain() {
    using NodeT = F::VisitorCompute<Fn, E>;
    return std::make_unique<OpImpl<ArchTag, NodeT, Form, E>>(
        NodeT::to_underlying_arguments(Catlass::GemmCoord{}, typename NodeT::Arguments{}, nullptr));
}

template <class ArchTag, template <class> class Fn, class E>
OpPtr<ArchTag> with_scalar(const Node& n) {
    using NodeT = F::VisitorCompute<Fn, E, E>;
    typename NodeT::Arguments args{tla::tuple<E>{scalar_value<E>(n.scalars.at(0))}};
    return std::make_unique<OpImpl<ArchTag, NodeT, InputForm::One, E>>(
        NodeT::to_underlying_arguments(Catlass::GemmCoord{}, args, nullptr));
}

template <class ArchTag, template <class> class Fn, class E>
OpPtr<ArchTag> with_two_scalars(const Node& n) {
    using NodeT = F::VisitorCompute<Fn, E, E, E>;
    typename NodeT::Arguments args{
        tla::tuple<E, E>{scalar_value<E>(n.scalars.at(0)), scalar_value<E>(n.scalars.at(1))}};
    return std::make_unique<OpImpl<ArchTag, NodeT, InputForm::One, E>>(
        NodeT::to_underlying_arguments(Catlass::GemmCoord{}, args, nullptr));
}

template <class ArchTag, class E>
OpPtr<ArchTag> for_type(const Node& n) {
    constexpr bool k950 = std::is_same_v<ArchTag, Catlass::Arch::Ascend950>;
    switch (n.fn) {
        case Functor::Exp:
            return plain<ArchTag, F::Exp, E, InputForm::One>();
        case Functor::Relu:
            return plain<ArchTag, F::Relu, E, InputForm::One>();
        case Functor::Sqrt:
            return plain<ArchTag, F::Sqrt, E, InputForm::One>();
        case Functor::RsqrtFast:
            return plain<ArchTag, F::RsqrtFast, E, InputForm::One>();
        case Functor::Silu:
            return plain<ArchTag, F::Silu, E, InputForm::One>();
        case Functor::LeakyRelu:
            return with_scalar<ArchTag, F::LeakyRelu, E>(n);
        case Functor::Muls:
            return with_scalar<ArchTag, F::Muls, E>(n);
        case Functor::Adds:
            return with_scalar<ArchTag, F::Adds, E>(n);
        case Functor::Maxs:
            return with_scalar<ArchTag, F::Maxs, E>(n);
        case Functor::Mins:
            return with_scalar<ArchTag, F::Mins, E>(n);
        case Functor::Clamp:
            return with_two_scalars<ArchTag, F::Clamp, E>(n);
        case Functor::Add:
            return plain<ArchTag, F::Add, E, InputForm::Chain>();
        case Functor::Sub:
            return plain<ArchTag, F::Sub, E, InputForm::Chain>();
        case Functor::Mul:
            return plain<ArchTag, F::Mul, E, InputForm::Chain>();
        case Functor::Div:
            return plain<ArchTag, F::Div, E, InputForm::Chain>();
        case Functor::Max:
            return plain<ArchTag, F::Max, E, InputForm::Chain>();
        case Functor::Min:
            return plain<ArchTag, F::Min, E, InputForm::Chain>();
        case Functor::AddRelu:
            return plain<ArchTag, F::AddRelu, E, InputForm::Chain>();
        case Functor::Prelu:
            if constexpr (k950) return plain<ArchTag, F::Prelu, E, InputForm::Chain>();
            break;
        case Functor::Reciprocal:
            if constexpr (k950) return plain<ArchTag, F::Reciprocal, E, InputForm::One>();
            break;
        case Functor::Rsqrt:
            if constexpr (k950) return plain<ArchTag, F::Rsqrt, E, InputForm::One>();
            break;
        case Functor::Sigmoid:
            if constexpr (k950) return plain<ArchTag, F::Sigmoid, E, InputForm::One>();
            break;
    }
    unsupported(n, fmt::format("{} exists only on Ascend950", functor_name(n.fn)));
}

}  // namespace compute_detail

template <class ArchTag>
OpPtr<ArchTag> make_compute_op(const Node& n) {
    using namespace compute_detail;
    const size_t arity = n.inputs.size();
    const FunctorInfo& info = functor_info(n.fn);
    if (static_cast<int>(arity) < info.min_inputs || static_cast<int>(arity) > info.max_inputs)
        unsupported(n, fmt::format("{} with {} inputs", info.name, arity));
    if (static_cast<int>(n.scalars.size()) != info.scalars)
        unsupported(n, fmt::format("{} with {} scalars", info.name, n.scalars.size()));
    switch (n.element) {
        case DType::f32:
            return for_type<ArchTag, float>(n);
        case DType::f16:
            return for_type<ArchTag, half>(n);
        case DType::i16:
            return for_type<ArchTag, int16_t>(n);
        case DType::i32:
            return for_type<ArchTag, int32_t>(n);
        case DType::bf16:
            if constexpr (std::is_same_v<ArchTag, Catlass::Arch::Ascend950>)
                return for_type<ArchTag, bfloat16_t>(n);
            unsupported(n, "bfloat16 arithmetic exists only on Ascend950");
        default:
            unsupported(n, "Compute takes half, float, int16, int32 (or bfloat16 on Ascend950)");
    }
}

}  // namespace evg::graph::dynamic
