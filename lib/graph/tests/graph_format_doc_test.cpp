// docs/graph-format.md documents the whole text format: every node kind has its own section, and every
// functor spelling, element type, round mode, problem key and validation rule the code knows is named in it.
// The lists come from the code's own tables (kAllNodeKinds, functor_spellings, kAllDTypes, kAllRoundModes,
// validation_rules, and the keys the printer writes on a problem line), so a new entry in any of them fails
// this test until the document has it.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "evg/graph/text.hpp"
#include "evg/graph/validate.hpp"

namespace evg::graph {
namespace {

std::string read_doc() {
    std::ifstream in(std::string(EVG_SOURCE_DIR) + "/docs/graph-format.md");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The keys of a printed problem line: "problem arch=AtlasA2 m=... tile=..." -> arch, m, ..., tile.
std::vector<std::string> problem_keys() {
    Problem p;
    p.m = p.n = p.k = 32;
    p.compute_length = 32;
    p.path = WorkspacePath::UB;  // so that every optional key is printed
    p.kernel.mmad = MmadPolicy::PingpongMutex;
    p.kernel.unit_flag = false;
    p.kernel.hf32 = p.kernel.l1_resident = true;
    p.kernel.l0c_stages = 2;
    p.kernel.l0_k = 64;
    p.kernel.layout_a = p.kernel.layout_b = MatrixLayout::ColumnMajor;
    const std::string text = print(p);
    const std::string line = text.substr(0, text.find('\n'));
    std::vector<std::string> keys;
    std::istringstream words(line);
    for (std::string w; words >> w;)
        if (const size_t eq = w.find('='); eq != std::string::npos) keys.push_back(w.substr(0, eq));
    return keys;
}

// `prefix` + `word` + `suffix`, appended piece by piece (GCC 12 reports a false -Wrestrict for
// "literal" + std::string(...)).
std::string wrap(std::string_view prefix, std::string_view word, std::string_view suffix) {
    std::string out;
    out.append(prefix).append(word).append(suffix);
    return out;
}

// What the document lacks, one line per missing item.
std::vector<std::string> missing_from(const std::string& doc) {
    std::vector<std::string> out;
    const auto need = [&](const std::string& what, const std::string& text) {
        if (doc.find(text) == std::string::npos) out.push_back(wrap(what, ": ", text));
    };
    for (NodeKind k : kAllNodeKinds) need("node kind", wrap("### ", node_kind_name(k), "\n"));
    for (std::string_view f : functor_spellings()) need("functor", wrap("`", f, "`"));
    for (hw::DType t : hw::kAllDTypes) need("element type", wrap("`", hw::dtype_name(t), "`"));
    for (hw::RoundMode m : hw::kAllRoundModes) need("round mode", wrap("`", hw::round_mode_name(m), "`"));
    for (const std::string& key : problem_keys()) need("problem key", wrap("| `", key, "` |"));
    for (const RuleInfo& r : validation_rules()) need("validation rule", wrap("`", r.id, "`"));
    return out;
}

TEST(GraphFormatDoc, NamesEveryNodeFunctorTypeModeKeyAndRule) {
    const std::string doc = read_doc();
    ASSERT_FALSE(doc.empty()) << "docs/graph-format.md is missing";
    const std::vector<std::string> missing = missing_from(doc);
    std::string list;
    for (const std::string& m : missing) list += "  " + m + "\n";
    EXPECT_TRUE(missing.empty()) << "docs/graph-format.md does not name:\n" << list;
}

TEST(GraphFormatDoc, TheCheckFindsAMissingSection) {
    // The checker itself: the document without its ColReduce section, and the problem keys it reads.
    std::string doc = read_doc();
    const size_t at = doc.find("### ColReduce\n");
    ASSERT_NE(at, std::string::npos);
    doc.erase(at, 4);
    const std::vector<std::string> missing = missing_from(doc);
    ASSERT_EQ(missing.size(), 1u);
    EXPECT_EQ(missing[0], "node kind: ### ColReduce\n");
    const std::vector<std::string> keys = problem_keys();
    EXPECT_EQ(keys.size(), 18u);
    EXPECT_EQ(keys.front(), "arch");
}

}  // namespace
}  // namespace evg::graph
