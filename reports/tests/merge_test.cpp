// The conformance report read back from its JSON, and the reports of a sharded run merged: a report with
// every section, cut into shards as `evgcheck conformance --shard K/N` cuts a run, merges back into the same
// report in every format; what is not a whole set of one run's shards is refused, naming why.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "evg/reports/report.hpp"
#include "sample_results.hpp"

namespace evg::reports {
namespace {

// A report with something in every section: cases of every suite (with violations, outputs, born NaN, assumed
// rules), the controls, the upstream checkout, the property coverage and the hand-fused table.
ReportInput full_report() {
    ReportInput in;
    in.results = testing::sample_results();
    CaseResult rich = testing::make("Compute/Ascend950/float/gm/add", "node", "Compute", "float", "Ascend950",
                                    Status::fail);
    rich.message = "out0 differs at (3, 4): 1.5 against 1.25";
    rich.violations = {{"race", 2}, {"uninit_to_gm", 1}};
    rich.assumed_rules = {{"R7", 2}};
    rich.outputs = {{"out0", 3, 1}, {"out1", 0, 0}};
    rich.fp_born = {"Exp at kernel.cpp:40"};
    rich.graph_text = "graph g\n  x = input half\n";
    rich.worst_ulp = 1e6;
    rich.instructions = 123456789012ull;
    rich.tiles = 7;
    in.results.push_back(rich);
    CaseResult up = testing::make("Upstream/Ascend950/half/gm/uf+res/add", "upstream", "Compute", "half",
                                  "Ascend950", Status::pass);
    up.family = "uf+res";
    in.results.push_back(up);
    CaseResult control =
        testing::make("Hazard/AtlasA2/raw/kernel", "hazard", "Kernel", "float", "AtlasA2", Status::pass);
    control.proves = "race:RAW/cross-pipe";
    in.results.push_back(control);
    CaseResult fixed = control;
    fixed.id = "Hazard/AtlasA2/raw_fixed/kernel";
    fixed.fixed_form = true;
    in.results.push_back(fixed);
    in.controls = {{"race:RAW/cross-pipe", "AtlasA2", "a race", ""},
                   {"flag_left_set", "Ascend950", "a flag left set", "no such flag there"}};
    in.seconds = 42.5;
    in.archs = {"AtlasA2", "Ascend950"};
    in.command = "evgcheck conformance --catlass-root /c";
    in.upstream =
        UpstreamCheckout{"/c", "abc123", "1.6.0", "v1.6.0", "Catlass v1.6.0 at /c", {"a|b|c", "d|e|f"}};
    in.props = {true, "evgcheck conformance --props", 300, {{"tag one", 200}, {"tag two", 100}}};
    HandFusedRow h;
    h.example = "Seed000_32_Add";
    h.config = "AtlasA2_half_m65_n100_k40_CL256";
    h.evg_cycles = 1200;
    h.hand_cycles = 1000;
    h.evg_over_hand = 1.2;
    h.evg_over_roofline = 1.5;
    h.hand_over_roofline = 1.25;
    h.evg_epilogue = 900;
    h.hand_epilogue = 700;
    h.evg_v_busy = 500;
    h.hand_v_busy = 400;
    h.evg_v_barriers = 3;
    h.hand_v_barriers = 1;
    h.roofline_pipe = "AIV0.1 MTE2";
    in.hand_fused = std::vector<HandFusedRow>{h};
    in.ran_all = true;
    return in;
}

// `in` cut into `n` shards as the command cuts a run: shard K the cases at K-1, K-1+n, ...; the sections that
// go with shard 1 only in shard 1.
std::vector<ReportInput> cut(const ReportInput& in, int n) {
    std::vector<ReportInput> out;
    for (int k = 1; k <= n; ++k) {
        ReportInput s = in;
        s.results.clear();
        s.ran_all = false;
        s.command = in.command + " --shard " + std::to_string(k) + "/" + std::to_string(n);
        ShardInfo info{{k, n}, in.command, {}, in.results.size(), true};
        for (size_t i = 0; i < in.results.size(); ++i)
            if (info.shard.holds(i)) {
                s.results.push_back(in.results[i]);
                info.positions.push_back(i);
            }
        if (k != 1) {
            s.props = {};
            s.hand_fused.reset();
        }
        s.seconds = in.seconds - (k - 1);  // shard 1 the longest
        s.shard = info;
        out.push_back(s);
    }
    return out;
}

TEST(ReportRead, EveryFieldOfTheJsonReadsBack) {
    const ReportInput in = full_report();
    const ReportInput back = read_report_json(json(in));
    EXPECT_EQ(json(back), json(in));
    EXPECT_EQ(markdown(back), markdown(in));
    EXPECT_EQ(html(back), html(in));
    EXPECT_EQ(junit(back), junit(in));
    ReportInput shard = cut(in, 3)[1];
    EXPECT_EQ(json(read_report_json(json(shard))), json(shard));
}

TEST(ReportRead, WhatIsNotAConformanceReportIsRefusedNamingTheField) {
    const auto refusal = [](const std::string& text) {
        try {
            read_report_json(text);
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(refusal("{").find("not JSON"), std::string::npos);
    EXPECT_NE(refusal(R"({"kind": "check"})").find("not a conformance report"), std::string::npos);
    std::string text = json(full_report());
    text.replace(text.find("\"partial_reason\""), 16, "\"partial_reasom\"");
    EXPECT_NE(refusal(text).find("summary has no field 'partial_reason'"), std::string::npos)
        << refusal(text);
    text = json(full_report());
    text.replace(text.find("\"status\": \"fail\""), 16, "\"status\": \"FLAKY\"");
    EXPECT_NE(refusal(text).find("unknown status 'FLAKY'"), std::string::npos) << refusal(text);
}

TEST(ReportMerge, TheShardsOfARunMergeIntoItsReportInEveryFormat) {
    const ReportInput in = full_report();
    for (int n : {1, 2, 3, 5, 20}) {
        std::vector<ReportInput> shards = cut(in, n);
        std::reverse(shards.begin(), shards.end());  // any order
        const ReportInput merged = merge_shards(shards);
        EXPECT_EQ(json(merged), json(in)) << n << " shards";
        EXPECT_EQ(html(merged), html(in)) << n << " shards";
        EXPECT_EQ(markdown(merged), markdown(in)) << n << " shards";
        EXPECT_EQ(junit(merged), junit(in)) << n << " shards";
    }
}

TEST(ReportMerge, ARunThatSelectedPartOfTheCatalogueProvesNothingAlive) {
    ReportInput in = full_report();
    in.ran_all = false;
    std::vector<ReportInput> shards = cut(in, 2);
    for (ReportInput& s : shards) s.shard->whole_selection = false;
    EXPECT_EQ(json(merge_shards(shards)), json(in));
}

TEST(ReportMerge, AShardThatStoppedEarlyMakesThePartialReport) {
    const ReportInput in = full_report();
    std::vector<ReportInput> shards = cut(in, 3);
    shards[2].results.pop_back();
    shards[2].shard->positions.pop_back();
    shards[2].partial = "the time budget of 10 s ran out";
    shards[2].not_run = 1;
    const ReportInput merged = merge_shards(shards);
    EXPECT_EQ(merged.partial, "shard 3/3: the time budget of 10 s ran out");
    EXPECT_EQ(merged.not_run, 1u);
    EXPECT_EQ(merged.results.size(), in.results.size() - 1);
    EXPECT_FALSE(merged.ran_all);
    EXPECT_NE(summary_line(merged).find("PARTIAL"), std::string::npos);
}

std::string merge_refusal(std::vector<ReportInput> shards) {
    try {
        merge_shards(std::move(shards));
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "merged";
}

TEST(ReportMerge, WhatIsNotEveryShardOfOneRunIsRefusedNamingWhy) {
    const ReportInput in = full_report();
    const std::vector<ReportInput> three = cut(in, 3);
    EXPECT_EQ(merge_refusal({}), "merge: no shard reports to merge");
    EXPECT_NE(merge_refusal({in}).find("is not a shard's"), std::string::npos);
    EXPECT_EQ(merge_refusal({three[0], three[2]}), "merge: shard 2/3 of the run missing");
    EXPECT_EQ(merge_refusal({three[0]}), "merge: shards 2/3, 3/3 of the run missing");
    EXPECT_EQ(merge_refusal({three[0], three[1], three[1], three[2]}), "merge: shard 2/3 is given twice");
    std::vector<ReportInput> other = three;
    other[1].shard->run_command = "evgcheck conformance --filter 'Row*'";
    EXPECT_NE(merge_refusal(other).find("shards of different runs"), std::string::npos);
    EXPECT_NE(merge_refusal({three[0], three[1], cut(in, 4)[2]}).find("not shards of one run"),
              std::string::npos);
    other = three;
    other[1].shard->positions[0] = 0;  // shard 1's case
    EXPECT_NE(merge_refusal(other).find("which is not its own"), std::string::npos);
    other = three;
    other[2].results.pop_back();
    other[2].shard->positions.pop_back();
    EXPECT_NE(merge_refusal(other).find("none says it stopped early"), std::string::npos);
}

}  // namespace
}  // namespace evg::reports
