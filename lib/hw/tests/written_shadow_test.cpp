// The written-shadow of a Memory (flag bytes plus one "all written" bit per 256-byte chunk) answers exactly
// like one flag per byte: random marks, unmarks, copies (within and across memories, overlapping) and
// lane-by-lane updates, with ranges that start and end inside chunks, at the memory's ragged end and over
// whole chunks, checked after every step against a plain byte vector.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "evg/hw/memory.hpp"

namespace evg::hw {
namespace {

struct Model {
    Memory mem;
    std::vector<uint8_t> flags;
    Model(MemKind k, uint64_t size) : mem(k, "m", size), flags(size, 0) {}
};

int64_t model_first_unwritten(const std::vector<uint8_t>& f, uint64_t off, uint64_t n) {
    for (uint64_t i = off; i < off + n; ++i)
        if (f[i] == 0) return static_cast<int64_t>(i);
    return -1;
}

void expect_agree(Model& m, std::mt19937_64& rng, int step) {
    const uint64_t size = m.flags.size();
    std::vector<uint8_t> all(size);
    m.mem.read_written(0, size, all.data());
    ASSERT_EQ(all, m.flags) << "step " << step;
    for (int q = 0; q < 8; ++q) {
        const uint64_t off = rng() % size, n = rng() % (size - off + 1);
        ASSERT_EQ(m.mem.first_unwritten(off, n), model_first_unwritten(m.flags, off, n))
            << "step " << step << " [" << off << ", +" << n << ")";
        ASSERT_EQ(m.mem.all_written(off, n), model_first_unwritten(m.flags, off, n) < 0);
    }
}

// A range that is, by turns, small, chunk-sized, many chunks or the whole memory.
void pick(std::mt19937_64& rng, uint64_t size, uint64_t& off, uint64_t& n) {
    switch (rng() % 4) {
        case 0:
            off = rng() % size;
            n = std::min<uint64_t>(size - off, rng() % 40);
            break;
        case 1:
            off = (rng() % (size / 256)) * 256 + (rng() % 2 ? 0 : rng() % 256);
            n = std::min<uint64_t>(size - off, 256 * (1 + rng() % 3) - (rng() % 2 ? 0 : rng() % 256));
            break;
        case 2:
            off = rng() % size;
            n = rng() % (size - off + 1);
            break;
        default:
            off = 0;
            n = size;
    }
}

TEST(WrittenShadow, AgreesWithOneFlagPerByte) {
    std::mt19937_64 rng(5);
    const uint64_t size = 256 * 70 + 77;  // a ragged last chunk; more than 64 chunks (two words of bits)
    Model a(MemKind::UB, size), b(MemKind::GM, size);
    for (int step = 0; step < 4000; ++step) {
        Model& m = rng() % 2 ? a : b;
        Model& other = rng() % 2 ? a : b;
        uint64_t off = 0, n = 0;
        pick(rng, size, off, n);
        switch (rng() % 4) {
            case 0: {
                const bool v = rng() % 3 != 0;
                m.mem.mark_written(off, n, v);
                std::memset(m.flags.data() + off, v ? 1 : 0, n);
                break;
            }
            case 1: {
                const uint64_t src = rng() % (size - n + 1);
                m.mem.copy_written(off, other.mem, src, n);
                std::vector<uint8_t> tmp(other.flags.begin() + static_cast<int64_t>(src),
                                         other.flags.begin() + static_cast<int64_t>(src + n));
                std::copy(tmp.begin(), tmp.end(), m.flags.begin() + static_cast<int64_t>(off));
                break;
            }
            case 2: {  // lane by lane: clear every third byte, set the rest
                uint8_t* f = m.mem.unfolded_written(off, n);
                for (uint64_t i = 0; i < n; ++i) {
                    f[i] = i % 3 == 0 ? 0 : 1;
                    m.flags[off + i] = f[i];
                }
                m.mem.refold_written(off, n);
                break;
            }
            default: {  // a lane-by-lane pass that writes all ones (its chunks fold back to "all written")
                uint8_t* f = m.mem.unfolded_written(off, n);
                std::memset(f, 1, n);
                std::memset(m.flags.data() + off, 1, n);
                m.mem.refold_written(off, n);
            }
        }
        expect_agree(a, rng, step);
        expect_agree(b, rng, step);
        if (HasFatalFailure()) return;
    }
}

TEST(WrittenShadow, OutOfRangeQueriesAreUnwrittenAndMarksIgnored) {
    Memory m(MemKind::UB, "m", 1000);
    m.mark_written(0, 1000);
    EXPECT_EQ(m.first_unwritten(990, 20), 990);
    EXPECT_FALSE(m.all_written(1001, 0));
    m.mark_written(900, 200, false);  // beyond the end: ignored
    EXPECT_TRUE(m.all_written(0, 1000));
}

}  // namespace
}  // namespace evg::hw
