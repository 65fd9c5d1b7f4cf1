// Rule: the input of a VisitorAuxStore is the store's Element.
// expect-error: VisitorAuxStore: the input element type must equal the store's Element
#include "drive.hpp"

using namespace snippet;
#ifdef EVG_CASE_BAD
using Root = VisitorAuxStore<half, L>;  // stores a float tile as half without a cast
using Graph = TreeVisitor<Root, TreeVisitor<VisitorCompute<Relu, float>, VisitorAccLoad<float>>>;
int main() {
    drive<Graph>({{{}, {}}, {nullptr, L{}}});
}
#else
using Root = VisitorAuxStore<half, L>;
using Graph = TreeVisitor<Root, TreeVisitor<VisitorCast<half, float>,
                                            TreeVisitor<VisitorCompute<Relu, float>, VisitorAccLoad<float>>>>;
int main() {
    drive<Graph>({{{{}, {}}, {}}, {nullptr, L{}}});
}
#endif
