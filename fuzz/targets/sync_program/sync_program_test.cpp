// The sync_program target's parts: decoding is total and invertible on the seeds, the checked-in corpus is
// the seeds' encoding, sites map back to ops, and the comparison names both false alarms and misses.
#include <gtest/gtest.h>

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
            << name << ": regenerate with sync_program_replay --write-seeds fuzz/corpus/sync_program";
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

}  // namespace
}  // namespace evg::fuzz
