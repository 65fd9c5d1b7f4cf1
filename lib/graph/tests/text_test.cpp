// The text format read and written on known graphs: canonical printing, aliases, defaults, positions.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "evg/graph/builder.hpp"
#include "evg/graph/text.hpp"

using namespace evg::graph;

namespace {

// The example of the issue, with comments, a dense stride written out and an omitted tile.
constexpr const char* kIssueExample = R"(# D = cast<half>(relu(C + X))
problem arch=AtlasA2 m=256 n=512 k=1024 a=half b=half c=float cl=4096 path=gm
input  X : half[256, 512] stride=512
output D : half[256, 512]
%0 = AccLoad float
%1 = AuxLoad half X            # the addend
%2 = Cast float <- half CAST_NONE (%1)
%3 = Compute AddRelu float (%0, %2)
%4 = Cast half <- float CAST_RINT (%3)
%5 = AuxStore half D (%4)
)";

constexpr const char* kIssueExampleCanonical =
    "problem arch=AtlasA2 m=256 n=512 k=1024 a=half b=half c=float cl=4096 path=gm tile=128x256x256\n"
    "input  X : half[256, 512]\n"
    "output D : half[256, 512]\n"
    "%0 = AccLoad float\n"
    "%1 = AuxLoad half X\n"
    "%2 = Cast float <- half CAST_NONE (%1)\n"
    "%3 = Compute AddRelu float (%0, %2)\n"
    "%4 = Cast half <- float CAST_RINT (%3)\n"
    "%5 = AuxStore half D (%4)\n";

}  // namespace

TEST(Text, IssueExample_ParsesToTheGraphBuiltInCode) {
    const Problem p = parse_problem(kIssueExample);
    EXPECT_EQ(p.arch, ArchId::AtlasA2);
    EXPECT_EQ(p.m, 256);
    EXPECT_EQ(p.n, 512);
    EXPECT_EQ(p.k, 1024);
    EXPECT_EQ(p.a, DType::f16);
    EXPECT_EQ(p.b, DType::f16);
    EXPECT_EQ(p.c, DType::f32);
    EXPECT_EQ(p.compute_length, 4096u);
    EXPECT_EQ(p.path, WorkspacePath::GM);
    EXPECT_EQ(p.tile, (TileShape{128, 256, 256}));

    GraphBuilder b;
    b.input("X", DType::f16, 256, 512);
    b.output("D", DType::f16, 256, 512);
    const int acc = b.acc_load(DType::f32);
    const int x = b.aux_load(DType::f16, "X");
    const int xf = b.cast(DType::f32, DType::f16, RoundMode::CAST_NONE, x);
    const int sum = b.compute(Functor::AddRelu, DType::f32, {acc, xf});
    const int h = b.cast(DType::f16, DType::f32, RoundMode::CAST_RINT, sum);
    b.aux_store(DType::f16, "D", h);
    EXPECT_EQ(p.graph, b.graph());
}

TEST(Text, IssueExample_PrintsCanonically) {
    EXPECT_EQ(print(parse_problem(kIssueExample)), kIssueExampleCanonical);
}

TEST(Text, PositionsPointAtTheLines) {
    const Problem p = parse_problem(kIssueExample);
    EXPECT_EQ(p.pos.line, 2);
    EXPECT_EQ(p.graph.tensors[0].pos.line, 3);
    EXPECT_EQ(p.graph.tensors[1].pos.line, 4);
    EXPECT_EQ(p.graph.nodes[0].pos.line, 5);
    EXPECT_EQ(p.graph.nodes[5].pos.line, 10);
    EXPECT_EQ(p.graph.nodes[5].pos.column, 1);
}

TEST(Text, DefaultTileFollowsTheArch) {
    EXPECT_EQ(parse_problem("problem arch=Ascend950 m=1 n=1 k=1 a=float b=float c=float cl=32").tile,
              (TileShape{256, 256, 128}));
    EXPECT_EQ(
        parse_problem("problem arch=AtlasA2 m=1 n=1 k=1 a=half b=half c=half cl=32 tile=64x128x32").tile,
        (TileShape{64, 128, 32}));
}

TEST(Text, ProblemKeysInAnyOrder) {
    const Problem p =
        parse_problem("problem cl=7680 path=ub c=float b=float a=float k=1024 n=512 m=256 arch=Ascend950");
    EXPECT_EQ(print(p),
              "problem arch=Ascend950 m=256 n=512 k=1024 a=float b=float c=float cl=7680 path=ub "
              "tile=256x256x128\n");
}

TEST(Text, SeedAliasesParseAndPrintCanonically) {
    const Graph g = parse_graph(
        "%0 = AccLoad float\n"
        "%1 = Compute Plus float (%0, %0)\n"
        "%2 = Compute Maximum float (%1, %0)\n"
        "%3 = Compute Minimum float (%2, %0)\n"
        "%4 = Compute PlusRelu float (%3, %0)\n"
        "%5 = Compute ExpOp float (%4)\n"
        "%6 = Compute SubOp float (%5, %0)\n"
        "%7 = Compute DivOp float (%6, %0)\n"
        "%8 = Compute Mul3 float (%7, %0, %1)\n"
        "%9 = ColReduce Maximum float rowMax (%8)\n");
    EXPECT_EQ(print(g),
              "%0 = AccLoad float\n"
              "%1 = Compute Add float (%0, %0)\n"
              "%2 = Compute Max float (%1, %0)\n"
              "%3 = Compute Min float (%2, %0)\n"
              "%4 = Compute AddRelu float (%3, %0)\n"
              "%5 = Compute Exp float (%4)\n"
              "%6 = Compute Sub float (%5, %0)\n"
              "%7 = Compute Div float (%6, %0)\n"
              "%8 = Compute Mul float (%7, %0, %1)\n"
              "%9 = ColReduce Max float rowMax (%8)\n");
}

TEST(Text, EveryNodeKindPrintsItsLine) {
    GraphBuilder b;
    b.input("bias", DType::f16, 1, 512);
    b.input("col", DType::f16, 256, 1);
    b.input("s", DType::f16, 1, 1);
    b.input("X", DType::f16, 256, 512, 640);
    b.output("rowOut", DType::f32, 1, 512);
    b.output("colOut", DType::f32, 256, 1);
    b.output("total", DType::f32, 1, 1);
    b.output("D", DType::f16, 256, 512);
    b.acc_load(DType::f32, true);
    b.aux_load(DType::f16, "X");
    b.row_broadcast(DType::f16, "bias");
    b.col_broadcast(DType::f16, "col");
    b.scalar_broadcast(DType::f16, "s");
    b.compute(Functor::LeakyRelu, DType::f32, {0}, {0.1});
    b.row_reduce(Functor::Add, DType::f32, "rowOut", 5);
    b.col_reduce(Functor::Max, DType::f32, "colOut", 6);
    b.scalar_reduce(Functor::Min, DType::f32, "total", 7);
    b.cast(DType::f16, DType::f32, RoundMode::CAST_ODD, 8);
    b.aux_store(DType::f16, "D", 9);
    EXPECT_EQ(print(b.graph()),
              "input  bias : half[1, 512]\n"
              "input  col : half[256, 1]\n"
              "input  s : half[1, 1]\n"
              "input  X : half[256, 512] stride=640\n"
              "output rowOut : float[1, 512]\n"
              "output colOut : float[256, 1]\n"
              "output total : float[1, 1]\n"
              "output D : half[256, 512]\n"
              "%0 = AccLoad float ub\n"
              "%1 = AuxLoad half X\n"
              "%2 = RowBroadcast half bias\n"
              "%3 = ColBroadcast half col\n"
              "%4 = ScalarBroadcast half s\n"
              "%5 = Compute LeakyRelu float [0.1] (%0)\n"
              "%6 = RowReduce Add float rowOut (%5)\n"
              "%7 = ColReduce Max float colOut (%6)\n"
              "%8 = ScalarReduce Min float total (%7)\n"
              "%9 = Cast half <- float CAST_ODD (%8)\n"
              "%10 = AuxStore half D (%9)\n");
    EXPECT_EQ(parse_graph(print(b.graph())), b.graph());
}

TEST(Text, CastRoundModeDefaultsToCastNone) {
    const Graph g = parse_graph("%0 = AccLoad half\n%1 = Cast float <- half (%0)\n");
    EXPECT_EQ(g.nodes[1].round, RoundMode::CAST_NONE);
    EXPECT_EQ(print_node(g.nodes[1], 1), "%1 = Cast float <- half CAST_NONE (%0)");
}

TEST(Text, AccLoadWorkspaceWordAndEmptyInputList) {
    const Graph g = parse_graph("%0 = AccLoad float gm ()\n%1 = AccLoad float ub\n");
    EXPECT_FALSE(g.nodes[0].use_ub);
    EXPECT_TRUE(g.nodes[1].use_ub);
    EXPECT_TRUE(g.nodes[0].inputs.empty());
    EXPECT_EQ(print(g), "%0 = AccLoad float\n%1 = AccLoad float ub\n");
}

TEST(Text, ScalarsPrintShortestAndReadBackExactly) {
    EXPECT_EQ(print_scalar(0.1), "0.1");
    EXPECT_EQ(print_scalar(-2.0), "-2");
    EXPECT_EQ(print_scalar(1e20), "1e+20");
    EXPECT_EQ(print_scalar(double{0.1f}), "0.10000000149011612");
    EXPECT_EQ(print_scalar(std::numeric_limits<double>::infinity()), "inf");
    EXPECT_EQ(print_scalar(-std::numeric_limits<double>::infinity()), "-inf");
    EXPECT_EQ(print_scalar(std::numeric_limits<double>::quiet_NaN()), "nan");
    const Graph g = parse_graph(
        "%0 = AccLoad float\n"
        "%1 = Compute Muls float [-8.8] (%0)\n"
        "%2 = Compute Adds float [-inf] (%1)\n"
        "%3 = Compute Maxs float [nan] (%2)\n"
        "%4 = Compute Mins float [0x1.8p1] (%3)\n"
        "%5 = Compute Adds float [+.5e-3] (%4)\n");
    EXPECT_EQ(g.nodes[1].scalars[0], -8.8);
    EXPECT_EQ(g.nodes[2].scalars[0], -std::numeric_limits<double>::infinity());
    EXPECT_TRUE(std::isnan(g.nodes[3].scalars[0]));
    EXPECT_EQ(g.nodes[4].scalars[0], 3.0);
    EXPECT_EQ(g.nodes[5].scalars[0], 0.0005);
    EXPECT_EQ(print_node(g.nodes[4], 4), "%4 = Compute Mins float [3] (%3)");
}

TEST(Text, CommentsBlankLinesAndCarriageReturnsAreIgnored) {
    const Graph g = parse_graph(
        "# header\r\n\r\n   \n%0 = AccLoad half   # trailing\r\n\t%1 = Compute Relu half (%0)\r\n");
    EXPECT_EQ(print(g), "%0 = AccLoad half\n%1 = Compute Relu half (%0)\n");
    EXPECT_EQ(g.nodes[1].pos.line, 5);
    EXPECT_EQ(g.nodes[1].pos.column, 2);
}

TEST(Text, EqualityIgnoresPositionsButNotContent) {
    Graph a = parse_graph("%0 = AccLoad half\n");
    Graph b = parse_graph("\n\n   %0 = AccLoad half\n");
    EXPECT_EQ(a, b);
    b.nodes[0].use_ub = true;
    EXPECT_NE(a, b);
}

TEST(Text, KernelConfigurationReadsBackAndPrintsOnlyWhatDiffers) {
    const std::string text =
        "problem arch=Ascend950 m=64 n=64 k=64 a=half b=half c=float cl=2048 path=gm tile=32x64x64 "
        "mmad=pingpong_mutex unit_flag=0 l1_resident=1 stages=1x3x4x2x2 l0k=16 layout_a=col\n"
        "output D : float[64, 64]\n"
        "%0 = AccLoad float\n"
        "%1 = AuxStore float D (%0)\n";
    const Problem p = parse_problem(text);
    EXPECT_EQ(p.kernel.mmad, MmadPolicy::PingpongMutex);
    EXPECT_FALSE(p.kernel.unit_flag);
    EXPECT_FALSE(p.kernel.hf32);
    EXPECT_TRUE(p.kernel.l1_resident);
    EXPECT_EQ(p.kernel.l1a_stages, 1u);
    EXPECT_EQ(p.kernel.l1b_stages, 3u);
    EXPECT_EQ(p.kernel.l0a_stages, 4u);
    EXPECT_EQ(p.kernel.l0b_stages, 2u);
    EXPECT_EQ(p.kernel.l0c_stages, 2u);
    EXPECT_EQ(p.kernel.l0_k, 16u);
    EXPECT_EQ(p.kernel.layout_a, MatrixLayout::ColumnMajor);
    EXPECT_EQ(p.kernel.layout_b, MatrixLayout::RowMajor);
    EXPECT_EQ(print(p), text);
    // The default configuration prints no kernel key.
    Problem d = p;
    d.kernel = KernelConfig{};
    EXPECT_EQ(print(d).substr(0, print(d).find('\n')).find("mmad"), std::string::npos);
    EXPECT_EQ(parse_problem(print(d)).kernel, KernelConfig{});
}
