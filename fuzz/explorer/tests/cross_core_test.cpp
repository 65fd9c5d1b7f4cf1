// Cross-core flags: the patterns where "the k-th wait takes the k-th set" does not hold, decided by execution
// (engine b) and reported as ambiguous by the happens-before engine (engine a); and the exact cases.
#include <gtest/gtest.h>

#include <set>
#include <utility>

#include "evg/explore/builder.hpp"
#include "evg/explore/model.hpp"
#include "verdict_util.hpp"

namespace evg::explore {
namespace {

using enum Pipe;
// Mix launch with one block: AIC0 = core 0, AIV0.0 = core 1, AIV0.1 = core 2.
constexpr int kAic = 0, kAiv0 = 1, kAiv1 = 2;

TEST(CrossCore, ModeTwoHandshakeIsExact) {
    // AIC reads X into L1, tells both AIVs (mode 2); each AIV then overwrites its half of X from its UB.
    for (Chip chip : {Chip::AtlasA2, Chip::Ascend950}) {
        for (bool aiv1_waits : {true, false}) {
            ProgramBuilder b(chip, true, 1);
            int x = b.gm(64, "X"), l1 = b.local(kAic, 64);
            int ub0 = b.local(kAiv0, 32), ub1 = b.local(kAiv1, 32);
            int ci = b.copy_in(kAic, {l1, 0, 64}, {x, 0, 64});
            b.cross_set(kAic, 2, MTE2, 1);
            b.cross_wait(kAiv0, 2, MTE3, 1);
            b.copy_out(kAiv0, {x, 0, 32}, {ub0, 0, 32});
            if (aiv1_waits) b.cross_wait(kAiv1, 2, MTE3, 1);
            int co = b.copy_out(kAiv1, {x, 32, 64}, {ub1, 0, 32});
            Verdict e = explore(b.program());
            if (aiv1_waits) {
                EXPECT_TRUE(e.findings.empty()) << e.text();
            } else {
                // AIV0.1's copy races with the AIC's read, and its counter is left at 1.
                EXPECT_EQ(race_pairs(e), (std::set<std::pair<int, int>>{{b.id(kAic, ci), b.id(kAiv1, co)}}))
                    << e.text();
                EXPECT_EQ(keys(e, FindingKind::counter_left), (std::set<std::string>{"AIV0.1:cross(ns0)1"}));
            }
            for (uint64_t seed : {1, 2}) expect_same(decide(record(b.program(), seed)), e);
        }
    }
}

// One counter set from two unordered pipes of the AIC: the AIVs' first wait may take the FIX set's increment
// while the copy guarded by the MTE2 set is still reading X.
TEST(CrossCore, OneCounterSetFromTwoUnorderedPipes) {
    ProgramBuilder b(Chip::AtlasA2, true, 1);
    int x = b.gm(64, "X"), l1 = b.local(kAic, 64);
    int ci = b.copy_in(kAic, {l1, 0, 64}, {x, 0, 64});
    int s_mte2 = b.cross_set(kAic, 2, MTE2, 1);
    int s_fix = b.cross_set(kAic, 2, FIX, 1);
    b.cross_wait(kAiv0, 2, V, 1);
    int sw = b.scalar_write(kAiv0, {x, 0, 4});
    b.cross_wait(kAiv0, 2, V, 1);
    b.cross_wait(kAiv1, 2, V, 1);
    b.cross_wait(kAiv1, 2, V, 1);
    Verdict e = explore(b.program());
    ASSERT_TRUE(e.complete);
    EXPECT_EQ(race_pairs(e), (std::set<std::pair<int, int>>{{b.id(kAic, ci), b.id(kAiv0, sw)}})) << e.text();
    Verdict a = decide(record(b.program(), 1));
    ASSERT_TRUE(a.has(FindingKind::ambiguous)) << a.text();
    EXPECT_EQ(ids(a, FindingKind::ambiguous), (std::set<int>{b.id(kAic, s_mte2), b.id(kAic, s_fix)}));
    EXPECT_FALSE(a.has(FindingKind::race));  // not claimed: it depends on the ambiguous matching
}

// One flag id used by mode 1 (AIV <-> AIV) and mode 2 (AIC -> AIVs) at once: the AIVs' counters are shared,
// so AIV0.1's wait meant for the AIC may take the mode-1 round instead.
TEST(CrossCore, OneFlagIdInTwoModesAtOnce) {
    ProgramBuilder b(Chip::AtlasA2, true, 1);
    int x = b.gm(64, "X"), l1 = b.local(kAic, 64);
    int ci = b.copy_in(kAic, {l1, 0, 64}, {x, 0, 64});
    b.cross_set(kAic, 2, MTE2, 2);
    b.cross_set(kAiv0, 1, MTE3, 2);
    b.cross_wait(kAiv0, 1, V, 2);
    b.cross_wait(kAiv0, 2, V, 2);
    b.cross_set(kAiv1, 1, MTE3, 2);
    b.cross_wait(kAiv1, 2, V, 2);  // meant for the AIC's set
    int sw = b.scalar_write(kAiv1, {x, 32, 36});
    b.cross_wait(kAiv1, 1, V, 2);
    Verdict e = explore(b.program());
    ASSERT_TRUE(e.complete);
    EXPECT_EQ(race_pairs(e), (std::set<std::pair<int, int>>{{b.id(kAic, ci), b.id(kAiv1, sw)}})) << e.text();
    EXPECT_FALSE(e.has(FindingKind::deadlock));
    Verdict a = decide(record(b.program(), 1));
    ASSERT_TRUE(a.has(FindingKind::ambiguous)) << a.text();
    bool modes_named = false;
    for (const Finding* f : a.of(FindingKind::ambiguous))
        modes_named |= f->message.find("modes") != std::string::npos;
    EXPECT_TRUE(modes_named) << a.text();
}

// Ascend950: two pipes of AIV0.0 wait on one counter. If MTE3 takes the AIC's first increment, V waits for
// the second, which the AIC sends only after V has answered: a deadlock in some schedules only.
TEST(CrossCore, TwoPipesOfOneAivWaitOnOneCounter) {
    ProgramBuilder b(Chip::Ascend950, true, 1);
    int y = b.gm(64, "Y"), ub0 = b.local(kAiv0, 64);
    b.cross_set(kAic, 2, MTE2, 3);
    b.cross_wait(kAic, 2, MTE2, 4);
    b.cross_set(kAic, 2, MTE2, 3);
    int wv = b.cross_wait(kAiv0, 2, V, 3);
    b.vec(kAiv0, {ub0, 0, 32}, {ub0, 32, 64});
    b.cross_set(kAiv0, 2, V, 4);
    int wm = b.cross_wait(kAiv0, 2, MTE3, 3);
    b.copy_out(kAiv0, {y, 0, 32}, {ub0, 32, 64});
    b.cross_wait(kAiv1, 2, V, 3);
    b.cross_set(kAiv1, 2, V, 4);
    b.cross_wait(kAiv1, 2, V, 3);
    Verdict e = explore(b.program());
    ASSERT_TRUE(e.complete);
    // Stuck in that schedule: V's wait, the AIC's wait for the answer, and AIV0.1's second wait.
    EXPECT_EQ(ids(e, FindingKind::deadlock), (std::set<int>{b.id(kAiv0, wv), b.id(kAic, 1), b.id(kAiv1, 2)}))
        << e.text();
    EXPECT_EQ(e.final_memories.size(), 1u);  // other schedules finish
    Verdict a = decide(record(b.program(), 1));
    ASSERT_TRUE(a.has(FindingKind::ambiguous)) << a.text();
    EXPECT_EQ(ids(a, FindingKind::ambiguous), (std::set<int>{b.id(kAiv0, wv), b.id(kAiv0, wm)}));
}

// The same two unordered waits, but the only set of their counter sits behind a wait that is never satisfied:
// nothing is there to compete for, both waits block in every schedule, and nothing is ambiguous (found by the
// sync_program fuzzer: the explorer called it ambiguous, the machine reported the deadlock).
TEST(CrossCore, WaitsCompetingForAnIncrementThatNeverRunsAreNotAmbiguous) {
    ProgramBuilder b(Chip::Ascend950, true, 1);
    int stuck = b.cross_wait(kAic, 2, MTE2, 4);  // nobody sets AIC's flag 4
    b.cross_set(kAic, 2, MTE2, 3);               // queued behind it on MTE2: never runs
    int wv = b.cross_wait(kAiv0, 2, V, 3);
    int wm = b.cross_wait(kAiv0, 2, MTE3, 3);
    Verdict e = explore(b.program());
    ASSERT_TRUE(e.complete);
    EXPECT_EQ(ids(e, FindingKind::deadlock),
              (std::set<int>{b.id(kAic, stuck), b.id(kAiv0, wv), b.id(kAiv0, wm)}))
        << e.text();
    Verdict a = decide(record(b.program(), 1));
    EXPECT_FALSE(a.has(FindingKind::ambiguous)) << a.text();
    expect_same(a, e);
}

// One counter in two modes, but in an order every schedule keeps: each AIV waits for the AIC's mode-2
// increment (on AtlasA2 the wait blocks the whole core) and only then joins the mode-1 round that increments
// the same counter again. No edge orders the two increments until the counter is matched; counting does: the
// wait before the round's set took one increment, and the AIC's is the only other one (found by the
// sync_program fuzzer: the explorer called it ambiguous).
TEST(CrossCore, AWaitBeforeARoundOrdersTheIncrementsOfItsCounter) {
    ProgramBuilder b(Chip::AtlasA2, true, 1);
    int y = b.gm(64, "Y"), ub0 = b.local(kAiv0, 64);
    b.cross_set(kAic, 2, MTE2, 2);
    b.cross_wait(kAiv0, 2, V, 2);
    b.cross_set(kAiv0, 1, MTE3, 2);
    b.cross_wait(kAiv0, 1, V, 2);
    b.copy_in(kAiv0, {ub0, 0, 32}, {y, 0, 32});
    b.cross_set(kAiv1, 1, MTE3, 2);  // AIV0.1 joins the round without waiting: its counter is left at 2
    Verdict e = explore(b.program());
    ASSERT_TRUE(e.complete);
    EXPECT_EQ(keys(e, FindingKind::counter_left), (std::set<std::string>{"AIV0.1:cross(ns0)2"})) << e.text();
    Verdict a = decide(record(b.program(), 1));
    EXPECT_FALSE(a.has(FindingKind::ambiguous)) << a.text();
    expect_same(a, e);
}

// A round takes from each member the next set that executes. AIV0.1 sets flag 5 from V, behind a wait no set
// satisfies, and again from MTE2: the MTE2 set joins AIV0.0's in the round and both round waits pass; only
// the V pipe is stuck. Pairing each member's sets in issue order would put the stuck V set in the round and
// call both round waits deadlocked.
TEST(CrossCore, ARoundTakesTheNextSetThatExecutes) {
    ProgramBuilder b(Chip::AtlasA2, true, 1);
    b.cross_set(kAiv0, 1, V, 1);
    b.cross_wait(kAiv0, 1, V, 1);
    int stuck = b.wait(kAiv1, MTE3, V, 3);  // never set
    b.cross_set(kAiv1, 1, V, 1);            // behind it: never runs
    b.cross_set(kAiv1, 1, MTE2, 1);
    b.cross_wait(kAiv1, 1, MTE2, 1);
    Verdict e = explore(b.program());
    ASSERT_TRUE(e.complete);
    EXPECT_EQ(ids(e, FindingKind::deadlock), (std::set<int>{b.id(kAiv1, stuck)})) << e.text();
    Verdict a = decide(record(b.program(), 1));
    EXPECT_FALSE(a.has(FindingKind::ambiguous)) << a.text();
    expect_same(a, e);
}

// The same round on a counter the AIC also increments in mode 2, with no order between the two: one flag id
// in two modes at once, although one of AIV0.1's round sets never runs (found by the sync_program fuzzer: the
// machine named the two modes, the explorer paired the stuck set into the round and saw one increment).
TEST(CrossCore, TwoModesAtOnceWithARoundWhoseFirstSetOfAMemberNeverRuns) {
    ProgramBuilder b(Chip::AtlasA2, true, 1);
    int aic = b.cross_set(kAic, 2, MTE1, 2);
    int s0 = b.cross_set(kAiv0, 0, MTE3, 2);
    b.wait(kAiv1, MTE3, V, 3);  // never set
    b.cross_set(kAiv1, 0, V, 2);
    b.cross_set(kAiv1, 0, MTE2, 2);
    Verdict a = decide(record(b.program(), 1));
    ASSERT_TRUE(a.has(FindingKind::ambiguous)) << a.text();
    EXPECT_EQ(keys(a, FindingKind::ambiguous),
              (std::set<std::string>{"AIV0.0:cross(ns0)2", "AIV0.1:cross(ns0)2"}))
        << a.text();
    EXPECT_EQ(ids(a, FindingKind::ambiguous), (std::set<int>{b.id(kAic, aic), b.id(kAiv0, s0)})) << a.text();
    for (const Finding* f : a.of(FindingKind::ambiguous))
        EXPECT_NE(f->message.find("used in modes"), std::string::npos) << f->message;
}

// Two mode-2 rounds on one AIC counter, each AIV setting twice in order: the second round's increment lands
// when its last set runs, after each member's first set, so after the first round's, although no one set of
// the second round follows both sets of the first. The AIC's two waits take the rounds in order: its first
// copy races AIV0.0's store (the first round does not carry it), the second does not (found by the
// sync_program fuzzer: the explorer called the counter ambiguous).
TEST(CrossCore, RoundsWhoseMembersEachSetInOrderAreOrdered) {
    for (Chip chip : {Chip::AtlasA2, Chip::Ascend950}) {
        ProgramBuilder b(chip, true, 1);
        int x = b.gm(64, "X"), l1 = b.local(kAic, 64), ub0 = b.local(kAiv0, 32);
        b.cross_set(kAiv0, 2, MTE3, 1);
        int st = b.copy_out(kAiv0, {x, 0, 32}, {ub0, 0, 32});
        b.cross_set(kAiv0, 2, MTE3, 1);
        b.cross_set(kAiv1, 2, MTE2, 1);
        b.cross_set(kAiv1, 2, MTE2, 1);
        b.cross_wait(kAic, 2, MTE2, 1);
        int early = b.copy_in(kAic, {l1, 0, 32}, {x, 0, 32});
        b.cross_wait(kAic, 2, MTE2, 1);
        b.copy_in(kAic, {l1, 32, 64}, {x, 0, 32});
        Verdict e = explore(b.program());
        ASSERT_TRUE(e.complete);
        EXPECT_EQ(race_pairs(e), (std::set<std::pair<int, int>>{{b.id(kAic, early), b.id(kAiv0, st)}}))
            << chip_name(chip) << "\n"
            << e.text();
        for (uint64_t seed : {1, 2, 3}) {
            Verdict a = decide(record(b.program(), seed));
            EXPECT_FALSE(a.has(FindingKind::ambiguous)) << a.text();
            expect_same(a, e);
        }
    }
}

// Ascend950: AIV0.1 takes the AIC's only increment of flag 1 on MTE2, passes that on to its scalar unit, and
// then waits on flag 1 again from V and from MTE3. The two waits are unordered, but the one increment went to
// the wait before both: neither ever passes, so they compete for nothing; both deadlock in every schedule
// (found by the sync_program fuzzer: the explorer called the counter ambiguous).
TEST(CrossCore, UnorderedWaitsAfterTheWaitThatTookTheOnlyIncrementAreNotAmbiguous) {
    ProgramBuilder b(Chip::Ascend950, true, 1);
    b.cross_set(kAic, 2, MTE2, 1);
    b.cross_wait(kAiv0, 2, MTE2, 1);
    b.cross_wait(kAiv1, 2, MTE2, 1);
    b.set(kAiv1, MTE2, S, 4);
    b.wait(kAiv1, MTE2, S, 4);
    int wv = b.cross_wait(kAiv1, 0, V, 1);
    int wm = b.cross_wait(kAiv1, 2, MTE3, 1);
    Verdict e = explore(b.program());
    ASSERT_TRUE(e.complete);
    EXPECT_EQ(ids(e, FindingKind::deadlock), (std::set<int>{b.id(kAiv1, wv), b.id(kAiv1, wm)})) << e.text();
    for (uint64_t seed : {1, 2}) {
        Verdict a = decide(record(b.program(), seed));
        EXPECT_FALSE(a.has(FindingKind::ambiguous)) << a.text();
        expect_same(a, e);
    }
}

// Ascend950: the AIC's mode-2 set of flag 2 sits behind a wait nobody satisfies, so it never lands; AIV0.1
// sets flag 2 in mode 1 from MTE3 and, behind its wait on flag 2, from MTE2. Only the MTE3 set can complete
// the round AIV0.1's wait needs, so the two sets are ordered through it. Pairing the waits with the dead
// increment first left the round unmatched and the sets unordered (found by the sync_program fuzzer: the
// explorer called the round ambiguous).
TEST(CrossCore, AnIncrementThatNeverLandsIsTakenByNoWait) {
    ProgramBuilder b(Chip::Ascend950, true, 1);
    int stuck = b.cross_wait(kAic, 2, FIX, 1);  // nobody sets the AIC's flag 1
    b.cross_set(kAic, 2, FIX, 2);               // behind it: never runs
    b.cross_set(kAiv0, 1, MTE2, 2);
    b.cross_wait(kAiv0, 1, MTE2, 2);
    b.cross_wait(kAiv1, 1, MTE2, 2);
    b.cross_set(kAiv1, 1, MTE3, 2);
    b.cross_set(kAiv1, 1, MTE2, 2);  // joins a second round AIV0.0 never completes
    Verdict e = explore(b.program());
    ASSERT_TRUE(e.complete);
    EXPECT_EQ(ids(e, FindingKind::deadlock), (std::set<int>{b.id(kAic, stuck)})) << e.text();
    for (uint64_t seed : {1, 2}) {
        Verdict a = decide(record(b.program(), seed));
        EXPECT_FALSE(a.has(FindingKind::ambiguous)) << a.text();
        expect_same(a, e);
    }
}

// Ascend950: AIV0.0 sets flag 2 in mode 1 from V behind its wait for the round, and then from MTE3 with
// nothing before it (after storing X). The V set cannot join the round its own wait needs: the MTE3 set joins
// the first round, the V set the second. So AIV0.1's copy after its first wait reads X after the store, and
// the program is clean. Pairing each member's sets in issue order put the V set in the first round (found by
// the sync_program fuzzer: the explorer called the round ambiguous).
TEST(CrossCore, ASetBehindAWaitForItsRoundJoinsTheNextRound) {
    ProgramBuilder b(Chip::Ascend950, true, 1);
    int x = b.gm(64, "X"), ub0 = b.local(kAiv0, 32), ub1 = b.local(kAiv1, 32);
    b.copy_out(kAiv0, {x, 0, 32}, {ub0, 0, 32});
    b.cross_wait(kAiv0, 1, V, 2);
    b.cross_set(kAiv0, 1, V, 2);     // behind the wait: the second round
    b.cross_set(kAiv0, 1, MTE3, 2);  // after the store: the first round
    b.cross_wait(kAiv0, 1, V, 2);
    b.cross_set(kAiv1, 1, MTE3, 2);
    b.cross_wait(kAiv1, 1, MTE2, 2);
    b.copy_in(kAiv1, {ub1, 0, 32}, {x, 0, 32});
    b.cross_set(kAiv1, 1, MTE3, 2);
    b.cross_wait(kAiv1, 1, MTE2, 2);
    Verdict e = explore(b.program());
    ASSERT_TRUE(e.complete);
    EXPECT_TRUE(e.findings.empty()) << e.text();
    for (uint64_t seed : {1, 2, 3}) {
        Verdict a = decide(record(b.program(), seed));
        EXPECT_FALSE(a.has(FindingKind::ambiguous)) << a.text();
        expect_same(a, e);
    }
}

// AIV0.1's mode-1 sets of flag 2: one from MTE2 behind its wait on flag 2, one from MTE3 with nothing before
// it. The wait can take the AIC's mode-2 increment only if the AIC's wait on flag 1 passes first, and that
// needs a mode-2 round AIV0.1 joins only behind the wait: so the wait takes the first mode-1 round, which the
// MTE3 set joins. Counting the AIC's set as "not after the wait" (no edge says it follows) let the MTE2 set
// join the first round, and the attempts that followed learned the AIC's wait and AIV0.1's wait never to run
// (found by the sync_program fuzzer: deadlocks no schedule has).
TEST(CrossCore, AnIncrementThatFollowsTheWaitsThroughAnotherCounterIsNotInTimeForThem) {
    ProgramBuilder b(Chip::Ascend950, true, 1);
    b.cross_wait(kAic, 2, FIX, 1);
    b.cross_set(kAic, 2, FIX, 2);
    b.cross_set(kAiv0, 1, MTE2, 2);
    b.cross_set(kAiv0, 2, MTE2, 1);
    b.cross_wait(kAiv1, 1, MTE2, 2);
    b.cross_set(kAiv1, 2, MTE2, 1);
    b.cross_set(kAiv1, 1, MTE2, 2);  // behind the wait: the second round
    b.cross_set(kAiv1, 1, MTE3, 2);  // the first round
    Verdict e = explore(b.program());
    ASSERT_TRUE(e.complete);
    EXPECT_FALSE(e.has(FindingKind::deadlock)) << e.text();
    for (uint64_t seed : {1, 2, 3}) {
        Verdict a = decide(record(b.program(), seed));
        EXPECT_FALSE(a.has(FindingKind::ambiguous)) << a.text();
        expect_same(a, e);
    }
}

// The AIC waits on flag 1 from MTE2 and from FIX, unordered; a mode-0 set from M and a mode-2 round (AIV0.1's
// set behind its wait on flag 2) increment it, so which wait takes the M set's increment depends on the
// schedule. The attempts chose: AIV0.1's MTE2 set joined the first mode-1 round, its wait so resolved that
// the FIX wait and AIV0.1's wait were learned never to run. Yet an attempt knowing that has the FIX wait's
// increment free (the M set follows neither). A learned wait whose increments come free is a choice taken for
// a fact: the run is decided again without learning waits, and the verdict names the ambiguity instead of a
// deadlock that no schedule has (found by the sync_program fuzzer: the machine reported the ambiguity, the
// explorer a deadlock).
TEST(CrossCore, AWaitLearnedOnAChoiceWhoseIncrementsComeFreeIsNotADeadlock) {
    ProgramBuilder b(Chip::Ascend950, true, 1);
    b.cross_wait(kAic, 0, FIX, 0);
    b.cross_wait(kAic, 2, MTE2, 1);
    b.cross_set(kAic, 0, MTE2, 0);
    b.cross_wait(kAic, 2, FIX, 1);
    b.cross_set(kAic, 0, M, 1);
    b.cross_set(kAic, 2, FIX, 2);
    b.cross_set(kAiv0, 2, MTE2, 1);
    b.cross_set(kAiv0, 1, MTE2, 2);
    const int wait = b.id(kAiv1, b.cross_wait(kAiv1, 1, MTE2, 2));
    b.cross_set(kAiv1, 2, MTE2, 1);
    b.cross_set(kAiv1, 1, MTE2, 2);
    b.cross_set(kAiv1, 1, MTE3, 2);
    Verdict e = explore(b.program());
    ASSERT_TRUE(e.complete);
    EXPECT_FALSE(e.has(FindingKind::deadlock)) << e.text();
    for (uint64_t seed : {1, 2, 3}) {
        Verdict a = decide(record(b.program(), seed));
        EXPECT_TRUE(a.complete) << a.text();
        EXPECT_TRUE(a.has(FindingKind::ambiguous)) << a.text();
        EXPECT_FALSE(ids(a, FindingKind::deadlock).count(wait)) << a.text();
    }
}

// AtlasA2: AIV0.0's first wait on flag 2 (it blocks the core) can only take the AIC's mode-2 increment, since
// both mode-1 rounds need AIV0.0's sets behind it. So the AIC's increment lands before the first round and,
// the rounds landing in order, before the second: one flag id in two modes, but in an order every schedule
// keeps. Counting orders the AIC's increment before the first round only; the order before the second follows
// by transitivity (found by the sync_program fuzzer: the explorer called the counter ambiguous).
TEST(CrossCore, IncrementOrderIsTransitive) {
    ProgramBuilder b(Chip::AtlasA2, true, 1);
    b.cross_set(kAic, 2, MTE2, 2);
    b.cross_wait(kAiv0, 0, V, 2);
    b.cross_set(kAiv0, 1, MTE3, 2);
    b.cross_set(kAiv0, 1, MTE3, 2);
    b.cross_wait(kAiv0, 1, V, 2);
    b.cross_set(kAiv1, 1, MTE3, 2);
    b.cross_set(kAiv1, 1, MTE3, 2);
    Verdict e = explore(b.program());
    ASSERT_TRUE(e.complete);
    EXPECT_EQ(keys(e, FindingKind::counter_left),
              (std::set<std::string>{"AIV0.0:cross(ns0)2", "AIV0.1:cross(ns0)2"}))
        << e.text();
    for (uint64_t seed : {1, 2}) {
        Verdict a = decide(record(b.program(), seed));
        EXPECT_FALSE(a.has(FindingKind::ambiguous)) << a.text();
        expect_same(a, e);
    }
}

// AtlasA2: each AIV's first wait on flag 2 takes the AIC's increment; AIV0.1 then sets flag 2 in mode 1 from
// MTE2, waits again (the first round) and sets again from V. Its two sets are ordered only through that
// round, and the rounds land in order by definition (the second takes each member's second set that runs), so
// the waits take the AIC's increment, then the first round. Without that rule no edge and no count ordered
// the two rounds (found by the sync_program fuzzer: the explorer called the counters ambiguous).
TEST(CrossCore, TheRoundsOfOneFlagLandInOrder) {
    ProgramBuilder b(Chip::AtlasA2, true, 1);
    b.cross_set(kAic, 2, FIX, 2);
    b.cross_wait(kAiv0, 1, MTE2, 2);
    b.cross_set(kAiv0, 1, MTE2, 2);
    b.cross_set(kAiv0, 1, MTE2, 2);
    b.cross_wait(kAiv0, 2, MTE3, 2);
    b.cross_wait(kAiv1, 1, MTE2, 2);
    b.cross_set(kAiv1, 1, MTE2, 2);
    b.cross_wait(kAiv1, 2, MTE3, 2);
    b.cross_set(kAiv1, 1, V, 2);
    Verdict e = explore(b.program());
    ASSERT_TRUE(e.complete);
    EXPECT_EQ(keys(e, FindingKind::counter_left),
              (std::set<std::string>{"AIV0.0:cross(ns0)2", "AIV0.1:cross(ns0)2"}))
        << e.text();
    for (uint64_t seed : {1, 2}) {
        Verdict a = decide(record(b.program(), seed));
        EXPECT_FALSE(a.has(FindingKind::ambiguous)) << a.text();
        expect_same(a, e);
    }
}

// AtlasA2: flag 2 of each AIV takes the AIC's mode-2 increment, then a mode-0 round, then a mode-1 round,
// each AIV waiting (blocking the core) before each of its sets. Counting orders the AIC's increment and the
// mode-0 round before the mode-1 round (two waits precede its sets); that the mode-1 round comes after the
// mode-0 round then leaves the AIC's increment as the only one that can precede the mode-0 round, which one
// wait precedes. The order is grown to a fixpoint (found by the sync_program fuzzer: the explorer called the
// counters ambiguous).
TEST(CrossCore, CountedOrderIsGrownToAFixpoint) {
    ProgramBuilder b(Chip::AtlasA2, true, 1);
    b.cross_set(kAic, 2, MTE2, 2);
    for (int aiv : {kAiv0, kAiv1}) {
        b.cross_wait(aiv, 0, MTE3, 2);
        b.cross_set(aiv, 0, MTE2, 2);
        b.cross_wait(aiv, 2, V, 2);
        b.cross_set(aiv, 1, MTE3, 2);
        b.cross_wait(aiv, 1, V, 2);
    }
    Verdict e = explore(b.program());
    ASSERT_TRUE(e.complete);
    EXPECT_TRUE(e.findings.empty()) << e.text();
    for (uint64_t seed : {1, 2}) {
        Verdict a = decide(record(b.program(), seed));
        EXPECT_FALSE(a.has(FindingKind::ambiguous)) << a.text();
        expect_same(a, e);
    }
}

// AtlasA2: the AIC's mode-2 set, a mode-0 round and a mode-1 round all increment flag 2 of both AIVs. On
// AIV0.1's counter two waits precede its mode-1 set, so the AIC's increment and the mode-0 round land before
// the mode-1 round; on AIV0.0's counter one wait precedes its sets, which with the mode-1 round known to come
// last puts the AIC's increment first. Both facts are about events that increment both counters at once, so
// what one counter proves holds on the other (found by the sync_program fuzzer: the explorer called the
// counters ambiguous).
TEST(CrossCore, LandingOrderFoundOnOneCounterHoldsOnTheOthers) {
    ProgramBuilder b(Chip::AtlasA2, true, 1);
    b.cross_set(kAic, 2, MTE2, 2);
    b.cross_wait(kAiv0, 1, V, 2);
    b.cross_set(kAiv0, 1, MTE3, 2);
    b.cross_set(kAiv0, 0, MTE3, 2);
    b.cross_set(kAiv1, 0, MTE2, 2);
    b.cross_wait(kAiv1, 2, V, 2);
    b.cross_wait(kAiv1, 1, V, 2);
    b.cross_set(kAiv1, 1, MTE3, 2);
    Verdict e = explore(b.program());
    ASSERT_TRUE(e.complete);
    EXPECT_EQ(keys(e, FindingKind::counter_left),
              (std::set<std::string>{"AIV0.0:cross(ns0)2", "AIV0.1:cross(ns0)2"}))
        << e.text();
    for (uint64_t seed : {1, 2}) {
        Verdict a = decide(record(b.program(), seed));
        EXPECT_FALSE(a.has(FindingKind::ambiguous)) << a.text();
        expect_same(a, e);
    }
}

// Ascend950: AIV0.1 sets the AIC's flag 3 in mode 2 from V behind a wait whose increment the AIC sends only
// after that round fired, and from MTE2 with nothing before it. The V set cannot join the round (the graph
// puts it on a cycle through the round's increment): decide again with it held back to the next round, so
// the MTE2 set joins the first (found by the sync_program fuzzer: the explorer called the round ambiguous).
TEST(CrossCore, ASetOnACycleThroughItsRoundIsHeldBackToTheNext) {
    ProgramBuilder b(Chip::Ascend950, true, 1);
    b.cross_set(kAic, 2, MTE2, 3);
    b.cross_wait(kAic, 2, MTE2, 3);
    b.cross_set(kAic, 2, MTE2, 3);
    b.cross_set(kAiv0, 2, MTE3, 3);
    b.cross_wait(kAiv0, 2, MTE3, 3);
    b.cross_wait(kAiv0, 2, MTE3, 3);
    b.cross_wait(kAiv1, 2, V, 3);
    b.cross_wait(kAiv1, 2, V, 3);
    b.cross_set(kAiv1, 2, V, 3);  // behind the AIC's second set, which follows the round
    b.cross_set(kAiv1, 2, MTE2, 3);
    Verdict e = explore(b.program());
    ASSERT_TRUE(e.complete);
    EXPECT_EQ(keys(e, FindingKind::counter_left), (std::set<std::string>{"round(mode2,group0)3"}))
        << e.text();
    for (uint64_t seed : {1, 2}) {
        Verdict a = decide(record(b.program(), seed));
        EXPECT_FALSE(a.has(FindingKind::ambiguous)) << a.text();
        expect_same(a, e);
    }
}

TEST(CrossCore, ModeZeroRoundNeedsEveryParticipant) {
    ProgramBuilder b(Chip::AtlasA2, true, 1);
    b.cross_set(kAiv0, 0, V, 5);
    b.cross_wait(kAiv0, 0, V, 5);
    Verdict e = explore(b.program());
    // AIV0.1 never sets: the round never fires, and AIV0.0's wait never passes.
    EXPECT_EQ(ids(e, FindingKind::deadlock), (std::set<int>{b.id(kAiv0, 1)})) << e.text();
    expect_same(decide(record(b.program(), 1)), e);

    b.cross_set(kAiv1, 0, MTE3, 5);
    b.cross_wait(kAiv1, 0, V, 5);
    Verdict ok = explore(b.program());
    EXPECT_TRUE(ok.findings.empty()) << ok.text();
    expect_same(decide(record(b.program(), 2)), ok);
}

TEST(CrossCore, ModeFourPairsAicFlagsWithOneAiv) {
    ProgramBuilder b(Chip::Ascend950, true, 1);
    b.cross_set(kAic, 4, S, 17);  // AIC flags 16-31 go to AIV1's flags 0-15
    b.cross_wait(kAiv1, 4, V, 1);
    Verdict e = explore(b.program());
    EXPECT_TRUE(e.findings.empty()) << e.text();
    expect_same(decide(record(b.program(), 1)), e);

    ProgramBuilder c(Chip::Ascend950, true, 1);
    c.cross_set(kAic, 4, S, 17);
    c.cross_wait(kAiv0, 4, V, 1);  // AIV0 waits on its own flag 1, which nobody sets
    Verdict d = explore(c.program());
    EXPECT_TRUE(d.has(FindingKind::deadlock)) << d.text();
    expect_same(decide(record(c.program(), 1)), d);
}

}  // namespace
}  // namespace evg::explore
