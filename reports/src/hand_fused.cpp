// The EVG-against-hand-fused section of the conformance report (evg/reports/hand_fused.hpp).
#include "evg/reports/hand_fused.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "evg/reports/report.hpp"

namespace evg::reports {

namespace {

constexpr const char* kIntro =
    "Each seed example's epilogue written by hand in AscendC, run in the same Catlass kernel on the same "
    "data, "
    "checked (clean reports, right outputs, bit-identical to the EVG) and timed with the cycle model "
    "(docs/cycle-model.md); where and why the EVG is slower: docs/evg-vs-hand-fused.md. Cycles are the whole "
    "launch's; roofline is the busiest pipe's busy time.";

}  // namespace

std::string hand_fused_summary(const std::vector<HandFusedRow>& rows) {
    std::vector<double> ratios;
    size_t failed = 0;
    for (const HandFusedRow& r : rows) {
        if (!r.ok) ++failed;
        if (r.ok && r.evg_over_hand > 0) ratios.push_back(r.evg_over_hand);
    }
    std::string s = fmt::format("{} cases", rows.size());
    if (failed) s += fmt::format(", {} FAILED", failed);
    if (!ratios.empty()) {
        std::sort(ratios.begin(), ratios.end());
        s += fmt::format(", EVG / hand-fused {:.2f}x to {:.2f}x (median {:.2f}x)", ratios.front(),
                         ratios.back(), ratios[ratios.size() / 2]);
    }
    return s;
}

std::string hand_fused_html(const std::vector<HandFusedRow>& rows) {
    std::string o =
        "<h2>EVG against hand-fused epilogues (cycle model)</h2>\n<p>" + html_escape(kIntro) +
        "</p>\n<p><b>" + html_escape(hand_fused_summary(rows)) +
        "</b></p>\n<table>\n<tr><th>example</th><th>configuration</th><th>EVG cycles</th><th>hand-fused "
        "cycles</th><th>EVG / hand-fused</th><th>EVG / roofline</th><th>checks</th></tr>\n";
    for (const HandFusedRow& r : rows)
        o += fmt::format(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.2f}</td><td>{:.2f}</td><td>{}</td></"
            "tr>\n",
            html_escape(r.example), html_escape(r.config), r.evg_cycles, r.hand_cycles, r.evg_over_hand,
            r.evg_over_roofline, r.ok ? "pass" : "<b>FAIL</b>: " + html_escape(r.problem));
    return o + "</table>\n";
}

std::string hand_fused_markdown(const std::vector<HandFusedRow>& rows) {
    std::string o =
        std::string("## EVG against hand-fused epilogues (cycle model)\n\n") + kIntro + "\n\n**" +
        hand_fused_summary(rows) +
        "**\n\n| example | configuration | EVG cycles | hand-fused cycles | EVG / hand-fused | EVG / "
        "roofline | checks |\n|---|---|---:|---:|---:|---:|---|\n";
    for (const HandFusedRow& r : rows)
        o += fmt::format("| {} | {} | {} | {} | {:.2f} | {:.2f} | {} |\n", r.example, r.config, r.evg_cycles,
                         r.hand_cycles, r.evg_over_hand, r.evg_over_roofline,
                         r.ok ? "pass" : "**FAIL**: " + markdown_cell(r.problem));
    return o + "\n";
}

std::string hand_fused_json(const std::vector<HandFusedRow>& rows) {
    nlohmann::json a = nlohmann::json::array();
    for (const HandFusedRow& r : rows)
        a.push_back({{"example", r.example},
                     {"config", r.config},
                     {"evg_cycles", r.evg_cycles},
                     {"hand_cycles", r.hand_cycles},
                     {"evg_over_hand", r.evg_over_hand},
                     {"evg_over_roofline", r.evg_over_roofline},
                     {"ok", r.ok},
                     {"problem", r.problem}});
    return a.dump();
}

}  // namespace evg::reports
