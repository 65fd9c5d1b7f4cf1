// The conformance catalogue as ctest entries: the catalogue's own rules (stable unique ids, every node kind
// and suite present, the glob filter, the planted failing case), then the whole catalogue in shards, one per
// node kind or suite, each failing on any failing case with its id, message and replay command.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <iostream>
#include <set>

#include "ascendc/samples/sync_hazards.hpp"
#include "evg/conformance/case.hpp"
#include "evg/conformance/model_case.hpp"
#include "evg/hw/report.hpp"
#include "evg/verify/verdict.hpp"

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

// The sync kernel hazards (ascendc/samples/sync_hazards.hpp), among the checker controls: each fault fires
// its checker, each fixed form runs clean, and the ids the hardware truncates are reported with the id it
// uses and cause no race or deadlock.
TEST(Catalogue, SyncKernelHazardsFireAndTheirFixesRunClean) {
    std::vector<CaseSpec> samples;
    for (const CaseSpec& c : catalogue())
        for (const char* k : AscendC::samples::kSyncHazardKernels)
            if (c.id.find(std::string("/") + k + "/") != std::string::npos ||
                c.id.find(std::string("/") + k + "_fixed/") != std::string::npos)
                samples.push_back(c);
    const std::vector<CaseResult> r = run_cases(samples, "", {});
    ASSERT_EQ(r.size(), 24u);  // 7 kernels, on the chips each applies to, faulty and fixed
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

// The controls' requirements come from the two tables of findings: every violation kind (a race once per
// direction and place) and every judge tag, on each chip; each applicable one has a fault row and a fixed
// form in the catalogue (checker controls), or a fault row (judge controls, whose row judges the clean run
// first), and a finding no kernel can give on a chip says why.
TEST(Catalogue, EveryFindingOfBothTablesHasAControlOnEachChip) {
    const std::vector<ControlRequirement> req = required_controls();
    std::set<std::string> findings;
    for (const ControlRequirement& q : req) findings.insert(q.finding + " " + q.arch);
    for (const char* arch : {"AtlasA2", "Ascend950"}) {
        for (const evg::hw::ViolationKind k : evg::hw::kViolationKinds) {
            if (k != evg::hw::ViolationKind::race) {
                EXPECT_EQ(findings.count(control_finding(k) + " " + arch), 1u) << control_finding(k);
                continue;
            }
            for (const RaceShape s : kRaceShapes)
                EXPECT_EQ(findings.count(control_finding(k, s) + " " + arch), 1u) << control_finding(k, s);
        }
        int judge = 0;
        for (const std::string& f : findings) judge += f.starts_with("judge:") && f.ends_with(arch) ? 1 : 0;
        EXPECT_GE(judge, static_cast<int>(std::size(evg::verify::kTags)));
    }
    int not_applicable = 0;
    for (const ControlRequirement& q : req) {
        EXPECT_FALSE(q.meaning.empty()) << q.finding;
        if (!q.not_applicable.empty()) {
            ++not_applicable;
            continue;
        }
        int fault = 0, fixed = 0;
        for (const CaseSpec& c : catalogue())
            if (c.proves == q.finding && c.arch == q.arch) ++(c.fixed_form ? fixed : fault);
        EXPECT_GE(fault, 1) << q.finding << " on " << q.arch << " has no fault row";
        if (!q.finding.starts_with("judge:")) {
            EXPECT_GE(fixed, 1) << q.finding << " on " << q.arch << " has no fixed form";
        }
    }
    // WAR on one pipe of Ascend950; portable V order on AtlasA2 (the race checker's); the host-side
    // uninit_to_host on both chips.
    EXPECT_EQ(not_applicable, 4);
}

// Every control row passes: each fault gives exactly its finding (a race with its direction and place), each
// fixed form runs clean, each judge control finds the clean run clean and the wrong one wrong.
TEST(Catalogue, EveryControlFiresExactlyItsFindingAndEveryFixRunsClean) {
    std::vector<CaseSpec> controls;
    for (const CaseSpec& c : catalogue())
        if (!c.proves.empty()) controls.push_back(c);
    const std::vector<CaseResult> r = run_cases(controls, "", {}, {}, 2);
    std::map<std::string, int> proven;  // finding + arch -> passing fault rows
    for (const CaseResult& c : r) {
        EXPECT_EQ(c.status, Status::pass) << c.id << ": " << c.message;
        if (c.status == Status::pass && !c.fixed_form) ++proven[c.proves + " " + c.arch];
        if (c.fixed_form) {
            EXPECT_EQ(c.expected, "clean") << c.id;
        }
    }
    for (const ControlRequirement& q : required_controls()) {
        if (q.not_applicable.empty()) {
            EXPECT_GE(proven[q.finding + " " + q.arch], 1) << q.finding << " " << q.arch;
        }
    }
    // A race row names its direction and place, from the violation's two locations.
    const auto it = std::find_if(r.begin(), r.end(), [](const CaseResult& c) {
        return c.id == "Hazard/AtlasA2/race_raw_mte2_v/kernel/sample";
    });
    ASSERT_NE(it, r.end());
    EXPECT_EQ(it->expected, "race:RAW/cross-pipe");
    EXPECT_NE(it->message.find("no WaitFlag<MTE2_V> orders MTE2 write"), std::string::npos) << it->message;
}

// judge_exactly: the expected findings and nothing else; "clean" only when nothing fires.
TEST(Catalogue, JudgeExactlyFailsOnAMissingOrAnExtraFinding) {
    Measurement m;
    m.verdict.add(evg::verify::Tag::violation, "flag_left_set: SetFlag<MTE2_V>(1) is still set");
    m.verdict.findings.back().kind = "flag_left_set";
    m.verdict.add(evg::verify::Tag::flag_balance, "AIV 0 MTE2_V(1): 1 sets, 0 waits");
    const std::vector<std::string> what = fired(m.verdict);
    EXPECT_EQ(judge_exactly(m, what, "flag_left_set+flag-balance").status, Status::pass);
    EXPECT_EQ(judge_exactly(m, what, "flag-balance+flag_left_set").status, Status::pass);
    EXPECT_EQ(judge_exactly(m, what, "flag_left_set").status, Status::fail);
    EXPECT_EQ(judge_exactly(m, what, "flag_left_set+flag-balance+deadlock").status, Status::fail);
    EXPECT_EQ(judge_exactly(m, what, "clean").status, Status::fail);
    EXPECT_EQ(judge_exactly(Measurement{}, {"clean"}, "clean").status, Status::pass);
    EXPECT_EQ(judge_exactly(Measurement{}, {"clean"}, "race").status, Status::fail);
}

// The shape of a race: its direction by issue order and whether its accesses share a pipe or a core.
TEST(Catalogue, RaceShapeComesFromTheTwoLocations) {
    const auto race = [](int c1, const char* p1, const char* a1, int c2, const char* p2, const char* a2) {
        evg::hw::Violation v{evg::hw::ViolationKind::race, evg::hw::Severity::error, "", {}, 1};
        v.locations.resize(2);
        v.locations[0].core = c1;
        v.locations[0].pipe = p1;
        v.locations[0].access = a1;
        v.locations[1].core = c2;
        v.locations[1].pipe = p2;
        v.locations[1].access = a2;
        return race_shape_of(v);
    };
    EXPECT_EQ(race(0, "MTE2", "write", 0, "V", "read"), RaceShape::raw_cross_pipe);
    EXPECT_EQ(race(0, "V", "read", 0, "V", "write"), RaceShape::war_same_pipe);
    EXPECT_EQ(race(1, "MTE3", "write", 2, "MTE3", "write"), RaceShape::waw_cross_core);
    EXPECT_EQ(race(1, "MTE2", "read", 2, "MTE3", "write"), RaceShape::war_cross_core);
    EXPECT_EQ(std::string(race_shape_name(RaceShape::raw_same_pipe)), "RAW/same-pipe");
    EXPECT_EQ(control_finding(evg::hw::ViolationKind::race, RaceShape::waw_cross_pipe),
              "race:WAW/cross-pipe");
    EXPECT_EQ(control_finding(evg::hw::ViolationKind::flag_left_set), "flag_left_set");
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
                                           "StaticComposition/*", "Example/*", "Negative/*", "Hazard/*"),
                         [](const auto& info) {
                             std::string s = info.param;
                             return s.substr(0, s.find('/'));
                         });
