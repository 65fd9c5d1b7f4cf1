// Malformed texts and the exact error each one gets: line:column, what was expected, and the near name for a
// misspelling.
#include <gtest/gtest.h>

#include <string>

#include "evg/graph/error.hpp"
#include "evg/graph/text.hpp"

using namespace evg::graph;

namespace {

struct Malformed {
    const char* name;
    bool problem;  // parse with parse_problem (else parse_graph)
    const char* text;
    const char* error;  // the full what(): "<line>:<column>: <message>"
};

const Malformed kCases[] = {
    // Names: unknown words get the nearest known one.
    {"MisspelledNodeKind", false, "%0 = AuxLod half X\n",
     "1:6: unknown node kind 'AuxLod'; did you mean 'AuxLoad'?"},
    {"MisspelledFunctor", false, "%0 = AccLoad half\n%1 = Compute Reul half (%0)\n",
     "2:14: unknown functor 'Reul'; did you mean 'Relu'?"},
    {"MisspelledFunctorAlias", false, "%0 = AccLoad float\n%1 = Compute Maximun float (%0, %0)\n",
     "2:14: unknown functor 'Maximun'; did you mean 'Maximum'?"},
    {"MisspelledElementType", false, "%0 = AccLoad flaot\n",
     "1:14: unknown element type 'flaot'; did you mean 'float'?"},
    {"MisspelledRoundMode", false, "%0 = AccLoad float\n%1 = Cast half <- float CAST_RNT (%0)\n",
     "2:25: unknown round mode 'CAST_RNT'; did you mean 'CAST_RINT'?"},
    {"MisspelledLineStart", false, "inptu X : half[1, 1]\n",
     "1:1: expected '%<n> = <node>', 'input', 'output' or 'problem' at the start of a line, found 'inptu'; "
     "did you "
     "mean 'input'?"},
    {"UnknownLineStart", false, "nodes %0\n",
     "1:1: expected '%<n> = <node>', 'input', 'output' or 'problem' at the start of a line, found 'nodes'"},
    // Node lines.
    {"NodeIdOutOfOrder", false, "%0 = AccLoad float\n%2 = Compute Relu float (%0)\n",
     "2:1: expected node id %1, found %2 (nodes are numbered in order from %0)"},
    {"MissingEquals", false, "%0 AccLoad float\n", "1:4: expected '=' after '%0', found 'AccLoad'"},
    {"NodeKindIsANumber", false, "%0 = 5\n",
     "1:6: expected a node kind (AccLoad, AuxLoad, Compute, ...), found '5'"},
    {"StrayCharacter", false, "%0 = AccLoad float $\n", "1:20: unexpected character '$'"},
    {"PercentWithoutNumber", false, "%x = AccLoad float\n",
     "1:2: expected a node number after '%' (like %3), found 'x'"},
    {"CastWithoutArrow", false, "%0 = AccLoad float\n%1 = Cast half float (%0)\n",
     "2:16: expected '<-' after the destination type of Cast (Cast <To> <- <From>), found 'float'"},
    {"InputsWithoutComma", false, "%0 = AccLoad float\n%1 = Compute Add float (%0 %0)\n",
     "2:28: expected ')' or ',' in the input list, found '%0'"},
    {"InputNotANodeRef", false, "%0 = AccLoad float\n%1 = Compute Add float (%0, x)\n",
     "2:29: expected an input like %3, found 'x'"},
    {"InputListNotClosed", false, "%0 = AccLoad float\n%1 = Compute Add float (%0,\n",
     "2:28: expected an input like %3, found end of line"},
    {"NodeNumberTooLarge", false, "%0 = AccLoad float\n%1 = Compute Add float (%99999999999)\n",
     "2:25: 99999999999 is out of range for a node number"},
    {"AccLoadBadWorkspace", false, "%0 = AccLoad float extra\n",
     "1:20: expected 'gm', 'ub' or the end of the line after 'AccLoad float', found 'extra'"},
    {"AuxLoadWithoutTensor", false, "%0 = AuxLoad half\n",
     "1:18: expected a tensor name after 'AuxLoad half', found end of line"},
    {"ReduceWithoutTensor", false, "%0 = AccLoad float\n%1 = RowReduce Plus float (%0)\n",
     "2:27: expected a tensor name after 'RowReduce Plus float', found '('"},
    {"TrailingWords", false, "%0 = AccLoad half (%0) junk\n",
     "1:24: unexpected 'junk' after node %0; expected the end of the line"},
    {"Mul3WithTwoInputs", false, "%0 = AccLoad float\n%1 = Compute Mul3 float (%0, %0)\n",
     "2:14: Mul3 takes exactly 3 inputs, got 2 (Mul3 is Mul with 3 inputs)"},
    // Scalars.
    {"ScalarWithTwoDots", false, "%0 = AccLoad float\n%1 = Compute Muls float [0.1.2] (%0)\n",
     "2:26: bad scalar '0.1.2'; expected a number like 0.1, -2, 1e-3, inf or nan"},
    {"ScalarIsAWord", false, "%0 = AccLoad float\n%1 = Compute Muls float [abc] (%0)\n",
     "2:26: expected a number like 0.1, -2, 1e-3, inf or nan, found 'abc'"},
    {"ScalarListNotClosed", false, "%0 = AccLoad float\n%1 = Compute Muls float [0.5 (%0)\n",
     "2:30: expected ']' or ',' in the scalar list, found '('"},
    // Tensor lines.
    {"TensorWithoutColon", false, "input X half[256, 512]\n",
     "1:9: expected ':' after the tensor name 'X', found 'half'"},
    {"TensorWithoutBracket", false, "input X : half 256, 512]\n",
     "1:16: expected '[' after the element type, to open the shape [rows, cols], found '256'"},
    {"TensorShapeWithoutComma", false, "input X : half[256 512]\n",
     "1:20: expected ',' between the rows and the columns of the shape, found '512'"},
    {"TensorMisspelledStride", false, "input X : half[256, 512] strid=600\n",
     "1:26: unexpected 'strid' after the shape; expected 'stride=<n>' or the end of the line"},
    {"TensorWithoutName", false, "output : half[1, 1]\n",
     "1:8: expected a tensor name after 'output', found ':'"},
    // Problem lines.
    {"ProblemInAGraphText", false, "problem arch=AtlasA2 m=1 n=1 k=1 a=half b=half c=half cl=32\n",
     "1:1: a graph text has no 'problem' line; parse the text as a problem (parse_problem)"},
    {"ProblemMissing", true, "# nothing\n%0 = AccLoad half\n",
     "2:1: expected the 'problem' line before tensors and nodes"},
    {"ProblemTextEmpty", true, "", "1:1: expected a 'problem' line; the text has none"},
    {"ProblemTwice", true,
     "problem arch=AtlasA2 m=1 n=1 k=1 a=half b=half c=half cl=32\n"
     "problem arch=AtlasA2 m=1 n=1 k=1 a=half b=half c=half cl=32\n",
     "2:1: a second 'problem' line (the first is at line 1)"},
    {"ProblemMisspelledKey", true,
     "problem arch=AtlasA2 m=1 n=1 k=1 a=half b=half c=half cl=32 tiles=1x1x1\n",
     "1:61: unknown problem key 'tiles'; did you mean 'tile'? (keys: arch m n k a b c cl path tile; the "
     "kernel "
     "configuration: mmad unit_flag hf32 l1_resident stages l0k layout_a layout_b)"},
    {"ProblemBadMmad", true, "problem arch=Ascend950 m=1 n=1 k=1 a=half b=half c=half cl=32 mmad=preload\n",
     "1:68: mmad must be pingpong or pingpong_mutex, found 'preload'"},
    {"ProblemBadUnitFlag", true,
     "problem arch=Ascend950 m=1 n=1 k=1 a=half b=half c=half cl=32 unit_flag=2\n",
     "1:73: unit_flag must be 0 or 1, found '2'"},
    {"ProblemBadStages", true,
     "problem arch=Ascend950 m=1 n=1 k=1 a=half b=half c=half cl=32 stages=2x2x2x2\n",
     "1:70: bad stages '2x2x2x2'; expected L1AxL1BxL0AxL0BxL0C like 2x2x2x2x1 (the block-mmad's buffer "
     "stages)"},
    {"ProblemBadLayout", true, "problem arch=Ascend950 m=1 n=1 k=1 a=half b=half c=half cl=32 layout_b=nz\n",
     "1:72: layout_b must be row or col, found 'nz'"},
    {"ProblemUnknownArch", true, "problem arch=AtlasA3 m=1 n=1 k=1 a=half b=half c=half cl=32\n",
     "1:14: unknown arch 'AtlasA3'; did you mean 'AtlasA2'? (AtlasA2 or Ascend950)"},
    {"ProblemMissingComputeLength", true, "problem arch=AtlasA2 m=1 n=1 k=1 a=half b=half c=half\n",
     "1:1: the problem line is missing cl=<computeLength, elements per UB buffer>"},
    {"ProblemDuplicateKey", true, "problem arch=AtlasA2 m=1 m=2 n=1 k=1 a=half b=half c=half cl=32\n",
     "1:26: problem key 'm' is given twice"},
    {"ProblemBadTile", true, "problem arch=AtlasA2 m=1 n=1 k=1 a=half b=half c=half cl=32 tile=128x256\n",
     "1:66: bad tile '128x256'; expected MxNxK like 128x256x256"},
    {"ProblemBadPath", true, "problem arch=AtlasA2 m=1 n=1 k=1 a=half b=half c=half cl=32 path=l1\n",
     "1:66: path must be gm or ub, found 'l1'"},
    {"ProblemNegativeM", true, "problem arch=AtlasA2 m=-5 n=1 k=1 a=half b=half c=half cl=32\n",
     "1:24: expected a non-negative integer for m, found '-5'"},
    {"ProblemKeyWithoutEquals", true, "problem arch AtlasA2\n",
     "1:14: expected '=' after 'arch', found 'AtlasA2'"},
};

class ParseErrors : public ::testing::TestWithParam<Malformed> {};

TEST_P(ParseErrors, MessageNamesLineColumnAndExpectation) {
    const Malformed& c = GetParam();
    try {
        if (c.problem)
            (void)parse_problem(c.text);
        else
            (void)parse_graph(c.text);
        FAIL() << "no error for:\n" << c.text;
    } catch (const ParseError& e) {
        EXPECT_EQ(std::string(e.what()), c.error);
        // what() is "<line>:<column>: <message>" and the parts agree with it.
        EXPECT_EQ(std::to_string(e.line()) + ":" + std::to_string(e.column()) + ": " + e.message(), e.what());
    }
}

INSTANTIATE_TEST_SUITE_P(Text, ParseErrors, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Malformed>& info) {
                             return std::string(info.param.name);
                         });

TEST(ParseErrorsTable, HasAtLeast25Cases) {
    EXPECT_GE(std::size(kCases), 25u);
}

TEST(ParseErrorsTable, ParseErrorIsAGraphErrorAndAnEvgError) {
    EXPECT_THROW((void)parse_graph("%0 = AuxLod half X\n"), GraphError);
    EXPECT_THROW((void)parse_graph("%0 = AuxLod half X\n"), evg::Error);
}

}  // namespace
