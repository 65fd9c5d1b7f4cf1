// C++ emission against the Catlass EVG API. The goldens are written from the spec (docs/evg-semantics.md
// §3.3, §3.4, §10.2, §10.3), not from the emitter's output: two full texts in tests/golden/, and for the
// other shipped examples the exact Arguments initializer plus the EVG type with whitespace and comments
// ignored.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <sstream>
#include <string>

#include "evg/graph/emit_cpp.hpp"
#include "evg/graph/error.hpp"
#include "evg/graph/implementation.hpp"
#include "evg/graph/text.hpp"

using namespace evg::graph;

namespace {

std::string read_golden(const std::string& name) {
    std::ifstream in(std::string(EVG_GRAPH_GOLDEN_DIR) + "/" + name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Drops `// ...` comments and every whitespace character: compares the C++ tokens only.
std::string squash(const std::string& code) {
    std::string out;
    bool comment = false;
    for (std::size_t i = 0; i < code.size(); ++i) {
        if (code[i] == '\n') comment = false;
        if (!comment && code[i] == '/' && i + 1 < code.size() && code[i + 1] == '/') comment = true;
        if (!comment && !std::isspace(static_cast<unsigned char>(code[i]))) out += code[i];
    }
    return out;
}

constexpr const char* kNs = "Catlass::Epilogue::Fusion::";
std::string ns(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '@')
            out += kNs;
        else
            out += c;
    }
    return out;
}

}  // namespace

TEST(EmitCpp, Ascend950_float_Add_Tree_Golden) {
    const Graph g = parse_graph(
        "input  X : float[256, 512]\n"
        "output D : float[256, 512]\n"
        "%0 = AccLoad float\n"
        "%1 = AuxLoad float X\n"
        "%2 = Compute Add float (%0, %1)\n"
        "%3 = AuxStore float D (%2)\n");
    ASSERT_TRUE(is_tree(g));
    const CppEmission e = emit_cpp(g);
    // §3.3: D = C + X is { { {}, {ptrX, layoutX}, {} }, {ptrD, layoutD} }.
    EXPECT_EQ(e.arguments, "typename EVG::Arguments args{ { {}, {ptrX, layoutX}, {} }, {ptrD, layoutD} };\n");
    EXPECT_EQ(e.text(), read_golden("ascend950_add_tree.cpp.txt"));
}

TEST(EmitCpp, Ascend950_float_Tanh_Topological_Golden) {
    // §10.2 _tanh: 9 ops, args {}, {{8.8}}, {{-8.8}}, {{2}}, {}, {{-1}}, {{1}}, {}, {D, layout}.
    const Graph g = parse_graph(
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
    ASSERT_FALSE(is_tree(g));  // %4 feeds two nodes
    EXPECT_EQ(emit_cpp(g).text(), read_golden("ascend950_tanh_topological.cpp.txt"));
}

TEST(EmitCpp, AtlasA2_half_MatmulAddTopo_Example34) {
    // 0 AccLoad, 1 AuxLoad(X), 2 Plus(0,1), 3 Plus(2,2), 4 Store(3): D = 2(C + X).
    const Graph g = parse_graph(
        "input  X : half[256, 512]\n"
        "output D : half[256, 512]\n"
        "%0 = AccLoad half\n"
        "%1 = AuxLoad half X\n"
        "%2 = Compute Plus half (%0, %1)\n"
        "%3 = Compute Plus half (%2, %2)\n"
        "%4 = AuxStore half D (%3)\n");
    ASSERT_FALSE(is_tree(g));
    const CppEmission e = emit_cpp(g);
    EXPECT_EQ(squash(e.evg),
              squash(ns("using EVG = @TopologicalVisitor<"
                        "tla::tuple<tla::seq<>, tla::seq<>, tla::seq<0, 1>, tla::seq<2, 2>, tla::seq<3>>,"
                        "@VisitorAccLoad<half, false>,"
                        "@VisitorAuxLoad<half, decltype(layoutX)>,"
                        "@VisitorCompute<@Add, half>,"
                        "@VisitorCompute<@Add, half>,"
                        "@VisitorAuxStore<half, decltype(layoutD)>>;")));
    EXPECT_EQ(squash(e.arguments),
              squash("typename EVG::Arguments args{ {}, {ptrX, layoutX}, {}, {}, {ptrD, layoutD}, };"));
}

TEST(EmitCpp, AtlasA2_half_RowBroadcastReduction_Example35) {
    // RowReduce<Plus, float>(rowOut, (1, n)) <- Cast<float, half> <- Store(D) <- Plus(AccLoad,
    // RowBroadcast(row)).
    const Graph g = parse_graph(
        "input  row : half[1, 512]\n"
        "output D : half[256, 512]\n"
        "output rowOut : float[1, 512]\n"
        "%0 = AccLoad half\n"
        "%1 = RowBroadcast half row\n"
        "%2 = Compute Add half (%0, %1)\n"
        "%3 = AuxStore half D (%2)\n"
        "%4 = Cast float <- half CAST_NONE (%3)\n"
        "%5 = RowReduce Add float rowOut (%4)\n");
    ASSERT_TRUE(is_tree(g));
    const CppEmission e = emit_cpp(g);
    EXPECT_EQ(squash(e.layouts),
              squash("auto layoutRow = tla::MakeLayout<half, Catlass::layout::RowMajor>(1, 512);"
                     "auto layoutD = tla::MakeLayout<half, Catlass::layout::RowMajor>(256, 512);"
                     "auto layoutRowOut = tla::MakeLayout<float, Catlass::layout::RowMajor>(1, 512);"));
    EXPECT_EQ(squash(e.evg), squash(ns("using EVG = @TreeVisitor<"
                                       "  @VisitorRowReduce<@Add, float, decltype(layoutRowOut)>,"
                                       "  @TreeVisitor<"
                                       "    @VisitorCast<float, half, AscendC::RoundMode::CAST_NONE>,"
                                       "    @TreeVisitor<"
                                       "      @VisitorAuxStore<half, decltype(layoutD)>,"
                                       "      @TreeVisitor<"
                                       "        @VisitorCompute<@Add, half>,"
                                       "        @VisitorAccLoad<half, false>,"
                                       "        @VisitorRowBroadcast<half, decltype(layoutRow)>>>>>;")));
    // Children first, then the node, nested per level.
    EXPECT_EQ(e.arguments,
              "typename EVG::Arguments args{ { { { {}, {ptrRow, layoutRow}, {} }, {ptrD, layoutD} }, {} }, "
              "{ptrRowOut, layoutRowOut} };\n");
}

TEST(EmitCpp, AtlasA2_half_ScalarBroadcastReduction_Example35) {
    const Graph g = parse_graph(
        "input  s : half[1, 1]\n"
        "output D : half[256, 512]\n"
        "output out : float[1, 1]\n"
        "%0 = AccLoad half\n"
        "%1 = ScalarBroadcast half s\n"
        "%2 = Compute Add half (%0, %1)\n"
        "%3 = AuxStore half D (%2)\n"
        "%4 = Cast float <- half CAST_NONE (%3)\n"
        "%5 = ScalarReduce Add float out (%4)\n");
    const CppEmission e = emit_cpp(g);
    EXPECT_NE(squash(e.layouts).find("autolayoutS=tla::MakeLayout<half,Catlass::layout::RowMajor>(1,1);"),
              std::string::npos);
    EXPECT_NE(squash(e.evg).find(squash(ns("@VisitorScalarReduce<@Add, float, decltype(layoutOut)>"))),
              std::string::npos);
    EXPECT_NE(squash(e.evg).find(squash(ns("@VisitorScalarBroadcast<half, decltype(layoutS)>"))),
              std::string::npos);
    EXPECT_EQ(e.arguments,
              "typename EVG::Arguments args{ { { { {}, {ptrS, layoutS}, {} }, {ptrD, layoutD} }, {} }, "
              "{ptrOut, layoutOut} };\n");
}

TEST(EmitCpp, AtlasA2_Softmax_Phase2_Example36_ColBroadcastTree) {
    // D = half(Div(Exp(Sub(Cast(AccLoad), ColBroadcast(rowMax))), ColBroadcast(rowSum))).
    const Graph g = parse_graph(
        "input  rowMax : float[256, 1]\n"
        "input  rowSum : float[256, 1]\n"
        "output D : half[256, 512]\n"
        "%0 = AccLoad half\n"
        "%1 = Cast float <- half CAST_NONE (%0)\n"
        "%2 = ColBroadcast float rowMax\n"
        "%3 = Compute SubOp float (%1, %2)\n"
        "%4 = Compute ExpOp float (%3)\n"
        "%5 = ColBroadcast float rowSum\n"
        "%6 = Compute DivOp float (%4, %5)\n"
        "%7 = Cast half <- float CAST_RINT (%6)\n"
        "%8 = AuxStore half D (%7)\n");
    ASSERT_TRUE(is_tree(g));
    const CppEmission e = emit_cpp(g);
    EXPECT_EQ(squash(e.evg),
              squash(ns("using EVG = @TreeVisitor<"
                        " @VisitorAuxStore<half, decltype(layoutD)>,"
                        " @TreeVisitor<"
                        "  @VisitorCast<half, float, AscendC::RoundMode::CAST_RINT>,"
                        "  @TreeVisitor<"
                        "   @VisitorCompute<@Div, float>,"
                        "   @TreeVisitor<"
                        "    @VisitorCompute<@Exp, float>,"
                        "    @TreeVisitor<"
                        "     @VisitorCompute<@Sub, float>,"
                        "     @TreeVisitor<@VisitorCast<float, half, AscendC::RoundMode::CAST_NONE>,"
                        "                  @VisitorAccLoad<half, false>>,"
                        "     @VisitorColBroadcast<float, decltype(layoutRowMax)>>>,"
                        "   @VisitorColBroadcast<float, decltype(layoutRowSum)>>>>;")));
    EXPECT_EQ(e.arguments,
              "typename EVG::Arguments args{ { { { { { {}, {} }, {ptrRowMax, layoutRowMax}, {} }, {} }, "
              "{ptrRowSum, layoutRowSum}, {} }, {} }, {ptrD, layoutD} };\n");
}

TEST(EmitCpp, AtlasA2_QuantMatmul_Mul3_Example12) {
    const Graph g = parse_graph(
        "input  scale : half[1, 512]\n"
        "input  perTokenScale : half[256, 1]\n"
        "output D : half[256, 512]\n"
        "%0 = AccLoad int32\n"
        "%1 = Cast float <- int32 CAST_NONE (%0)\n"
        "%2 = RowBroadcast half scale\n"
        "%3 = Cast float <- half (%2)\n"
        "%4 = ColBroadcast half perTokenScale\n"
        "%5 = Cast float <- half (%4)\n"
        "%6 = Compute Mul3 float (%1, %3, %5)\n"
        "%7 = Cast half <- float CAST_RINT (%6)\n"
        "%8 = AuxStore half D (%7)\n");
    const CppEmission e = emit_cpp(g);
    EXPECT_NE(squash(e.evg).find(squash(ns("@VisitorCompute<@Mul, float>"))), std::string::npos);
    EXPECT_NE(squash(e.evg).find(squash(ns("@VisitorAccLoad<int32_t, false>"))), std::string::npos);
    EXPECT_EQ(e.arguments,
              "typename EVG::Arguments args{ { { { {}, {} }, { {ptrScale, layoutScale}, {} }, "
              "{ {ptrPerTokenScale, layoutPerTokenScale}, {} }, {} }, {} }, {ptrD, layoutD} };\n");
}

TEST(EmitCpp, ScalarsAsTypedLiterals) {
    const Graph g = parse_graph(
        "output D : float[4, 4]\n"
        "%0 = AccLoad float\n"
        "%1 = Compute LeakyRelu float [0.1] (%0)\n"
        "%2 = AuxStore float D (%1)\n");
    const CppEmission e = emit_cpp(g);
    // §10.2 _leaky_relu: Compute<LeakyRelu, float, float>{{0.1f}}.
    EXPECT_NE(squash(e.evg).find(squash(ns("@VisitorCompute<@LeakyRelu, float, float>"))), std::string::npos);
    EXPECT_EQ(e.arguments, "typename EVG::Arguments args{ { {}, {{0.1f}} }, {ptrD, layoutD} };\n");

    const Graph h = parse_graph(
        "%0 = AccLoad half\n"
        "%1 = Compute Muls half [0.5] (%0)\n"
        "%2 = Compute Adds half [inf] (%1)\n"
        "%3 = AccLoad int32\n"
        "%4 = Compute Adds int32 [3] (%3)\n"
        "%5 = AccLoad bfloat16\n"
        "%6 = Compute Maxs bfloat16 [-2] (%5)\n");
    const std::string topo = emit_cpp(h).text();
    EXPECT_NE(topo.find("{{bfloat16_t(-2.0f)}},"), std::string::npos);
    EXPECT_NE(topo.find("{{half(0.5f)}},"), std::string::npos);
    EXPECT_NE(topo.find("{{half(std::numeric_limits<float>::infinity())}},"), std::string::npos);
    EXPECT_NE(topo.find("{{int32_t(3)}},"), std::string::npos);
    EXPECT_NE(squash(topo).find(squash(ns("@VisitorCompute<@Muls, half, half>"))), std::string::npos);
}

TEST(EmitCpp, Clamp_TwoScalarsAsTwoTemplateArgumentsAndOneBrace) {
    const Graph g = parse_graph(
        "output D : half[4, 4]\n"
        "%0 = AccLoad half\n"
        "%1 = Compute Clamp half [-1.5, 2] (%0)\n"
        "%2 = AuxStore half D (%1)\n");
    const CppEmission e = emit_cpp(g);
    EXPECT_NE(squash(e.evg).find(squash(ns("@VisitorCompute<@Clamp, half, half, half>"))), std::string::npos);
    EXPECT_EQ(e.arguments,
              "typename EVG::Arguments args{ { {}, {{half(-1.5f), half(2.0f)}} }, {ptrD, layoutD} };\n");
}

TEST(EmitCpp, UbWorkspaceAccLoadAndStridedTensor) {
    const Graph g = parse_graph(
        "input  X : float[256, 500] stride=512\n"
        "output D : float[256, 500]\n"
        "%0 = AccLoad float ub\n"
        "%1 = AuxLoad float X\n"
        "%2 = Compute Add float (%0, %1)\n"
        "%3 = AuxStore float D (%2)\n");
    const CppEmission e = emit_cpp(g);
    EXPECT_NE(squash(e.evg).find(squash(ns("@VisitorAccLoad<float, true>"))), std::string::npos);
    EXPECT_NE(
        e.layouts.find("auto layoutX = tla::MakeLayout<float, Catlass::layout::RowMajor>(256, 500, 512);  "
                       "// input X : float[256, 500] stride=512\n"),
        std::string::npos);
}

TEST(EmitCpp, SingleLeafRootIsTheBareOp) {
    const CppEmission e = emit_cpp(parse_graph("%0 = AccLoad float\n"));
    EXPECT_EQ(squash(e.evg), squash(ns("using EVG = @VisitorAccLoad<float, false>;")));
    EXPECT_EQ(e.arguments, "typename EVG::Arguments args{};\n");
}

TEST(EmitCpp, IsTree) {
    EXPECT_TRUE(is_tree(parse_graph("%0 = AccLoad half\n%1 = Compute Relu half (%0)\n")));
    // A node used twice (even by one consumer) is shared.
    EXPECT_FALSE(is_tree(parse_graph("%0 = AccLoad half\n%1 = Compute Add half (%0, %0)\n")));
    // An unreachable node cannot be placed in a TreeVisitor.
    EXPECT_FALSE(is_tree(parse_graph("%0 = AccLoad half\n%1 = AccLoad half\n%2 = Compute Relu half (%1)\n")));
    EXPECT_FALSE(is_tree(Graph{}));
}

TEST(EmitCpp, InvalidStructureThrows) {
    EXPECT_THROW(emit_cpp(Graph{}), GraphError);
    EXPECT_THROW(emit_cpp(parse_graph("%0 = Compute Relu half (%1)\n%1 = Compute Relu half (%0)\n")),
                 GraphError);
    try {
        emit_cpp(parse_graph("%0 = AccLoad half\n%1 = Compute Relu half (%4)\n"));
        FAIL();
    } catch (const GraphError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "cannot emit C++ for this graph: 2:1: error [bad-input-index] %1 Compute Relu half: input "
                  "1 is %4, "
                  "but the graph has only 2 nodes (%0..%1)");
    }
}

TEST(EmitCpp, ProblemHeaderComment) {
    const Problem p = parse_problem(
        "problem arch=Ascend950 m=256 n=512 k=1024 a=float b=float c=float cl=7680 path=ub\n"
        "output D : float[256, 512]\n"
        "%0 = AccLoad float ub\n"
        "%1 = Compute Relu float (%0)\n"
        "%2 = AuxStore float D (%1)\n");
    EXPECT_EQ(emit_cpp(p).layouts.substr(0, emit_cpp(p).layouts.find('\n')),
              "// Ascend950: m=256 n=512 k=1024, A float, B float, C float, computeLength 7680, UB workspace "
              "(BasicMatmulTlaUbVisitor), L1 tile 256x256x128");
}

TEST(EmitCpp, CppNames) {
    EXPECT_EQ(cpp_pointer_name("X"), "ptrX");
    EXPECT_EQ(cpp_layout_name("rowOut"), "layoutRowOut");
    EXPECT_EQ(cpp_element_name(DType::bf16), "bfloat16_t");
    EXPECT_EQ(cpp_element_name(DType::f16), "half");
    EXPECT_EQ(cpp_element_name(DType::i32), "int32_t");
}

TEST(EmitCpp, DeepChainFallsBackToTopologicalVisitor) {
    std::string text = "%0 = AccLoad float\n";
    for (int i = 1; i < 3000; ++i) text += fmt::format("%{} = Compute Relu float (%{})\n", i, i - 1);
    const Graph g = parse_graph(text);
    ASSERT_TRUE(is_tree(g));
    const CppEmission e = emit_cpp(g);
    EXPECT_EQ(e.evg.rfind("using EVG = Catlass::Epilogue::Fusion::TopologicalVisitor<", 0), 0u);
}

namespace {

// A chain AccLoad -> Relu x (levels - 2) -> AuxStore has `levels` levels.
Graph chain(int levels) {
    std::string text = "output D : float[4, 4]\n%0 = AccLoad float\n";
    int last = 0;
    for (int i = 1; i <= levels - 2; ++i, ++last)
        text += fmt::format("%{} = Compute Relu float (%{})\n", i, i - 1);
    text += fmt::format("%{} = AuxStore float D (%{})\n", last + 1, last);
    return parse_graph(text);
}

// The one tree-or-topological rule (DynamicVisitor's Program::tree is runs_as_tree too).
TEST(EmitCpp, TreesOfAtMost256LevelsAreTreeVisitorsDeeperOnesTopological) {
    EXPECT_TRUE(runs_as_tree(chain(256)));
    EXPECT_FALSE(runs_as_tree(chain(257)));
    EXPECT_NE(emit_cpp(chain(256)).evg.find("TreeVisitor<"), std::string::npos);
    EXPECT_NE(emit_cpp(chain(257)).evg.find("TopologicalVisitor<"), std::string::npos);
}

}  // namespace

// The upstream dialect (EmitOptions::dialect): the same EVG text where upstream has everything the graph
// uses; a padded layout in upstream's TLA spelling (its tla has no row-major MakeLayout with a stride).
TEST(EmitCppUpstream, SameEvgAndArgumentsAsTheReferenceDialectWhereUpstreamHasTheNodes) {
    const Graph g = parse_graph(
        "input  X : float[1, 512]\n"
        "output D : half[256, 512]\n"
        "%0 = AccLoad float\n"
        "%1 = RowBroadcast float X\n"
        "%2 = Compute Add float (%0, %1)\n"
        "%3 = Cast half <- float CAST_RINT (%2)\n"
        "%4 = AuxStore half D (%3)\n");
    EmitOptions upstream;
    upstream.dialect = Implementation::upstream;
    const CppEmission ours = emit_cpp(g);
    const CppEmission theirs = emit_cpp(g, upstream);
    EXPECT_EQ(theirs.evg, ours.evg);
    EXPECT_EQ(theirs.arguments, ours.arguments);
    EXPECT_EQ(theirs.layouts, ours.layouts);
}

TEST(EmitCppUpstream, PaddedLayoutInUpstreamsTlaSpelling) {
    const Graph g = parse_graph(
        "input  X : float[256, 500] stride=512\n"
        "output D : float[256, 500]\n"
        "%0 = AccLoad float\n"
        "%1 = AuxLoad float X\n"
        "%2 = Compute Add float (%0, %1)\n"
        "%3 = AuxStore float D (%2)\n");
    EmitOptions upstream;
    upstream.dialect = Implementation::upstream;
    EXPECT_NE(emit_cpp(g, upstream)
                  .layouts.find("auto layoutX = tla::MakeLayout(tla::MakeShape(256, 500), "
                                "tla::MakeStride(static_cast<int64_t>(512), tla::Int<1>{}), "
                                "tla::MakeShape(256, 500));"),
              std::string::npos);
}

TEST(EmitCppUpstream, RuntimeShapesReadMAndNFromTheNodeKinds) {
    const Graph g = parse_graph(
        "input  X : float[7, 9] stride=16\n"
        "input  B : float[1, 9]\n"
        "output D : float[7, 9]\n"
        "%0 = AccLoad float\n"
        "%1 = AuxLoad float X\n"
        "%2 = RowBroadcast float B\n"
        "%3 = Compute Add float (%0, %1, %2)\n"
        "%4 = AuxStore float D (%3)\n");
    EmitOptions options;
    options.runtime_shapes = true;
    const std::string ref = emit_cpp(g, options).layouts;
    EXPECT_NE(ref.find("tla::MakeLayout<float, Catlass::layout::RowMajor>(m, n, n + 7u);"), std::string::npos)
        << ref;
    EXPECT_NE(ref.find("auto layoutB = tla::MakeLayout<float, Catlass::layout::RowMajor>(1u, n);"),
              std::string::npos)
        << ref;
    EXPECT_NE(ref.find("auto layoutD = tla::MakeLayout<float, Catlass::layout::RowMajor>(m, n);"),
              std::string::npos)
        << ref;
    options.dialect = Implementation::upstream;
    EXPECT_NE(emit_cpp(g, options)
                  .layouts.find("tla::MakeLayout(tla::MakeShape(m, n), "
                                "tla::MakeStride(static_cast<int64_t>(n + 7u), tla::Int<1>{}), "
                                "tla::MakeShape(m, n));"),
              std::string::npos);
}

// What upstream lacks is refused with a sentence naming the node (its line when parsed from text) and saying
// what upstream has instead; the reference dialect emits the same graphs.
TEST(EmitCppUpstream, RefusesEveryNodeKindAndFunctorUpstreamLacksNamingTheNode) {
    struct Refused {
        const char* graph;
        const char* message;
    };
    const Refused cases[] = {
        {"input  c : float[4, 1]\noutput D : float[4, 4]\n%0 = ColBroadcast float c\n%1 = AuxStore float D "
         "(%0)\n",
         "cannot emit C++ in the upstream dialect: %0 ColBroadcast float c (g.evg:3:1): upstream Catlass has "
         "no "
         "ColBroadcast node (its nodes: AccLoad, AuxLoad, AuxStore, Cast, Compute, RowBroadcast)"},
        {"input  s : float[1, 1]\noutput D : float[4, 4]\n%0 = ScalarBroadcast float s\n%1 = AuxStore float "
         "D (%0)\n",
         "cannot emit C++ in the upstream dialect: %0 ScalarBroadcast float s (g.evg:3:1): upstream Catlass "
         "has "
         "no ScalarBroadcast node (its nodes: AccLoad, AuxLoad, AuxStore, Cast, Compute, RowBroadcast)"},
        {"output r : float[1, 4]\n%0 = AccLoad float\n%1 = RowReduce Add float r (%0)\n",
         "cannot emit C++ in the upstream dialect: %1 RowReduce Add float r (g.evg:3:1): upstream Catlass "
         "has no "
         "RowReduce node (its nodes: AccLoad, AuxLoad, AuxStore, Cast, Compute, RowBroadcast)"},
        {"output r : float[4, 1]\n%0 = AccLoad float\n%1 = ColReduce Max float r (%0)\n",
         "cannot emit C++ in the upstream dialect: %1 ColReduce Max float r (g.evg:3:1): upstream Catlass "
         "has no "
         "ColReduce node (its nodes: AccLoad, AuxLoad, AuxStore, Cast, Compute, RowBroadcast)"},
        {"output r : float[1, 1]\n%0 = AccLoad float\n%1 = ScalarReduce Min float r (%0)\n",
         "cannot emit C++ in the upstream dialect: %1 ScalarReduce Min float r (g.evg:3:1): upstream Catlass "
         "has "
         "no ScalarReduce node (its nodes: AccLoad, AuxLoad, AuxStore, Cast, Compute, RowBroadcast)"},
        {"output D : half[4, 4]\n%0 = AccLoad half\n%1 = Compute Clamp half [-1, 1] (%0)\n%2 = AuxStore half "
         "D (%1)\n",
         "cannot emit C++ in the upstream dialect: %1 Compute Clamp half [-1, 1] (g.evg:3:1): upstream "
         "Catlass has "
         "no Clamp functor (its functors: Exp, Relu, Sqrt, RsqrtFast, Silu, LeakyRelu, Muls, Adds, Maxs, "
         "Mins, "
         "Add, Sub, Mul, Div, Max, Min, AddRelu, Prelu, Reciprocal, Rsqrt, Sigmoid)"},
    };
    EmitOptions upstream;
    upstream.dialect = Implementation::upstream;
    upstream.source = "g.evg";
    for (const Refused& r : cases) {
        const Graph g = parse_graph(r.graph);
        EXPECT_NO_THROW(emit_cpp(g)) << r.graph;
        try {
            emit_cpp(g, upstream);
            ADD_FAILURE() << "emitted: " << r.graph;
        } catch (const GraphError& e) {
            EXPECT_EQ(std::string(e.what()), r.message);
        }
    }
}

TEST(EmitCppUpstream, RefusesAnAtlasA2Problem) {
    const Problem p = parse_problem(
        "problem arch=AtlasA2 m=16 n=16 k=16 a=half b=half c=float cl=256\n"
        "output D : float[16, 16]\n"
        "%0 = AccLoad float\n"
        "%1 = AuxStore float D (%0)\n");
    EmitOptions upstream;
    upstream.dialect = Implementation::upstream;
    try {
        emit_cpp(p, upstream);
        FAIL();
    } catch (const GraphError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "cannot emit C++ in the upstream dialect: arch AtlasA2: upstream Catlass has its Epilogue "
                  "Visitor "
                  "Graph on Ascend950 only (the EVG BlockEpilogue is compiled for CATLASS_ARCH 3510)");
    }
}

// A graph upstream runs but with a known fault (docs/upstream-findings.md §4) is emitted with the fault said
// in a warning line; the reference dialect has no such line.
TEST(EmitCppUpstream, AStoreOfALoadIsEmittedWithAWarningLine) {
    const Graph g = parse_graph(
        "output D : float[4, 4]\n"
        "%0 = AccLoad float\n"
        "%1 = AuxStore float D (%0)\n");
    EmitOptions upstream;
    upstream.dialect = Implementation::upstream;
    upstream.source = "g.evg";
    EXPECT_EQ(
        emit_cpp(g, upstream).layouts.substr(0, emit_cpp(g, upstream).layouts.find('\n')),
        "// warning: %1 AuxStore float D (g.evg:3:1) stores the buffer of %0 AccLoad float (g.evg:2:1) "
        "directly: upstream Catlass orders the next load into that buffer after the compute stage only, not "
        "after this store (a race on the UB; docs/upstream-findings.md §4)");
    EXPECT_EQ(emit_cpp(g).layouts.find("warning"), std::string::npos);
    // An input tensor stored as is too; a Compute in between removes it.
    EXPECT_NE(
        emit_cpp(parse_graph("input X : half[4, 4]\noutput Y : half[4, 4]\noutput D : half[4, 4]\n"
                             "%0 = AuxLoad half X\n%1 = AuxStore half Y (%0)\n%2 = AuxStore half D (%1)\n"),
                 upstream)
            .layouts.find("// warning: %1 AuxStore half Y (g.evg:5:1) stores the buffer of %0 AuxLoad half X "
                          "(g.evg:4:1)"),
        std::string::npos);
    EXPECT_EQ(
        emit_cpp(parse_graph("output D : float[4, 4]\n%0 = AccLoad float\n%1 = Compute Relu float (%0)\n"
                             "%2 = AuxStore float D (%1)\n"),
                 upstream)
            .layouts.find("warning"),
        std::string::npos);
}

// stores_of_loads: every store whose buffer is a load's, through stores too; a Compute in between ends it.
TEST(StoresOfLoads, EveryStoreReadingALoadsBufferDirectlyOrThroughStores) {
    EXPECT_EQ(
        stores_of_loads(parse_graph("input X : half[4, 4]\noutput Y : half[4, 4]\noutput D : half[4, 4]\n"
                                    "output E : half[4, 4]\n"
                                    "%0 = AuxLoad half X\n%1 = AuxStore half Y (%0)\n"
                                    "%2 = AuxStore half D (%1)\n%3 = Compute Relu half (%0)\n"
                                    "%4 = AuxStore half E (%3)\n")),
        (std::vector<int>{1, 2}));
    EXPECT_TRUE(stores_of_loads(parse_graph("output D : float[4, 4]\n%0 = AccLoad float\n"
                                            "%1 = Compute Relu float (%0)\n%2 = AuxStore float D (%1)\n"))
                    .empty());
}

// EmitOptions::topological: a tree as a TopologicalVisitor, with flat Arguments in node order.
TEST(EmitCpp, ATreeAsATopologicalVisitorOnRequest) {
    const Graph g = parse_graph(
        "output D : float[4, 4]\n"
        "%0 = AccLoad float\n"
        "%1 = Compute Relu float (%0)\n"
        "%2 = AuxStore float D (%1)\n");
    EmitOptions options;
    options.topological = true;
    const CppEmission e = emit_cpp(g, options);
    EXPECT_EQ(squash(e.evg), squash(ns("using EVG = @TopologicalVisitor<tla::tuple<tla::seq<>, tla::seq<0>, "
                                       "tla::seq<1>>, @VisitorAccLoad<float, false>, @VisitorCompute<@Relu, "
                                       "float>, @VisitorAuxStore<float, decltype(layoutD)>>;")));
    EXPECT_EQ(squash(e.arguments), squash("typename EVG::Arguments args{ {}, {}, {ptrD, layoutD}, };"));
    EXPECT_NE(squash(emit_cpp(g).evg).find(squash(ns("@TreeVisitor<"))), std::string::npos);
}
