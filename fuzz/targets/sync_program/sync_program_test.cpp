// The sync_program target's parts: decoding is total and invertible on the seeds, the checked-in corpus is
// the seeds' encoding, sites map back to ops, and the comparison names both false alarms and misses.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "evg/explore/builder.hpp"
#include "sync_program.hpp"

namespace evg::fuzz {
namespace {

TEST(SyncProgramDecode, EveryByteStringIsAValidSmallProgram) {
    std::mt19937_64 rng(7);
    for (int n = 0; n < 3000; ++n) {
        std::vector<uint8_t> bytes(rng() % 80);
        for (auto& b : bytes) b = static_cast<uint8_t>(rng());
        explore::Program p = decode_sync_program(bytes.data(), bytes.size());
        EXPECT_NO_THROW(explore::validate(p));
        EXPECT_LE(p.op_count(), kMaxOps);
        EXPECT_LE(p.topo.cores.size(), 3u);
    }
}

TEST(SyncProgramDecode, SeedsRoundTripAndMatchTheCorpus) {
    for (const auto& [name, program] : sync_program_seeds()) {
        std::vector<uint8_t> bytes = encode_sync_program(program);
        explore::Program back = decode_sync_program(bytes.data(), bytes.size());
        EXPECT_EQ(describe_program(back), describe_program(program)) << name;
        std::ifstream in(std::filesystem::path(EVG_SYNC_PROGRAM_CORPUS) / (name + ".bin"), std::ios::binary);
        std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        EXPECT_EQ(file, bytes)
            << name << ": regenerate with sync_program_campaign --write-seeds fuzz/corpus/sync_program";
    }
}

TEST(SyncProgramDecode, SitesNameOps) {
    const auto seeds = sync_program_seeds();
    const explore::Program& p = seeds.front().second;  // one AIV, 7 ops
    EXPECT_EQ(op_of_site(p, "core0:1"), 0);
    EXPECT_EQ(op_of_site(p, "core0:7"), 6);
    EXPECT_EQ(op_of_site(p, "core0:8"), -1);
    EXPECT_EQ(op_of_site(p, "core1:1"), -1);
    EXPECT_EQ(op_of_site(p, "kernel.cpp:3"), -1);
}

hw::Violation race(const std::string& a, const std::string& b) {
    hw::Violation v{hw::ViolationKind::race, hw::Severity::error, "race", {}, 1};
    v.locations.resize(2);
    v.locations[0].site = a;
    v.locations[1].site = b;
    return v;
}

TEST(SyncProgramCompare, NamesFalseAlarmsAndMisses) {
    // Two V ops on AtlasA2, the second reads what the first writes: one race between ops 0 and 1.
    const explore::Program p = sync_program_seeds()[3].second;
    const explore::Verdict e = explore::explore(p);
    ASSERT_TRUE(e.has(explore::FindingKind::race));
    hw::Report agree;
    agree.violations.push_back(race("core0:1", "core0:2"));
    EXPECT_EQ(compare_verdicts(p, agree, e), "");
    hw::Report silent;
    EXPECT_NE(compare_verdicts(p, silent, e).find("miss"), std::string::npos);
    const explore::Program fixed = sync_program_seeds()[4].second;  // with the barrier: clean
    const explore::Verdict clean = explore::explore(fixed);
    hw::Report alarm;
    alarm.violations.push_back(race("core0:1", "core0:3"));
    EXPECT_NE(compare_verdicts(fixed, alarm, clean).find("false alarm"), std::string::npos);
    EXPECT_EQ(compare_verdicts(fixed, silent, clean), "");
}

// One flag id in mode 1 and mode 2 at once (mix launch): the storing AIV writes G0 and sets flag 2 in mode 1
// from MTE3 after the store, and joins a mode-2 round on flag 1 from MTE2 (not after the store); the reading
// AIV sets flag 2 (mode 1) and flag 1 (mode 2) from MTE2, waits on flag 2 and reads G0; the AIC waits on flag
// 1 and sets flag 2 in mode 2. The reader's first wait may take the AIC's increment. Kept in
// regressions/sync_program/ for both chips and both storers.
explore::Program round_and_mode2_set(explore::Chip chip, int storer) {
    using enum explore::Pipe;
    explore::ProgramBuilder b(chip, true, 1);
    const int g0 = b.gm(kBytes, "G0"), g1 = b.gm(kBytes, "G1");
    (void)g1;
    const std::vector<int> local = {b.local(0, kBytes), b.local(1, kBytes), b.local(2, kBytes)};
    const int reader = 3 - storer;
    b.cross_wait(0, 2, FIX, 1);
    b.cross_set(0, 2, FIX, 2);
    b.copy_out(storer, {g0, 0, 32}, {local[static_cast<size_t>(storer)], 0, 32});
    b.cross_set(storer, 1, MTE3, 2);
    b.cross_set(storer, 2, MTE2, 1);
    b.cross_wait(storer, 1, MTE2, 2);
    b.cross_wait(storer, 2, MTE2, 2);
    b.cross_set(reader, 1, MTE2, 2);
    b.cross_set(reader, 2, MTE2, 1);
    b.cross_wait(reader, 1, MTE2, 2);
    b.copy_in(reader, {local[static_cast<size_t>(reader)], 0, 32}, {g0, 0, 32});
    b.cross_wait(reader, 2, MTE2, 2);
    return b.program();
}

std::vector<uint8_t> regression(const std::string& name) {
    std::ifstream in(std::filesystem::path(EVG_SYNC_PROGRAM_REGRESSIONS) / name, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string describe_regression(const std::string& name) {
    const std::vector<uint8_t> bytes = regression(name);
    return describe_program(decode_sync_program(bytes.data(), bytes.size()));
}

void expect_two_modes_named(const explore::Program& p, int storer, const std::string& what) {
    const MachineRun m = run_on_machine(p, hw::SchedulerKind::in_order, 0);
    const hw::Violation* v = m.report.first(hw::ViolationKind::cross_core_ambiguous);
    ASSERT_NE(v, nullptr) << what << "\n" << m.report.text();
    EXPECT_NE(v->message.find("is used in mode 1 by"), std::string::npos) << v->message;
    // The mode-1 use named is the storer's set (its op 2, "core<storer>:2"), which the AIC's set does not
    // follow.
    bool names_storer = false;
    for (const auto& l : v->locations) names_storer |= l.site == fmt::format("core{}:2", storer);
    EXPECT_TRUE(names_storer) << v->message;
    const explore::Verdict d = explore::decide(explore::record(p, 1));
    EXPECT_TRUE(d.has(explore::FindingKind::ambiguous)) << d.text();
    const explore::Verdict e = explore::explore(p);
    // Some schedule lets the reader's wait take the AIC's increment: its copy-in races the storer's copy-out.
    const int store = p.op_id(storer, 0), read = p.op_id(3 - storer, 3);
    bool race = false;
    for (const explore::Finding* f : e.of(explore::FindingKind::race))
        race |= f->instrs == std::vector<int>{std::min(store, read), std::max(store, read)};
    EXPECT_TRUE(race) << e.text();
    EXPECT_EQ(compare_verdicts(p, m.report, e, true), "") << what;
}

TEST(SyncProgramRegressions, RoundAndMode2SetOnOneFlagA2StorerAiv0) {
    const explore::Program p = round_and_mode2_set(explore::Chip::AtlasA2, 1);
    EXPECT_EQ(describe_regression("machine-ambiguous-round-and-mode2-set-a2-storer-aiv0.bin"),
              describe_program(p));
    expect_two_modes_named(p, 1, "AtlasA2, AIV0 stores");
}
TEST(SyncProgramRegressions, RoundAndMode2SetOnOneFlagA2StorerAiv1) {
    const explore::Program p = round_and_mode2_set(explore::Chip::AtlasA2, 2);
    EXPECT_EQ(describe_regression("machine-ambiguous-round-and-mode2-set-a2-storer-aiv1.bin"),
              describe_program(p));
    expect_two_modes_named(p, 2, "AtlasA2, AIV1 stores");
}
TEST(SyncProgramRegressions, RoundAndMode2SetOnOneFlag950StorerAiv0) {
    const explore::Program p = round_and_mode2_set(explore::Chip::Ascend950, 1);
    EXPECT_EQ(describe_regression("machine-ambiguous-round-and-mode2-set-950-storer-aiv0.bin"),
              describe_program(p));
    expect_two_modes_named(p, 1, "Ascend950, AIV0 stores");
}
TEST(SyncProgramRegressions, RoundAndMode2SetOnOneFlag950StorerAiv1) {
    const explore::Program p = round_and_mode2_set(explore::Chip::Ascend950, 2);
    EXPECT_EQ(describe_regression("machine-ambiguous-round-and-mode2-set-950-storer-aiv1.bin"),
              describe_program(p));
    expect_two_modes_named(p, 2, "Ascend950, AIV1 stores");
}

// A mode-0 round one of whose member's first set never runs, on a counter the AIC also increments in mode 2:
// both engines name the two modes (the explorer once it takes the member's next set that runs).
TEST(SyncProgramRegressions, RoundTakesTheNextSetThatRuns) {
    const std::vector<uint8_t> bytes = regression("explorer-round-takes-the-next-set-that-runs.bin");
    ASSERT_FALSE(bytes.empty());
    const explore::Program p = decode_sync_program(bytes.data(), bytes.size());
    const MachineRun m = run_on_machine(p, hw::SchedulerKind::in_order, 0);
    EXPECT_GE(m.report.count(hw::ViolationKind::cross_core_ambiguous), 1u) << m.report.text();
    const explore::Verdict d = explore::decide(explore::record(p, 1));
    ASSERT_TRUE(d.has(explore::FindingKind::ambiguous)) << d.text();
    for (const explore::Finding* f : d.of(explore::FindingKind::ambiguous))
        EXPECT_NE(f->message.find("used in modes"), std::string::npos) << f->message;
}

// Two mode-2 rounds into the AIC's flag 1, each AIV setting twice from one pipe: the rounds land in order, so
// neither engine calls the counter ambiguous (the explorer did, wanting one set of the second round after
// both of the first), and they agree on the races and the AIC's deadlock.
TEST(SyncProgramRegressions, TwoRoundsWhoseMembersEachSetInOrderAreOrdered) {
    const std::vector<uint8_t> bytes = regression("explorer-two-rounds-each-member-in-order-are-ordered.bin");
    ASSERT_FALSE(bytes.empty());
    const explore::Program p = decode_sync_program(bytes.data(), bytes.size());
    const explore::Verdict d = explore::decide(explore::record(p, 1));
    EXPECT_FALSE(d.has(explore::FindingKind::ambiguous)) << d.text();
    EXPECT_TRUE(d.has(explore::FindingKind::deadlock)) << d.text();
    const MachineRun m = run_on_machine(p, hw::SchedulerKind::in_order, 0);
    EXPECT_EQ(m.report.count(hw::ViolationKind::cross_core_ambiguous), 0u) << m.report.text();
    const explore::Verdict e = explore::explore(p);
    ASSERT_TRUE(e.complete);
    EXPECT_EQ(compare_verdicts(p, m.report, e, false), "");
}

// Mutants decode to programs within the limits, and the mutator edits rather than copies.
TEST(SyncProgramMutate, MutantsAreValidProgramsThatDiffer) {
    int changed = 0, made = 0;
    for (const auto& [name, program] : sync_program_seeds()) {
        const std::vector<uint8_t> bytes = encode_sync_program(program);
        for (uint64_t seed = 1; seed <= 50; ++seed) {
            const std::vector<uint8_t> m = mutate_sync_program(bytes.data(), bytes.size(), 256, seed);
            if (m.empty()) continue;
            ++made;
            EXPECT_LE(m.size(), 256u);
            const explore::Program q = decode_sync_program(m.data(), m.size());
            EXPECT_NO_THROW(explore::validate(q));
            EXPECT_LE(q.op_count(), kMaxOps);
            changed += describe_program(q) != describe_program(program);
        }
    }
    EXPECT_GT(made, 600) << "of 750";
    EXPECT_EQ(changed, made);
    std::mt19937_64 rng(11);  // any bytes: a mutant or nothing, never an exception
    for (int n = 0; n < 2000; ++n) {
        std::vector<uint8_t> bytes(rng() % 120);
        for (auto& b : bytes) b = static_cast<uint8_t>(rng());
        const size_t max = 1 + rng() % 200;
        std::vector<uint8_t> m;
        ASSERT_NO_THROW(m = mutate_sync_program(bytes.data(), bytes.size(), max, rng()));
        EXPECT_LE(m.size(), max);
    }
}

// The pattern names a program reaches: the two-modes pattern of the regressions above is named as such.
TEST(SyncProgramPatterns, TheTwoModesPatternIsNamed) {
    const explore::Program p = round_and_mode2_set(explore::Chip::AtlasA2, 1);
    const std::vector<std::string> pats = sync_patterns(p, explore::decide(explore::record(p, 1)));
    auto has = [&](const std::string& s) { return std::find(pats.begin(), pats.end(), s) != pats.end(); };
    EXPECT_TRUE(has("counter modes 1+2 waited ambiguous modes")) << fmt::format("{}", fmt::join(pats, "\n"));
    EXPECT_TRUE(has("cross set mode 2 after a wait mode 2"));  // the AIC's set, after its wait on the round
    const explore::Program clean = sync_program_seeds()[0].second;  // the AIV pipeline: no cross-core counter
    const std::vector<std::string> cp = sync_patterns(clean, explore::decide(explore::record(clean, 1)));
    for (const std::string& s : cp) EXPECT_EQ(s.find("counter"), std::string::npos) << s;
}

}  // namespace
}  // namespace evg::fuzz
