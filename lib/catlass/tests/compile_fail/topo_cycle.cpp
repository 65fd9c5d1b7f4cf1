// Rule: the graph is acyclic (a constexpr depth-first search over the seq indices).
// expect-error: TopologicalVisitor: the graph must be acyclic
#include "drive.hpp"

using namespace snippet;
#ifdef EVG_CASE_BAD
// 1 <- (0, 2) and 2 <- 1: a cycle between ops 1 and 2.
using Edges = tla::tuple<tla::seq<>, tla::seq<0, 2>, tla::seq<1>, tla::seq<2>>;
#else
using Edges = tla::tuple<tla::seq<>, tla::seq<0, 0>, tla::seq<1>, tla::seq<2>>;
#endif
using Graph = TopologicalVisitor<Edges, VisitorAuxLoad<float, L>, VisitorCompute<Add, float>,
                                 VisitorCompute<Relu, float>, VisitorAuxStore<float, L>>;

int main() {
    drive<Graph>({{nullptr, L{}}, {}, {}, {nullptr, L{}}});
}
