// make_case_data: outputs start as the sentinel (padding too) or as the reduce's identity; inputs are
// deterministic and within their mode's range.
#include <gtest/gtest.h>

#include "evg/graph/text.hpp"
#include "evg/oracle/numeric.hpp"
#include "evg/verify/data.hpp"

namespace evg::verify {
namespace {

constexpr const char* kReduces =
    "problem arch=AtlasA2 m=4 n=40 k=16 a=half b=half c=float cl=64 path=gm tile=32x64x64\n"
    "input  X : half[4, 40]\n"
    "output D : half[4, 40] stride=48\n"
    "output S : float[1, 40]\n"
    "output H : float[4, 1]\n"
    "output L : float[1, 1]\n"
    "%0 = AccLoad float\n"
    "%1 = AuxLoad half X\n"
    "%2 = AuxStore half D (%1)\n"
    "%3 = RowReduce Add float S (%0)\n"
    "%4 = ColReduce Max float H (%0)\n"
    "%5 = ScalarReduce Min float L (%0)\n";

TEST(CaseData, OutputsStartAsTheSentinelOrTheReducesIdentity) {
    const graph::Problem p = graph::parse_problem(kReduces);
    const CaseData d = make_case_data(p, DataMode::Exact, 5);
    const oracle::HostTensor& D = d.inputs.at("D");
    ASSERT_EQ(D.size(), 3u * 48 + 40);
    for (std::size_t i = 0; i < D.size(); ++i) ASSERT_EQ(D.bits(i), 0x7D5Au) << i;  // padding included
    for (std::size_t i = 0; i < d.inputs.at("S").size(); ++i) EXPECT_EQ(d.inputs.at("S").value(i), 0);
    EXPECT_EQ(d.inputs.at("H").value(0), oracle::dtype_lowest(graph::DType::f32));
    EXPECT_EQ(d.inputs.at("L").value(0), oracle::dtype_max(graph::DType::f32));
    EXPECT_TRUE(d.exact_data);
    EXPECT_NE(d.description.find("exact-friendly"), std::string::npos);
}

TEST(CaseData, TheSameSeedGivesTheSameBytesAndAnotherSeedOthers) {
    const graph::Problem p = graph::parse_problem(kReduces);
    EXPECT_EQ(make_case_data(p, DataMode::Special, 9).inputs, make_case_data(p, DataMode::Special, 9).inputs);
    EXPECT_NE(make_case_data(p, DataMode::Special, 9).inputs.at("X"),
              make_case_data(p, DataMode::Special, 10).inputs.at("X"));
}

TEST(CaseData, ExactInputsAreSmallIntegersAndUniformOnesAreNot) {
    const graph::Problem p = graph::parse_problem(kReduces);
    const CaseData e = make_case_data(p, DataMode::Exact, 1);
    for (const char* name : {"A", "B", "X"})
        for (std::size_t i = 0; i < e.inputs.at(name).size(); ++i) {
            const oracle::Real v = e.inputs.at(name).value(i);
            ASSERT_TRUE(v == std::floor(v) && v >= -4 && v <= 4) << name << "[" << i << "] = " << double(v);
        }
    const CaseData u = make_case_data(p, DataMode::Uniform, 1);
    EXPECT_FALSE(u.exact_data);
    bool fraction = false;
    for (std::size_t i = 0; i < u.inputs.at("A").size(); ++i)
        fraction = fraction || u.inputs.at("A").value(i) != std::floor(u.inputs.at("A").value(i));
    EXPECT_TRUE(fraction);
}

TEST(CaseData, EverySentinelIsDistinctFromZeroAndFloatSentinelsAreNaN) {
    for (graph::DType t : {graph::DType::f32, graph::DType::f16, graph::DType::bf16})
        EXPECT_TRUE(std::isnan(static_cast<double>(oracle::decode(t, sentinel_bits(t))))) << int(t);
    for (graph::DType t :
         {graph::DType::i8, graph::DType::u8, graph::DType::i16, graph::DType::i32, graph::DType::i64})
        EXPECT_NE(sentinel_bits(t), 0u);
}

}  // namespace
}  // namespace evg::verify
