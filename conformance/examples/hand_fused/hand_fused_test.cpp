// Every hand-fused epilogue against its EVG (comparison.hpp): one test per example and chip, over the
// examples' five shapes (example 12: four shapes with N = 128). A case fails when either run has a finding,
// when the hand-fused outputs are not bit-identical to the EVG's, or when either fails the judge against the
// oracle. Each test merges its rows into hand-fused-report.md in the working directory (under ctest: the
// build folder of conformance/), beside the examples' examples-report.md.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>
#include "comparison.hpp"
#include "locked_file.hpp"
#include "report_row.hpp"

namespace {

using evg::hand_fused::all_cases;
using evg::hand_fused::CaseSpec;
using evg::hand_fused::Comparison;

constexpr const char* kReport = "hand-fused-report.md";

// Merges `rows` into the report (ctest runs each test in its own process); the text is reports/'
// (evg/reports/hand_fused.hpp).
void merge_rows(const std::vector<Comparison>& rows) {
    std::vector<evg::reports::HandFusedRow> report;
    report.reserve(rows.size());
    for (const Comparison& c : rows) report.push_back(evg::hand_fused::report_row(c));
    evg::examples::rewrite_locked(kReport, [&](std::string_view existing) {
        return evg::reports::merge_hand_fused_report(existing, report);
    });
}

// The (example, chip) groups, in case order: "Seed003_Add/Ascend950".
std::vector<std::string> groups() {
    std::vector<std::string> g;
    std::set<std::string> seen;
    for (const CaseSpec& c : all_cases()) {
        const std::string key = c.example + "/" + c.config.substr(0, c.config.find('_'));
        if (seen.insert(key).second) g.push_back(key);
    }
    return g;
}

class HandFused : public ::testing::TestWithParam<std::string> {};

TEST_P(HandFused, BitIdenticalCleanAndTimed) {
    std::vector<Comparison> rows;
    size_t ran = 0;
    for (const CaseSpec& c : all_cases()) {
        if (c.example + "/" + c.config.substr(0, c.config.find('_')) != GetParam()) continue;
        ++ran;
        Comparison r = c.run();
        EXPECT_EQ(r.config, c.config);
        for (const std::string& p : r.problems) ADD_FAILURE() << c.example << " " << c.config << ": " << p;
        // A hand-fused run that the cycle model could not time, or that did no work, proves nothing.
        EXPECT_GT(r.hand.total, 0u) << c.config;
        EXPECT_GT(r.evg.total, 0u) << c.config;
        EXPECT_GE(r.hand.total, r.hand.roofline) << c.config;
        rows.push_back(std::move(r));
    }
    // Example 12 runs four shapes with N = 128 (the int8 BlockMmad fails on the examples' N tails).
    const size_t shapes = GetParam().starts_with("QuantMatmul_12/") ? 4u : 5u;
    EXPECT_EQ(ran, shapes)
        << "every example runs the examples' five shapes, example 12 its four N = 128 ones";
    merge_rows(rows);
}

INSTANTIATE_TEST_SUITE_P(Examples, HandFused, ::testing::ValuesIn(groups()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             std::string name = info.param;
                             for (char& ch : name)
                                 if (ch == '/') ch = '_';
                             return name;
                         });

}  // namespace
