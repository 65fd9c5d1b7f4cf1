// Every document the code cites is in the repository: each `docs/<file>.md §<n>` in a source, CMake or
// Markdown file names a file of docs/ that has a heading numbered <n>, and the design documents that live
// outside the repository (the design repository's spec and DESIGN files) are not cited by bare name.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "read_text.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path kRoot = EVG_SOURCE_DIR;

using evg::docs_tests::read;

// The files a reader of the tree reads: sources, build files, scripts and Markdown, outside build and output
// folders.
std::vector<fs::path> tree_files() {
    static const std::set<std::string> exts{".cpp", ".hpp", ".h", ".md", ".txt", ".cmake", ".sh", ".inc"};
    std::vector<fs::path> out;
    for (auto it = fs::recursive_directory_iterator(kRoot); it != fs::recursive_directory_iterator(); ++it) {
        const fs::path rel = fs::relative(it->path(), kRoot);
        const std::string top = rel.begin()->string();
        if (it->is_directory() && (top == "build" || top == "out" || top == "fuzz-out" || top[0] == '.')) {
            it.disable_recursion_pending();
            continue;
        }
        if (it->is_regular_file() && exts.count(it->path().extension().string())) out.push_back(it->path());
    }
    return out;
}

// The section numbers a document's headings carry: "## 5. BlockEpilogue" -> 5, "### 5.3 The events" -> 5.3.
std::set<std::string> sections(const fs::path& doc) {
    std::set<std::string> out;
    static const std::regex heading(R"(^#+ ([0-9]+(\.[0-9]+)*)\.?\s)");
    std::istringstream in(read(doc));
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (std::regex_search(line, m, heading)) out.insert(m[1]);
    }
    return out;
}

TEST(DocsCitations, EveryCitedSectionExists) {
    static const std::regex cite(R"(docs/([A-Za-z0-9_-]+\.md)( §([0-9]+(\.[0-9]+)*))?)");
    std::map<std::string, std::set<std::string>> docs;
    int checked = 0;
    for (const fs::path& f : tree_files()) {
        const std::string text = read(f);
        for (auto it = std::sregex_iterator(text.begin(), text.end(), cite); it != std::sregex_iterator();
             ++it) {
            const std::string file = (*it)[1];
            const fs::path doc = kRoot / "docs" / file;
            ASSERT_TRUE(fs::exists(doc))
                << fs::relative(f, kRoot) << " cites docs/" << file << ", which is not in the repository";
            if (!docs.count(file)) docs[file] = sections(doc);
            if ((*it)[3].matched) {
                std::string sec = (*it)[3];
                EXPECT_TRUE(docs[file].count(sec)) << fs::relative(f, kRoot) << " cites docs/" << file << " §"
                                                   << sec << ", which has no such section";
            }
            ++checked;
        }
    }
    EXPECT_GT(checked, 50) << "the tree cites docs/ far less than it did when this test was written";
}

TEST(DocsCitations, NoDocumentOutsideTheRepositoryIsCited) {
    // Cited by bare name, these mean the design repository's files, which a reader of this one does not
    // have.
    static const std::regex bare(
        R"((^|[^/A-Za-z0-9_-])(evg-semantics|hardware-model|verification-notes|cutlass-evt-notes|DESIGN|STYLE)\.md)");
    for (const fs::path& f : tree_files()) {
        if (*fs::relative(f, kRoot).begin() == "docs")
            continue;  // docs/ links its own files by relative name
        const std::string text = read(f);
        std::smatch m;
        EXPECT_FALSE(std::regex_search(text, m, bare))
            << fs::relative(f, kRoot) << " cites " << m.str(2) << ".md, which is not in the repository";
    }
}

// Words of the project's own history, which a reader of the tree does not have: tracker numbers, the
// design repository's private names, and notes of where code came from. Code and documents say what the code
// does and why, in the present.
// "issues 7 instructions" is the verb, so the plural counts only as "issues N and M".
const std::regex& history_words() {
    static const std::regex words(
        R"((\bissue[ -]?#?[0-9]+)|(\bissues #?[0-9]+ and #?[0-9]+)|(\bthe\s+brief\b)|(\bsteer(ing)\b)|(\bmoved\s+here\s+from\b))",
        std::regex::icase);
    return words;
}

TEST(DocsHistory, NoFirstPartyFileNamesTheProjectsHistory) {
    int checked = 0;
    for (const fs::path& f : tree_files()) {
        const std::string text = read(f);
        ++checked;
        std::istringstream in(text);
        int line_no = 0;
        for (std::string line; std::getline(in, line);) {
            ++line_no;
            std::smatch m;
            EXPECT_FALSE(std::regex_search(line, m, history_words()))
                << fs::relative(f, kRoot).string() << ":" << line_no << " says \"" << m.str(0)
                << "\": say what the code does and why, in the present";
        }
    }
    EXPECT_GT(checked, 300) << "the tree walk found too few files to mean anything";
}

TEST(DocsHistory, TheMatcherFindsEachKindOfHistoryWord) {
    // The checker itself, on phrases it must catch and phrases it must leave alone.
    for (const char* bad : {"see Issue "
                            "11 (d)",
                            "issue-"
                            "12 target",
                            "issues "
                            "11 and 12",
                            "per the "
                            "brief:",
                            "the Steer"
                            "ing repository",
                            "moved here "
                            "from props/src/checks.cpp"})
        EXPECT_TRUE(std::regex_search(std::string(bad), history_words())) << bad;
    for (const char* fine :
         {"issue order from the scalar unit", "each issue of an instruction", "a brief note",
          "moved to the pool", "the hand kernel issues 7 vector instructions"})
        EXPECT_FALSE(std::regex_search(std::string(fine), history_words())) << fine;
}

TEST(DocsCitations, TheSectionReaderFindsNumberedHeadings) {
    // The checker itself: a heading with and without the trailing dot, and a sub-section.
    const std::set<std::string> s = sections(kRoot / "docs" / "evg-semantics.md");
    EXPECT_TRUE(s.count("5"));
    EXPECT_TRUE(s.count("5.3"));
    EXPECT_TRUE(s.count("2.0"));
    EXPECT_FALSE(s.count("5.9"));
}

}  // namespace
