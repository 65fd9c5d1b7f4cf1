// Every hand-fused epilogue against its EVG (comparison.hpp): one test per example and chip, over the
// examples' five shapes (example 12: four shapes with N = 128). A case fails when either run has a finding,
// when the hand-fused outputs are not bit-identical to the EVG's, or when either fails the judge against the
// oracle. Each test merges its rows into hand-fused-report.md in the working directory (under ctest: the
// build folder of conformance/), beside the examples' examples-report.md.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "comparison.hpp"

namespace {

using evg::hand_fused::all_cases;
using evg::hand_fused::CaseSpec;
using evg::hand_fused::Comparison;

constexpr const char* kReport = "hand-fused-report.md";

// A table row's key: its first two cells.
std::string key_of(const std::string& line) {
    const size_t a = line.find('|', 1);
    const size_t b = a == std::string::npos ? a : line.find('|', a + 1);
    return b == std::string::npos ? std::string() : line.substr(0, b);
}

// Merges `rows` into the report under an exclusive lock (ctest runs each test in its own process).
void merge_rows(const std::vector<Comparison>& rows) {
    const std::string lock_path = std::string(kReport) + ".lock";
    const int fd = ::open(lock_path.c_str(), O_CREAT | O_RDWR, 0644);
    if (fd >= 0) ::flock(fd, LOCK_EX);
    std::map<std::string, std::string> table;
    {
        std::ifstream in(kReport);
        std::string line;
        while (std::getline(in, line))
            if (line.rfind("| ", 0) == 0 && line.rfind("| example ", 0) != 0) table[key_of(line)] = line;
    }
    const std::string fresh = evg::hand_fused::markdown_table(rows);
    size_t at = fresh.find("\n|---");
    at = fresh.find('\n', at + 1);
    const std::string header = fresh.substr(0, at + 1);
    for (size_t p = at + 1; p < fresh.size();) {
        const size_t e = fresh.find('\n', p);
        const std::string line = fresh.substr(p, e - p);
        table[key_of(line)] = line;
        p = e + 1;
    }
    const std::string tmp = std::string(kReport) + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << "# Seed examples: EVG against hand-fused epilogues (cycle model)\n\n"
            << "Written by `evg_hand_fused_tests` (conformance/examples/hand_fused). One row per case: "
               "modelled cycles "
               "of the\nwhole launch with the EVG's BlockEpilogue and with the hand-fused epilogue (same "
               "kernel, AIC "
               "matmul and data),\ntheir ratio, each against its roofline (the busiest pipe's busy time), "
               "the busiest "
               "AIV's time with MTE2, V or\nMTE3 busy, the AIVs' V busy time and PIPE_V barriers, and "
               "whether every "
               "check held (clean reports, outputs\nbit-identical, both judged against the oracle). "
               "docs/evg-vs-hand-fused.md explains the differences.\n\n"
            << header;
        for (const auto& [k, line] : table) out << line << '\n';
    }
    std::rename(tmp.c_str(), kReport);
    if (fd >= 0) {
        ::flock(fd, LOCK_UN);
        ::close(fd);
    }
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
