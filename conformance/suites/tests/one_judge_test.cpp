// One problem through all three entry points gives one verdict: `evgcheck run`'s logic (evgcheck_core's
// run_problem), the conformance catalogue's measure + judge_conforming, and the property suite's properties
// 1-3 (props::model_matches_oracle_and_is_clean through props::failure_of). Each must report the same finding
// tags, because each asks lib/verify's judge. The cases include the two rules an entry point could most
// easily get wrong on its own:
//   * an order-dependent float Add reduction on special data is compared under the summation bound, not with
//     the oracle's one summation order;
//   * the UB peak must equal the exact prediction, not merely stay under UbAccounting's end; every case here
//     checks it three times (lib/verify/tests, Judge.AWrongUbPeakIsUbPeakEvenWhenItIsSmaller, plants a
//     smaller peak).
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "catlass/epilogue/fusion/upstream_hazards.hpp"
#include "evg/conformance/model_case.hpp"
#include "evg/graph/text.hpp"
#include "evg/props/model_property.hpp"
#include "evg/props/runner.hpp"
#include "load.hpp"
#include "run_problem.hpp"

namespace evg {
namespace {

struct ThreeVerdicts {
    std::vector<std::string> run_tags, conformance_tags;
    std::string property_tag;  // "" when the property passed
    std::string run_text, conformance_text, property_text;
};

// The distinct tags in the order they first appear in "[tag] ..." lines.
std::vector<std::string> tags_in(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.starts_with("[") || line.find("] ") == std::string::npos) continue;
        const std::string tag = line.substr(1, line.find("] ") - 1);
        if (verify::tag_from_name(tag) && std::find(out.begin(), out.end(), tag) == out.end())
            out.push_back(tag);
    }
    return out;
}

ThreeVerdicts through_all_three(const std::string& text, verify::DataMode mode, uint64_t seed,
                                const std::vector<std::string>& hazards = {}) {
    ThreeVerdicts v;
    // 1. evgcheck run FILE
    evgcheck::RunSettings settings;
    settings.seed = seed;
    settings.mode = mode;
    settings.cores = 2;
    settings.hazards = hazards;
    std::ostringstream warnings;
    const evgcheck::RunOutcome run =
        evgcheck::run_problem(evgcheck::make_source("one_judge.evg", text), {}, settings, warnings);
    v.run_text = run.text;
    for (const auto& f : run.json.at("findings")) {
        const std::string tag = f.at("tag").get<std::string>();
        if (std::find(v.run_tags.begin(), v.run_tags.end(), tag) == v.run_tags.end())
            v.run_tags.push_back(tag);
    }
    EXPECT_EQ(run.ok, v.run_tags.empty()) << run.text;
    // The last line is the result: PASS, or PASS with the outputs' NaN / infinity counts, exactly when ok.
    const std::string last = run.text.substr(run.text.rfind('\n', run.text.size() - 2) + 1);
    EXPECT_EQ(last.starts_with("result: PASS"), run.ok) << run.text;
    EXPECT_EQ(tags_in(run.text), v.run_tags) << run.text;  // every finding printed with its tag

    Catlass::Epilogue::Fusion::UpstreamHazards switches{};
    for (const std::string& h : hazards)
        EXPECT_TRUE(Catlass::Epilogue::Fusion::set_upstream_hazard(switches, h));

    // 2. the conformance catalogue's measure + judge_conforming
    conformance::ModelCase mc;
    mc.problem = graph::parse_problem(text);
    mc.data = mode;
    mc.data_seed = seed;
    mc.cores = 2;
    mc.hazards = switches;
    conformance::CaseSpec spec;
    spec.id = "OneJudge";
    const conformance::Measurement m = conformance::measure(spec, mc);
    const conformance::CaseResult r = conformance::judge_conforming(m);
    v.conformance_text = r.message;
    v.conformance_tags = tags_in(r.message);
    EXPECT_EQ(r.status == conformance::Status::pass, v.conformance_tags.empty()) << r.message;

    // 3. the property suite's properties 1-3 on the same case
    props::Case pc;
    pc.problem = mc.problem;
    pc.data = mode;
    pc.data_seed = seed;
    pc.cores = 2;
    pc.sched_seed = 0;
    const Catlass::Epilogue::Fusion::ScopedUpstreamHazards on(switches);
    if (const auto failure = props::failure_of(props::model_matches_oracle_and_is_clean, pc)) {
        v.property_tag = failure->tag;
        v.property_text = failure->message;
    }
    return v;
}

void expect_one_verdict(const ThreeVerdicts& v, const std::vector<std::string>& want) {
    EXPECT_EQ(v.run_tags, want) << v.run_text;
    EXPECT_EQ(v.conformance_tags, want) << v.conformance_text;
    EXPECT_EQ(v.property_tag, want.empty() ? "" : want.front()) << v.property_text;
}

TEST(OneJudge, ACleanProblemPassesEverywhere) {
    const ThreeVerdicts v = through_all_three(
        "problem arch=AtlasA2 m=40 n=72 k=32 a=half b=half c=float cl=256 path=gm tile=32x64x64\n"
        "input  X : float[40, 72]\n"
        "output D : float[40, 72] stride=80\n"
        "%0 = AccLoad float\n"
        "%1 = AuxLoad float X\n"
        "%2 = Compute Add float (%0, %1)\n"
        "%3 = AuxStore float D (%2)\n",
        verify::DataMode::Exact, 4);
    expect_one_verdict(v, {});
}

// Upstream's missing barrier after RowBroadcast races on AtlasA2: a violation for all three.
TEST(OneJudge, APlantedHazardIsTheSameViolationEverywhere) {
    const ThreeVerdicts v = through_all_three(
        "problem arch=AtlasA2 m=64 n=200 k=32 a=half b=half c=float cl=2048\n"
        "input  bias : float[1, 200]\n"
        "output D    : float[64, 200]\n"
        "%0 = AccLoad float\n"
        "%1 = RowBroadcast float bias\n"
        "%2 = Compute Add float (%0, %1)\n"
        "%3 = AuxStore float D (%2)\n",
        verify::DataMode::Exact, 1, {"row_broadcast_no_barrier"});
    ASSERT_FALSE(v.run_tags.empty()) << v.run_text;
    EXPECT_EQ(v.run_tags.front(), "violation");
    EXPECT_EQ(v.run_tags, v.conformance_tags) << v.conformance_text;
    EXPECT_EQ(v.property_tag, "violation") << v.property_text;
}

// A float Add reduction over special data: the tiles' partial sums meet through GM atomics in any order, so
// only the summation bound holds, in every entry point.
TEST(OneJudge, AnOrderDependentFloatReductionIsJudgedByTheSummationBoundEverywhere) {
    const std::string text =
        "problem arch=AtlasA2 m=100 n=72 k=32 a=half b=half c=float cl=256 path=gm tile=32x64x64\n"
        "input  X : float[100, 72]\n"
        "output S : float[1, 72]\n"
        "%0 = AccLoad float\n"
        "%1 = AuxLoad float X\n"
        "%2 = Compute Mul float (%0, %1)\n"
        "%3 = RowReduce Add float S (%2)\n";
    for (uint64_t seed : {1, 2, 3}) {
        const ThreeVerdicts v = through_all_three(text, verify::DataMode::Special, seed);
        expect_one_verdict(v, {});
        EXPECT_NE(v.run_text.find("S: equal (an Add reduction of inexact data"), std::string::npos)
            << v.run_text;
    }
}

}  // namespace
}  // namespace evg
