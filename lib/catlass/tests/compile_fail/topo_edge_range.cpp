// Rule: every child index in EdgeTuple names an op.
// expect-error: TopologicalVisitor: every child index in EdgeTuple must name an op
#include "drive.hpp"

using namespace snippet;
#ifdef EVG_CASE_BAD
using Edges = tla::tuple<tla::seq<>, tla::seq<0>, tla::seq<3>>;  // there is no op 3
#else
using Edges = tla::tuple<tla::seq<>, tla::seq<0>, tla::seq<1>>;
#endif
using Graph = TopologicalVisitor<Edges, VisitorAuxLoad<float, L>, VisitorCompute<Relu, float>,
                                 VisitorAuxStore<float, L>>;

int main() {
    drive<Graph>({{nullptr, L{}}, {}, {nullptr, L{}}});
}
