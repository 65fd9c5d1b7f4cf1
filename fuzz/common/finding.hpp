// The EVG-FINDING contract between the fuzz targets and the session driver (`evgcheck fuzz`).
//
// A target that finds a broken invariant calls evg_fuzz_finding(signature, detail): it prints one line
//   EVG-FINDING: <signature>
// to stderr, then the detail, then aborts (libFuzzer and the replay program both treat the abort as a crash).
// The signature names the bug, not the input: two inputs with the same signature are the same finding, and
// the driver keeps one of them (minimised). It is one line of printable text: for the sync targets the
// checker, the node kind, the mutation operator and the first divergent instruction; for graph_text and
// problem_file the invariant that failed. Numbers that vary with the input (sizes, offsets, seeds) belong in
// the detail. Crashes that do not go through this function (sanitizer reports, uncaught exceptions, timeouts)
// are signed by the driver from the first lines of the report.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace evg::fuzz {

inline constexpr std::string_view kFindingPrefix = "EVG-FINDING: ";

[[noreturn]] inline void evg_fuzz_finding(std::string_view signature, std::string_view detail) {
    std::fprintf(stderr, "%.*s%.*s\n%.*s\n", static_cast<int>(kFindingPrefix.size()), kFindingPrefix.data(),
                 static_cast<int>(signature.size()), signature.data(), static_cast<int>(detail.size()),
                 detail.data());
    std::fflush(stderr);
    std::abort();
}

}  // namespace evg::fuzz
