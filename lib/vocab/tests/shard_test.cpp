#include "evg/shard.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace {

TEST(Shard, EveryPositionIsInExactlyOneShard) {
    for (int n = 1; n <= 7; ++n)
        for (std::size_t position = 0; position < 50; ++position) {
            int holders = 0;
            for (int k = 1; k <= n; ++k) holders += evg::Shard{k, n}.holds(position);
            EXPECT_EQ(holders, 1) << "position " << position << " of " << n << " shards";
        }
}

TEST(Shard, SharesDifferByAtMostOne) {
    for (int n = 1; n <= 7; ++n)
        for (std::size_t items = 0; items < 30; ++items) {
            std::vector<int> sizes(static_cast<std::size_t>(n));
            for (std::size_t p = 0; p < items; ++p)
                for (int k = 1; k <= n; ++k)
                    sizes[static_cast<std::size_t>(k - 1)] += evg::Shard{k, n}.holds(p);
            const auto [lo, hi] = std::minmax_element(sizes.begin(), sizes.end());
            EXPECT_LE(*hi - *lo, 1) << items << " items in " << n << " shards";
        }
}

TEST(Shard, ParsesKOfN) {
    std::string why;
    EXPECT_EQ(evg::parse_shard("2/3", why), (evg::Shard{2, 3}));
    EXPECT_EQ(evg::parse_shard("1/1", why), (evg::Shard{1, 1}));
    EXPECT_EQ(evg::parse_shard("2/3", why)->text(), "2/3");
}

TEST(Shard, RefusesWhatIsNotKOfNSayingWhy) {
    const std::pair<const char*, const char*> bad[] = {
        {"3", "is not K/N"},
        {"0/3", "K must be from 1 to N (3)"},
        {"4/3", "K must be from 1 to N (3)"},
        {"1/0", "N must be from 1"},
        {"a/3", "is not K/N"},
        {"1/3x", "is not K/N"},
        {"-1/3", "is not K/N"},
        {"/3", "is not K/N"},
        {"1/99999999999", "is not K/N"},
    };
    for (const auto& [text, says] : bad) {
        std::string why;
        EXPECT_FALSE(evg::parse_shard(text, why).has_value()) << text;
        EXPECT_NE(why.find(says), std::string::npos) << text << ": " << why;
    }
}

}  // namespace
