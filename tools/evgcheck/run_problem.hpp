// What `evgcheck run GRAPH` does with a graph file, without the command line: load the problem (with the
// overrides), validate it, check its range and its estimated cost, make the input data
// (evg::verify::make_case_data), evaluate the oracle, run the model with every checker, and judge the run
// with evg::verify::judge: PASS only when the Verdict has no finding; each finding is printed with its tag.
// The CLI (run.cpp) and the fuzz target problem_file both call it.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "estimate.hpp"
#include "evg/hw/sync_mutation.hpp"
#include "evg/hw/timing.hpp"
#include "evg/verify/data.hpp"
#include "load.hpp"

namespace evgcheck {

// --data exact | uniform | special: evg::verify::make_case_data's modes.
using evg::verify::DataMode;

struct RunSettings {
    uint64_t seed = 1;                             // of the input data
    DataMode mode = DataMode::Exact;               // --data
    uint32_t cores = 2;                            // AI cores launched
    uint64_t scheduler_seed = 0;                   // 0: in order; otherwise the adversarial scheduler's seed
    RunLimits limits;                              // --max-memory, --max-work
    std::vector<evg::hw::SyncMutation> mutations;  // --mutate
    bool list_mutation_points = false;             // --list-mutations
    std::string checks;                            // --check: opt-in checkers, by name
    std::vector<std::string> hazards;              // --hazard: upstream hazards switched on (docs/hazards.md)
    bool timeline = false;                         // --timeline: time the run with the cycle model ...
    // ... and write its summary with this (reports/' cycle_summary_text, which the CLI links).
    std::string (*cycle_summary)(const evg::hw::timing::Timeline&, const evg::hw::Trace&,
                                 const evg::hw::timing::Launch&) = nullptr;
};

// The cycle model's view of the run (--timeline): what the timeline writers of reports/ need.
struct TimedRun {
    evg::hw::Trace trace;
    evg::hw::timing::Timeline timeline;
    std::vector<std::string> node_labels;
    std::string summary;  // evg::reports::cycle_summary_text, also part of RunOutcome::text
};

struct RunOutcome {
    std::string text;  // the report `evgcheck run` prints
    nlohmann::json json;
    bool ok = false;                // the judge's Verdict is clean (evg::verify::judge)
    std::optional<TimedRun> timed;  // with RunSettings::timeline
};

// Throws InputError (the file's text, problem or shapes are bad), ResourceLimitError (the estimate is above a
// limit) or another evg::Error; warnings of validation go to `warnings`.
RunOutcome run_problem(const SourceFile& src, const Overrides& overrides, const RunSettings& settings,
                       std::ostream& warnings);

}  // namespace evgcheck
