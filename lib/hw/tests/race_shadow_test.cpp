// The race shadow's history: which earlier accesses a new access is checked against.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

#include "evg/hw/race_shadow.hpp"

namespace evg::hw {
namespace {

// Nothing is ordered: every epoch of every agent is concurrent with the access being checked.
bool unordered(const Epoch&) {
    return false;
}

TEST(RaceShadow, InPlaceInstructionChecksItsWriteAgainstAnEarlierReadOfItsOwnAgent) {
    RaceShadow s;
    std::vector<Conflict> conflicts;
    AccessRecord r1{{1, 1}, 10, false};  // agent 1 (one unordered pipe), epoch 1, instruction #10
    AccessRecord x{{1, 2}, 11, false};   // instruction #11 of the same pipe reads, then writes, the bytes
    s.access(0, 64, false, r1, unordered, conflicts);
    s.access(0, 64, false, x, unordered, conflicts);
    EXPECT_TRUE(conflicts.empty());
    s.access(0, 64, true, x, unordered, conflicts);
    ASSERT_EQ(conflicts.size(), 1u);
    EXPECT_EQ(conflicts[0].earlier.instr, 10u);
    EXPECT_FALSE(conflicts[0].earlier_is_write);
}

TEST(RaceShadow, AnOrderedEarlierReadOfTheSameAgentIsReplaced) {
    RaceShadow s;
    std::vector<Conflict> conflicts;
    auto before = [](const Epoch& e) { return e.agent == 1 && e.epoch <= 1; };  // #10 happens-before
    s.access(0, 64, false, {{1, 1}, 10, false}, unordered, conflicts);
    s.access(0, 64, false, {{1, 2}, 11, false}, before, conflicts);
    EXPECT_TRUE(conflicts.empty());
    // A writer of another agent, ordered after neither read, conflicts with #11 only: #10 was replaced, and
    // whatever is ordered after #11 is ordered after #10.
    s.access(0, 64, true, {{2, 1}, 12, false}, unordered, conflicts);
    ASSERT_EQ(conflicts.size(), 1u);
    EXPECT_EQ(conflicts[0].earlier.instr, 11u);
    EXPECT_FALSE(conflicts[0].earlier_is_write);
}

// The shadow against its definition kept byte by byte: each byte holds the last write and the reads since,
// an access checks every byte it touches (one conflict per earlier instruction, over the union of the bytes)
// and records itself on each byte with the same rules. Random accesses of four agents, reads, writes,
// atomics, in-place read-then-write instructions, ranges that split and straddle earlier ones and ranges
// past everything recorded (the shadow's append path), and an ordering that depends on both accesses.
class ByteShadow {
  public:
    explicit ByteShadow(uint64_t n) : bytes_(n) {}
    void access(uint64_t begin, uint64_t end, bool write, const AccessRecord& rec,
                const RaceShadow::Ordered& ordered, std::vector<Conflict>& conflicts) {
        const auto report = [&](const AccessRecord& e, bool e_write, uint64_t x) {
            if (e.instr == 0 || e.instr == rec.instr || (e.atomic && rec.atomic) || ordered(e.at)) return;
            for (auto& c : conflicts)
                if (c.earlier.instr == e.instr) {
                    c.begin = std::min(c.begin, x);
                    c.end = std::max(c.end, x + 1);
                    return;
                }
            conflicts.push_back({e, e_write, x, x + 1});
        };
        for (uint64_t x = begin; x < end; ++x) {
            report(bytes_[x].write, true, x);
            if (write)
                for (const auto& r : bytes_[x].reads) report(r, false, x);
        }
        for (uint64_t x = begin; x < end; ++x) {
            Byte& b = bytes_[x];
            if (write) {
                b = {rec, {}};
                continue;
            }
            bool have = false;
            std::erase_if(b.reads, [&](const AccessRecord& r) {
                if (r.at.agent != rec.at.agent) return false;
                if (r.instr == rec.instr) {
                    have = true;
                    return false;
                }
                return r.at.epoch < rec.at.epoch && ordered(r.at);
            });
            if (!have) b.reads.push_back(rec);
        }
    }

  private:
    struct Byte {
        AccessRecord write;
        std::vector<AccessRecord> reads;
    };
    std::vector<Byte> bytes_;
};

using ConflictKey = std::tuple<uint64_t, bool, uint64_t, uint64_t, uint32_t, uint32_t, bool>;
std::vector<ConflictKey> keys(const std::vector<Conflict>& cs) {
    std::vector<ConflictKey> out;
    out.reserve(cs.size());
    for (const auto& c : cs)
        out.emplace_back(c.earlier.instr, c.earlier_is_write, c.begin, c.end, c.earlier.at.agent,
                         c.earlier.at.epoch, c.earlier.atomic);
    std::sort(out.begin(), out.end());
    return out;
}

TEST(RaceShadow, EqualsTheByteByByteDefinitionOnRandomAccesses) {
    constexpr uint64_t kBytes = 512;
    for (uint32_t seed = 1; seed <= 300; ++seed) {
        std::mt19937 rng(seed);
        const auto pick = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
        RaceShadow shadow;
        ByteShadow ref(kBytes);
        uint32_t epochs[4] = {};
        uint64_t instr = 0, recorded_end = 0;
        AccessRecord last{};
        uint64_t last_begin = 0, last_end = 0;
        for (int step = 0; step < 300; ++step) {
            uint64_t begin = 0, end = 0;
            AccessRecord rec{};
            bool write = pick(2) == 0;
            if (step > 0 && pick(5) == 0) {  // the previous instruction again, as the write of an in-place op
                rec = last;
                begin = last_begin;
                end = last_end;
                write = true;
            } else {
                if (recorded_end < kBytes && pick(3) == 0) {  // past everything recorded
                    begin = recorded_end + pick(3);
                    if (begin >= kBytes) begin = kBytes - 1;
                } else {
                    begin = pick(kBytes);
                }
                end = std::min<uint64_t>(kBytes, begin + 1 + pick(pick(2) == 0 ? 16 : 160));
                const uint32_t agent = pick(4);
                rec = {{agent, ++epochs[agent]}, ++instr, pick(5) == 0};
            }
            recorded_end = std::max(recorded_end, end);
            const uint64_t checked = rec.instr;
            const RaceShadow::Ordered ordered = [checked](const Epoch& e) {
                return (e.epoch * 7 + e.agent * 3 + checked * 5) % 4 != 0;
            };
            std::vector<Conflict> got, want;
            shadow.access(begin, end, write, rec, ordered, got);
            ref.access(begin, end, write, rec, ordered, want);
            ASSERT_EQ(keys(got), keys(want))
                << "seed " << seed << " step " << step << ": " << (write ? "write" : "read") << " [" << begin
                << ", " << end << ") by #" << rec.instr;
            last = rec;
            last_begin = begin;
            last_end = end;
        }
    }
}

}  // namespace
}  // namespace evg::hw
