// Compile-time rules for EVG declarations: static misuse fails in a static_assert, with a plain sentence that
// names the rule. Upstream Catlass checks none of the graph rules (docs/evg-semantics.md §3.4, §11.2
// item 12); here a malformed graph stops at the first rule it breaks, with one sentence instead of a page of
// template recursion.
//
// * edge rules for TopologicalVisitor<EdgeTuple, Ops...>: one edge list per op, every index names an op,
//   no cycles (a depth-first search over the seq indices, in a constexpr function);
// * element rules per edge: what an op accepts on its inputs (NodeInputRule, below);
// * computeLength rules for BlockEpilogue: check_compute_length<EVG, ArchTag, CL, USE_UB>().
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "catlass/epilogue/fusion/compute_length.hpp"
#include "catlass/epilogue/fusion/visitor_aux_store.hpp"
#include "catlass/epilogue/fusion/visitor_cast.hpp"
#include "catlass/epilogue/fusion/visitor_col_reduce.hpp"
#include "catlass/epilogue/fusion/visitor_compute.hpp"
#include "catlass/epilogue/fusion/visitor_impl_base.hpp"
#include "catlass/epilogue/fusion/visitor_row_reduce.hpp"
#include "catlass/epilogue/fusion/visitor_scalar_reduce.hpp"
#include "catlass/tla/tuple.hpp"

namespace Catlass::Epilogue::Fusion {

// ---------------------------------------------------------------------------------------------------------
// What an op accepts on its inputs, one specialisation per node template (below); the default accepts
// anything.
enum class InputRole : uint8_t {
    Any,      // no rule (loads take no inputs; user nodes check their own)
    Compute,  // every input must be ElementCompute
    Cast,     // the input must be ElementFrom
    Store,    // the input must be the store's Element
    Reduce,   // the input must be the reduce's Element
};

template <class Op, class = void>
struct NodeInputRule {
    static constexpr InputRole ROLE = InputRole::Any;
    using Element = void;
};

// A node may state its rule itself: `static constexpr InputRole INPUT_ROLE; using ElementInput`.
template <class Op>
struct NodeInputRule<Op, std::void_t<decltype(Op::INPUT_ROLE), typename Op::ElementInput>> {
    static constexpr InputRole ROLE = Op::INPUT_ROLE;
    using Element = typename Op::ElementInput;
};

template <template <class> class Fn, class E, class... Scalars>
struct NodeInputRule<VisitorCompute<Fn, E, Scalars...>> {
    static constexpr InputRole ROLE = InputRole::Compute;
    using Element = E;
};
template <class To, class From, AscendC::RoundMode Mode>
struct NodeInputRule<VisitorCast<To, From, Mode>> {
    static constexpr InputRole ROLE = InputRole::Cast;
    using Element = From;
};
template <class E, class Layout>
struct NodeInputRule<VisitorAuxStore<E, Layout>> {
    static constexpr InputRole ROLE = InputRole::Store;
    using Element = E;
};
template <template <class> class Fn, class E, class Layout, ReduceStrategy S>
struct NodeInputRule<VisitorRowReduce<Fn, E, Layout, S>> {
    static constexpr InputRole ROLE = InputRole::Reduce;
    using Element = E;
};
template <template <class> class Fn, class E, class Layout, ReduceStrategy S>
struct NodeInputRule<VisitorColReduce<Fn, E, Layout, S>> {
    static constexpr InputRole ROLE = InputRole::Reduce;
    using Element = E;
};
template <template <class> class Fn, class E, class Layout, ReduceStrategy S>
struct NodeInputRule<VisitorScalarReduce<Fn, E, Layout, S>> {
    static constexpr InputRole ROLE = InputRole::Reduce;
    using Element = E;
};

// Whether an op acts in the STORE stage and hands back its input (AuxStore, Row/Col/ScalarReduce): the ops
// the L1 TopologicalVisitor cache never caches (docs/evg-semantics.md §3.5). A node may say so itself with
// `static constexpr VisitStage OUTPUT_STAGE` (the L1 name).
template <class Op, class = void>
struct IsStoreStageOp : std::false_type {};
template <class Op>
struct IsStoreStageOp<Op, std::enable_if_t<(Op::OUTPUT_STAGE == VisitStage::STORE)>> : std::true_type {};
template <class E, class Layout>
struct IsStoreStageOp<VisitorAuxStore<E, Layout>> : std::true_type {};
template <template <class> class Fn, class E, class Layout, ReduceStrategy S>
struct IsStoreStageOp<VisitorRowReduce<Fn, E, Layout, S>> : std::true_type {};
template <template <class> class Fn, class E, class Layout, ReduceStrategy S>
struct IsStoreStageOp<VisitorColReduce<Fn, E, Layout, S>> : std::true_type {};
template <template <class> class Fn, class E, class Layout, ReduceStrategy S>
struct IsStoreStageOp<VisitorScalarReduce<Fn, E, Layout, S>> : std::true_type {};

namespace detail {

template <class Op, class Input>
constexpr bool input_ok() {
    using Rule = NodeInputRule<Op>;
    return std::is_void_v<typename Rule::Element> || std::is_same_v<typename Rule::Element, Input>;
}

// True when every input type is accepted by Op in the given role (roles other than `role` pass).
template <InputRole role, class Op, class... Inputs>
constexpr bool inputs_ok_for_role() {
    if constexpr (NodeInputRule<Op>::ROLE != role) {
        return true;
    } else {
        return (true && ... && input_ok<Op, Inputs>());
    }
}

// One static_assert per role, so that the sentence names the node kind and the fix.
template <class Visitor, class Op, class... Inputs>
constexpr bool check_inputs() {
    static_assert(inputs_ok_for_role<InputRole::Compute, Op, Inputs...>(),
                  "VisitorCompute: every input element type must equal ElementCompute; insert a VisitorCast "
                  "before the compute node");
    static_assert(inputs_ok_for_role<InputRole::Cast, Op, Inputs...>(),
                  "VisitorCast: the input element type must equal ElementFrom");
    static_assert(
        inputs_ok_for_role<InputRole::Store, Op, Inputs...>(),
        "VisitorAuxStore: the input element type must equal the store's Element; insert a VisitorCast "
        "before the store");
    static_assert(
        inputs_ok_for_role<InputRole::Reduce, Op, Inputs...>(),
        "Visitor*Reduce: the input element type must equal the reduce's Element; insert a VisitorCast "
        "before the reduce");
    static_assert(inputs_ok_for_role<InputRole::Any, Op, Inputs...>(),
                  "EVG: an op's input element type differs from the ElementInput it declares");
    return true;
}

// ---------------------------------------------------------------------------------------------------------
// The EdgeTuple as constexpr arrays.
template <class Seq>
struct SeqValues;
template <size_t... I>
struct SeqValues<tla::seq<I...>> {
    static constexpr std::array<size_t, sizeof...(I)> VALUES{I...};
};

template <class... Seqs>
constexpr size_t max_degree() {
    size_t m = 1;
    ((m = Seqs::size > m ? Seqs::size : m), ...);
    return m;
}

// adjacency[i][0 .. degree[i]) = the inputs of op i, in edge order.
template <size_t N, size_t D>
struct Adjacency {
    std::array<size_t, N> degree{};
    std::array<std::array<size_t, D>, N> child{};
};

template <class... Seqs>
constexpr auto make_adjacency() {
    constexpr size_t kN = sizeof...(Seqs);
    Adjacency<kN, max_degree<Seqs...>()> adj{};
    size_t i = 0;
    auto fill = [&](const auto& values) {
        adj.degree[i] = values.size();
        for (size_t k = 0; k < values.size(); ++k) adj.child[i][k] = values[k];
        ++i;
    };
    (fill(SeqValues<Seqs>::VALUES), ...);
    return adj;
}

template <class EdgeTuple>
struct EdgeGraph;
template <class... Seqs>
struct EdgeGraph<tla::tuple<Seqs...>> {
    static constexpr size_t N = sizeof...(Seqs);
    static constexpr auto ADJ = make_adjacency<Seqs...>();
};

template <size_t N, size_t D>
constexpr bool indices_in_range(const Adjacency<N, D>& adj, size_t op_count) {
    for (size_t i = 0; i < N; ++i)
        for (size_t k = 0; k < adj.degree[i]; ++k)
            if (adj.child[i][k] >= op_count) return false;
    return true;
}

// Depth-first search from `node`; colour 0 = unseen, 1 = on the current path, 2 = finished.
// Returns false when an edge reaches a node on the current path (a cycle). Out-of-range indices are
// skipped here (indices_in_range reports them).
template <size_t N, size_t D>
constexpr bool dfs_acyclic(const Adjacency<N, D>& adj, std::array<uint8_t, N>& colour, size_t node) {
    colour[node] = 1;
    for (size_t k = 0; k < adj.degree[node]; ++k) {
        const size_t c = adj.child[node][k];
        if (c >= N) continue;
        if (colour[c] == 1) return false;
        if (colour[c] == 0 && !dfs_acyclic(adj, colour, c)) return false;
    }
    colour[node] = 2;
    return true;
}

template <size_t N, size_t D>
constexpr bool acyclic(const Adjacency<N, D>& adj) {
    std::array<uint8_t, N> colour{};
    for (size_t i = 0; i < N; ++i)
        if (colour[i] == 0 && !dfs_acyclic(adj, colour, i)) return false;
    return true;
}

template <class T>
struct IsSeqTuple : std::false_type {};
template <class T>
struct IsSeqType : std::false_type {};
template <size_t... I>
struct IsSeqType<tla::seq<I...>> : std::true_type {};
template <class... Ts>
struct IsSeqTuple<tla::tuple<Ts...>> : std::bool_constant<(true && ... && IsSeqType<Ts>::value)> {};

}  // namespace detail

// The edge rules of TopologicalVisitor<EdgeTuple, Ops...>, one static_assert per rule. Returns whether
// every rule holds (so that the visitor can stop instantiating a broken graph).
template <class EdgeTuple, size_t OP_COUNT>
constexpr bool check_edges() {
    static_assert(OP_COUNT > 0, "TopologicalVisitor: the op list is empty; list at least the root op");
    static_assert(
        detail::IsSeqTuple<EdgeTuple>::value,
        "TopologicalVisitor: EdgeTuple must be a tla::tuple of tla::seq<child indices...>, one per op");
    if constexpr (!detail::IsSeqTuple<EdgeTuple>::value || OP_COUNT == 0) {
        return false;
    } else {
        using G = detail::EdgeGraph<EdgeTuple>;
        constexpr bool kCountOk = G::N == OP_COUNT;
        static_assert(
            kCountOk,
            "TopologicalVisitor: EdgeTuple must have exactly one tla::seq per op (its length must equal "
            "the number of ops)");
        constexpr bool kRangeOk = detail::indices_in_range(G::ADJ, OP_COUNT);
        static_assert(
            kRangeOk,
            "TopologicalVisitor: every child index in EdgeTuple must name an op (0 <= index < number of "
            "ops)");
        constexpr bool kAcyclic = detail::acyclic(G::ADJ);
        static_assert(
            kAcyclic,
            "TopologicalVisitor: the graph must be acyclic; an op may not depend on itself through its "
            "edges");
        return kCountOk && kRangeOk && kAcyclic;
    }
}

// The computeLength rules of BlockEpilogue<..., ArchTag, CL, EVG>: CL is a multiple of 32 elements, and two
// callbacks sets of EVG at CL fit the UB above the base offset (0, or L0C_SIZE/2 on the UB workspace path).
template <class EVG, class ArchTag, uint32_t COMPUTE_LENGTH, bool USE_UB_WORKSPACE = false>
constexpr bool check_compute_length() {
    static_assert(COMPUTE_LENGTH % UbAccounting::kComputeLengthAlign == 0,
                  "BlockEpilogue: ComputeLength must be a multiple of 32 elements");
    static_assert(COMPUTE_LENGTH > 0, "BlockEpilogue: ComputeLength must be positive");
    static_assert(
        UbAccounting::fits(EVG::UB_NODES, COMPUTE_LENGTH, UB_BASE_OFFSET<ArchTag, USE_UB_WORKSPACE>,
                           ArchTag::UB_SIZE),
        "BlockEpilogue: two buffer sets of this EVG at this ComputeLength do not fit the arch's UB; "
        "use max_compute_length<EVG, ArchTag, USE_UB_WORKSPACE>() or a smaller ComputeLength");
    return true;
}

}  // namespace Catlass::Epilogue::Fusion
