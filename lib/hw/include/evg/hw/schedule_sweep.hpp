// Runs one kernel under many adversarial schedules and sums up what they exercised and what they concluded.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "evg/hw/config.hpp"
#include "evg/hw/report.hpp"

namespace evg::hw {

// A run's verdict: the names of its error-severity violation kinds, sorted and joined by '+', or "clean".
std::string verdict_of(const Report& r);

struct ScheduleSweep {
    struct Verdict {
        std::string verdict;  // verdict_of() of the runs
        int runs = 0;         // how many schedules gave it
        uint64_t first_seed = 0;
    };
    int schedules = 0;                     // runs tried
    uint64_t steps = 0;                    // pipe-queue instructions executed, over every run
    ScheduleCoverage covered;              // out-of-order executions, summed over every run
    int runs_with_each[4] = {0, 0, 0, 0};  // runs that exercised plain over plain, plain over set, wait over
                                           // plain, a core hand-off (in the order of ScheduleCoverage)
    std::vector<Verdict> verdicts;         // distinct verdicts, in order of first appearance
    size_t distinct_verdicts() const { return verdicts.size(); }
    std::string text() const;
};

// Runs `run` with `base` switched to the adversarial scheduler and seeds base.seed, base.seed + 1, ...,
// base.seed + seeds - 1. Throws evg::hw::HostError when seeds < 1.
ScheduleSweep adversarial_sweep(const std::function<Report(const Config&)>& run, Config base, int seeds);

}  // namespace evg::hw
