// The "EVG against hand-fused epilogues" section of the conformance report: the seed examples' modelled
// cycles (conformance/examples/hand_fused, docs/evg-vs-hand-fused.md), one writer per format.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace evg::reports {

struct HandFusedRow {
    std::string example, config;  // "Seed000_32_Add", "AtlasA2_half_m65_n100_k40_CL256"
    uint64_t evg_cycles = 0, hand_cycles = 0;
    double evg_over_hand = 0, evg_over_roofline = 0;
    bool ok = true;       // both runs clean, both judged right, the outputs bit-identical
    std::string problem;  // what failed, when !ok
};

std::string hand_fused_html(const std::vector<HandFusedRow>& rows);  // a section for the page
std::string hand_fused_markdown(const std::vector<HandFusedRow>& rows);
std::string hand_fused_json(const std::vector<HandFusedRow>& rows);  // a JSON array
// "85 cases, EVG / hand-fused 1.00x to 3.44x (median 1.21x)", or the failures.
std::string hand_fused_summary(const std::vector<HandFusedRow>& rows);

}  // namespace evg::reports
