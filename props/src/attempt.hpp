// The parts of the property runner that runner.cpp (one process) and workers.cpp (forked workers) share: one
// rapidcheck run with shrinking (attempt), the Outcome it makes (conclude), and this process's tallies.
#pragma once
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "evg/props/runner.hpp"

namespace evg::props::detail {

struct ShrinkState {
    bool failed = false;
    int steps = 0;
    std::chrono::steady_clock::time_point first_failure;
    bool exhausted = false;
    std::optional<Case> best;
    std::optional<Case> first;  // the first failing case (before shrinking)
    std::string reason;
    std::string tag;  // the first failure's tag: a shrink candidate must fail with it to be kept
};

// What one rapidcheck run (this process's, or one worker's) ended with.
struct Attempt {
    ShrinkState st;
    int passed = 0;
    std::optional<std::string> rc_failure;  // rapidcheck's description of a failure
    std::string error;                      // a worker that ended without a result: how it ended
    double shrink_seconds = 0;
};

// What a run reports as it goes: a passing case (with the count so far), the first failure.
struct Hooks {
    std::function<void(int passed)> on_pass;
    std::function<void()> on_first_failure;
};

// tally()'s counts for the check_property call that is running (per process: each worker has its own).
std::map<std::string, long long>& process_tallies();

// One rapidcheck run of `cases` cases from `seed` in this process, shrinking a failure (see runner.hpp).
Attempt attempt(const std::string& name, const Property& property, const RunConfig& cfg, uint64_t seed,
                int cases, Coverage* coverage, const Hooks& hooks);

// The Outcome of a run that drew `cases` cases from `seed` (a worker's when `worker`), with its report and
// replay line.
Outcome conclude(const std::string& name, const RunConfig& cfg, const Attempt& a, uint64_t seed, int cases,
                 bool worker);

// The run split over cfg.jobs forked workers (workers.cpp); `progress_lines`: print one line per passing
// case.
Outcome check_in_workers(const std::string& name, const Property& property, const RunConfig& cfg,
                         Coverage* coverage, bool progress_lines);

}  // namespace evg::props::detail
