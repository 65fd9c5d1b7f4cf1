// move_bytes (lib/hw/src/memory.cpp) is memmove: every length around the streamed threshold and the stream
// split (four parts of whole cache lines plus a tail), every misalignment of source and destination, disjoint
// ranges in either order, and overlapping ranges in both directions, each compared byte for byte with
// memmove on a copy of the same buffer, including the bytes around the destination (nothing written outside).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "evg/hw/memory.hpp"

namespace evg::hw {
namespace {

std::vector<uint8_t> pattern(uint64_t n) {
    std::vector<uint8_t> v(n);
    uint32_t s = 12345;
    for (auto& b : v) {
        s = s * 1664525u + 1013904223u;
        b = static_cast<uint8_t>(s >> 24);
    }
    return v;
}

// Both copies of `buf` get the same move; returns the first byte where they differ, or -1.
int64_t first_difference(const std::vector<uint8_t>& buf, uint64_t dst, uint64_t src, uint64_t bytes) {
    std::vector<uint8_t> want = buf, got = buf;
    std::memmove(want.data() + dst, want.data() + src, bytes);
    move_bytes(got.data() + dst, got.data() + src, bytes);
    for (uint64_t i = 0; i < buf.size(); ++i)
        if (want[i] != got[i]) return static_cast<int64_t>(i);
    return -1;
}

TEST(MoveBytes, EqualsMemmoveForDisjointRangesOfEveryShape) {
    const uint64_t lengths[] = {0,     1,         63, 64, 4095, 4096, 4097, 4096 + 255, 4 * 64 * 17 + 1,
                                32768, 32768 + 31};
    const auto buf = pattern(2 * 40000 + 256);
    for (uint64_t n : lengths)
        for (uint64_t src_mis : {0u, 1u, 7u, 33u})
            for (uint64_t dst_mis : {0u, 2u, 31u, 63u}) {
                // Source first, then destination after it; and the other way round.
                const uint64_t lo = 64, hi = 40000 + 128;
                EXPECT_EQ(first_difference(buf, hi + dst_mis, lo + src_mis, n), -1)
                    << n << " bytes, source misaligned by " << src_mis << ", destination by " << dst_mis;
                EXPECT_EQ(first_difference(buf, lo + dst_mis, hi + src_mis, n), -1)
                    << n << " bytes, destination first";
            }
}

TEST(MoveBytes, EqualsMemmoveForOverlappingRanges) {
    const auto buf = pattern(3 * 32768);
    for (uint64_t n : {4096u, 8192u, 32768u})
        for (int64_t shift : {-4096, -65, -1, 1, 64, 100, 4095}) {
            const uint64_t src = 32768, dst = static_cast<uint64_t>(static_cast<int64_t>(src) + shift);
            EXPECT_EQ(first_difference(buf, dst, src, n), -1) << n << " bytes moved by " << shift;
        }
}

}  // namespace
}  // namespace evg::hw
