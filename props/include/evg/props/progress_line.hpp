// The property runner's progress line: with EVG_PROPS_PROGRESS=1 (set by `evgcheck check`) the runner prints
// one line to stderr per passing case, "evg-progress: <property> <passed>/<cases>", and `evgcheck check`
// moves its bar by it. Both sides use this header: the writer (props/src/runner.cpp, workers.cpp) and the
// reader (tools/evgcheck/check.cpp). Header-only: the command reads it without linking the property library.
#pragma once
#include <charconv>
#include <optional>
#include <string>
#include <string_view>

namespace evg::props {

inline constexpr std::string_view kProgressPrefix = "evg-progress: ";

inline std::string progress_line(std::string_view property, int passed, int cases) {
    return std::string(kProgressPrefix) + std::string(property) + " " + std::to_string(passed) + "/" +
           std::to_string(cases) + "\n";
}

struct Progress {
    long long passed = 0, cases = 0;
};

// The passed and planned cases of a progress line (with or without its newline); nothing for any other line.
inline std::optional<Progress> read_progress_line(std::string_view line) {
    if (!line.starts_with(kProgressPrefix)) return std::nullopt;
    if (line.ends_with('\n')) line.remove_suffix(1);
    line.remove_prefix(kProgressPrefix.size());
    const size_t space = line.rfind(' ');
    if (space == std::string_view::npos || space == 0) return std::nullopt;
    const std::string_view counts = line.substr(space + 1);
    const size_t slash = counts.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    Progress p;
    const char* end = counts.data() + counts.size();
    const auto a = std::from_chars(counts.data(), counts.data() + slash, p.passed);
    const auto b = std::from_chars(counts.data() + slash + 1, end, p.cases);
    if (a.ec != std::errc() || a.ptr != counts.data() + slash || b.ec != std::errc() || b.ptr != end)
        return std::nullopt;
    return p;
}

}  // namespace evg::props
