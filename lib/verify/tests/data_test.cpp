// make_case_data: outputs start as the sentinel (padding too) or as the reduce's identity; inputs are
// deterministic and within their mode's range.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "evg/graph/text.hpp"
#include "evg/oracle/evaluate.hpp"
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

// The reduce cases of the conformance catalogue (conformance/suites/nodes.cpp: AuxLoad X, then a reduce into
// R, on its tail shapes) get data under which a wrong identity shows: with every input negative (Max) or
// positive (Min), a reduce that starts from 0 instead of lowest() / max() -- in its initial output, or in the
// padding of a tail tile -- gives another value in every element of R. The oracle started from 0 stands for
// such a kernel: it must differ from the oracle's result everywhere. With mixed-sign data it would not.
TEST(CaseData, SignedInputsMakeAWrongReduceIdentityShowInEveryElement) {
    const std::pair<const char*, const char*> kinds[] = {
        {"RowReduce", "[1, {n}]"}, {"ColReduce", "[{m}, 1]"}, {"ScalarReduce", "[1, 1]"}};
    for (const auto& [kind, shape] : kinds)
        for (const char* fn : {"Max", "Min"})
            for (const char* dtype : {"float", "half"})
                for (const auto& [m, n] : {std::pair{64, 97}, std::pair{39, 97}}) {
                    const std::string out_shape =
                        fmt::format(fmt::runtime(shape), fmt::arg("m", m), fmt::arg("n", n));
                    const graph::Problem p = graph::parse_problem(fmt::format(
                        "problem arch=AtlasA2 m={0} n={1} k=40 a=half b=half c=float cl=32 path=gm "
                        "tile=32x64x64\ninput X : {2}[{0}, {1}]\noutput R : {2}{3}\n%0 = AuxLoad {2} X\n"
                        "%1 = {4} {5} {2} R (%0)\n",
                        m, n, dtype, out_shape, kind, fn));
                    SCOPED_TRACE(fmt::format("{} {} {} m={} n={}", kind, fn, dtype, m, n));
                    const InputSign sign = identity_telling_sign(p);
                    EXPECT_EQ(sign, std::string(fn) == "Max" ? InputSign::negative : InputSign::positive);
                    for (DataMode mode : {DataMode::Exact, DataMode::Uniform}) {
                        CaseData d = make_case_data(p, mode, 51, sign);
                        const oracle::HostTensor golden = oracle::evaluate(p, d.inputs).output("R");
                        oracle::HostTensor& r = d.inputs.at("R");
                        for (std::size_t i = 0; i < r.size(); ++i) r.set_value(i, 0);  // the wrong identity
                        const oracle::HostTensor wrong = oracle::evaluate(p, d.inputs).output("R");
                        ASSERT_EQ(golden.size(), wrong.size());
                        for (std::size_t i = 0; i < golden.size(); ++i)
                            EXPECT_NE(golden.value(i), wrong.value(i)) << "R[" << i << "]";
                    }
                }
}

}  // namespace
}  // namespace evg::verify
