// Rule: TopologicalVisitor's EdgeTuple has exactly one tla::seq per op.
// expect-error: TopologicalVisitor: EdgeTuple must have exactly one tla::seq per op
#include "drive.hpp"

using namespace snippet;
#ifdef EVG_CASE_BAD
using Edges = tla::tuple<tla::seq<>, tla::seq<0>>;  // three ops, two edge lists
#else
using Edges = tla::tuple<tla::seq<>, tla::seq<0>, tla::seq<1>>;
#endif
using Graph = TopologicalVisitor<Edges, VisitorAuxLoad<float, L>, VisitorCompute<Relu, float>,
                                 VisitorAuxStore<float, L>>;

int main() {
    drive<Graph>({{nullptr, L{}}, {}, {nullptr, L{}}});
}
