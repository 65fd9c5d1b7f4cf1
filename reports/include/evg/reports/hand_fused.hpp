// The "EVG against hand-fused epilogues" section of the conformance report: the seed examples' modelled
// cycles (conformance/examples/hand_fused, docs/evg-vs-hand-fused.md), one writer per format.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace evg::reports {

struct HandFusedRow {
    std::string example, config;  // "Seed000_32_Add", "AtlasA2_half_m65_n100_k40_CL256"
    uint64_t evg_cycles = 0, hand_cycles = 0;
    double evg_over_hand = 0, evg_over_roofline = 0;
    bool ok = true;       // both runs clean, both judged right, the outputs bit-identical
    std::string problem;  // what failed, when !ok
    // The detail hand-fused-report.md shows beside the above.
    double hand_over_roofline = 0;
    uint64_t evg_epilogue = 0, hand_epilogue = 0;      // the busiest AIV's time with MTE2, V or MTE3 busy
    uint64_t evg_v_busy = 0, hand_v_busy = 0;          // V busy, summed over the AIVs
    uint64_t evg_v_barriers = 0, hand_v_barriers = 0;  // PipeBarrier<PIPE_V> issued by the AIVs
    std::string roofline_pipe;                         // the EVG run's busiest (core, pipe): "AIV0.1 MTE2"
};

std::string hand_fused_html(const std::vector<HandFusedRow>& rows);  // a section for the page
std::string hand_fused_markdown(const std::vector<HandFusedRow>& rows);
std::string hand_fused_json(const std::vector<HandFusedRow>& rows);  // a JSON array
// "85 cases, EVG / hand-fused 1.00x to 3.44x (median 1.21x)", or the failures.
std::string hand_fused_summary(const std::vector<HandFusedRow>& rows);

// hand-fused-report.md (written by evg_hand_fused_tests, one test process per example and chip): the file's
// text after adding `rows` to `existing` (the file as it was; empty for a new one), rows keyed by example and
// configuration (a new row replaces the existing row of its key), sorted by that key.
std::string merge_hand_fused_report(std::string_view existing, std::span<const HandFusedRow> rows);

}  // namespace evg::reports
