// The conformance catalogue as ctest entries: the catalogue's own rules (stable unique ids, every node kind
// and suite present, the glob filter, the planted failing case), then the whole catalogue in shards, one per
// node kind or suite, each failing on any failing case with its id, message and replay command.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <iostream>
#include <set>

#include "evg/conformance/case.hpp"
#include "evg/conformance/model_case.hpp"

using namespace evg::conformance;

namespace {

const std::vector<CaseSpec>& catalogue() {
    static const std::vector<CaseSpec> c = all_cases();
    return c;
}

}  // namespace

TEST(Catalogue, IdsAreUniqueAndNameTheirCell) {
    std::set<std::string> ids;
    for (const CaseSpec& c : catalogue()) {
        EXPECT_TRUE(ids.insert(c.id).second) << "duplicate id " << c.id;
        EXPECT_TRUE(c.arch == "AtlasA2" || c.arch == "Ascend950") << c.id;
        EXPECT_TRUE(c.path == "gm" || c.path == "ub") << c.id;
        EXPECT_NE(c.id.find(c.arch), std::string::npos) << c.id;
        EXPECT_TRUE(c.run) << c.id;
        // Readable: no number longer than six digits (a sentinel such as an unbounded computeLength).
        size_t digits = 0;
        for (char ch : c.id) {
            digits = std::isdigit(static_cast<unsigned char>(ch)) ? digits + 1 : 0;
            EXPECT_LE(digits, 6u) << "unreadable id " << c.id;
            if (digits > 6) break;
        }
    }
}

TEST(Catalogue, CoversEveryNodeKindSuiteAndBothArchsAndPaths) {
    std::map<std::string, int> kinds, suites, arch_path;
    for (const CaseSpec& c : catalogue()) {
        if (c.suite == "node") ++kinds[c.node_kind];
        ++suites[c.suite];
        ++arch_path[c.arch + "/" + c.path];
    }
    for (const char* k : {"AccLoad", "AuxLoad", "AuxStore", "Cast", "Compute", "RowBroadcast", "ColBroadcast",
                          "ScalarBroadcast", "RowReduce", "ColReduce", "ScalarReduce"})
        EXPECT_GE(kinds[k], 18) << k;
    EXPECT_EQ(kinds.size(), 11u);
    for (const char* s : {"node", "composition", "example", "negative", "hazard"})
        EXPECT_GT(suites[s], 0) << s;
    for (const char* ap : {"AtlasA2/gm", "AtlasA2/ub", "Ascend950/gm", "Ascend950/ub"})
        EXPECT_GT(arch_path[ap], 0);
}

TEST(Catalogue, GlobFilter) {
    EXPECT_TRUE(glob_match("RowBroadcast/AtlasA2/*", "RowBroadcast/AtlasA2/half/gm/tailN33/CL32"));
    EXPECT_FALSE(glob_match("RowBroadcast/AtlasA2/*", "RowBroadcast/Ascend950/half/gm/tailN33/CL32"));
    EXPECT_TRUE(glob_match("*/CL3?", "Cast/x/CL32"));
    EXPECT_FALSE(glob_match("*/CL3?", "Cast/x/CL320"));
    EXPECT_TRUE(glob_match("", "anything") == false);
    EXPECT_TRUE(glob_match("*", ""));
    // An id selects exactly its case.
    const CaseSpec& any = catalogue().at(catalogue().size() / 2);
    int n = 0;
    for (const CaseSpec& c : catalogue()) n += glob_match(any.id, c.id) ? 1 : 0;
    EXPECT_EQ(n, 1);
}

TEST(Catalogue, PlantedCaseFailsWithARace) {
    const std::vector<CaseResult> r = run_cases({planted_failing_case()}, "", {});
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].status, Status::fail);
    EXPECT_GT(r[0].violations.count("race"), 0u) << r[0].message;
    EXPECT_EQ(r[0].node_kind, "RowBroadcast");
    EXPECT_NE(r[0].replay.find(r[0].id), std::string::npos);
    EXPECT_FALSE(r[0].graph_text.empty());
}

TEST(Catalogue, ACaseReplaysAloneWithTheSameEvidence) {
    const std::string id = "RowBroadcast/AtlasA2/half/gm/tailN33/CL32";
    const std::vector<CaseResult> a = run_cases(catalogue(), id, {});
    const std::vector<CaseResult> b = run_cases(catalogue(), id, {});
    ASSERT_EQ(a.size(), 1u);
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(a[0].status, Status::pass) << a[0].message;
    EXPECT_EQ(a[0].instructions, b[0].instructions);
    EXPECT_EQ(a[0].ub_peak, b[0].ub_peak);
    EXPECT_EQ(a[0].ub_peak, a[0].ub_predicted);
    EXPECT_GT(a[0].tiles, 0u);
    EXPECT_FALSE(a[0].events_used.empty());
}

// The stand-alone kernel hazards: upstream's per-token dequant without PipeBarrier<PIPE_V> is caught on
// AtlasA2 with the missing barrier named in the message; on Ascend950, and in its fixed form, it runs clean.
TEST(Catalogue, KernelHazardsNameTheMissingBarrierAndTheFixRunsClean) {
    const std::vector<CaseResult> r = run_cases(catalogue(), "Hazard/*/dequant_per_token*", {});
    ASSERT_EQ(r.size(), 3u);
    std::map<std::string, const CaseResult*> by_id;
    for (const CaseResult& c : r) by_id[c.id] = &c;
    const CaseResult* bug = by_id.at("Hazard/AtlasA2/dequant_per_token_missing_barrier/kernel/M24N64T4");
    EXPECT_EQ(bug->status, Status::pass) << bug->message;
    EXPECT_EQ(bug->expected, "race");
    EXPECT_GT(bug->violations.at("race"), 0u);
    EXPECT_NE(bug->message.find("no PipeBarrier<PIPE_V> orders V write"), std::string::npos) << bug->message;
    for (const char* id : {"Hazard/Ascend950/dequant_per_token_missing_barrier/kernel/M24N64T4",
                           "Hazard/AtlasA2/dequant_per_token/kernel/M24N64T4"}) {
        const CaseResult* c = by_id.at(id);
        EXPECT_EQ(c->status, Status::pass) << id << ": " << c->message;
        EXPECT_EQ(c->expected, "clean");
        EXPECT_TRUE(c->violations.empty()) << id;
        EXPECT_FALSE(c->events_used.empty()) << id;
    }
}

// The sync kernel hazards (ascendc/samples/sync_hazards.hpp): each fault fires its checker, each fixed form
// runs clean, and the ids the hardware truncates are reported with the id it uses and cause no race or
// deadlock.
TEST(Catalogue, SyncKernelHazardsFireAndTheirFixesRunClean) {
    const std::vector<CaseResult> r = run_cases(catalogue(), "Hazard/*/kernel/sample", {});
    ASSERT_EQ(r.size(), 20u);
    std::map<std::string, const CaseResult*> by_id;
    for (const CaseResult& c : r) {
        by_id[c.id] = &c;
        EXPECT_EQ(c.status, Status::pass) << c.id << ": " << c.message;
        if (c.expected == "clean") {
            EXPECT_TRUE(c.violations.empty()) << c.id;
        } else {
            EXPECT_FALSE(c.violations.empty() && c.message.find("wrong-value") == std::string::npos) << c.id;
        }
    }
    const CaseResult* ids = by_id.at("Hazard/AtlasA2/event_id_above_7/kernel/sample");
    EXPECT_NE(ids->message.find("this is event id 1"), std::string::npos) << ids->message;
    const CaseResult* flags = by_id.at("Hazard/Ascend950/mode4_aiv_flag_above_15/kernel/sample");
    EXPECT_NE(flags->message.find("this is flag 1"), std::string::npos) << flags->message;
    for (const CaseResult* c : {ids, flags}) {
        EXPECT_EQ(c->violations.count("race"), 0u) << c->id;
        EXPECT_EQ(c->violations.count("deadlock"), 0u) << c->id;
    }
    EXPECT_GT(by_id.at("Hazard/AtlasA2/reverse_depth_16/kernel/sample")->violations.at("counter_overflow"),
              0u);
    EXPECT_GT(by_id.at("Hazard/AtlasA2/fix_m_wait_dropped/kernel/sample")->violations.at("race"), 0u);
}

// judge_hazard's "clean": it fires only when the Verdict has no finding.
TEST(Catalogue, JudgeHazardCleanFiresOnlyWhenNothingElseDoes) {
    Measurement quiet;
    EXPECT_EQ(judge_hazard(quiet, "clean").status, Status::pass);
    EXPECT_EQ(judge_hazard(quiet, "race").status, Status::fail);
    Measurement raced;
    raced.verdict.add(evg::verify::Tag::violation, "race: no PipeBarrier<PIPE_V> orders V write #3");
    raced.verdict.findings.back().kind = "race";
    const CaseResult caught = judge_hazard(raced, "race");
    EXPECT_EQ(caught.status, Status::pass);
    EXPECT_NE(caught.message.find("no PipeBarrier<PIPE_V> orders V write #3"), std::string::npos)
        << caught.message;
    EXPECT_EQ(judge_hazard(raced, "clean").status, Status::fail);
    Measurement wrong;
    wrong.verdict.add(evg::verify::Tag::output_mismatch, "D[0][0] differs");
    EXPECT_EQ(judge_hazard(wrong, "clean").status, Status::fail);
    EXPECT_EQ(judge_hazard(wrong, "wrong-value").status, Status::pass);
    // A never-written element is its own finding, and "clean" does not fire on it either.
    Measurement unwritten;
    unwritten.verdict.add(evg::verify::Tag::unwritten_output, "D[3, 17..31] was never written", "D");
    EXPECT_EQ(judge_hazard(unwritten, "clean").status, Status::fail);
    EXPECT_EQ(judge_hazard(unwritten, "unwritten-output").status, Status::pass);
    EXPECT_EQ(judge_hazard(unwritten, "wrong-value").status, Status::fail);
}

class Shard : public ::testing::TestWithParam<const char*> {};

TEST_P(Shard, EveryCasePasses) {
    const auto t0 = std::chrono::steady_clock::now();
    int pass = 0, na = 0;
    std::string failures;
    const std::vector<CaseResult> results = run_cases(catalogue(), GetParam(), [&](const CaseResult& r) {
        if (r.status == Status::pass) ++pass;
        if (r.status == Status::not_applicable) ++na;
        if (r.suite == "hazard")
            std::cout << fmt::format("{}: expected {}; {}\n", r.id, r.expected, r.message);
        if (r.status == Status::fail)
            failures += fmt::format("FAIL {}\n  {}\n  replay: {}\n", r.id, r.message, r.replay);
    });
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << fmt::format("{}: {} cases, {} pass, {} not applicable, {} fail, {:.1f} s\n", GetParam(),
                             results.size(), pass, na, results.size() - pass - na, secs);
    EXPECT_GT(results.size(), 0u);
    EXPECT_TRUE(failures.empty()) << failures;
}

INSTANTIATE_TEST_SUITE_P(Conformance, Shard,
                         ::testing::Values("AccLoad/*", "AuxLoad/*", "AuxStore/*", "Cast/*", "Compute/*",
                                           "RowBroadcast/*", "ColBroadcast/*", "ScalarBroadcast/*",
                                           "RowReduce/*", "ColReduce/*", "ScalarReduce/*", "Composition/*",
                                           "Example/*", "Negative/*", "Hazard/*"),
                         [](const auto& info) {
                             std::string s = info.param;
                             return s.substr(0, s.find('/'));
                         });
