// Fifo (evg/hw/fifo.hpp), the pipes' queues and the flags' pending sets: first in, first out, through its
// compaction and its reuse of storage, with an element taken from the middle (the adversarial scheduler's
// reordering) and an element that owns something (an issued instruction).
#include "evg/hw/fifo.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <random>
#include <vector>

namespace evg::hw {
namespace {

std::vector<int> contents(const Fifo<int>& f) {
    return std::vector<int>(f.begin(), f.end());
}

TEST(Fifo, KeepsTheOrderOfADequeThroughRandomPushesPopsAndErasures) {
    Fifo<int> f;
    std::deque<int> d;
    std::mt19937 rng(7);
    int next = 0;
    for (int step = 0; step < 20000; ++step) {
        const unsigned op = rng() % 8;
        if (op < 4 || d.empty()) {
            f.push_back(next);
            d.push_back(next);
            ++next;
        } else if (op < 7) {
            ASSERT_EQ(f.front(), d.front());
            f.pop_front();
            d.pop_front();
        } else {
            const size_t pos = rng() % d.size();
            f.erase(f.begin() + static_cast<std::ptrdiff_t>(pos));
            d.erase(d.begin() + static_cast<std::ptrdiff_t>(pos));
        }
        ASSERT_EQ(f.size(), d.size());
        ASSERT_EQ(f.empty(), d.empty());
        if (!d.empty()) {
            const size_t k = rng() % d.size();
            ASSERT_EQ(f[k], d[k]);
        }
    }
    EXPECT_EQ(contents(f), std::vector<int>(d.begin(), d.end()));
}

TEST(Fifo, APoppedElementReleasesWhatItOwnedAtOnce) {
    Fifo<std::shared_ptr<int>> f;
    auto a = std::make_shared<int>(1), b = std::make_shared<int>(2);
    f.push_back(a);
    f.push_back(b);
    EXPECT_EQ(a.use_count(), 2);
    f.pop_front();
    EXPECT_EQ(a.use_count(), 1);  // not held until the storage is reused
    EXPECT_EQ(*f.front(), 2);
    f.erase(f.begin());
    EXPECT_EQ(b.use_count(), 1);
    EXPECT_TRUE(f.empty());
}

TEST(Fifo, DrainedAndFilledAgainItStaysFirstInFirstOut) {
    Fifo<int> f;
    for (int round = 0; round < 3; ++round) {
        for (int i = 0; i < 100; ++i) f.push_back(round * 100 + i);
        for (int i = 0; i < 100; ++i) {
            ASSERT_EQ(f.front(), round * 100 + i);
            f.pop_front();
        }
        EXPECT_TRUE(f.empty());
        EXPECT_EQ(f.begin(), f.end());
    }
}

}  // namespace
}  // namespace evg::hw
