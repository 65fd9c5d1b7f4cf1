// A core's local memory is recycled from the previous launch's storage (lib/hw/src/memory.cpp, BlockPool):
// whatever the last user wrote, and wherever (below or above the high-water mark it noted), the next memory
// of that size starts with every byte zero and never-written, and with an empty peak.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "evg/hw/memory.hpp"

namespace evg::hw {
namespace {

constexpr uint64_t kUb = 192 * 1024;

bool all_zero(const uint8_t* p, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i)
        if (p[i] != 0) return false;
    return true;
}

TEST(MemoryReuse, RecycledStorageIsFreshEvenWhereNoTouchWasNoted) {
    const uint8_t* first = nullptr;
    {
        Memory ub(MemKind::UB, "UB[AIV 0]", kUb);
        first = ub.data();
        std::memset(ub.data(), 0xab, 1000);
        ub.mark_written(0, 1000);
        ub.note_touch(1000);
        // Writes above the noted peak: below it, in the same page and pages above.
        ub.data()[3000] = 1;
        ub.data()[kUb - 1] = 2;
        ub.data()[100000] = 3;
        ub.mark_written(150000, 4000);
    }
    Memory again(MemKind::UB, "UB[AIV 0]", kUb);
    EXPECT_EQ(again.data(), first);  // the same storage came back: the pool was used
    EXPECT_TRUE(all_zero(again.data(), kUb));
    std::vector<uint8_t> flags(kUb, 1);
    again.read_written(0, kUb, flags.data());
    EXPECT_TRUE(all_zero(flags.data(), kUb));
    EXPECT_EQ(again.first_unwritten(0, kUb), 0);
    EXPECT_EQ(again.peak(), 0u);
}

TEST(MemoryReuse, BytesBetweenTouchedRangesAreFreshToo) {
    const uint8_t* first = nullptr;
    {
        Memory ub(MemKind::UB, "UB[AIV 0]", kUb);
        first = ub.data();
        // Two touched ranges far apart, and writes in the gap between them and next to each, none noted.
        ub.note_touch(0, 2000);
        ub.note_touch(120000, 130000);
        std::memset(ub.data(), 0x11, 2000);
        std::memset(ub.data() + 120000, 0x22, 10000);
        ub.data()[2000] = 3;    // beside the first range, same page
        ub.data()[60000] = 4;   // in the gap
        ub.data()[119999] = 5;  // just below the second range
        ub.data()[130000] = 6;  // just above it, below the peak's page end
        ub.data()[kUb - 1] = 7;
    }
    Memory again(MemKind::UB, "UB[AIV 0]", kUb);
    EXPECT_EQ(again.data(), first);
    EXPECT_TRUE(all_zero(again.data(), kUb));
}

TEST(MemoryReuse, GlobalMemoryIsNotRecycled) {
    // GM allocations come and go with the host's malloc/free; only core-local memories are pooled.
    {
        Memory gm(MemKind::GM, "gm", kUb);
        std::memset(gm.data(), 0x5a, kUb);
    }
    Memory again(MemKind::GM, "gm", kUb);
    EXPECT_TRUE(all_zero(again.data(), kUb));
}

}  // namespace
}  // namespace evg::hw
