// examples-report.md: one Markdown row per example case, written into the working directory (under ctest,
// the build folder of this suite). ctest runs every case in its own process, so each process merges its rows
// into the file under an exclusive lock (rows keyed by example and configuration; a re-run replaces its row).
#pragma once
#include <cstdint>
#include <string>

namespace evg::examples {

struct ReportRow {
    std::string example;  // "Seed000_32_Add"
    std::string config;   // "AtlasA2_half_m65_n100_k40_CL256"
    uint32_t compute_length = 0;
    bool pass = false;          // every check of the case held
    uint64_t ub_peak = 0;       // report.stats.ub_peak
    uint64_t ub_expected = 0;   // from UbAccounting
    uint64_t instructions = 0;  // report.stats.instructions
    std::string violations;     // "none" or "race x2, uninit_to_gm x1"
    std::string comparison;     // per output: "D bit-exact", "D ulp<=4"
};

// Queues the row; all queued rows are merged into examples-report.md when the test program ends.
void record_row(const ReportRow& row);

// The file name, relative to the working directory.
inline constexpr const char* kReportFile = "examples-report.md";

}  // namespace evg::examples
