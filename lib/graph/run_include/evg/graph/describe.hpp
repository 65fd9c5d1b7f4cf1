// describe<EVG>(args): the runtime Graph of a static EVG, so that the oracle and the validator can check any
// user EVG (the static EVG and the runtime graph describe one thing).
//
// * One graph node per op. A TreeVisitor is flattened in post-order (children, then the parent), so its root
//   is its last node; a TopologicalVisitor keeps its op order and its edges; visitors nest either way.
// * Kinds, element types, functors, scalars and round modes come from the template parameters; scalar values
//   and external tensors from the Arguments.
// * External tensors are named by their pointer: the same pointer is the same tensor. Unless the caller
//   names them, inputs are X0, X1, ... and outputs D, D1, D2, ... in the order nodes meet them; a tensor
//   any node writes is an output. Shape and row stride come from the Argument's layout.
//
// Each node template and each functor template has its own trait (DescribeOp, FunctorOf) below; the
// seed-000 functor aliases (Plus, Maximum, ...) are alias templates of the canonical functors, so they map
// through the canonical traits.
#pragma once
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "catlass/epilogue/fusion/fusion.hpp"
#include "catlass/tla/layout.hpp"
#include "evg/graph/graph.hpp"

namespace evg::graph {

// Caller-chosen names for external tensors, by device pointer.
struct TensorName {
    const void* ptr = nullptr;
    std::string name;
};

namespace describe_detail {

namespace F = ::Catlass::Epilogue::Fusion;

template <class T>
constexpr DType dtype() {
    return hw::dtype_of_v<T>;
}

// The graph Functor of a ComputeFn / ReduceFn instantiated at the compute element.
template <class Fn>
struct FunctorOf {
    static_assert(
        sizeof(Fn) == 0,
        "describe: this ComputeFn is not one of operations.hpp's functors; the graph IR cannot name it");
};
#define EVG_DESCRIBE_FUNCTOR(NAME)                      \
    template <class T>                                  \
    struct FunctorOf<F::NAME<T>> {                      \
        static constexpr Functor value = Functor::NAME; \
    };
EVG_DESCRIBE_FUNCTOR(Exp)
EVG_DESCRIBE_FUNCTOR(Relu)
EVG_DESCRIBE_FUNCTOR(Sqrt)
EVG_DESCRIBE_FUNCTOR(RsqrtFast)
EVG_DESCRIBE_FUNCTOR(Silu)
EVG_DESCRIBE_FUNCTOR(LeakyRelu)
EVG_DESCRIBE_FUNCTOR(Muls)
EVG_DESCRIBE_FUNCTOR(Adds)
EVG_DESCRIBE_FUNCTOR(Maxs)
EVG_DESCRIBE_FUNCTOR(Mins)
EVG_DESCRIBE_FUNCTOR(Add)
EVG_DESCRIBE_FUNCTOR(Sub)
EVG_DESCRIBE_FUNCTOR(Mul)
EVG_DESCRIBE_FUNCTOR(Div)
EVG_DESCRIBE_FUNCTOR(Max)
EVG_DESCRIBE_FUNCTOR(Min)
EVG_DESCRIBE_FUNCTOR(AddRelu)
EVG_DESCRIBE_FUNCTOR(Clamp)
EVG_DESCRIBE_FUNCTOR(Prelu)
EVG_DESCRIBE_FUNCTOR(Reciprocal)
EVG_DESCRIBE_FUNCTOR(Rsqrt)
EVG_DESCRIBE_FUNCTOR(Sigmoid)
#undef EVG_DESCRIBE_FUNCTOR

template <template <class> class Fn, class E>
constexpr Functor functor_of() {
    return FunctorOf<Fn<E>>::value;
}

// A scalar as the graph stores it. Integers as they are; floating scalars as the shortest decimal that reads
// back to the same float (0.1f is stored as 0.1, not 0.100000001490116), which the kernel sees as the same
// ElementCompute value.
template <class S>
double scalar_value(const S& s) {
    if constexpr (std::is_integral_v<S>) {
        return static_cast<double>(s);
    } else {
        const float f = static_cast<float>(s);
        if (!std::isfinite(f)) return static_cast<double>(f);
        char buf[64];
        const auto end = std::to_chars(buf, buf + sizeof(buf), f).ptr;
        double d = 0;
        std::from_chars(buf, end, d);
        return d;
    }
}

class Context {
  public:
    explicit Context(std::vector<TensorName> names) : names_(std::move(names)) {}

    int add(Node n) {
        graph_.nodes.push_back(std::move(n));
        return static_cast<int>(graph_.nodes.size()) - 1;
    }
    int next_index() const { return static_cast<int>(graph_.nodes.size()); }

    // The name of the external tensor at `ptr`, registering it on first sight.
    template <class Element, class Layout>
    std::string tensor(const void* ptr, TensorRole role, const Layout& layout) {
        for (std::size_t i = 0; i < seen_.size(); ++i) {
            if (ptr != nullptr && seen_[i] == ptr) {
                Tensor& t = graph_.tensors[i];
                if (role == TensorRole::Output) t.role = TensorRole::Output;
                return t.name;
            }
        }
        Tensor t;
        t.name = name_for(ptr, role);
        t.role = role;
        t.element = dtype<Element>();
        t.rows = ::Catlass::detail::layout_rows(layout);
        t.cols = ::Catlass::detail::layout_cols(layout);
        t.row_stride = ::Catlass::detail::layout_row_stride(layout);
        graph_.tensors.push_back(t);
        seen_.push_back(ptr);
        return t.name;
    }

    Graph take() { return std::move(graph_); }

  private:
    std::string name_for(const void* ptr, TensorRole role) {
        for (const TensorName& n : names_)
            if (ptr != nullptr && n.ptr == ptr) return n.name;
        // Appended, not `"X" + std::to_string(n)`: GCC 12 reports a false -Wrestrict on the latter.
        std::string name = role == TensorRole::Input ? "X" : "D";
        const int k = role == TensorRole::Input ? inputs_++ : outputs_++;
        if (role == TensorRole::Input || k > 0) name += std::to_string(k);
        return name;
    }

    Graph graph_;
    std::vector<const void*> seen_;  // parallel to graph_.tensors
    std::vector<TensorName> names_;
    int inputs_ = 0;
    int outputs_ = 0;
};

// DescribeOp<Op>: NODES = graph nodes the op becomes; add(ctx, args, inputs) appends them and returns the
// index of the op's output node.
template <class Op>
struct DescribeOp {
    static_assert(sizeof(Op) == 0,
                  "describe: this op is not a Catlass EVG node or visitor; specialise "
                  "evg::graph::describe_detail::DescribeOp for it");
};

inline Node make_node(NodeKind kind, DType element, std::vector<int> inputs) {
    Node n;
    n.kind = kind;
    n.element = element;
    n.inputs = std::move(inputs);
    return n;
}

template <class E, bool USE_UB>
struct DescribeOp<F::VisitorAccLoad<E, USE_UB>> {
    static constexpr int NODES = 1;
    template <class Args>
    static int add(Context& ctx, const Args&, std::vector<int> inputs) {
        Node n = make_node(NodeKind::AccLoad, dtype<E>(), std::move(inputs));
        n.use_ub = USE_UB;
        return ctx.add(std::move(n));
    }
};

// The nodes with one external tensor: loads and broadcasts read it, stores and reduces write it.
template <NodeKind KIND, class E, TensorRole ROLE>
struct DescribeTensorNode {
    static constexpr int NODES = 1;
    template <class Layout>
    static int add_with(Context& ctx, const void* ptr, const Layout& layout, std::vector<int> inputs,
                        Functor fn = Functor::Add) {
        Node n = make_node(KIND, dtype<E>(), std::move(inputs));
        n.tensor = ctx.tensor<E>(ptr, ROLE, layout);
        n.fn = fn;
        return ctx.add(std::move(n));
    }
};

template <class E, class L>
struct DescribeOp<F::VisitorAuxLoad<E, L>> : DescribeTensorNode<NodeKind::AuxLoad, E, TensorRole::Input> {
    template <class Args>
    static int add(Context& ctx, const Args& a, std::vector<int> inputs) {
        return DescribeOp::add_with(ctx, a.ptr_aux, a.layout, std::move(inputs));
    }
};
template <class E, class L>
struct DescribeOp<F::VisitorAuxStore<E, L>> : DescribeTensorNode<NodeKind::AuxStore, E, TensorRole::Output> {
    template <class Args>
    static int add(Context& ctx, const Args& a, std::vector<int> inputs) {
        return DescribeOp::add_with(ctx, a.ptr_aux, a.layout, std::move(inputs));
    }
};
template <class E, class L>
struct DescribeOp<F::VisitorRowBroadcast<E, L>>
    : DescribeTensorNode<NodeKind::RowBroadcast, E, TensorRole::Input> {
    template <class Args>
    static int add(Context& ctx, const Args& a, std::vector<int> inputs) {
        return DescribeOp::add_with(ctx, a.ptr_row, a.layout, std::move(inputs));
    }
};
template <class E, class L>
struct DescribeOp<F::VisitorColBroadcast<E, L>>
    : DescribeTensorNode<NodeKind::ColBroadcast, E, TensorRole::Input> {
    template <class Args>
    static int add(Context& ctx, const Args& a, std::vector<int> inputs) {
        return DescribeOp::add_with(ctx, a.ptr_col, a.layout, std::move(inputs));
    }
};
template <class E, class L>
struct DescribeOp<F::VisitorScalarBroadcast<E, L>>
    : DescribeTensorNode<NodeKind::ScalarBroadcast, E, TensorRole::Input> {
    template <class Args>
    static int add(Context& ctx, const Args& a, std::vector<int> inputs) {
        return DescribeOp::add_with(ctx, a.ptr_scalar, a.layout, std::move(inputs));
    }
};
template <template <class> class Fn, class E, class L, F::ReduceStrategy S>
struct DescribeOp<F::VisitorRowReduce<Fn, E, L, S>>
    : DescribeTensorNode<NodeKind::RowReduce, E, TensorRole::Output> {
    template <class Args>
    static int add(Context& ctx, const Args& a, std::vector<int> inputs) {
        return DescribeOp::add_with(ctx, a.ptr_row_out, a.layout, std::move(inputs), functor_of<Fn, E>());
    }
};
template <template <class> class Fn, class E, class L, F::ReduceStrategy S>
struct DescribeOp<F::VisitorColReduce<Fn, E, L, S>>
    : DescribeTensorNode<NodeKind::ColReduce, E, TensorRole::Output> {
    template <class Args>
    static int add(Context& ctx, const Args& a, std::vector<int> inputs) {
        return DescribeOp::add_with(ctx, a.ptr_col_out, a.layout, std::move(inputs), functor_of<Fn, E>());
    }
};
template <template <class> class Fn, class E, class L, F::ReduceStrategy S>
struct DescribeOp<F::VisitorScalarReduce<Fn, E, L, S>>
    : DescribeTensorNode<NodeKind::ScalarReduce, E, TensorRole::Output> {
    template <class Args>
    static int add(Context& ctx, const Args& a, std::vector<int> inputs) {
        return DescribeOp::add_with(ctx, a.ptr_scalar_out, a.layout, std::move(inputs), functor_of<Fn, E>());
    }
};

template <class To, class From, hw::RoundMode MODE>
struct DescribeOp<F::VisitorCast<To, From, MODE>> {
    static constexpr int NODES = 1;
    template <class Args>
    static int add(Context& ctx, const Args&, std::vector<int> inputs) {
        Node n = make_node(NodeKind::Cast, dtype<To>(), std::move(inputs));
        n.from = dtype<From>();
        n.round = MODE;
        return ctx.add(std::move(n));
    }
};

template <template <class> class Fn, class E, class... Scalars>
struct DescribeOp<F::VisitorCompute<Fn, E, Scalars...>> {
    static constexpr int NODES = 1;
    template <class Args>
    static int add(Context& ctx, const Args& a, std::vector<int> inputs) {
        Node n = make_node(NodeKind::Compute, dtype<E>(), std::move(inputs));
        n.fn = functor_of<Fn, E>();
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            (n.scalars.push_back(scalar_value(tla::get<I>(a.scalars))), ...);
        }
        (std::index_sequence_for<Scalars...>{});
        return ctx.add(std::move(n));
    }
};

// TreeVisitor: children in order (each given the tree's own inputs, as its visit forwards them), then the
// parent with the children's outputs.
template <class NodeOp, class... ChildOps>
struct DescribeOp<F::TreeVisitor<NodeOp, ChildOps...>> {
    static constexpr int NODES = (DescribeOp<ChildOps>::NODES + ... + DescribeOp<NodeOp>::NODES);
    template <class Args>
    static int add(Context& ctx, const Args& a, const std::vector<int>& inputs) {
        return [&]<std::size_t... I>(std::index_sequence<I...>) {
            std::vector<int> outs;
            (outs.push_back(DescribeOp<ChildOps>::add(ctx, tla::get<I>(a), inputs)), ...);
            return DescribeOp<NodeOp>::add(ctx, tla::get<sizeof...(ChildOps)>(a), std::move(outs));
        }
        (std::index_sequence_for<ChildOps...>{});
    }
};

// TopologicalVisitor: ops in op order, each with its edges mapped to the output nodes of its children. An
// op's output node is known before it is added (NODES per op), so edges may point forward.
template <class EdgeTuple, class... Ops>
struct DescribeOp<F::TopologicalVisitor<EdgeTuple, Ops...>> {
    static constexpr int NODES = (0 + ... + DescribeOp<Ops>::NODES);
    static constexpr std::array<int, sizeof...(Ops)> OUTPUT_OFFSET = [] {
        std::array<int, sizeof...(Ops)> off{};
        int at = 0;
        std::size_t i = 0;
        ((off[i++] = (at += DescribeOp<Ops>::NODES) - 1), ...);
        return off;
    }();

    template <std::size_t... C>
    static std::vector<int> edge_nodes([[maybe_unused]] int base, tla::seq<C...>) {
        return {(base + OUTPUT_OFFSET[C])...};
    }

    template <class Args>
    static int add(Context& ctx, const Args& a, const std::vector<int>&) {
        const int base = ctx.next_index();
        [&]<std::size_t... I>(std::index_sequence<I...>) {
            (DescribeOp<Ops>::add(ctx, tla::get<I>(a),
                                  edge_nodes(base, tla::tuple_element_t<I, EdgeTuple>{})),
             ...);
        }
        (std::index_sequence_for<Ops...>{});
        return base + NODES - 1;
    }
};

}  // namespace describe_detail

// The runtime graph of a static EVG with the given Arguments. `names` optionally names external tensors by
// their device pointer; the others are named X0, X1, ... (inputs) and D, D1, ... (outputs).
template <class EVG>
Graph describe(const typename EVG::Arguments& args, std::vector<TensorName> names = {}) {
    describe_detail::Context ctx(std::move(names));
    describe_detail::DescribeOp<EVG>::add(ctx, args, {});
    return ctx.take();
}

}  // namespace evg::graph
