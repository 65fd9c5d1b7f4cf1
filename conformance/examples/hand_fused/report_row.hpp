// A comparison as the reports' row (evg/reports/hand_fused.hpp): what `evgcheck conformance` and
// hand-fused-report.md show of it.
#pragma once
#include <string>

#include "comparison.hpp"
#include "evg/reports/hand_fused.hpp"

namespace evg::hand_fused {

inline reports::HandFusedRow report_row(const Comparison& c) {
    reports::HandFusedRow r;
    r.example = c.example;
    r.config = c.config;
    r.evg_cycles = c.evg.total;
    r.hand_cycles = c.hand.total;
    r.evg_over_hand = c.evg_over_hand();
    r.evg_over_roofline = c.evg_over_roofline();
    r.ok = c.ok();
    for (const std::string& p : c.problems) r.problem += (r.problem.empty() ? "" : "; ") + p;
    r.hand_over_roofline = c.hand_over_roofline();
    r.evg_epilogue = c.evg.epilogue;
    r.hand_epilogue = c.hand.epilogue;
    r.evg_v_busy = c.evg.aiv_v_busy;
    r.hand_v_busy = c.hand.aiv_v_busy;
    r.evg_v_barriers = c.evg.v_barriers;
    r.hand_v_barriers = c.hand.v_barriers;
    r.roofline_pipe = c.evg.roofline_pipe;
    return r;
}

}  // namespace evg::hand_fused
