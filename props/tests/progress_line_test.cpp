// The runner's progress line (evg/props/progress_line.hpp): what the runner writes, `evgcheck check` reads
// back; any other line is not one.
#include "evg/props/progress_line.hpp"

#include <gtest/gtest.h>

namespace evg::props {
namespace {

TEST(ProgressLine, WhatTheRunnerWritesReadsBack) {
    const std::string line = progress_line("Props/ModelMatchesOracleAndCheckersAreClean", 7, 40);
    EXPECT_EQ(line, "evg-progress: Props/ModelMatchesOracleAndCheckersAreClean 7/40\n");
    const auto p = read_progress_line(line);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->passed, 7);
    EXPECT_EQ(p->cases, 40);
    EXPECT_TRUE(read_progress_line(line.substr(0, line.size() - 1)));  // without its newline
}

TEST(ProgressLine, AnyOtherLineIsNotOne) {
    for (const char* other :
         {"OK, passed 25 tests", "evg-progress:", "evg-progress: P 7", "evg-progress: P 7/",
          "evg-progress: P x/40", "evg-progress: 7/40", "evg-progress: P 7/40 more"})
        EXPECT_FALSE(read_progress_line(other)) << other;
}

}  // namespace
}  // namespace evg::props
