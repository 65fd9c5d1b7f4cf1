// Validation of a runtime graph and of a problem. Every broken rule becomes a Diagnostic that names the node
// (and the line and column when the graph came from text) and carries a stable rule id, so tests and the
// conformance report can match on it.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "evg/graph/graph.hpp"

namespace evg::graph {

enum class Severity : uint8_t { Error, Warning };
std::string_view severity_name(Severity s);  // "error", "warning"

struct Diagnostic {
    Severity severity = Severity::Error;
    std::string rule;  // stable id, e.g. "cast-illegal"
    int node = -1;     // node index, -1 when the diagnostic is about the problem or a tensor
    int line = 0;      // 1-based position in the text, 0 when unknown
    int column = 0;
    std::string message;  // a sentence naming the node, e.g. "%2 Cast bfloat16 <- float CAST_NONE: ..."

    // "4:1: error [cast-illegal] %2 Cast bfloat16 <- float CAST_NONE: ..." (no position prefix when unknown)
    std::string format() const;
};

struct RuleInfo {
    std::string_view id;
    Severity severity;
    std::string_view summary;
};
// Every rule validate() can report, in the order it checks them.
std::span<const RuleInfo> validation_rules();

// Rules that need neither an arch nor problem dimensions: structure, arity, element types, tensors.
std::vector<Diagnostic> validate(const Graph& g);
// The above plus the arch rules: cast legality, bf16 arithmetic, functor availability and element types.
std::vector<Diagnostic> validate(const Graph& g, ArchId arch);
// The above plus the problem rules: dimensions, AccLoad type and path, tensor shapes, computeLength, UB.
std::vector<Diagnostic> validate(const Problem& p);

bool has_errors(std::span<const Diagnostic> diagnostics);
// Throws ValidationError for the first error (warnings are ignored).
void throw_on_error(std::span<const Diagnostic> diagnostics);
inline void check(const Problem& p) {
    throw_on_error(validate(p));
}
inline void check(const Graph& g, ArchId arch) {
    throw_on_error(validate(g, arch));
}

// The element types of the vector instructions the library issues for a functor
// (evg/hw/numeric/vector_rules.hpp, docs/hardware-model.md §6.3): a type is legal when every instruction of
// the functor accepts it (AddRelu: Add and Relu; Sigmoid: Muls, Exp, Adds, Divs; ...). Arch availability of
// the functor is not checked here.
bool functor_dtype_legal(ArchId arch, Functor fn, DType t);
// Element types of RowReduce (the RowReduce case of the next function).
bool reduce_dtype_legal(ArchId arch, DType t);
// The same per reduce kind: the reduce nodes take float types (half, float; bfloat16 where the arch has bf16
// arithmetic) that their instructions accept: RowReduce combines rows with Add/Max/Min, Col/ScalarReduce use
// ReduceSum/ReduceMax/ReduceMin, which take half and float only.
bool reduce_dtype_legal(ArchId arch, NodeKind kind, DType t);
// Element types of Duplicate, which Col/ScalarBroadcast use to fill rows.
bool duplicate_dtype_legal(ArchId arch, DType t);

}  // namespace evg::graph
