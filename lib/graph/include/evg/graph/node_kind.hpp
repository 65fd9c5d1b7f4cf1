// One descriptor per node kind: what the graph layer knows about a kind of EVG node, in one table that the
// graph's structures, the text parser and printer, validation, C++ emission, the UB budget, DynamicVisitor,
// the property generators and the reports read. The oracle keeps its own semantics on purpose (independence)
// and does not read it. Adding a kind: docs/adding-a-node-kind.md.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "catlass/epilogue/fusion/ub_accounting.hpp"
#include "evg/hw/numeric/vector_rules.hpp"

namespace evg::graph {

enum class NodeKind : uint8_t {
    AccLoad,          // the GEMM C tile (GM or UB workspace)
    AuxLoad,          // M x N input tensor tile
    AuxStore,         // writes its input to an M x N output tensor; returns the input
    Cast,             // ElementFrom -> ElementTo with a RoundMode
    Compute,          // element-wise functor over ElementCompute inputs, with scalars
    RowBroadcast,     // 1 x N vector repeated down the rows
    ColBroadcast,     // M x 1 vector repeated across the columns
    ScalarBroadcast,  // 1 x 1 value repeated over the tile
    RowReduce,        // reduces over rows into a 1 x N output (atomic); returns the input
    ColReduce,        // reduces over columns into an M x 1 output (atomic); returns the input
    ScalarReduce,     // reduces the whole matrix into a 1 x 1 output (atomic); returns the input
};

inline constexpr NodeKind kAllNodeKinds[] = {
    NodeKind::AccLoad,   NodeKind::AuxLoad,      NodeKind::AuxStore,     NodeKind::Cast,
    NodeKind::Compute,   NodeKind::RowBroadcast, NodeKind::ColBroadcast, NodeKind::ScalarBroadcast,
    NodeKind::RowReduce, NodeKind::ColReduce,    NodeKind::ScalarReduce};

// What a node line says after the kind's name (docs/graph-format.md §1), and so which fields of a Node mean
// something for the kind (Node's operator==, the printer, the parser).
enum class NodeSyntax : uint8_t {
    Workspace,       // <E> [gm|ub]                      element, use_ub
    Cast,            // <To> <- <From> [<RoundMode>]     element (To), from, round
    FunctorScalars,  // <Fn> <E> [[s0, s1, ...]]         fn (a compute functor), element, scalars
    FunctorTensor,   // <Fn> <E> <tensor>                fn (a reduce functor), element, tensor
    Tensor,          // <E> <tensor>                     element, tensor
};

// What the node does with its external tensor.
enum class TensorAccess : uint8_t { None, Reads, Writes };

// One dimension of the tensor a node names: the problem's (m or n), or 1.
enum class TensorExtent : uint8_t { Problem, One };

// The element type every input must have (validation), with the rule that says so.
enum class InputType : uint8_t {
    None,     // no inputs
    Element,  // the node's own element type
    From,     // Cast's ElementFrom
};

// Which table decides the element types a node accepts on an arch (validation's arch rules).
enum class ElementRule : uint8_t {
    Any,        // whatever the data movement takes (loads, stores, RowBroadcast)
    CastTable,  // the (source, destination, RoundMode) Cast table: cast-illegal
    Functor,    // the functor's instructions and arch: bf16-arithmetic, arch-functor, functor-dtype
    Reduce,     // the kind's instructions (NodeKindInfo::instructions), float types only: bf16-arithmetic,
                // functor-dtype
    Duplicate,  // rows filled with Duplicate: broadcast-dtype
};

// The template arguments of the emitted Catlass type after its name, and its Arguments braces (emit_cpp).
enum class CatlassForm : uint8_t {
    ElementUseUb,           // Name<E, USE_UB>                       Arguments {}
    ElementLayout,          // Name<E, Layout>                       Arguments {ptr, layout}
    ToFromMode,             // Name<To, From, AscendC::RoundMode::M> Arguments {}
    FunctorElementScalars,  // Name<Fn, E, E per scalar>             Arguments {} or {{s0, s1, ...}}
    FunctorElementLayout,   // Name<Fn, E, Layout>                   Arguments {ptr, layout}
};

// How DynamicVisitor makes the node's erased op (dynamic_program.cpp).
enum class DynamicFamily : uint8_t {
    AccLoad,  // made by the DynamicVisitor instance, which knows ElementC and the path
    Compute,  // make_compute_op: VisitorCompute over the functor
    Cast,     // make_cast_op: VisitorCast
    Data,     // make_data_op: the loads, the store, the broadcasts and the reduces, over the node's tensor
};

inline constexpr int kArityFromFunctor = -1;

struct NodeKindInfo {
    NodeKind kind;
    std::string_view name;  // in text, in labels, in the report's matrix
    NodeSyntax syntax;
    // Inputs: [min_inputs, max_inputs], or kArityFromFunctor (both) for the functor's own arity.
    int min_inputs;
    int max_inputs;
    InputType input_type;
    std::string_view input_rule;  // the validation rule of input_type ("store-dtype"); empty for None
    // The message of input_rule, a fmt format string over {0} the node's label, {1} the input's position
    // (1-based), {2} the input's node number, {3} its element type, {4} the type required.
    std::string_view input_message;
    TensorAccess tensor;
    TensorExtent rows, cols;  // the shape of the tensor (tensor-shape)
    ElementRule element_rule;
    // ElementRule::Reduce: the vector instructions whose element types the node accepts (reduce_dtype_legal).
    std::span<const hw::VectorOp> instructions;
    // The UB the node carves (the one accounting function of the EVG library); the second is AccLoad's from
    // the UB workspace (use_ub), the same as the first for every other kind.
    Catlass::Epilogue::Fusion::UbAccounting::NodeClass ub, ub_use_ub;
    std::string_view catlass_name;  // the visitor in Catlass::Epilogue::Fusion
    CatlassForm catlass_form;
    DynamicFamily dynamic;
    int report_row;  // the row of the conformance report's matrix (loads, broadcasts, compute, store,
                     // reduces)
    // Upstream Catlass has the node (a visitor of catlass/epilogue/fusion in every release with EVG, v1.6.0
    // on): the column evg/graph/implementation.hpp reads for the upstream dialect and the upstream corpus.
    bool in_upstream;
};

std::span<const NodeKindInfo> all_node_kinds();  // in the order of enum NodeKind
const NodeKindInfo& node_kind_info(NodeKind k);
inline std::string_view node_kind_name(NodeKind k) {
    return node_kind_info(k).name;
}
std::optional<NodeKind> node_kind_from_name(std::string_view s);

// Predicates over the descriptor.
inline bool reads_tensor(NodeKind k) {  // AuxLoad and the broadcasts: the tensor is an input
    return node_kind_info(k).tensor == TensorAccess::Reads;
}
inline bool writes_tensor(NodeKind k) {  // AuxStore and the reduces: the tensor is an output
    return node_kind_info(k).tensor == TensorAccess::Writes;
}
inline bool has_tensor(NodeKind k) {
    return node_kind_info(k).tensor != TensorAccess::None;
}
inline bool is_reduce(NodeKind k) {  // Row/Col/ScalarReduce: a reduce functor and an output tensor
    return node_kind_info(k).syntax == NodeSyntax::FunctorTensor;
}
inline bool is_broadcast(NodeKind k) {  // Row/Col/ScalarBroadcast: an input tensor smaller than the tile
    const NodeKindInfo& i = node_kind_info(k);
    return i.tensor == TensorAccess::Reads && (i.rows == TensorExtent::One || i.cols == TensorExtent::One);
}
inline bool has_functor(NodeKind k) {  // Compute and the reduces
    const NodeSyntax s = node_kind_info(k).syntax;
    return s == NodeSyntax::FunctorScalars || s == NodeSyntax::FunctorTensor;
}

}  // namespace evg::graph
