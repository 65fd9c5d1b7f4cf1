// The up-front cost of `evgcheck run` on a problem: what the run would allocate and how much it would
// compute, estimated from the shapes before anything is allocated, so that a problem too large for the
// machine (or for a fuzzing session's budget) is refused with a clear error instead of bad_alloc, an OOM kill
// or a hang.
#pragma once
#include <cstdint>
#include <string>

#include "evg/graph/graph.hpp"
#include "evg/hw/error.hpp"

namespace evgcheck {

struct RunEstimate {
    // Peak bytes: the host data (A, B, every tensor buffer), its copies into RunInputs and the model's GM
    // (each byte with its written flag and race shadow), the GEMM workspace, the oracle's values (one
    // long double per element of M x N for C, two temporaries, and the most node values alive at once: the
    // oracle lets a value go after its last reader unless the judge reads it), the machine's bounded record
    // table, and, when the trace is kept, kTraceBytesPerInstruction times `instructions`.
    double bytes = 0;
    // Instructions the model issues: per L1 tile, the GEMM's L1 loads and L0 steps (L0 K = 32) and the
    // epilogue's per-node instructions for each computeLength chunk.
    double instructions = 0;
    // Element operations: the GEMM's multiply-adds over the padded tiles plus one per node per element of the
    // padded M x N (the model's run time is proportional to these).
    double element_ops = 0;
    bool keep_trace = false;  // the run keeps the trace (--list-mutations, --timeline)
    bool timeline = false;    // ... with its accesses and a time per instruction (--timeline)
};

// What a kept trace costs per issued instruction: a 40-byte record (lib/hw/include/evg/hw/instruction.hpp),
// measured at 42 B per instruction on the 700-node chain (bench/README.md, BM_Chain700). Only
// `--list-mutations` keeps the trace; without it the machine keeps the records its checkers still name, at
// most twice Config::record_floor (64 K) of them, whatever the instruction count (kRecordTableBytes).
inline constexpr double kTraceBytesPerInstruction = 48;
inline constexpr double kRecordTableBytes = 2.0 * 65536 * 64;
// `--timeline` keeps the trace with every access (32-byte records, about three per instruction) and times
// each instruction (a timing::Slice): measured at 330 B per instruction on a 64-node chain (bench/README.md,
// BM_Timeline), charged with a margin.
inline constexpr double kTimelineBytesPerInstruction = 384;

RunEstimate estimate_run(const evg::graph::Problem& p, bool keep_trace = false, bool timeline = false);

struct RunLimits {
    uint64_t max_memory_mib = 8192;  // --max-memory
    double max_element_ops = 0;      // --max-work (millions on the command line); 0: no limit
};

// Refusal of a problem whose estimate exceeds a limit. what() names the estimate and the option to raise it.
class ResourceLimitError : public evg::Error {
  public:
    using evg::Error::Error;
};

// Throws ResourceLimitError ("<where>: the run would need about 12.3 GiB (...); the limit is 8 GiB: raise it
// with --max-memory MIB").
void check_limits(const RunEstimate& e, const RunLimits& limits, const std::string& where);

// "1.5 GiB", "640 MiB", "12 KiB", "80 B".
std::string format_bytes(double bytes);

}  // namespace evgcheck
