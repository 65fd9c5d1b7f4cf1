// The adapter from a machine trace (hw::TraceEntry with accesses) to the independent schedule explorer
// (fuzz/explorer, namespace evg::explore), which shares no code with lib/hw's checkers.
#pragma once
#include <compare>
#include <optional>
#include <string>
#include <vector>

#include "evg/hw/arch.hpp"
#include "evg/hw/instruction.hpp"

namespace evg::fuzz {

// A data instruction (kind plain) named the same way in two runs of one launch whose sync differs: its core
// and its number among that core's plain instructions, in issue order.
struct DataInstr {
    int core = 0;
    int n = 0;
    auto operator<=>(const DataInstr&) const = default;  // NOLINT(modernize-use-nullptr): clang-tidy 14
};
// explore::ReadFrom with the instructions so named: a read access's bytes [begin, end) and the writes they
// come from (none: no write in the launch, e.g. an input the host wrote).
struct ExplorerRead {
    DataInstr reader;
    int access = 0;  // index in the reader's accesses
    uint32_t begin = 0, end = 0;
    std::vector<DataInstr> writers;
    auto operator<=>(const ExplorerRead&) const = default;  // NOLINT(modernize-use-nullptr): as above
};

struct ExplorerVerdict {
    // Finding kinds, sorted and distinct: "race", "set_twice", "deadlock", "flag_left", "counter_left",
    // "ambiguous". Empty: the explorer proves the trace free of every hazard it decides.
    std::vector<std::string> kinds;
    std::string first;  // the first finding's message, for reports
    bool complete =
        true;  // false: the explorer gave up (explore::Verdict::complete); `kinds` is a best effort
    // Where every read takes its bytes from, known when the explorer proves the trace free of every hazard
    // (explore::Verdict::reads_from): the same in every schedule.
    std::vector<ExplorerRead> reads;
    bool reads_known = false;
};

// Decides the recorded launch (arch, kernel type and block_dim as launched). The trace must have been
// recorded with Config::trace_accesses.
ExplorerVerdict explore_trace(const hw::Trace& trace, hw::ArchId arch, hw::KernelType type, int block_dim);

// The first read whose bytes come from other writes in `mut` than in `ref` (both with reads known), described
// from the two traces: "Mmad@block_mmad.hpp:180 (#57) on AIC0 reads access 0 bytes [0, 512) from no write of
// the launch (unmutated: bytes [0, 512) from LoadData@block_mmad.hpp:170 (#52))". "" when every read is the
// same; nullopt when the two runs' data instructions differ (core by core, by op and site), so that their
// reads do not compare.
std::optional<std::string> first_changed_read(const hw::Trace& ref_trace, const ExplorerVerdict& ref,
                                              const hw::Trace& mut_trace, const ExplorerVerdict& mut,
                                              hw::KernelType type, int block_dim);

}  // namespace evg::fuzz
