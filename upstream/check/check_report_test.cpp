// The report of `evgcheck check --catlass-root` on hand-made graph records: JSON read back as written, JUnit
// with a testcase per graph, and the shards of a run merged into the run's report, ending as the unsharded
// run ends; what is not every shard of one run is refused, naming why.
#include "check_report.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <stdexcept>

#include "coverage.hpp"

namespace evg::upstream::check {
namespace {

// The reachable cells of the coverage table, for graphs to fall in.
std::vector<std::string> reachable_keys() {
    std::vector<std::string> keys;
    for (const corpus::Cell& c : corpus::all_cells())
        if (c.unreachable.empty()) keys.push_back(corpus::cell_key(c));
    return keys;
}

// A passed run of `graphs` graphs, each in a few cells, some with a known finding excused.
CheckReport passed_run(int graphs) {
    const std::vector<std::string> keys = reachable_keys();
    CheckReport r;
    r.command = r.run_command = "evgcheck check --catlass-root /c --graphs 7 --seed 5";
    r.root = "/c";
    r.catlass = "Catlass master at /c";
    r.seed = 5;
    r.graphs = r.drawn = graphs;
    r.cases = 30;
    for (int i = 0; i < graphs; ++i) {
        CheckGraph g;
        g.number = i;
        g.summary = "graph " + std::to_string(i) + " of a few nodes";
        for (size_t k = static_cast<size_t>(i); k < keys.size(); k += 5) g.cells.push_back(keys[k]);
        g.pass = true;
        g.cases = 30;
        if (i % 3 == 0) {
            g.excused_cases = 10 + i;
            g.excused["[drawn, stores-a-load] race A <-> B"] = 10 + i;
            g.not_compared = "; values not compared: out0 in 3 of them";
        }
        g.seconds = 1.5 + i;
        r.numbers.push_back(i);
        r.results.push_back(g);
    }
    r.seconds = 100;
    return r;
}

std::vector<CheckReport> cut(const CheckReport& run, int n) {
    std::vector<CheckReport> out;
    for (int k = 1; k <= n; ++k) {
        CheckReport s = run;
        s.shard = Shard{k, n};
        s.command = run.command + " --shard " + s.shard->text();
        s.numbers.clear();
        s.results.clear();
        for (const CheckGraph& g : run.results)
            if (s.shard->holds(static_cast<size_t>(g.number))) {
                s.numbers.push_back(g.number);
                s.results.push_back(g);
            }
        s.seconds = run.seconds - (k - 1);
        out.push_back(s);
    }
    return out;
}

TEST(CheckReport, TheJsonReadsBackAsWritten) {
    CheckReport r = passed_run(7);
    EXPECT_EQ(check_report_json(read_check_report_json(check_report_json(r))), check_report_json(r));
    r = cut(r, 3)[1];
    r.results.back().pass = false;
    r.results.back().failure = "FAILED graph 4 (x)\nfailure [wrong]: out0 differs\n";
    r.stopped = "graph 4 failed (a run stops at its first failure)";
    EXPECT_EQ(check_report_json(read_check_report_json(check_report_json(r))), check_report_json(r));
    const auto refusal = [](const std::string& text) {
        try {
            read_check_report_json(text);
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(refusal(R"({"kind": "conformance"})").find("not a check report"), std::string::npos);
    std::string text = check_report_json(passed_run(2));
    text.replace(text.find("\"excused_cases\""), 15, "\"excused_casez\"");
    EXPECT_NE(refusal(text).find("graph 0 has no field 'excused_cases'"), std::string::npos) << refusal(text);
}

TEST(CheckReport, JunitHasATestcasePerGraphAndSaysWhichFailedAndWhichDidNotRun) {
    CheckReport r = passed_run(4);
    r.results[2].pass = false;
    r.results[2].failure = "FAILED graph 2 (g)\nfailure [wrong]: out0 <differs> & more\n";
    r.results.pop_back();  // graph 3 did not run: the run stopped at graph 2
    r.stopped = "graph 2 failed (a run stops at its first failure)";
    const std::string x = check_report_junit(r);
    EXPECT_NE(x.find("tests=\"4\" failures=\"1\" errors=\"0\" skipped=\"1\""), std::string::npos) << x;
    EXPECT_NE(x.find("<failure message=\"FAILED graph 2 (g)\" type=\"check\">"), std::string::npos) << x;
    EXPECT_NE(x.find("out0 &lt;differs&gt; &amp; more"), std::string::npos) << x;
    EXPECT_NE(x.find("name=\"graph 3\" time=\"0\">\n      <skipped message=\"not run: graph 2 failed"),
              std::string::npos)
        << x;
    EXPECT_EQ(std::count(x.begin(), x.end(), '<') - std::count(x.begin(), x.end(), '>'), 0);
    EXPECT_EQ(check_report_exit_code(r), 1);
}

TEST(CheckReport, ExitCodeIsTheUnshardedRunsOne) {
    CheckReport r = passed_run(3);
    EXPECT_EQ(check_report_exit_code(r), 0);
    r.results.pop_back();
    r.stopped = "the time budget ran out";
    EXPECT_EQ(check_report_exit_code(r), 3);
    r.results.clear();
    r.stopped = "the checkout does not compile the graphs' instances";
    EXPECT_EQ(check_report_exit_code(r), 1);
}

TEST(CheckReport, TheShardsOfARunMergeIntoItsReportAndEndAsItEnds) {
    const CheckReport run = passed_run(7);
    const std::string ending = check_report_ending(run);
    // The ending counts the excused cases over their graphs (graphs 0, 3 and 6: 10 + 13 + 16 cases).
    EXPECT_NE(ending.find("    39 cases in 3 graphs: [drawn, stores-a-load] race A <-> B"), std::string::npos)
        << ending;
    EXPECT_NE(ending.find("evgcheck check: 7 graphs x 30 runtime cases passed on /c in 100.0 s"),
              std::string::npos)
        << ending;
    for (int n : {1, 2, 3, 7, 10}) {
        std::vector<CheckReport> shards = cut(run, n);
        std::reverse(shards.begin(), shards.end());
        const CheckReport merged = merge_check_shards(shards);
        EXPECT_EQ(check_report_json(merged), check_report_json(run)) << n << " shards";
        EXPECT_EQ(check_report_junit(merged), check_report_junit(run)) << n << " shards";
        EXPECT_EQ(check_report_ending(merged), ending) << n << " shards";
    }
    // A shard's own ending counts its share.
    EXPECT_NE(check_report_ending(cut(run, 3)[0]).find("evgcheck check (shard 1/3): 3 graphs x 30"),
              std::string::npos);
}

TEST(CheckReport, AShardsFailureIsTheMergedRunsFailure) {
    std::vector<CheckReport> shards = cut(passed_run(7), 3);
    shards[1].results[0].pass = false;  // graph 1
    shards[1].results[0].failure = "FAILED graph 1\n";
    shards[1].results.resize(1);
    shards[1].stopped = "graph 1 failed (a run stops at its first failure)";
    const CheckReport merged = merge_check_shards(shards);
    EXPECT_EQ(check_report_exit_code(merged), 1);
    EXPECT_EQ(merged.stopped, "shard 2/3: graph 1 failed (a run stops at its first failure)");
    EXPECT_EQ(merged.numbers.size(), 7u);
    EXPECT_EQ(merged.results.size(), 6u);
}

std::string merge_refusal(std::vector<CheckReport> shards) {
    try {
        merge_check_shards(std::move(shards));
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "merged";
}

TEST(CheckReport, WhatIsNotEveryShardOfOneRunIsRefusedNamingWhy) {
    const CheckReport run = passed_run(7);
    const std::vector<CheckReport> three = cut(run, 3);
    EXPECT_NE(merge_refusal({run}).find("is not a shard's"), std::string::npos);
    EXPECT_EQ(merge_refusal({three[1], three[2]}), "merge: shard 1/3 of the run missing");
    EXPECT_EQ(merge_refusal({three[0], three[0], three[1], three[2]}), "merge: shard 1/3 is given twice");
    std::vector<CheckReport> other = three;
    other[2].run_command += " --cases 5";
    EXPECT_NE(merge_refusal(other).find("shards of different runs"), std::string::npos);
    other = three;
    other[2].catlass = "Catlass v1.6.0 at /c";
    EXPECT_NE(merge_refusal(other).find("not shards of one run"), std::string::npos);
    EXPECT_NE(merge_refusal({three[0], three[1], cut(run, 4)[2]}).find("not shards of one run"),
              std::string::npos);
    other = three;
    other[1].numbers.push_back(0);
    EXPECT_EQ(merge_refusal(other), "merge: shard 2/3 holds graph 0, which is not its own");
    other = three;
    other[1].numbers.erase(other[1].numbers.begin());
    other[1].results.erase(other[1].results.begin());
    EXPECT_EQ(merge_refusal(other), "merge: no shard holds graph 1 of the run's 7");
}

}  // namespace
}  // namespace evg::upstream::check
