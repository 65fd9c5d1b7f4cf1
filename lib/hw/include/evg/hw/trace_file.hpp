// A launch's trace in a file, so that a tool can time and draw a run made by another process: a user's
// program built with evgcheck_add_program writes every launch it makes to the file named by EVG_TRACE_OUT
// (the ACL shim, lib/ascendc/src/acl.cpp), and `evgcheck run-program --timeline` reads them back.
//
// The file is binary and belongs to one build of evgcheck: its header holds the sizes of the records it
// copies, and a reader of another build refuses it with a message saying so. Op names and source sites are
// written as text and interned again on reading, so nothing in the file is a pointer.
#pragma once
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include "evg/hw/timing.hpp"
#include "evg/hw/trace.hpp"

namespace evg::hw {

struct LaunchRecord {
    timing::Launch launch;
    Trace trace;
    std::vector<std::string> node_labels;  // Report::node_labels (TraceEntry::node indexes them)
};

// Writes the file header (once, at the start of a file).
void write_trace_file_header(std::ostream& out);
// Appends one launch after the header or the previous launch.
void write_launch_record(std::ostream& out, const timing::Launch& launch, const Trace& trace,
                         std::span<const std::string> node_labels);
inline void write_launch_record(std::ostream& out, const LaunchRecord& r) {
    write_launch_record(out, r.launch, r.trace, r.node_labels);
}

// Reads every launch of a file. Throws HostError naming the file and what is wrong with it (not a trace file,
// written by another build, cut short).
std::vector<LaunchRecord> read_trace_file(const std::string& path);

}  // namespace evg::hw
