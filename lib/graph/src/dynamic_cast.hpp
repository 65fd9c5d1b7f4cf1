// DynamicVisitor's Cast instantiations: VisitorCast<To, From, RoundMode> for every pair of distinct element
// types and every round mode (the machine rejects the pairs the arch cannot convert, and validation rejects
// them before that). Included by dynamic_cast_<arch>.cpp, one translation unit per arch.
#pragma once
#include <type_traits>

#include "dynamic_ops.hpp"

namespace evg::graph::dynamic {
namespace cast_detail {

template <class ArchTag, class To, class From, AscendC::RoundMode M>
OpPtr<ArchTag> make() {
    using NodeT = F::VisitorCast<To, From, M>;
    return std::make_unique<OpImpl<ArchTag, NodeT, InputForm::One, From>>(
        NodeT::to_underlying_arguments(Catlass::GemmCoord{}, typename NodeT::Arguments{}, nullptr));
}

template <class ArchTag, class To, class From>
OpPtr<ArchTag> for_pair(const Node& n) {
    using M = AscendC::RoundMode;
    switch (n.round) {
        case RoundMode::CAST_NONE:
            return make<ArchTag, To, From, M::CAST_NONE>();
        case RoundMode::CAST_RINT:
            return make<ArchTag, To, From, M::CAST_RINT>();
        case RoundMode::CAST_FLOOR:
            return make<ArchTag, To, From, M::CAST_FLOOR>();
        case RoundMode::CAST_CEIL:
            return make<ArchTag, To, From, M::CAST_CEIL>();
        case RoundMode::CAST_ROUND:
            return make<ArchTag, To, From, M::CAST_ROUND>();
        case RoundMode::CAST_TRUNC:
            return make<ArchTag, To, From, M::CAST_TRUNC>();
        case RoundMode::CAST_ODD:
            return make<ArchTag, To, From, M::CAST_ODD>();
        case RoundMode::UNKNOWN:
            break;
    }
    unsupported(n, "unknown round mode");
}

}  // namespace cast_detail

template <class ArchTag>
OpPtr<ArchTag> make_cast_op(const Node& n) {
    if (n.inputs.size() != 1) unsupported(n, "Cast takes exactly one input");
    return with_dtype(n.from, [&](auto from_tag) -> OpPtr<ArchTag> {
        using From = typename decltype(from_tag)::type;
        return with_dtype(n.element, [&](auto to_tag) -> OpPtr<ArchTag> {
            using To = typename decltype(to_tag)::type;
            if constexpr (std::is_same_v<To, From>)
                unsupported(n, "source and destination types are equal");
            else
                return cast_detail::for_pair<ArchTag, To, From>(n);
        });
    });
}

}  // namespace evg::graph::dynamic
