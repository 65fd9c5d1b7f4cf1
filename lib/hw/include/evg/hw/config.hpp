// What a launch checks and how it schedules. Every checker that finds faults is on by default and can be
// switched off; a checker that finds costs or portability (redundant_waits, portable_v_order) is switched on
// by name (enable_checks, `evgcheck run --check`, EVG_CHECK).
#pragma once
#include <cstdint>

#include <vector>

#include "evg/hw/arch.hpp"
#include "evg/hw/sync_mutation.hpp"

namespace evg::hw {

struct CheckerConfig {
    bool race = true;              // happens-before between pipes and cores
    bool flags = true;             // set twice, deadlock, left set, counters, atomic mode, event legality
    bool memory = true;            // bounds, alignment, truncated copies, UB carving, parameter ranges
    bool uninit = true;            // never-written bytes reaching GM or a scalar read
    bool dcache = true;            // GM reads of bytes a scalar write left in a data cache (checker "dcache")
    bool redundant_waits = false;  // WaitFlags that order nothing (checker "redundant-waits")
    bool portable_v_order =
        false;  // Ascend950 V pairs only its in-order V pipe orders (checker "portable-v-order")
    bool node_slots = false;  // UB bytes written by two graph nodes (checker "node-slots")
    bool fp = true;           // where NaN and infinities are born and where they go (checker "fp")
    // Every check off: the machine then reports only what it cannot execute (deadlock, kernel exceptions,
    // unmodelled calls).
    static constexpr CheckerConfig none() {
        return {.race = false,
                .flags = false,
                .memory = false,
                .uninit = false,
                .dcache = false,
                .redundant_waits = false,
                .portable_v_order = false,
                .node_slots = false,
                .fp = false};
    }
};

// The severity of the checker "fp"'s findings (`--fp`, EVG_FP). graded: a NaN or infinity born from finite
// operands is an error when it reaches GM and a warning otherwise; warn: every such finding a warning (what a
// harness with an oracle uses: the oracle's comparison judges the values); error: every one an error. (off
// is CheckerConfig::fp = false.)
enum class FpPolicy : uint8_t { graded, warn, error };
// The policy of a run an oracle judges (graph::run_on_model, the static and upstream corpora): a NaN the
// graph makes is the graph's own math when the oracle computes it too, so the comparison decides.
inline constexpr FpPolicy kFpPolicyWithOracle = FpPolicy::warn;

enum class SchedulerKind : uint8_t {
    in_order,     // functional: every pipe runs its queue in issue order as soon as its flags allow
    adversarial,  // seeded: runs pipe queues, and unordered instructions inside a pipe, in any order flags
                  // allow
};

struct Config {
    ArchId arch = ArchId::AtlasA2;
    CheckerConfig checks;
    FpPolicy fp_policy = FpPolicy::graded;
    SchedulerKind scheduler = SchedulerKind::in_order;
    uint64_t seed = 0;                      // adversarial scheduler seed (replayable)
    uint32_t reorder_window = 4;            // adversarial: how far an unordered instruction may overtake
    size_t max_violations = 256;            // distinct violations kept; further ones are counted only
    uint64_t max_instructions = 500000000;  // a kernel issuing more is stopped and reported
    // Keep every instruction's description (Machine::trace, Device::last_trace) for reports and tests. With
    // it, a launch costs one TraceEntry per instruction and may issue at most 2^32 - 1 instructions; without
    // it, the machine keeps only the descriptions its checkers still refer to, so its memory does not grow
    // with the instruction count, and the report is the same.
    bool keep_trace = true;
    bool trace_accesses = false;  // with keep_trace: record every access (Trace::accesses_of)
    // Keep each instruction's call chain (call_chain.hpp), so that findings name the user's line behind a
    // library's: a program's launches (the ACL shim sets it); evgcheck's harnesses leave it off and pay
    // nothing.
    bool call_chains = false;
    // Without keep_trace: the retained descriptions are pruned each time they double past this many (tests
    // lower it to prune often).
    uint64_t record_floor = 65536;
    std::vector<SyncMutation> mutations;  // sync calls rewritten as they are issued (sync_mutation.hpp)
};

}  // namespace evg::hw
