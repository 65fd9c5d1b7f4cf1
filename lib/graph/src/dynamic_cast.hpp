// DynamicVisitor's Cast instantiations: VisitorCast<To, From, RoundMode> for every (source, destination,
// round mode) the arch's Cast converts (the vocabulary's table, evg/hw/numeric/cast_rules.hpp: 79 of the 392
// on AtlasA2, 88 on Ascend950). run_on_model validates a graph before it builds one, and validation refuses
// the others (rule cast-illegal), so an illegal one never reaches this table; instantiating all 392 was four
// fifths of these units' compile time. Included by dynamic_cast_<arch>.cpp, one translation unit per arch.
#pragma once
#include <type_traits>

#include "dynamic_ops.hpp"
#include "evg/hw/numeric/cast_rules.hpp"
#include "evg/hw/numeric/types.hpp"

namespace evg::graph::dynamic {
namespace cast_detail {

// M is the library's round mode, R the same one in the vocabulary's terms.
template <class ArchTag, class To, class From, AscendC::RoundMode M, RoundMode R>
OpPtr<ArchTag> make(const Node& n) {
    if constexpr (!hw::cast_mode_legal(ArchTag::EVG_ARCH, hw::dtype_of_v<From>, hw::dtype_of_v<To>, R)) {
        unsupported(n, "the chip's Cast does not convert it (validation refuses the graph: cast-illegal)");
    } else {
        using NodeT = F::VisitorCast<To, From, M>;
        return std::make_unique<OpImpl<ArchTag, NodeT, InputForm::One, From>>(
            NodeT::to_underlying_arguments(Catlass::GemmCoord{}, typename NodeT::Arguments{}, nullptr));
    }
}

template <class ArchTag, class To, class From>
OpPtr<ArchTag> for_pair(const Node& n) {
    using M = AscendC::RoundMode;
    switch (n.round) {
        case RoundMode::CAST_NONE:
            return make<ArchTag, To, From, M::CAST_NONE, RoundMode::CAST_NONE>(n);
        case RoundMode::CAST_RINT:
            return make<ArchTag, To, From, M::CAST_RINT, RoundMode::CAST_RINT>(n);
        case RoundMode::CAST_FLOOR:
            return make<ArchTag, To, From, M::CAST_FLOOR, RoundMode::CAST_FLOOR>(n);
        case RoundMode::CAST_CEIL:
            return make<ArchTag, To, From, M::CAST_CEIL, RoundMode::CAST_CEIL>(n);
        case RoundMode::CAST_ROUND:
            return make<ArchTag, To, From, M::CAST_ROUND, RoundMode::CAST_ROUND>(n);
        case RoundMode::CAST_TRUNC:
            return make<ArchTag, To, From, M::CAST_TRUNC, RoundMode::CAST_TRUNC>(n);
        case RoundMode::CAST_ODD:
            return make<ArchTag, To, From, M::CAST_ODD, RoundMode::CAST_ODD>(n);
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
