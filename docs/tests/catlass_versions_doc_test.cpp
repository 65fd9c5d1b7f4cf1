// docs/check-your-program.md §6 has one row per Catlass version of acl/catlass_versions.def, naming it and
// the first 8 digits of its commit, in the table that starts at `| version |`; and no row for a version the
// table does not have.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "read_text.hpp"

namespace {

using evg::docs_tests::read;

// "name commit8" of each row of the table: its first cell is "<name> `<commit8>`...".
std::set<std::string> table_rows(const std::string& doc) {
    std::set<std::string> out;
    const size_t at = doc.find("| version |");
    if (at == std::string::npos) return out;
    std::istringstream in(doc.substr(at));
    std::string line;
    std::getline(in, line);  // the header
    std::getline(in, line);  // |---|
    while (std::getline(in, line) && line.rfind("| ", 0) == 0) {
        const std::string first = line.substr(2, line.find('|', 1) - 2);
        const size_t tick = first.find('`');
        if (tick == std::string::npos || tick == 0) continue;
        out.insert(first.substr(0, tick - 1) + " " +
                   first.substr(tick + 1, first.find('`', tick + 1) - tick - 1));
    }
    return out;
}

TEST(DocsCatlassVersions, TheGuidesTableHasARowPerTestedVersion) {
    std::set<std::string> table;
#define EVG_CATLASS_VERSION(name, commit, date, fingerprint) \
    table.insert(std::string(name) + " " + std::string(commit).substr(0, 8));
#include "acl/catlass_versions.def"
    const std::string doc = read(std::filesystem::path(EVG_SOURCE_DIR) / "docs" / "check-your-program.md");
    EXPECT_EQ(table_rows(doc), table);
}

TEST(DocsCatlassVersions, TheReaderTakesNameAndCommitOfEachRow) {
    const std::set<std::string> rows = table_rows(
        "| version | x |\n|---|---|\n| master `0dfcf9df` (2026) | a |\n| v1.6.0 `db93081c` | b |\n\n| v9 "
        "`00000000` | c |\n");
    EXPECT_EQ(rows, (std::set<std::string>{"master 0dfcf9df", "v1.6.0 db93081c"}));
}

}  // namespace
