// Reading libFuzzer's output (for `evgcheck fuzz`): its status lines, and the signature of a finding.
//
// A status line: `#<execs>\t<EVENT> cov: <edges> ft: <features> corp: <inputs>/<size> ... exec/s: <n> ...`
// (EVENT is INITED, NEW, REDUCE, pulse, DONE, RELOAD). A finding's signature (what de-duplicates findings):
//  * the target's own `EVG-FINDING: <signature>` line when it printed one (fuzz/common/finding.hpp);
//  * otherwise the first lines of the report, without pids, addresses and sizes that vary between runs:
//    the sanitizer's error kind and the first two stack frames outside the sanitizer and libFuzzer
//    ("AddressSanitizer: heap-buffer-overflow READ of size 4 in evg::graph::parse_graph | in
//    LLVMFuzzerTestOneInput"), "UBSan: <message> at <file>:<line>", "uncaught exception <type>" (with its
//    frames), "timeout in <frames>", "out-of-memory (malloc of a large size) in <frames>", "LeakSanitizer:
//    leak allocated in <frames>".
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace evgcheck {

struct FuzzStatus {
    uint64_t execs = 0;
    std::string event;  // "INITED", "NEW", "pulse", "DONE", ...
    uint64_t cov = 0;
    uint64_t features = 0;
    uint64_t corpus = 0;  // inputs in the corpus
    uint64_t exec_per_s = 0;
};

std::optional<FuzzStatus> parse_status_line(std::string_view line);

// Whether the line starts a finding's report (a sanitizer error, a deadly signal, a timeout, an
// out-of-memory, an uncaught exception, an EVG-FINDING line).
bool starts_finding(std::string_view line);

// `Test unit written to <path>` (libFuzzer's artifact line): the path, or empty.
std::string artifact_path(std::string_view line);

// The signature of the finding reported in `lines` (the output from the finding's first line on), or empty
// when the lines hold no finding.
std::string finding_signature(std::span<const std::string> lines);

// The finding's folder name: 16 hex digits of FNV-1a 64 of the signature.
std::string signature_hash(std::string_view signature);

// A target's fuzz_<name>.options (OSS-Fuzz's format, written by evg_fuzz_target in fuzz/fuzz_target.cmake):
// the `key = value` lines of its [libfuzzer] section, in order; `evgcheck fuzz` and the benchmark's sessions
// pass each as libFuzzer's -key=value. Other sections, blank lines and '#' or ';' comments are skipped. A
// line of the section that is not `key = value` (a key of letters, digits and '_', a value without spaces)
// throws std::invalid_argument naming the line: "line 3: expected `key = value` in [libfuzzer], got ...".
struct LibFuzzerOption {
    std::string key;
    std::string value;
};
std::vector<LibFuzzerOption> parse_libfuzzer_options(std::string_view text);

// What a session needs of a target's .options text: its `timeout` (the seconds one input may take, default
// 10) and its other [libfuzzer] options as libFuzzer flags (say, epilogue_mutation's -detect_leaks=0). A
// `dict` line is left out: its path is relative to the file, and the dictionary is found by the target's
// name. Throws std::invalid_argument as parse_libfuzzer_options does, and for a timeout that is not a whole
// number >= 1.
struct TargetOptions {
    int timeout = 10;
    std::vector<std::string> flags;
};
TargetOptions target_options_of(std::string_view text);

// The file names a target's libFuzzer binary has in a folder, in the order they are looked for: fuzz_<target>
// in a build of this project (cmake --preset fuzz), <target> in an OSS-Fuzz out folder (fuzz/build.sh). Its
// .options file is the binary's path plus ".options".
std::vector<std::string> fuzzer_file_names(const std::string& target);

}  // namespace evgcheck
