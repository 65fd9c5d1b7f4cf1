// The SYNC mutation table's writers on a hand-made table: counts per row and in total, the failing verdicts
// marked, the JSON read back to the same table, bad JSON rejected with the field named, and the section in
// the conformance report.
#include "evg/reports/sync_table.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "evg/reports/report.hpp"

using namespace evg::reports;

namespace {

SyncTableData sample() {
    SyncTableData t;
    t.command = "evgcheck sync-table --graphs 2";
    t.seed = 7;
    t.graphs = 2;
    t.subjects = 3;
    t.archs = {"AtlasA2", "Ascend950"};
    t.adversarial = 3;
    add_to_table(t, "drop-wait", "BlockEpilogue", SyncVerdict::caught, {"race"});
    add_to_table(t, "drop-wait", "BlockEpilogue", SyncVerdict::caught, {"deadlock", "race"});
    add_to_table(t, "insert-barrier", "RowBroadcast", SyncVerdict::harmless, {});
    add_to_table(t, "drop-set", "BlockEpilogue", SyncVerdict::missed, {});
    t.findings.push_back({SyncVerdict::missed, "random#1 AtlasA2 gm", "BlockEpilogue",
                          "drop-set core=AIV0.0 n=3", "explorer: race; checkers: none"});
    t.kind_differences["drop-wait / BlockEpilogue: checkers deadlock,race / explorer race"] = 1;
    return t;
}

}  // namespace

TEST(SyncTable, RowsAreCountedPerOperatorAndNodeKindSortedWithTotals) {
    const SyncTableData t = sample();
    ASSERT_EQ(t.rows.size(), 3u);
    EXPECT_EQ(t.rows[0].op, "drop-set");
    EXPECT_EQ(t.rows[1].op, "drop-wait");
    EXPECT_EQ(t.rows[1].points, 2u);
    EXPECT_EQ(t.rows[1].count(SyncVerdict::caught), 2u);
    EXPECT_EQ(t.rows[1].caught_by.at("race"), 2u);
    EXPECT_EQ(t.rows[1].caught_by.at("deadlock"), 1u);
    const SyncTableRow s = table_totals(t);
    EXPECT_EQ(s.points, 4u);
    EXPECT_EQ(s.count(SyncVerdict::harmless), 1u);
    EXPECT_EQ(s.count(SyncVerdict::missed), 1u);
    EXPECT_TRUE(sync_table_fails(t));
}

TEST(SyncTable, OnlyMissedFalseAlarmAndDivergentFail) {
    SyncTableData t;
    add_to_table(t, "drop-wait", "Kernel", SyncVerdict::output_only, {});
    add_to_table(t, "drop-wait", "Kernel", SyncVerdict::unapplied, {});
    add_to_table(t, "drop-wait", "Kernel", SyncVerdict::undecided, {});
    EXPECT_FALSE(sync_table_fails(t));
    add_to_table(t, "dup-set", "Kernel", SyncVerdict::false_alarm, {});
    EXPECT_TRUE(sync_table_fails(t));
    SyncTableData d;
    add_to_table(d, "move-wait", "Kernel", SyncVerdict::divergent, {});
    EXPECT_TRUE(sync_table_fails(d));
}

TEST(SyncTable, MarkdownShowsRowsTotalsAndTheFindingToRead) {
    const std::string md = sync_table_markdown(sample());
    EXPECT_NE(md.find("# Sync mutation table"), std::string::npos);
    EXPECT_NE(md.find("| drop-wait | BlockEpilogue | 2 | 2 | deadlock 1, race 2 |"), std::string::npos) << md;
    EXPECT_NE(md.find("| drop-set | BlockEpilogue | 1 | 0 | - | 0 | 0 | 0 | **1** |"), std::string::npos)
        << md;
    EXPECT_NE(md.find("| **total** |  | 4 | 2 |"), std::string::npos) << md;
    EXPECT_NE(md.find("`drop-set core=AIV0.0 n=3`"), std::string::npos) << md;
    EXPECT_NE(md.find("| drop-wait / BlockEpilogue: checkers deadlock,race / explorer race | 1 |"),
              std::string::npos)
        << md;
    EXPECT_NE(sync_table_summary(sample()).find("4 points over 3 runs: 2 caught"), std::string::npos);
}

// An explorer that gave up is its own column in every format, counted in the summary, and read back; a table
// written before the column existed reads as having none.
TEST(SyncTable, UndecidedIsCountedApartInEveryFormat) {
    SyncTableData t = sample();
    add_to_table(t, "drop-wait", "BlockEpilogue", SyncVerdict::undecided, {});
    EXPECT_NE(sync_table_summary(t).find(", 1 undecided, "), std::string::npos) << sync_table_summary(t);
    EXPECT_NE(sync_table_text(t).find("undec"), std::string::npos);
    EXPECT_NE(sync_table_markdown(t).find("| divergent | undecided | unapplied |"), std::string::npos);
    EXPECT_NE(sync_table_html(t).find("<th>undecided</th>"), std::string::npos);
    const SyncTableData back = parse_sync_table_json(sync_table_json(t));
    EXPECT_EQ(table_totals(back).count(SyncVerdict::undecided), 1u);
    const std::string old_json =
        std::regex_replace(sync_table_json(sample()), std::regex(R"(,\s*"undecided": 0)"), "");
    ASSERT_EQ(old_json.find("undecided\":"), std::string::npos) << old_json;
    EXPECT_EQ(table_totals(parse_sync_table_json(old_json)).count(SyncVerdict::undecided), 0u);
}

// A race-free reordering shown by the outputs is an agreement: its own column in every format, counted in the
// summary, not a failure and not a mutation to read; read back, and none in a table written before it.
TEST(SyncTable, ReorderedIsAnAgreementCountedApartInEveryFormat) {
    SyncTableData t;
    add_to_table(t, "wait-event+set-event", "Kernel", SyncVerdict::reordered, {});
    EXPECT_FALSE(sync_table_fails(t));
    EXPECT_NE(sync_table_summary(t).find("0 caught, 1 reordered, 0 output-only"), std::string::npos)
        << sync_table_summary(t);
    EXPECT_NE(sync_table_text(t).find("reord"), std::string::npos);
    EXPECT_NE(sync_table_markdown(t).find("| caught | caught by | reordered | output-only |"),
              std::string::npos)
        << sync_table_markdown(t);
    EXPECT_NE(sync_table_markdown(t).find("| wait-event+set-event | Kernel | 1 | 0 | - | 1 | 0 |"),
              std::string::npos)
        << sync_table_markdown(t);
    EXPECT_NE(sync_table_html(t).find("<th>reordered</th>"), std::string::npos);
    EXPECT_EQ(table_totals(parse_sync_table_json(sync_table_json(t))).count(SyncVerdict::reordered), 1u);
    const std::string old_json =
        std::regex_replace(sync_table_json(sample()), std::regex(R"(,\s*"reordered": 0)"), "");
    ASSERT_EQ(old_json.find("reordered\":"), std::string::npos) << old_json;
    EXPECT_EQ(table_totals(parse_sync_table_json(old_json)).count(SyncVerdict::reordered), 0u);
}

TEST(SyncTable, JsonReadsBackToTheSameTable) {
    const SyncTableData t = sample();
    const SyncTableData back = parse_sync_table_json(sync_table_json(t));
    EXPECT_EQ(sync_table_json(back), sync_table_json(t));
    EXPECT_EQ(back.rows.size(), 3u);
    EXPECT_EQ(back.findings.at(0).mutation, "drop-set core=AIV0.0 n=3");
    EXPECT_EQ(back.findings.at(0).verdict, SyncVerdict::missed);
    EXPECT_EQ(back.kind_differences, t.kind_differences);
}

TEST(SyncTable, MergeAddsShardsUpAndRefusesTablesOfDifferentRuns) {
    SyncTableData a = sample(), b = sample();
    b.archs = {"Ascend950"};
    b.seconds = 2;
    a.seconds = 1;
    b.complete = false;
    add_to_table(b, "move-set", "Kernel", SyncVerdict::caught, {"race"});
    const SyncTableData m = merge_sync_tables({a, b});
    EXPECT_EQ(m.subjects, 6);
    EXPECT_EQ(m.archs, (std::vector<std::string>{"AtlasA2", "Ascend950"}));
    EXPECT_DOUBLE_EQ(m.seconds, 3);
    EXPECT_EQ(m.parts, 2);
    EXPECT_NE(sync_table_summary(m).find(" in 3 s (the sum of 2 merged runs)"), std::string::npos)
        << sync_table_summary(m);
    EXPECT_EQ(parse_sync_table_json(sync_table_json(m)).parts, 2);
    EXPECT_EQ(merge_sync_tables({m, a}).parts, 3);
    EXPECT_FALSE(m.complete);
    ASSERT_EQ(m.rows.size(), 4u);
    EXPECT_EQ(m.rows[1].op, "drop-wait");
    EXPECT_EQ(m.rows[1].points, 4u);
    EXPECT_EQ(m.rows[1].caught_by.at("race"), 4u);
    EXPECT_EQ(m.rows[3].op, "move-set");  // a row only one part has, in its sorted place
    EXPECT_EQ(table_totals(m).points, 9u);
    EXPECT_EQ(m.findings.size(), 2u);
    EXPECT_EQ(m.kind_differences.begin()->second, 2u);
    EXPECT_EQ(m.command, a.command + "; " + b.command);
    SyncTableData other_seed = sample();
    other_seed.seed = 8;
    try {
        merge_sync_tables({a, other_seed});
        FAIL() << "merged tables of two seeds";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("table 2 has seed 8, table 1 has 7"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(merge_sync_tables({}), std::runtime_error);
}

TEST(SyncTable, BadJsonIsRejectedNamingTheField) {
    try {
        parse_sync_table_json(R"({"command": "x"})");
        FAIL() << "accepted a table without seed";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("'seed'"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parse_sync_table_json("not json"), std::runtime_error);
    std::string j = sync_table_json(sample());
    const std::string verdict = "\"verdict\": \"missed\"";
    ASSERT_NE(j.find(verdict), std::string::npos);
    j.replace(j.find(verdict), verdict.size(), "\"verdict\": \"lost\"");
    EXPECT_THROW(parse_sync_table_json(j), std::runtime_error);
}

TEST(SyncTable, ConformanceReportHasTheSectionWhenGivenAndSaysNotRunOtherwise) {
    ReportInput in;
    EXPECT_NE(markdown(in).find("## Sync mutation table\n\nNot run"), std::string::npos);
    EXPECT_NE(html(in).find("Sync mutation table"), std::string::npos);
    in.sync_table = sample();
    const std::string md = markdown(in);
    EXPECT_NE(md.find("## Sync mutation table\n\n**sync table: 4 points"), std::string::npos) << md;
    EXPECT_NE(md.find("### Mutations to read"), std::string::npos);
    EXPECT_NE(html(in).find("drop-set core=AIV0.0 n=3"), std::string::npos);
    EXPECT_NE(json(in).find("\"sync_table\": {"), std::string::npos);
}
