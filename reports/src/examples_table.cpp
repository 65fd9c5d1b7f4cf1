#include "evg/reports/examples_table.hpp"

#include <vector>

#include <fmt/format.h>

#include "merged_table.hpp"

namespace evg::reports {

namespace {

constexpr const char* kHeader =
    "| example | arch / dtype / shape / CL | CL | result | UB peak (B) | UB expected (B) | instructions | "
    "violations | comparison |\n"
    "|---|---|---:|---|---:|---:|---:|---|---|\n";

std::string format_row(const ExampleRow& r) {
    return fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} |", r.example, r.config,
                       r.compute_length, r.pass ? "pass" : "FAIL", r.ub_peak, r.ub_expected, r.instructions,
                       r.violations, r.comparison);
}

}  // namespace

std::string merge_examples_report(std::string_view existing, std::span<const ExampleRow> rows) {
    std::vector<std::string> lines;
    lines.reserve(rows.size());
    for (const ExampleRow& r : rows) lines.push_back(format_row(r));
    const auto table = detail::merged_rows(existing, "example", lines);  // by example, then configuration
    size_t passed = 0;
    for (const auto& [k, line] : table)
        if (line.find("| pass |") != std::string::npos) ++passed;
    std::string out =
        "# Seed examples on the model\n\n"
        "Written by `evg_conformance_examples` (conformance/examples). One row per case: the example, the\n"
        "configuration (arch, element type, M/N/K, computeLength), whether every check held (clean report,\n"
        "outputs against the oracle, UB peak against UbAccounting), the measured and expected UB peak, the\n"
        "instructions issued and the violations the machine reported.\n\n";
    out += fmt::format("{} of {} cases pass.\n\n", passed, table.size());
    out += kHeader;
    for (const auto& [k, line] : table) out += line + '\n';
    return out;
}

}  // namespace evg::reports
