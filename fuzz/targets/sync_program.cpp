// libFuzzer target: a small AscendC program on 1-2 AI cores, decoded from the input, run on the machine and
// explored exhaustively. Invariants: no crash, leak or hang; the machine's checkers and the explorer agree
// finding by finding (sync_program/compare.cpp states the granularity); when both say clean, 20 adversarial
// schedules are clean too and leave the same GM as the in-order run. A disagreement is a finding
// (common/finding.hpp), signed by what disagrees (disagreement_signature), its detail who said what.
//
// Programs whose cross-core matching is ambiguous (one counter set from unordered pipes, one flag id in two
// modes, two unordered waits on one counter) must be named as such by both sides (the machine's
// cross_core_ambiguous, the explorer's `ambiguous`).
//
// Every input's sync patterns (sync_program/patterns.cpp) are counted; with EVG_FUZZ_PATTERNS=FILE the
// pattern table (inputs and disagreements per pattern) is written to FILE at exit and before a disagreement
// aborts. Each pattern also sets one of libFuzzer's extra counters (fuzz/common/pattern_table.hpp),
// so that an input reaching a new pattern is kept, and LLVMFuzzerCustomMutator edits ops
// (mutate_sync_program) three times in four, bytes otherwise.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "evg/explore/model.hpp"
#include "finding.hpp"
#include "sync_program/sync_program.hpp"

#ifdef EVG_LIBFUZZER
extern "C" {
size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed);
}

size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
    if (seed % 4 != 0) {
        const std::vector<uint8_t> bytes = evg::fuzz::mutate_sync_program(data, size, max_size, seed);
        if (!bytes.empty()) {
            std::memcpy(data, bytes.data(), bytes.size());
            return bytes.size();
        }
    }
    return LLVMFuzzerMutate(data, size, max_size);
}
#endif

namespace {

// The exhaustive explorer's budget, per input. A program of unsynchronised copies has millions of
// interleavings; past the budget the input is counted as incomplete, not compared, and not kept in the corpus
// (LLVMFuzzerTestOneInput returns -1). At 5,000 states the slowest inputs take ~50 ms under ASan (the 40
// slowest of a session corpus, each run alone on a loaded 2-core host: median 18 ms, at most 55). A session
// corpus's decided inputs need a median of 42 states and 1,944 at the 90th percentile, but the 6% beyond
// 5,000 took 69% of all states explored; at equal time a 5,000 budget ran 45% more inputs per CPU second than
// 20,000 and reached more sync patterns (202 against 189, fixed-seed 60 s sessions side by side;
// sync_program/README.md).
constexpr uint64_t kMaxStates = 5000;

// A disagreement is a finding (common/finding.hpp): signed by what disagrees, so that a session keeps one
// finding per kind of disagreement and replays it in the replay program; the detail holds the program and
// both verdicts.
[[noreturn]] void disagree(const std::string& what, const evg::explore::Program& p,
                           const evg::hw::Report& machine, const evg::explore::Verdict& explored) {
    evg::fuzz::count_disagreement();
    if (std::getenv("EVG_SYNC_COLLECT")) throw evg::fuzz::Disagreement(what);
    evg::fuzz::write_pattern_table_if_asked();
    evg::fuzz::evg_fuzz_finding(evg::fuzz::disagreement_signature(what),
                                "sync_program: the machine and the explorer disagree: " + what +
                                    "\n--- program\n" + evg::fuzz::describe_program(p) +
                                    "--- machine (in order)\n" + machine.text() + "--- explorer\n" +
                                    explored.text());
}

#ifdef EVG_SYNC_PROGRAM_PLANTED
// Two bugs planted in the machine's side, for the session test of `evgcheck fuzz`
// (sync_program/planted_session_e2e.sh; the build sync_program_planted, fuzz/CMakeLists.txt): the machine
// loses the races it finds, and the flags it finds left set. Each makes a disagreement of its own kind
// ("miss", "flags left"): one session must keep them as two findings, each with its own replay.
void plant_faults(evg::hw::Report& r) {
    std::erase_if(r.violations, [](const evg::hw::Violation& v) {
        return v.kind == evg::hw::ViolationKind::race || v.kind == evg::hw::ViolationKind::flag_left_set;
    });
}
#endif

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace evg;
    auto& stats = fuzz::sync_program_stats();
    ++stats.inputs;
    const explore::Program p = fuzz::decode_sync_program(data, size);
    const bool verbose = std::getenv("EVG_SYNC_VERBOSE") != nullptr;
    if (verbose) std::fprintf(stderr, "%s", fuzz::describe_program(p).c_str());
    const explore::Verdict decided = explore::decide(explore::record(p, 1));
    if (verbose) std::fprintf(stderr, "explorer, happens-before of one run:\n%s", decided.text().c_str());
    // A decision that gave up is no ground truth: neither its patterns nor its ambiguity verdict count.
    if (!decided.complete) {
        ++stats.undecided;
        return -1;  // libFuzzer keeps no input that returns -1: mutations start from programs both engines
                    // finish
    }
    const std::vector<std::string> patterns = fuzz::sync_patterns(p, decided);
    const fuzz::InputPatterns reached(patterns);
#ifdef EVG_SYNC_PROGRAM_PLANTED
    fuzz::MachineRun m = fuzz::run_on_machine(p, hw::SchedulerKind::in_order, 0);
    plant_faults(m.report);
#else
    const fuzz::MachineRun m = fuzz::run_on_machine(p, hw::SchedulerKind::in_order, 0);
#endif
    if (verbose) std::fprintf(stderr, "machine:\n%s", m.report.text().c_str());
    // Ambiguous cross-core matching is judged on the happens-before verdict alone (compare_verdicts compares
    // nothing else then), so the exhaustive exploration, the costly part of an input, is not needed for it:
    // such inputs run in a fraction of the time and are compared even where the exploration would stop at
    // its budget.
    if (decided.has(explore::FindingKind::ambiguous)) {
        ++stats.compared;
        if (std::string diff = fuzz::compare_verdicts(p, m.report, explore::Verdict{}, true); !diff.empty())
            disagree(diff, p, m.report, decided);
        ++stats.ambiguous;  // counted as named by both only once they agree
        return 0;
    }
    const explore::Verdict e = explore::explore(p, {kMaxStates});
    if (verbose) std::fprintf(stderr, "explorer:\n%s", e.text().c_str());
    if (!e.complete) {
        ++stats.incomplete;
        return -1;
    }
    ++stats.compared;
    if (e.has(explore::FindingKind::set_twice)) ++stats.set_twice;
    if (std::string diff = fuzz::compare_verdicts(p, m.report, e, false); !diff.empty())
        disagree(diff, p, m.report, e);
    if (!e.findings.empty() || !m.report.clean()) return 0;
    ++stats.clean;
    if (e.final_memories.size() != 1)
        disagree(
            "the explorer finds no race but " + std::to_string(e.final_memories.size()) + " final memories",
            p, m.report, e);
    for (uint64_t seed = 1; seed <= 20; ++seed) {
        fuzz::MachineRun r = fuzz::run_on_machine(p, hw::SchedulerKind::adversarial, seed);
        if (!r.report.clean())
            disagree("adversarial seed " + std::to_string(seed) +
                         " reports a violation on a program both call clean",
                     p, r.report, e);
        if (r.gm != m.gm)
            disagree(
                "adversarial seed " + std::to_string(seed) + " leaves different GM than the in-order run", p,
                r.report, e);
    }
    ++stats.memory_checked;
    return 0;
}
