// The node concept: what VisitorImpl (and so TreeVisitor and TopologicalVisitor) need of each op, as a C++20
// concept, checked where the ops are combined, so that a user's own node that breaks it fails with one
// sentence naming the missing part instead of a page of template errors. docs/evg-semantics.md §2.0 describes
// the contract; visitor_aux_load.hpp is a complete example.
//
// get_callbacks and the callbacks' visit are not part of the concept: their bodies depend on the arch and the
// inputs, and are checked where BlockEpilogue calls them.
#pragma once
#include <concepts>
#include <cstddef>
#include <type_traits>

#include "catlass/catlass.hpp"
#include "catlass/coord.hpp"

namespace Catlass::Epilogue::Fusion {

// The host side every graph has, nodes and visitors alike: its Arguments, Params built from them, and the
// four static functions the kernel and DeviceGemm call.
template <class N>
concept EvgGraph = requires {
    typename N::Arguments;
    typename N::Params;
}
&&std::is_constructible_v<N, const typename N::Params&>&& requires(const GemmCoord& shape,
                                                                   const typename N::Arguments& args,
                                                                   void* ws) {
    { N::can_implement(shape, args) } -> std::convertible_to<bool>;
    { N::get_workspace_size(shape, args) } -> std::convertible_to<size_t>;
    { N::to_underlying_arguments(shape, args, ws) } -> std::convertible_to<typename N::Params>;
    { N::initialize_workspace(shape, args, ws) } -> std::same_as<Status>;
};

// An op inside a graph: also its output element type and its UB buffers (UbAccounting counts them).
template <class N>
concept EvgNode = EvgGraph<N> && requires {
    typename N::ElementOutput;
    N::UB_NODES.size();
} && std::is_default_constructible_v<N>;

namespace detail {
// One static_assert per missing part, in the order a node is usually written, so the first sentence names it.
template <class N>
constexpr bool check_node() {
    static_assert(
        requires { typename N::Arguments; } && requires { typename N::Params; },
        "EVG node concept: every op declares `struct Arguments` and `struct Params` "
        "(docs/evg-semantics.md §2.0)");
    if constexpr (
        requires { typename N::Arguments; } && requires { typename N::Params; }) {
        static_assert(
            std::is_constructible_v<N, const typename N::Params&> && std::is_default_constructible_v<N>,
            "EVG node concept: an op is default-constructible and constructible from its Params");
        static_assert(
            requires(const GemmCoord& s, const typename N::Arguments& a, void* w) {
                { N::can_implement(s, a) } -> std::convertible_to<bool>;
                { N::get_workspace_size(s, a) } -> std::convertible_to<size_t>;
                { N::to_underlying_arguments(s, a, w) } -> std::convertible_to<typename N::Params>;
                { N::initialize_workspace(s, a, w) } -> std::same_as<Status>;
            },
            "EVG node concept: an op has static can_implement, get_workspace_size, to_underlying_arguments "
            "and "
            "initialize_workspace (returning Status) taking (problemShape, Arguments[, workspace])");
    }
    static_assert(
        requires { typename N::ElementOutput; },
        "EVG node concept: an op declares `using ElementOutput`, the element type of the tensor it "
        "returns");
    static_assert(
        requires { N::UB_NODES.size(); },
        "EVG node concept: an op declares `static constexpr std::array<UbAccounting::NodeBuffers, 1> "
        "UB_NODES` (its UB buffers; 0 buffers for a node that carves none)");
    return EvgNode<N>;
}
}  // namespace detail

}  // namespace Catlass::Epilogue::Fusion
