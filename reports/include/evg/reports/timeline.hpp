// The cycle model's timeline (evg/hw/timing.hpp) as a file a person can look at: Chrome trace / Perfetto
// JSON, or a self-contained HTML page (docs/cycle-model.md §5).
//
// One process per core, one track per pipe (the scalar unit's own instructions on track "S"), a slice per
// instruction with its op, graph node, bytes, repeats and issue site in args, a child slice "stall: ..." over
// the cycles a wait held its pipe, a flow arrow from each SetFlag (or cross-core set) to the wait it
// released, and a counter track of the UB bytes holding a value still to be read. Time unit: 1 "us" of the
// trace is one cycle (integers, so slices that touch never overlap by rounding).
#pragma once
#include <cstddef>
#include <iosfwd>
#include <map>
#include <span>
#include <string>

#include "evg/hw/timing.hpp"
#include "evg/hw/trace.hpp"

namespace evg::reports {

struct TimelineInput {
    const hw::Trace& trace;
    const hw::timing::Timeline& timeline;
    std::span<const std::string> node_labels;  // hw::Report::node_labels (TraceEntry::node indexes them)
    std::string title;                         // e.g. the graph file and its problem line
    std::string summary;                       // cycle_summary_text (cycle_summary.hpp)
    // Instructions a finding names (its kind and message, e.g. where a NaN was born): the JSON marks each
    // with an instant event on its track and a "finding" argument; the page lists them with their cycle.
    std::map<uint64_t, std::string> marks = {};
};

void write_timeline_json(std::ostream& out, const TimelineInput& in);

// The page draws at most `max_slices` instructions. A larger run is cut by time, never by trace order: the
// page shows the window [0, T) of cycles, with every instruction of every core that starts before T (clipped
// at T), T being the latest cycle for which that is at most max_slices; the page says which window it shows.
// The JSON keeps every instruction.
inline constexpr size_t kHtmlMaxSlices = 200000;
void write_timeline_html(std::ostream& out, const TimelineInput& in, size_t max_slices = kHtmlMaxSlices);

}  // namespace evg::reports
