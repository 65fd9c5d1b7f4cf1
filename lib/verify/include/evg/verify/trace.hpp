// Small queries over a run's structured trace (hw::TraceEntry carries each sync instruction's kind, event and
// id as fields; nothing here parses the op text).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "evg/hw/instruction.hpp"
#include "evg/hw/report.hpp"
#include "evg/hw/sync_mutation.hpp"

namespace evg::verify {

// One (core, HardEvent, id) whose SetFlag and WaitFlag counts differ.
struct FlagImbalance {
    int core = 0;
    hw::HardEvent event = hw::HardEvent::MAX;
    int id = 0;
    uint64_t sets = 0, waits = 0;
    friend bool operator==(const FlagImbalance&, const FlagImbalance&) = default;
};

// Every (core, event, id) with as many SetFlags as WaitFlags is balanced; the others, ordered by
// (core, event, id).
std::vector<FlagImbalance> unbalanced_flags(const hw::Trace& trace);
// The same from a report's issue counts (hw::LaunchStats::flag_calls), for a run that kept no trace.
std::vector<FlagImbalance> unbalanced_flags(const hw::Report& report);
// "core3 MTE2_V(0): 2 sets, 1 waits"
// "AIV 0 (block 0, sub 0) V_MTE3(5): 1 sets, 0 waits": the core named as the report names it
// (hw::core_name), given the launch's shape.
std::string to_string(const FlagImbalance& f, hw::KernelType type, int block_dim);

// The HardEvents some SetFlag or WaitFlag of the trace uses, by name ("MTE2_V", ...), sorted by name.
std::vector<std::string> events_used(const hw::Trace& trace);
std::vector<std::string> events_used(const hw::Report& report);  // from hw::LaunchStats::flag_calls

// Instructions of the trace per kind.
struct SyncCounts {
    uint64_t plain = 0, set_flag = 0, wait_flag = 0, barrier = 0, cross_set = 0, cross_wait = 0;
    friend bool operator==(const SyncCounts&, const SyncCounts&) = default;
};
SyncCounts sync_counts(const hw::Trace& trace);

}  // namespace evg::verify
