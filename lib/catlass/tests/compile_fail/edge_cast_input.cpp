// Rule: the input of a VisitorCast is its ElementFrom (TreeVisitor checks parent against children).
// expect-error: VisitorCast: the input element type must equal ElementFrom
#include "drive.hpp"

using namespace snippet;
#ifdef EVG_CASE_BAD
using ElementC = float;  // a Cast from half fed a float
#else
using ElementC = half;
#endif
using Graph =
    TreeVisitor<VisitorAuxStore<float, L>, TreeVisitor<VisitorCast<float, half>, VisitorAccLoad<ElementC>>>;

int main() {
    drive<Graph, ElementC>({{{}, {}}, {nullptr, L{}}});
}
