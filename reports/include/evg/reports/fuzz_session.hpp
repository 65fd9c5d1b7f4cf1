// The report of a fuzz session (`evgcheck fuzz`, fuzz/README.md "Running a session"): OUT/report.json and
// OUT/report.md. The session (tools/evgcheck/fuzz.cpp) runs the workers, de-duplicates and minimises the
// findings and counts the sync patterns; this writes what it found.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace evg::reports {

struct FuzzFinding {
    std::string signature;  // what de-duplicates findings (evgcheck's fuzz_output.hpp)
    std::string hash;       // the finding's folder name under OUT/findings/
    int count = 0;          // how many times the workers hit it
    double first_seen_s = 0;
    std::string input;  // the saved input, as printed
    uint64_t input_bytes = 0;
    bool minimised = false;  // the saved input is libFuzzer's minimised one, with the same signature
    std::string replay;      // the one-line command that replays it
};

// A sync pattern (the sync fuzzers' pattern coverage): corpus inputs that reach it, and findings whose input
// reaches it with a disagreement.
struct FuzzPattern {
    std::string pattern;
    uint64_t inputs = 0;
    uint64_t disagreements = 0;
};

struct FuzzSession {
    std::string target;  // "sync_program"
    std::string fuzzer;  // the libFuzzer binary, as printed
    double seconds = 0;
    int jobs = 1;
    uint64_t execs = 0;
    uint64_t coverage = 0;  // edges
    uint64_t features = 0;
    uint64_t corpus = 0;  // inputs
    std::string corpus_dir;
    std::vector<FuzzFinding> findings;
    std::vector<std::string> worker_errors;  // workers that ended without a finding's signature
    std::vector<FuzzPattern> patterns;       // sorted by pattern; empty for a target without patterns

    double exec_per_s() const { return seconds > 0 ? static_cast<double>(execs) / seconds : 0.0; }
};

std::string fuzz_session_json(const FuzzSession& s);      // report.json
std::string fuzz_session_markdown(const FuzzSession& s);  // report.md

}  // namespace evg::reports
