// Prints a runtime graph as C++ against the Catlass EVG API, ready to paste into a host program:
// one TLA layout per external tensor, `using EVG = ...;` and `typename EVG::Arguments args{...};`.
//
// A graph in which every node but the root feeds exactly one consumer and every node is reachable (a tree)
// becomes a nest of TreeVisitor<Node, Children...> (leaves stay bare ops); its Arguments are nested per
// level, children first, then the node (docs/evg-semantics.md §3.3). Any other graph becomes
// TopologicalVisitor<tla::tuple<tla::seq<inputs...>...>, Ops...> in node order, with flat Arguments (§3.4).
// A tree deeper than 256 levels is emitted as a TopologicalVisitor too.
// The device pointers are named ptr<Name> (first letter upper-cased, e.g. ptrX, ptrRowOut) and must be
// declared by the surrounding code as GM_ADDR.
#pragma once
#include <string>

#include "evg/graph/graph.hpp"
#include "evg/graph/implementation.hpp"

namespace evg::graph {

struct CppEmission {
    std::string
        layouts;      // "auto layoutX = tla::MakeLayout<half, Catlass::layout::RowMajor>(256, 512);  // ..."
    std::string evg;  // "using EVG = ...;"
    std::string arguments;  // "typename EVG::Arguments args{...};"
    std::string text() const { return layouts + evg + arguments; }
};

// Whether the graph emits as a TreeVisitor nest (see above).
bool is_tree(const Graph& g);
// The one rule for tree or topological: a tree of at most 256 levels is emitted, and run by DynamicVisitor,
// as a TreeVisitor nest; anything else as a TopologicalVisitor (deeper trees keep the emitter's recursion
// bounded).
bool runs_as_tree(const Graph& g);

struct EmitOptions {
    // Whose Catlass the C++ is written for: evgcheck's reference copy (lib/catlass) or upstream Catlass (a
    // user's checkout). The EVG types and Arguments are spelled the same in both; the upstream dialect
    // refuses what upstream lacks (implementation.hpp: GraphError with first_missing's sentence), spells a
    // padded layout with upstream's TLA (MakeLayout of a shape, a stride and the origin shape), as upstream's
    // tla has no row-major MakeLayout with a row stride, and starts with a `// warning:` line when the graph
    // meets a known fault of upstream's (known_hazard).
    Implementation dialect = Implementation::evgcheck;
    // The layouts' extents as the expressions `m` and `n` (uint32_t variables the surrounding code declares,
    // and `n + pad` for a padded row) instead of the tensors' numbers: one emission then serves every problem
    // shape (the upstream corpus runs each compiled graph over random m and n).
    bool runtime_shapes = false;
    // The name of the text the graph was parsed from, for the refusal's node label (node_label).
    std::string_view source;
    // A tree as a TopologicalVisitor too (runs_as_tree is ignored): the same graph through the other visitor,
    // which must compute the same bits (the upstream corpus's tree instances run both).
    bool topological = false;
};

// Throws GraphError when the graph has no nodes, an input index out of range, or a cycle.
CppEmission emit_cpp(const Graph& g, const EmitOptions& options = {});
// The graph's emission preceded by a comment with the problem (arch, shapes, types, computeLength, path).
CppEmission emit_cpp(const Problem& p, const EmitOptions& options = {});

// "float", "half", "bfloat16_t", "int8_t", "uint8_t", "int16_t", "int32_t", "int64_t"
std::string_view cpp_element_name(DType t);
// The C++ names of a tensor's pointer and layout: "X" -> "ptrX", "layoutX"; "rowOut" -> "ptrRowOut", ...
std::string cpp_pointer_name(std::string_view tensor);
std::string cpp_layout_name(std::string_view tensor);

}  // namespace evg::graph
