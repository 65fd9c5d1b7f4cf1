// Runs one property over generated cases with a case count, a seed and a shrink budget, and reports a
// failure with a minimal case and a replay line (failure_report). The entry point of the gtest properties and
// of `evgcheck check`.
//
// Shrinking keeps a smaller case only when it fails with the first failure's tag (require.hpp: the first
// finding's verify::Tag name, "assertion" for a bare RC_ASSERT, "exception"); a candidate that fails
// otherwise counts as passing, so the minimal case shows the fault that was found first.
//
// The shrink budget: after the first failure every further call of the property is a shrink step. When the
// steps or the seconds run out, every remaining candidate passes at once, so rapidcheck stops at the best
// (smallest) failing case found so far, which is what gets reported, with a note that the budget ran out.
//
// Jobs: with RunConfig::jobs = N > 1 the case budget is split across N worker processes (fork + pipe, not
// threads: rapidcheck keeps its generation context in plain globals, see runner.cpp). Worker k runs
// cases / N cases (the first cases % N workers one more) with the seed worker_seed(seed, k), and shrinks its
// own failure. The failure of the lowest-numbered failing worker is the one reported, whatever the timing;
// workers after it are stopped when it fails. Its replay line names the worker's seed and case count with
// EVG_PROPS_JOBS=1, the single-process run that draws exactly the worker's cases.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "evg/props/coverage.hpp"
#include "evg/props/generators.hpp"
#include "evg/props/spec.hpp"

namespace evg::props {

// A property over one case: asserts with RC_ASSERT / RC_FAIL (never gtest assertions), and judges a run with
// require_clean (require.hpp), which tags the failure.
using Property = std::function<void(const Case&)>;

struct RunConfig {
    int cases = 100;
    uint64_t seed = 1;
    int max_size = 100;
    int max_discard_ratio = 10;   // rapidcheck gives up after cases * this many RC_PRE discards
    int shrink_steps = 2000;      // property calls after the first failure
    double shrink_seconds = 120;  // wall time after the first failure
    bool shrink = true;
    std::optional<std::filesystem::path> save_dir;  // where the minimal case is saved, if anywhere
    // The folder whose files replay as Regressions.<stem> (props/regressions/): a case saved there gets that
    // replay line; saved elsewhere (the build folder, the default) the seed's replay line and the file's
    // path.
    std::optional<std::filesystem::path> regression_dir;
    // The binary of the replay command (default: this process's executable by its absolute path).
    std::string replay_binary;
    std::string
        replay_filter;  // its --gtest_filter when nothing is saved (default: the name, '/' -> '.', '*')
    GenConfig gen;
    // The Catlass that runs the property's cases: the failure report prints the C++ in its dialect
    // (the upstream corpus: upstream's).
    graph::Implementation dialect = graph::Implementation::evgcheck;
    // The cases, when not case_gen(gen): e.g. compiled graphs with random data and cores (props/corpus).
    std::optional<rc::Gen<Case>> case_source;
    std::function<void(int done, int total)> progress;  // after every passing case
    // Worker processes sharing `cases` (1: this process runs them all). A property that keeps counts beside
    // its verdict must use tally() for them with jobs > 1 (a worker's own variables stay in the worker).
    int jobs = 1;
};

struct Outcome {
    bool ok = true;
    int passed = 0;
    std::optional<Case> minimal;  // the smallest failing case
    std::optional<Case> first;    // the case that failed first, before shrinking
    std::string reason;           // the failed assertion of the minimal case
    std::string tag;              // the failure's tag (every shrink step kept it)
    std::string report;           // failure_report(...) (empty when ok)
    int shrink_steps = 0;
    double shrink_seconds = 0;
    bool budget_exhausted = false;
    std::optional<std::filesystem::path> saved;
    // The run that found the failure: its seed and case count (with jobs > 1 the failing worker's; with
    // jobs = 1 cfg's). A run of jobs 1 with these draws the same cases and fails on the same one.
    uint64_t seed = 0;
    int cases = 0;
    int worker = 0;  // the failing worker (0 with jobs = 1)
    // tally() counts of every property call of the run, summed over the workers.
    std::map<std::string, long long> tallies;
};

Outcome check_property(const std::string& name, const Property& property, const RunConfig& cfg,
                       Coverage* coverage = nullptr);

// Runs `property` on `c` once: its failure (the tag as the shrinker sees it, and the message), or nullopt
// when it passes (or discards the case).
struct Failure {
    std::string tag;
    std::string message;
};
std::optional<Failure> failure_of(const Property& property, const Case& c);

// Adds n to the count `name` of the check_property call that is running (Outcome::tallies): counts a
// property keeps beside its verdict, e.g. how many generated cases a rewrite applied to. Unlike a variable of
// the test, a tally reaches the outcome from every worker process.
void tally(const std::string& name, long long n = 1);

// The seed of worker k of a run with jobs > 1 (distinct for distinct k; a run of jobs 1 uses its seed as is).
uint64_t worker_seed(uint64_t seed, int worker);

// Overrides from the environment: EVG_PROPS_CASE_COUNT (the case count of every property, what `evgcheck
// check --cases` sets), else EVG_PROPS_CASES (a factor applied to every property's count, e.g. 10 for the
// long run); EVG_PROPS_SEED; EVG_PROPS_JOBS (worker processes, what `evgcheck check --jobs` sets). A value
// that is not a whole number in range throws evg::Error naming the variable and what it takes.
int scaled_cases(int cases);
uint64_t env_seed(uint64_t fallback);
int env_jobs(int fallback);

}  // namespace evg::props
