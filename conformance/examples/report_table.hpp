// examples-report.md: one Markdown row per example case, written into the working directory (under ctest,
// the build folder of this suite). ctest runs every case in its own process, so each process merges its rows
// into the file under an exclusive lock when it ends; the file's text is written by reports/
// (evg/reports/examples_table.hpp).
#pragma once
#include "evg/reports/examples_table.hpp"

namespace evg::examples {

// Queues the row; all queued rows are merged into examples-report.md when the test program ends.
void record_row(const reports::ExampleRow& row);

// The file name, relative to the working directory.
inline constexpr const char* kReportFile = "examples-report.md";

}  // namespace evg::examples
