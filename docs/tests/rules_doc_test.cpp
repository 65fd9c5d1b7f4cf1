// docs/hardware-model.md §17 prints the model's rules table (lib/hw/include/evg/hw/rules.def): one row per
// rule, with its id, name, status, sentence, source and kinds, in table order; and the word of the third
// status appears on those rows only, so that counting it in the document counts them.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "evg/hw/rules.hpp"

namespace {

std::vector<std::string> lines_of(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

std::string kinds_cell(const evg::hw::RuleInfo& r) {
    if (r.kinds.empty()) return "findings that carry it";
    std::string out;
    for (const evg::hw::ViolationKind k : r.kinds)
        out += fmt::format("{}`{}`", out.empty() ? "" : ", ", evg::hw::violation_kind_name(k));
    return out;
}

TEST(RulesDoc, TheDocumentPrintsTheTable) {
    const std::vector<std::string> lines = lines_of(std::string(EVG_SOURCE_DIR) + "/docs/hardware-model.md");
    ASSERT_FALSE(lines.empty());
    static const std::regex row(R"(^\| (R[0-9]+) \| `([a-z0-9_]+)` \| ([a-z]+) \| (.*) \| (.*) \| (.*) \|$)");
    std::vector<std::vector<std::string>> rows;  // the six cells of each rule row
    size_t assumed_lines = 0;
    for (const std::string& line : lines) {
        if (line.find("assumed") != std::string::npos) ++assumed_lines;
        std::smatch m;
        if (std::regex_match(line, m, row)) rows.push_back({m[1], m[2], m[3], m[4], m[5], m[6]});
    }
    const auto rules = evg::hw::all_rules();
    ASSERT_EQ(rows.size(), rules.size()) << "docs/hardware-model.md §17 has a row per rule of rules.def";
    size_t assumed = 0;
    for (size_t i = 0; i < rules.size(); ++i) {
        const evg::hw::RuleInfo& r = rules[i];
        SCOPED_TRACE(std::string(r.code));
        EXPECT_EQ(rows[i][0], r.code);
        EXPECT_EQ(rows[i][1], r.name);
        EXPECT_EQ(rows[i][2], evg::hw::rule_status_name(r.status));
        EXPECT_EQ(rows[i][3], r.statement);
        EXPECT_EQ(rows[i][4], r.source);
        EXPECT_EQ(rows[i][5], kinds_cell(r));
        assumed += r.status == evg::hw::RuleStatus::assumed;
    }
    EXPECT_EQ(assumed_lines, assumed)
        << "the word of the third status stands on the rows of such rules and nowhere else in the document";
}

}  // namespace
