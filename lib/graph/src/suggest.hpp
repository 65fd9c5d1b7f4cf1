// "did you mean" suggestions by edit distance (internal to lib/graph).
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace evg::graph::detail {

// Edit distance (optimal string alignment: an adjacent transposition costs 1), case-insensitive.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate nearest to `word` if it is close enough to be a plausible misspelling
// (distance <= max(1, len/3), or equal ignoring case); ties go to the earlier candidate.
std::optional<std::string_view> nearest(std::string_view word, std::span<const std::string_view> candidates);

// "; did you mean 'AuxLoad'?" or "".
std::string did_you_mean(std::string_view word, std::span<const std::string_view> candidates);

}  // namespace evg::graph::detail
