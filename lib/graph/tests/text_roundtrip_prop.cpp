// Laws of the text format over generated problems.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "evg/graph/emit_cpp.hpp"
#include "evg/graph/error.hpp"
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

// Nothing a user writes may crash the tool: any text either parses or throws ParseError; whatever parses can
// be validated, and emitted or refused with a GraphError.
RC_GTEST_PROP(TextRobustness, ArbitraryTextParsesOrThrowsParseError, (const std::string& text)) {
    try {
        (void)parse_graph(text);
    } catch (const ParseError&) {
    }
    RC_SUCCEED("no crash");
}

RC_GTEST_PROP(TextRobustness, MutatedProblemTextsNeverCrash, (const Problem& p)) {
    std::string text = print(p);
    const int edits = *rc::gen::inRange(1, 4);
    for (int e = 0; e < edits; ++e) {
        const std::size_t at = *rc::gen::inRange<std::size_t>(0, text.size());
        const char c = *rc::gen::elementOf(std::string("%0123456789 ,()[]=<-:#\nxabcfhu.e+"));
        if (*rc::gen::arbitrary<bool>())
            text[at] = c;
        else
            text.erase(at, 1);
    }
    try {
        const Problem q = parse_problem(text);
        (void)validate(q);
        try {
            (void)emit_cpp(q);
        } catch (const GraphError&) {
        }
    } catch (const ParseError&) {
    }
    RC_SUCCEED("no crash");
}

// Any kernel configuration (legal or not: legality is validate's) prints and reads back.
RC_GTEST_PROP(TextRoundTrip, KernelConfigurationReadsBack, (const Problem& base)) {
    Problem p = base;
    KernelConfig& k = p.kernel;
    k.mmad = *rc::gen::element(MmadPolicy::Pingpong, MmadPolicy::PingpongMutex);
    k.unit_flag = *rc::gen::arbitrary<bool>();
    k.hf32 = *rc::gen::arbitrary<bool>();
    k.l1_resident = *rc::gen::arbitrary<bool>();
    for (uint32_t* s : {&k.l1a_stages, &k.l1b_stages, &k.l0a_stages, &k.l0b_stages, &k.l0c_stages, &k.l0_k})
        *s = *rc::gen::inRange<uint32_t>(0, 300);
    k.layout_a = *rc::gen::element(MatrixLayout::RowMajor, MatrixLayout::ColumnMajor);
    k.layout_b = *rc::gen::element(MatrixLayout::RowMajor, MatrixLayout::ColumnMajor);
    RC_ASSERT(parse_problem(print(p)) == p);
}
