// The node suite side by side on evgcheck's library and on upstream Catlass's (report.hpp, SideBySide).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "evg/reports/report.hpp"

namespace evg::reports {
namespace {

constexpr std::string_view kArch = "Ascend950";

void count(Cell& c, const CaseResult& r) {
    c.node_kind = r.node_kind;
    c.dtype = matrix_dtype(r.dtype);
    c.arch = r.arch;
    if (r.status == Status::pass) ++c.pass;
    if (r.status == Status::fail) ++c.fail;
    if (r.status == Status::not_applicable) ++c.not_applicable;
    c.case_ids.push_back(r.id);
}

std::string checkout_line(const UpstreamCheckout& u) {
    if (!u.description.empty()) return u.description;
    return fmt::format("{} ({})", u.root, u.commit.empty() ? "not a git checkout" : "commit " + u.commit);
}

constexpr const char* kLegend =
    "The node suite on Ascend950 (where upstream has EVG), evgcheck's library beside upstream's own nodes, "
    "visitors and kernels compiled from the checkout. Upstream's cells run each graph at its compiled "
    "computeLength (96) over the suite's shapes, dense, with upstream's own matmul, whose findings "
    "docs/upstream-findings.md explains (§1, §3) are set aside in every case; \"§4 N\": N cases passed with "
    "upstream's store-of-a-load race (§4) set aside, as a node stored directly meets it; \"not in this "
    "Catlass\": the "
    "checkout has no such node kind, or nothing of it for that dtype.";

// Upstream's cases per node kind x dtype x configuration family (CaseResult::family): the rows in the
// matrix's order, the families in the order the cases ran.
struct FamilyTable {
    std::vector<std::pair<std::string, std::string>> rows;  // (node kind, dtype)
    std::vector<std::string> families;
    std::map<std::string, Cell> cells;  // Matrix::key(kind, dtype, family)
    const Cell* find(const std::string& kind, const std::string& dtype, const std::string& family) const {
        const auto it = cells.find(Matrix::key(kind, dtype, family));
        return it == cells.end() ? nullptr : &it->second;
    }
};

FamilyTable family_table(const ReportInput& in) {
    FamilyTable t;
    std::vector<CaseResult> upstream;
    for (const CaseResult& r : in.results)
        if (r.suite == "upstream" && !r.family.empty()) {
            upstream.push_back(r);
            upstream.back().suite = "node";
            if (std::find(t.families.begin(), t.families.end(), r.family) == t.families.end())
                t.families.push_back(r.family);
            count(t.cells[Matrix::key(r.node_kind, matrix_dtype(r.dtype), r.family)], r);
        }
    const Matrix m = build_matrix(upstream);
    for (const std::string& kind : m.node_kinds)
        for (const std::string& dtype : m.dtypes)
            for (const std::string& f : t.families)
                if (t.find(kind, dtype, f)) {
                    t.rows.emplace_back(kind, dtype);
                    break;
                }
    return t;
}

std::string family_text(const Cell* c) {
    if (!c) return "-";
    if (c->fail > 0) return fmt::format("FAIL {}/{}", c->fail, c->pass + c->fail);
    return c->pass > 0 ? fmt::format("pass {}", c->pass) : fmt::format("n/a {}", c->not_applicable);
}

constexpr const char* kFamilyLegend =
    "Upstream's cases by block-mmad configuration family (the kernel's BlockMmadTla: \"uf\" the unit flag "
    "on, "
    "\"l0c1\"/\"l0c2\" the unit flag off with one or two L0C stages, \"+res\" L1 residency; "
    "docs/upstream-coverage.md): a node kind and dtype that pass under one family and fail under another "
    "point "
    "at the block-mmad, not at the node.";

}  // namespace

const SideCell* SideBySide::find(std::string_view node_kind, std::string_view dtype) const {
    const auto it = cells.find(Matrix::key(node_kind, dtype, kArch));
    return it == cells.end() ? nullptr : &it->second;
}

SideBySide build_side_by_side(const ReportInput& in) {
    SideBySide s;
    const std::vector<CaseResult>& results = in.results;
    // The rows and columns in the matrix's order, over the cases of both sides.
    std::vector<CaseResult> both;
    for (const CaseResult& r : results)
        if (r.suite == "node" || r.suite == "upstream") {
            both.push_back(r);
            both.back().suite = "node";
        }
    const Matrix m = build_matrix(both);
    for (const CaseResult& r : results) {
        if (r.arch != kArch || (r.suite != "node" && r.suite != "upstream")) continue;
        SideCell& cell = s.cells[Matrix::key(r.node_kind, matrix_dtype(r.dtype), kArch)];
        const bool up = r.suite == "upstream";
        count(up ? cell.upstream : cell.evgcheck, r);
        if (up && r.status == Status::pass && r.message.find("store-of-a-load") != std::string::npos)
            ++cell.store_load;
    }
    for (auto& [key, cell] : s.cells) cell.in_upstream = in.upstream && in.upstream->cells.count(key) > 0;
    for (const std::string& kind : m.node_kinds)
        for (const std::string& dtype : m.dtypes)
            if (s.find(kind, dtype)) {
                if (std::find(s.node_kinds.begin(), s.node_kinds.end(), kind) == s.node_kinds.end())
                    s.node_kinds.push_back(kind);
            }
    for (const std::string& dtype : m.dtypes)
        for (const std::string& kind : s.node_kinds)
            if (s.find(kind, dtype)) {
                s.dtypes.push_back(dtype);
                break;
            }
    return s;
}

std::string side_text(const SideCell& c, bool upstream) {
    const Cell& x = upstream ? c.upstream : c.evgcheck;
    if (x.pass + x.fail + x.not_applicable == 0)
        return !upstream ? "-" : c.in_upstream ? "not run" : "not in this Catlass";
    std::string t = x.fail > 0   ? fmt::format("FAIL {}/{}", x.fail, x.pass + x.fail)
                    : x.pass > 0 ? fmt::format("pass {}", x.pass)
                                 : fmt::format("n/a {}", x.not_applicable);
    if (upstream && c.store_load > 0) t += fmt::format(" (§4 {})", c.store_load);
    return t;
}

std::string side_by_side_text(const ReportInput& in) {
    if (!in.upstream) return {};
    const SideBySide s = build_side_by_side(in);
    std::vector<std::vector<std::string>> rows{{"node kind", "dtype", "evgcheck", "upstream"}};
    for (const std::string& kind : s.node_kinds)
        for (const std::string& dtype : s.dtypes)
            if (const SideCell* c = s.find(kind, dtype))
                rows.push_back({kind, dtype, side_text(*c, false), side_text(*c, true)});
    std::vector<size_t> width(4, 0);
    for (const auto& row : rows)
        for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
    std::string out = "upstream Catlass: " + checkout_line(*in.upstream) + "\n";
    for (const auto& row : rows) {
        std::string line;
        for (size_t i = 0; i < row.size(); ++i)
            line += fmt::format("{:<{}}{}", row[i], width[i], i + 1 < row.size() ? "  " : "");
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line + "\n";
    }
    const FamilyTable f = family_table(in);
    if (f.families.empty()) return out;
    std::vector<std::vector<std::string>> frows{{"node kind", "dtype"}};
    for (const std::string& family : f.families) frows[0].push_back(family);
    for (const auto& [kind, dtype] : f.rows) {
        frows.push_back({kind, dtype});
        for (const std::string& family : f.families)
            frows.back().push_back(family_text(f.find(kind, dtype, family)));
    }
    std::vector<size_t> fwidth(frows[0].size(), 0);
    for (const auto& row : frows)
        for (size_t i = 0; i < row.size(); ++i) fwidth[i] = std::max(fwidth[i], row[i].size());
    out += "upstream by configuration family:\n";
    for (const auto& row : frows) {
        std::string line;
        for (size_t i = 0; i < row.size(); ++i)
            line += fmt::format("{:<{}}{}", row[i], fwidth[i], i + 1 < row.size() ? "  " : "");
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line + "\n";
    }
    return out;
}

std::string side_by_side_markdown(const ReportInput& in) {
    if (!in.upstream) return {};
    const SideBySide s = build_side_by_side(in);
    std::string o = "## Upstream Catlass side by side\n\n";
    o += fmt::format("Checkout: `{}`\n\n{}\n\n", markdown_code_cell(checkout_line(*in.upstream)), kLegend);
    o += "| node kind |";
    std::string rule = "|---|";
    for (const std::string& dtype : s.dtypes) {
        o += fmt::format(" {} evgcheck | {} upstream |", dtype, dtype);
        rule += "---|---|";
    }
    o += "\n" + rule + "\n";
    for (const std::string& kind : s.node_kinds) {
        o += "| " + kind + " |";
        for (const std::string& dtype : s.dtypes) {
            const SideCell* c = s.find(kind, dtype);
            if (!c) {
                o += " | |";
                continue;
            }
            const auto bold = [](const std::string& t) {
                return t.starts_with("FAIL") ? "**" + t + "**" : t;
            };
            o += fmt::format(" {} | {} |", bold(side_text(*c, false)), bold(side_text(*c, true)));
        }
        o += "\n";
    }
    const FamilyTable f = family_table(in);
    if (!f.families.empty()) {
        o += fmt::format("\n### Upstream by configuration family\n\n{}\n\n| node kind | dtype |",
                         kFamilyLegend);
        std::string frule = "|---|---|";
        for (const std::string& family : f.families) {
            o += fmt::format(" {} |", family);
            frule += "---|";
        }
        o += "\n" + frule + "\n";
        for (const auto& [kind, dtype] : f.rows) {
            o += fmt::format("| {} | {} |", kind, dtype);
            for (const std::string& family : f.families) {
                const std::string t = family_text(f.find(kind, dtype, family));
                o += fmt::format(" {} |", t.starts_with("FAIL") ? "**" + t + "**" : t);
            }
            o += "\n";
        }
    }
    return o + "\n";
}

std::string side_by_side_html(const ReportInput& in) {
    if (!in.upstream) return {};
    const SideBySide s = build_side_by_side(in);
    std::string o = "<h2>Upstream Catlass side by side</h2>\n";
    o += fmt::format("<p class=\"meta\">Checkout: <code>{}</code></p>\n<p class=\"meta\">{}</p>\n",
                     html_escape(checkout_line(*in.upstream)), html_escape(kLegend));
    o += "<table class=\"matrix\"><tr><th>node kind</th>";
    for (const std::string& dtype : s.dtypes)
        o += fmt::format("<th>{0} evgcheck</th><th>{0} upstream</th>", html_escape(dtype));
    o += "</tr>\n";
    for (const std::string& kind : s.node_kinds) {
        o += "<tr><th>" + html_escape(kind) + "</th>";
        for (const std::string& dtype : s.dtypes) {
            const SideCell* c = s.find(kind, dtype);
            for (bool up : {false, true}) {
                if (!c) {
                    o += "<td></td>";
                    continue;
                }
                const std::string t = side_text(*c, up);
                const char* css = t.starts_with("FAIL") ? "fail" : t.starts_with("pass") ? "pass" : "na";
                o += fmt::format("<td class=\"{}\">{}</td>", css, html_escape(t));
            }
        }
        o += "</tr>\n";
    }
    o += "</table>\n";
    const FamilyTable f = family_table(in);
    if (f.families.empty()) return o;
    o += fmt::format("<h3>Upstream by configuration family</h3>\n<p class=\"meta\">{}</p>\n",
                     html_escape(kFamilyLegend));
    o += "<table class=\"matrix\"><tr><th>node kind</th><th>dtype</th>";
    for (const std::string& family : f.families) o += "<th>" + html_escape(family) + "</th>";
    o += "</tr>\n";
    for (const auto& [kind, dtype] : f.rows) {
        o += "<tr><th>" + html_escape(kind) + "</th><th>" + html_escape(dtype) + "</th>";
        for (const std::string& family : f.families) {
            const std::string t = family_text(f.find(kind, dtype, family));
            const char* css = t.starts_with("FAIL") ? "fail" : t.starts_with("pass") ? "pass" : "na";
            o += fmt::format("<td class=\"{}\">{}</td>", css, html_escape(t));
        }
        o += "</tr>\n";
    }
    return o + "</table>\n";
}

}  // namespace evg::reports
