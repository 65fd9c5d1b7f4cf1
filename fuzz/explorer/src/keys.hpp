// Helpers shared by both engines so that their findings compare.
#pragma once
#include <string>
#include <vector>

#include "evg/explore/model.hpp"

namespace evg::explore::detail {

using explore::counter_key;
using explore::flag_key;
using explore::round_key;
// Sorts findings by (kind, instrs, what) and drops repeats of the same identity.
void normalise(std::vector<Finding>& fs);
// Whether two accesses conflict: same memory, overlapping bytes, one a write, not both atomic.
bool conflict(const Access& a, const Access& b);

}  // namespace evg::explore::detail
