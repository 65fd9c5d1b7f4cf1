// The EVG-against-hand-fused section of the conformance report (evg/reports/hand_fused.hpp).
#include "evg/reports/hand_fused.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "evg/reports/report.hpp"
#include "merged_table.hpp"

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
                     {"problem", r.problem},
                     {"hand_over_roofline", r.hand_over_roofline},
                     {"evg_epilogue", r.evg_epilogue},
                     {"hand_epilogue", r.hand_epilogue},
                     {"evg_v_busy", r.evg_v_busy},
                     {"hand_v_busy", r.hand_v_busy},
                     {"evg_v_barriers", r.evg_v_barriers},
                     {"hand_v_barriers", r.hand_v_barriers},
                     {"roofline_pipe", r.roofline_pipe}});
    return a.dump();
}

std::string merge_hand_fused_report(std::string_view existing, std::span<const HandFusedRow> rows) {
    std::vector<std::string> lines;
    lines.reserve(rows.size());
    for (const HandFusedRow& r : rows)
        lines.push_back(fmt::format(
            "| {} | {} | {} | {} | {:.3f} | {:.3f} | {:.3f} | {} | {} | {} / {} | {} / {} | {} | {} |",
            r.example, r.config, r.evg_cycles, r.hand_cycles, r.evg_over_hand, r.evg_over_roofline,
            r.hand_over_roofline, r.evg_epilogue, r.hand_epilogue, r.evg_v_busy, r.hand_v_busy,
            r.evg_v_barriers, r.hand_v_barriers, r.roofline_pipe, r.ok ? "pass" : "FAIL"));
    std::string out =
        "# Seed examples: EVG against hand-fused epilogues (cycle model)\n\n"
        "Written by `evg_hand_fused_tests` (conformance/examples/hand_fused). One row per case: modelled "
        "cycles of "
        "the\nwhole launch with the EVG's BlockEpilogue and with the hand-fused epilogue (same kernel, AIC "
        "matmul "
        "and data),\ntheir ratio, each against its roofline (the busiest pipe's busy time), the busiest "
        "AIV's time "
        "with MTE2, V or\nMTE3 busy, the AIVs' V busy time and PIPE_V barriers, and whether every check held "
        "(clean reports, outputs\nbit-identical, both judged against the oracle). docs/evg-vs-hand-fused.md "
        "explains the differences.\n\n"
        "| example | arch / dtype / shape / CL | EVG cycles | hand-fused cycles | EVG / hand | EVG / "
        "roofline | "
        "hand / roofline | AIV epilogue EVG | AIV epilogue hand | V busy EVG / hand | PIPE_V barriers EVG / "
        "hand "
        "| roofline pipe (EVG) | checks |\n"
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n";
    for (const auto& [k, line] : detail::merged_rows(existing, "example", lines)) out += line + '\n';
    return out;
}

}  // namespace evg::reports
