// The known-findings file: both entry forms match what they name and nothing else, every match is counted,
// the entries nobody matched are listed, and a malformed line is an error naming its place and its rule.
#include <gtest/gtest.h>

#include <string>

#include "evg/hw/error.hpp"
#include "evg/hw/report.hpp"
#include "evg/verify/known_findings.hpp"

namespace evg::verify {
namespace {

constexpr const char* kFile =
    "# a comment line\n"
    "\n"
    "race tile_mmad.hpp:148  # by line\n"
    "flag_set_twice block_mmad_pingpong_tla.hpp:   AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(  # by "
    "text\n";

TEST(KnownFindings, TheLineFormMatchesItsSiteOnly) {
    KnownFindings k = KnownFindings::parse(kFile, "known.txt");
    ASSERT_EQ(k.entries().size(), 2u);
    EXPECT_NE(k.match("race", "tile_mmad.hpp:148", ""), nullptr);
    EXPECT_EQ(k.match("race", "tile_mmad.hpp:149", ""), nullptr);
    EXPECT_EQ(k.match("race", "other.hpp:148", ""), nullptr);
    EXPECT_EQ(k.match("flag_left_set", "tile_mmad.hpp:148", ""), nullptr);
    EXPECT_EQ(k.entries()[0].hits, 1u);
}

TEST(KnownFindings, TheTextFormMatchesTheLineWhereverItMoved) {
    KnownFindings k = KnownFindings::parse(kFile, "known.txt");
    const std::string master = "   AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(l0CEventList[l0CListId]);";
    EXPECT_NE(k.match("flag_set_twice", "block_mmad_pingpong_tla.hpp:521", master), nullptr);
    EXPECT_NE(k.match("flag_set_twice", "block_mmad_pingpong_tla.hpp:536", master), nullptr);
    // Blanks at both ends do not count; another line's text, another file or no text at all does not match.
    EXPECT_NE(k.match("flag_set_twice", "block_mmad_pingpong_tla.hpp:9",
                      "\t\tAscendC::SetFlag<AscendC::HardEvent::MTE1_M>(\t  x);"),
              nullptr);
    EXPECT_EQ(k.match("flag_set_twice", "block_mmad_pingpong_tla.hpp:530",
                      "AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(l0CEventList[l0CListId]);"),
              nullptr);
    EXPECT_EQ(k.match("flag_set_twice", "block_mmad.hpp:521", master), nullptr);
    EXPECT_EQ(k.match("flag_set_twice", "block_mmad_pingpong_tla.hpp:521", ""), nullptr);
    EXPECT_EQ(k.entries()[1].hits, 3u);
}

TEST(KnownFindings, AViolationIsMatchedByItsFirstLocation) {
    KnownFindings k = KnownFindings::parse(kFile, "known.txt");
    hw::Violation v{hw::ViolationKind::race, hw::Severity::error, "a race", {}, 1};
    EXPECT_EQ(k.match(v), nullptr);  // no location: nothing to match
    hw::Location first, second;
    first.site = "tile_mmad.hpp:148";
    second.site = "elsewhere.hpp:1";
    v.locations = {second, first};
    EXPECT_EQ(k.match(v), nullptr);
    v.locations = {first, second};
    EXPECT_NE(k.match(v), nullptr);
}

TEST(KnownFindings, TheEntriesThatMatchedNothingAreListed) {
    KnownFindings k = KnownFindings::parse(kFile, "known.txt");
    ASSERT_EQ(k.unmatched().size(), 2u);
    (void)k.match("race", "tile_mmad.hpp:148", "");
    (void)k.match("race", "tile_mmad.hpp:148", "");
    ASSERT_EQ(k.unmatched().size(), 1u);
    EXPECT_EQ(k.unmatched().front()->where, "known.txt:4");
    const std::string s = k.summary();
    EXPECT_NE(s.find("2 entries, 1 matched nothing"), std::string::npos) << s;
    EXPECT_NE(s.find("2 x  race tile_mmad.hpp:148  (known.txt:3)"), std::string::npos) << s;
    EXPECT_NE(s.find("unmatched  flag_set_twice block_mmad_pingpong_tla.hpp:"), std::string::npos) << s;
}

// A two-place entry names the race's pair of instructions, in either issue order, and nothing with one of
// them only; a tag keeps it from runs whose caller does not say its condition holds.
constexpr const char* kPairs =
    "[drawn, stores-a-load] race store.hpp: AscendC::DataCopyPad( <-> load.hpp:121  # 4\n"
    "[drawn] race l0b.hpp: AscendC::LoadData(  # 7\n";

hw::Location place(std::string site, std::string source) {
    hw::Location l;
    l.site = std::move(site);
    l.source = std::move(source);
    return l;
}

TEST(KnownFindings, ATwoPlaceEntryMatchesThePairInEitherOrderWhenItsConditionHolds) {
    KnownFindings k = KnownFindings::parse(kPairs, "known.txt");
    ASSERT_EQ(k.entries().size(), 2u);
    const KnownFinding& e = k.entries()[0];
    EXPECT_TRUE(e.drawn);
    EXPECT_TRUE(e.stores_a_load);
    ASSERT_TRUE(e.with.has_value());
    EXPECT_EQ(e.at.file, "store.hpp");
    EXPECT_EQ(e.with->line, 121u);
    EXPECT_EQ(e.note, "4");
    const hw::Location store = place("store.hpp:88", "  AscendC::DataCopyPad(dst, src, params);");
    const hw::Location load = place("load.hpp:121", "AscendC::DataCopyPad(dst, src, params, pad);");
    const hw::Location other = place("load.hpp:122", "AscendC::DataCopyPad(dst, src, params, pad);");
    hw::Violation v{hw::ViolationKind::race, hw::Severity::error, "a race", {store, load}, 1};
    const RunConditions stores{true};
    EXPECT_EQ(k.match(v), nullptr);  // the condition is not said to hold
    EXPECT_EQ(k.match(v, stores), &e);
    v.locations = {load, store};
    EXPECT_EQ(k.match(v, stores), &e);
    v.locations = {store, other};
    EXPECT_EQ(k.match(v, stores), nullptr);
    v.locations = {store};
    EXPECT_EQ(k.match(v, stores), nullptr);
    v.locations = {store, load};
    v.kind = hw::ViolationKind::flag_left_set;
    EXPECT_EQ(k.match(v, stores), nullptr);
    // The one-site form names a first instruction only: a two-place entry never matches it.
    EXPECT_EQ(k.match("race", store.site, store.source, stores), nullptr);
    EXPECT_EQ(k.entries()[0].hits, 2u);
    // A one-place entry with only the `drawn` tag holds in any run.
    EXPECT_NE(k.match("race", "l0b.hpp:77", "AscendC::LoadData(dst, src,"), nullptr);
    EXPECT_FALSE(k.entries()[1].stores_a_load);
}

// Each malformed line, and the words of its error.
struct Bad {
    const char* line;
    const char* says;
};

class MalformedLine : public ::testing::TestWithParam<Bad> {};

TEST_P(MalformedLine, IsAnErrorNamingTheFileLineAndTheRule) {
    const std::string text = std::string("# header\nrace a.hpp:1\n") + GetParam().line + "\n";
    try {
        (void)KnownFindings::parse(text, "known.txt");
        FAIL() << "accepted: " << GetParam().line;
    } catch (const evg::Error& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind("known.txt:3: ", 0), 0u) << what;
        EXPECT_NE(what.find(GetParam().says), std::string::npos) << what;
    }
}

INSTANTIATE_TEST_SUITE_P(KnownFindings, MalformedLine,
                         ::testing::Values(Bad{"races tile_mmad.hpp:148", "'races' is not a finding kind"},
                                           Bad{"race", "not followed by a file"},
                                           Bad{"race tile_mmad.hpp", "is not followed by ':'"},
                                           Bad{"race tile_mmad.hpp:", "comes the start of the line's text"},
                                           Bad{"race tile_mmad.hpp:14x", "comes a line number"},
                                           Bad{"race tile_mmad.hpp:0", "comes a line number"},
                                           Bad{"race gemm/tile/tile_mmad.hpp:148", "without its folders"},
                                           Bad{"[drawn race a.hpp:1", "has no ']'"},
                                           Bad{"[drawm] race a.hpp:1", "'drawm' is not a tag"},
                                           Bad{"[drawn]", "'' is not a finding kind"},
                                           Bad{"race a.hpp:1 <-> ", "not followed by a second place"},
                                           Bad{"race a.hpp:1 <-> b.hpp", "is not followed by ':'"}),
                         [](const auto& i) { return "line" + std::to_string(i.index); });

TEST(KnownFindings, AFileThatCannotBeReadIsAnError) {
    EXPECT_THROW((void)KnownFindings::read("/nonexistent/known.txt"), evg::Error);
}

}  // namespace
}  // namespace evg::verify
