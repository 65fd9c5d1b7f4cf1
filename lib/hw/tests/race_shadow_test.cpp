// The race shadow's history: which earlier accesses a new access is checked against.
#include <gtest/gtest.h>

#include "evg/hw/race_shadow.hpp"

namespace evg::hw {
namespace {

// Nothing is ordered: every epoch of every agent is concurrent with the access being checked.
bool unordered(const Epoch&) {
    return false;
}

TEST(RaceShadow, InPlaceInstructionChecksItsWriteAgainstAnEarlierReadOfItsOwnAgent) {
    RaceShadow s;
    std::vector<Conflict> conflicts;
    AccessRecord r1{{1, 1}, 10, false};  // agent 1 (one unordered pipe), epoch 1, instruction #10
    AccessRecord x{{1, 2}, 11, false};   // instruction #11 of the same pipe reads, then writes, the bytes
    s.access(0, 64, false, r1, unordered, conflicts);
    s.access(0, 64, false, x, unordered, conflicts);
    EXPECT_TRUE(conflicts.empty());
    s.access(0, 64, true, x, unordered, conflicts);
    ASSERT_EQ(conflicts.size(), 1u);
    EXPECT_EQ(conflicts[0].earlier.instr, 10u);
    EXPECT_FALSE(conflicts[0].earlier_is_write);
}

TEST(RaceShadow, AnOrderedEarlierReadOfTheSameAgentIsReplaced) {
    RaceShadow s;
    std::vector<Conflict> conflicts;
    auto before = [](const Epoch& e) { return e.agent == 1 && e.epoch <= 1; };  // #10 happens-before
    s.access(0, 64, false, {{1, 1}, 10, false}, unordered, conflicts);
    s.access(0, 64, false, {{1, 2}, 11, false}, before, conflicts);
    EXPECT_TRUE(conflicts.empty());
    // A writer of another agent, ordered after neither read, conflicts with #11 only: #10 was replaced, and
    // whatever is ordered after #11 is ordered after #10.
    s.access(0, 64, true, {{2, 1}, 12, false}, unordered, conflicts);
    ASSERT_EQ(conflicts.size(), 1u);
    EXPECT_EQ(conflicts[0].earlier.instr, 11u);
    EXPECT_FALSE(conflicts[0].earlier_is_write);
}

}  // namespace
}  // namespace evg::hw
