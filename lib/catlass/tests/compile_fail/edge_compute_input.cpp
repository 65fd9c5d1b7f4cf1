// Rule: every input of a VisitorCompute is ElementCompute (checked per edge by the visitor).
// expect-error: VisitorCompute: every input element type must equal ElementCompute
#include "drive.hpp"

using namespace snippet;
using Edges = tla::tuple<tla::seq<>, tla::seq<>, tla::seq<0, 1>, tla::seq<2>>;
#ifdef EVG_CASE_BAD
using Second = VisitorAuxLoad<half, L>;  // a half input to a float Add
#else
using Second = VisitorAuxLoad<float, L>;
#endif
using Graph = TopologicalVisitor<Edges, VisitorAccLoad<float>, Second, VisitorCompute<Add, float>,
                                 VisitorAuxStore<float, L>>;

int main() {
    drive<Graph>({{}, {nullptr, L{}}, {}, {nullptr, L{}}});
}
