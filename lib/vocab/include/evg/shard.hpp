// A deterministic share of a long run (`evgcheck check --catlass-root --shard K/N`, `evgcheck conformance
// --shard K/N`, docs/ci-matrix.md): the run's items are numbered in its own order from 0, and shard K of N
// (K from 1) holds the items whose number leaves K - 1 when divided by N. Every item is in exactly one shard,
// the shards differ in size by at most one, and an item's shard depends on its number only, so the N shards
// together are the unsharded run: the same items, each run as the unsharded run runs it.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace evg {

struct Shard {
    int index = 1;  // K, from 1
    int count = 1;  // N
    bool holds(std::size_t position) const {
        return position % static_cast<std::size_t>(count) == static_cast<std::size_t>(index - 1);
    }
    bool whole() const { return count == 1; }
    std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
    bool operator==(const Shard&) const = default;
};

// "K/N" with 1 <= K <= N <= 10000, decimal digits only. nullopt with `why` set (a sentence naming what is
// wrong) otherwise.
std::optional<Shard> parse_shard(std::string_view text, std::string& why);

}  // namespace evg
