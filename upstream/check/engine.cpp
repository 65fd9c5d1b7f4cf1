// The engine's shared parts (engine.hpp). The paths of this evgcheck build come from upstream/CMakeLists.txt
// (the target evg_upstream_check's compile definitions).
#include "engine.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "evg/hw/fnv1a.hpp"

#ifndef EVGCHECK_PACKAGE_DIR
#define EVGCHECK_PACKAGE_DIR ""
#endif
#ifndef EVGCHECK_UPSTREAM_RUNNER
#define EVGCHECK_UPSTREAM_RUNNER ""
#endif
#ifndef EVGCHECK_UPSTREAM_KNOWN_FINDINGS
#define EVGCHECK_UPSTREAM_KNOWN_FINDINGS ""
#endif
#ifndef EVGCHECK_CXX_COMPILER
#define EVGCHECK_CXX_COMPILER ""
#endif
#ifndef EVGCHECK_VERSION
#define EVGCHECK_VERSION ""
#endif
#ifndef EVGCHECK_CMAKE
#define EVGCHECK_CMAKE "cmake"
#endif

namespace evg::upstream::check::detail {

std::string env_or(const char* name, const char* fallback) {
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0' ? v : fallback;
}

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

void stop_if_past(Clock::time_point stop) {
    if (Clock::now() >= stop) throw UpstreamCheckTimeBudget("the time budget ran out");
}

std::string content_hash(const std::string& text) {
    return evg::hw::fnv1a64_hex(text);
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_file(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error(fmt::format("cannot write {}", path.string()));
}

std::string tail_lines(const std::string& text, int n) {
    size_t pos = text.size();
    for (int k = 0; k <= n && pos > 0; ++k) pos = text.rfind('\n', pos - 1);
    return pos == std::string::npos || pos == 0 ? text : text.substr(pos + 1);
}

fs::path scratch_file(const fs::path& work, const std::string& what) {
    return work / fmt::format("{}-{}.txt", what, ::getpid());
}

std::string package_dir() {
    return env_or("EVGCHECK_PACKAGE_DIR", EVGCHECK_PACKAGE_DIR);
}
std::string runner_path() {
    return env_or("EVGCHECK_UPSTREAM_RUNNER", EVGCHECK_UPSTREAM_RUNNER);
}
std::string cxx_compiler() {
    return EVGCHECK_CXX_COMPILER;
}
std::string evgcheck_version() {
    return EVGCHECK_VERSION;
}
std::string cmake_program() {
    return EVGCHECK_CMAKE;
}
std::string default_known_findings() {
    return EVGCHECK_UPSTREAM_KNOWN_FINDINGS;
}

}  // namespace evg::upstream::check::detail
