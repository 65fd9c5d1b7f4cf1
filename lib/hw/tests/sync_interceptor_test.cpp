// The sync interceptor alone, in front of a recording issuer instead of a core: what each mutation makes of
// the calls it names, with the tags the trace would record, and the plan's account of what was applied.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "evg/hw/sync_interceptor.hpp"

namespace evg::hw {
namespace {

class RecordingIssuer final : public SyncIssuer {
  public:
    std::vector<std::string> issued;
    void issue_set(HardEvent e, int id, Site, CallTag tag, bool check) override {
        issued.push_back(fmt::format("set {}({}) @{}/{}{}", event_name(e), id, tag.stream, tag.sync,
                                     check ? " checked" : ""));
    }
    void issue_wait(HardEvent e, int id, Site, CallTag tag, bool check) override {
        issued.push_back(fmt::format("wait {}({}) @{}/{}{}", event_name(e), id, tag.stream, tag.sync,
                                     check ? " checked" : ""));
    }
    void issue_barrier(Pipe p, Site, CallTag tag) override {
        issued.push_back(fmt::format("barrier {} @{}/{}", pipe_name(p), tag.stream, tag.sync));
    }
    void issue_pair(HardEvent e, int id, Site, CallTag tag) override {
        issued.push_back(fmt::format("pair {}({}) @{}/{}", event_name(e), id, tag.stream, tag.sync));
    }
    void issue_cross_set(uint8_t mode, Pipe p, uint16_t flag, Site, CallTag tag, bool) override {
        issued.push_back(
            fmt::format("cross-set {} {} {} @{}/{}", mode, pipe_name(p), flag, tag.stream, tag.sync));
    }
    void issue_cross_wait(uint8_t mode, Pipe p, uint16_t flag, Site, CallTag tag, bool) override {
        issued.push_back(
            fmt::format("cross-wait {} {} {} @{}/{}", mode, pipe_name(p), flag, tag.stream, tag.sync));
    }
    std::string short_name() const override { return "AIV0"; }
    bool aborting() const override { return false; }
};

// A core's program of calls, numbered as Core::begin_call numbers them, sent through the interceptor.
struct Script {
    std::vector<SyncMutation> mutations;
    MutationPlan plan;
    SyncInterceptor interceptor;
    RecordingIssuer core;
    uint32_t stream = 0;
    int32_t sync = 0;

    explicit Script(const std::string& text)
        : mutations(parse_sync_mutations(text)), plan(mutations), interceptor(plan) {
        for (size_t i = 0; i < mutations.size(); ++i) interceptor.add(static_cast<int>(i));
    }
    CallTag begin(bool is_sync) {
        interceptor.before_call(core, ++stream, {});
        return {stream, is_sync ? sync++ : -1};
    }
    void set(HardEvent e, int id) {
        const CallTag t = begin(true);
        interceptor.set_flag(core, t, e, id, {});
        interceptor.after_call(core);
    }
    void wait(HardEvent e, int id) {
        const CallTag t = begin(true);
        interceptor.wait_flag(core, t, e, id, {});
        interceptor.after_call(core);
    }
    void plain() {
        const CallTag t = begin(false);
        core.issued.push_back(fmt::format("plain @{}", t.stream));
        interceptor.after_call(core);
    }
    std::vector<std::string> unapplied() const {
        return plan.unapplied([this](const std::string&) { return sync; });
    }
};

TEST(SyncInterceptor, AnUnnamedCallIsIssuedUnchangedWithItsTag) {
    Script s("drop-wait core=AIV0 n=5");
    s.set(HardEvent::MTE2_V, 0);
    s.wait(HardEvent::MTE2_V, 0);
    EXPECT_EQ(s.core.issued, (std::vector<std::string>{"set MTE2_V(0) @1/0", "wait MTE2_V(0) @2/1"}));
}

TEST(SyncInterceptor, DropWaitIssuesNothingAndIsApplied) {
    Script s("drop-wait core=AIV0 n=1");
    s.set(HardEvent::MTE2_V, 0);
    s.wait(HardEvent::MTE2_V, 0);
    EXPECT_EQ(s.core.issued, (std::vector<std::string>{"set MTE2_V(0) @1/0"}));
    EXPECT_TRUE(s.unapplied().empty());
}

TEST(SyncInterceptor, DupSetIssuesASecondSetWithoutASyncIndex) {
    Script s("dup-set core=AIV0 n=0");
    s.set(HardEvent::V_MTE3, 2);
    EXPECT_EQ(s.core.issued, (std::vector<std::string>{"set V_MTE3(2) @1/0", "set V_MTE3(2) @1/-1"}));
}

TEST(SyncInterceptor, AReNumberedSetIsCheckedAgain) {
    Script s("set-id core=AIV0 n=0 id=3");
    s.set(HardEvent::V_MTE3, 2);
    EXPECT_EQ(s.core.issued, (std::vector<std::string>{"set V_MTE3(3) @1/0 checked"}));
}

TEST(SyncInterceptor, AMovedWaitComesAfterTheNextCallsWithItsOwnTag) {
    Script s("move-wait core=AIV0 n=1 by=2");
    s.set(HardEvent::MTE2_V, 0);
    s.wait(HardEvent::MTE2_V, 0);
    s.plain();
    s.plain();
    s.plain();
    EXPECT_EQ(s.core.issued, (std::vector<std::string>{"set MTE2_V(0) @1/0", "plain @3", "plain @4",
                                                       "wait MTE2_V(0) @2/1", "plain @5"}));
}

TEST(SyncInterceptor, AWaitMovedPastTheKernelsEndIsIssuedWhenItFinishes) {
    Script s("move-wait core=AIV0 n=1 by=9");
    s.set(HardEvent::MTE2_V, 0);
    s.wait(HardEvent::MTE2_V, 0);
    s.interceptor.finish(s.core);
    EXPECT_EQ(s.core.issued.back(), "wait MTE2_V(0) @2/1");
}

TEST(SyncInterceptor, AMovedSetIsIssuedBeforeItsPositionAndTaggedAsItsCall) {
    Script s("move-set core=AIV0 n=1 by=2 at=2 event=MTE2_V id=0");
    s.plain();                    // stream 1
    s.plain();                    // stream 2: the moved set is issued just before it
    s.set(HardEvent::MTE2_V, 0);  // stream 3: the program's set n=0
    s.set(HardEvent::MTE2_V, 0);  // stream 4: n=1, which the early set stands for: not issued again
    EXPECT_EQ(s.core.issued, (std::vector<std::string>{"plain @1", "set MTE2_V(0) @4/1 checked", "plain @2",
                                                       "set MTE2_V(0) @3/0"}));
    EXPECT_TRUE(s.unapplied().empty()) << s.unapplied().front();
}

TEST(SyncInterceptor, InsertedCallsPrecedeTheirCallWithoutASyncIndex) {
    Script s("insert-barrier core=AIV0 n=0 pipe=V; insert-pair core=AIV0 n=0 event=V_MTE3 id=5");
    s.set(HardEvent::MTE2_V, 0);
    EXPECT_EQ(s.core.issued,
              (std::vector<std::string>{"barrier V @1/-1", "pair V_MTE3(5) @1/-1", "set MTE2_V(0) @1/0"}));
}

TEST(SyncInterceptor, AMutationOfTheWrongKindIsNotAppliedAndSaysWhy) {
    Script s("drop-wait core=AIV0 n=0");
    s.set(HardEvent::MTE2_V, 0);
    EXPECT_EQ(s.core.issued, (std::vector<std::string>{"set MTE2_V(0) @1/0"}));
    ASSERT_EQ(s.unapplied().size(), 1u);
    EXPECT_EQ(s.unapplied()[0],
              "drop-wait core=AIV0 n=0: sync call n=0 of AIV0 is a SetFlag, not a WaitFlag");
}

TEST(SyncInterceptor, AMutationNeverReachedSaysHowManyCallsTheCoreMade) {
    Script s("drop-wait core=AIV0 n=7");
    s.set(HardEvent::MTE2_V, 0);
    ASSERT_EQ(s.unapplied().size(), 1u);
    EXPECT_EQ(s.unapplied()[0],
              "drop-wait core=AIV0 n=7: AIV0 made 1 sync call(s); sync call n=7 was never reached");
}

}  // namespace
}  // namespace evg::hw
