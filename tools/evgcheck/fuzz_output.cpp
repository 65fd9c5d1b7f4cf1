#include "fuzz_output.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <regex>
#include <stdexcept>

#include <fmt/format.h>

#include "evg/hw/fnv1a.hpp"
#include "finding.hpp"

namespace evgcheck {

namespace {

using evg::fuzz::kFindingPrefix;

std::optional<uint64_t> number_after(std::string_view line, std::string_view key) {
    const size_t at = line.find(key);
    if (at == std::string_view::npos) return std::nullopt;
    size_t i = at + key.size();
    while (i < line.size() && line[i] == ' ') ++i;
    uint64_t v = 0;
    size_t digits = 0;
    for (; i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])); ++i, ++digits) {
        v = v * 10 + static_cast<uint64_t>(line[i] - '0');
    }
    if (digits == 0) return std::nullopt;
    // libFuzzer abbreviates large sizes (corp: 12/3Mb): the count before '/' is exact.
    return v;
}

std::string trim(std::string_view s) {
    const size_t b = s.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) return {};
    const size_t e = s.find_last_not_of(" \t\r");
    return std::string(s.substr(b, e - b + 1));
}

// A stack frame line "    #3 0x55d1c0 in evg::graph::parse_graph(...) /path/file.cpp:12:3": the function,
// without the argument list, or empty for frames of the sanitizer, libFuzzer and the C/C++ runtime.
std::string frame_function(std::string_view line) {
    static const std::regex frame(R"(^\s*#\d+ 0x[0-9a-f]+ in (.+?)(?: (\S+:\d+(?::\d+)?|\(\S+\)))?$)");
    std::string s(line);
    if (const size_t build_id = s.find(" (BuildId: "); build_id != std::string::npos) s.resize(build_id);
    std::smatch m;
    if (!std::regex_match(s, m, frame)) return {};
    std::string fn = m[1].str();
    // The symbolizer prints a template function with its return type ("void
    // std::condition_variable::wait<...>").
    for (std::string_view ret : {"void ", "auto ", "bool ", "int ", "unsigned int ", "long "}) {
        if (std::string_view(fn).starts_with(ret)) {
            fn.erase(0, ret.size());
            break;
        }
    }
    // Drop the argument list (the first '(' outside template arguments).
    int depth = 0;
    for (size_t i = 1; i < fn.size(); ++i) {
        if (fn[i] == '<') ++depth;
        if (fn[i] == '>') --depth;
        if (fn[i] == '(' && depth <= 0) {
            fn.resize(i);
            break;
        }
    }
    // Frames of the sanitizers, libFuzzer, the C and C++ runtimes and the finding helper say nothing about
    // where the bug is.
    static constexpr std::string_view kSkipPrefix[] = {"__sanitizer",
                                                       "__asan",
                                                       "__ubsan",
                                                       "__lsan",
                                                       "__interceptor",
                                                       "__cxa",
                                                       "__cxxabi",
                                                       "__gxx",
                                                       "__libc",
                                                       "__GI_",
                                                       "__pthread",
                                                       "__futex",
                                                       "pthread_cond",
                                                       "std::condition_variable",
                                                       "__nanosleep",
                                                       "clock_nanosleep",
                                                       "fuzzer::",
                                                       "operator new",
                                                       "operator delete",
                                                       "std::terminate",
                                                       "std::__terminate",
                                                       "__clang_call_terminate",
                                                       "evg::fuzz::evg_fuzz_finding",
                                                       "__gnu_cxx::__verbose_terminate_handler"};
    static constexpr std::string_view kSkipExact[] = {
        "main",    "abort", "raise", "gsignal", "pthread_kill", "malloc", "calloc",
        "realloc", "free",  "sleep", "usleep",  "nanosleep",    "_start"};
    for (std::string_view skip : kSkipPrefix) {
        if (std::string_view(fn).starts_with(skip)) return {};
    }
    for (std::string_view skip : kSkipExact) {
        if (fn == skip) return {};
    }
    return fn;
}

std::string first_frames(std::span<const std::string> lines, size_t from, int count) {
    std::string out, last;
    int found = 0;
    for (size_t i = from; i < lines.size() && found < count; ++i) {
        const std::string fn = frame_function(lines[i]);
        if (fn.empty() || fn == last) continue;  // inlined frames repeat their function
        out += (found == 0 ? " in " : " | in ") + fn;
        last = fn;
        ++found;
    }
    return out;
}

// "==1234==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x... at pc ..." -> "AddressSanitizer:
// heap-buffer-overflow".
std::string sanitizer_kind(std::string_view line) {
    const size_t at = line.find("ERROR: ");
    std::string_view rest = line.substr(at + 7);
    for (std::string_view cut : {" on address", " on unknown address", " at pc", " after ", " (", " in "}) {
        const size_t c = rest.find(cut);
        if (c != std::string_view::npos) rest = rest.substr(0, c);
    }
    return trim(rest);
}

}  // namespace

std::optional<FuzzStatus> parse_status_line(std::string_view line) {
    if (line.size() < 2 || line[0] != '#' || !std::isdigit(static_cast<unsigned char>(line[1])))
        return std::nullopt;
    FuzzStatus s;
    size_t i = 1;
    for (; i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])); ++i) {
        s.execs = s.execs * 10 + static_cast<uint64_t>(line[i] - '0');
    }
    while (i < line.size() && (line[i] == '\t' || line[i] == ' ')) ++i;
    const size_t event_end = line.find_first_of(" \t", i);
    s.event = std::string(line.substr(i, event_end == std::string_view::npos ? line.npos : event_end - i));
    const auto cov = number_after(line, "cov: ");
    if (!cov) return std::nullopt;
    s.cov = *cov;
    s.features = number_after(line, "ft: ").value_or(0);
    s.corpus = number_after(line, "corp: ").value_or(0);
    s.exec_per_s = number_after(line, "exec/s: ").value_or(0);
    return s;
}

bool starts_finding(std::string_view line) {
    return line.starts_with(kFindingPrefix) || line.find("==ERROR: ") != std::string_view::npos ||
           line.find("== ERROR: ") != std::string_view::npos ||
           line.find(": runtime error: ") != std::string_view::npos ||
           line.starts_with("ALARM: working on the last Unit") ||
           line.starts_with("terminate called after throwing") || line.starts_with("libc++abi: terminating");
}

std::string artifact_path(std::string_view line) {
    constexpr std::string_view key = "Test unit written to ";
    const size_t at = line.find(key);
    if (at == std::string_view::npos) return {};
    return trim(line.substr(at + key.size()));
}

std::string finding_signature(std::span<const std::string> lines) {
    for (const std::string& l : lines) {
        if (std::string_view(l).starts_with(kFindingPrefix))
            return trim(std::string_view(l).substr(kFindingPrefix.size()));
    }
    static const std::regex ubsan(R"(^(\S+?):(\d+):\d+: runtime error: (.*)$)");
    static const std::regex numbers(R"(0x[0-9a-f]+|\b\d+\b)");
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string& l = lines[i];
        std::smatch m;
        if (std::regex_match(l, m, ubsan)) {
            std::string file = m[1].str();
            if (const size_t slash = file.rfind('/'); slash != std::string::npos)
                file = file.substr(slash + 1);
            return "UBSan: " + std::regex_replace(m[3].str(), numbers, "N") + " at " + file + ":" +
                   m[2].str();
        }
        if (l.starts_with("ALARM: working on the last Unit")) return "timeout" + first_frames(lines, i, 2);
        if (l.starts_with("terminate called after throwing") || l.starts_with("libc++abi: terminating")) {
            std::string type;
            if (const size_t q = l.find('\''); q != std::string::npos) {
                type = " " + l.substr(q + 1, l.find('\'', q + 1) - q - 1);
            }
            return "uncaught exception" + type + first_frames(lines, i, 2);
        }
        if (l.find("ERROR: ") != std::string::npos && l.find("==") != std::string::npos) {
            std::string kind = sanitizer_kind(l);
            if (kind.find("out-of-memory") != std::string::npos) {
                kind = "libFuzzer: out-of-memory" +
                       std::string(l.find("malloc(") != std::string::npos ? " (malloc of a large size)" : "");
            }
            // The access line right after an ASan error: "READ of size 4 at 0x... thread T0".
            if (i + 1 < lines.size()) {
                static const std::regex access(R"(^(READ|WRITE) of size (\d+))");
                std::smatch a;
                if (std::regex_search(lines[i + 1], a, access))
                    kind += " " + a[1].str() + " of size " + a[2].str();
            }
            if (kind.starts_with("LeakSanitizer")) kind = "LeakSanitizer: leak allocated";
            return kind + first_frames(lines, i, 2);
        }
    }
    return {};
}

std::string signature_hash(std::string_view signature) {
    return evg::hw::fnv1a64_hex(signature);
}

std::vector<LibFuzzerOption> parse_libfuzzer_options(std::string_view text) {
    std::vector<LibFuzzerOption> out;
    bool in_section = false;
    for (int number = 1; !text.empty(); ++number) {
        const size_t nl = text.find('\n');
        const std::string line = trim(text.substr(0, nl));
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        if (line.empty() || line[0] == '#' || line[0] == ';') continue;
        if (line.front() == '[') {
            in_section = line == "[libfuzzer]";
            continue;
        }
        if (!in_section) continue;
        const size_t eq = line.find('=');
        const std::string key = eq == std::string::npos ? line : trim(line.substr(0, eq));
        const std::string value = eq == std::string::npos ? "" : trim(line.substr(eq + 1));
        const bool key_ok = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
        });
        const bool value_ok = !value.empty() && value.find_first_of(" \t") == std::string::npos;
        if (eq == std::string::npos || !key_ok || !value_ok)
            throw std::invalid_argument(
                fmt::format("line {}: expected `key = value` in [libfuzzer], got '{}'", number, line));
        out.push_back({key, value});
    }
    return out;
}

TargetOptions target_options_of(std::string_view text) {
    TargetOptions t;
    for (const LibFuzzerOption& o : parse_libfuzzer_options(text)) {
        if (o.key == "timeout") {
            int v = 0;
            const auto r = std::from_chars(o.value.data(), o.value.data() + o.value.size(), v);
            if (r.ec != std::errc{} || r.ptr != o.value.data() + o.value.size() || v < 1)
                throw std::invalid_argument("timeout = " + o.value +
                                            ": expected a whole number of seconds >= 1");
            t.timeout = v;
        } else if (o.key != "dict") {
            t.flags.push_back(fmt::format("-{}={}", o.key, o.value));
        }
    }
    return t;
}

std::vector<std::string> fuzzer_file_names(const std::string& target) {
    return {"fuzz_" + target, target};
}

}  // namespace evgcheck
