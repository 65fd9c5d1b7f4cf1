// What the timeline writers (timeline_json.cpp, timeline_html.cpp) share.
#pragma once
#include <string>
#include <string_view>

#include "evg/reports/timeline.hpp"

namespace evg::reports::detail {

std::string json_string(std::string_view s);  // a JSON string literal, quotes included
// Track 0 is the scalar unit (its own and its blocking instructions), track p + 1 the pipe of slot p.
int track_of(const hw::TraceEntry& e);
std::string_view track_name(int track);
int track_order(int track);  // S, MTE2, V, MTE3, MTE1, M, FIX
// What a wait or barrier waited for: "SetFlag<MTE2_V>(0) on AIV0 MTE2 (instruction 12, ends at cycle 102)".
std::string waited_for(const TimelineInput& in, const hw::timing::Slice& s);

}  // namespace evg::reports::detail
