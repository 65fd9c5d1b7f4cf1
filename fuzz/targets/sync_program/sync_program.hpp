// The sync_program fuzz target's parts: decoding bytes into a small program, running it on the machine
// through the AscendC API, and comparing the machine's report with the explorer's verdict.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "evg/explore/model.hpp"
#include "evg/hw/config.hpp"
#include "evg/hw/report.hpp"
#include "pattern_table.hpp"

namespace evg::fuzz {

// Every byte string decodes to a valid program: 1-2 AI cores (AIV-only with 1 or 2 AIVs, or a mix launch of
// one block: AIC0, AIV0.0, AIV0.1), at most kMaxOps ops, two 128-byte GM buffers and a 128-byte local memory
// per core (UB; L1 on the AIC). Copies and vector ops move one 32-byte block (8 floats); scalar ops touch the
// first float of a block.
inline constexpr int kMaxOps = 20;
inline constexpr int kMaxOpsPerCore = 10;
inline constexpr uint32_t kBytes = 128;
explore::Program decode_sync_program(const uint8_t* data, size_t size);
// The inverse, for programs the decoder can make (seed corpora, regressions): decode(encode(p)) == p.
// Throws explore::Error naming what the decoder cannot produce.
std::vector<uint8_t> encode_sync_program(const explore::Program& p);

// A run of the program on the machine: its report and the two GM buffers afterwards.
struct MachineRun {
    hw::Report report;
    std::vector<uint8_t> gm;
};
MachineRun run_on_machine(const explore::Program& p, hw::SchedulerKind scheduler, uint64_t seed);

// The op a machine location names ("core<c>:<index+1>"), as an explorer op id; -1 if none.
int op_of_site(const explore::Program& p, const std::string& site);

// Compares the machine's report with the explorer's verdict, finding by finding. `ambiguous`: the explorer's
// happens-before engine finds ambiguous cross-core matching in the program. Returns "" when they agree,
// otherwise who said what.
std::string compare_verdicts(const explore::Program& p, const hw::Report& machine,
                             const explore::Verdict& explored, bool ambiguous = false);

// The EVG-FINDING signature of a disagreement (compare_verdicts' text, or the target's own checks): what
// disagrees, without what varies with the input. "sync_program: " and the text up to its first ':' (the whole
// first line when it has none), every number written '#': "sync_program: deadlock", "sync_program:
// adversarial seed # reports a violation on a program both call clean". Two bugs of one kind share it; the
// detail tells them apart.
std::string disagreement_signature(std::string_view what);

// Thrown instead of aborting when EVG_SYNC_COLLECT is set (the replay driver then saves the input and goes
// on).
struct Disagreement : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The hand-made seeds of fuzz/corpus/sync_program/, by file name (without ".bin").
std::vector<std::pair<std::string, explore::Program>> sync_program_seeds();

// Structure-aware mutation: decodes the input, applies one to three edits to its ops (insert, delete, swap,
// change a mode / pipe / flag / id / direction, duplicate a core's stream onto its sibling or exchange the
// two, copy a cross-core op to another core, now and then the other chip) and encodes the result. Returns an
// input of at most `max_size` bytes that decodes to the edited program, which differs from the input's, or
// nothing when no edit fit (the caller then mutates bytes). Deterministic in `seed`.
std::vector<uint8_t> mutate_sync_program(const uint8_t* data, size_t size, size_t max_size, uint64_t seed);

// The sync patterns a program reaches (patterns.cpp): stable names of features of its flag and cross-core
// counter use (modes per counter, waited or not, how the happens-before engine resolves it, flags shared by
// pipes, set-to-wait distances, ids shared by events, the kinds of finding), from the program and
// `decided`, the explorer's happens-before verdict of one recorded run.
std::vector<std::string> sync_patterns(const explore::Program& p, const explore::Verdict& decided);

struct SyncProgramStats {
    uint64_t inputs = 0, compared = 0, clean = 0, incomplete = 0, ambiguous = 0, set_twice = 0,
             memory_checked = 0;
    uint64_t undecided =
        0;  // the happens-before decision gave up (explore::decide's attempt cap): not compared
};
SyncProgramStats& sync_program_stats();
std::string describe_program(const explore::Program& p);

}  // namespace evg::fuzz
