// The report as Markdown: the same sections as the HTML page, as GitHub-flavoured tables.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "evg/reports/report.hpp"
#include "rules.hpp"

namespace evg::reports {

std::string markdown_cell(std::string_view s) {
    std::string out;
    for (const char ch : s) {
        if (ch == '|')
            out += "\\|";
        else if (ch == '\n')
            out += "<br>";
        else if (ch == '<')
            out += "&lt;";  // SetFlag<MTE2_V>(0) would otherwise vanish as an unknown HTML tag
        else if (ch == '>')
            out += "&gt;";
        else if (ch == '&')
            out += "&amp;";
        else
            out += ch;
    }
    return out;
}

std::string markdown_code_cell(std::string_view s) {
    std::string out;
    for (const char ch : s) {
        if (ch == '|')
            out += "\\|";
        else if (ch == '\n')
            out += ' ';
        else if (ch == '`')
            out += '\'';
        else
            out += ch;
    }
    return out;
}

namespace {

std::string md(std::string_view s) {
    return markdown_cell(s);
}

std::string code(std::string_view s) {
    return markdown_code_cell(s);
}

std::string cell_counts(const Cell& c) {
    switch (c.status()) {
        case Status::fail:
            return fmt::format("**FAIL** {}/{}", c.fail, c.pass + c.fail);
        case Status::pass:
            return fmt::format("PASS {}/{}", c.pass, c.pass + c.fail);
        case Status::not_applicable:
            return fmt::format("n/a ({})", c.not_applicable);
    }
    return "?";
}

}  // namespace

std::string markdown(const ReportInput& in) {
    const Matrix m = build_matrix(in.results);
    const Totals t = totals(in.results);
    std::string o = "# evgcheck conformance report\n\n";
    o += fmt::format("**{}** &nbsp; {} cases{}{}\n\n", summary_line(in), in.results.size(),
                     in.archs.empty() ? "" : ", archs " + fmt::format("{}", fmt::join(in.archs, ", ")),
                     in.filter.empty() ? "" : ", filter `" + in.filter + "`");
    if (!in.command.empty()) o += fmt::format("Command: `{}`\n\n", in.command);
    const std::vector<AliveCell> alive = proven_alive(in);
    if (!alive.empty()) o += alive_summary(alive) + "\n\n";
    o += rules_summary(in) + "\n\n";
    if (const std::string born = fp_born_summary(in); !born.empty()) o += born + "\n\n";

    o += side_by_side_markdown(in);
    o += "## Matrix: node kind x dtype x arch\n\n";
    o += "Each cell: PASS / **FAIL** / n/a with passed (or failed) cases out of those that ran; n/a counts "
         "cases not applicable on that arch. Empty: no case.\n\n";
    if (m.node_kinds.empty()) {
        o += "(no case in the matrix suites)\n\n";
    } else {
        o += "| node kind |";
        std::string rule = "|---|";
        for (const std::string& arch : m.archs)
            for (const std::string& dtype : m.dtypes) {
                o += fmt::format(" {} {} |", arch, dtype);
                rule += "---|";
            }
        o += "\n" + rule + "\n";
        for (const std::string& kind : m.node_kinds) {
            o += "| " + kind + " |";
            for (const std::string& arch : m.archs)
                for (const std::string& dtype : m.dtypes) {
                    const Cell* c = m.find(kind, dtype, arch);
                    o += fmt::format(" {} |", c ? cell_counts(*c) : std::string());
                }
            o += "\n";
        }
        o += "\n## Cell details\n\n";
        o += "| node kind | arch | dtype | result | pass | fail | n/a | worst ULP | UB peak | UB predicted | "
             "instr/tile | NaN / inf outputs | events used "
             "|\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
        for (const std::string& kind : m.node_kinds)
            for (const std::string& arch : m.archs)
                for (const std::string& dtype : m.dtypes) {
                    const Cell* c = m.find(kind, dtype, arch);
                    if (c == nullptr) continue;
                    o += fmt::format(
                        "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1f} | {} / {} | {} |\n", kind,
                        arch, dtype, c->status() == Status::fail ? "**FAIL**" : status_word(c->status()),
                        c->pass, c->fail, c->not_applicable, format_ulp(c->worst_ulp),
                        format_bytes(c->ub_peak), format_bytes(c->ub_predicted), c->instr_per_tile, c->nan,
                        c->inf,
                        c->events_used.empty() ? "-" : fmt::format("{}", fmt::join(c->events_used, " ")));
                }
    }

    o += fmt::format("\n## Failing cases ({})\n\n", t.failed);
    if (t.failed == 0) {
        o += "None.\n";
    } else {
        o += "| id | message | violations | replay |\n|---|---|---|---|\n";
        for (const CaseResult& r : in.results)
            if (r.status == Status::fail)
                o += fmt::format("| `{}` | {} | {} | `{}` |\n", code(r.id), md(r.message),
                                 md(violations_text(r.violations)), code(r.replay));
        for (const CaseResult& r : in.results)
            if (r.status == Status::fail && !r.graph_text.empty())
                o += fmt::format("\nGraph of `{}`:\n\n```\n{}\n```\n", r.id, r.graph_text);
    }

    o += '\n';
    o += alive_markdown(alive);
    o += '\n';
    o += rules_markdown(in);
    o += "\n## Negative conformance (invalid graphs must be rejected with the documented message)\n\n";
    bool any = false;
    for (const CaseResult& r : in.results) {
        if (r.suite != "negative") continue;
        if (!any) o += "| id | arch | result | expected message | received |\n|---|---|---|---|---|\n";
        any = true;
        o += fmt::format("| `{}` | {} | {} | {} | {} |\n", code(r.id), r.arch,
                         r.status == Status::fail ? "**FAIL**" : status_word(r.status), md(r.expected),
                         md(r.message));
    }
    if (!any) o += "No negative case ran.\n";

    o += "\n## Upstream hazards (each faithful switch on, or an upstream bug as a stand-alone kernel: the "
         "expected checker must fire; a fixed form expects clean)\n\n";
    any = false;
    for (const CaseResult& r : in.results) {
        if (r.suite != "hazard") continue;
        if (!any)
            o += "| id | arch | result | expected | violations reported | message "
                 "|\n|---|---|---|---|---|---|\n";
        any = true;
        o += fmt::format("| `{}` | {} | {} | {} | {} | {} |\n", code(r.id), r.arch,
                         r.status == Status::fail ? "**FAIL**" : status_word(r.status), md(r.expected),
                         md(violations_text(r.violations)), md(r.message));
    }
    if (!any) o += "No hazard case ran.\n";

    o += "\n## Property-suite coverage\n\n";
    if (!in.props.run) {
        o += "Property suite: not run (`evgcheck conformance --props` runs its coverage shard, or "
             "`--props-log "
             "FILE` reads a saved run).\n";
    } else {
        o += fmt::format("{} cases (from {}).\n\n| tag | cases | share |\n|---|---|---|\n", in.props.cases,
                         in.props.source);
        for (const auto& [tag, n] : in.props.tags)
            o += fmt::format("| {} | {} | {:.1f}% |\n", tag, n,
                             in.props.cases ? 100.0 * n / in.props.cases : 0.0);
    }
    o += "\n";
    if (in.sync_table)
        o += sync_table_markdown(*in.sync_table, "##");
    else
        o += "## Sync mutation table\n\nNot run (`evgcheck sync-table` writes sync_table.json; `evgcheck "
             "conformance --sync-table FILE` adds it here).\n";
    if (in.hand_fused) {
        o += '\n';
        o += hand_fused_markdown(*in.hand_fused);
    }
    o += fmt::format("\n{}\n", summary_line(in));
    return o;
}

}  // namespace evg::reports
