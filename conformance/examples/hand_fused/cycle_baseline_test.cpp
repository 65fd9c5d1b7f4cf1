// The seed examples' modelled cycles against the checked-in baseline (cycle_baseline.txt beside this file).
// The cycle model is deterministic, so this is not a timing test: a case whose EVG or hand-fused total moves
// by more than the tolerance (1%) is a change in the library, the kernels or the cost table, and fails with
// the command that rewrites the baseline once the change is meant:
//
//   EVG_UPDATE_CYCLE_BASELINE=1 build/release/conformance/evg_hand_fused_tests
//   --gtest_filter='CycleBaseline.*'
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "comparison.hpp"

namespace {

using evg::hand_fused::all_cases;
using evg::hand_fused::CaseSpec;
using evg::hand_fused::Comparison;

constexpr double kTolerance = 0.01;  // relative, either way
constexpr const char* kRegenerate =
    "if the change is meant, rewrite the baseline with\n  EVG_UPDATE_CYCLE_BASELINE=1 "
    "build/release/conformance/evg_hand_fused_tests --gtest_filter='CycleBaseline.*'\nand commit "
    "conformance/examples/hand_fused/cycle_baseline.txt";

struct Entry {
    uint64_t evg = 0, hand = 0;
};

// "example config evg hand" per line; '#' starts a comment.
std::map<std::string, Entry> read_baseline(const std::string& path) {
    std::map<std::string, Entry> m;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream ls(line);
        std::string example, config;
        Entry e;
        if (!(ls >> example >> config >> e.evg >> e.hand)) continue;
        example += ' ';
        example += config;
        m[example] = e;
    }
    return m;
}

void write_baseline(const std::string& path, const std::vector<Comparison>& rows) {
    std::ofstream out(path, std::ios::trunc);
    out << "# Modelled cycles (evg::hw::timing::simulate, total of the launch) of the seed examples, EVG "
           "and\n"
        << "# hand-fused epilogues (conformance/examples/hand_fused). Checked by CycleBaseline.* in\n"
        << "# evg_hand_fused_tests with a tolerance of 1% either way. Rewrite with\n"
        << "#   EVG_UPDATE_CYCLE_BASELINE=1 build/release/conformance/evg_hand_fused_tests "
           "--gtest_filter='CycleBaseline.*'\n"
        << "# example config evg_cycles hand_cycles\n";
    for (const Comparison& c : rows)
        out << fmt::format("{} {} {} {}\n", c.example, c.config, c.evg.total, c.hand.total);
}

bool within(uint64_t got, uint64_t want) {
    const double d = std::fabs(static_cast<double>(got) - static_cast<double>(want));
    return d <= kTolerance * static_cast<double>(want);
}

TEST(CycleBaseline, SeedExamplesWithinOnePercent) {
    std::vector<Comparison> rows;
    rows.reserve(all_cases().size());
    for (const CaseSpec& c : all_cases()) rows.push_back(c.run());
    const char* update = std::getenv("EVG_UPDATE_CYCLE_BASELINE");
    if (update && std::string(update) == "1") {
        write_baseline(EVG_CYCLE_BASELINE, rows);
        std::printf("wrote %s (%zu cases)\n", EVG_CYCLE_BASELINE, rows.size());
    }
    const std::map<std::string, Entry> base = read_baseline(EVG_CYCLE_BASELINE);
    ASSERT_FALSE(base.empty()) << "no baseline at " << EVG_CYCLE_BASELINE << "; " << kRegenerate;
    EXPECT_EQ(base.size(), rows.size()) << "the baseline lists other cases than all_cases(); " << kRegenerate;
    for (const Comparison& c : rows) {
        const auto it = base.find(c.example + " " + c.config);
        if (it == base.end()) {
            ADD_FAILURE() << c.example << " " << c.config << " is not in the baseline; " << kRegenerate;
            continue;
        }
        EXPECT_TRUE(within(c.evg.total, it->second.evg))
            << c.example << " " << c.config << ": EVG " << c.evg.total << " cycles, baseline "
            << it->second.evg << " (tolerance 1%); " << kRegenerate;
        EXPECT_TRUE(within(c.hand.total, it->second.hand))
            << c.example << " " << c.config << ": hand-fused " << c.hand.total << " cycles, baseline "
            << it->second.hand << " (tolerance 1%); " << kRegenerate;
    }
}

// The comparison is deterministic: the same case twice gives the same cycles (else a 1% tolerance would mean
// nothing).
TEST(CycleBaseline, Deterministic) {
    const CaseSpec& c = all_cases().front();
    const Comparison a = c.run(), b = c.run();
    EXPECT_EQ(a.evg.total, b.evg.total);
    EXPECT_EQ(a.hand.total, b.hand.total);
    EXPECT_EQ(a.evg.epilogue, b.evg.epilogue);
}

}  // namespace
