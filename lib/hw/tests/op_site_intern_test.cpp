// intern_op_site (lib/hw/src/trace.cpp) gives one id per distinct (op, file, line) and gives it back however
// the pair is asked for: from a transient string, in any order, after thousands of other pairs have gone
// through the per-thread caches in front of the shared table (so their slots collide and are overwritten),
// from another thread, and for a file named at two addresses.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "evg/hw/trace.hpp"

namespace evg::hw {
namespace {

struct Pair {
    std::string op;
    const char* file;
    uint32_t line;
};

// Ops that differ only in their last characters, or in their length, at shared and distinct lines.
std::vector<Pair> pairs(const char* file_a, const char* file_b) {
    std::vector<Pair> out;
    for (uint32_t line = 1; line <= 40; ++line)
        for (int k = 0; k < 50; ++k) {
            out.push_back({"SetFlag<MTE2_V>(" + std::to_string(k) + ")", file_a, line});
            out.push_back({"SetFlag<MTE2_V>(" + std::to_string(k) + ")", file_b, line});
            out.push_back({std::string(static_cast<size_t>(k), 'x'), file_a, line});
        }
    out.push_back({"", nullptr, 0});
    out.push_back({"", file_a, 0});
    return out;
}

using Key = std::tuple<std::string, std::string, uint32_t>;

TEST(OpSiteIntern, OneIdPerDistinctPairAskedAnyWay) {
    static const char kFileA[] = "kernel_a.cpp";
    static const char kFileB[] = "kernel_b.cpp";
    const auto all = pairs(kFileA, kFileB);
    std::map<Key, uint32_t> first;
    for (int round = 0; round < 3; ++round)
        for (size_t i = 0; i < all.size(); ++i) {
            // Round 1 walks backwards; every call passes a fresh copy of the op text.
            const Pair& p = all[round == 1 ? all.size() - 1 - i : i];
            const std::string op = p.op;
            const uint32_t id = intern_op_site(op, Site{p.file, p.line});
            EXPECT_EQ(interned_op(id), p.op);
            EXPECT_EQ(interned_site(id).line, p.line);
            EXPECT_EQ(std::string(interned_site(id).file ? interned_site(id).file : ""),
                      std::string(p.file ? p.file : ""));
            const Key key{p.op, p.file ? p.file : "", p.line};
            const auto [it, fresh] = first.emplace(key, id);
            EXPECT_EQ(it->second, id) << p.op << " at " << (p.file ? p.file : "(none)") << ":" << p.line;
        }
    // Distinct pairs, distinct ids.
    std::map<uint32_t, Key> by_id;
    for (const auto& [key, id] : first)
        EXPECT_TRUE(by_id.emplace(id, key).second) << "id " << id << " shared";

    // Another thread starts with empty caches and gets the same ids.
    std::thread([&] {
        for (const Pair& p : all) {
            const Key key{p.op, p.file ? p.file : "", p.line};
            EXPECT_EQ(intern_op_site(p.op, Site{p.file, p.line}), first.at(key));
        }
    }).join();

    // The same file name at another address is the same file.
    const std::string copy_of_a = kFileA;
    EXPECT_EQ(intern_op_site("SetFlag<MTE2_V>(7)", Site{copy_of_a.c_str(), 3}),
              first.at(Key{"SetFlag<MTE2_V>(7)", kFileA, 3}));
}

}  // namespace
}  // namespace evg::hw
