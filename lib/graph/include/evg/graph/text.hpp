// The text form of graphs and problems: line-based SSA, `#` comments, canonical when printed. The full
// description (grammar, every node kind and functor, the one-root rule, every validation rule, examples) is
// docs/graph-format.md; below is the summary.
//
//   # D = cast<half>(relu(C + X))
//   problem arch=AtlasA2 m=256 n=512 k=1024 a=half b=half c=float cl=4096 path=gm tile=128x256x256
//   input  X : half[256, 512]
//   output D : half[256, 512]
//   %0 = AccLoad float
//   %1 = AuxLoad half X
//   %2 = Cast float <- half CAST_NONE (%1)
//   %3 = Compute AddRelu float (%0, %2)
//   %4 = Cast half <- float CAST_RINT (%3)
//   %5 = AuxStore half D (%4)
//
// Node lines, one per kind (nodes are numbered %0, %1, ... in order; inputs may name any node):
//   %i = AccLoad <E> [ub]                          ub: VisitorAccLoad<E, true> (UB workspace path)
//   %i = AuxLoad <E> <tensor>
//   %i = AuxStore <E> <tensor> (%a)
//   %i = Cast <To> <- <From> [<RoundMode>] (%a)    RoundMode defaults to CAST_NONE; always printed
//   %i = Compute <Fn> <E> [[s0, s1, ...]] (%a, %b, ...)
//   %i = RowBroadcast|ColBroadcast|ScalarBroadcast <E> <tensor>
//   %i = RowReduce|ColReduce|ScalarReduce <Fn> <E> <tensor> (%a)
// Tensor lines: `input|output <name> : <E>[<rows>, <cols>] [stride=<row stride>]` (stride printed only when
// it is not the column count). The problem line takes key=value pairs in any order: arch, m, n, k, a, b, c,
// cl are required; path (gm|ub) defaults to gm, tile (MxNxK) to the arch's L1 tile. Functor aliases of seed
// 000 are accepted (Plus, Maximum, Minimum, PlusRelu, ExpOp, SubOp, DivOp, Mul3) and printed canonically.
// Scalars print in the shortest form that reads back to the same double.
#pragma once
#include <string>
#include <string_view>

#include "evg/graph/graph.hpp"

namespace evg::graph {

std::string print(const Graph& g);
std::string print(const Problem& p);
// One node line without the newline, e.g. "%3 = Compute AddRelu float (%0, %2)".
std::string print_node(const Node& n, int index);
// How a finding of the model names a node: the node line without ` =` and inputs, then where it was written
// when it was parsed from text: "%1 RowBroadcast float bias (graph.evg:6:1)" (`source`: the name of the text,
// "line 6:1" when empty), "%3 Compute AddRelu float" for a graph built in code.
std::string node_label(const Node& n, int index, std::string_view source = {});
// A scalar as printed in the text: shortest round-trip form ("0.1", "-2", "1e+20", "inf", "nan").
std::string print_scalar(double v);

// Throw ParseError ("<line>:<column>: <message>") on malformed text.
// parse_graph rejects a `problem` line; parse_problem requires exactly one, before any other line.
Graph parse_graph(std::string_view text);
Problem parse_problem(std::string_view text);

}  // namespace evg::graph
