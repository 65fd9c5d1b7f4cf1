// A core's local memory is recycled from the previous launch's storage (lib/hw/src/memory.cpp, BlockPool):
// whatever the last user wrote where it noted its writes (note_touch, note_pages; below or above the peak),
// the next memory of that size starts with every byte zero and never-written, and with an empty peak. A
// write nobody noted is a bug of the model, and the pool's verification stops the process naming the memory.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "evg/hw/device.hpp"
#include "evg/hw/memory.hpp"

namespace evg::hw {
namespace {

constexpr uint64_t kUb = 192 * 1024;

bool all_zero(const uint8_t* p, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i)
        if (p[i] != 0) return false;
    return true;
}

TEST(MemoryReuse, RecycledStorageIsFreshWhereverTheWritesWereNoted) {
    const uint8_t* first = nullptr;
    {
        Memory ub(MemKind::UB, "UB[AIV 0]", kUb);
        first = ub.data();
        std::memset(ub.data(), 0xab, 1000);
        ub.mark_written(0, 1000);
        ub.note_touch(1000);
        // Two touched ranges far apart, written from end to end.
        ub.note_touch(120000, 130000);
        std::memset(ub.data() + 120000, 0x22, 10000);
        // Scalar writes (note_pages: no peak), one above every touched range and one in the last page.
        ub.note_pages(150000, 150004);
        std::memset(ub.data() + 150000, 0x33, 4);
        ub.note_pages(kUb - 1, kUb);
        ub.data()[kUb - 1] = 7;
        ub.mark_written(150000, 4000);
        EXPECT_EQ(ub.peak(), 130000u);
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

// The pool verifies one block in 64 that it is given back (every block in a build without NDEBUG): among 64
// memories each written where nobody noted, one is verified, and the process stops naming the memory and
// the page.
TEST(MemoryReuseDeathTest, AWriteNobodyNotedStopsTheProcess) {
    EXPECT_DEATH(
        {
            for (int i = 0; i < 64; ++i) {
                Memory ub(MemKind::UB, "UB[AIV 3]", kUb);
                ub.note_touch(0, 2000);
                std::memset(ub.data(), 0x11, 2000);
                ub.data()[60000] = 4;  // in a page no note names
            }
        },
        "bytes of UB\\[AIV 3\\] in bytes \\[57344, 61440\\) of its storage were written without "
        "Memory::note_touch");
}

TEST(MemoryReuse, GlobalMemoryStartsZeroAndNeverWrittenWhateverTheLastOneWrote) {
    // GM storage is not pooled: it comes from the heap (calloc, which clears a recycled chunk) up to 32 MiB,
    // and is mapped above, whatever the last memory of that size wrote and whether or not it noted it. A
    // device keeps the heap between launches (device.cpp), so that the heap, not a fresh mapping, serves
    // them.
    const Device device{Config{}};
    for (const uint64_t bytes : {kUb, uint64_t{3} << 20, uint64_t{40} << 20}) {
        {
            Memory gm(MemKind::GM, "gm", bytes);
            std::memset(gm.data(), 0x5a, bytes);
            gm.mark_written(0, bytes);
        }
        Memory again(MemKind::GM, "gm", bytes);
        EXPECT_TRUE(all_zero(again.data(), bytes)) << bytes;
        EXPECT_EQ(again.first_unwritten(0, bytes), 0) << bytes;
    }
}

}  // namespace
}  // namespace evg::hw
