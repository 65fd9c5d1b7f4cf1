// The writers on a hand-made result list: the matrix, and a planted failing case visible as failing in every
// format (HTML, Markdown, JSON, JUnit).
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "evg/hw/rules.hpp"
#include "evg/reports/report.hpp"
#include "sample_results.hpp"

namespace evg::reports {
namespace {

ReportInput sample_input() {
    ReportInput in;
    in.results = testing::sample_results();
    in.seconds = 12.4;
    in.archs = {"AtlasA2", "Ascend950"};
    return in;
}

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + what.size())) ++n;
    return n;
}

TEST(ReportMatrix, CellsAggregateTheirCases) {
    const Matrix m = build_matrix(testing::sample_results());
    EXPECT_EQ(m.node_kinds, (std::vector<std::string>{"RowBroadcast", "Compute", "Cast"}));
    EXPECT_EQ(m.archs, (std::vector<std::string>{"AtlasA2", "Ascend950"}));
    EXPECT_EQ(m.dtypes, (std::vector<std::string>{"half", "bfloat16", "float"}));
    const Cell* rb = m.find("RowBroadcast", "half", "AtlasA2");
    ASSERT_NE(rb, nullptr);
    EXPECT_EQ(rb->pass, 2);
    EXPECT_EQ(rb->fail, 0);
    EXPECT_EQ(rb->status(), Status::pass);
    EXPECT_EQ(rb->worst_ulp, 2);
    EXPECT_EQ(rb->ub_peak, 49152u);
    EXPECT_EQ(rb->instr_per_tile, 30);
    EXPECT_EQ(rb->events_used, (std::vector<std::string>{"MTE2_V", "MTE3_V", "V_MTE2"}));
    EXPECT_EQ(m.find("Compute", "bfloat16", "AtlasA2")->status(), Status::not_applicable);
    EXPECT_EQ(m.find("Compute", "float", "AtlasA2")->status(), Status::fail);
    EXPECT_EQ(m.find("Cast", "half", "Ascend950")->pass, 1);  // "half->int8" counts under its source type
    EXPECT_EQ(m.find("Negative", "float", "AtlasA2"), nullptr);
    EXPECT_EQ(m.find("Hazard", "half", "AtlasA2"), nullptr);
}

// NaN and infinite output elements reach every format: per case in the JSON, summed per cell in the cell
// details of the Markdown and the page.
TEST(ReportOutputs, NanAndInfinityCountsAppearInEveryFormat) {
    ReportInput in = sample_input();
    in.results[0].outputs = {{"D", 7, 2}, {"E", 0, 0}};
    in.results[1].outputs = {{"D", 5, 1}};
    const auto matrix = build_matrix(in.results);  // the cell points into it: keep it alive
    const Cell* c = matrix.find("RowBroadcast", "half", "AtlasA2");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->nan, 12u);
    EXPECT_EQ(c->inf, 3u);
    const nlohmann::json j = nlohmann::json::parse(json(in));
    bool found = false;
    for (const auto& r : j.at("cases"))
        if (r.at("id") == in.results[0].id) {
            found = true;
            ASSERT_EQ(r.at("outputs").size(), 2u);
            EXPECT_EQ(r.at("outputs")[0].at("tensor"), "D");
            EXPECT_EQ(r.at("outputs")[0].at("nan"), 7);
            EXPECT_EQ(r.at("outputs")[0].at("inf"), 2);
        }
    EXPECT_TRUE(found) << j.dump(2);
    const std::string md = markdown(in);
    EXPECT_NE(md.find("| NaN / inf outputs |"), std::string::npos) << md;
    EXPECT_NE(md.find("| 12 / 3 |"), std::string::npos) << md;
    const std::string page = html(in);
    EXPECT_NE(page.find("<th>NaN / inf outputs</th>"), std::string::npos);
    EXPECT_NE(page.find("<td>12 / 3</td>"), std::string::npos);
}

// The model's rules: every format lists them with their sources (docs/hardware-model.md §17) and counts the
// run's findings that rest on an assumed one, per rule and per case.
TEST(ReportOutputs, RulesAndFindingsOnAssumedRulesAreListedInEveryFormat) {
    ReportInput in = sample_input();
    EXPECT_NE(markdown(in).find("0 finding(s) of this run rest on an assumed rule"), std::string::npos);
    in.results[0].assumed_rules = {{"R7", 2}};
    in.results[1].assumed_rules = {{"R7", 1}, {"R12", 4}};
    const std::string md = markdown(in);
    EXPECT_NE(md.find("7 finding(s) of this run rest on an assumed rule"), std::string::npos) << md;
    EXPECT_NE(md.find("## Rules of the model"), std::string::npos) << md;
    EXPECT_NE(md.find("| R7 | assumed | the hardware reads bits [2:0] of an event id"), std::string::npos)
        << md;
    EXPECT_NE(md.find(" | 3 |\n"), std::string::npos) << "R7's count\n" << md;
    const std::string page = html(in);
    EXPECT_NE(page.find("<h2>Rules of the model</h2>"), std::string::npos);
    EXPECT_NE(page.find("7 finding(s) of this run rest on an assumed rule"), std::string::npos);
    const nlohmann::json j = nlohmann::json::parse(json(in));
    size_t rules = 0;
    for (const auto& r : j.at("rules").at("rules")) {
        ++rules;
        if (r.at("id") == "R7") {
            EXPECT_EQ(r.at("findings"), 3);
        }
        if (r.at("id") == "R12") {
            EXPECT_EQ(r.at("findings"), 4);
        }
        if (r.at("status") != "assumed") {
            EXPECT_FALSE(r.contains("findings")) << r.dump();
        }
        EXPECT_FALSE(r.at("source").get<std::string>().empty()) << r.dump();
    }
    EXPECT_EQ(rules, evg::hw::all_rules().size());
    for (const auto& c : j.at("cases"))
        if (c.at("id") == in.results[1].id) {
            EXPECT_EQ(c.at("assumed_rules").at("R12"), 4);
        }
}

// Where NaN and infinities were born (the checker fp): the summary by op heads the Markdown and HTML reports
// as it heads `evgcheck conformance`'s output, and report.json lists each case's birthplaces.
TEST(ReportOutputs, BornNanAndInfinityAreSummarisedInEveryFormat) {
    ReportInput in = sample_input();
    EXPECT_EQ(markdown(in).find("born from finite values"), std::string::npos);  // none born: no line
    in.results[0].fp_born = {"Exp at my_epilogue.cpp:54", "Div at my_epilogue.cpp:60"};
    in.results[1].fp_born = {"Exp at my_epilogue.cpp:54"};
    const std::string line = fp_born_summary(in);
    EXPECT_NE(line.find("in 2 case(s)"), std::string::npos) << line;
    EXPECT_NE(line.find("by op: Exp 2, Div 1"), std::string::npos) << line;
    EXPECT_NE(markdown(in).find(line), std::string::npos);
    EXPECT_NE(html(in).find("<p class=\"meta\">" + line + "</p>"), std::string::npos);
    const nlohmann::json j = nlohmann::json::parse(json(in));
    bool found = false;
    for (const auto& r : j.at("cases"))
        if (r.at("id") == in.results[0].id) found = r.at("fp_born").size() == 2;
    EXPECT_TRUE(found);
}

TEST(ReportMatrix, TextMatrix) {
    EXPECT_EQ(
        text_matrix(build_matrix(testing::sample_results())),
        "node kind     AtlasA2/half  AtlasA2/bfloat16  AtlasA2/float  Ascend950/half  Ascend950/bfloat16  "
        "Ascend950/float\n"
        "RowBroadcast  pass 2        -                 -              -               -                   -\n"
        "Compute       -             n/a 1             FAIL 1/1       -               -                   -\n"
        "Cast          -             -                 -              pass 1          -                   "
        "-\n");
}

TEST(ReportMatrix, TextMatrixWithoutMatrixCases) {
    EXPECT_EQ(text_matrix(build_matrix({})), "(no case in the matrix suites)\n");
}

TEST(ReportSummary, LineCountsEveryStatus) {
    EXPECT_EQ(summary_line(sample_input()), "conformance: 5 passed, 1 failed, 1 not applicable in 12 s");
}

TEST(ReportHelpers, Formats) {
    EXPECT_EQ(format_bytes(512), "512 B");
    EXPECT_EQ(format_bytes(49152), "48.0 KiB");
    EXPECT_EQ(format_ulp(0), "0");
    EXPECT_EQ(format_ulp(3), "3");
    EXPECT_EQ(format_ulp(0.5), "0.5");
    EXPECT_EQ(violations_text({}), "none");
    EXPECT_EQ(violations_text({{"race", 2}, {"uninit_to_gm", 0}, {"deadlock", 1}}), "deadlock x1, race x2");
    EXPECT_EQ(matrix_dtype("half->int8/CAST_RINT"), "half");
}

TEST(ReportJson, PlantedFailureIsFailing) {
    const nlohmann::json j = nlohmann::json::parse(json(sample_input()));
    EXPECT_EQ(j["summary"]["passed"], 5);
    EXPECT_EQ(j["summary"]["failed"], 1);
    EXPECT_EQ(j["summary"]["not_applicable"], 1);
    ASSERT_EQ(j["failing"].size(), 1u);
    EXPECT_EQ(j["failing"][0]["id"], "Planted/AtlasA2/float/alwaysFails");
    EXPECT_EQ(j["failing"][0]["replay"],
              "build/release/tools/evgcheck conformance --filter 'Planted/AtlasA2/float/alwaysFails'");
    bool found = false;
    for (const auto& c : j["matrix"]["cells"])
        if (c["node_kind"] == "Compute" && c["dtype"] == "float") {
            EXPECT_EQ(c["status"], "fail");
            EXPECT_EQ(c["fail"], 1);
            EXPECT_EQ(c["worst_ulp"], 7.0);
            found = true;
        }
    EXPECT_TRUE(found);
    EXPECT_EQ(j["negative"].size(), 1u);
    EXPECT_EQ(j["hazards"].size(), 1u);
    EXPECT_EQ(j["hazards"][0]["violations"]["race"], 1);
    EXPECT_EQ(j["cases"].size(), 7u);
    EXPECT_FALSE(j["props_coverage"]["run"]);
}

TEST(ReportJunit, PlantedFailureHasAFailureElement) {
    const std::string x = junit(sample_input());
    EXPECT_NE(x.find("<testsuites name=\"evgcheck conformance\" tests=\"7\" failures=\"1\" errors=\"0\" "
                     "skipped=\"1\""),
              std::string::npos)
        << x;
    EXPECT_EQ(count(x, "<testsuite "), 3u);  // node, negative, hazard
    EXPECT_EQ(count(x, "<testcase "), 7u);
    EXPECT_EQ(count(x, "<failure "), 1u);
    EXPECT_EQ(count(x, "<skipped "), 1u);
    const std::regex failing(
        R"re(<testcase classname="conformance\.node\.Compute" name="Planted/AtlasA2/float/alwaysFails" time="0\.250">\s*<failure message="planted: output 3 differs from the oracle by 7 ULP &lt;&amp;&gt;")re");
    EXPECT_TRUE(std::regex_search(x, failing)) << x;
    EXPECT_NE(x.find("<testsuite name=\"node\" tests=\"5\" failures=\"1\" errors=\"0\" skipped=\"1\""),
              std::string::npos);
    EXPECT_NE(x.find("replay: build/release/tools/evgcheck conformance --filter &apos;Planted/AtlasA2/float/"
                     "alwaysFails&apos;"),
              std::string::npos);
    EXPECT_EQ(x.find("<&>"), std::string::npos);  // escaped
}

TEST(ReportMarkdown, PlantedFailureIsListedAndItsCellFails) {
    const std::string md = markdown(sample_input());
    EXPECT_NE(md.find("## Failing cases (1)"), std::string::npos) << md;
    EXPECT_NE(
        md.find("| `Planted/AtlasA2/float/alwaysFails` | planted: output 3 differs from the oracle by 7 ULP "
                "&lt;&amp;&gt; | race x2 | `build/release/tools/evgcheck conformance --filter "
                "'Planted/AtlasA2/float/alwaysFails'` |"),
        std::string::npos)
        << md;
    // Matrix row Compute: AtlasA2 half, bfloat16, float, then Ascend950 half, bfloat16, float.
    EXPECT_NE(md.find("| Compute |  | n/a (1) | **FAIL** 1/1 |  |  |  |"), std::string::npos) << md;
    EXPECT_NE(md.find("| RowBroadcast | PASS 2/2 |"), std::string::npos) << md;
    EXPECT_NE(md.find("| Compute | AtlasA2 | float | **FAIL** | 0 | 1 | 0 | 7 |"), std::string::npos) << md;
    EXPECT_NE(md.find("| `Negative/cycle` | AtlasA2 | pass | the graph has a cycle |"), std::string::npos);
    EXPECT_NE(md.find("| `Hazard/row_broadcast_no_barrier/AtlasA2` | AtlasA2 | pass | race | race x1 |"),
              std::string::npos);
    EXPECT_NE(md.find("Property suite: not run"), std::string::npos);
    EXPECT_NE(md.find("conformance: 5 passed, 1 failed, 1 not applicable in 12 s\n"), std::string::npos);
    EXPECT_EQ(md.find("<&>"), std::string::npos) << "a raw '<' would be read as an HTML tag";
}

TEST(ReportMarkdown, CellsEscapeTagsAndCodeCellsStayLiteral) {
    EXPECT_EQ(markdown_cell("no WaitFlag<MTE2_V>(0) | x & y\nnext"),
              "no WaitFlag&lt;MTE2_V&gt;(0) \\| x &amp; y<br>next");
    EXPECT_EQ(markdown_code_cell("run --filter 'A<B>|C'"), "run --filter 'A<B>\\|C'");
}

TEST(ReportHtml, PlantedFailureIsFailingAndThePageIsSelfContained) {
    const std::string h = html(sample_input());
    EXPECT_EQ(h.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_NE(h.find("<div class=\"summary bad\"><b>FAILED</b>"), std::string::npos);
    EXPECT_NE(h.find("<h2>Failing cases (1)</h2>"), std::string::npos);
    EXPECT_NE(h.find("<td><code>Planted/AtlasA2/float/alwaysFails</code></td>"), std::string::npos) << h;
    EXPECT_NE(h.find("planted: output 3 differs from the oracle by 7 ULP &lt;&amp;&gt;"), std::string::npos);
    // The message, graph and replay span the table (colspan 3); the replay has its copy button.
    EXPECT_NE(h.find("<tr><td class=\"full\" colspan=\"3\"><div class=\"msg\">planted: output 3 differs"),
              std::string::npos)
        << h;
    EXPECT_NE(h.find("<div class=\"replay\"><code class=\"cmd\">build/release/tools/evgcheck conformance "
                     "--filter 'Planted/AtlasA2/float/alwaysFails'</code><button class=\"copy\""),
              std::string::npos);
    EXPECT_NE(
        h.find("<td class=\"fail\" title=\"Compute / AtlasA2 / float\"><div class=\"st\">FAIL <span "
               "class=\"n\">1/1</span></div><div class=\"m\">7 ulp &middot; 0 i/t<br>UB 0 B</div></td>"),
        std::string::npos)
        << h;
    EXPECT_NE(
        h.find(
            "<td class=\"pass\" title=\"RowBroadcast / AtlasA2 / half\"><div class=\"st\">PASS <span "
            "class=\"n\">2/2</span></div><div class=\"m\">2 ulp &middot; 30 i/t<br>UB 48.0 KiB</div></td>"),
        std::string::npos);
    EXPECT_NE(h.find("Property suite: <b>not run</b>"), std::string::npos);
    // Self-contained: one inline script (the copy buttons), nothing loaded from anywhere.
    const std::size_t script = h.find("<script>");
    ASSERT_NE(script, std::string::npos);
    EXPECT_EQ(h.find("<script", script + 1), std::string::npos);
    EXPECT_EQ(h.find("src="), std::string::npos);
    EXPECT_EQ(h.find("http://"), std::string::npos);
    EXPECT_EQ(h.find("https://"), std::string::npos);
    EXPECT_EQ(h.find("<link"), std::string::npos);
}

TEST(ReportHtml, AllPassedBanner) {
    ReportInput in = sample_input();
    std::erase_if(in.results, [](const CaseResult& r) { return r.status == Status::fail; });
    const std::string h = html(in);
    EXPECT_NE(h.find("<div class=\"summary ok\"><b>ALL PASSED</b>"), std::string::npos);
    EXPECT_NE(h.find("<h2>Failing cases (0)</h2>\n<p>None.</p>"), std::string::npos);
}

TEST(ReportProps, ParsesTheCoverageTableOfAPropRun) {
    const std::string log =
        "[ RUN      ] Props.ModelMatchesOracleAndCheckersAreClean\n"
        "OK, passed 2000 tests\n"
        "coverage over 2000 cases:\n"
        "  arch:AtlasA2                    1010   50.5%\n"
        "  kind:Compute                    1700   85.0%\n"
        "[       OK ] Props.ModelMatchesOracleAndCheckersAreClean (9000 ms)\n";
    const PropsCoverage p = parse_props_coverage(log, "test log");
    EXPECT_TRUE(p.run);
    EXPECT_EQ(p.cases, 2000);
    ASSERT_EQ(p.tags.size(), 2u);
    EXPECT_EQ(p.tags[0], (std::pair<std::string, int>{"arch:AtlasA2", 1010}));
    EXPECT_EQ(p.tags[1], (std::pair<std::string, int>{"kind:Compute", 1700}));
    EXPECT_FALSE(parse_props_coverage("nothing here\n", "x").run);

    ReportInput in = sample_input();
    in.props = p;
    EXPECT_NE(markdown(in).find("| kind:Compute | 1700 | 85.0% |"), std::string::npos);
    EXPECT_NE(html(in).find("<tr><td>kind:Compute</td><td>1700</td><td>85.0%</td>"), std::string::npos);
    EXPECT_EQ(nlohmann::json::parse(json(in))["props_coverage"]["tags"][1]["cases"], 1700);
}

TEST(ReportFiles, WriteAllWritesTheFourFormats) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "evg_reports_test_out";
    std::filesystem::remove_all(dir);
    const auto paths = write_all(sample_input(), dir);
    ASSERT_EQ(paths.size(), 4u);
    for (const char* name : {"report.html", "report.md", "report.json", "junit.xml"}) {
        std::ifstream f(dir / name);
        std::stringstream s;
        s << f.rdbuf();
        EXPECT_NE(s.str().find("Planted/AtlasA2/float/alwaysFails"), std::string::npos) << name;
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace evg::reports

namespace evg::reports {
namespace {

HandFusedRow hand_fused_row(std::string example, std::string config, uint64_t evg, uint64_t hand,
                            double evg_over_roofline, std::string problem) {
    HandFusedRow r;
    r.example = std::move(example);
    r.config = std::move(config);
    r.evg_cycles = evg;
    r.hand_cycles = hand;
    r.evg_over_hand = static_cast<double>(evg) / static_cast<double>(hand);
    r.evg_over_roofline = evg_over_roofline;
    r.ok = problem.empty();
    r.problem = std::move(problem);
    return r;
}

// The hand-fused section in every format: each row with its ratios, a failing row marked, the summary's range
// over the rows that passed.
TEST(ReportHandFused, EveryFormatHasTheRowsAndMarksAFailure) {
    ReportInput in = sample_input();
    EXPECT_EQ(markdown(in).find("hand-fused"), std::string::npos);  // not run: no section
    in.hand_fused = std::vector<HandFusedRow>{
        hand_fused_row("Seed000_32_Add", "AtlasA2_half_m65_n100_k40_CL256", 1615, 1589, 1.79, ""),
        hand_fused_row("Seed003_Silu", "Ascend950_float_m65_n100_k40_CLmax", 5364, 1627, 1.31, ""),
        hand_fused_row("Seed003_Bias", "AtlasA2_float_m65_n1_k40_CL256", 700, 700, 2.0, "output D differs"),
    };
    EXPECT_EQ(hand_fused_summary(*in.hand_fused),
              "3 cases, 1 FAILED, EVG / hand-fused 1.02x to 3.30x (median 3.30x)");
    const std::string md = markdown(in);
    EXPECT_NE(
        md.find("| Seed003_Silu | Ascend950_float_m65_n100_k40_CLmax | 5364 | 1627 | 3.30 | 1.31 | pass |"),
        std::string::npos)
        << md;
    EXPECT_NE(md.find("**FAIL**: output D differs"), std::string::npos);
    const std::string page = html(in);
    EXPECT_NE(page.find("<h2>EVG against hand-fused epilogues (cycle model)</h2>"), std::string::npos);
    EXPECT_NE(page.find("<td>5364</td><td>1627</td><td>3.30</td>"), std::string::npos);
    const nlohmann::json j = nlohmann::json::parse(json(in));
    ASSERT_EQ(j["hand_fused"].size(), 3u);
    EXPECT_EQ(j["hand_fused"][1]["evg_cycles"], 5364);
    EXPECT_EQ(j["hand_fused"][2]["ok"], false);
}

// hand-fused-report.md: each test process adds its rows; earlier rows stay, a re-run replaces its row, the
// detail columns are the row's, a failing case says FAIL.
TEST(ReportHandFused, TheReportFileMergesTheRowsOfEachProcess) {
    HandFusedRow add =
        hand_fused_row("Seed000_32_Add", "AtlasA2_half_m65_n100_k40_CL256", 1615, 1589, 1.79, "");
    add.hand_over_roofline = 1.5;
    add.evg_epilogue = 900;
    add.hand_epilogue = 800;
    add.evg_v_busy = 300;
    add.hand_v_busy = 200;
    add.evg_v_barriers = 12;
    add.hand_v_barriers = 0;
    add.roofline_pipe = "AIV0.0 MTE2";
    const std::vector<HandFusedRow> first = {
        add, hand_fused_row("Seed003_Silu", "Ascend950_float_m65_n100_k40_CLmax", 5364, 1627, 1.31, "")};
    const std::string once = merge_hand_fused_report("", first);
    EXPECT_EQ(once.rfind("# Seed examples: EVG against hand-fused epilogues (cycle model)\n", 0), 0u);
    EXPECT_NE(once.find("| Seed000_32_Add | AtlasA2_half_m65_n100_k40_CL256 | 1615 | 1589 | 1.016 | 1.790 | "
                        "1.500 | 900 | 800 | 300 / 200 | 12 / 0 | AIV0.0 MTE2 | pass |"),
              std::string::npos)
        << once;
    const std::vector<HandFusedRow> second = {
        hand_fused_row("Seed003_Silu", "Ascend950_float_m65_n100_k40_CLmax", 5364, 1627, 1.31,
                       "hand differs"),
        hand_fused_row("QuantMatmul_12", "AtlasA2_int8_m65_n128_k64_CL256", 800, 700, 1.1, "")};
    const std::string twice = merge_hand_fused_report(once, second);
    const size_t q = twice.find("| QuantMatmul_12 |"), a = twice.find("| Seed000_32_Add |"),
                 s = twice.find("| Seed003_Silu |");
    ASSERT_NE(q, std::string::npos);
    ASSERT_NE(a, std::string::npos);
    ASSERT_NE(s, std::string::npos);
    EXPECT_LT(q, a);  // sorted by example and configuration
    EXPECT_LT(a, s);
    EXPECT_EQ(twice.find("| Seed003_Silu |", s + 1), std::string::npos);  // one row per case
    EXPECT_NE(twice.find("| FAIL |", s), std::string::npos);              // the re-run's row
    EXPECT_EQ(merge_hand_fused_report(twice, second), twice);
}

}  // namespace
}  // namespace evg::reports

namespace evg::reports {
namespace {

// Three findings on two chips: race:RAW/cross-pipe proven on AtlasA2 (fault and fix pass) and failed on
// Ascend950 (its fault row failed: the checker did not fire); flag_left_set with no row on AtlasA2 and not
// applicable on Ascend950.
ReportInput controls_input(bool ran_all) {
    ReportInput in;
    in.archs = {"AtlasA2", "Ascend950"};
    in.ran_all = ran_all;
    in.controls = {{"race:RAW/cross-pipe", "AtlasA2", "a race", ""},
                   {"race:RAW/cross-pipe", "Ascend950", "a race", ""},
                   {"flag_left_set", "AtlasA2", "a flag left set", ""},
                   {"flag_left_set", "Ascend950", "a flag left set", "no such flag there"}};
    const auto row = [](const char* id, const char* arch, bool fixed, Status st) {
        CaseResult r = testing::make(id, "hazard", "Kernel", "float", arch, st);
        r.proves = "race:RAW/cross-pipe";
        r.fixed_form = fixed;
        return r;
    };
    in.results = {row("Hazard/AtlasA2/raw/kernel/sample", "AtlasA2", false, Status::pass),
                  row("Hazard/AtlasA2/raw_fixed/kernel/sample", "AtlasA2", true, Status::pass),
                  row("Hazard/Ascend950/raw/kernel/sample", "Ascend950", false, Status::fail),
                  row("Hazard/Ascend950/raw_fixed/kernel/sample", "Ascend950", true, Status::pass)};
    return in;
}

TEST(ReportAlive, AFindingIsProvenOnlyByAPassingFaultRowAndPassingFixes) {
    const std::vector<AliveCell> cells = proven_alive(controls_input(true));
    ASSERT_EQ(cells.size(), 4u);
    EXPECT_EQ(cells[0].state, Alive::proven);
    EXPECT_EQ(cells[0].proved_by, std::vector<std::string>{"Hazard/AtlasA2/raw/kernel/sample"});
    EXPECT_EQ(cells[0].fixed, std::vector<std::string>{"Hazard/AtlasA2/raw_fixed/kernel/sample"});
    EXPECT_EQ(cells[1].state, Alive::not_proven);
    EXPECT_EQ(cells[1].failed, std::vector<std::string>{"Hazard/Ascend950/raw/kernel/sample"});
    EXPECT_EQ(cells[2].state, Alive::not_proven);  // the whole catalogue ran and no row proves it
    EXPECT_EQ(cells[3].state, Alive::not_applicable);
    EXPECT_EQ(alive_summary(cells),
              "checkers proven alive: 1 of 3 findings x chips, 1 not applicable; NOT PROVEN: "
              "race:RAW/cross-pipe on Ascend950, flag_left_set on AtlasA2");
    // A filtered run only did not run what it left out.
    EXPECT_EQ(proven_alive(controls_input(false))[2].state, Alive::not_run);
    // A fixed form that fails unproves its finding even when the fault fired.
    ReportInput in = controls_input(true);
    in.results[1].status = Status::fail;
    EXPECT_EQ(proven_alive(in)[0].state, Alive::not_proven);
    // A fixed form alone proves nothing.
    in = controls_input(true);
    in.results.erase(in.results.begin());
    EXPECT_EQ(proven_alive(in)[0].state, Alive::not_proven);
}

TEST(ReportAlive, EveryFormatHasTheSectionAndAnUnprovenFindingFailsThePage) {
    const ReportInput in = controls_input(true);
    const std::string md = markdown(in);
    EXPECT_NE(md.find("## Checkers proven alive"), std::string::npos);
    EXPECT_NE(
        md.find("| race:RAW/cross-pipe | a race | proven by `Hazard/AtlasA2/raw/kernel/sample`; fix clean | "
                "**NOT PROVEN**: failed `Hazard/Ascend950/raw/kernel/sample` |"),
        std::string::npos)
        << md;
    EXPECT_NE(
        md.find("| flag_left_set | a flag left set | **NOT PROVEN**: no control row ran for it | n/a: no "
                "such flag there |"),
        std::string::npos)
        << md;
    const std::string h = html(in);
    EXPECT_NE(h.find("<h2>Checkers proven alive</h2>"), std::string::npos);
    EXPECT_NE(h.find("<div class=\"summary bad\"><b>FAILED</b>"), std::string::npos);  // no case failed
    EXPECT_NE(h.find("<td class=\"fail\"><strong>NOT PROVEN</strong>: failed "
                     "<code>Hazard/Ascend950/raw/kernel/sample</code></td>"),
              std::string::npos);
    const nlohmann::json j = nlohmann::json::parse(json(in));
    const nlohmann::json& cells = j.at("checkers_proven_alive").at("cells");
    ASSERT_EQ(cells.size(), 4u);
    EXPECT_EQ(cells[0].at("state"), "proven");
    EXPECT_EQ(cells[1].at("state"), "NOT PROVEN");
    EXPECT_EQ(cells[3].at("not_applicable"), "no such flag there");
    EXPECT_EQ(j.at("cases")[0].at("proves"), "race:RAW/cross-pipe");
}

}  // namespace
}  // namespace evg::reports

namespace evg::reports {
namespace {

CaseResult side_case(const std::string& suite, const std::string& kind, const std::string& dtype, Status s,
                     const std::string& message = "") {
    CaseResult r;
    r.id =
        suite + "/" + kind + "/" + dtype + "/" + std::to_string(static_cast<int>(s)) + message.substr(0, 3);
    r.suite = suite;
    r.node_kind = kind;
    r.dtype = dtype;
    r.arch = "Ascend950";
    r.path = "gm";
    r.status = s;
    r.message = message;
    return r;
}

// The side-by-side section: evgcheck's node cases beside upstream's, per node kind x dtype on Ascend950; a
// cell the checkout lacks says "not in this Catlass", one it has but the filter left out "not run", a failure
// shows on its side only, a case that passed with the store-of-a-load race set aside is counted; upstream
// cases stay out of the main matrix; without a checkout there is no section.
TEST(ReportSideBySide, EachSideIsCountedAndMissingCellsAreNamed) {
    ReportInput in;
    in.results = {
        side_case("node", "RowBroadcast", "float", Status::pass),
        side_case("node", "RowBroadcast", "float", Status::pass),
        side_case("upstream", "RowBroadcast", "float", Status::pass,
                  "1 race(s) set aside: upstream's store-of-a-load race, docs/upstream-findings.md §4"),
        side_case("node", "ColBroadcast", "float", Status::pass),
        side_case("node", "Compute", "half", Status::pass),
        side_case("upstream", "Compute", "half", Status::fail, "wrong value"),
        side_case("upstream", "Compute", "half", Status::pass),
        side_case("node", "Cast", "float", Status::pass),
    };
    EXPECT_EQ(side_by_side_text(in), "");
    EXPECT_EQ(side_by_side_markdown(in), "");
    in.upstream = UpstreamCheckout{"/src/catlass", "", "", "", "", {}};
    for (const char* cell : {"RowBroadcast", "Compute", "Cast"})
        in.upstream->cells.insert(
            Matrix::key(cell, std::string(cell) == "Compute" ? "half" : "float", "Ascend950"));
    const SideBySide s = build_side_by_side(in);
    EXPECT_EQ(s.node_kinds, (std::vector<std::string>{"RowBroadcast", "ColBroadcast", "Compute", "Cast"}));
    EXPECT_EQ(side_text(*s.find("RowBroadcast", "float"), false), "pass 2");
    EXPECT_EQ(side_text(*s.find("RowBroadcast", "float"), true), "pass 1 (§4 1)");
    EXPECT_EQ(side_text(*s.find("ColBroadcast", "float"), true), "not in this Catlass");
    EXPECT_EQ(side_text(*s.find("Compute", "half"), false), "pass 1");
    EXPECT_EQ(side_text(*s.find("Compute", "half"), true), "FAIL 1/2");
    EXPECT_EQ(side_text(*s.find("Cast", "float"), true), "not run");
    EXPECT_EQ(s.find("Cast", "half"), nullptr);
    const std::string text = side_by_side_text(in);
    EXPECT_NE(text.find("upstream Catlass: /src/catlass (not a git checkout)\n"), std::string::npos) << text;
    EXPECT_NE(side_by_side_markdown(in).find("| ColBroadcast |"), std::string::npos);
    EXPECT_NE(side_by_side_html(in).find("not in this Catlass"), std::string::npos);
    const Matrix m = build_matrix(in.results);
    EXPECT_EQ(m.find("Compute", "half", "Ascend950")->fail, 0);  // upstream's failure is not evgcheck's
    const nlohmann::json j = nlohmann::json::parse(json(in));
    EXPECT_EQ(j["upstream"]["root"], "/src/catlass");
    EXPECT_EQ(j["upstream"]["side_by_side"].size(), 4u);
    // The checkout's one-line description (acl::CatlassCheckout::describe) replaces the plain line
    // everywhere.
    in.upstream->description = "/src/catlass (git commit 0123456789ab; version 1.6.2 from version.info; x)";
    in.upstream->version = "1.6.2";
    in.upstream->tested_version = "v1.6.0";
    EXPECT_NE(side_by_side_text(in).find("upstream Catlass: " + in.upstream->description + "\n"),
              std::string::npos);
    EXPECT_NE(side_by_side_markdown(in).find("Checkout: `" + in.upstream->description + "`"),
              std::string::npos);
    EXPECT_NE(side_by_side_html(in).find("version 1.6.2 from version.info"), std::string::npos);
    const nlohmann::json k = nlohmann::json::parse(json(in));
    EXPECT_EQ(k["upstream"]["description"], in.upstream->description);
    EXPECT_EQ(k["upstream"]["version"], "1.6.2");
    EXPECT_EQ(k["upstream"]["tested_version"], "v1.6.0");
}

}  // namespace
}  // namespace evg::reports
