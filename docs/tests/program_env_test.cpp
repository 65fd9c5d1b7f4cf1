// docs/check-your-program.md §3 lists the environment a built program reads, one table row per variable of
// acl/program_env.def, in one table (a blank line inside a Markdown table ends it, and the rows after it are
// no longer a table).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "acl/program_env.hpp"
#include "read_text.hpp"

namespace {

using evg::docs_tests::read;

// The `EVG_*` names in the first column of each row of the Markdown table that starts at `| variable |`,
// up to its first line that is not a row.
std::set<std::string> table_variables(const std::string& doc, std::string& after_the_table) {
    std::set<std::string> out;
    std::istringstream in(doc.substr(doc.find("| variable |")));
    static const std::regex name(R"(`(EVG_[A-Z_]+)=)");
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] != '|') {
            std::getline(in, after_the_table);
            break;
        }
        const std::string first = line.substr(0, line.find('|', 1));
        for (std::sregex_iterator it(first.begin(), first.end(), name), end; it != end; ++it)
            out.insert((*it)[1]);
    }
    return out;
}

TEST(DocsProgramEnv, TheGuidesTableListsEveryVariableOfTheTableAndOnlyThose) {
    const std::string doc = read(std::filesystem::path(EVG_SOURCE_DIR) / "docs" / "check-your-program.md");
    ASSERT_NE(doc.find("| variable |"), std::string::npos);
    std::string after;
    const std::set<std::string> listed = table_variables(doc, after);
    std::set<std::string> table;
    for (const evg::acl::ProgramEnvVar& v : evg::acl::kProgramEnv) table.insert(std::string(v.name));
    EXPECT_EQ(listed, table);
    EXPECT_EQ(after.rfind('|', 0), std::string::npos) << "the table is cut by a blank line: " << after;
}

TEST(DocsProgramEnv, TheReaderStopsAtTheFirstLineThatIsNotARow) {
    std::string after;
    const std::set<std::string> got =
        table_variables("| variable | effect |\n|---|---|\n| `EVG_A=1` | a |\n\n| `EVG_B=1` | b |\n", after);
    EXPECT_EQ(got, std::set<std::string>{"EVG_A"});
    EXPECT_EQ(after, "| `EVG_B=1` | b |");
}

}  // namespace
