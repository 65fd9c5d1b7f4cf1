// examples-report.md: the seed examples' cases on the model (conformance/examples), one Markdown row per
// case. Each test process of the suite adds its rows to the file as it finds it (ctest runs every case in its
// own process); this is the text of that merge, and conformance/examples/report_table.cpp does the file's
// locking.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace evg::reports {

struct ExampleRow {
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

// The file's text after adding `rows` to `existing` (the file as it was; empty for a new one): the rows of
// both, keyed by example and configuration (a new row replaces the existing row of its key), sorted by that
// key, under the heading and the count of cases that pass.
std::string merge_examples_report(std::string_view existing, std::span<const ExampleRow> rows);

}  // namespace evg::reports
