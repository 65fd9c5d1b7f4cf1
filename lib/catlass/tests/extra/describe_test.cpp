// describe<EVG>(args): a static EVG becomes the runtime graph the oracle checks. Each case is an example of
// docs/evg-semantics.md §10, printed with lib/graph's text printer and compared with the text written by hand
// from the spec; the text reads back to the same graph.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "catlass/epilogue/fusion/fusion.hpp"
#include "catlass/layout/layout.hpp"
#include "catlass/tla/layout.hpp"
#include "evg/graph/describe.hpp"
#include "evg/graph/text.hpp"
#include "evg/graph/validate.hpp"

namespace {

using namespace Catlass;
using namespace Catlass::Epilogue::Fusion;
using evg::graph::describe;
using evg::graph::print;

GM_ADDR at(uintptr_t a) {
    return reinterpret_cast<GM_ADDR>(a);  // NOLINT(performance-no-int-to-ptr): made-up device addresses
}

void expect_round_trip(const evg::graph::Graph& g) {
    EXPECT_EQ(evg::graph::parse_graph(print(g)), g);
}

TEST(Describe, Ascend950_float_AddTree_PostOrderRootLast) {
    auto layoutX = tla::MakeLayout<float, layout::RowMajor>(256, 512);
    auto layoutD = tla::MakeLayout<float, layout::RowMajor>(256, 512);
    using EVGAdd = TreeVisitor<VisitorAuxStore<float, decltype(layoutD)>,
                               TreeVisitor<VisitorCompute<Add, float>, VisitorAccLoad<float>,
                                           VisitorAuxLoad<float, decltype(layoutX)>>>;
    EVGAdd::Arguments args{{{}, {at(0x1000), layoutX}, {}}, {at(0x2000), layoutD}};
    auto g = describe<EVGAdd>(args);
    EXPECT_EQ(print(g),
              "input  X0 : float[256, 512]\n"
              "output D : float[256, 512]\n"
              "%0 = AccLoad float\n"
              "%1 = AuxLoad float X0\n"
              "%2 = Compute Add float (%0, %1)\n"
              "%3 = AuxStore float D (%2)\n");
    EXPECT_TRUE(evg::graph::validate(g, evg::hw::ArchId::Ascend950).empty());
    expect_round_trip(g);
}

TEST(Describe, Ascend950_float_Tanh9Ops_TopologicalOpOrderEdgesAndScalars) {
    auto layoutD = tla::MakeLayout<float, layout::RowMajor>(256, 512);
    using Edges = tla::tuple<tla::seq<>, tla::seq<0>, tla::seq<1>, tla::seq<2>, tla::seq<3>, tla::seq<4>,
                             tla::seq<4>, tla::seq<5, 6>, tla::seq<7>>;
    using EVGTanh = TopologicalVisitor<Edges, VisitorAccLoad<float>, VisitorCompute<Mins, float, float>,
                                       VisitorCompute<Maxs, float, float>, VisitorCompute<Muls, float, float>,
                                       VisitorCompute<Exp, float>, VisitorCompute<Adds, float, float>,
                                       VisitorCompute<Adds, float, float>, VisitorCompute<Div, float>,
                                       VisitorAuxStore<float, decltype(layoutD)>>;
    EVGTanh::Arguments args{{},        {{8.8f}}, {{-8.8f}}, {{2.0f}},           {},
                            {{-1.0f}}, {{1.0f}}, {},        {at(0x40), layoutD}};
    auto g = describe<EVGTanh>(args);
    EXPECT_EQ(print(g),
              "output D : float[256, 512]\n"
              "%0 = AccLoad float\n"
              "%1 = Compute Mins float [8.8] (%0)\n"
              "%2 = Compute Maxs float [-8.8] (%1)\n"
              "%3 = Compute Muls float [2] (%2)\n"
              "%4 = Compute Exp float (%3)\n"
              "%5 = Compute Adds float [-1] (%4)\n"
              "%6 = Compute Adds float [1] (%4)\n"
              "%7 = Compute Div float (%5, %6)\n"
              "%8 = AuxStore float D (%7)\n");
    expect_round_trip(g);
}

TEST(Describe, AtlasA2_half_Example33_CastsWithRoundModesNestedThreeLevels) {
    auto l = tla::MakeLayout<half, layout::RowMajor>(128, 100, 128);  // padded rows: stride printed
    using L = decltype(l);
    using EVG33 =
        TreeVisitor<VisitorAuxStore<half, L>,
                    TreeVisitor<VisitorCast<half, float, AscendC::RoundMode::CAST_RINT>,
                                TreeVisitor<VisitorCompute<Plus, float>,
                                            TreeVisitor<VisitorCast<float, half>, VisitorAccLoad<half>>,
                                            TreeVisitor<VisitorCast<float, half>, VisitorAuxLoad<half, L>>>>>;
    EVG33::Arguments args{{{{{}, {}}, {{at(0x100), l}, {}}, {}}, {}}, {at(0x200), l}};
    auto g = describe<EVG33>(args);
    EXPECT_EQ(print(g),
              "input  X0 : half[128, 100] stride=128\n"
              "output D : half[128, 100] stride=128\n"
              "%0 = AccLoad half\n"
              "%1 = Cast float <- half CAST_NONE (%0)\n"
              "%2 = AuxLoad half X0\n"
              "%3 = Cast float <- half CAST_NONE (%2)\n"
              "%4 = Compute Add float (%1, %3)\n"
              "%5 = Cast half <- float CAST_RINT (%4)\n"
              "%6 = AuxStore half D (%5)\n");
    EXPECT_TRUE(evg::graph::validate(g, evg::hw::ArchId::AtlasA2).empty());
    expect_round_trip(g);
}

TEST(Describe, AtlasA2_Example35_RowBroadcastThenStoreThenRowReduce_SeedAliases) {
    layout::RowMajor lm(256, 512), lrow(1, 512);
    using EVG35 =
        TreeVisitor<VisitorRowReduce<Plus, float, layout::RowMajor>,
                    TreeVisitor<VisitorCast<float, half>,
                                TreeVisitor<VisitorAuxStore<half, layout::RowMajor>,
                                            TreeVisitor<VisitorCompute<Plus, half>, VisitorAccLoad<half>,
                                                        VisitorRowBroadcast<half, layout::RowMajor>>>>>;
    EVG35::Arguments args{{{{{}, {at(0x10), lrow}, {}}, {at(0x20), lm}}, {}}, {at(0x30), lrow, 0.0f}};
    auto g = describe<EVG35>(args);
    EXPECT_EQ(print(g),
              "input  X0 : half[1, 512]\n"
              "output D : half[256, 512]\n"
              "output D1 : float[1, 512]\n"
              "%0 = AccLoad half\n"
              "%1 = RowBroadcast half X0\n"
              "%2 = Compute Add half (%0, %1)\n"
              "%3 = AuxStore half D (%2)\n"
              "%4 = Cast float <- half CAST_NONE (%3)\n"
              "%5 = RowReduce Add float D1 (%4)\n");
    expect_round_trip(g);
}

TEST(Describe, AtlasA2_Example12_QuantMul3ColBroadcastInt32AccLoad) {
    layout::RowMajor lm(64, 256), lrow(1, 256), lcol(64, 1);
    using RM = layout::RowMajor;
    using EVG12 = TreeVisitor<
        VisitorAuxStore<half, RM>,
        TreeVisitor<VisitorCast<half, float>,
                    TreeVisitor<VisitorCompute<Mul3, float>,
                                TreeVisitor<VisitorCast<float, int32_t>, VisitorAccLoad<int32_t>>,
                                TreeVisitor<VisitorCast<float, half>, VisitorRowBroadcast<half, RM>>,
                                TreeVisitor<VisitorCast<float, half>, VisitorColBroadcast<half, RM>>>>>;
    EVG12::Arguments args{{{{{}, {}}, {{at(0x1), lrow}, {}}, {{at(0x2), lcol}, {}}, {}}, {}}, {at(0x3), lm}};
    auto g = describe<EVG12>(args);
    EXPECT_EQ(print(g),
              "input  X0 : half[1, 256]\n"
              "input  X1 : half[64, 1]\n"
              "output D : half[64, 256]\n"
              "%0 = AccLoad int32\n"
              "%1 = Cast float <- int32 CAST_NONE (%0)\n"
              "%2 = RowBroadcast half X0\n"
              "%3 = Cast float <- half CAST_NONE (%2)\n"
              "%4 = ColBroadcast half X1\n"
              "%5 = Cast float <- half CAST_NONE (%4)\n"
              "%6 = Compute Mul float (%1, %3, %5)\n"
              "%7 = Cast half <- float CAST_NONE (%6)\n"
              "%8 = AuxStore half D (%7)\n");
    expect_round_trip(g);
}

TEST(Describe, ScalarBroadcastReduceLeakyReluScalarUbAccLoadAndCallerNames) {
    layout::RowMajor lm(32, 64), ls(1, 1);
    using RM = layout::RowMajor;
    // 0 AccLoad<ub>; 1 s; 2 Add<-(0,1); 3 LeakyRelu(0.1)<-2; 4 Store D<-3; 5 ScalarReduce<Maximum> out<-4.
    using Edges = tla::tuple<tla::seq<>, tla::seq<>, tla::seq<0, 1>, tla::seq<2>, tla::seq<3>, tla::seq<4>>;
    using T = TopologicalVisitor<Edges, VisitorAccLoad<float, true>, VisitorScalarBroadcast<float, RM>,
                                 VisitorCompute<Add, float>, VisitorCompute<LeakyRelu, float, float>,
                                 VisitorAuxStore<float, RM>, VisitorScalarReduce<Maximum, float, RM>>;
    T::Arguments args{{}, {at(0x8), ls}, {}, {{0.1f}}, {at(0x9), lm}, {at(0xa), ls, 0.0f}};
    auto g = describe<T>(args, {{at(0xa), "peak"}, {at(0x8), "s"}});
    EXPECT_EQ(print(g),
              "input  s : float[1, 1]\n"
              "output D : float[32, 64]\n"
              "output peak : float[1, 1]\n"
              "%0 = AccLoad float ub\n"
              "%1 = ScalarBroadcast float s\n"
              "%2 = Compute Add float (%0, %1)\n"
              "%3 = Compute LeakyRelu float [0.1] (%2)\n"
              "%4 = AuxStore float D (%3)\n"
              "%5 = ScalarReduce Max float peak (%4)\n");
    expect_round_trip(g);
}

TEST(Describe, SamePointerIsOneTensorAndAWrittenTensorIsAnOutput) {
    layout::RowMajor l(16, 32);
    using RM = layout::RowMajor;
    // D = relu(D): loads and stores the same buffer.
    using T = TreeVisitor<VisitorAuxStore<float, RM>,
                          TreeVisitor<VisitorCompute<Relu, float>,
                                      TreeVisitor<VisitorCompute<Add, float>, VisitorAuxLoad<float, RM>,
                                                  VisitorAuxLoad<float, RM>>>>;
    T::Arguments args{{{{at(0x5), l}, {at(0x5), l}, {}}, {}}, {at(0x5), l}};
    auto g = describe<T>(args);
    EXPECT_EQ(print(g),
              "output X0 : float[16, 32]\n"
              "%0 = AuxLoad float X0\n"
              "%1 = AuxLoad float X0\n"
              "%2 = Compute Add float (%0, %1)\n"
              "%3 = Compute Relu float (%2)\n"
              "%4 = AuxStore float X0 (%3)\n");
}

TEST(Describe, TopologicalOpsOutOfOrderAndNestedTreeOpsMapEdgesToOutputNodes) {
    layout::RowMajor l(16, 32);
    using RM = layout::RowMajor;
    using Inner = TreeVisitor<VisitorCompute<Exp, float>, VisitorAccLoad<float>>;  // 2 graph nodes
    // op 0 Store<-2 (a forward edge); op 1 Inner; op 2 Adds(1)<-1; op 3 Relu<-0 is the root.
    using T = TopologicalVisitor<tla::tuple<tla::seq<2>, tla::seq<>, tla::seq<1>, tla::seq<0>>,
                                 VisitorAuxStore<float, RM>, Inner, VisitorCompute<Adds, float, float>,
                                 VisitorCompute<Relu, float>>;
    T::Arguments args{{at(0x7), l}, {{}, {}}, {{1.0f}}, {}};
    auto g = describe<T>(args);
    EXPECT_EQ(print(g),
              "output D : float[16, 32]\n"
              "%0 = AuxStore float D (%3)\n"
              "%1 = AccLoad float\n"
              "%2 = Compute Exp float (%1)\n"
              "%3 = Compute Adds float [1] (%2)\n"
              "%4 = Compute Relu float (%0)\n");
    expect_round_trip(g);
}

}  // namespace
