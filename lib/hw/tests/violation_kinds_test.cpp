// The one table of violation kinds (violation_kinds.def) and the checker registry must agree: what the table
// gives by construction (an enumerator per row, its name) is not tested here; what it cannot give is. Every
// finder the table names is a checker of the registry or the engine, every checker of the registry finds
// some kind, and CheckerConfig::none() switches every checker off. (That a checker reports only its own kinds
// is checked by its scripted tests: ScriptedHost::make.)
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "checkers/scripted_host.hpp"
#include "evg/hw/checker.hpp"
#include "evg/hw/report.hpp"

namespace evg::hw {
namespace {

TEST(ViolationKinds, EveryFinderIsACheckerOfTheRegistryOrTheEngine) {
    std::set<std::string_view> finders = {"engine"};
    for (const CheckerInfo& c : checker_registry()) finders.insert(c.name);
    for (const ViolationKind k : kViolationKinds)
        EXPECT_TRUE(finders.count(violation_kind_finder(k)))
            << violation_kind_name(k) << " names '" << violation_kind_finder(k)
            << "' as its finder, which is neither a checker of the registry nor the engine";
}

TEST(ViolationKinds, EveryCheckerOfTheRegistryFindsSomeKind) {
    for (const CheckerInfo& c : checker_registry())
        EXPECT_FALSE(kinds_found_by(c.name).empty())
            << "checker '" << c.name << "' is the finder of no kind in violation_kinds.def";
}

TEST(ViolationKinds, NoneSwitchesEveryCheckerOffAndTheDefaultEveryOneThatIsNotOptIn) {
    testing::ScriptedHost host({CoreType::AIV});
    EXPECT_TRUE(make_checkers(host, CheckerConfig::none()).empty());
    const CheckerConfig none = CheckerConfig::none();
    EXPECT_FALSE(none.memory || none.uninit) << "none() leaves the operand or never-written checks on";
    size_t default_on = 0;
    for (const CheckerInfo& c : checker_registry()) default_on += !c.opt_in;
    EXPECT_EQ(make_checkers(host, CheckerConfig{}).size(), default_on);
}

}  // namespace
}  // namespace evg::hw
