// The "checkers proven alive" section of the report (report.hpp): which control row proved each finding of
// the machine's checkers and of the judge alive, on each chip.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "evg/reports/report.hpp"

namespace evg::reports {

std::vector<AliveCell> proven_alive(const ReportInput& in) {
    std::vector<AliveCell> cells;
    for (const conformance::ControlRequirement& q : in.controls) {
        AliveCell c;
        c.req = q;
        if (!q.not_applicable.empty()) {
            c.state = Alive::not_applicable;
            cells.push_back(std::move(c));
            continue;
        }
        for (const CaseResult& r : in.results) {
            if (r.proves != q.finding || r.arch != q.arch) continue;
            if (r.status != Status::pass)
                c.failed.push_back(r.id);
            else if (r.fixed_form)
                c.fixed.push_back(r.id);
            else
                c.proved_by.push_back(r.id);
        }
        const bool any = !c.proved_by.empty() || !c.fixed.empty() || !c.failed.empty();
        if (!c.failed.empty() || (any && c.proved_by.empty()))
            c.state = Alive::not_proven;
        else if (any)
            c.state = Alive::proven;
        else
            c.state = in.ran_all ? Alive::not_proven : Alive::not_run;
        cells.push_back(std::move(c));
    }
    return cells;
}

const char* alive_word(Alive a) {
    switch (a) {
        case Alive::proven:
            return "proven";
        case Alive::not_proven:
            return "NOT PROVEN";
        case Alive::not_run:
            return "not run";
        case Alive::not_applicable:
            return "n/a";
    }
    return "?";
}

std::string alive_summary(const std::vector<AliveCell>& cells) {
    if (cells.empty()) return {};
    int proven = 0, applicable = 0, na = 0, not_run = 0;
    std::string unproven;
    for (const AliveCell& c : cells) {
        if (c.state == Alive::not_applicable) {
            ++na;
            continue;
        }
        ++applicable;
        if (c.state == Alive::proven) ++proven;
        if (c.state == Alive::not_run) ++not_run;
        if (c.state == Alive::not_proven)
            unproven += fmt::format("{}{} on {}", unproven.empty() ? "" : ", ", c.req.finding, c.req.arch);
    }
    std::string s = fmt::format("checkers proven alive: {} of {} findings x chips", proven, applicable);
    if (na > 0) s += fmt::format(", {} not applicable", na);
    if (not_run > 0) s += fmt::format(", {} not run", not_run);
    if (!unproven.empty()) s += "; NOT PROVEN: " + unproven;
    return s;
}

namespace {

// The findings in requirement order, each with its cell per arch (archs in first-seen order).
struct Grid {
    std::vector<std::string> findings, archs;
    std::map<std::string, const AliveCell*> at;  // by key(finding, arch)
    std::map<std::string, std::string> meaning;
};

std::string key(const std::string& finding, const std::string& arch) {
    return fmt::format("{}\x1f{}", finding, arch);
}

Grid grid(const std::vector<AliveCell>& cells) {
    Grid g;
    for (const AliveCell& c : cells) {
        if (g.meaning.emplace(c.req.finding, c.req.meaning).second) g.findings.push_back(c.req.finding);
        if (std::find(g.archs.begin(), g.archs.end(), c.req.arch) == g.archs.end())
            g.archs.push_back(c.req.arch);
        g.at[key(c.req.finding, c.req.arch)] = &c;
    }
    return g;
}

// The text of a cell, with `code` around each id.
template <class Code, class Strong>
std::string cell_text(const AliveCell& c, Code code, Strong strong, const std::string& br) {
    std::string ids;
    switch (c.state) {
        case Alive::proven:
            for (const std::string& id : c.proved_by)
                ids += fmt::format("{}{}", ids.empty() ? "" : br, code(id));
            return fmt::format("proven by {}{}", ids, c.fixed.empty() ? "" : "; fix clean");
        case Alive::not_proven:
            for (const std::string& id : c.failed)
                ids += fmt::format("{}{}", ids.empty() ? "" : br, code(id));
            return fmt::format("{}: {}", strong("NOT PROVEN"),
                               ids.empty() ? std::string("no control row ran for it") : "failed " + ids);
        case Alive::not_run:
            return "not run";
        case Alive::not_applicable:
            return fmt::format("n/a: {}", c.req.not_applicable);
    }
    return "?";
}

}  // namespace

std::string alive_markdown(const std::vector<AliveCell>& cells) {
    std::string o = "## Checkers proven alive\n\n";
    if (cells.empty()) return o + "No control ran.\n";
    o += alive_summary(cells) +
         ". Each finding of the machine's checkers (violation_kinds.def; a race per direction and place) and "
         "of "
         "the judge (tags.def) on each chip, and the control row whose fault gave exactly that finding while "
         "its "
         "fixed form ran clean.\n\n";
    const Grid g = grid(cells);
    o += "| finding | meaning |";
    std::string rule = "|---|---|";
    for (const std::string& a : g.archs) {
        o += " " + a + " |";
        rule += "---|";
    }
    o += "\n" + rule + "\n";
    const auto code = [](const std::string& id) { return fmt::format("`{}`", markdown_code_cell(id)); };
    const auto strong = [](const std::string& s) { return fmt::format("**{}**", s); };
    for (const std::string& f : g.findings) {
        o += fmt::format("| {} | {} |", markdown_cell(f), markdown_cell(g.meaning.at(f)));
        for (const std::string& a : g.archs) {
            const auto it = g.at.find(key(f, a));
            std::string text;
            if (it != g.at.end())  // cell_text escapes the ids; the n/a reason is plain text
                text = it->second->state == Alive::not_applicable
                           ? markdown_cell(cell_text(*it->second, code, strong, ""))
                           : cell_text(*it->second, code, strong, "<br>");
            o += fmt::format(" {} |", text);
        }
        o += "\n";
    }
    return o;
}

std::string alive_html(const std::vector<AliveCell>& cells) {
    std::string o = "<h2>Checkers proven alive</h2>\n";
    if (cells.empty()) return o + "<p>No control ran.</p>\n";
    o += fmt::format("<p>{}", html_escape(alive_summary(cells)));
    o += ". Each finding of the machine's checkers (violation_kinds.def; a race per direction and place) and "
         "of "
         "the judge (tags.def) on each chip, and the control row whose fault gave exactly that finding while "
         "its "
         "fixed form ran clean.</p>\n";
    const Grid g = grid(cells);
    o += "<table><tr><th>finding</th><th>meaning</th>";
    for (const std::string& a : g.archs) o += fmt::format("<th>{}</th>", html_escape(a));
    o += "</tr>\n";
    const auto code = [](const std::string& id) { return fmt::format("<code>{}</code>", html_escape(id)); };
    const auto strong = [](const std::string& s) {
        return fmt::format("<strong>{}</strong>", html_escape(s));
    };
    for (const std::string& f : g.findings) {
        o += fmt::format("<tr><td>{}</td><td>{}</td>", html_escape(f), html_escape(g.meaning.at(f)));
        for (const std::string& a : g.archs) {
            const auto it = g.at.find(key(f, a));
            if (it == g.at.end()) {
                o += "<td></td>";
                continue;
            }
            const AliveCell& c = *it->second;
            const char* cls = status_text(c.state == Alive::proven       ? Status::pass
                                          : c.state == Alive::not_proven ? Status::fail
                                                                         : Status::not_applicable)
                                  .css;
            // cell_text escapes the ids; the n/a reason is plain text
            std::string text = c.state == Alive::not_applicable
                                   ? html_escape(cell_text(c, code, strong, "<br>"))
                                   : cell_text(c, code, strong, "<br>");
            o += fmt::format("<td class=\"{}\">{}</td>", cls, text);
        }
        o += "</tr>\n";
    }
    return o + "</table>\n";
}

std::string fp_born_summary(const ReportInput& in) {
    std::map<std::string, uint64_t> by_op;
    uint64_t cases = 0, failing = 0;
    for (const CaseResult& r : in.results) {
        if (r.fp_born.empty()) continue;
        ++cases;
        if (r.status == conformance::Status::fail) ++failing;
        std::set<std::string> ops;
        for (const std::string& b : r.fp_born) ops.insert(b.substr(0, b.find(" at ")));
        for (const std::string& op : ops) ++by_op[op];
    }
    if (cases == 0) return {};
    std::vector<std::pair<uint64_t, std::string>> order;
    order.reserve(by_op.size());
    for (const auto& [op, n] : by_op) order.emplace_back(n, op);
    std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::string> parts;
    parts.reserve(order.size());
    for (const auto& [n, op] : order) parts.push_back(fmt::format("{} {}", op, n));
    return fmt::format(
        "NaN or infinity born from finite values in {} case(s) ({} of them failing; the others "
        "match the oracle, which computes them too), by op: {}",
        cases, failing, fmt::join(parts, ", "));
}

}  // namespace evg::reports
