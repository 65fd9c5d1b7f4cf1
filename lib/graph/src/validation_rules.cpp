// The catalogue of validation rules and the element types each functor accepts.
#include <array>

#include "evg/graph/validate.hpp"
#include "evg/hw/numeric/cast_rules.hpp"

namespace evg::graph {
namespace {

constexpr std::array<RuleInfo, 36> kRules = {{
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
    {"unused-tensor", Severity::Warning, "every declared tensor is used by a node"},
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
}};

}  // namespace

std::span<const RuleInfo> validation_rules() {
    return kRules;
}

bool functor_dtype_legal(ArchId arch, Functor fn, DType t) {
    const bool bf16 = t == DType::bf16 && hw::arithmetic_dtype_legal(arch, DType::bf16);
    const bool fp = t == DType::f16 || t == DType::f32 || bf16;
    switch (fn) {
        case Functor::Add:
        case Functor::Sub:
        case Functor::Mul:
        case Functor::Max:
        case Functor::Min:
        case Functor::Adds:
        case Functor::Muls:
        case Functor::Maxs:
        case Functor::Mins:
            return fp || t == DType::i16 || t == DType::i32;
        case Functor::Relu:
        case Functor::AddRelu:
            return fp || t == DType::i32;
        default:
            return fp;
    }
}

bool reduce_dtype_legal(ArchId arch, DType t) {
    return t == DType::f16 || t == DType::f32 || (t == DType::bf16 && hw::arithmetic_dtype_legal(arch, t));
}

bool reduce_dtype_legal(ArchId arch, NodeKind kind, DType t) {
    if (kind == NodeKind::RowReduce) return reduce_dtype_legal(arch, t);
    return t == DType::f16 || t == DType::f32;
}

bool duplicate_dtype_legal(DType t) {
    return t == DType::i16 || t == DType::f16 || t == DType::bf16 || t == DType::i32 || t == DType::f32;
}

}  // namespace evg::graph
