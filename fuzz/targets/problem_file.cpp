// Fuzz target problem_file: what `evgcheck run FILE` does with a file (evgcheck_core's run_problem), on any
// bytes, under a memory and work budget. Invariants: the run ends with a result (pass or fail) or a clear
// error (InputError or an evg::Error with a non-empty message: a problem too large for the budget is refused
// by the up-front estimate, ResourceLimitError), never with bad_alloc, another exception, an abort or a hang
// (libFuzzer's -timeout and -rss_limit_mb catch the last two).
// A broken invariant prints `EVG-FINDING: problem_file: <invariant>` (fuzz/common/finding.hpp) and aborts.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>
#include <sstream>
#include <string>
#include <typeinfo>

#include "evg/hw/error.hpp"
#include "finding.hpp"
#include "load.hpp"
#include "run_problem.hpp"

namespace {

using evg::fuzz::evg_fuzz_finding;

constexpr size_t kMaxInput = 1 << 14;

// A budget that keeps one execution to a few seconds under ASan: at most 256 MiB and 1e7 element operations
// (a bare graph of 128 x 256 with K = 256, 8.5e6 operations, takes about 3 s of CPU under ASan).
evgcheck::RunSettings fuzz_settings() {
    evgcheck::RunSettings s;
    s.limits.max_memory_mib = 256;
    s.limits.max_element_ops = 1e7;
    return s;
}

void require_message(const char* kind, const std::string& what, const std::string& input) {
    if (what.empty()) evg_fuzz_finding(std::string("problem_file: an empty ") + kind + " message", input);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > kMaxInput) return -1;
    const std::string input(reinterpret_cast<const char*>(data), size);
    static const evgcheck::RunSettings settings = fuzz_settings();
    std::ostringstream warnings;
    try {
        const evgcheck::RunOutcome outcome =
            evgcheck::run_problem(evgcheck::make_source("input.evg", input), {}, settings, warnings);
        if (outcome.text.find(outcome.ok ? "result: PASS" : "result: FAIL") == std::string::npos) {
            evg_fuzz_finding("problem_file: the report does not end with the result", outcome.text);
        }
    } catch (const evgcheck::InputError& e) {
        require_message("InputError", e.what(), input);
    } catch (const evg::Error& e) {
        require_message(typeid(e).name(), e.what(), input);
    } catch (const std::bad_alloc&) {
        evg_fuzz_finding(
            "problem_file: bad_alloc (the estimate let through a problem too large for the budget)", input);
    } catch (const std::exception& e) {
        evg_fuzz_finding(std::string("problem_file: an internal error (") + typeid(e).name() + ")",
                         std::string(e.what()) + "\n--- input ---\n" + input);
    }
    return 0;
}
