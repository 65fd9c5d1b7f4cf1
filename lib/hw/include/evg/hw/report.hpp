// Violations are values: a kind, a sentence, and the locations involved. A Report prints as text and JSON.
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "evg/hw/arch.hpp"
#include "evg/hw/config.hpp"
#include "evg/hw/site.hpp"

namespace evg::hw {

// The kinds, from their one table (violation_kinds.def), in its order.
enum class ViolationKind : uint8_t {
#define EVG_VIOLATION_KIND(name, finder, what) name,
#include "evg/hw/violation_kinds.def"
};
// Every kind, in the table's order.
inline constexpr ViolationKind kViolationKinds[] = {
#define EVG_VIOLATION_KIND(name, finder, what) ViolationKind::name,
#include "evg/hw/violation_kinds.def"
};
std::string_view violation_kind_name(ViolationKind k);     // "race", "flag_left_set", ...
std::string_view violation_kind_meaning(ViolationKind k);  // when it fires, from the table
// What reports it, from the table: a checker's registry name ("race", "flags", "dcache", "redundant-waits")
// or "engine".
std::string_view violation_kind_finder(ViolationKind k);
std::string_view scheduler_name(SchedulerKind k);  // "in_order", "adversarial"

enum class Severity : uint8_t { error, warning };

// One place involved in a violation: an instruction (or a core, for end-of-kernel checks).
struct Location {
    uint64_t instr = 0;           // instruction number (issue order, 1-based); 0 = none
    int core = -1;                // launch-wide core index
    std::string core_name;        // "AIV 3 (block 1, sub 1)"
    std::string pipe;             // "V", "MTE2", ...
    std::string op;               // "DataCopyPad", "Add", "SetFlag<MTE2_V>(0)"
    std::string memory;           // "UB[AIV 3]", "GM#2 (X)"
    uint64_t begin = 0, end = 0;  // byte range inside that memory
    std::string access;           // "read", "write"
    std::string site;             // "kernel.cpp:42"
    std::string source;           // the text of that line, blanks at both ends dropped; empty when the file
                                  // cannot be read (source_text, site.hpp)
    std::string node;             // the graph node that issued the instruction (or, for a location without
                                  // one, that the core was running): "%1 RowBroadcast float bias
                                  // (graph.evg:6:1)", "VisitorAuxStore<half, ...>"; empty when none
    std::string owner;            // whose code `site` is in: "user", "catlass", "evgcheck", or "" when not
                                  // known (site_owner, site.hpp)
    std::string user_site;        // the user's line the instruction comes from: `site` itself when it is the
                            // user's, else the first of the user's lines in `chain`, else the user's line
                            // that launched the kernel (Report::launch_site); empty when not known
    std::string user_source;  // the text of that line
    // The calls between `site` and the user's line, innermost first (call_chain.hpp): the Catlass frames the
    // instruction was issued through, ending with the user's frame when one is on the core's stack. Empty for
    // an instruction the user's own line issued, and when the program has no debug information.
    struct Frame {
        std::string site;      // "block_epilogue.hpp:120"
        std::string owner;     // "catlass", "user"
        std::string function;  // demangled, as the debug information names it
        bool operator==(const Frame&) const = default;
    };
    std::vector<Frame> chain;
    uint32_t chain_id = 0;  // the captured chain (capture_call_chain) until set_launch_site resolves it
    bool operator==(const Location&) const = default;
};

struct Violation {
    ViolationKind kind;
    Severity severity = Severity::error;
    std::string message;  // a full sentence a user can act on
    std::vector<Location> locations;
    uint64_t occurrences = 1;  // identical violations (same kind and sites) are folded
    // Rules of the model (rules.def) this finding rests on besides those of its kind (rule_bit of each):
    // what only some findings of a kind assume, e.g. an event id above 7 read through its low bits.
    uint64_t rules = 0;
    bool operator==(const Violation&) const = default;
};

// The reorderings a schedule exercised (each counts executions, not distinct instructions).
struct ScheduleCoverage {
    uint64_t plain_over_plain = 0;  // a plain instruction ran before an earlier plain instruction of its pipe
    uint64_t plain_over_set = 0;    // a plain instruction ran before an earlier SetFlag / CrossCoreSetFlag of
                                    // its pipe
    uint64_t wait_over_plain = 0;   // a WaitFlag / CrossCoreWaitFlag was satisfied while an earlier plain
                                    // instruction of its pipe was still queued
    uint64_t core_handoffs = 0;     // the scheduler moved the scalar baton to another core while the current
                                    // core could still issue
    void merge(const ScheduleCoverage& o);
    bool operator==(const ScheduleCoverage&) const = default;
};

struct LaunchStats {
    uint64_t instructions = 0;
    std::map<std::string, uint64_t> per_pipe;  // "V" -> count
    uint32_t ub_peak = 0;                      // highest UB byte touched, over all AIVs
    uint64_t events_set = 0, events_waited = 0;
    // The schedule this run took.
    SchedulerKind scheduler = SchedulerKind::in_order;
    uint64_t seed = 0;   // adversarial only
    uint64_t steps = 0;  // pipe-queue instructions the scheduler executed
    ScheduleCoverage coverage;
    // The most instruction descriptions the machine held at once (Machine::records_peak): the instruction
    // count with Config::keep_trace, bounded without it. A measure of the model, not of the kernel: not part
    // of text() or json(), which stay the same whether the trace was kept or not.
    uint64_t records_peak = 0;
    // SetFlag and WaitFlag instructions issued per (core, HardEvent, id): (sets, waits). What a judge
    // balances when the trace was not kept (evg::verify::unbalanced_flags); not part of text() or json().
    std::map<std::tuple<int, HardEvent, int>, std::pair<uint64_t, uint64_t>> flag_calls;
    bool operator==(const LaunchStats&) const = default;
};

// Numeric exceptions the checker "fp" counted without reporting them (docs/checkers.md, "NaN and infinity").
struct FpCounts {
    bool on = false;         // the checker ran
    uint64_t subnormal = 0;  // subnormal results of the instructions that test their results
    uint64_t born = 0;       // NaN or infinite results made from finite operands (the findings' lanes)
    uint64_t padding = 0;  // NaN or infinite results made from never-written operand lanes (a tile's padding)
    uint64_t born_lost = 0;  // of `born`, lanes of born events past the findings the checker keeps
    // NaN and infinite elements the launch left in a GM buffer it wrote, and how many of them descend from
    // no born event of the launch (an input's NaN passed on: a count only).
    struct InGm {
        std::string buffer;
        uint64_t nan = 0, inf = 0;
        uint64_t from_inputs = 0;
        bool operator==(const InGm&) const = default;
        // "D holds 3 NaN and 1 infinite (all passed on from the inputs)": the one sentence for what a GM
        // buffer holds, in a report's "numeric:" line and in run-program's verdict; "" when it holds neither.
        std::string text() const;
    };
    std::vector<InGm> gm;
    bool operator==(const FpCounts&) const = default;
};

// A report text from_json cannot read: the sentence names the key and its place ("violations[2].locations[0]
// has no 'site'").
struct ReportJsonError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Report {
    std::string arch;
    int block_dim = 0;
    KernelType kernel_type = KernelType::mix_aic_1_2;
    // Sync mutations of Config::mutations that never found their sync call (the run is then not mutated as
    // asked: a harness treats this as an error, not as a clean run).
    std::vector<std::string> mutations_unapplied;
    std::vector<Violation> violations;
    LaunchStats stats;
    FpCounts fp;
    // The graph nodes that issued instructions in this launch, as their EVG named them (evg_node_scope.hpp);
    // TraceEntry::node indexes it.
    std::vector<std::string> node_labels;
    // The GM buffers the findings name, as the host made them (Device::name_buffers): text() ends with them.
    struct GmBuffer {
        std::string name;  // "deviceX": the variable aclrtMalloc stored the pointer in, or "GM#N"
        uint64_t bytes = 0;
        std::string origin;  // "aclrtMalloc at my_evg.cpp:88"; empty for a harness's unnamed allocation
        bool operator==(const GmBuffer&) const = default;
    };
    std::vector<GmBuffer> buffers;
    // The user's line that launched the kernel (a program's call of a Catlass device adapter, or of
    // evg::acl::launch), and its text; empty for a harness's launch. With it, text() heads each finding with
    // the user's line (set_launch_site).
    std::string launch_site, launch_source;
    // Sets launch_site, resolves each location's call chain (Location::chain), and fills each location's
    // user_site that is not the user's own line with the chain's user frame, else with the launch site.
    void set_launch_site(const Site& site);

    bool clean() const;  // no error-severity violation
    // A report of host calls (block_dim 0, arch "host"): the ACL shim's findings about a copy, not a launch.
    bool host() const { return block_dim == 0; }
    size_t count(ViolationKind k) const;
    const Violation* first(ViolationKind k) const;
    std::string text() const;
    std::string json() const;
    // The report json() wrote, read back: every field json() writes, by the same keys (the fields it does not
    // write, kernel_type, node_labels, records_peak, flag_calls and chain_id, stay at their defaults). A key
    // missing or of the wrong type is a ReportJsonError naming it and where it was looked for.
    static Report from_json(std::string_view text);
    bool operator==(const Report&) const = default;
    // The adversarial scheduler's line of text() (its seed, steps and what it reordered); empty in order.
    std::string schedule_text() const;
    // The "numeric:" line of text() (FpCounts: NaN and infinities in GM, subnormals, padding); empty when
    // there is nothing to say.
    std::string fp_text() const;
};

}  // namespace evg::hw
