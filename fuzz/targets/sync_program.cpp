// libFuzzer target: a small AscendC program on 1-2 AI cores, decoded from the input, run on the machine and
// explored exhaustively. Invariants: no crash, leak or hang; the machine's checkers and the explorer agree
// finding by finding (sync_program/compare.cpp states the granularity); when both say clean, 20 adversarial
// schedules are clean too and leave the same GM as the in-order run. A disagreement aborts with who said
// what.
//
// Programs whose cross-core matching is ambiguous (one counter set from unordered pipes, one flag id in two
// modes, two unordered waits on one counter) must be named as such by both sides (the machine's
// cross_core_ambiguous, the explorer's `ambiguous`).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "evg/explore/model.hpp"
#include "sync_program/sync_program.hpp"

namespace {

// The exhaustive explorer's budget. A program of unsynchronised copies has millions of interleavings; past
// the budget the input is counted as incomplete and not compared. 20,000 states take about 0.1 s in the
// release build and a few seconds under ASan, inside the target's 10-s timeout even on a loaded machine
// (200,000 and then 50,000 each timed out in a one-hour session).
constexpr uint64_t kMaxStates = 20000;

[[noreturn]] void disagree(const std::string& what, const evg::explore::Program& p,
                           const evg::hw::Report& machine, const evg::explore::Verdict& explored) {
    if (std::getenv("EVG_SYNC_COLLECT")) throw evg::fuzz::Disagreement(what);
    std::fprintf(
        stderr,
        "sync_program: the machine and the explorer disagree: %s\n--- program\n%s--- machine (in order)\n%s"
        "--- explorer\n%s",
        what.c_str(), evg::fuzz::describe_program(p).c_str(), machine.text().c_str(),
        explored.text().c_str());
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace evg;
    auto& stats = fuzz::sync_program_stats();
    ++stats.inputs;
    const explore::Program p = fuzz::decode_sync_program(data, size);
    const bool verbose = std::getenv("EVG_SYNC_VERBOSE") != nullptr;
    if (verbose) std::fprintf(stderr, "%s", fuzz::describe_program(p).c_str());
    const explore::Verdict e = explore::explore(p, {kMaxStates});
    if (verbose) std::fprintf(stderr, "explorer:\n%s", e.text().c_str());
    if (!e.complete) {
        ++stats.incomplete;
        return 0;
    }
    const fuzz::MachineRun m = fuzz::run_on_machine(p, hw::SchedulerKind::in_order, 0);
    if (verbose) std::fprintf(stderr, "machine:\n%s", m.report.text().c_str());
    const bool ambiguous = explore::decide(explore::record(p, 1)).has(explore::FindingKind::ambiguous);
    if (ambiguous) ++stats.ambiguous;
    ++stats.compared;
    if (e.has(explore::FindingKind::set_twice)) ++stats.set_twice;
    if (std::string diff = fuzz::compare_verdicts(p, m.report, e, ambiguous); !diff.empty())
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
