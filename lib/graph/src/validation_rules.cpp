// The catalogue of validation rules, and the element types each functor and node accepts, derived from the
// vector instruction table (evg/hw/numeric/vector_rules.hpp).
#include <array>
#include <span>

#include "evg/graph/validate.hpp"
#include "evg/hw/numeric/vector_rules.hpp"

namespace evg::graph {
namespace {

constexpr std::array<RuleInfo, 39> kRules = {{
    {"root", Severity::Error, "the graph has at least one node; the last node is the root"},
    {"bad-input-index", Severity::Error, "every input edge names an existing node"},
    {"cycle", Severity::Error, "no node depends on itself, directly or through other nodes"},
    {"forward-reference", Severity::Warning, "nodes are listed in topological order"},
    {"unreachable", Severity::Warning, "every node is reachable from the root"},
    {"unreachable-store", Severity::Error, "every AuxStore and reduce node is reachable from the root"},
    {"arity", Severity::Error, "the number of inputs suits the node kind and functor"},
    {"scalar-count", Severity::Error, "a Compute node has as many scalars as its functor has fields"},
    {"scalar-value", Severity::Error, "an integer Compute node's scalars are integers of its type"},
    {"compute-input-dtype", Severity::Error, "every Compute input has the ElementCompute type"},
    {"cast-input-dtype", Severity::Error, "a Cast's input has its ElementFrom type"},
    {"cast-same-type", Severity::Error, "a Cast's source and destination types differ"},
    {"store-dtype", Severity::Error, "an AuxStore's input has the store's element type"},
    {"reduce-dtype", Severity::Error, "a reduce node's input has the reduce's element type"},
    {"reduce-functor", Severity::Error, "a reduce functor is Add, Max or Min"},
    {"tensor-name", Severity::Error, "a tensor name is a C++ identifier"},
    {"duplicate-tensor", Severity::Error, "tensor names (and their C++ names) are unique"},
    {"tensor-stride", Severity::Error, "a tensor's row stride is at least its column count"},
    {"unknown-tensor", Severity::Error, "every tensor a node names is declared"},
    {"tensor-role", Severity::Error, "loads and broadcasts read inputs; stores and reduces write outputs"},
    {"tensor-dtype", Severity::Error, "a node's element type equals its tensor's"},
    {"output-without-writer", Severity::Error,
     "every declared output is written by an AuxStore or reduce node"},
    {"unused-tensor", Severity::Warning, "every declared input is used by a node"},
    {"multiple-writers", Severity::Warning, "an output tensor is written by one node"},
    {"no-output", Severity::Error, "the root reaches an AuxStore or a reduce node"},
    {"cast-illegal", Severity::Error, "the (source, destination, RoundMode) of a Cast is legal on the arch"},
    {"bf16-arithmetic", Severity::Error, "no bfloat16 arithmetic on AtlasA2"},
    {"arch-functor", Severity::Error, "Prelu, Reciprocal, Rsqrt and Sigmoid exist only on Ascend950"},
    {"functor-dtype", Severity::Error, "the functor's instructions accept the element type"},
    {"broadcast-dtype", Severity::Error, "Col/ScalarBroadcast's element type is one Duplicate accepts"},
    {"problem-shape", Severity::Error, "m, n and k are positive"},
    {"tile-shape", Severity::Error, "the L1 tile dimensions are positive"},
    {"acc-dtype", Severity::Error, "AccLoad reads the GEMM result type C"},
    {"acc-path", Severity::Error,
     "AccLoad's workspace (GM or UB) matches the problem's path; UB only on Ascend950"},
    {"tensor-shape", Severity::Error,
     "a node's tensor has the shape its kind needs ([m, n], [1, n], [m, 1], [1, 1])"},
    {"compute-length-multiple", Severity::Error, "computeLength is a positive multiple of 32"},
    {"ub-overflow", Severity::Error, "two buffer sets of the graph fit the arch's UB"},
    {"kernel-config", Severity::Error,
     "the kernel configuration is one upstream compiles (a static_assert of graph/kernel_config.hpp's "
     "table)"},
    {"kernel-config-documented", Severity::Warning,
     "the kernel configuration keeps the limits upstream documents without an assert (kernel_config.hpp)"},
}};

}  // namespace

std::span<const RuleInfo> validation_rules() {
    return kRules;
}

namespace {

using hw::VectorOp;

// The vector instructions the library issues for a functor (lib/catlass operations.hpp): AddRelu is Add then
// Relu, the Ascend950 Reciprocal is Divs(1, x), Rsqrt is Sqrt then Divs, Sigmoid is Muls, Exp, Adds, Divs,
// Clamp is Maxs then Mins.
std::span<const VectorOp> functor_instructions(Functor fn) {
    static constexpr VectorOp kExp[] = {VectorOp::Exp};
    static constexpr VectorOp kRelu[] = {VectorOp::Relu};
    static constexpr VectorOp kSqrt[] = {VectorOp::Sqrt};
    static constexpr VectorOp kRsqrtFast[] = {VectorOp::Rsqrt};
    static constexpr VectorOp kSilu[] = {VectorOp::Silu};
    static constexpr VectorOp kLeakyRelu[] = {VectorOp::LeakyRelu};
    static constexpr VectorOp kMuls[] = {VectorOp::Muls};
    static constexpr VectorOp kAdds[] = {VectorOp::Adds};
    static constexpr VectorOp kMaxs[] = {VectorOp::Maxs};
    static constexpr VectorOp kMins[] = {VectorOp::Mins};
    static constexpr VectorOp kAdd[] = {VectorOp::Add};
    static constexpr VectorOp kSub[] = {VectorOp::Sub};
    static constexpr VectorOp kMul[] = {VectorOp::Mul};
    static constexpr VectorOp kDiv[] = {VectorOp::Div};
    static constexpr VectorOp kMax[] = {VectorOp::Max};
    static constexpr VectorOp kMin[] = {VectorOp::Min};
    static constexpr VectorOp kAddRelu[] = {VectorOp::Add, VectorOp::Relu};
    static constexpr VectorOp kPrelu[] = {VectorOp::Prelu};
    static constexpr VectorOp kReciprocal[] = {VectorOp::Divs};
    static constexpr VectorOp kRsqrt[] = {VectorOp::Sqrt, VectorOp::Divs};
    static constexpr VectorOp kSigmoid[] = {VectorOp::Muls, VectorOp::Exp, VectorOp::Adds, VectorOp::Divs};
    static constexpr VectorOp kClamp[] = {VectorOp::Maxs, VectorOp::Mins};
    switch (fn) {
        case Functor::Exp:
            return kExp;
        case Functor::Relu:
            return kRelu;
        case Functor::Sqrt:
            return kSqrt;
        case Functor::RsqrtFast:
            return kRsqrtFast;
        case Functor::Silu:
            return kSilu;
        case Functor::LeakyRelu:
            return kLeakyRelu;
        case Functor::Muls:
            return kMuls;
        case Functor::Adds:
            return kAdds;
        case Functor::Maxs:
            return kMaxs;
        case Functor::Mins:
            return kMins;
        case Functor::Add:
            return kAdd;
        case Functor::Sub:
            return kSub;
        case Functor::Mul:
            return kMul;
        case Functor::Div:
            return kDiv;
        case Functor::Max:
            return kMax;
        case Functor::Min:
            return kMin;
        case Functor::AddRelu:
            return kAddRelu;
        case Functor::Prelu:
            return kPrelu;
        case Functor::Reciprocal:
            return kReciprocal;
        case Functor::Rsqrt:
            return kRsqrt;
        case Functor::Sigmoid:
            return kSigmoid;
        case Functor::Clamp:
            return kClamp;
    }
    return {};
}

bool all_accept(ArchId arch, std::span<const VectorOp> ops, DType t) {
    if (ops.empty()) return false;
    for (VectorOp op : ops)
        if (!hw::vector_dtype_legal(arch, op, t)) return false;
    return true;
}

// The reduce nodes reduce floating-point data: the library instantiates them for half, bfloat16 and float
// (dynamic_data.cpp), whatever their instructions would accept beyond that.
bool reduce_element(DType t) {
    return hw::dtype_is_float(t);
}

}  // namespace

bool functor_dtype_legal(ArchId arch, Functor fn, DType t) {
    return all_accept(arch, functor_instructions(fn), t);
}

bool reduce_dtype_legal(ArchId arch, DType t) {
    return reduce_dtype_legal(arch, NodeKind::RowReduce, t);
}

bool reduce_dtype_legal(ArchId arch, NodeKind kind, DType t) {
    return reduce_element(t) && all_accept(arch, node_kind_info(kind).instructions, t);
}

bool duplicate_dtype_legal(ArchId arch, DType t) {
    return hw::vector_dtype_legal(arch, VectorOp::Duplicate, t);
}

}  // namespace evg::graph
