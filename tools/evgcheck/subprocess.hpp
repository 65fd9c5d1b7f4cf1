// Runs a program with extra environment variables, streaming its combined stdout and stderr line by line,
// and kills it (the child's own pid only) when a deadline passes.
#pragma once
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace evgcheck {

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

}  // namespace evgcheck
