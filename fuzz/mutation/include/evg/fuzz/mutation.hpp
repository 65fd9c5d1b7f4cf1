// Classification of one sync mutation of a subject (fuzz/mutation/README.md): the mutated run's checkers
// against the independent schedule explorer's verdict on the mutated trace.
//
//   caught       the explorer finds a hazard (race, set twice, deadlock, flag or counter left, cross-core
//                ambiguity) and a sync checker fired (which ones: `checkers`);
//   output_only  the explorer finds a hazard, no sync checker fired, but the outputs differ from the
//                unmutated run's or another checker (uninit, memory) fired: a checker miss;
//   reordered    the explorer proves no hazard, but a read takes its bytes from other writes than in the
//                unmutated run (ExplorerVerdict::reads: the same in every schedule), and the outputs differ
//                or another checker (uninit) fired: a mutation that orders a read before the write it used to
//                take, which no race shows; when nothing shows it, the verdict is missed;
//   harmless     the explorer proves no hazard, every read takes the bytes it took unmutated, no checker
//                fired, the outputs equal the unmutated ones, and so do `adversarial` seeded adversarial
//                schedules, each clean;
//   missed       the explorer finds a hazard, or a changed read, and nothing shows it;
//   false_alarm  a sync checker fired on a mutation the explorer proves harmless;
//   divergent    the explorer proves no hazard and every read the same as unmutated (or cannot compare
//                them: the data instructions differ), and the in-order run has no sync finding, but the
//                outputs differ, another checker fired, or an adversarial schedule runs dirty or gives other
//                outputs;
//   unapplied    the mutation found no sync call (Report::mutations_unapplied) or the run threw.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "evg/fuzz/explore_trace.hpp"
#include "evg/fuzz/subject.hpp"
#include "evg/hw/sync_mutation.hpp"
#include "evg/reports/sync_table.hpp"

namespace evg::fuzz {

using reports::SyncVerdict;

// The unmutated run of a subject and its mutation points.
struct Reference {
    SubjectRun run;
    std::vector<hw::SyncMutation> points;  // hw::mutation_points of the run's trace
    bool clean = false;                    // the unmutated run has no error-severity violation
    std::string problem;                   // when not clean: its first violation
    // (core short name, sync index) -> the Site file of that sync call.
    std::map<std::pair<std::string, int>, std::string> sync_files;
    // The explorer on the unmutated trace (recorded with its accesses): where every read takes its bytes
    // from, when the explorer proves it free of hazards (explored.reads_known).
    ExplorerVerdict explored;
};
Reference reference_run(const Subject& s);

struct Classification {
    SyncVerdict verdict = SyncVerdict::unapplied;
    std::vector<std::string> checkers;  // sync checkers that fired (violation kind names: "race", ...)
    std::vector<std::string> others;    // other error checkers that fired ("uninit_to_gm", ...)
    std::vector<std::string> explorer;  // the explorer's finding kinds ("race", "set_twice", ...)
    bool outputs_differ = false;        // in-order mutated outputs against the unmutated ones
    // The sync checkers' kinds in the explorer's names (race, set_twice, deadlock, flag_left, counter_left,
    // ambiguous; legality checkers have no counterpart and are left out).
    std::vector<std::string> checker_kinds;
    std::string changed_read;     // reordered (or missed for it): the first read whose writes changed
    std::string divergent_instr;  // the first instruction where the mutated trace leaves the unmutated one:
                                  // "WaitFlag<MTE2_V>(0)@block_epilogue_visitor.hpp:120"
    std::string detail;           // one line: what each side said
};

struct ClassifyOptions {
    int adversarial = 3;         // adversarial schedules a harmless mutation must survive
    uint64_t schedule_seed = 1;  // their seeds: schedule_seed, schedule_seed + 1, ...
};

Classification classify(const Subject& s, const Reference& ref, const std::vector<hw::SyncMutation>& plan,
                        const ClassifyOptions& opt = {});

// Whether a violation kind is one of the sync checkers (race, flags, deadlock, counters, cross-core).
bool is_sync_checker(hw::ViolationKind k);

// The component whose code issued the sync call a mutation names, from the call's Site in the unmutated
// trace: visitor_<x>.hpp -> the node kind (visitor_row_broadcast.hpp -> "RowBroadcast"), operations.hpp ->
// "Compute", block_epilogue*.hpp -> "BlockEpilogue", the GEMM kernels, block_mmad.hpp and cross_core_sync.hpp
// -> "Kernel"; any other file of a seed kernel subject -> the kernel's name; else the file name.
std::string node_kind(const Subject& s, const Reference& ref, const hw::SyncMutation& m);
std::string node_kind_of_file(const std::string& file, const std::string& kernel);

// "drop-wait" (the first mutation's operator; "a+b" for a plan of two).
std::string plan_operator(const std::vector<hw::SyncMutation>& plan);

// The patterns a classified mutation reaches (the epilogue_mutation target's pattern table and libFuzzer
// extra counters, fuzz/common/pattern_table.hpp): what was mutated where, and how the two sides judged it.
// Few enough that each says something (a session reaches a few hundred):
//   "launch <chip> <path>"                              A2 or 950, gm or ub
//   "<op> in <node kind>"                               each mutation of the plan
//   "<op> in <node kind>: <verdict>"                    a plan of one; "two mutations: <verdict>" otherwise
//   "<verdict>: checkers <kinds>; explorer <kinds>"     which checkers fired against what the explorer found
// (kinds joined by '+', or "none").
std::vector<std::string> mutation_patterns(const Subject& s, const Reference& ref,
                                           const std::vector<hw::SyncMutation>& plan,
                                           const Classification& c);

}  // namespace evg::fuzz
