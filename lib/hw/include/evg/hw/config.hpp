// What a launch checks and how it schedules. Every checker is on by default; each can be switched off.
#pragma once
#include <cstdint>

#include <vector>

#include "evg/hw/arch.hpp"
#include "evg/hw/sync_mutation.hpp"

namespace evg::hw {

struct CheckerConfig {
    bool race = true;    // happens-before between pipes and cores
    bool flags = true;   // set twice, deadlock, left set, counters, atomic mode, event legality
    bool memory = true;  // bounds, alignment, truncated copies, UB carving, parameter ranges
    bool uninit = true;  // never-written bytes reaching GM or a scalar read
    static CheckerConfig none() { return {false, false, false, false}; }
};

enum class SchedulerKind : uint8_t {
    in_order,     // functional: every pipe runs its queue in issue order as soon as its flags allow
    adversarial,  // seeded: runs pipe queues, and unordered instructions inside a pipe, in any order flags
                  // allow
};

struct Config {
    ArchId arch = ArchId::AtlasA2;
    CheckerConfig checks;
    SchedulerKind scheduler = SchedulerKind::in_order;
    uint64_t seed = 0;                      // adversarial scheduler seed (replayable)
    uint32_t reorder_window = 4;            // adversarial: how far an unordered instruction may overtake
    size_t max_violations = 256;            // distinct violations kept; further ones are counted only
    uint64_t max_instructions = 500000000;  // a kernel issuing more is stopped and reported
    bool keep_trace = true;                 // keep every instruction's description for reports and tests
    bool trace_accesses = false;            // with keep_trace: record every access (TraceEntry::accesses)
    std::vector<SyncMutation> mutations;    // sync calls rewritten as they are issued (sync_mutation.hpp)
};

}  // namespace evg::hw
