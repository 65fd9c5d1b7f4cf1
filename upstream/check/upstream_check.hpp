// The engine of `evgcheck check --catlass-root DIR` (upstream_check.cpp; the command,
// tools/evgcheck/check.cpp, only reads its options): random graphs compiled against a user's Catlass checkout
// at run time, run over random runtime cases, a failure shrunk across the compile boundary and written as a
// reproducer.
#pragma once
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>

#include "evg/shard.hpp"
#include "runner_protocol.hpp"

namespace evg::upstream::check {

// Bad input to the upstream check (a case file that is not one): exit code 2.
class UpstreamCheckInputError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};
// The time budget ran out (UpstreamCheckOptions::stop): what ran was stopped; exit code 3.
class UpstreamCheckTimeBudget : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// The default number of graphs of a run: the covering size, the reachable kernel x mmad family cells
// (coverage.hpp; a test holds the two equal), so that the default run covers every cell.
inline constexpr int kCoveringGraphs = 12;

struct UpstreamCheckOptions {
    std::string root;              // the checkout (holds include/catlass)
    int graphs = kCoveringGraphs;  // graphs of the run (plan_instances: random draws and cover graphs)
    int only_graph = -1;           // >= 0: only that graph of the run (the corpus's random instance)
    int cases = 30;                // runtime cases per graph
    uint64_t seed =
        1;  // the draw's seed; graph i runs its runtime cases from seed + i (as corpus instance i)
    double compile_budget = 900;  // seconds of compiling for the graph shrink
    double run_timeout = 600;     // seconds a runner may take (a property of `cases` cases, or one case)
    // A run of upstream's kernel may issue this many times what evgcheck's copy issues for the case
    // (corpus_check.hpp, case_instruction_limit).
    double case_limit = evg::upstream::runner::kDefaultCaseLimit;
    std::filesystem::path work_dir;  // compiled libraries and failures (default ~/.cache/evgcheck/upstream)
    std::string known;               // known-findings file (default: evgcheck's, docs/upstream-findings.md)
    std::string self;                // this evgcheck, for the printed commands
    // --shard K/N: only the run's graphs whose number leaves K-1 divided by N (evg/shard.hpp).
    std::optional<Shard> shard;
    // --report DIR: check-report.json and junit.xml written there (check_report.hpp); "" for none.
    std::string report_dir;
    std::string command, run_command;  // the command line, and without --shard, for the report
    // --time-budget: when the whole command stops; a compile or a run still going then is stopped with it.
    std::chrono::steady_clock::time_point stop = std::chrono::steady_clock::time_point::max();
};

class UpstreamCheck {
  public:
    explicit UpstreamCheck(UpstreamCheckOptions options);
    // Why the check cannot run here ("" when it can): no checkout at root, no package, no runner.
    std::string setup_error() const;
    // Exit code: 0 every graph passed, 1 a failure (shrunk and reported) or a checkout that does not compile.
    int run(std::ostream& out);
    // The one case of a failure's case.txt, compiled (cached) and run: 0 it passes, 1 it fails.
    int replay(std::ostream& out, const std::filesystem::path& case_file);
    // The work folder in use (the default's when none was given). Both throw evg::hw::FileLockError when a
    // library's lock in it cannot be taken.
    const std::filesystem::path& work_dir() const { return o_.work_dir; }

  private:
    UpstreamCheckOptions o_;
};

}  // namespace evg::upstream::check
