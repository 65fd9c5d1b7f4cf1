// examples-report.md's merge: each test process adds its rows to the file as it finds it. Rows from an
// earlier process stay, a re-run of a case replaces its row, the rows are sorted by example and
// configuration, and the count of passing cases is over the merged table.
#include "evg/reports/examples_table.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using evg::reports::ExampleRow;
using evg::reports::merge_examples_report;

namespace {

ExampleRow row(std::string example, std::string config, bool pass, std::string violations = "none") {
    return {.example = std::move(example),
            .config = std::move(config),
            .compute_length = 256,
            .pass = pass,
            .ub_peak = 6656,
            .ub_expected = 6656,
            .instructions = 260,
            .violations = std::move(violations),
            .comparison = "D bit-exact"};
}

std::vector<std::string> table_lines(const std::string& text) {
    std::vector<std::string> out;
    size_t at = 0;
    while (at < text.size()) {
        const size_t end = text.find('\n', at);
        const std::string line = text.substr(at, end - at);
        if (line.starts_with("| ") && !line.starts_with("| example |")) out.push_back(line);
        if (end == std::string::npos) break;
        at = end + 1;
    }
    return out;
}

}  // namespace

TEST(ExamplesTable, ANewFileHasTheHeadingTheCountAndOneRowPerCase) {
    const std::vector<ExampleRow> rows = {row("Seed000_32_Add", "AtlasA2_half_m65_n100_k40_CL256", true)};
    const std::string text = merge_examples_report("", rows);
    EXPECT_EQ(text.rfind("# Seed examples on the model\n", 0), 0u);
    EXPECT_NE(text.find("1 of 1 cases pass."), std::string::npos) << text;
    EXPECT_NE(text.find("| example | arch / dtype / shape / CL | CL | result |"), std::string::npos);
    ASSERT_EQ(table_lines(text).size(), 1u);
    EXPECT_EQ(table_lines(text)[0],
              "| Seed000_32_Add | AtlasA2_half_m65_n100_k40_CL256 | 256 | pass | 6656 | 6656 | 260 | none | "
              "D bit-exact |");
}

TEST(ExamplesTable, RowsOfEarlierProcessesStayAndARerunReplacesItsRow) {
    // Every example's rows stay, whatever its name (the static compositions' rows were once dropped by a
    // merge that kept only "Seed" and "Quant" lines).
    const std::vector<ExampleRow> first = {
        row("Seed003_Mul", "Ascend950_float_m1_n1_k1_CL256", true),
        row("Seed000_32_Add", "AtlasA2_half_m65_n100_k40_CL256", true),
        row("StaticComposition_Sub_dag", "AtlasA2_half_m1_n100_k40_CL256", true)};
    const std::string once = merge_examples_report("", first);
    const std::vector<ExampleRow> second = {
        row("Seed000_32_Add", "AtlasA2_half_m65_n100_k40_CL256", false, "race x2"),
        row("QuantMatmul_12", "Ascend950_int8_m1_n100_k40_CL256", true)};
    const std::string twice = merge_examples_report(once, second);
    const std::vector<std::string> lines = table_lines(twice);
    ASSERT_EQ(lines.size(), 4u) << twice;
    // Sorted by example then configuration: Q < Seed000 < Seed003 < Static.
    EXPECT_TRUE(lines[0].starts_with("| QuantMatmul_12 |"));
    EXPECT_TRUE(lines[1].starts_with("| Seed000_32_Add |"));
    EXPECT_NE(lines[1].find("| FAIL |"), std::string::npos);  // the re-run's row, not the first one
    EXPECT_NE(lines[1].find("| race x2 |"), std::string::npos);
    EXPECT_TRUE(lines[2].starts_with("| Seed003_Mul |"));
    EXPECT_TRUE(lines[3].starts_with("| StaticComposition_Sub_dag |"));
    EXPECT_NE(twice.find("3 of 4 cases pass."), std::string::npos) << twice;
    // Merging the same rows again changes nothing.
    EXPECT_EQ(merge_examples_report(twice, second), twice);
}
