// The report as one self-contained HTML page: inline CSS, one small inline script (the copy buttons of the
// replay commands), no network. Status is colour AND text (PASS / FAIL / n/a, and failing cells have a heavy
// border), so it also reads in monochrome. The matrix of both archs fits a 1280-px window; a failing case
// gives its message, graph and replay command the table's full width.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "evg/reports/report.hpp"
#include "rules.hpp"

namespace evg::reports {

std::string html_escape(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (const char ch : s) {
        switch (ch) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += ch;
        }
    }
    return out;
}

namespace {

std::string esc(std::string_view s) {
    return html_escape(s);
}

const char* css_class(Status s) {
    return status_text(s).css;
}

std::string badge(Status s) {
    return fmt::format("<span class=\"badge {}\">{}</span>", css_class(s), status_text(s).badge);
}

constexpr const char* kStyle = R"(
body { font-family: "DejaVu Sans", Arial, Helvetica, sans-serif; margin: 16px 20px; color: #1a1a1a; font-size: 14px; }
h1 { font-size: 22px; margin: 0 0 8px 0; }
h2 { font-size: 17px; margin: 28px 0 8px 0; border-bottom: 1px solid #bbb; padding-bottom: 3px; }
.summary { font-size: 18px; padding: 10px 14px; border: 2px solid; display: inline-block; margin: 6px 0 4px 0; }
.summary.ok { background: #e3f4e3; border-color: #2e7d32; }
.summary.bad { background: #fde4e4; border-color: #c62828; }
.meta { color: #555; font-size: 13px; margin: 4px 0; }
table { border-collapse: collapse; margin: 6px 0; }
th, td { border: 1px solid #999; padding: 4px 7px; vertical-align: top; text-align: left; }
th { background: #eceff1; font-weight: 600; }
table.matrix td, table.matrix th { text-align: center; padding: 2px 3px; font-size: 12px; }
table.matrix th.row { text-align: left; }
table.matrix td.empty { background: #fafafa; color: #bbb; }
td.pass { background: #d7f0d7; }
td.fail { background: #f8c9c9; border: 3px solid #b71c1c; }
td.na { background: #eeeeee; color: #555; }
.st { font-weight: 700; font-size: 12px; white-space: nowrap; }
.n { font-size: 11px; font-weight: 400; }
.msg { white-space: pre-wrap; font-size: 12px; overflow-wrap: anywhere; }
.m { font-size: 10px; color: #333; line-height: 1.25; white-space: nowrap; }
table.failing { width: 100%; table-layout: fixed; }
table.failing td.full { background: #fff8f8; }
.replay { margin: 6px 0 2px 0; display: flex; gap: 8px; align-items: flex-start; }
.cmd { white-space: pre-wrap; overflow-wrap: anywhere; flex: 1; background: #f5f5f5; border: 1px solid #ddd; padding: 4px 6px; }
button.copy { font-size: 12px; padding: 2px 8px; cursor: pointer; }
.badge { font-weight: 700; padding: 1px 6px; border: 1px solid; border-radius: 3px; font-size: 12px; }
.badge.pass { background: #d7f0d7; border-color: #2e7d32; }
.badge.fail { background: #f8c9c9; border-color: #b71c1c; }
.badge.na { background: #eeeeee; border-color: #777; }
code, pre { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; }
pre { background: #f5f5f5; border: 1px solid #ddd; padding: 6px; margin: 4px 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.legend span { margin-right: 14px; }
.bar { display: inline-block; height: 10px; background: #5c6bc0; vertical-align: middle; }
table.details td, table.details th { font-size: 12px; }
)";

// The copy buttons: each copies the text of the replay command beside it (the page works without it).
constexpr const char* kScript = R"(
document.querySelectorAll("button.copy").forEach(function (b) {
  b.addEventListener("click", function () {
    var text = b.parentNode.querySelector(".cmd").textContent;
    var done = function () { b.textContent = "copied"; setTimeout(function () { b.textContent = "copy"; }, 1500); };
    if (navigator.clipboard) { navigator.clipboard.writeText(text).then(done); return; }
    var r = document.createRange(); r.selectNodeContents(b.parentNode.querySelector(".cmd"));
    var sel = window.getSelection(); sel.removeAllRanges(); sel.addRange(r); document.execCommand("copy"); done();
  });
});
)";

void matrix_section(std::string& o, const Matrix& m) {
    o += "<h2>Matrix: node kind &times; dtype &times; arch</h2>\n";
    o += "<p class=\"legend\"><span>" + badge(Status::pass) + " every case passed</span><span>" +
         badge(Status::fail) + " at least one case failed</span><span>" + badge(Status::not_applicable) +
         " not applicable on that arch</span><span>blank: no case</span></p>\n";
    o += "<p class=\"meta\">Each cell: result, passed (or failed) cases / cases run; then the worst error in "
         "ULP "
         "against the oracle, the largest UB peak, and the most instructions per tile. Events used: the cell "
         "details table below.</p>\n";
    if (m.node_kinds.empty()) {
        o += "<p>No case in the matrix suites.</p>\n";
        return;
    }
    o += "<table class=\"matrix\">\n<tr><th class=\"row\" rowspan=\"2\">node kind</th>";
    for (const std::string& arch : m.archs)
        o += fmt::format("<th colspan=\"{}\">{}</th>", m.dtypes.size(), esc(arch));
    o += "</tr>\n<tr>";
    for (size_t a = 0; a < m.archs.size(); ++a)
        for (const std::string& dtype : m.dtypes) o += "<th>" + esc(dtype) + "</th>";
    o += "</tr>\n";
    for (const std::string& kind : m.node_kinds) {
        o += "<tr><th class=\"row\">" + esc(kind) + "</th>";
        for (const std::string& arch : m.archs)
            for (const std::string& dtype : m.dtypes) {
                const Cell* c = m.find(kind, dtype, arch);
                if (c == nullptr) {
                    o += "<td class=\"empty\">&middot;</td>";
                    continue;
                }
                const Status s = c->status();
                o += fmt::format("<td class=\"{}\" title=\"{}\">", css_class(s),
                                 esc(fmt::format("{} / {} / {}", kind, arch, dtype)));
                if (s == Status::not_applicable) {
                    o += fmt::format("<div class=\"st\">n/a</div><div class=\"m\">{} case{}</div></td>",
                                     c->not_applicable, c->not_applicable == 1 ? "" : "s");
                    continue;
                }
                const int ran = c->pass + c->fail;
                o += fmt::format("<div class=\"st\">{} <span class=\"n\">{}/{}</span></div>",
                                 s == Status::pass ? "PASS" : "FAIL", s == Status::pass ? c->pass : c->fail,
                                 ran);
                o += fmt::format("<div class=\"m\">{} ulp &middot; {:.0f} i/t<br>UB {}</div></td>",
                                 format_ulp(c->worst_ulp), c->instr_per_tile, format_bytes(c->ub_peak));
            }
        o += "</tr>\n";
    }
    o += "</table>\n";
}

void failing_section(std::string& o, const ReportInput& in, int failed) {
    o += fmt::format("<h2>Failing cases ({})</h2>\n", failed);
    if (failed == 0) {
        o += "<p>None.</p>\n";
        return;
    }
    // Two rows a case: what it is, then its message, graph and replay command across the full width.
    o += "<table class=\"failing\"><colgroup><col style=\"width:55%\"><col style=\"width:10%\">"
         "<col style=\"width:35%\"></colgroup>\n<tr><th>id</th><th>suite</th><th>violations</th></tr>\n";
    for (const CaseResult& r : in.results) {
        if (r.status != Status::fail) continue;
        o += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{}</td></tr>\n", esc(r.id), esc(r.suite),
                         esc(violations_text(r.violations)));
        o += fmt::format("<tr><td class=\"full\" colspan=\"3\"><div class=\"msg\">{}</div>", esc(r.message));
        if (!r.graph_text.empty()) o += "<pre>" + esc(r.graph_text) + "</pre>";
        if (!r.replay.empty())
            o += fmt::format(
                "<div class=\"replay\"><code class=\"cmd\">{}</code><button class=\"copy\" "
                "type=\"button\">copy</button></div>",
                esc(r.replay));
        o += "</td></tr>\n";
    }
    o += "</table>\n";
}

void suite_table(std::string& o, const ReportInput& in, const std::string& suite, bool hazard) {
    bool any = false;
    for (const CaseResult& r : in.results) {
        if (r.suite != suite) continue;
        if (!any)
            o += hazard ? "<table><tr><th>id</th><th>arch</th><th>result</th><th>expected "
                          "checker</th><th>violations "
                          "reported</th><th>message</th></tr>\n"
                        : "<table><tr><th>id</th><th>arch</th><th>result</th><th>expected message</th>"
                          "<th>received</th></tr>\n";
        any = true;
        o += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td>", esc(r.id),
                         esc(r.arch), badge(r.status), esc(r.expected));
        if (hazard) o += "<td>" + esc(violations_text(r.violations)) + "</td>";
        o += "<td>" + esc(r.message) + "</td></tr>\n";
    }
    if (any)
        o += "</table>\n";
    else
        o += hazard ? "<p>No hazard case ran.</p>\n" : "<p>No negative case ran.</p>\n";
}

void details_section(std::string& o, const Matrix& m) {
    if (m.cells.empty()) return;
    o += "<h2>Cell details</h2>\n<table class=\"details\"><tr><th>node kind</th><th>arch</th><th>dtype</th>"
         "<th>result</th><th>pass</th><th>fail</th><th>n/a</th><th>worst ULP</th><th>UB peak</th><th>UB "
         "predicted</th><th>instr/tile</th><th>NaN / inf outputs</th><th>events used</th></tr>\n";
    for (const std::string& kind : m.node_kinds)
        for (const std::string& arch : m.archs)
            for (const std::string& dtype : m.dtypes) {
                const Cell* c = m.find(kind, dtype, arch);
                if (c == nullptr) continue;
                o += fmt::format(
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</"
                    "td><td>{}</td>"
                    "<td>{}</td><td>{}</td><td>{:.1f}</td><td>{} / {}</td><td>{}</td></tr>\n",
                    esc(kind), esc(arch), esc(dtype), badge(c->status()), c->pass, c->fail, c->not_applicable,
                    format_ulp(c->worst_ulp), format_bytes(c->ub_peak), format_bytes(c->ub_predicted),
                    c->instr_per_tile, c->nan, c->inf,
                    c->events_used.empty() ? "-" : esc(fmt::format("{}", fmt::join(c->events_used, " "))));
            }
    o += "</table>\n";
}

void props_section(std::string& o, const PropsCoverage& p) {
    o += "<h2>Property-suite coverage</h2>\n";
    if (!p.run) {
        o += "<p>Property suite: <b>not run</b> (<code>evgcheck conformance --props</code> runs its coverage "
             "shard; <code>--props-log FILE</code> reads a saved run).</p>\n";
        return;
    }
    o += fmt::format(
        "<p>{} cases (from {}).</p>\n<table><tr><th>tag</th><th>cases</th><th>share</th><th></th></tr>\n",
        p.cases, esc(p.source));
    for (const auto& [tag, n] : p.tags) {
        const double share = p.cases ? 100.0 * n / p.cases : 0.0;
        o += fmt::format(
            "<tr><td>{}</td><td>{}</td><td>{:.1f}%</td><td><span class=\"bar\" style=\"width:{:.0f}px\">"
            "</span></td></tr>\n",
            esc(tag), n, share, 2 * share);
    }
    o += "</table>\n";
}

}  // namespace

std::string html(const ReportInput& in) {
    const Matrix m = build_matrix(in.results);
    const Totals t = totals(in.results);
    std::string o =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<title>evgcheck conformance report</title>\n<style>";
    o += kStyle;
    o += "</style>\n</head>\n<body>\n<h1>evgcheck conformance report</h1>\n";
    const std::vector<AliveCell> alive = proven_alive(in);
    const bool dead = std::any_of(alive.begin(), alive.end(),
                                  [](const AliveCell& c) { return c.state == Alive::not_proven; });
    const bool ok = t.failed == 0 && in.partial.empty() && !dead;
    o += fmt::format("<div class=\"summary {}\"><b>{}</b> &mdash; {}</div>\n", ok ? "ok" : "bad",
                     t.failed || dead ? "FAILED" : (ok ? "ALL PASSED" : "PARTIAL"), esc(summary_line(in)));
    if (!alive.empty()) o += fmt::format("<p class=\"meta\">{}</p>\n", esc(alive_summary(alive)));
    o += fmt::format("<p class=\"meta\">{}</p>\n", esc(rules_summary(in)));
    if (const std::string born = fp_born_summary(in); !born.empty())
        o += fmt::format("<p class=\"meta\">{}</p>\n", esc(born));
    o += fmt::format("<p class=\"meta\">{} cases{}{}{}</p>\n", in.results.size(),
                     in.archs.empty() ? "" : "; archs " + esc(fmt::format("{}", fmt::join(in.archs, ", "))),
                     in.filter.empty() ? "" : "; filter <code>" + esc(in.filter) + "</code>",
                     in.command.empty() ? "" : "; command <code>" + esc(in.command) + "</code>");
    o += side_by_side_html(in);
    matrix_section(o, m);
    failing_section(o, in, t.failed);
    o += alive_html(alive);
    o += rules_html(in);
    o += "<h2>Negative conformance: invalid graphs must be rejected with the documented message</h2>\n";
    suite_table(o, in, "negative", false);
    o += "<h2>Upstream hazards: each faithful switch on, or an upstream bug as a stand-alone kernel: the "
         "expected checker must fire; a fixed form expects clean</h2>\n";
    suite_table(o, in, "hazard", true);
    props_section(o, in.props);
    if (in.sync_table)
        o += sync_table_html(*in.sync_table);
    else
        o += "<h2>Sync mutation table</h2>\n<p>Not run (<code>evgcheck sync-table</code> writes "
             "sync_table.json; "
             "<code>evgcheck conformance --sync-table FILE</code> adds it here).</p>\n";
    if (in.hand_fused) o += hand_fused_html(*in.hand_fused);
    details_section(o, m);
    o += "<p class=\"meta\">" + esc(summary_line(in)) + "</p>\n<script>";
    o += kScript;
    o += "</script>\n</body>\n</html>\n";
    return o;
}

}  // namespace evg::reports
