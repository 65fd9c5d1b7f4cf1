// Stable names of flags, counters and rounds, shared by both engines so that their findings compare.
#pragma once
#include <string>
#include <vector>

#include "evg/explore/model.hpp"

namespace evg::explore::detail {

// "AIV0.1:MTE2_V(0)"
std::string flag_key(const Topology& t, int core, Event e, int id);
// "AIV0.1:cross(ns0)3"
std::string counter_key(const Topology& t, const CounterKey& k);
// "round(mode1,group0)3"
std::string round_key(int mode, int group, int flag);
// Sorts findings by (kind, instrs, what) and drops repeats of the same identity.
void normalise(std::vector<Finding>& fs);
// Whether two accesses conflict: same memory, overlapping bytes, one a write, not both atomic.
bool conflict(const Access& a, const Access& b);

}  // namespace evg::explore::detail
