// The sync_program target's parts: decoding is total and invertible on the seeds, the checked-in corpus is
// the seeds' encoding, sites map back to ops, and the comparison names both false alarms and misses.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

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

// A name without a slot (too long for one) is counted in a row of its own, never in another pattern's.
TEST(SyncProgramPatterns, ANameWithoutASlotIsCountedAsUnlisted) {
    const std::string a = "test pattern a", long_name(200, 'x');
    EXPECT_EQ(pattern_index(a), pattern_index(a));
    EXPECT_EQ(pattern_index(long_name), kNoPatternSlot);
    count_patterns({a, long_name}, false);
    const auto table = pattern_table();
    EXPECT_EQ(table.at(a).inputs, 1u);
    EXPECT_EQ(table.count(long_name), 0u);
    bool unlisted = false;
    for (const auto& [name, c] : table)
        unlisted |= name.rfind("(patterns without a slot", 0) == 0 && c.inputs == 1;
    EXPECT_TRUE(unlisted);
}

// Filled to the last slot, the table gives every name its own slot (whatever their hashes collide on), keeps
// each name's slot, and counts the first name past it in the unlisted row. The table is the process's, so the
// filling runs in a child process that starts afresh (the "threadsafe" death test re-runs this binary for
// this test alone), with every slot free whatever the tests before it counted; the child says on stderr what
// it found wrong and exits 1.
TEST(SyncProgramPatterns, AFullTableGivesEveryNameItsOwnSlotAndCountsTheRestAsUnlisted) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const auto fill = [] {
        std::vector<std::string> problems;
        std::vector<std::string> names;
        std::vector<size_t> seen(kPatternTableSlots, kNoPatternSlot);  // slot -> the name that holds it
        for (size_t i = 0; i <= kPatternTableSlots; ++i) {
            names.push_back(fmt::format("fill {}", i));
            const size_t slot = pattern_index(names.back());
            if (i == kPatternTableSlots) {
                if (slot != kNoPatternSlot) problems.push_back(fmt::format("name {} got slot {}", i, slot));
                break;
            }
            if (slot >= kPatternTableSlots) {
                problems.push_back(fmt::format("name {} of {} got no slot", i, kPatternTableSlots));
                break;
            }
            if (seen[slot] != kNoPatternSlot)
                problems.push_back(fmt::format("names {} and {} share slot {}", seen[slot], i, slot));
            seen[slot] = i;
        }
        for (size_t slot = 0; slot < kPatternTableSlots; ++slot)
            if (seen[slot] != kNoPatternSlot && pattern_index(names[seen[slot]]) != slot)
                problems.push_back(fmt::format("name {} moved from slot {}", seen[slot], slot));
        count_patterns({names.front(), names.back()}, true);
        const auto table = pattern_table();
        const auto unlisted = std::find_if(table.begin(), table.end(), [](const auto& row) {
            return row.first.rfind("(patterns without a slot: the table full", 0) == 0;
        });
        if (unlisted == table.end() || unlisted->second.disagreements != 1)
            problems.push_back("the name past the last slot is not counted in the unlisted row");
        if (table.count(names.front()) != 1 || table.at(names.front()).disagreements != 1)
            problems.push_back("the first name's row lost its count");
        if (table.count(names.back()) != 0) problems.push_back("the name past the last slot has a row");
        for (const std::string& p : problems) std::fprintf(stderr, "%s\n", p.c_str());
        std::exit(problems.empty() ? 0 : 1);
    };
    EXPECT_EXIT(fill(), ::testing::ExitedWithCode(0), "");
}

// A disagreement's signature names what disagrees, not the input: the same kind with other numbers signs the
// same, another kind another, and the signature is one line.
TEST(SyncProgramCompare, ADisagreementIsSignedByWhatDisagrees) {
    const std::string deadlock = disagreement_signature(
        "deadlock: the machine names none (stuck waits none); the explorer core 0 stuck (stuck waits #3)");
    EXPECT_EQ(deadlock, "sync_program: deadlock");
    EXPECT_EQ(disagreement_signature(
                  "deadlock: the machine core 1 stuck (stuck waits #7); the explorer none\nmore"),
              deadlock);
    const std::string seed3 = disagreement_signature(
        "adversarial seed 3 reports a violation on a program both "
        "call clean");
    EXPECT_EQ(seed3, "sync_program: adversarial seed # reports a violation on a program both call clean");
    EXPECT_EQ(disagreement_signature("adversarial seed 17 reports a violation on a program both call clean"),
              seed3);
    EXPECT_NE(disagreement_signature("adversarial seed 3 leaves different GM than the in-order run"), seed3);
    EXPECT_NE(disagreement_signature("set twice: the machine names #1; the explorer none"), deadlock);
    EXPECT_EQ(disagreement_signature("the explorer finds no race but 2 final memories"),
              "sync_program: the explorer finds no race but # final memories");
}

// The table file reads back with the writer's own type, row for row; lines of another form are skipped.
TEST(SyncProgramPatterns, TheTableFileReadsBackAsWritten) {
    count_patterns({"read back a", "read back b"}, false);
    count_patterns({"read back b"}, true);
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("evg_pattern_table_" + std::to_string(::getpid()) + ".txt"))
                                 .string();
    ASSERT_TRUE(write_pattern_table(path));
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::filesystem::remove(path);
    const auto back = read_pattern_table(text);
    const auto table = pattern_table();
    ASSERT_EQ(back.size(), table.size());
    for (const auto& [name, c] : back) {
        ASSERT_EQ(table.count(name), 1u) << name;
        EXPECT_EQ(c.inputs, table.at(name).inputs) << name;
        EXPECT_EQ(c.disagreements, table.at(name).disagreements) << name;
    }
    const auto t = read_pattern_table(
        "12\t0\tcounter modes 1+2 waited ambiguous modes\n3\t1\tverdict race\nnot a line\n4\tx\tbad\n"
        "5\t2\t\n7\t0\tlast without newline");
    ASSERT_EQ(t.size(), 3u);
    EXPECT_EQ(t[0].first, "counter modes 1+2 waited ambiguous modes");
    EXPECT_EQ(t[0].second.inputs, 12u);
    EXPECT_EQ(t[1].second.disagreements, 1u);
    EXPECT_EQ(t[2].first, "last without newline");
    EXPECT_TRUE(read_pattern_table("").empty());
}

// A miss is per byte: the explorer's races (0, 1) on UB [0, 32) and (0, 2) on [32, 64) are covered only if
// the machine names pairs whose conflicting bytes hold all 64; naming (0, 1) alone leaves byte 32 uncovered.
TEST(SyncProgramCompare, AMissIsTheFirstByteNoReportedPairCovers) {
    explore::ProgramBuilder b(explore::Chip::AtlasA2, false, 1);
    const int ub = b.local(0, 256);
    b.vec(0, {ub, 0, 64}, {ub, 128, 192});
    b.vec(0, {ub, 192, 224}, {ub, 0, 32});
    b.vec(0, {ub, 224, 256}, {ub, 32, 64});
    const explore::Program& p = b.program();
    const explore::Verdict e = explore::explore(p);
    ASSERT_EQ(e.of(explore::FindingKind::race).size(), 2u) << e.text();
    hw::Report one;
    one.violations.push_back(race("core0:1", "core0:2"));
    const std::string diff = compare_verdicts(p, one, e);
    EXPECT_NE(diff.find("racing on byte 32 of"), std::string::npos) << diff;
    hw::Report both = one;
    both.violations.push_back(race("core0:1", "core0:3"));
    EXPECT_EQ(compare_verdicts(p, both, e), "");
}

// Found by a fixed-seed session (regressions/sync_program/another-modes-round-behind-a-wait.bin, Ascend950):
// AIV0.0 waits on its flag 2 from MTE2 and, after its own mode-1 set, from MTE3; its mode-0 set of the same
// id sits behind the MTE2 wait. One mode-1 round fires, and whichever wait takes it decides whether the
// mode-0 round then fires for the other (the machine's in-order run: both pass) or the MTE2 wait hangs. Both
// engines must name the ambiguity. The happens-before engine counted the mode-0 round as an increment that
// could reach the MTE2 wait, so it let the set queued behind that wait join the first mode-1 round; the wait
// then had no increment left, and the engine learned that it never runs and dropped the ambiguity.
TEST(SyncProgramCompare, AnotherModesRoundBehindAWaitIsNoIncrementForIt) {
    using enum explore::Pipe;
    explore::ProgramBuilder b(explore::Chip::Ascend950, true, 1);
    b.cross_wait(1, 1, MTE2, 2);
    b.cross_set(1, 1, MTE2, 2);
    b.cross_set(1, 0, MTE2, 2);
    b.cross_set(1, 1, MTE3, 2);
    b.cross_wait(1, 1, MTE3, 2);
    b.cross_set(2, 0, MTE2, 2);
    b.cross_set(2, 1, MTE3, 2);
    const explore::Program& p = b.program();
    const explore::Verdict d = explore::decide(explore::record(p, 1));
    EXPECT_TRUE(d.has(explore::FindingKind::ambiguous)) << d.text();
    const MachineRun m = run_on_machine(p, hw::SchedulerKind::in_order, 0);
    EXPECT_NE(m.report.first(hw::ViolationKind::cross_core_ambiguous), nullptr) << m.report.text();
    EXPECT_EQ(compare_verdicts(p, m.report, explore::Verdict{}, true), "");  // how the target compares it
}

// Found by a fixed-seed session in 15 s (regressions/sync_program/set-twice-after-a-lost-set.bin): V_V(2)
// set, set again (set twice: the hardware loses the set), waited, set. The explorer finds the second set
// only; the machine keeps the lost set queued, so after the wait one set is pending and it names the third
// set too. That is the first set-twice's consequence, not a false alarm; a set-twice on a flag the explorer
// never finds set twice still is one.
TEST(SyncProgramCompare, ASetAfterALostSetIsTheSetTwicesConsequence) {
    explore::ProgramBuilder b(explore::Chip::AtlasA2, false, 1);
    const int ub = b.local(0, 128);
    b.set(0, explore::Pipe::V, explore::Pipe::V, 2);
    b.vec(0, {ub, 32, 64}, {ub, 0, 32});
    b.set(0, explore::Pipe::V, explore::Pipe::V, 2);
    b.barrier(0, explore::Pipe::V);
    b.wait(0, explore::Pipe::V, explore::Pipe::V, 2);
    b.set(0, explore::Pipe::V, explore::Pipe::V, 2);
    const explore::Program& p = b.program();
    const explore::Verdict e = explore::explore(p);
    ASSERT_EQ(e.of(explore::FindingKind::set_twice).size(), 1u) << e.text();
    const MachineRun m = run_on_machine(p, hw::SchedulerKind::in_order, 0);
    int machine_twice = 0;
    for (const hw::Violation& v : m.report.violations)
        machine_twice += v.kind == hw::ViolationKind::flag_set_twice;
    ASSERT_EQ(machine_twice, 2) << m.report.text();
    EXPECT_EQ(compare_verdicts(p, m.report, e), "");
    // The same report against a verdict without the first set-twice: both are false alarms.
    explore::Verdict none = e;
    std::erase_if(none.findings,
                  [](const explore::Finding& f) { return f.kind == explore::FindingKind::set_twice; });
    EXPECT_NE(compare_verdicts(p, m.report, none).find("set twice"), std::string::npos);
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

// Both engines name the ambiguity of a regression input (the machine's cross_core_ambiguous, the explorer's
// happens-before `ambiguous`), and the explorer's exhaustive run agrees on everything else.
void expect_ambiguity_named_by_both(const std::string& file) {
    const std::vector<uint8_t> bytes = regression(file);
    ASSERT_FALSE(bytes.empty()) << file;
    const explore::Program p = decode_sync_program(bytes.data(), bytes.size());
    const MachineRun m = run_on_machine(p, hw::SchedulerKind::in_order, 0);
    EXPECT_GE(m.report.count(hw::ViolationKind::cross_core_ambiguous), 1u) << m.report.text();
    const explore::Verdict d = explore::decide(explore::record(p, 1));
    EXPECT_TRUE(d.has(explore::FindingKind::ambiguous)) << d.text();
    EXPECT_EQ(compare_verdicts(p, m.report, explore::Verdict{}, true), "");
}

// The AIC's FIX-pipe wait takes the only increment of its counter, because its MTE2-pipe wait on the same
// counter sits behind a WaitFlag no schedule satisfies: the explorer gave the increment to the wait that
// never runs, so it called the FIX wait stuck and the mode-2 sets behind it dead, and missed that they race
// the AIC's other mode-2 set on M.
TEST(SyncProgramRegressions, AWaitThatNeverRunsTakesNoIncrement) {
    expect_ambiguity_named_by_both("explorer-a-wait-that-never-runs-takes-no-increment.bin");
}

// The AIV counter's first unordered pair holds a set that never runs (behind the AIC's stuck FIX wait), but
// the mode-1 round and the AIC's mode-2 set on M are unordered too and both run: the explorer dropped the
// counter's ambiguity with its first pair instead of naming it by the pair that runs.
TEST(SyncProgramRegressions, ACounterIsNamedByAPairThatRuns) {
    expect_ambiguity_named_by_both("explorer-a-counter-is-named-by-a-pair-that-runs.bin");
}

// The AIC waits twice on flag 1, which one mode-2 round increments once: on MTE2, then on FIX behind a mode-0
// round that the MTE2 pipe sets after its wait. The MTE2 wait takes the increment and the FIX wait is stuck
// (deadlock), so the AIC's mode-2 set on FIX behind it never runs. The explorer judged what may run before
// the mode-0 round ordered the two waits, so it let that set compete with the AIC's mode-2 set on M for the
// AIVs' flag 2, called that counter ambiguous, and the ambiguity hid the deadlock.
TEST(SyncProgramRegressions, AWaitBehindTheOneThatTookTheOnlyIncrementNeverRuns) {
    for (int i = 0; i < 5; ++i) {
        const std::string file =
            fmt::format("explorer-a-wait-behind-the-one-that-took-the-only-increment-never-runs-{}.bin", i);
        const std::vector<uint8_t> bytes = regression(file);
        ASSERT_FALSE(bytes.empty()) << file;
        const explore::Program p = decode_sync_program(bytes.data(), bytes.size());
        const explore::Verdict d = explore::decide(explore::record(p, 1));
        EXPECT_FALSE(d.has(explore::FindingKind::ambiguous)) << file << "\n" << d.text();
        EXPECT_TRUE(d.has(explore::FindingKind::deadlock)) << file << "\n" << d.text();
        const MachineRun m = run_on_machine(p, hw::SchedulerKind::in_order, 0);
        EXPECT_EQ(m.report.count(hw::ViolationKind::cross_core_ambiguous), 0u) << file << "\n"
                                                                               << m.report.text();
        EXPECT_GE(m.report.count(hw::ViolationKind::deadlock), 1u) << file << "\n" << m.report.text();
        const explore::Verdict e = explore::explore(p);
        ASSERT_TRUE(e.complete) << file;
        EXPECT_EQ(compare_verdicts(p, m.report, e, false), "") << file;
    }
}

// The AIC waits twice on flag 1 (on MTE2, then on FIX behind a mode-0 round the MTE2 pipe sets after its
// wait), and exactly two increments may land: its own mode-0 set on M and the AIVs' mode-2 round. The second
// wait runs only once both landed, so the AIC's mode-2 set on FIX behind it follows the round, and with it
// AIV1's wait that the round's member set sits behind: AIV1 takes the AIC's set on M first. The explorer
// could order nothing (each counter waited for the other to be resolved) and called three counters ambiguous.
TEST(SyncProgramRegressions, AWaitThatNeedsEveryIncrementFollowsThem) {
    const std::vector<uint8_t> bytes =
        regression("explorer-a-wait-that-needs-every-increment-follows-them.bin");
    ASSERT_FALSE(bytes.empty());
    const explore::Program p = decode_sync_program(bytes.data(), bytes.size());
    const explore::Verdict d = explore::decide(explore::record(p, 1));
    EXPECT_FALSE(d.has(explore::FindingKind::ambiguous)) << d.text();
    const MachineRun m = run_on_machine(p, hw::SchedulerKind::in_order, 0);
    EXPECT_EQ(m.report.count(hw::ViolationKind::cross_core_ambiguous), 0u) << m.report.text();
    const explore::Verdict e = explore::explore(p);
    ASSERT_TRUE(e.complete);
    EXPECT_FALSE(e.has(explore::FindingKind::ambiguous)) << e.text();
    EXPECT_EQ(compare_verdicts(p, m.report, e, false), "");
}

// The machine's in-order report and the explorer agree as the campaign compares them: an input decide calls
// ambiguous on that verdict alone, any other against the exhaustive exploration.
void expect_engines_agree(const std::string& file) {
    const std::vector<uint8_t> bytes = regression(file);
    ASSERT_FALSE(bytes.empty()) << file;
    const explore::Program p = decode_sync_program(bytes.data(), bytes.size());
    const MachineRun m = run_on_machine(p, hw::SchedulerKind::in_order, 0);
    const explore::Verdict d = explore::decide(explore::record(p, 1));
    if (d.has(explore::FindingKind::ambiguous)) {
        EXPECT_EQ(compare_verdicts(p, m.report, explore::Verdict{}, true), "") << file << "\n" << d.text();
        return;
    }
    const explore::Verdict e = explore::explore(p);
    ASSERT_TRUE(e.complete) << file;
    EXPECT_EQ(compare_verdicts(p, m.report, e, false), "") << file << "\n" << d.text();
}

// A campaign on the fixes above found three more (each input fails on the explorer before its fix):
// - an attempt that held a round set back (it sat on a cycle through its round) had resolved counters from
//   that impossible round, and the waits it found never to run were learned for the next attempt: the AIC's
//   two unordered waits on flag 3 lost their ambiguity;
// - a mode-0 flag the AIC sets from MTE2 and, unordered in program order, from M: the M set comes first
//   (found through another counter), so the AIC's wait takes its increment, not the MTE2 set's; the explorer
//   paired the rounds by issue order and ordered two waits that are not;
// - two waits unordered on an AIV counter whose only increment sits on a cycle (it never lands): they
//   compete for nothing, and the counter is not ambiguous (the machine reports the deadlock).
TEST(SyncProgramRegressions, AttemptsLearnOnlyFromPossibleRoundsAndRoundsFollowExecutionOrder) {
    expect_engines_agree("explorer-nothing-is-learned-from-an-attempt-that-held-a-set-back.bin");
    expect_engines_agree("explorer-a-member-joins-rounds-in-the-order-its-sets-execute.bin");
    expect_engines_agree("explorer-waits-compete-only-for-an-increment-that-lands.bin");
}

// And two more from the campaign on those: a wait found never to run by an attempt whose rounds a later
// attempt held back was still taken as never running (the AIC's two waits on flag 1 lost their ambiguity);
// and a round whose AIV set sits on a cycle (behind a wait for the AIC's set behind the AIC's wait for that
// round) was counted as an increment that may land, so two AIV waits looked as if they competed for it.
TEST(SyncProgramRegressions, HeldBackRoundsVoidWhatWasLearnedAndCyclesNeverRun) {
    expect_engines_agree("explorer-what-was-learned-on-held-back-rounds-is-forgotten.bin");
    expect_engines_agree("explorer-an-increment-with-a-source-on-a-cycle-never-lands.bin");
}

// An AIV's first wait on flag 2 has three increments on its counter, but two are rounds whose sets follow
// that wait: only the AIC's mode-2 set can land before it, so the wait follows that set (and what sits behind
// the set), which shows that the AIVs' other rounds can never fire.
TEST(SyncProgramRegressions, AWaitFollowsEveryIncrementThatCanLandBeforeIt) {
    expect_engines_agree("explorer-a-wait-follows-every-increment-that-can-land-before-it.bin");
}

// Counters that wait on each other: AIV0's first wait on flag 2 precedes (through the AIVs' mode-2 round into
// the AIC's flag 1 and the AIC's second wait on it) the AIC's only set that could satisfy it, and the AIVs'
// other round on flag 2 needs AIV1's set behind AIV1's own wait for that AIC set. No increment can land
// before AIV0's wait, so it never passes; the explorer called the AIC's flag 1 ambiguous through a round that
// never fires, where the machine and the exhaustive explorer both see the deadlock only (three inputs of the
// class, from campaigns).
TEST(SyncProgramRegressions, AWaitWithFewerIncrementsThatCanLandBeforeItThanItNeedsNeverRuns) {
    for (const char* suffix : {"", "-2", "-3"})
        expect_engines_agree(fmt::format(
            "explorer-a-wait-with-fewer-increments-that-can-land-before-it-than-it-needs-never-runs{}.bin",
            suffix));
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

// Three inputs on which the machine reported ambiguous cross-core matching and the explorer a deadlock no
// schedule has (the first from a fuzz session, the others from campaigns of `--mutate 30000`). In each, a
// core sets one round flag from a pipe with nothing before it and from one behind a wait the round could
// satisfy:
// - the explorer let the set behind the wait join the first round because another increment of the waited
//   counter (the AIC's set behind its own wait, which needs a round the AIVs join only after that wait) was
//   not ordered after the wait, and learned from the rounds so paired that an AIV wait never runs;
// - a wait so learned kept its place although the next attempt, knowing it, paired the rounds the other way
//   and left that wait's increments free.
// Each input fails on the explorer before its fix (fuzz/explorer/README.md, engine a).
TEST(SyncProgramRegressions, ASetJoinsNoRoundBeforeItsWaitsCanPassAndALearnedWaitMustStayUnfed) {
    expect_engines_agree("explorer-a-set-joins-no-round-before-what-can-satisfy-the-waits-it-follows.bin");
    expect_engines_agree("explorer-a-set-joins-no-round-before-what-can-satisfy-the-waits-it-follows-2.bin");
    expect_engines_agree("explorer-a-learned-wait-whose-increments-come-free-is-unlearned.bin");
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
    EXPECT_GT(made, 680) << "of " << 50 * sync_program_seeds().size();
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

// Exchanging the two AIVs' streams is one edit: the two role orders of the two-modes pattern are a mutation
// apart (the machine once reported only one of them).
TEST(SyncProgramMutate, ExchangingTheAivStreamsGivesTheOtherRoleOrder) {
    const std::vector<uint8_t> bytes = encode_sync_program(round_and_mode2_set(explore::Chip::AtlasA2, 1));
    const std::string other = describe_program(round_and_mode2_set(explore::Chip::AtlasA2, 2));
    int hits = 0;
    for (uint64_t seed = 1; seed <= 2000; ++seed) {
        const std::vector<uint8_t> m = mutate_sync_program(bytes.data(), bytes.size(), 256, seed);
        hits += !m.empty() && describe_program(decode_sync_program(m.data(), m.size())) == other;
    }
    EXPECT_GE(hits, 3);
}

// An input whose cross-core matching the happens-before engine calls ambiguous is judged without the
// exhaustive exploration: compared even when the exploration would stop at its budget.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
TEST(SyncProgramTarget, AnAmbiguousProgramIsComparedWithoutTheExhaustiveExploration) {
    // The two-modes program with five unsynchronised vector ops ahead of the reader's: too many
    // interleavings for the target's budget.
    explore::Program big = round_and_mode2_set(explore::Chip::AtlasA2, 1);
    const int ub = 4;  // the reader's (core 2's) local memory, after G0, G1 and the other cores' memories
    ASSERT_EQ(big.mems[ub].owner, 2);
    for (uint32_t k = 0; k < 5; ++k) {
        explore::Op op;
        op.kind = explore::OpKind::vec;
        op.dst = {ub, 32 * (k % 4), 32 * (k % 4) + 32};
        op.src0 = {ub, 0, 32};
        big.cores[2].insert(big.cores[2].begin(), op);
    }
    explore::validate(big);
    ASSERT_FALSE(explore::explore(big, {20000}).complete);
    ASSERT_TRUE(explore::decide(explore::record(big, 1)).has(explore::FindingKind::ambiguous));
    const std::vector<uint8_t> bytes = encode_sync_program(big);
    const SyncProgramStats before = sync_program_stats();
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    const SyncProgramStats& after = sync_program_stats();
    EXPECT_EQ(after.compared, before.compared + 1);
    EXPECT_EQ(after.ambiguous, before.ambiguous + 1);
    EXPECT_EQ(after.incomplete, before.incomplete);
}

// The seed that hands one flag id over from mode 1 to mode 2 is clean on both engines, and the §1 shape (the
// AIC's mode-2 set follows one AIV's mode-1 set and not the other's) is one op edit away from it.
TEST(SyncProgramSeeds, TheModeHandOverIsCleanAndOneEditFromTheSplitRound) {
    for (const char* name : {"cross-modes-handed-over-a2", "cross-modes-handed-over-950"}) {
        explore::Program p;
        for (const auto& [n, q] : sync_program_seeds())
            if (n == name) p = q;
        ASSERT_FALSE(p.cores.empty()) << name;
        const explore::Verdict d = explore::decide(explore::record(p, 1));
        EXPECT_TRUE(d.findings.empty()) << name << "\n" << d.text();
        const explore::Verdict e = explore::explore(p);
        ASSERT_TRUE(e.complete);
        EXPECT_TRUE(e.findings.empty()) << name << "\n" << e.text();
        const MachineRun m = run_on_machine(p, hw::SchedulerKind::in_order, 0);
        EXPECT_TRUE(m.report.clean()) << name << "\n" << m.report.text();
        const std::string all =
            "round mode 1 and a mode-2 increment on one counter: the increment follows all member sets, "
            "resolved";
        const std::vector<std::string> pats = sync_patterns(p, d);
        EXPECT_NE(std::find(pats.begin(), pats.end(), all), pats.end())
            << fmt::format("{}", fmt::join(pats, "\n"));
        const std::vector<uint8_t> bytes = encode_sync_program(p);
        int split = 0;
        for (uint64_t seed = 1; seed <= 3000 && split == 0; ++seed) {
            const std::vector<uint8_t> mu = mutate_sync_program(bytes.data(), bytes.size(), 256, seed);
            if (mu.empty()) continue;
            const explore::Program q = decode_sync_program(mu.data(), mu.size());
            const std::vector<std::string> qp = sync_patterns(q, explore::decide(explore::record(q, 1)));
            split += std::find(qp.begin(), qp.end(), "ambiguous modes split-round") != qp.end();
        }
        EXPECT_GT(split, 0) << name;
    }
}

// The pattern names a program reaches: the two-modes pattern of the regressions above is named as such.
TEST(SyncProgramPatterns, TheTwoModesPatternIsNamed) {
    const explore::Program p = round_and_mode2_set(explore::Chip::AtlasA2, 1);
    const std::vector<std::string> pats = sync_patterns(p, explore::decide(explore::record(p, 1)));
    auto has = [&](const std::string& s) { return std::find(pats.begin(), pats.end(), s) != pats.end(); };
    // The AIC's mode-2 set follows the reader's mode-1 set (through its mode-2 set on the same pipe, which
    // the AIC waits for) and not the storer's: the round is split, the shape a checker remembering only the
    // round's completing set misses in one role order.
    EXPECT_TRUE(has("counter modes 1+2 waited ambiguous modes split-round"))
        << fmt::format("{}", fmt::join(pats, "\n"));
    EXPECT_TRUE(has("ambiguous modes split-round"));
    EXPECT_TRUE(
        has("round mode 1 and a mode-2 increment on one counter: the increment follows some member sets, "
            "unresolved"));
    EXPECT_TRUE(has("cross set mode 2 after a wait mode 2"));  // the AIC's set, after its wait on the round
    const explore::Program clean = sync_program_seeds()[0].second;  // the AIV pipeline: no cross-core counter
    const std::vector<std::string> cp = sync_patterns(clean, explore::decide(explore::record(clean, 1)));
    for (const std::string& s : cp) EXPECT_EQ(s.find("counter"), std::string::npos) << s;
}

// The happens-before decision says when it gave up. A program whose decision needs a fact learned (a round
// set held back: "a-set-on-a-cycle-through-its-round-is-held-back") gets, with no attempt allowed to learn, a
// verdict marked incomplete, which the target counts apart and never compares; with the attempts it needs,
// the verdict is complete. A program that needs nothing learned is complete even then.
TEST(SyncProgramRegressions, ADecisionThatGivesUpSaysSoAndIsNotCompared) {
    const std::vector<uint8_t> bytes =
        regression("explorer-a-set-on-a-cycle-through-its-round-is-held-back.bin");
    ASSERT_FALSE(bytes.empty());
    const explore::Run run = explore::record(decode_sync_program(bytes.data(), bytes.size()), 1);
    const explore::Verdict gave_up = explore::decide(run, 0);
    EXPECT_FALSE(gave_up.complete) << gave_up.text();
    EXPECT_NE(gave_up.text().find("incomplete: the attempt cap stopped the decision"), std::string::npos);
    const explore::Verdict decided = explore::decide(run);
    EXPECT_TRUE(decided.complete) << decided.text();
    EXPECT_EQ(decided.text().find("incomplete"), std::string::npos) << decided.text();

    const auto seeds = sync_program_seeds();
    ASSERT_FALSE(seeds.empty());
    const explore::Verdict simple = explore::decide(explore::record(seeds.front().second, 1), 0);
    EXPECT_TRUE(simple.complete) << seeds.front().first << "\n" << simple.text();

    // The target decides it within its cap, and compares it.
    const SyncProgramStats before = sync_program_stats();
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    const SyncProgramStats& after = sync_program_stats();
    EXPECT_EQ(after.undecided, before.undecided) << "the real cap decides this program";
    EXPECT_EQ(after.compared + after.incomplete, before.compared + before.incomplete + 1)
        << "a decided input is compared, or counted as an incomplete exploration";
}

}  // namespace
}  // namespace evg::fuzz
