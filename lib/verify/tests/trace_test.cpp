// The trace queries read the structured fields of hw::TraceEntry, never the op text.
#include <gtest/gtest.h>

#include "evg/verify/trace.hpp"

namespace evg::verify {
namespace {

hw::TraceEntry sync(hw::InstrKind kind, int core, hw::HardEvent e, int id) {
    hw::TraceEntry t;
    t.kind = kind;
    t.core = core;
    t.event = e;
    t.event_id = id;
    t.set_op("SetFlag<MTE2_V>(0)");  // deliberately wrong: nothing may read it
    return t;
}

TEST(Trace, FlagsBalancePerCoreEventAndId) {
    using hw::HardEvent;
    using hw::InstrKind;
    hw::Trace t = {
        sync(InstrKind::set_flag, 0, HardEvent::V_MTE3, 1),
        sync(InstrKind::wait_flag, 0, HardEvent::V_MTE3, 1),
        sync(InstrKind::set_flag, 1, HardEvent::V_MTE3, 1),  // another core: its own count
        sync(InstrKind::set_flag, 0, HardEvent::MTE2_V, 2),
        sync(InstrKind::wait_flag, 0, HardEvent::MTE2_V, 3),
    };
    const std::vector<FlagImbalance> bad = unbalanced_flags(t);
    ASSERT_EQ(bad.size(), 3u);
    // Cores are named as the report names them: an AIV-only launch of 2 has AIV 0 and AIV 1.
    EXPECT_EQ(to_string(bad[0], hw::KernelType::aiv_only, 2), "AIV 0 MTE2_V(2): 1 sets, 0 waits");
    EXPECT_EQ(to_string(bad[1], hw::KernelType::aiv_only, 2), "AIV 0 MTE2_V(3): 0 sets, 1 waits");
    EXPECT_EQ(to_string(bad[2], hw::KernelType::aiv_only, 2), "AIV 1 V_MTE3(1): 1 sets, 0 waits");
    t.push_back(sync(InstrKind::wait_flag, 1, HardEvent::V_MTE3, 1));
    EXPECT_EQ(unbalanced_flags(t).size(), 2u);
}

TEST(Trace, EventsUsedAndCountsPerKind) {
    hw::Trace t = {sync(hw::InstrKind::set_flag, 0, hw::HardEvent::V_MTE3, 0),
                   sync(hw::InstrKind::wait_flag, 0, hw::HardEvent::MTE2_V, 0),
                   sync(hw::InstrKind::barrier, 0, hw::HardEvent::MAX, -1),
                   sync(hw::InstrKind::plain, 0, hw::HardEvent::MAX, -1),
                   sync(hw::InstrKind::cross_set, 0, hw::HardEvent::MAX, -1)};
    EXPECT_EQ(events_used(t), (std::vector<std::string>{"MTE2_V", "V_MTE3"}));
    const SyncCounts c = sync_counts(t);
    EXPECT_EQ(c, (SyncCounts{1, 1, 1, 1, 1, 0}));
}

}  // namespace
}  // namespace evg::verify
