// Ids the hardware truncates (docs/hardware-model.md §2.2, §3.2): an event id uses bits [2:0], a cross-core
// flag id its low 4 bits (5 for an AIC's mode-4 flags). The machine reports such a use with what the hardware
// makes of it, and runs the instruction with the truncated id, so that the flags pair as on the hardware and
// no race or deadlock is reported because of the id; the same kernel with the ids written as the hardware
// reads them runs clean.
#include <gtest/gtest.h>

#include "ascendc/samples/sync_hazards.hpp"
#include "evg/hw/rules.hpp"

namespace evg::hw::testing {
namespace {

bool has(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

Config cfg_of(ArchId a) {
    Config c;
    c.arch = a;
    return c;
}

TEST(IdTruncation, EventIdAboveSevenIsReportedAsTheIdTheHardwareUses) {
    for (ArchId a : kAllArchs) {
        const auto run = AscendC::samples::run_sync_hazard(cfg_of(a), "event_id_above_7", true);
        const Report& r = run.report;
        const Violation* v = r.first(ViolationKind::illegal_event);
        ASSERT_NE(v, nullptr) << r.text();
        EXPECT_EQ(v->severity, Severity::error);
        EXPECT_TRUE(has(v->message, "SetFlag<MTE2_V>(9) uses event id 9")) << v->message;
        EXPECT_TRUE(has(v->message, "the hardware uses bits [2:0] of the id: this is event id 1"))
            << v->message;
        EXPECT_EQ(r.violations.size(), 1u) << "no race, deadlock or flag left because of the id\n"
                                           << r.text();
        EXPECT_EQ(run.mismatch, "") << "the copy-in is ordered before the compute, as on the hardware";
    }
}

// The truncation is rule R7 (docs/hardware-model.md §17), which no page states: the finding says it rests on
// it, in the text and in report.json; a finding of the same kind that does not truncate (an event of another
// core type's pool) does not.
TEST(IdTruncation, TheFindingSaysItRestsOnTheAssumedRule) {
    const auto run = AscendC::samples::run_sync_hazard(cfg_of(ArchId::Ascend950), "event_id_above_7", true);
    const Report& r = run.report;
    EXPECT_TRUE(has(r.text(), "    rests on assumed rule R7: the hardware reads bits [2:0] of an event id"))
        << r.text();
    EXPECT_TRUE(has(r.json(), R"("rules": [
        "R7",
        "R8",
        "R9"
      ])"))
        << r.json();
    const Violation* v = r.first(ViolationKind::illegal_event);
    ASSERT_NE(v, nullptr);
    Violation pool = *v;
    pool.rules = 0;  // the same kind without the truncation rests on no assumed rule
    EXPECT_EQ(assumed_rules_text(pool), "");
}

TEST(IdTruncation, EventIdsWrittenAsTheHardwareReadsThemRunClean) {
    for (ArchId a : kAllArchs) {
        const auto run = AscendC::samples::run_sync_hazard(cfg_of(a), "event_id_above_7", false);
        EXPECT_TRUE(run.report.violations.empty()) << run.report.text();
        EXPECT_EQ(run.mismatch, "");
    }
}

TEST(IdTruncation, Mode4AivFlagAboveFifteenIsReportedAsTheFlagTheHardwareUses) {
    const auto run =
        AscendC::samples::run_sync_hazard(cfg_of(ArchId::Ascend950), "mode4_aiv_flag_above_15", true);
    const Report& r = run.report;
    const Violation* v = r.first(ViolationKind::illegal_cross_core);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_TRUE(has(v->message, "CrossCoreSetFlag<4, PIPE_MTE3>(17): flag id 17 is above 15")) << v->message;
    EXPECT_TRUE(has(v->message, "keeps only the low 4 bits of the id: this is flag 1")) << v->message;
    EXPECT_EQ(r.violations.size(), 1u) << "no race, deadlock or counter left because of the id\n" << r.text();
    EXPECT_EQ(run.mismatch, "");
    const auto fixed =
        AscendC::samples::run_sync_hazard(cfg_of(ArchId::Ascend950), "mode4_aiv_flag_above_15", false);
    EXPECT_TRUE(fixed.report.violations.empty()) << fixed.report.text();
}

// A flag id above 15 in modes 0-2 keeps its low 4 bits too: flag 18 pairs with flag 2.
TEST(IdTruncation, CrossCoreFlagAboveFifteenPairsWithItsLowBits) {
    using namespace AscendC;
    Device dev(cfg_of(ArchId::AtlasA2));
    Report r = dev.launch(1, KernelType::mix_aic_1_2, [&] {
        if ASCEND_IS_AIC {
            CrossCoreSetFlag<2, PIPE_FIX>(18);
        } else {
            CrossCoreWaitFlag<2, PIPE_MTE2>(2);
        }
    });
    const Violation* v = r.first(ViolationKind::illegal_cross_core);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_TRUE(has(v->message,
                    "flag id 18 is above 15; the hardware keeps only the low 4 bits of the id: this "
                    "is flag 2"))
        << v->message;
    EXPECT_EQ(r.count(ViolationKind::deadlock), 0u) << r.text();
    EXPECT_EQ(r.count(ViolationKind::counter_left_nonzero), 0u) << r.text();
}

}  // namespace
}  // namespace evg::hw::testing
