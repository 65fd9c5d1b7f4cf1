// verify::judge: every tag fires on a planted fault, names where it is, and stays quiet on the clean run.
#include <gtest/gtest.h>

#include <cstring>

#include "evg/hw/error.hpp"
#include "evg/hw/report.hpp"
#include "evg/verify/compare.hpp"
#include "evg/verify/data.hpp"
#include "evg/verify/judge.hpp"
#include "judge_fixture.hpp"

namespace evg::verify {
namespace {

using testing::Judged;
using testing::kStridedAdd;

const Judged& strided_add() {
    static const Judged j(kStridedAdd);
    return j;
}

std::vector<Tag> tags(const Verdict& v) {
    std::vector<Tag> t;
    for (const Finding& f : v.findings) t.push_back(f.tag);
    return t;
}

// Element (r, c) of a float output at the tensor's row stride.
void set_float(std::vector<uint8_t>& bytes, int64_t stride, int64_t r, int64_t c, uint32_t bits) {
    std::memcpy(bytes.data() + (r * stride + c) * 4, &bits, 4);
}

// The oracle may let go of node values the judge does not read (values_the_judge_reads): the verdict is the
// one of the oracle that keeps every value; releasing a value the judge reads is an error naming the node,
// not a comparison against an empty matrix.
TEST(Judge, ReleasedOracleValuesGiveTheSameVerdictUnlessTheJudgeNeedsThem) {
    const Judged j(
        "problem arch=AtlasA2 m=40 n=72 k=32 a=half b=half c=float cl=256 path=gm tile=32x64x64\n"
        "output D : float[40, 72]\n"
        "output S : float[1, 72]\n"
        "%0 = AccLoad float\n"
        "%1 = Compute Adds float [1] (%0)\n"
        "%2 = Compute Silu float (%1)\n"
        "%3 = Compute Muls float [0.5] (%2)\n"
        "%4 = RowReduce Add float S (%3)\n"
        "%5 = AuxStore float D (%4)\n");
    const std::vector<bool> keep = values_the_judge_reads(j.problem);
    EXPECT_EQ(keep,
              (std::vector<bool>{false, true, false, true, false, false}));  // Silu's and the sum's inputs
    const oracle::OracleResult lean = oracle::evaluate(j.problem, j.data.inputs, keep);
    EXPECT_TRUE(lean.nodes[0].released);
    EXPECT_TRUE(lean.nodes[2].released);
    JudgeOptions opt;
    opt.exact_data = j.data.exact_data;
    const Verdict full = judge(j.problem, j.run, j.golden, opt), part = judge(j.problem, j.run, lean, opt);
    EXPECT_TRUE(full.clean()) << full.text();
    EXPECT_EQ(part.text(), full.text());
    ASSERT_EQ(part.outputs.size(), full.outputs.size());
    for (std::size_t i = 0; i < full.outputs.size(); ++i) {
        EXPECT_EQ(part.outputs[i].mode, full.outputs[i].mode);
        EXPECT_EQ(part.outputs[i].summary, full.outputs[i].summary);
    }
    EXPECT_EQ(part.worst_ulp, full.worst_ulp);
    const oracle::OracleResult starved =
        oracle::evaluate(j.problem, j.data.inputs, std::vector<bool>(j.problem.graph.nodes.size(), false));
    try {
        (void)judge(j.problem, j.run, starved, opt);
        FAIL() << "the judge read a released value";
    } catch (const evg::Error& e) {
        EXPECT_NE(std::string(e.what()).find("released the values of node %"), std::string::npos) << e.what();
    }
}

TEST(Judge, TheCleanRunHasNoFindingAndItsPaddingKeepsTheSentinel) {
    const Judged& j = strided_add();
    const Verdict v = j.judge_run(j.run);
    EXPECT_TRUE(v.clean()) << v.text();
    EXPECT_EQ(v.ub_peak, v.ub_predicted);
    ASSERT_EQ(v.outputs.size(), 1u);
    EXPECT_EQ(v.outputs[0].mode, "bit-exact");
    EXPECT_EQ(v.outputs[0].compared, 40u * 72u);
    // The gap between rows is never written, and that is no finding.
    uint32_t pad = 0;
    std::memcpy(&pad, j.run.outputs.at("D").data() + 72 * 4, 4);
    EXPECT_EQ(pad, sentinel_bits(graph::DType::f32));
}

TEST(Judge, ElementsStillHoldingTheSentinelAreUnwrittenAndNamedByRange) {
    const Judged& j = strided_add();
    graph::ModelRun r = j.run;
    for (int64_t c = 17; c <= 31; ++c) set_float(r.outputs.at("D"), 80, 3, c, 0x7FA5A5A5u);
    set_float(r.outputs.at("D"), 80, 39, 71, 0x7FA5A5A5u);
    const Verdict v = j.judge_run(r);
    EXPECT_EQ(tags(v), std::vector<Tag>{Tag::unwritten_output}) << v.text();
    EXPECT_EQ(v.findings[0].message, "D[3, 17..31] was never written\nD[39, 71] was never written");
    EXPECT_EQ(v.findings[0].tensor, "D");
    EXPECT_EQ(v.findings[0].node, 3);
    EXPECT_EQ(v.outputs[0].unwritten, 16u);
    EXPECT_NE(v.text().find("[unwritten_output] D[3, 17..31] was never written"), std::string::npos);
}

TEST(Judge, ConsecutiveRowsWithTheSameGapMergeAndLongListsAreCut) {
    const Judged& j = strided_add();
    graph::ModelRun r = j.run;
    for (int64_t row = 0; row < 16; ++row)
        for (int64_t c = 64; c < 72; ++c) set_float(r.outputs.at("D"), 80, row, c, 0x7FA5A5A5u);
    for (int64_t row = 20; row < 40; row += 2) set_float(r.outputs.at("D"), 80, row, 0, 0x7FA5A5A5u);
    const Verdict v = j.judge_run(r);
    ASSERT_EQ(tags(v), std::vector<Tag>{Tag::unwritten_output}) << v.text();
    EXPECT_EQ(v.findings[0].message,
              "D[0..15, 64..71] was never written\nD[20, 0] was never written\nD[22, 0] was never written\n"
              "D[24, 0] was never written\n(7 more ranges; 138 elements in all)");
}

TEST(Judge, AWrittenPaddingElementIsPaddingWritten) {
    const Judged& j = strided_add();
    graph::ModelRun r = j.run;
    set_float(r.outputs.at("D"), 80, 5, 75, 0);
    const Verdict v = j.judge_run(r);
    EXPECT_EQ(tags(v), std::vector<Tag>{Tag::padding_written}) << v.text();
    EXPECT_EQ(v.findings[0].message, "D[5, 75] is padding between rows and was written");
}

TEST(Judge, AWrongWrittenValueIsAnOutputMismatchOnly) {
    const Judged& j = strided_add();
    graph::ModelRun r = j.run;
    r.outputs.at("D")[(7 * 80 + 9) * 4] ^= 1;
    const Verdict v = j.judge_run(r);
    EXPECT_EQ(tags(v), std::vector<Tag>{Tag::output_mismatch}) << v.text();
    EXPECT_EQ(v.findings[0].tensor, "D");
    EXPECT_FALSE(v.outputs[0].ok);
}

// An output whose values a documented finding decides (JudgeOptions::values_not_judged): a wrong value is no
// finding and the output says why it was not compared; an element never written still is one.
TEST(Judge, AnOutputNotJudgedForValuesIsStillCheckedForBeingWritten) {
    const Judged& j = strided_add();
    const std::map<std::string, std::string> not_judged{{"D", "a race decides its values"}};
    graph::ModelRun r = j.run;
    r.outputs.at("D")[(7 * 80 + 9) * 4] ^= 1;
    const Verdict wrong = j.judge_run(r, not_judged);
    EXPECT_TRUE(wrong.clean()) << wrong.text();
    ASSERT_EQ(wrong.outputs.size(), 1u);
    EXPECT_EQ(wrong.outputs[0].mode, "not compared");
    EXPECT_EQ(wrong.outputs[0].reason, "a race decides its values");
    EXPECT_EQ(wrong.not_compared, 1);
    set_float(r.outputs.at("D"), 80, 3, 17, 0x7FA5A5A5u);
    const Verdict unwritten = j.judge_run(r, not_judged);
    EXPECT_EQ(tags(unwritten), std::vector<Tag>{Tag::unwritten_output}) << unwritten.text();
    // Without it, the same wrong value is a mismatch (the control).
    r = j.run;
    r.outputs.at("D")[(7 * 80 + 9) * 4] ^= 1;
    EXPECT_EQ(tags(j.judge_run(r)), std::vector<Tag>{Tag::output_mismatch});
}

TEST(Judge, AWrongUbPeakIsUbPeakEvenWhenItIsSmaller) {
    const Judged& j = strided_add();
    graph::ModelRun r = j.run;
    r.report.stats.ub_peak -= 32;  // `peak <= prediction` would pass this
    const Verdict v = j.judge_run(r);
    EXPECT_EQ(tags(v), std::vector<Tag>{Tag::ub_peak}) << v.text();
    EXPECT_NE(v.findings[0].message.find("predicted"), std::string::npos);
}

TEST(Judge, AnExtraSetFlagIsAFlagImbalanceOfThatCoreEventAndId) {
    const Judged& j = strided_add();
    graph::ModelRun r = j.run;
    hw::TraceEntry set;
    set.core = 2;
    set.kind = hw::InstrKind::set_flag;
    set.event = hw::HardEvent::V_MTE3;
    set.event_id = 5;
    set.set_op("not parsed");
    r.trace.push_back(set);
    const Verdict v = j.judge_run(r);
    EXPECT_EQ(tags(v), std::vector<Tag>{Tag::flag_balance}) << v.text();
    // Core 2 of a mix launch is the first AIV, named as every other location of the report names it.
    EXPECT_EQ(r.report.kernel_type, hw::KernelType::mix_aic_1_2);
    EXPECT_EQ(v.findings[0].message,
              hw::core_name(r.report.kernel_type, r.report.block_dim, 2) + " V_MTE3(5): 1 sets, 0 waits");
    EXPECT_EQ(v.findings[0].message.rfind("AIV 0 (block 0, sub 0) ", 0), 0u) << v.findings[0].message;
}

TEST(Judge, AnErrorFromACheckerIsAViolationWithItsKindAndAWarningIsNot) {
    const Judged& j = strided_add();
    graph::ModelRun r = j.run;
    r.report.violations.push_back(
        {hw::ViolationKind::race, hw::Severity::error, "no WaitFlag orders it", {}, 2});
    r.report.violations.push_back(
        {hw::ViolationKind::illegal_event, hw::Severity::warning, "compiles to nothing", {}, 1});
    const Verdict v = j.judge_run(r);
    EXPECT_EQ(tags(v), std::vector<Tag>{Tag::violation}) << v.text();
    EXPECT_EQ(v.findings[0].kind, "race");
    EXPECT_EQ(v.findings[0].message, "race (x2): no WaitFlag orders it");
}

TEST(Judge, AnOutputNotReadBackIsMissingAndFindingsComeInTagOrder) {
    const Judged& j = strided_add();
    graph::ModelRun r = j.run;
    r.outputs.erase("D");
    r.report.stats.ub_peak -= 32;
    const Verdict v = j.judge_run(r);
    EXPECT_EQ(tags(v), (std::vector<Tag>{Tag::ub_peak, Tag::missing_output})) << v.text();
    EXPECT_EQ(v.first_tag(), Tag::ub_peak);
}

TEST(Judge, WithoutTheSentinelOptionNeverWrittenElementsAreJustWrongValues) {
    const Judged& j = strided_add();
    graph::ModelRun r = j.run;
    set_float(r.outputs.at("D"), 80, 0, 0, 0x7FA5A5A5u);
    JudgeOptions o;
    o.exact_data = true;
    o.sentinel = false;
    EXPECT_EQ(tags(judge(j.problem, r, j.golden, o)), std::vector<Tag>{Tag::output_mismatch});
}

TEST(CompareRuns, EqualRunsAgreeAndAFlippedByteOrAnUnwrittenElementDoesNot) {
    const Judged& j = strided_add();
    EXPECT_TRUE(compare_runs(j.problem, j.run, j.run, j.golden, true).clean());
    graph::ModelRun b = j.run;
    b.outputs.at("D")[4] ^= 0x10;
    EXPECT_EQ(tags(compare_runs(j.problem, j.run, b, j.golden, true)), std::vector<Tag>{Tag::runs_differ});
    // Both runs leave the same element unwritten: bit-equal, and still a finding.
    graph::ModelRun c = j.run;
    set_float(c.outputs.at("D"), 80, 1, 1, 0x7FA5A5A5u);
    const Verdict v = compare_runs(j.problem, c, c, j.golden, true);
    EXPECT_EQ(tags(v), (std::vector<Tag>{Tag::unwritten_output, Tag::unwritten_output})) << v.text();
    EXPECT_EQ(v.findings[0].message, "first run: D[1, 1] was never written");
}

// The one table of tags (tags.def): tag_from_name, a parser, reads back every name tag_name prints, and
// refuses a name the table does not have. (The order and the names themselves come from the table by
// construction.)
TEST(Verdict, TagsRoundTripByName) {
    for (const Tag t : kTags) {
        EXPECT_EQ(tag_from_name(tag_name(t)), t) << tag_name(t);
        EXPECT_FALSE(tag_meaning(t).empty()) << tag_name(t);
    }
    EXPECT_EQ(tag_from_name("nope"), std::nullopt);
    EXPECT_EQ(tag_from_name(""), std::nullopt);
}

}  // namespace
}  // namespace evg::verify
