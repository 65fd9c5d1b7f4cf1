// The node kind table (node_kind.hpp). One row per kind, in the order of enum NodeKind.
#include "evg/graph/node_kind.hpp"

#include <array>
#include <iterator>

namespace evg::graph {
namespace {

using NC = Catlass::Epilogue::Fusion::UbAccounting::NodeClass;

constexpr std::string_view kSameTypeInput =
    "{0}: input {1} (%{2}) is {3}; every input must be {4} (insert a Cast)";
constexpr std::string_view kCastInput = "{0}: input %{2} is {3}, not {4}";
constexpr std::string_view kStoreInput = "{0}: input %{2} is {3}; insert a Cast to {4} before the store";
constexpr std::string_view kReduceInput = "{0}: input %{2} is {3}; insert a Cast to {4} before the reduce";

// A load: no inputs, reads an [m, n] tensor unless told otherwise.
constexpr NodeKindInfo loads(NodeKind kind, std::string_view name, TensorExtent rows, TensorExtent cols,
                             ElementRule rule, NC ub, std::string_view catlass_name, int report_row,
                             bool in_upstream) {
    return {.kind = kind,
            .name = name,
            .syntax = NodeSyntax::Tensor,
            .min_inputs = 0,
            .max_inputs = 0,
            .input_type = InputType::None,
            .input_rule = {},
            .input_message = {},
            .tensor = TensorAccess::Reads,
            .rows = rows,
            .cols = cols,
            .element_rule = rule,
            .instructions = {},
            .ub = ub,
            .ub_use_ub = ub,
            .catlass_name = catlass_name,
            .catlass_form = CatlassForm::ElementLayout,
            .dynamic = DynamicFamily::Data,
            .report_row = report_row,
            .in_upstream = in_upstream};
}

// RowReduce combines rows with Add (Max, Min: the same types); Col/ScalarReduce reduce each row with
// ReduceSum (ReduceMax, ReduceMin: the same types). Both then store through a GM atomic, which takes every
// float type.
constexpr hw::VectorOp kRowReduceOps[] = {hw::VectorOp::Add, hw::VectorOp::Max, hw::VectorOp::Min};
constexpr hw::VectorOp kReduceOps[] = {hw::VectorOp::ReduceSum, hw::VectorOp::ReduceMax,
                                       hw::VectorOp::ReduceMin};

// A reduce: one input of its own type, writes a tensor with a reduce functor.
constexpr NodeKindInfo reduces(NodeKind kind, std::string_view name, TensorExtent rows, TensorExtent cols,
                               std::span<const hw::VectorOp> instructions, NC ub,
                               std::string_view catlass_name, int report_row) {
    return {.kind = kind,
            .name = name,
            .syntax = NodeSyntax::FunctorTensor,
            .min_inputs = 1,
            .max_inputs = 1,
            .input_type = InputType::Element,
            .input_rule = "reduce-dtype",
            .input_message = kReduceInput,
            .tensor = TensorAccess::Writes,
            .rows = rows,
            .cols = cols,
            .element_rule = ElementRule::Reduce,
            .instructions = instructions,
            .ub = ub,
            .ub_use_ub = ub,
            .catlass_name = catlass_name,
            .catlass_form = CatlassForm::FunctorElementLayout,
            .dynamic = DynamicFamily::Data,
            .report_row = report_row,
            .in_upstream = false};  // upstream Catlass has no reduce node
}

constexpr TensorExtent kP = TensorExtent::Problem;
constexpr TensorExtent k1 = TensorExtent::One;

constexpr std::array<NodeKindInfo, 11> kKinds = {{
    {.kind = NodeKind::AccLoad,
     .name = "AccLoad",
     .syntax = NodeSyntax::Workspace,
     .min_inputs = 0,
     .max_inputs = 0,
     .input_type = InputType::None,
     .input_rule = {},
     .input_message = {},
     .tensor = TensorAccess::None,
     .rows = kP,
     .cols = kP,
     .element_rule = ElementRule::Any,
     .instructions = {},
     .ub = NC::AccLoadGm,
     .ub_use_ub = NC::AccLoadUb,
     .catlass_name = "VisitorAccLoad",
     .catlass_form = CatlassForm::ElementUseUb,
     .dynamic = DynamicFamily::AccLoad,
     .report_row = 0,
     .in_upstream = true},
    loads(NodeKind::AuxLoad, "AuxLoad", kP, kP, ElementRule::Any, NC::AuxLoad, "VisitorAuxLoad", 1, true),
    {.kind = NodeKind::AuxStore,
     .name = "AuxStore",
     .syntax = NodeSyntax::Tensor,
     .min_inputs = 1,
     .max_inputs = 1,
     .input_type = InputType::Element,
     .input_rule = "store-dtype",
     .input_message = kStoreInput,
     .tensor = TensorAccess::Writes,
     .rows = kP,
     .cols = kP,
     .element_rule = ElementRule::Any,
     .instructions = {},
     .ub = NC::AuxStore,
     .ub_use_ub = NC::AuxStore,
     .catlass_name = "VisitorAuxStore",
     .catlass_form = CatlassForm::ElementLayout,
     .dynamic = DynamicFamily::Data,
     .report_row = 7,
     .in_upstream = true},
    {.kind = NodeKind::Cast,
     .name = "Cast",
     .syntax = NodeSyntax::Cast,
     .min_inputs = 1,
     .max_inputs = 1,
     .input_type = InputType::From,
     .input_rule = "cast-input-dtype",
     .input_message = kCastInput,
     .tensor = TensorAccess::None,
     .rows = kP,
     .cols = kP,
     .element_rule = ElementRule::CastTable,
     .instructions = {},
     .ub = NC::Cast,
     .ub_use_ub = NC::Cast,
     .catlass_name = "VisitorCast",
     .catlass_form = CatlassForm::ToFromMode,
     .dynamic = DynamicFamily::Cast,
     .report_row = 6,
     .in_upstream = true},
    {.kind = NodeKind::Compute,
     .name = "Compute",
     .syntax = NodeSyntax::FunctorScalars,
     .min_inputs = kArityFromFunctor,
     .max_inputs = kArityFromFunctor,
     .input_type = InputType::Element,
     .input_rule = "compute-input-dtype",
     .input_message = kSameTypeInput,
     .tensor = TensorAccess::None,
     .rows = kP,
     .cols = kP,
     .element_rule = ElementRule::Functor,
     .instructions = {},
     .ub = NC::Compute,
     .ub_use_ub = NC::Compute,
     .catlass_name = "VisitorCompute",
     .catlass_form = CatlassForm::FunctorElementScalars,
     .dynamic = DynamicFamily::Compute,
     .report_row = 5,
     .in_upstream = true},
    loads(NodeKind::RowBroadcast, "RowBroadcast", k1, kP, ElementRule::Any, NC::RowBroadcast,
          "VisitorRowBroadcast", 2, true),
    loads(NodeKind::ColBroadcast, "ColBroadcast", kP, k1, ElementRule::Duplicate, NC::ColBroadcast,
          "VisitorColBroadcast", 3, false),
    loads(NodeKind::ScalarBroadcast, "ScalarBroadcast", k1, k1, ElementRule::Duplicate, NC::ScalarBroadcast,
          "VisitorScalarBroadcast", 4, false),
    reduces(NodeKind::RowReduce, "RowReduce", k1, kP, kRowReduceOps, NC::RowReduce, "VisitorRowReduce", 8),
    reduces(NodeKind::ColReduce, "ColReduce", kP, k1, kReduceOps, NC::ColReduce, "VisitorColReduce", 9),
    reduces(NodeKind::ScalarReduce, "ScalarReduce", k1, k1, kReduceOps, NC::ScalarReduce,
            "VisitorScalarReduce", 10),
}};

constexpr bool kinds_in_enum_order() {
    if (std::size(kAllNodeKinds) != kKinds.size()) return false;
    for (std::size_t i = 0; i < kKinds.size(); ++i)
        if (static_cast<std::size_t>(kKinds[i].kind) != i || kAllNodeKinds[i] != kKinds[i].kind) return false;
    return true;
}
static_assert(kinds_in_enum_order(), "kKinds must list the node kinds in the order of enum NodeKind");

// Every descriptor is consistent with itself: an input rule exactly when the kind takes inputs, and a tensor
// exactly when the syntax names one, instructions exactly for the reduce rule, and one report row per kind
// (rows 0 .. size - 1).
constexpr bool rows_consistent() {
    for (const NodeKindInfo& k : kKinds) {
        const bool takes_inputs = k.max_inputs != 0;
        if (takes_inputs != (k.input_type != InputType::None)) return false;
        if (takes_inputs != !k.input_rule.empty()) return false;
        const bool names_tensor = k.syntax == NodeSyntax::Tensor || k.syntax == NodeSyntax::FunctorTensor;
        if (names_tensor != (k.tensor != TensorAccess::None)) return false;
        if ((k.catlass_form == CatlassForm::ElementLayout ||
             k.catlass_form == CatlassForm::FunctorElementLayout) != names_tensor)
            return false;
        if ((k.element_rule == ElementRule::Reduce) == k.instructions.empty()) return false;
        if (k.report_row < 0 || static_cast<std::size_t>(k.report_row) >= kKinds.size()) return false;
        for (const NodeKindInfo& other : kKinds)
            if (&other != &k && other.report_row == k.report_row) return false;
    }
    return true;
}
static_assert(rows_consistent(), "a node kind's descriptor contradicts itself");

}  // namespace

std::span<const NodeKindInfo> all_node_kinds() {
    return kKinds;
}

const NodeKindInfo& node_kind_info(NodeKind k) {
    return kKinds[static_cast<std::size_t>(k)];
}

std::optional<NodeKind> node_kind_from_name(std::string_view s) {
    for (const NodeKindInfo& k : kKinds)
        if (k.name == s) return k.kind;
    return std::nullopt;
}

}  // namespace evg::graph
