// Runs a program with extra environment variables, streaming its combined stdout and stderr line by line.
// The child leads a process group of its own, which holds whatever it starts (a build's compilers, a fuzzer's
// workers); a deadline stops the whole group (SIGTERM, then SIGKILL two seconds later). Nothing it started
// outlives evgcheck: a SIGINT, SIGTERM or SIGHUP evgcheck receives is passed on to every running child's
// group before evgcheck ends by it, and a child is sent SIGTERM when evgcheck dies any other way
// (PR_SET_PDEATHSIG).
#pragma once
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace evg::process {

struct ProcessResult {
    int exit_code = -1;      // the child's exit status; -1 when it was killed or did not start
    int signal = 0;          // the signal that ended it, if any
    bool timed_out = false;  // killed at the deadline
    std::string output;      // everything it printed (stdout and stderr interleaved)
};

// Throws std::runtime_error when the program cannot be started. `on_line` sees each complete line.
ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const std::map<std::string, std::string>& env,
                          std::chrono::steady_clock::time_point deadline,
                          const std::function<void(const std::string&)>& on_line = {});

// Sends `sig` to the process group of every child run_process is running. Async-signal-safe: for a signal
// handler that ends evgcheck (the time budget's).
void signal_children(int sig) noexcept;

}  // namespace evg::process
