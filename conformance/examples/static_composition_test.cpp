// Static compositions: hand-written static EVGs whose multi-input nodes are not commutative,
// run through the library's own TreeVisitor and TopologicalVisitor (the property and catalogue suites run
// graphs through DynamicVisitor, whose traversal is its own code) with the seed host code of seed 003
// (BlockMmadTla, BlockEpilogue<EpilogueVisitor<false>, ...>, BasicMatmulTlaVisitor), checked against the
// oracle through describe<EVG> and the judge (example_case.hpp), on AtlasA2 and Ascend950, over the shapes of
// EVG_EXAMPLE_CASES (tails in M, N and K, M = 1, N = 1, cols > CL, several tiles per AIV).
//
// Every case also proves that its data can tell: expect_data_tells() judges the run against the oracle of a
// mutant graph (two arguments of a non-commutative node swapped, or one child's output given for both
// arguments of Max / Min) and requires mismatches, so a traversal that passed its children in another order,
// or a stale cached output, fails the case. Data: integers (A, B in [-3, 3], inputs in [-5, 5], mixed sign)
// and powers of two as divisors and slopes, so every result is exact in half and float.
//
//   StaticComposition_Sub3_tree   D = Sub(Muls[2](C), Adds[-3](X), bias[j]): an n-ary Sub over three
//                                 distinct subtrees, two of them scalar Computes
//   StaticComposition_Div_tree    D = Div(Sub(C, X), col[i]): Sub, then Div by a ColBroadcast
//   StaticComposition_MaxMin_tree D = Max(Min(C, X), Muls[-1](Y)) over mixed-sign data
//   StaticComposition_Prelu_tree  D = Prelu(C, slope[j]) (Ascend950 only)
//   StaticComposition_Sub_dag     TopologicalVisitor: S = Adds[1](C) shared by Sub(S, X) and Sub(bias, S) (S
//                                 first in one, second in the other), D = Max(S - X, bias - S); its cache
//                                 must be reset for every stage of every tile
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <vector>

#include "host_code.hpp"

namespace {

using namespace Catlass;
using namespace evg::examples;
namespace F = Catlass::Epilogue::Fusion;

template <class E>
constexpr DType dtype_of() {
    return std::is_same_v<E, half> ? DType::f16 : DType::f32;
}
template <class E>
constexpr const char* text_of() {
    return std::is_same_v<E, half> ? "half" : "float";
}

// A and B (integers in [-3, 3]: with K = 40, |C| <= 360, exact in half and float).
template <class E>
struct ExampleOperands {
    uint8_t *deviceA, *deviceB;
    explicit ExampleOperands(ExampleCase& ex) {
        const Shape& s = ex.shape();
        deviceA = ex.input("A", integers(dtype_of<E>(), size_t(s.m) * s.k, -3, 3, 1));
        deviceB = ex.input("B", integers(dtype_of<E>(), size_t(s.k) * s.n, -3, 3, 2));
    }
};

// `count` values drawn from `values` (powers of two: exact divisors and slopes).
HostTensor pick(DType dtype, size_t count, std::initializer_list<double> values, uint64_t seed) {
    const HostTensor index = integers(DType::i32, count, 0, int64_t(values.size()) - 1, seed);
    HostTensor t(dtype, count);
    for (size_t i = 0; i < count; ++i)
        t.set_value(i, *(values.begin() + static_cast<std::ptrdiff_t>(index.value(i))));
    return t;
}

// Runs EVG on seed 003's host code and checks it against `text` (the graph after the problem line), then
// against every mutant (text with one substring replaced) that the data must tell apart.
struct Edit {
    const char* from;
    const char* to;
};
struct Mutant {
    std::vector<Edit> edits;  // each replaces the first occurrence of `from`
    const char* what;
};
template <class ArchTag, uint32_t CL, class E, class EVG>
void run_and_check(ExampleCase& ex, const ExampleOperands<E>& ab, uint8_t* deviceD,
                   const typename EVG::Arguments& args, const std::string& text,
                   std::initializer_list<Mutant> mutants) {
    const Shape& s = ex.shape();
    constexpr uint32_t computeLength = kComputeLength<EVG, ArchTag, false, CL>;
    auto report = RunTlaVisitor<ArchTag, EVG, false, computeLength, E, E>(
        GemmCoord{s.m, s.n, s.k}, ab.deviceA, ab.deviceB, deviceD, args);
    const std::string head =
        problem_line(arch_name<ArchTag>(), s, text_of<E>(), text_of<E>(), computeLength, false);
    ex.check(report, head + text, evg::graph::describe<EVG>(args, ex.tensor_names()),
             {EVG::UB_NODES, computeLength, 0, false}, true);
    for (const Mutant& mu : mutants) {
        std::string mutant = text;
        for (const Edit& e : mu.edits) {
            const size_t at = mutant.find(e.from);
            ASSERT_NE(at, std::string::npos) << e.from;
            mutant.replace(at, std::string(e.from).size(), e.to);
        }
        ex.expect_data_tells(head + mutant, mu.what);
    }
}

// D = Sub(Muls[2](C), Adds[-3](X), bias[j]).
template <class ArchTag, uint32_t CL, class E>
void Sub3Tree(const Shape& s) {
    evg::hw::reset_device();
    ExampleCase ex(s);
    const uint32_t m = s.m, n = s.n;
    ExampleOperands<E> ab(ex);
    uint8_t* deviceX = ex.input("X", integers(dtype_of<E>(), size_t(m) * n, -5, 5, 3));
    uint8_t* deviceBias = ex.input("bias", integers(dtype_of<E>(), n, -5, 5, 4));
    uint8_t* deviceD = ex.output("D", dtype_of<E>(), m, n);
    auto layoutX = tla::MakeLayout<E, layout::RowMajor>(m, n);
    auto layoutBias = tla::MakeLayout<E, layout::RowMajor>(1, n);
    auto layoutD = tla::MakeLayout<E, layout::RowMajor>(m, n);
    using EVG =
        F::TreeVisitor<F::VisitorAuxStore<E, decltype(layoutD)>,
                       F::TreeVisitor<F::VisitorCompute<F::Sub, E>,
                                      F::TreeVisitor<F::VisitorCompute<F::Muls, E, E>, F::VisitorAccLoad<E>>,
                                      F::TreeVisitor<F::VisitorCompute<F::Adds, E, E>,
                                                     F::VisitorAuxLoad<E, decltype(layoutX)>>,
                                      F::VisitorRowBroadcast<E, decltype(layoutBias)>>>;
    typename EVG::Arguments args{
        {{{}, {{E(2.0f)}}}, {{deviceX, layoutX}, {{E(-3.0f)}}}, {deviceBias, layoutBias}, {}},
        {deviceD, layoutD}};
    run_and_check<ArchTag, CL, E, EVG>(
        ex, ab, deviceD, args,
        fmt::format(R"(input X : {0}[{1}, {2}]
input bias : {0}[1, {2}]
output D : {0}[{1}, {2}]
%0 = AccLoad {0}
%1 = Compute Muls {0} [2] (%0)
%2 = AuxLoad {0} X
%3 = Compute Adds {0} [-3] (%2)
%4 = RowBroadcast {0} bias
%5 = Compute Sub {0} (%1, %3, %4)
%6 = AuxStore {0} D (%5)
)",
                    text_of<E>(), m, n),
        {{{{"(%1, %3, %4)", "(%3, %1, %4)"}}, "Sub's first two arguments swapped"},
         {{{"(%1, %3, %4)", "(%4, %3, %1)"}}, "Sub's first and last arguments swapped"}});
}
template <class ArchTag, uint32_t CL>
void Sub3TreeFloat(const Shape& s) {
    Sub3Tree<ArchTag, CL, float>(s);
}
template <class ArchTag, uint32_t CL>
void Sub3TreeHalf(const Shape& s) {
    Sub3Tree<ArchTag, CL, half>(s);
}
EVG_EXAMPLE_CASES(StaticComposition_Sub3_tree, Sub3TreeFloat, AtlasA2, float)
EVG_EXAMPLE_CASES(StaticComposition_Sub3_tree, Sub3TreeFloat, Ascend950, float)
EVG_EXAMPLE_CASES(StaticComposition_Sub3_tree, Sub3TreeHalf, AtlasA2, half)
EVG_EXAMPLE_CASES(StaticComposition_Sub3_tree, Sub3TreeHalf, Ascend950, half)

// D = Div(Sub(C, X), col[i]), col a power of two.
template <class ArchTag, uint32_t CL>
void DivTree(const Shape& s) {
    using E = float;
    evg::hw::reset_device();
    ExampleCase ex(s);
    const uint32_t m = s.m, n = s.n;
    ExampleOperands<E> ab(ex);
    uint8_t* deviceX = ex.input("X", integers(DType::f32, size_t(m) * n, -5, 5, 3));
    uint8_t* deviceCol = ex.input("col", pick(DType::f32, m, {1, -2, 4, -8, 0.5}, 4));
    uint8_t* deviceD = ex.output("D", DType::f32, m, n);
    auto layoutX = tla::MakeLayout<E, layout::RowMajor>(m, n);
    auto layoutCol = tla::MakeLayout<E, layout::RowMajor>(m, 1);
    auto layoutD = tla::MakeLayout<E, layout::RowMajor>(m, n);
    using EVG =
        F::TreeVisitor<F::VisitorAuxStore<E, decltype(layoutD)>,
                       F::TreeVisitor<F::VisitorCompute<F::Div, E>,
                                      F::TreeVisitor<F::VisitorCompute<F::Sub, E>, F::VisitorAccLoad<E>,
                                                     F::VisitorAuxLoad<E, decltype(layoutX)>>,
                                      F::VisitorColBroadcast<E, decltype(layoutCol)>>>;
    typename EVG::Arguments args{{{{}, {deviceX, layoutX}, {}}, {deviceCol, layoutCol}, {}},
                                 {deviceD, layoutD}};
    run_and_check<ArchTag, CL, E, EVG>(ex, ab, deviceD, args,
                                       fmt::format(R"(input X : float[{0}, {1}]
input col : float[{0}, 1]
output D : float[{0}, {1}]
%0 = AccLoad float
%1 = AuxLoad float X
%2 = Compute Sub float (%0, %1)
%3 = ColBroadcast float col
%4 = Compute Div float (%2, %3)
%5 = AuxStore float D (%4)
)",
                                                   m, n),
                                       {{{{"(%0, %1)", "(%1, %0)"}}, "Sub's arguments swapped"},
                                        {{{"(%2, %3)", "(%3, %2)"}}, "Div's arguments swapped"}});
}
EVG_EXAMPLE_CASES(StaticComposition_Div_tree, DivTree, AtlasA2, float)
EVG_EXAMPLE_CASES(StaticComposition_Div_tree, DivTree, Ascend950, float)

// D = Max(Min(C, X), Muls[-1](Y)) over mixed-sign C, X and Y.
template <class ArchTag, uint32_t CL>
void MaxMinTree(const Shape& s) {
    using E = float;
    evg::hw::reset_device();
    ExampleCase ex(s);
    const uint32_t m = s.m, n = s.n;
    ExampleOperands<E> ab(ex);
    uint8_t* deviceX = ex.input("X", integers(DType::f32, size_t(m) * n, -5, 5, 3));
    uint8_t* deviceY = ex.input("Y", integers(DType::f32, size_t(m) * n, -5, 5, 4));
    uint8_t* deviceD = ex.output("D", DType::f32, m, n);
    auto layoutX = tla::MakeLayout<E, layout::RowMajor>(m, n);
    auto layoutD = tla::MakeLayout<E, layout::RowMajor>(m, n);
    using Load = F::VisitorAuxLoad<E, decltype(layoutX)>;
    using EVG = F::TreeVisitor<
        F::VisitorAuxStore<E, decltype(layoutD)>,
        F::TreeVisitor<F::VisitorCompute<F::Max, E>,
                       F::TreeVisitor<F::VisitorCompute<F::Min, E>, F::VisitorAccLoad<E>, Load>,
                       F::TreeVisitor<F::VisitorCompute<F::Muls, E, E>, Load>>>;
    typename EVG::Arguments args{{{{}, {deviceX, layoutX}, {}}, {{deviceY, layoutX}, {{-1.0f}}}, {}},
                                 {deviceD, layoutD}};
    run_and_check<ArchTag, CL, E, EVG>(ex, ab, deviceD, args,
                                       fmt::format(R"(input X : float[{0}, {1}]
input Y : float[{0}, {1}]
output D : float[{0}, {1}]
%0 = AccLoad float
%1 = AuxLoad float X
%2 = Compute Min float (%0, %1)
%3 = AuxLoad float Y
%4 = Compute Muls float [-1] (%3)
%5 = Compute Max float (%2, %4)
%6 = AuxStore float D (%5)
)",
                                                   m, n),
                                       {{{{"(%0, %1)", "(%0, %0)"}}, "Min given its first input twice"},
                                        {{{"(%0, %1)", "(%1, %1)"}}, "Min given its second input twice"},
                                        {{{"(%2, %4)", "(%2, %2)"}}, "Max given its first input twice"},
                                        {{{"(%2, %4)", "(%4, %4)"}}, "Max given its second input twice"}});
}
EVG_EXAMPLE_CASES(StaticComposition_MaxMin_tree, MaxMinTree, AtlasA2, float)
EVG_EXAMPLE_CASES(StaticComposition_MaxMin_tree, MaxMinTree, Ascend950, float)

// D = Prelu(C, slope[j]): C where C >= 0, else C * slope (Ascend950 only).
template <class ArchTag, uint32_t CL>
void PreluTree(const Shape& s) {
    using E = float;
    evg::hw::reset_device();
    ExampleCase ex(s);
    const uint32_t m = s.m, n = s.n;
    ExampleOperands<E> ab(ex);
    uint8_t* deviceSlope = ex.input("slope", pick(DType::f32, n, {0.5, 0.25, 2, -1}, 3));
    uint8_t* deviceD = ex.output("D", DType::f32, m, n);
    auto layoutSlope = tla::MakeLayout<E, layout::RowMajor>(1, n);
    auto layoutD = tla::MakeLayout<E, layout::RowMajor>(m, n);
    using EVG = F::TreeVisitor<F::VisitorAuxStore<E, decltype(layoutD)>,
                               F::TreeVisitor<F::VisitorCompute<F::Prelu, E>, F::VisitorAccLoad<E>,
                                              F::VisitorRowBroadcast<E, decltype(layoutSlope)>>>;
    typename EVG::Arguments args{{{}, {deviceSlope, layoutSlope}, {}}, {deviceD, layoutD}};
    run_and_check<ArchTag, CL, E, EVG>(ex, ab, deviceD, args,
                                       fmt::format(R"(input slope : float[1, {1}]
output D : float[{0}, {1}]
%0 = AccLoad float
%1 = RowBroadcast float slope
%2 = Compute Prelu float (%0, %1)
%3 = AuxStore float D (%2)
)",
                                                   m, n),
                                       {{{{"(%0, %1)", "(%1, %0)"}}, "Prelu's arguments swapped"}});
}
EVG_EXAMPLE_CASES(StaticComposition_Prelu_tree, PreluTree, Ascend950, float)

// TopologicalVisitor: S = Adds[1](C), used as the first argument of S - X and the second of bias - S;
// D = Max(S - X, bias - S). (A root Sub would not do: reversing the arguments of every Sub of a tree of
// binary Subs negates each inner one and gives the same D.)
template <class ArchTag, uint32_t CL, class E>
void SubDag(const Shape& s) {
    evg::hw::reset_device();
    ExampleCase ex(s);
    const uint32_t m = s.m, n = s.n;
    ExampleOperands<E> ab(ex);
    uint8_t* deviceX = ex.input("X", integers(dtype_of<E>(), size_t(m) * n, -5, 5, 3));
    uint8_t* deviceBias = ex.input("bias", integers(dtype_of<E>(), n, -5, 5, 4));
    uint8_t* deviceD = ex.output("D", dtype_of<E>(), m, n);
    auto layoutX = tla::MakeLayout<E, layout::RowMajor>(m, n);
    auto layoutBias = tla::MakeLayout<E, layout::RowMajor>(1, n);
    auto layoutD = tla::MakeLayout<E, layout::RowMajor>(m, n);
    using Edges = tla::tuple<tla::seq<>,      // 0: AccLoad C
                             tla::seq<>,      // 1: AuxLoad X
                             tla::seq<>,      // 2: RowBroadcast bias
                             tla::seq<0>,     // 3: S = Adds[1](C)
                             tla::seq<3, 1>,  // 4: S - X
                             tla::seq<2, 3>,  // 5: bias - S
                             tla::seq<4, 5>,  // 6: Max(S - X, bias - S)
                             tla::seq<6>>;    // 7: store D
    using EVG = F::TopologicalVisitor<Edges, F::VisitorAccLoad<E>, F::VisitorAuxLoad<E, decltype(layoutX)>,
                                      F::VisitorRowBroadcast<E, decltype(layoutBias)>,
                                      F::VisitorCompute<F::Adds, E, E>, F::VisitorCompute<F::Sub, E>,
                                      F::VisitorCompute<F::Sub, E>, F::VisitorCompute<F::Max, E>,
                                      F::VisitorAuxStore<E, decltype(layoutD)>>;
    typename EVG::Arguments args{{}, {deviceX, layoutX}, {deviceBias, layoutBias}, {{E(1.0f)}}, {}, {},
                                 {}, {deviceD, layoutD}};
    run_and_check<ArchTag, CL, E, EVG>(
        ex, ab, deviceD, args,
        fmt::format(R"(input X : {0}[{1}, {2}]
input bias : {0}[1, {2}]
output D : {0}[{1}, {2}]
%0 = AccLoad {0}
%1 = AuxLoad {0} X
%2 = RowBroadcast {0} bias
%3 = Compute Adds {0} [1] (%0)
%4 = Compute Sub {0} (%3, %1)
%5 = Compute Sub {0} (%2, %3)
%6 = Compute Max {0} (%4, %5)
%7 = AuxStore {0} D (%6)
)",
                    text_of<E>(), m, n),
        {{{{"(%3, %1)", "(%1, %3)"}}, "S - X with its arguments swapped"},
         {{{"(%2, %3)", "(%3, %2)"}}, "bias - S with its arguments swapped"},
         {{{"(%3, %1)", "(%1, %3)"}, {"(%2, %3)", "(%3, %2)"}}, "every Sub with its arguments swapped"}});
}
template <class ArchTag, uint32_t CL>
void SubDagFloat(const Shape& s) {
    SubDag<ArchTag, CL, float>(s);
}
template <class ArchTag, uint32_t CL>
void SubDagHalf(const Shape& s) {
    SubDag<ArchTag, CL, half>(s);
}
EVG_EXAMPLE_CASES(StaticComposition_Sub_dag, SubDagFloat, AtlasA2, float)
EVG_EXAMPLE_CASES(StaticComposition_Sub_dag, SubDagFloat, Ascend950, float)
EVG_EXAMPLE_CASES(StaticComposition_Sub_dag, SubDagHalf, AtlasA2, half)

}  // namespace
