// Test helpers: findings of a verdict as sets, and the comparison of the two engines' verdicts.
#pragma once
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>

#include "evg/explore/model.hpp"

namespace evg::explore {

inline std::set<std::pair<int, int>> race_pairs(const Verdict& v) {
    std::set<std::pair<int, int>> out;
    for (const Finding* f : v.of(FindingKind::race)) out.insert({f->instrs.at(0), f->instrs.at(1)});
    return out;
}
inline std::set<int> ids(const Verdict& v, FindingKind k) {
    std::set<int> out;
    for (const Finding* f : v.of(k))
        for (int i : f->instrs) out.insert(i);
    return out;
}
inline std::set<std::string> keys(const Verdict& v, FindingKind k) {
    std::set<std::string> out;
    for (const Finding* f : v.of(k)) out.insert(f->what);
    return out;
}
// Every finding of one engine has the same identity in the other.
inline bool same_findings(const Verdict& a, const Verdict& b) {
    if (a.findings.size() != b.findings.size()) return false;
    for (size_t i = 0; i < a.findings.size(); ++i)
        if (!a.findings[i].same(b.findings[i])) return false;
    return true;
}
inline void expect_same(const Verdict& decided, const Verdict& explored) {
    EXPECT_TRUE(same_findings(decided, explored)) << "decide:\n"
                                                  << decided.text() << "explore:\n"
                                                  << explored.text();
}

}  // namespace evg::explore
