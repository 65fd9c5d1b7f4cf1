// The cycle model's summary as text (cycle_summary.hpp).
#include "evg/reports/cycle_summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "evg/thousands.hpp"

namespace evg::reports {

using hw::arch_name;
using hw::kPipeSlots;
using hw::Pipe;
using hw::pipe_name;
using hw::slot_pipe;
using hw::TraceEntry;
using hw::timing::FlagStall;
using hw::timing::Launch;
using hw::timing::PipeTime;
using hw::timing::Summary;
using hw::timing::Timeline;

namespace {
constexpr size_t kSummaryCores = 12;  // the summary lists every core up to this many
}  // namespace

std::string cycle_summary_text(const Timeline& t, const hw::Trace& trace, const Launch& launch) {
    const Summary& s = t.summary;
    const double us = s.clock_ghz > 0 ? static_cast<double>(s.total) / (s.clock_ghz * 1000.0) : 0;
    std::string out = fmt::format("cycle model ({}, {} GHz; docs/cycle-model.md): {} cycles ({:.2f} us){}\n",
                                  arch_name(launch.arch), s.clock_ghz, thousands(s.total), us,
                                  t.complete ? "" : " -- INCOMPLETE: some instructions never ran (deadlock)");
    if (t.missing_accesses)
        out +=
            "  (the trace has no access records: copies and vector instructions are charged start-up only)\n";
    out += fmt::format("  {:<8} {:<5} {:>8} {:>12} {:>12} {:>12}\n", "core", "pipe", "instrs", "busy",
                       "stall", "idle");
    // A large launch shows the busiest AIC and the busiest AIV (by their busiest pipe); the files have every
    // core.
    std::vector<bool> shown_core;
    for (const PipeTime& p : s.pipes) {
        if (shown_core.size() <= p.core) shown_core.resize(static_cast<size_t>(p.core) + 1, false);
        shown_core[p.core] = true;
    }
    const auto cores = static_cast<size_t>(std::count(shown_core.begin(), shown_core.end(), true));
    if (cores > kSummaryCores) {
        uint16_t busiest[2] = {0, 0};
        uint64_t most[2] = {0, 0};
        bool any[2] = {false, false};
        for (const PipeTime& p : s.pipes) {
            const int aiv = launch.is_aiv(p.core) ? 1 : 0;
            if (p.pipe != Pipe::S && (!any[aiv] || p.busy > most[aiv])) {
                busiest[aiv] = p.core;
                most[aiv] = p.busy;
                any[aiv] = true;
            }
        }
        std::fill(shown_core.begin(), shown_core.end(), false);
        for (int k = 0; k < 2; ++k)
            if (any[k]) shown_core[busiest[k]] = true;
    }
    for (const PipeTime& p : s.pipes)
        if (shown_core[p.core])
            out += fmt::format("  {:<8} {:<5} {:>8} {:>12} {:>12} {:>12}\n", launch.core_name(p.core),
                               pipe_name(p.pipe), thousands(p.instructions), thousands(p.busy),
                               thousands(p.stall), thousands(p.idle));
    if (cores > kSummaryCores)
        out += fmt::format(
            "  ({} cores ran; above, the busiest AIC and AIV; the timeline file has every core)\n", cores);
    if (s.mte_v_union > 0)
        out += fmt::format(
            "  MTE2/V/MTE3 overlap on the AIVs: {:.2f}x ({} busy cycles in {} cycles when any runs; two or "
            "more "
            "at once {} cycles)\n",
            s.overlap, thousands(s.mte_v_busy_sum), thousands(s.mte_v_union), thousands(s.mte_v_two_or_more));
    if (!s.critical_path.empty()) {
        std::string parts;
        for (int p = 0; p < kPipeSlots; ++p)
            if (s.critical_busy[p] > 0)
                parts += fmt::format("{}{} {}", parts.empty() ? "" : ", ", pipe_name(slot_pipe(p)),
                                     thousands(s.critical_busy[p]));
        const TraceEntry& end = trace[s.critical_path.back() - 1];
        out += fmt::format(
            "  critical path: {} instructions executing ({}), {} cycles of cross-core flag latency, {} of "
            "scalar "
            "issue; ends with {} on {}\n",
            thousands(s.critical_path.size()), parts.empty() ? "none" : parts, thousands(s.critical_latency),
            thousands(s.critical_issue), end.op(), launch.core_name(end.core));
    }
    if (s.roofline > 0)
        out += fmt::format("  roofline: {} {} busy {} cycles; the launch takes {:.2f}x that\n",
                           launch.core_name(s.roofline_core), pipe_name(s.roofline_pipe),
                           thousands(s.roofline), s.roofline_ratio);
    // The flags that stalled most (a PipeBarrier<PIPE_ALL> waits for its own core's pipes: its stall is in
    // the S row above).
    size_t shown = 0;
    for (const FlagStall& f : s.flag_stalls) {
        out += fmt::format("  {} {} on {}: {} cycles over {} waits\n",
                           shown == 0 ? "flag stalls:" : "            ", f.flag, launch.core_name(f.core),
                           thousands(f.stall), thousands(f.waits));
        if (++shown == 5) break;
    }
    return out;
}

}  // namespace evg::reports
