// The one table of violation kinds (violation_kinds.def): every kind in enumerator order, named by its
// enumerator (the name reports, the JSON and the conformance controls use), with a sentence saying when it
// fires.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "evg/hw/report.hpp"

namespace evg::hw {
namespace {

TEST(ViolationKinds, TheTableGivesEveryKindInOrderWithANameAndAMeaning) {
    ASSERT_EQ(std::size(kViolationKinds), static_cast<size_t>(ViolationKind::redundant_wait) + 1);
    std::set<std::string> names;
    for (size_t i = 0; i < std::size(kViolationKinds); ++i) {
        const ViolationKind k = kViolationKinds[i];
        EXPECT_EQ(static_cast<size_t>(k), i);
        const std::string name(violation_kind_name(k));
        EXPECT_TRUE(names.insert(name).second) << name;
        EXPECT_NE(name, "?");
        EXPECT_FALSE(violation_kind_meaning(k).empty()) << name;
    }
    EXPECT_EQ(violation_kind_name(ViolationKind::race), "race");
    EXPECT_EQ(violation_kind_name(ViolationKind::flag_left_set), "flag_left_set");
    EXPECT_EQ(violation_kind_meaning(ViolationKind::flag_left_set), "a flag still set at kernel end");
}

}  // namespace
}  // namespace evg::hw
