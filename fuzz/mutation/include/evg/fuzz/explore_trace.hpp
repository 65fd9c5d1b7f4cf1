// The adapter from a machine trace (hw::TraceEntry with accesses) to the independent schedule explorer
// (fuzz/explorer, namespace evg::explore), which shares no code with lib/hw's checkers.
#pragma once
#include <string>
#include <vector>

#include "evg/hw/arch.hpp"
#include "evg/hw/instruction.hpp"

namespace evg::fuzz {

struct ExplorerVerdict {
    // Finding kinds, sorted and distinct: "race", "set_twice", "deadlock", "flag_left", "counter_left",
    // "ambiguous". Empty: the explorer proves the trace free of every hazard it decides.
    std::vector<std::string> kinds;
    std::string first;  // the first finding's message, for reports
    bool complete =
        true;  // false: the explorer gave up (explore::Verdict::complete); `kinds` is a best effort
};

// Decides the recorded launch (arch, kernel type and block_dim as launched). The trace must have been
// recorded with Config::trace_accesses.
ExplorerVerdict explore_trace(const hw::Trace& trace, hw::ArchId arch, hw::KernelType type, int block_dim);

}  // namespace evg::fuzz
