// The SYNC mutation table's writers (text, Markdown, HTML section, JSON) and its JSON reader.
#include "evg/reports/sync_table.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "evg/json_field.hpp"
#include "evg/reports/report.hpp"

namespace evg::reports {

namespace {

constexpr const char* kVerdictNames[kSyncVerdictCount] = {"caught",    "output-only", "harmless",
                                                          "missed",    "false-alarm", "divergent",
                                                          "unapplied", "undecided",   "reordered"};

// The columns every format shows, in order (caught-by comes after "caught"), with the text table's short
// header and the others' header.
struct Column {
    SyncVerdict v;
    const char* abbrev;
    const char* header;
};
constexpr Column kColumns[] = {{SyncVerdict::caught, "caught", "caught"},
                               {SyncVerdict::reordered, "reord", "reordered"},
                               {SyncVerdict::output_only, "outonly", "output-only"},
                               {SyncVerdict::harmless, "harmless", "harmless"},
                               {SyncVerdict::missed, "missed", "missed"},
                               {SyncVerdict::false_alarm, "falarm", "false alarm"},
                               {SyncVerdict::divergent, "diverg", "divergent"},
                               {SyncVerdict::undecided, "undec", "undecided"},
                               {SyncVerdict::unapplied, "unappl", "unapplied"}};
static_assert(std::size(kColumns) == kSyncVerdictCount, "every verdict is a column");

std::string caught_by_text(const SyncTableRow& r) {
    std::string s;
    for (const auto& [kind, n] : r.caught_by) s += fmt::format("{}{} {}", s.empty() ? "" : ", ", kind, n);
    return s.empty() ? "-" : s;
}

}  // namespace

std::string_view sync_verdict_name(SyncVerdict v) {
    return kVerdictNames[static_cast<int>(v)];
}

bool sync_verdict_fails(SyncVerdict v) {
    return v == SyncVerdict::missed || v == SyncVerdict::false_alarm || v == SyncVerdict::divergent;
}

namespace {

SyncTableRow& row_of(SyncTableData& t, const std::string& op, const std::string& node_kind) {
    auto it = std::find_if(t.rows.begin(), t.rows.end(),
                           [&](const SyncTableRow& r) { return r.op == op && r.node_kind == node_kind; });
    if (it == t.rows.end()) {
        SyncTableRow r;
        r.op = op;
        r.node_kind = node_kind;
        const auto pos = std::lower_bound(t.rows.begin(), t.rows.end(), r, [](const auto& a, const auto& b) {
            return std::tie(a.op, a.node_kind) < std::tie(b.op, b.node_kind);
        });
        it = t.rows.insert(pos, std::move(r));
    }
    return *it;
}

}  // namespace

void add_to_table(SyncTableData& t, const std::string& op, const std::string& node_kind, SyncVerdict v,
                  const std::vector<std::string>& caught_by) {
    SyncTableRow* it = &row_of(t, op, node_kind);
    ++it->points;
    ++it->counts[static_cast<int>(v)];
    if (v == SyncVerdict::caught)
        for (const std::string& k : caught_by) ++it->caught_by[k];
}

SyncTableData merge_sync_tables(const std::vector<SyncTableData>& parts) {
    if (parts.empty()) throw std::runtime_error("sync table merge: no tables to merge");
    SyncTableData t;
    t.seed = parts.front().seed;
    t.graphs = parts.front().graphs;
    t.adversarial = parts.front().adversarial;
    t.parts = 0;
    for (size_t i = 0; i < parts.size(); ++i) {
        const SyncTableData& p = parts[i];
        auto differ = [&](const char* what, const std::string& a, const std::string& b) {
            return std::runtime_error(
                fmt::format("sync table merge: table {} has {} {}, table 1 has {}: tables of different runs "
                            "do not add up",
                            i + 1, what, b, a));
        };
        if (p.seed != t.seed) throw differ("seed", std::to_string(t.seed), std::to_string(p.seed));
        if (p.graphs != t.graphs) throw differ("graphs", std::to_string(t.graphs), std::to_string(p.graphs));
        if (p.adversarial != t.adversarial)
            throw differ("adversarial", std::to_string(t.adversarial), std::to_string(p.adversarial));
        t.command += (i ? "; " : "") + p.command;
        t.subjects += p.subjects;
        t.skipped.insert(t.skipped.end(), p.skipped.begin(), p.skipped.end());
        for (const std::string& a : p.archs)
            if (std::find(t.archs.begin(), t.archs.end(), a) == t.archs.end()) t.archs.push_back(a);
        t.seconds += p.seconds;
        t.parts += p.parts;
        t.complete = t.complete && p.complete;
        for (const SyncTableRow& r : p.rows) {
            SyncTableRow& into = row_of(t, r.op, r.node_kind);
            into.points += r.points;
            for (int v = 0; v < kSyncVerdictCount; ++v) into.counts[v] += r.counts[v];
            for (const auto& [k, n] : r.caught_by) into.caught_by[k] += n;
        }
        t.findings.insert(t.findings.end(), p.findings.begin(), p.findings.end());
        for (const auto& [k, n] : p.kind_differences) t.kind_differences[k] += n;
    }
    return t;
}

SyncTableRow table_totals(const SyncTableData& t) {
    SyncTableRow s;
    s.op = s.node_kind = "total";
    for (const SyncTableRow& r : t.rows) {
        s.points += r.points;
        for (int i = 0; i < kSyncVerdictCount; ++i) s.counts[i] += r.counts[i];
        for (const auto& [k, n] : r.caught_by) s.caught_by[k] += n;
    }
    return s;
}

bool sync_table_fails(const SyncTableData& t) {
    const SyncTableRow s = table_totals(t);
    for (const Column& c : kColumns)
        if (sync_verdict_fails(c.v) && s.count(c.v)) return true;
    return false;
}

std::string sync_table_summary(const SyncTableData& t) {
    const SyncTableRow s = table_totals(t);
    return fmt::format(
        "sync table: {} points over {} runs: {} caught, {} reordered, {} output-only, {} proven harmless, {} "
        "missed, {} false alarms, {} divergent, {} undecided, {} unapplied in {:.0f} s{}{}",
        s.points, t.subjects, s.count(SyncVerdict::caught), s.count(SyncVerdict::reordered),
        s.count(SyncVerdict::output_only), s.count(SyncVerdict::harmless), s.count(SyncVerdict::missed),
        s.count(SyncVerdict::false_alarm), s.count(SyncVerdict::divergent), s.count(SyncVerdict::undecided),
        s.count(SyncVerdict::unapplied), t.seconds,
        t.parts > 1 ? fmt::format(" (the sum of {} merged runs)", t.parts) : "",
        t.complete ? "" : " (stopped by the time budget)");
}

std::string sync_table_text(const SyncTableData& t) {
    std::string o = fmt::format("{:<16} {:<18} {:>7}", "operator", "node kind", "points");
    for (const Column& c : kColumns) o += fmt::format(" {:>8}", c.abbrev);
    o += "  caught by\n";
    auto line = [&](const SyncTableRow& r) {
        o += fmt::format("{:<16} {:<18} {:>7}", r.op, r.node_kind, r.points);
        for (const Column& c : kColumns) o += fmt::format(" {:>8}", r.count(c.v));
        o += fmt::format("  {}\n", caught_by_text(r));
    };
    if (t.rows.empty()) o += "(no mutation point)\n";
    for (const SyncTableRow& r : t.rows) line(r);
    line(table_totals(t));
    for (const SyncTableFinding& f : t.findings)
        o += fmt::format("{}: {} | {} | {}\n  {}\n", sync_verdict_name(f.verdict), f.subject, f.node_kind,
                         f.mutation, f.detail);
    for (const auto& [k, n] : t.kind_differences) o += fmt::format("caught, kinds differ: {} ({})\n", k, n);
    return o;
}

std::string sync_table_markdown(const SyncTableData& t, std::string_view heading) {
    const std::string h(heading);
    std::string o = fmt::format("{} Sync mutation table\n\n**{}**\n\n", h, sync_table_summary(t));
    o += fmt::format(
        "Every mutation point x operator of {} kernel runs ({} random graphs, seed {}; archs {}), each run "
        "mutated on the model with the in-order scheduler and its trace given to the independent schedule "
        "explorer. caught: the explorer finds a hazard and a sync checker fired; reordered: the explorer "
        "proves no race, but a read takes its bytes from other writes than unmutated, in every schedule, and "
        "the outputs or a non-sync checker show it; output-only: only the outputs "
        "or a non-sync checker show a hazard (a checker miss); harmless: the explorer proves no hazard and "
        "{} "
        "adversarial schedules run clean with the unmutated outputs; missed / false alarm / divergent: the "
        "checkers and the explorer disagree; undecided: the explorer gave up (its attempt cap), neither "
        "agreement nor disagreement.\n\n",
        t.subjects, t.graphs, t.seed, t.archs.empty() ? "-" : fmt::format("{}", fmt::join(t.archs, ", ")),
        t.adversarial);
    if (!t.command.empty()) o += fmt::format("Command: `{}`\n\n", t.command);
    o += "| operator | node kind | points |";
    std::string rule = "|---|---|---|";
    for (const Column& c : kColumns) {
        o += fmt::format(" {} |", c.header);
        rule += "---|";
        if (c.v == SyncVerdict::caught) o += " caught by |", rule += "---|";
    }
    o += "\n" + rule + "\n";
    auto line = [&](const SyncTableRow& r, bool bold) {
        o += fmt::format("| {} | {} | {} |", bold ? "**total**" : r.op,
                         bold ? "" : markdown_cell(r.node_kind), r.points);
        for (const Column& c : kColumns) {
            const uint64_t n = r.count(c.v);
            o += n && sync_verdict_fails(c.v) ? fmt::format(" **{}** |", n) : fmt::format(" {} |", n);
            if (c.v == SyncVerdict::caught) o += fmt::format(" {} |", markdown_cell(caught_by_text(r)));
        }
        o += "\n";
    };
    for (const SyncTableRow& r : t.rows) line(r, false);
    line(table_totals(t), true);
    o += fmt::format("\n{}# Mutations to read\n\n", h);
    if (t.findings.empty()) {
        o += "None: no missed, falsely alarmed, divergent, output-only, undecided or unapplied mutation.\n";
    } else {
        o += "| verdict | run | node kind | mutation | detail |\n|---|---|---|---|---|\n";
        for (const SyncTableFinding& f : t.findings)
            o += fmt::format("| {} | {} | {} | `{}` | {} |\n", sync_verdict_name(f.verdict),
                             markdown_cell(f.subject), markdown_cell(f.node_kind),
                             markdown_code_cell(f.mutation), markdown_cell(f.detail));
    }
    o += fmt::format("\n{}# Caught with other finding kinds\n\n", h);
    if (t.kind_differences.empty()) {
        o += "None: every caught mutation's checker kinds equal the explorer's.\n";
    } else {
        o += "| checkers / explorer | mutations |\n|---|---|\n";
        for (const auto& [k, n] : t.kind_differences) o += fmt::format("| {} | {} |\n", markdown_cell(k), n);
    }
    if (!t.skipped.empty()) {
        o += fmt::format("\n{} runs not used (their unmutated run is not clean):\n\n", t.skipped.size());
        for (const std::string& s : t.skipped) o += "- " + markdown_cell(s) + "\n";
    }
    return o;
}

std::string sync_table_html(const SyncTableData& t) {
    std::string o =
        fmt::format("<h2>Sync mutation table</h2>\n<p><b>{}</b></p>\n", html_escape(sync_table_summary(t)));
    o += "<table><tr><th>operator</th><th>node kind</th><th>points</th>";
    for (const Column& c : kColumns) {
        o += fmt::format("<th>{}</th>", c.header);
        if (c.v == SyncVerdict::caught) o += "<th>caught by</th>";
    }
    o += "</tr>\n";
    auto line = [&](const SyncTableRow& r) {
        o += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td>", html_escape(r.op), html_escape(r.node_kind),
                         r.points);
        for (const Column& c : kColumns) {
            o += (r.count(c.v) && sync_verdict_fails(c.v) ? "<td class=\"fail\">" : "<td>") +
                 std::to_string(r.count(c.v)) + "</td>";
            if (c.v == SyncVerdict::caught) o += "<td>" + html_escape(caught_by_text(r)) + "</td>";
        }
        o += "</tr>\n";
    };
    for (const SyncTableRow& r : t.rows) line(r);
    line(table_totals(t));
    o += "</table>\n";
    if (!t.findings.empty()) {
        o += "<table><tr><th>verdict</th><th>run</th><th>node "
             "kind</th><th>mutation</th><th>detail</th></tr>\n";
        for (const SyncTableFinding& f : t.findings)
            o +=
                fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td><td>{}</td></tr>\n",
                            sync_verdict_name(f.verdict), html_escape(f.subject), html_escape(f.node_kind),
                            html_escape(f.mutation), html_escape(f.detail));
        o += "</table>\n";
    }
    return o;
}

std::string sync_table_json(const SyncTableData& t) {
    nlohmann::json rows = nlohmann::json::array();
    auto row_json = [](const SyncTableRow& r) {
        nlohmann::json j = {{"op", r.op}, {"node_kind", r.node_kind}, {"points", r.points}};
        for (const Column& c : kColumns) j[std::string(sync_verdict_name(c.v))] = r.count(c.v);
        j["caught_by"] = r.caught_by;
        return j;
    };
    for (const SyncTableRow& r : t.rows) rows.push_back(row_json(r));
    nlohmann::json findings = nlohmann::json::array();
    for (const SyncTableFinding& f : t.findings)
        findings.push_back({{"verdict", sync_verdict_name(f.verdict)},
                            {"subject", f.subject},
                            {"node_kind", f.node_kind},
                            {"mutation", f.mutation},
                            {"detail", f.detail}});
    const nlohmann::json j = {{"command", t.command},
                              {"seed", t.seed},
                              {"graphs", t.graphs},
                              {"subjects", t.subjects},
                              {"skipped", t.skipped},
                              {"archs", t.archs},
                              {"adversarial", t.adversarial},
                              {"seconds", t.seconds},
                              {"parts", t.parts},
                              {"complete", t.complete},
                              {"rows", rows},
                              {"totals", row_json(table_totals(t))},
                              {"kind_differences", t.kind_differences},
                              {"findings", findings},
                              {"summary", sync_table_summary(t)}};
    return j.dump(2) + "\n";
}

namespace {

SyncVerdict verdict_of(const std::string& name) {
    for (int i = 0; i < kSyncVerdictCount; ++i)
        if (name == kVerdictNames[i]) return static_cast<SyncVerdict>(i);
    throw std::runtime_error(
        fmt::format("sync table JSON: unknown verdict '{}' (expected one of: {})", name,
                    fmt::join(std::begin(kVerdictNames), std::end(kVerdictNames), ", ")));
}

template <class T>
T table_field(const nlohmann::json& j, const char* name, const char* where) {
    return evg::json_field<T>(j, name, where, "sync table JSON");
}

}  // namespace

SyncTableData parse_sync_table_json(std::string_view text) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(fmt::format("sync table JSON: not JSON: {}", e.what()));
    }
    SyncTableData t;
    t.command = table_field<std::string>(j, "command", "the table");
    t.seed = table_field<uint64_t>(j, "seed", "the table");
    t.graphs = table_field<int>(j, "graphs", "the table");
    t.subjects = table_field<int>(j, "subjects", "the table");
    t.skipped = table_field<std::vector<std::string>>(j, "skipped", "the table");
    t.archs = table_field<std::vector<std::string>>(j, "archs", "the table");
    t.adversarial = table_field<int>(j, "adversarial", "the table");
    t.seconds = table_field<double>(j, "seconds", "the table");
    t.parts =
        j.contains("parts") ? table_field<int>(j, "parts", "the table") : 1;  // tables written before merges
    t.complete = table_field<bool>(j, "complete", "the table");
    for (const nlohmann::json& rj : table_field<nlohmann::json>(j, "rows", "the table")) {
        SyncTableRow r;
        r.op = table_field<std::string>(rj, "op", "a row");
        r.node_kind = table_field<std::string>(rj, "node_kind", "a row");
        r.points = table_field<uint64_t>(rj, "points", "a row");
        for (const Column& c : kColumns) {
            const char* name = kVerdictNames[static_cast<int>(c.v)];
            // Tables written before the explorer could say it gave up (or tell a reordering) have no
            // undecided (reordered) column: there was none.
            if ((c.v == SyncVerdict::undecided || c.v == SyncVerdict::reordered) && !rj.contains(name))
                continue;
            r.counts[static_cast<int>(c.v)] = table_field<uint64_t>(rj, name, "a row");
        }
        r.caught_by = table_field<std::map<std::string, uint64_t>>(rj, "caught_by", "a row");
        t.rows.push_back(std::move(r));
    }
    t.kind_differences = table_field<std::map<std::string, uint64_t>>(j, "kind_differences", "the table");
    for (const nlohmann::json& fj : table_field<nlohmann::json>(j, "findings", "the table")) {
        SyncTableFinding f;
        f.verdict = verdict_of(table_field<std::string>(fj, "verdict", "a finding"));
        f.subject = table_field<std::string>(fj, "subject", "a finding");
        f.node_kind = table_field<std::string>(fj, "node_kind", "a finding");
        f.mutation = table_field<std::string>(fj, "mutation", "a finding");
        f.detail = table_field<std::string>(fj, "detail", "a finding");
        t.findings.push_back(std::move(f));
    }
    return t;
}

}  // namespace evg::reports
