// One test per validation rule: a graph that breaks exactly that rule, the diagnostic's rule id, severity,
// node, line, and message.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "evg/graph/builder.hpp"
#include "evg/graph/error.hpp"
#include "evg/graph/kernel_config.hpp"
#include "evg/graph/text.hpp"
#include "evg/graph/validate.hpp"

using namespace evg::graph;
using ::testing::HasSubstr;

namespace {

// D = C + X on AtlasA2 in half: the clean base that each test breaks in one place.
constexpr std::string_view kHeader = "problem arch=AtlasA2 m=256 n=512 k=1024 a=half b=half c=half cl=4096\n";
constexpr std::string_view kTensors =
    "input  X : half[256, 512]\n"
    "output D : half[256, 512]\n";

std::vector<Diagnostic> diagnose(std::string_view text) {
    return validate(parse_problem(text));
}

std::string with_base(std::string_view nodes) {
    return std::string(kHeader) + std::string(kTensors) + std::string(nodes);
}

std::vector<Diagnostic> of_rule(const std::vector<Diagnostic>& all, std::string_view rule) {
    std::vector<Diagnostic> out;
    for (const Diagnostic& d : all)
        if (d.rule == rule) out.push_back(d);
    return out;
}

std::string dump(const std::vector<Diagnostic>& all) {
    std::string s;
    for (const Diagnostic& d : all) s += d.format() + "\n";
    return s;
}

bool is_listed(std::string_view rule) {
    for (const RuleInfo& r : validation_rules())
        if (r.id == rule) return true;
    return false;
}

// Exactly one diagnostic of `rule`, with the given severity, node, line and message.
void expect_one(const std::vector<Diagnostic>& all, std::string_view rule, Severity severity, int node,
                int line, std::string_view message) {
    SCOPED_TRACE(dump(all));
    EXPECT_TRUE(is_listed(rule)) << rule << " is missing from validation_rules()";
    const auto found = of_rule(all, rule);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].severity, severity);
    EXPECT_EQ(found[0].node, node);
    EXPECT_EQ(found[0].line, line);
    EXPECT_EQ(found[0].message, message);
}

}  // namespace

TEST(Validate, CleanBaseHasNoDiagnostics) {
    const auto all =
        diagnose(with_base("%0 = AccLoad half\n"
                           "%1 = AuxLoad half X\n"
                           "%2 = Compute Add half (%0, %1)\n"
                           "%3 = AuxStore half D (%2)\n"));
    EXPECT_TRUE(all.empty()) << dump(all);
}

TEST(Validate, RuleIdsAreUnique) {
    const auto rules = validation_rules();
    for (std::size_t i = 0; i < rules.size(); ++i)
        for (std::size_t j = 0; j < i; ++j) EXPECT_NE(rules[i].id, rules[j].id);
}

TEST(Validate, Root_EmptyGraph) {
    const auto all = diagnose(kHeader);
    expect_one(all, "root", Severity::Error, -1, 0, "the graph has no nodes; the last node is the root");
}

TEST(Validate, BadInputIndex) {
    const auto all =
        diagnose(with_base("%0 = AccLoad half\n"
                           "%1 = AuxLoad half X\n"
                           "%2 = Compute Add half (%0, %7)\n"
                           "%3 = AuxStore half D (%2)\n"));
    expect_one(all, "bad-input-index", Severity::Error, 2, 6,
               "%2 Compute Add half: input 2 is %7, but the graph has only 4 nodes (%0..%3)");
}

TEST(Validate, Cycle_TwoNodes) {
    const auto all =
        diagnose(with_base("%0 = AccLoad half\n"
                           "%1 = Compute Add half (%0, %2)\n"
                           "%2 = Compute Relu half (%1)\n"
                           "%3 = AuxStore half D (%2)\n"
                           "%4 = AuxLoad half X\n"));
    expect_one(all, "cycle", Severity::Error, 1, 5,
               "cycle: %1 uses %2, %2 uses %1; a node's inputs must be computed before it");
}

TEST(Validate, Cycle_SelfReference) {
    const auto all =
        diagnose(with_base("%0 = AuxLoad half X\n"
                           "%1 = Compute Add half (%0, %1)\n"
                           "%2 = AuxStore half D (%1)\n"));
    expect_one(all, "cycle", Severity::Error, 1, 5, "cycle: %1 Compute Add half uses itself");
    EXPECT_TRUE(of_rule(all, "forward-reference").empty());
}

TEST(Validate, ForwardReference_IsAWarning) {
    const auto all =
        diagnose(with_base("%0 = Compute Add half (%1, %2)\n"
                           "%1 = AccLoad half\n"
                           "%2 = AuxLoad half X\n"
                           "%3 = AuxStore half D (%0)\n"));
    expect_one(all, "forward-reference", Severity::Warning, 0, 4,
               "%0 Compute Add half uses %1, which is listed after it; list nodes in topological order");
    EXPECT_FALSE(has_errors(all));
}

TEST(Validate, Unreachable_IsAWarning) {
    const auto all =
        diagnose(with_base("%0 = AccLoad half\n"
                           "%1 = AuxLoad half X\n"
                           "%2 = Compute Add half (%0, %0)\n"
                           "%3 = AuxStore half D (%2)\n"));
    expect_one(all, "unreachable", Severity::Warning, 1, 5,
               "%1 AuxLoad half is not reachable from the root %3; it still takes UB but is never visited");
    EXPECT_FALSE(has_errors(all));
}

TEST(Validate, Arity_PerKindAndFunctor) {
    const auto all =
        diagnose(with_base("%0 = AccLoad half\n"
                           "%1 = AuxLoad half X (%0)\n"
                           "%2 = Compute Add half (%1)\n"
                           "%3 = Compute AddRelu half (%0, %1, %2)\n"
                           "%4 = AuxStore half D (%3, %3)\n"));
    SCOPED_TRACE(dump(all));
    const auto found = of_rule(all, "arity");
    ASSERT_EQ(found.size(), 4u);
    EXPECT_EQ(found[0].message, "%1 AuxLoad takes no inputs, got 1");
    EXPECT_EQ(found[1].message, "%2 Compute Add takes at least 2 inputs, got 1");
    EXPECT_EQ(found[2].message, "%3 Compute AddRelu takes exactly 2 inputs, got 3");
    EXPECT_EQ(found[3].message, "%4 AuxStore takes exactly 1 input, got 2");
    EXPECT_EQ(found[3].line, 8);
}

TEST(Validate, ScalarCount) {
    const auto all =
        diagnose(with_base("%0 = AccLoad half\n"
                           "%1 = Compute LeakyRelu half (%0)\n"
                           "%2 = AuxStore half D (%1)\n"
                           "%3 = AuxLoad half X\n"));
    expect_one(all, "scalar-count", Severity::Error, 1, 5, "%1 Compute LeakyRelu half takes 1 scalar, got 0");
    const auto extra =
        diagnose(with_base("%0 = AccLoad half\n"
                           "%1 = Compute Relu half [1] (%0)\n"
                           "%2 = AuxStore half D (%1)\n"
                           "%3 = AuxLoad half X\n"));
    expect_one(extra, "scalar-count", Severity::Error, 1, 5, "%1 Compute Relu half takes no scalars, got 1");
    const auto clamp =
        diagnose(with_base("%0 = AccLoad half\n"
                           "%1 = Compute Clamp half [0] (%0)\n"
                           "%2 = AuxStore half D (%1)\n"
                           "%3 = AuxLoad half X\n"));
    expect_one(clamp, "scalar-count", Severity::Error, 1, 5, "%1 Compute Clamp half takes 2 scalars, got 1");
}

TEST(Validate, ScalarValue_IntegerComputeNeedsIntegerScalars) {
    const auto all = diagnose(
        "problem arch=AtlasA2 m=256 n=512 k=1024 a=int8 b=int8 c=int32 cl=4096\n"
        "output D : int32[256, 512]\n"
        "%0 = AccLoad int32\n"
        "%1 = Compute Adds int32 [0.5] (%0)\n"
        "%2 = AuxStore int32 D (%1)\n");
    expect_one(all, "scalar-value", Severity::Error, 1, 4,
               "%1 Compute Adds int32: scalar 0.5 is not an int32 value");
}

TEST(Validate, ComputeInputDtype) {
    const auto all =
        diagnose(with_base("%0 = AccLoad half\n"
                           "%1 = AuxLoad half X\n"
                           "%2 = Compute Add float (%0, %1)\n"
                           "%3 = Cast half <- float CAST_RINT (%2)\n"
                           "%4 = AuxStore half D (%3)\n"));
    SCOPED_TRACE(dump(all));
    const auto found = of_rule(all, "compute-input-dtype");
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].message,
              "%2 Compute Add float: input 1 (%0) is half; every input must be float (insert a Cast)");
    EXPECT_EQ(found[1].message,
              "%2 Compute Add float: input 2 (%1) is half; every input must be float (insert a Cast)");
    EXPECT_EQ(found[0].line, 6);
}

TEST(Validate, CastInputDtype) {
    const auto all =
        diagnose(with_base("%0 = AccLoad half\n"
                           "%1 = AuxLoad half X\n"
                           "%2 = Cast half <- float CAST_RINT (%1)\n"
                           "%3 = Compute Add half (%0, %2)\n"
                           "%4 = AuxStore half D (%3)\n"));
    expect_one(all, "cast-input-dtype", Severity::Error, 2, 6,
               "%2 Cast half <- float: input %1 is half, not float");
}

TEST(Validate, CastSameType) {
    const auto all =
        diagnose(with_base("%0 = AccLoad half\n"
                           "%1 = AuxLoad half X\n"
                           "%2 = Cast half <- half CAST_NONE (%1)\n"
                           "%3 = Compute Add half (%0, %2)\n"
                           "%4 = AuxStore half D (%3)\n"));
    expect_one(all, "cast-same-type", Severity::Error, 2, 6,
               "%2 Cast half <- half: source and destination are both half (no need to cast)");
    EXPECT_TRUE(of_rule(all, "cast-illegal").empty());
}

TEST(Validate, StoreDtype) {
    const auto all =
        diagnose(with_base("%0 = AccLoad half\n"
                           "%1 = AuxLoad half X\n"
                           "%2 = Cast float <- half CAST_NONE (%0)\n"
                           "%3 = AuxStore half D (%2)\n"));
    expect_one(all, "store-dtype", Severity::Error, 3, 7,
               "%3 AuxStore half: input %2 is float; insert a Cast to half before the store");
}

TEST(Validate, ReduceDtype) {
    const auto all =
        diagnose(with_base("output rowOut : float[1, 512]\n"
                           "%0 = AccLoad half\n"
                           "%1 = AuxLoad half X\n"
                           "%2 = Compute Add half (%0, %1)\n"
                           "%3 = AuxStore half D (%2)\n"
                           "%4 = RowReduce Add float rowOut (%3)\n"));
    expect_one(all, "reduce-dtype", Severity::Error, 4, 9,
               "%4 RowReduce Add float: input %3 is half; insert a Cast to float before the reduce");
}

TEST(Validate, ReduceFunctor) {
    const auto all =
        diagnose(with_base("output rowOut : half[1, 512]\n"
                           "%0 = AccLoad half\n"
                           "%1 = AuxLoad half X\n"
                           "%2 = Compute Add half (%0, %1)\n"
                           "%3 = AuxStore half D (%2)\n"
                           "%4 = RowReduce Mul half rowOut (%3)\n"));
    expect_one(all, "reduce-functor", Severity::Error, 4, 9,
               "%4 RowReduce Mul half: the reduce functor must be Add, Max or Min, not Mul");
}

TEST(Validate, TensorName_NotAnIdentifier) {
    GraphBuilder b;
    b.input("1x", DType::f16, 256, 512);
    b.output("D", DType::f16, 256, 512);
    const int x = b.aux_load(DType::f16, "1x");
    b.aux_store(DType::f16, "D", x);
    expect_one(validate(b.graph()), "tensor-name", Severity::Error, -1, 0,
               "tensor name '1x' is not a C++ identifier");
}

TEST(Validate, DuplicateTensor) {
    const auto all =
        diagnose(with_base("input  X : half[256, 512]\n"
                           "%0 = AuxLoad half X\n"
                           "%1 = AuxStore half D (%0)\n"));
    expect_one(all, "duplicate-tensor", Severity::Error, -1, 4,
               "tensor 'X' is declared twice (first at line 2)");
}

TEST(Validate, DuplicateTensor_SameCppName) {
    const auto all =
        diagnose(with_base("input  x : half[256, 512]\n"
                           "%0 = AuxLoad half X\n"
                           "%1 = AuxLoad half x\n"
                           "%2 = Compute Add half (%0, %1)\n"
                           "%3 = AuxStore half D (%2)\n"));
    expect_one(all, "duplicate-tensor", Severity::Error, -1, 4,
               "tensors 'X' and 'x' would both be named ptrX and layoutX in C++");
}

TEST(Validate, TensorStride) {
    const auto all = diagnose(std::string(kHeader) +
                              "input  X : half[256, 512] stride=500\n"
                              "output D : half[256, 512]\n"
                              "%0 = AuxLoad half X\n"
                              "%1 = AuxStore half D (%0)\n");
    expect_one(all, "tensor-stride", Severity::Error, -1, 2,
               "tensor 'X' has row stride 500, less than its 512 columns");
}

TEST(Validate, UnknownTensor_SuggestsTheNearName) {
    const auto all =
        diagnose(with_base("%0 = AccLoad half\n"
                           "%1 = AuxLoad half Xx\n"
                           "%2 = Compute Add half (%0, %1)\n"
                           "%3 = AuxStore half D (%2)\n"));
    expect_one(all, "unknown-tensor", Severity::Error, 1, 5,
               "%1 AuxLoad half reads tensor 'Xx', which is not declared; did you mean 'X'?");
}

TEST(Validate, TensorRole) {
    const auto all =
        diagnose(with_base("%0 = AccLoad half\n"
                           "%1 = AuxLoad half D\n"
                           "%2 = Compute Add half (%0, %1)\n"
                           "%3 = AuxStore half X (%2)\n"));
    SCOPED_TRACE(dump(all));
    const auto found = of_rule(all, "tensor-role");
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].message, "%1 AuxLoad half reads 'D', which is declared as an output");
    EXPECT_EQ(found[1].message, "%3 AuxStore half writes 'X', which is declared as an input");
}

TEST(Validate, TensorDtype) {
    const auto all = diagnose(std::string(kHeader) +
                              "input  X : float[256, 512]\n"
                              "output D : half[256, 512]\n"
                              "%0 = AccLoad half\n"
                              "%1 = AuxLoad half X\n"
                              "%2 = Compute Add half (%0, %1)\n"
                              "%3 = AuxStore half D (%2)\n");
    expect_one(all, "tensor-dtype", Severity::Error, 1, 5, "%1 AuxLoad half reads 'X', which holds float");
}

TEST(Validate, UnusedTensor_IsAWarning) {
    const auto all =
        diagnose(with_base("input  bias : half[1, 512]\n"
                           "%0 = AccLoad half\n"
                           "%1 = AuxLoad half X\n"
                           "%2 = Compute Add half (%0, %1)\n"
                           "%3 = AuxStore half D (%2)\n"));
    expect_one(all, "unused-tensor", Severity::Warning, -1, 4,
               "input 'bias' is declared but no node uses it");
    EXPECT_FALSE(has_errors(all));
}

TEST(Validate, UnwrittenOutput_IsAnError) {
    // Output E is declared, no node writes it: no run could fill it, so the graph is refused.
    const auto all =
        diagnose(with_base("output E : half[256, 512]\n"
                           "%0 = AccLoad half\n"
                           "%1 = AuxLoad half X\n"
                           "%2 = Compute Add half (%0, %1)\n"
                           "%3 = AuxStore half D (%2)\n"));
    expect_one(all, "output-without-writer", Severity::Error, -1, 4,
               "output 'E' is declared but no AuxStore or reduce node writes it (write it, or remove its "
               "declaration)");
    EXPECT_TRUE(of_rule(all, "unused-tensor").empty()) << dump(all);
    EXPECT_THROW(check(parse_problem(with_base("output E : half[256, 512]\n"
                                               "%0 = AccLoad half\n"
                                               "%1 = AuxStore half D (%0)\n"))),
                 ValidationError);
}

TEST(Validate, MultipleWriters_IsAWarning) {
    const auto all =
        diagnose(with_base("%0 = AccLoad half\n"
                           "%1 = AuxLoad half X\n"
                           "%2 = AuxStore half D (%0)\n"
                           "%3 = Compute Add half (%2, %1)\n"
                           "%4 = AuxStore half D (%3)\n"));
    expect_one(all, "multiple-writers", Severity::Warning, 4, 8, "output 'D' is written by %2 and %4");
}

TEST(Validate, NoOutput_IsAnError) {
    const auto all =
        diagnose(with_base("%0 = AccLoad half\n"
                           "%1 = AuxLoad half X\n"
                           "%2 = AuxStore half D (%1)\n"
                           "%3 = Compute Add half (%0, %0)\n"));
    expect_one(all, "no-output", Severity::Error, 3, 7,
               "no AuxStore or reduce node is reachable from the root %3; the graph writes nothing");
}

TEST(Validate, DropUnreachableWritersLeavesAValidGraph) {
    Problem p =
        parse_problem(with_base("output E : half[256, 512]\n"
                                "%0 = AccLoad half\n"
                                "%1 = AuxStore half E (%0)\n"
                                "%2 = Compute Relu half (%1)\n"  // built on the unreachable store
                                "%3 = AuxLoad half X\n"          // unreachable, but writes nothing
                                "%4 = AuxStore half D (%0)\n"));
    drop_unreachable_writers(p.graph);
    EXPECT_EQ(print(p.graph),
              "input  X : half[256, 512]\n"
              "output D : half[256, 512]\n"
              "%0 = AccLoad half\n"
              "%1 = AuxLoad half X\n"
              "%2 = AuxStore half D (%0)\n");
    EXPECT_FALSE(has_errors(validate(p)));
}

TEST(Validate, UnreachableStore_IsAnError) {
    // Its output would keep its initial contents, and a comparison with the oracle's (equally untouched)
    // buffer would pass without the kernel writing anything.
    const auto all =
        diagnose(with_base("output E : half[256, 512]\n"
                           "%0 = AccLoad half\n"
                           "%1 = AuxStore half E (%0)\n"
                           "%2 = AuxStore half D (%0)\n"));
    expect_one(all, "unreachable-store", Severity::Error, 1, 6,
               "%1 AuxStore half is not reachable from the root %2, so 'E' would never be written; make the "
               "root depend on it (a store passes its input on) or remove it");
    EXPECT_TRUE(has_errors(all));
}

TEST(Validate, CastIllegal_CarriesTheArchReason) {
    const auto all = diagnose(
        "problem arch=AtlasA2 m=256 n=512 k=1024 a=half b=half c=float cl=4096\n"
        "output D : bfloat16[256, 512]\n"
        "%0 = AccLoad float\n"
        "%1 = Cast bfloat16 <- float CAST_NONE (%0)\n"
        "%2 = AuxStore bfloat16 D (%1)\n");
    SCOPED_TRACE(dump(all));
    const auto found = of_rule(all, "cast-illegal");
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].line, 4);
    EXPECT_THAT(found[0].message,
                HasSubstr("%1 Cast bfloat16 <- float: Cast float -> bfloat16 with CAST_NONE is not "
                          "supported on AtlasA2 (float -> bfloat16 allows CAST_RINT, CAST_FLOOR, "
                          "CAST_CEIL, CAST_ROUND, CAST_TRUNC)"));
}

TEST(Validate, Bf16Arithmetic_OnAtlasA2Only) {
    const std::string body =
        "output D : bfloat16[256, 512]\n"
        "%0 = AccLoad float\n"
        "%1 = Cast bfloat16 <- float CAST_RINT (%0)\n"
        "%2 = Compute Add bfloat16 (%1, %1)\n"
        "%3 = AuxStore bfloat16 D (%2)\n";
    const auto a2 =
        diagnose("problem arch=AtlasA2 m=256 n=512 k=1024 a=half b=half c=float cl=4096\n" + body);
    expect_one(a2, "bf16-arithmetic", Severity::Error, 2, 5,
               "%2 Compute Add bfloat16: AtlasA2 has no bfloat16 arithmetic; cast to float first");
    const auto a950 =
        diagnose("problem arch=Ascend950 m=256 n=512 k=1024 a=float b=float c=float cl=4096\n" + body);
    EXPECT_TRUE(a950.empty()) << dump(a950);
}

TEST(Validate, ArchFunctor_SigmoidOnAtlasA2) {
    const auto all =
        diagnose(with_base("%0 = AccLoad half\n"
                           "%1 = Compute Sigmoid half (%0)\n"
                           "%2 = AuxStore half D (%1)\n"
                           "%3 = AuxLoad half X\n"));
    expect_one(
        all, "arch-functor", Severity::Error, 1, 5,
        "%1 Compute Sigmoid half: Sigmoid exists only on Ascend950 (CATLASS_ARCH 3510), not on AtlasA2");
}

TEST(Validate, FunctorDtype_ExpOnInt32_AndReduceOnInt32) {
    const auto all = diagnose(
        "problem arch=AtlasA2 m=256 n=512 k=1024 a=int8 b=int8 c=int32 cl=4096\n"
        "output D : int32[256, 512]\n"
        "output colOut : int32[256, 1]\n"
        "%0 = AccLoad int32\n"
        "%1 = Compute Exp int32 (%0)\n"
        "%2 = AuxStore int32 D (%1)\n"
        "%3 = ColReduce Max int32 colOut (%2)\n");
    SCOPED_TRACE(dump(all));
    const auto found = of_rule(all, "functor-dtype");
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].message,
              "%1 Compute Exp int32: Exp does not accept int32 on AtlasA2 (it accepts float, half)");
    EXPECT_EQ(found[1].message,
              "%3 ColReduce Max int32: ColReduce does not accept int32 on AtlasA2 (it accepts float, half)");
}

TEST(Validate, FunctorDtype_Bf16ColAndScalarReduceHaveNoReduceSum) {
    // Found by the model property: Col/ScalarReduce reduce with ReduceSum/Max/Min, which take half and float
    // only, even where the arch has bf16 arithmetic; RowReduce combines rows with Add/Max/Min and keeps bf16.
    const auto all = diagnose(
        "problem arch=Ascend950 m=64 n=64 k=32 a=half b=half c=float cl=1024\n"
        "input x : bfloat16[64, 64]\n"
        "output D : bfloat16[64, 64]\n"
        "output rowOut : bfloat16[1, 64]\n"
        "output colOut : bfloat16[64, 1]\n"
        "output sum : bfloat16[1, 1]\n"
        "%0 = AuxLoad bfloat16 x\n"
        "%1 = RowReduce Add bfloat16 rowOut (%0)\n"
        "%2 = ColReduce Add bfloat16 colOut (%1)\n"
        "%3 = ScalarReduce Max bfloat16 sum (%2)\n"
        "%4 = AuxStore bfloat16 D (%3)\n");
    SCOPED_TRACE(dump(all));
    const auto found = of_rule(all, "functor-dtype");
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].message,
              "%2 ColReduce Add bfloat16: ColReduce does not accept bfloat16 on Ascend950 (it accepts float, "
              "half)");
    EXPECT_EQ(found[1].message,
              "%3 ScalarReduce Max bfloat16: ScalarReduce does not accept bfloat16 on Ascend950 (it accepts "
              "float, half)");
}

TEST(Validate, BroadcastDtype_Int8ColBroadcastHasNoDuplicate) {
    // Found by the random-graph property: ColBroadcast fills rows with Duplicate, which has no int8.
    const auto all = diagnose(
        "problem arch=AtlasA2 m=1 n=1 k=1 a=int8 b=int8 c=int32 cl=32\n"
        "input  col0 : int8[1, 1]\n"
        "output D : int8[1, 1]\n"
        "%0 = ColBroadcast int8 col0\n"
        "%1 = AuxStore int8 D (%0)\n");
    expect_one(all, "broadcast-dtype", Severity::Error, 0, 4,
               "%0 ColBroadcast int8: ColBroadcast fills rows with Duplicate, which does not accept int8 (it "
               "accepts int16, half, bfloat16, int32, float); broadcast a wider type and Cast");
    const auto row = diagnose(
        "problem arch=AtlasA2 m=1 n=32 k=1 a=int8 b=int8 c=int32 cl=32\n"
        "input  row0 : int8[1, 32]\n"
        "output D : int8[1, 32]\n"
        "%0 = RowBroadcast int8 row0\n"
        "%1 = AuxStore int8 D (%0)\n");
    EXPECT_TRUE(of_rule(row, "broadcast-dtype").empty()) << "RowBroadcast copies rows: int8 is fine";
}

TEST(Validate, ProblemShape) {
    const auto all = diagnose(
        "problem arch=AtlasA2 m=0 n=512 k=1024 a=half b=half c=half cl=4096\n"
        "output D : half[0, 512]\n"
        "%0 = AccLoad half\n"
        "%1 = AuxStore half D (%0)\n");
    expect_one(all, "problem-shape", Severity::Error, -1, 1,
               "m, n and k must be positive, got m=0 n=512 k=1024");
}

TEST(Validate, TileShape) {
    const auto all = diagnose(
        "problem arch=AtlasA2 m=256 n=512 k=1024 a=half b=half c=half cl=4096 tile=0x256x256\n"
        "output D : half[256, 512]\n"
        "%0 = AccLoad half\n"
        "%1 = AuxStore half D (%0)\n");
    expect_one(all, "tile-shape", Severity::Error, -1, 1,
               "L1 tile 0x256x256: every dimension must be positive");
}

TEST(Validate, AccDtype) {
    const auto all = diagnose(
        "problem arch=AtlasA2 m=256 n=512 k=1024 a=half b=half c=float cl=4096\n"
        "output D : half[256, 512]\n"
        "%0 = AccLoad half\n"
        "%1 = AuxStore half D (%0)\n");
    expect_one(all, "acc-dtype", Severity::Error, 0, 3,
               "%0 AccLoad half: the GEMM result C is float; AccLoad must read float");
}

TEST(Validate, AccPath_NodeAndProblemDisagree) {
    const auto all = diagnose(
        "problem arch=Ascend950 m=256 n=512 k=1024 a=float b=float c=float cl=4096 path=gm\n"
        "output D : float[256, 512]\n"
        "%0 = AccLoad float ub\n"
        "%1 = Compute Relu float (%0)\n"
        "%2 = AuxStore float D (%1)\n");
    expect_one(all, "acc-path", Severity::Error, 0, 3,
               "%0 AccLoad float: AccLoad reads the UB workspace, but the problem uses path=gm");
}

TEST(Validate, AccPath_UbPathOnAtlasA2) {
    const auto all = diagnose(
        "problem arch=AtlasA2 m=256 n=512 k=1024 a=half b=half c=half cl=4096 path=ub\n"
        "output D : half[256, 512]\n"
        "%0 = AccLoad half ub\n"
        "%1 = Compute Relu half (%0)\n"
        "%2 = AuxStore half D (%1)\n");
    expect_one(all, "acc-path", Severity::Error, -1, 1,
               "path=ub (BasicMatmulTlaUbVisitor) exists only on Ascend950, not on AtlasA2");
}

TEST(Validate, TensorShape_PerKind) {
    const auto all = diagnose(std::string(kHeader) +
                              "input  X : half[256, 511]\n"
                              "input  bias : half[512, 1]\n"
                              "output D : half[256, 512]\n"
                              "%0 = AuxLoad half X\n"
                              "%1 = RowBroadcast half bias\n"
                              "%2 = Compute Add half (%0, %1)\n"
                              "%3 = AuxStore half D (%2)\n");
    SCOPED_TRACE(dump(all));
    const auto found = of_rule(all, "tensor-shape");
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].message,
              "%0 AuxLoad half reads 'X' of shape [256, 511]; AuxLoad needs [m, n] = [256, 512]");
    EXPECT_EQ(found[1].message,
              "%1 RowBroadcast half reads 'bias' of shape [512, 1]; RowBroadcast needs [1, n] = [1, 512]");
    EXPECT_EQ(found[1].line, 6);
}

TEST(Validate, ComputeLengthMultiple) {
    const std::string body =
        "output D : half[256, 512]\n"
        "%0 = AccLoad half\n"
        "%1 = AuxStore half D (%0)\n";
    expect_one(diagnose("problem arch=AtlasA2 m=256 n=512 k=1024 a=half b=half c=half cl=100\n" + body),
               "compute-length-multiple", Severity::Error, -1, 1,
               "computeLength 100 is not a multiple of 32 (BYTE_PER_C0 elements); try 96");
    expect_one(diagnose("problem arch=AtlasA2 m=256 n=512 k=1024 a=half b=half c=half cl=0\n" + body),
               "compute-length-multiple", Severity::Error, -1, 1,
               "computeLength 0 must be a positive multiple of 32 (BYTE_PER_C0 elements)");
}

TEST(Validate, UbOverflow_AtlasA2_half_3UbNodes_CL32768) {
    const auto all = diagnose("problem arch=AtlasA2 m=256 n=512 k=1024 a=half b=half c=half cl=32768\n" +
                              std::string(kTensors) +
                              "%0 = AccLoad half\n"
                              "%1 = AuxLoad half X\n"
                              "%2 = Compute Add half (%0, %1)\n"
                              "%3 = AuxStore half D (%2)\n");
    expect_one(all, "ub-overflow", Severity::Error, -1, 1,
               "computeLength 32768 needs 196,608 B of UB per buffer set x 2 sets = 393,216 B; AtlasA2 has "
               "196,608 B "
               "(the largest computeLength that fits is 16384)");
}

TEST(Validate, UbOverflow_UbPathCountsFromHalfL0c) {
    const auto all = diagnose(
        "problem arch=Ascend950 m=256 n=512 k=1024 a=float b=float c=float cl=7712 path=ub\n"
        "input  X : float[256, 512]\n"
        "output D : float[256, 512]\n"
        "%0 = AccLoad float ub\n"
        "%1 = AuxLoad float X\n"
        "%2 = Compute Add float (%0, %1)\n"
        "%3 = AuxStore float D (%2)\n");
    expect_one(
        all, "ub-overflow", Severity::Error, -1, 1,
        "computeLength 7712 needs 61,696 B of UB per buffer set x 2 sets from offset 131,072 (UB workspace "
        "path: C occupies [0, L0C_SIZE/2)) = 254,464 B; Ascend950 has 253,952 B (the largest computeLength "
        "that fits is 7680)");
}

TEST(Validate, FormatAndThrowOnError) {
    const auto all =
        diagnose(with_base("%0 = AccLoad half\n"
                           "%1 = AuxLoad half X\n"
                           "%2 = Cast half <- half CAST_NONE (%1)\n"
                           "%3 = Compute Add half (%0, %2)\n"
                           "%4 = AuxStore half D (%3)\n"));
    ASSERT_FALSE(all.empty());
    EXPECT_EQ(
        all[0].format(),
        "6:1: error [cast-same-type] %2 Cast half <- half: source and destination are both half (no need to "
        "cast)");
    try {
        throw_on_error(all);
        FAIL() << "expected a ValidationError";
    } catch (const ValidationError& e) {
        EXPECT_EQ(e.rule(), "cast-same-type");
        EXPECT_EQ(std::string(e.what()), all[0].format());
    }
    // Warnings alone do not throw.
    EXPECT_NO_THROW(
        throw_on_error(diagnose(with_base("input  bias : half[1, 512]\n"
                                          "%0 = AccLoad half\n"
                                          "%1 = AuxLoad half X\n"
                                          "%2 = Compute Add half (%0, %1)\n"
                                          "%3 = AuxStore half D (%2)\n"))));
}

TEST(Validate, GraphOnlyRulesNeedNoArch) {
    // validate(Graph) skips arch rules: Sigmoid and bf16 arithmetic are fine without an arch.
    GraphBuilder b;
    b.output("D", DType::bf16, 4, 4);
    const int acc = b.acc_load(DType::bf16);
    const int s = b.compute(Functor::Sigmoid, DType::bf16, {acc});
    b.aux_store(DType::bf16, "D", s);
    EXPECT_TRUE(validate(b.graph()).empty()) << dump(validate(b.graph()));
    EXPECT_FALSE(has_errors(validate(b.graph(), ArchId::Ascend950)));
    EXPECT_TRUE(has_errors(validate(b.graph(), ArchId::AtlasA2)));
}

// The kernel configuration (graph/kernel_config.hpp): a stated configuration upstream asserts against is an
// error, one it only documents against a warning; the default (no kernel keys) is not judged.
namespace {
constexpr std::string_view kKernelBase =
    "problem arch=Ascend950 m=64 n=64 k=64 a=half b=half c=float cl=2048 tile=32x64x64";
constexpr std::string_view kKernelGraph =
    "\noutput D : float[64, 64]\n"
    "%0 = AccLoad float\n"
    "%1 = AuxStore float D (%0)\n";
// The base with kernel keys `keys`; with `int8`, A and B int8 and C int32.
std::vector<Diagnostic> diagnose_kernel(std::string_view keys, bool int8 = false) {
    std::string text = std::string(kKernelBase) + " " + std::string(keys) + std::string(kKernelGraph);
    if (int8) {
        text.replace(text.find("a=half b=half c=float"), 21, "a=int8 b=int8 c=int32");
        for (size_t at; (at = text.find("float")) != std::string::npos;) text.replace(at, 5, "int32");
    }
    return diagnose(text);
}
}  // namespace

TEST(Validate, KernelConfig_LegalConfigurationsAreClean) {
    for (const char* keys : {"unit_flag=0 stages=1x3x4x4x2", "l1_resident=1 l0k=16 layout_a=col layout_b=col",
                             "mmad=pingpong_mutex unit_flag=0 stages=4x4x4x4x2"}) {
        const auto all = diagnose_kernel(keys);
        EXPECT_TRUE(all.empty()) << keys << "\n" << dump(all);
    }
}

TEST(Validate, KernelConfig_UnitFlagWithTwoL0CStages) {
    const auto all = diagnose_kernel("stages=2x2x2x2x2");
    expect_one(
        all, "kernel-config", Severity::Error, -1, 1,
        "kernel configuration pingpong uf l0c2 s2/2/2/2 l0k32 A:row B:row: unit-flag-l0c-stages: with the "
        "unit flag on, L0C has one stage (block_mmad_pingpong_tla.hpp, static_assert \"L0C_STAGES must "
        "be 1 when UnitFlag is true!\")");
}

TEST(Validate, KernelConfig_DocumentedLimitIsAWarning) {
    const auto all = diagnose_kernel("l0k=16", true);
    SCOPED_TRACE(dump(all));
    ASSERT_EQ(of_rule(all, "kernel-config-documented").size(), 2u);  // unit flag on int8, half a fractal
    EXPECT_THAT(of_rule(all, "kernel-config-documented")[0].message, HasSubstr("unit-flag-int8"));
    EXPECT_THAT(of_rule(all, "kernel-config-documented")[1].message, HasSubstr("l0k-fractal"));
    EXPECT_EQ(of_rule(all, "kernel-config-documented")[0].severity, Severity::Warning);
    EXPECT_TRUE(of_rule(all, "kernel-config").empty());
}

TEST(Validate, KernelConfig_DefaultIsNotJudged) {
    // int8 with the default configuration (unit flag on): the upstream corpus's default, not a stated one.
    const auto all = diagnose_kernel("", true);
    EXPECT_TRUE(of_rule(all, "kernel-config-documented").empty()) << dump(all);
}

// Every rule of the table is broken by some configuration and kept by the default one on the tiles the
// corpus uses, so that no rule is dead and the default is legal.
TEST(KernelRules, EachRuleFiresAndTheDefaultKeepsThem) {
    Problem base = parse_problem(std::string(kKernelBase) + std::string(kKernelGraph));
    for (const KernelRule& r : kernel_rules()) {
        SCOPED_TRACE(r.id);
        EXPECT_TRUE(r.holds(base));
        Problem big = base;
        big.tile = default_tile(ArchId::Ascend950);
        EXPECT_TRUE(r.holds(big));
    }
    // Each rule's example breaks it and no other rule of the table, so that a test compiling the example
    // (upstream/kernel_rules/) sees that rule's refusal alone.
    for (const KernelRule& r : kernel_rules()) {
        SCOPED_TRACE(r.id);
        Problem p = base;
        r.example(p);
        EXPECT_FALSE(r.holds(p));
        for (const KernelRule& other : kernel_rules()) {
            if (&other != &r) {
                EXPECT_TRUE(other.holds(p)) << "the example breaks " << other.id << " too";
            }
        }
        ASSERT_TRUE(kernel_config_refusal(p).has_value());
        EXPECT_EQ(kernel_config_refusal(p)->rfind(std::string(r.id) + ":", 0), 0u)
            << *kernel_config_refusal(p);
    }
}
