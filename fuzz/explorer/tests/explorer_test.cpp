// Hand-written intra-core programs whose verdicts are worked out by hand; both engines must give them.
#include <gtest/gtest.h>

#include <set>
#include <utility>

#include "evg/explore/builder.hpp"
#include "evg/explore/model.hpp"
#include "verdict_util.hpp"

namespace evg::explore {
namespace {

using enum Pipe;

// Double buffering on one AIV: 4 tiles through two buffers, GM in -> UB in[b] -> V -> UB out[b] -> GM out.
// `drop_last_mte2_v_wait`: the last tile's V op does not wait for its copy in.
struct DoubleBuffer {
    ProgramBuilder b{Chip::AtlasA2, false, 1};
    int copy_in3 = -1, vec3 = -1, set_v_mte2_3 = -1, last_wait_v_mte2_1 = -1;
    explicit DoubleBuffer(bool drop_last_mte2_v_wait) {
        int gin = b.gm(128, "in"), gout = b.gm(128, "out"), ub = b.local(0, 128);
        for (uint32_t k = 0; k < 4; ++k) {
            int buf = static_cast<int>(k % 2);
            Range in{ub, 32u * k % 64, 32u * k % 64 + 32}, out{ub, 64 + 32u * k % 64, 64 + 32u * k % 64 + 32};
            if (k >= 2) b.wait(0, V, MTE2, buf);
            int ci = b.copy_in(0, in, {gin, 32 * k, 32 * k + 32});
            b.set(0, MTE2, V, buf);
            if (!(drop_last_mte2_v_wait && k == 3)) b.wait(0, MTE2, V, buf);
            if (k >= 2) b.wait(0, MTE3, V, buf);
            int vi = b.vec(0, out, in);
            int sv = b.set(0, V, MTE2, buf);
            b.set(0, V, MTE3, buf);
            b.wait(0, V, MTE3, buf);
            b.copy_out(0, {gout, 32 * k, 32 * k + 32}, out);
            b.set(0, MTE3, V, buf);
            if (k == 3) {
                copy_in3 = b.id(0, ci);
                vec3 = b.id(0, vi);
                set_v_mte2_3 = b.id(0, sv);
            }
        }
        for (int buf = 0; buf < 2; ++buf) {
            last_wait_v_mte2_1 = b.id(0, b.wait(0, V, MTE2, buf));
            b.wait(0, MTE3, V, buf);
        }
    }
};

TEST(Explorer, DoubleBufferingIsClean) {
    DoubleBuffer db(false);
    Verdict e = explore(db.b.program());
    ASSERT_TRUE(e.complete);
    EXPECT_TRUE(e.findings.empty()) << e.text();
    EXPECT_EQ(e.final_memories.size(), 1u);
    for (uint64_t seed : {1, 2, 3}) EXPECT_TRUE(decide(record(db.b.program(), seed)).findings.empty());
}

// Without the wait, the last tile's V op races with its copy in; and nothing now holds V's last
// SetFlag<V_MTE2>(1) back until MTE2 has consumed the previous one, so it may find the flag set: in that
// schedule the set is lost and the final WaitFlag<V_MTE2>(1) waits forever. MTE2_V(1) is left set.
TEST(Explorer, DoubleBufferingWithoutAWaitRacesSetsTwiceAndMayDeadlock) {
    DoubleBuffer db(true);
    Verdict e = explore(db.b.program());
    ASSERT_TRUE(e.complete);
    EXPECT_EQ(race_pairs(e), (std::set<std::pair<int, int>>{{db.copy_in3, db.vec3}})) << e.text();
    EXPECT_EQ(ids(e, FindingKind::set_twice), (std::set<int>{db.set_v_mte2_3}));
    EXPECT_EQ(ids(e, FindingKind::deadlock), (std::set<int>{db.last_wait_v_mte2_1}));
    EXPECT_EQ(keys(e, FindingKind::flag_left), (std::set<std::string>{"AIV0:MTE2_V(1)"}));
    EXPECT_GT(e.final_memories.size(), 1u);  // the V op may read the old or the new tile
    for (uint64_t seed : {1, 2, 3}) {
        Verdict a = decide(record(db.b.program(), seed));
        EXPECT_EQ(race_pairs(a), race_pairs(e));
        EXPECT_EQ(ids(a, FindingKind::set_twice), ids(e, FindingKind::set_twice));
    }
}

// Where the reads of a race-free run take their bytes from.
std::vector<std::vector<int>> writers_of(const Verdict& v, int reader) {
    std::vector<std::vector<int>> out;
    for (const ReadFrom& r : v.reads_from)
        if (r.reader == reader) out.push_back(r.writers);
    return out;
}

TEST(Explorer, DoubleBufferingReadsEachTileFromItsOwnCopy) {
    DoubleBuffer db(false);
    for (uint64_t seed : {1, 2, 3}) {
        std::vector<ReadFrom> seen;
        const Verdict a = decide(record(db.b.program(), seed, &seen));
        ASSERT_TRUE(a.reads_known);
        EXPECT_EQ(a.reads_from, seen);
        EXPECT_EQ(writers_of(a, db.vec3), (std::vector<std::vector<int>>{{db.copy_in3}}));
        EXPECT_EQ(writers_of(a, db.copy_in3),
                  (std::vector<std::vector<int>>{{}}));  // GM in: no write in the run
    }
    // A run with a finding has no reads to give: two writes of one byte may land in either order.
    EXPECT_FALSE(decide(record(DoubleBuffer(true).b.program(), 1)).reads_known);
}

// The V op after its copy in, and the same two ops with the flags turned round so that the copy waits for the
// V op: both race-free, but the second V op reads the buffer before anything wrote it, in every schedule.
TEST(Explorer, AReorderingIsRaceFreeAndChangesWhereAReadTakesItsBytes) {
    auto build = [](bool reordered, int& copy, int& vec) {
        ProgramBuilder b(Chip::AtlasA2, false, 1);
        const int g = b.gm(64, "in"), ub = b.local(0, 64);
        if (!reordered) {
            copy = b.id(0, b.copy_in(0, {ub, 0, 32}, {g, 0, 32}));
            b.set(0, MTE2, V, 0);
            b.wait(0, MTE2, V, 0);
            vec = b.id(0, b.vec(0, {ub, 32, 64}, {ub, 0, 32}));
        } else {
            vec = b.id(0, b.vec(0, {ub, 32, 64}, {ub, 0, 32}));
            b.set(0, V, MTE2, 0);
            b.wait(0, V, MTE2, 0);
            copy = b.id(0, b.copy_in(0, {ub, 0, 32}, {g, 0, 32}));
        }
        return b.program();
    };
    int copy = 0, vec = 0;
    const Program in_order = build(false, copy, vec);
    const Verdict a = decide(record(in_order, 1));
    ASSERT_TRUE(a.findings.empty()) << a.text();
    EXPECT_EQ(writers_of(a, vec), (std::vector<std::vector<int>>{{copy}}));
    const Program turned = build(true, copy, vec);
    const Verdict b = decide(record(turned, 1));
    ASSERT_TRUE(b.findings.empty()) << b.text();
    EXPECT_TRUE(explore(turned).findings.empty());
    EXPECT_EQ(writers_of(b, vec), (std::vector<std::vector<int>>{{}}));
}

// Atomic writes of one byte may land in either order, and a read after them sees all of them; a non-atomic
// write after them hides them. (Engine b has no atomic ops: the accesses of a recorded run are made atomic.)
TEST(Explorer, AReadSeesEveryAtomicWriteSinceTheLastPlainOne) {
    ProgramBuilder b(Chip::AtlasA2, false, 1);
    const int g = b.gm(64, "out"), ub = b.local(0, 64);
    const int first = b.id(0, b.copy_out(0, {g, 0, 32}, {ub, 0, 32}));
    const int second = b.id(0, b.copy_out(0, {g, 0, 32}, {ub, 32, 64}));
    b.barrier(0, ALL);
    const int read = b.id(0, b.scalar_read(0, {g, 0, 4}));
    const int plain = b.id(0, b.scalar_write(0, {g, 0, 4}));
    const int read_again = b.id(0, b.scalar_read(0, {g, 0, 4}));
    explore::Run run = record(b.program(), 1);
    ASSERT_FALSE(decide(run).findings.empty());  // two copies out to one GM range race
    for (Instr& in : run.instrs)
        if (in.id == first || in.id == second)
            for (Access& a : in.accesses)
                if (a.write) a.atomic = true;
    const Verdict v = decide(run);
    ASSERT_TRUE(v.findings.empty()) << v.text();
    EXPECT_EQ(writers_of(v, read),
              (std::vector<std::vector<int>>{{std::min(first, second), std::max(first, second)}}));
    EXPECT_EQ(writers_of(v, read_again), (std::vector<std::vector<int>>{{plain}}));
}

TEST(Explorer, SetTwice) {
    ProgramBuilder b(Chip::AtlasA2, false, 1);
    int s1 = b.set(0, MTE2, V, 0);
    int s2 = b.set(0, MTE2, V, 0);
    int w1 = b.wait(0, MTE2, V, 0);
    int w2 = b.wait(0, MTE2, V, 0);
    Verdict e = explore(b.program());
    EXPECT_EQ(ids(e, FindingKind::set_twice), (std::set<int>{b.id(0, s2)}));
    // The second set is lost when it lands on a set flag: the second wait then never passes.
    EXPECT_EQ(ids(e, FindingKind::deadlock), (std::set<int>{b.id(0, w2)}));
    Verdict a = decide(record(b.program(), 1));
    EXPECT_EQ(ids(a, FindingKind::set_twice), (std::set<int>{b.id(0, s2)}));
    (void)s1;
    (void)w1;
}

TEST(Explorer, MissingSetDeadlocks) {
    ProgramBuilder b(Chip::AtlasA2, false, 1);
    int g = b.gm(64), ub = b.local(0, 64);
    b.copy_in(0, {ub, 0, 32}, {g, 0, 32});
    int w = b.wait(0, MTE2, V, 0);
    b.vec(0, {ub, 32, 64}, {ub, 0, 32});
    Verdict e = explore(b.program());
    EXPECT_EQ(ids(e, FindingKind::deadlock), (std::set<int>{b.id(0, w)})) << e.text();
    EXPECT_FALSE(e.has(FindingKind::race));  // the V op never runs
    EXPECT_TRUE(e.final_memories.empty());
    expect_same(decide(record(b.program(), 7)), e);
}

TEST(Explorer, FlagLeft) {
    ProgramBuilder b(Chip::AtlasA2, false, 1);
    b.set(0, V, MTE3, 0);
    Verdict e = explore(b.program());
    EXPECT_EQ(keys(e, FindingKind::flag_left), (std::set<std::string>{"AIV0:V_MTE3(0)"}));
    expect_same(decide(record(b.program(), 1)), e);
}

// Two V ops, the second reads what the first writes.
Program two_vector_ops(Chip chip, bool barrier) {
    ProgramBuilder b(chip, false, 1);
    int ub = b.local(0, 96);
    b.vec(0, {ub, 0, 32}, {ub, 32, 64});
    if (barrier) b.barrier(0, V);
    b.vec(0, {ub, 64, 96}, {ub, 0, 32});
    return b.program();
}

TEST(Explorer, SamePipeRaceOnAtlasA2NeedsABarrier) {
    Verdict racy = explore(two_vector_ops(Chip::AtlasA2, false));
    EXPECT_EQ(race_pairs(racy), (std::set<std::pair<int, int>>{{0, 1}}));
    EXPECT_EQ(racy.final_memories.size(), 2u);
    expect_same(decide(record(two_vector_ops(Chip::AtlasA2, false), 3)), racy);

    Verdict fixed = explore(two_vector_ops(Chip::AtlasA2, true));
    EXPECT_TRUE(fixed.findings.empty()) << fixed.text();
    EXPECT_EQ(fixed.final_memories.size(), 1u);
    expect_same(decide(record(two_vector_ops(Chip::AtlasA2, true), 3)), fixed);
}

TEST(Explorer, Ascend950KeepsVectorOrder) {
    Verdict e = explore(two_vector_ops(Chip::Ascend950, false));
    EXPECT_TRUE(e.findings.empty()) << e.text();
    EXPECT_EQ(e.final_memories.size(), 1u);
    expect_same(decide(record(two_vector_ops(Chip::Ascend950, false), 3)), e);
}

TEST(Explorer, CopiesToOneUbRangeRaceOnBothChips) {
    for (Chip chip : {Chip::AtlasA2, Chip::Ascend950}) {
        ProgramBuilder b(chip, false, 1);
        int g = b.gm(64), ub = b.local(0, 32);
        b.copy_in(0, {ub, 0, 32}, {g, 0, 32});
        b.copy_in(0, {ub, 0, 32}, {g, 32, 64});
        Verdict e = explore(b.program());
        EXPECT_EQ(race_pairs(e), (std::set<std::pair<int, int>>{{0, 1}}));
        expect_same(decide(record(b.program(), 1)), e);
    }
}

// A set does not hold back the later instructions of its pipe: the V op after it may still overlap the first.
TEST(Explorer, SetIsNoBarrierForLaterInstructions) {
    ProgramBuilder b(Chip::AtlasA2, false, 1);
    int ub = b.local(0, 96);
    b.vec(0, {ub, 0, 32}, {ub, 32, 64});
    b.set(0, V, MTE3, 0);
    b.vec(0, {ub, 64, 96}, {ub, 0, 32});
    b.wait(0, V, MTE3, 0);
    Verdict e = explore(b.program());
    EXPECT_EQ(race_pairs(e), (std::set<std::pair<int, int>>{{0, 2}}));
    expect_same(decide(record(b.program(), 2)), e);
}

// A scalar wait blocks issue: the copy issued after it is ordered after the V op before the set.
TEST(Explorer, ScalarWaitOrdersWhatIsIssuedAfterIt) {
    ProgramBuilder b(Chip::AtlasA2, false, 1);
    int g = b.gm(32), ub = b.local(0, 64);
    b.vec(0, {ub, 0, 32}, {ub, 32, 64});
    b.set(0, V, S, 0);
    b.wait(0, V, S, 0);
    b.copy_out(0, {g, 0, 32}, {ub, 0, 32});
    Verdict e = explore(b.program());
    EXPECT_TRUE(e.findings.empty()) << e.text();
    expect_same(decide(record(b.program(), 2)), e);
}

TEST(Explorer, MalformedProgramsAreRejectedWithTheRule) {
    ProgramBuilder b(Chip::Ascend950, true, 1);
    b.copy_out(0, {0, 0, 32}, {0, 0, 32});  // on the AIC
    try {
        explore(b.program());
        FAIL() << "accepted";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("AIC0 op 0"), std::string::npos) << e.what();
    }
    ProgramBuilder c(Chip::AtlasA2, true, 1);
    c.cross_set(1, 4, V, 0);  // mode 4 on AtlasA2
    EXPECT_THROW(explore(c.program()), Error);
}

}  // namespace
}  // namespace evg::explore
