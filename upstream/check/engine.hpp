// What the parts of the upstream check's engine (upstream_check.cpp, library_cache.cpp, reproducer.cpp)
// share: the paths of this evgcheck build, the work folder's files, and the clock of the time budget.
// Internal to upstream/check/.
#pragma once
#include <chrono>
#include <filesystem>
#include <string>

#include "upstream_check.hpp"

namespace evg::upstream::check::detail {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t);
// The whole command's time budget (--time-budget): past it, what runs was stopped and the check ends
// (throws UpstreamCheckTimeBudget).
void stop_if_past(Clock::time_point stop);

// The name of a cached library or failure folder: the hash of its content.
std::string content_hash(const std::string& text);
std::string read_file(const fs::path& path);
void write_file(const fs::path& path, const std::string& text);  // throws when it cannot
std::string tail_lines(const std::string& text, int n);          // the last `n` lines
// A file of this process in the work folder (two checks may share one).
fs::path scratch_file(const fs::path& work, const std::string& what);

// The environment variable `name`, or `fallback` when it is unset or empty.
std::string env_or(const char* name, const char* fallback);
// This evgcheck build's package folder (build/<preset>/package) and runner, overridable by
// EVGCHECK_PACKAGE_DIR and EVGCHECK_UPSTREAM_RUNNER; its compiler, version and cmake; evgcheck's
// known-findings file.
std::string package_dir();
std::string runner_path();
std::string cxx_compiler();
std::string evgcheck_version();
std::string cmake_program();
std::string default_known_findings();

}  // namespace evg::upstream::check::detail
