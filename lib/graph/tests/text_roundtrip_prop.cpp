// Laws of the text format over generated problems.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "evg/graph/text.hpp"
#include "evg/graph/validate.hpp"
#include "graph_gen.hpp"

namespace evg::graph {
// rapidcheck prints counterexamples with showValue: show them as the text a user would read.
inline void showValue(const Problem& p, std::ostream& os) {
    os << "\n" << print(p);
}
}  // namespace evg::graph

using namespace evg::graph;

RC_GTEST_PROP(TextRoundTrip, ParseOfPrintedGraphIsTheGraph, (const Problem& p)) {
    RC_ASSERT(parse_graph(print(p.graph)) == p.graph);
}

RC_GTEST_PROP(TextRoundTrip, ParseOfPrintedProblemIsTheProblem, (const Problem& p)) {
    RC_ASSERT(parse_problem(print(p)) == p);
}

RC_GTEST_PROP(TextRoundTrip, PrintIsCanonical, (const Problem& p)) {
    const std::string once = print(p);
    RC_ASSERT(print(parse_problem(once)) == once);
}

RC_GTEST_PROP(TextRoundTrip, ScalarsReadBackBitExactly, (double v)) {
    const double back =
        parse_graph("%0 = Compute Muls float [" + print_scalar(v) + "] (%0)").nodes[0].scalars[0];
    RC_ASSERT(
        (std::isnan(v) ? std::isnan(back) : std::bit_cast<uint64_t>(back) == std::bit_cast<uint64_t>(v)));
}

RC_GTEST_PROP(GeneratedProblems, ValidateWithoutErrors, (const Problem& p)) {
    std::string errors;
    for (const Diagnostic& d : validate(p))
        if (d.severity == Severity::Error) errors += d.format() + "\n";
    RC_ASSERT(errors == std::string());
}
