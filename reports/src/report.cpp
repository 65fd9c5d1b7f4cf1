// The report's model: the matrix, the totals, the summary line, the property coverage, and writing the files.
#include "evg/reports/report.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <span>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "evg/graph/node_kind.hpp"

namespace evg::reports {

namespace {

// The node kinds in their report rows (graph::NodeKindInfo::report_row: loads, broadcasts, compute, store,
// reduces), then the composition and example rows.
std::vector<std::string_view> node_order() {
    const std::span<const graph::NodeKindInfo> kinds = graph::all_node_kinds();
    std::vector<std::string_view> order(kinds.size());  // the rows are 0 .. size - 1, one per kind
    for (const graph::NodeKindInfo& k : kinds) order.at(static_cast<size_t>(k.report_row)) = k.name;
    order.emplace_back("Composition");
    order.emplace_back("Example");
    return order;
}
constexpr std::string_view kDtypeOrder[] = {"half",   "bfloat16", "float",  "int8",  "uint8", "int16",
                                            "uint16", "int32",    "uint32", "int64", "uint64"};
constexpr std::string_view kArchOrder[] = {"AtlasA2", "Ascend950"};

size_t rank(std::string_view s, std::span<const std::string_view> order) {
    const auto it = std::find(order.begin(), order.end(), s);
    return static_cast<size_t>(it - order.begin());
}

void sort_by(std::vector<std::string>& v, std::span<const std::string_view> order) {
    std::stable_sort(v.begin(), v.end(), [&](const std::string& a, const std::string& b) {
        const size_t ra = rank(a, order), rb = rank(b, order);
        return ra != rb ? ra < rb : a < b;
    });
}

}  // namespace

Status Cell::status() const {
    if (fail > 0) return Status::fail;
    if (pass > 0) return Status::pass;
    return Status::not_applicable;
}

std::string Matrix::key(std::string_view node_kind, std::string_view dtype, std::string_view arch) {
    return fmt::format("{}\x1f{}\x1f{}", node_kind, dtype, arch);
}

const Cell* Matrix::find(std::string_view node_kind, std::string_view dtype, std::string_view arch) const {
    const auto it = cells.find(key(node_kind, dtype, arch));
    return it == cells.end() ? nullptr : &it->second;
}

std::string matrix_dtype(std::string_view dtype) {
    const size_t cut = std::min(dtype.find("->"), dtype.find('/'));
    return std::string(dtype.substr(0, cut));
}

bool in_matrix(const CaseResult& r) {
    return r.suite != "negative" && r.suite != "hazard" && r.suite != "upstream";
}

Matrix build_matrix(const std::vector<CaseResult>& results) {
    Matrix m;
    std::set<std::string> kinds, archs, dtypes;
    for (const CaseResult& r : results) {
        if (!in_matrix(r)) continue;
        const std::string dtype = matrix_dtype(r.dtype);
        kinds.insert(r.node_kind);
        archs.insert(r.arch);
        dtypes.insert(dtype);
        Cell& c = m.cells[Matrix::key(r.node_kind, dtype, r.arch)];
        c.node_kind = r.node_kind;
        c.dtype = dtype;
        c.arch = r.arch;
        c.case_ids.push_back(r.id);
        switch (r.status) {
            case Status::pass:
                ++c.pass;
                break;
            case Status::fail:
                ++c.fail;
                break;
            case Status::not_applicable:
                ++c.not_applicable;
                continue;  // no measurements
        }
        c.worst_ulp = std::max(c.worst_ulp, r.worst_ulp);
        c.ub_peak = std::max(c.ub_peak, r.ub_peak);
        c.ub_predicted = std::max(c.ub_predicted, r.ub_predicted);
        c.instr_per_tile = std::max(c.instr_per_tile, r.instr_per_tile);
        for (const CaseResult::OutputValues& o : r.outputs) {
            c.nan += o.nan;
            c.inf += o.inf;
        }
        for (const std::string& e : r.events_used)
            if (std::find(c.events_used.begin(), c.events_used.end(), e) == c.events_used.end())
                c.events_used.push_back(e);
    }
    for (auto& [k, c] : m.cells) std::sort(c.events_used.begin(), c.events_used.end());
    m.node_kinds.assign(kinds.begin(), kinds.end());
    m.archs.assign(archs.begin(), archs.end());
    m.dtypes.assign(dtypes.begin(), dtypes.end());
    sort_by(m.node_kinds, node_order());
    sort_by(m.archs, kArchOrder);
    sort_by(m.dtypes, kDtypeOrder);
    return m;
}

Totals totals(const std::vector<CaseResult>& results) {
    Totals t;
    for (const CaseResult& r : results) {
        switch (r.status) {
            case Status::pass:
                ++t.passed;
                break;
            case Status::fail:
                ++t.failed;
                break;
            case Status::not_applicable:
                ++t.not_applicable;
                break;
        }
    }
    return t;
}

std::string summary_line(const ReportInput& in) {
    const Totals t = totals(in.results);
    std::string line = fmt::format("conformance{}: {} passed, {} failed, {} not applicable in {:.0f} s",
                                   in.shard ? " (shard " + in.shard->shard.text() + ")" : std::string(),
                                   t.passed, t.failed, t.not_applicable, in.seconds);
    if (!in.partial.empty()) line += fmt::format("; PARTIAL: {}, {} cases not run", in.partial, in.not_run);
    return line;
}

const StatusText& status_text(Status s) {
    static constexpr StatusText kPass{"pass", "PASS", "pass"}, kFail{"fail", "FAIL", "fail"},
        kNotApplicable{"n/a", "n/a", "na"};
    switch (s) {
        case Status::pass:
            return kPass;
        case Status::fail:
            return kFail;
        case Status::not_applicable:
            break;
    }
    return kNotApplicable;
}

PropsCoverage parse_props_coverage(std::string_view log, std::string source) {
    PropsCoverage p;
    p.source = std::move(source);
    static const std::regex header(R"(^coverage over (\d+) cases:\s*$)");
    static const std::regex row(R"(^\s+(\S+)\s+(\d+)\s+[0-9.]+%\s*$)");
    std::istringstream in{std::string(log)};
    std::string line;
    bool inside = false;
    std::map<std::string, size_t> index;
    while (std::getline(in, line)) {
        std::smatch m;
        if (std::regex_match(line, m, header)) {
            p.run = true;
            p.cases += std::stoi(m[1]);
            inside = true;
            continue;
        }
        if (!inside) continue;
        if (!std::regex_match(line, m, row)) {
            inside = false;
            continue;
        }
        const std::string tag = m[1];
        const int n = std::stoi(m[2]);
        if (const auto it = index.find(tag); it != index.end()) {
            p.tags[it->second].second += n;
        } else {
            index[tag] = p.tags.size();
            p.tags.emplace_back(tag, n);
        }
    }
    return p;
}

std::string format_bytes(uint32_t bytes) {
    if (bytes < 1024) return fmt::format("{} B", bytes);
    return fmt::format("{:.1f} KiB", bytes / 1024.0);
}

std::string format_ulp(double ulp) {
    if (ulp == 0) return "0";
    if (ulp >= 1e5) return fmt::format("{:.1e}", ulp);
    if (ulp == static_cast<double>(static_cast<long long>(ulp)))
        return fmt::format("{}", static_cast<long long>(ulp));
    return fmt::format("{:.2g}", ulp);
}

std::string violations_text(const std::map<std::string, uint64_t>& v) {
    std::string s;
    for (const auto& [kind, n] : v) {
        if (n == 0) continue;
        s += fmt::format("{}{} x{}", s.empty() ? "" : ", ", kind, n);
    }
    return s.empty() ? "none" : s;
}

std::string text_matrix(const Matrix& m) {
    if (m.node_kinds.empty()) return "(no case in the matrix suites)\n";
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> head{"node kind"};
    for (const std::string& arch : m.archs)
        for (const std::string& dtype : m.dtypes) head.push_back(fmt::format("{}/{}", arch, dtype));
    rows.push_back(head);
    for (const std::string& kind : m.node_kinds) {
        std::vector<std::string> row{kind};
        for (const std::string& arch : m.archs)
            for (const std::string& dtype : m.dtypes) {
                const Cell* c = m.find(kind, dtype, arch);
                if (c == nullptr)
                    row.emplace_back("-");
                else if (c->status() == Status::fail)
                    row.push_back(fmt::format("FAIL {}/{}", c->fail, c->pass + c->fail));
                else if (c->status() == Status::pass)
                    row.push_back(fmt::format("pass {}", c->pass));
                else
                    row.push_back(fmt::format("n/a {}", c->not_applicable));
            }
        rows.push_back(std::move(row));
    }
    std::vector<size_t> width(head.size(), 0);
    for (const auto& row : rows)
        for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
    std::string out;
    for (const auto& row : rows) {
        std::string line;
        for (size_t i = 0; i < row.size(); ++i)
            line += fmt::format("{:<{}}{}", row[i], width[i], i + 1 < row.size() ? "  " : "");
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line + "\n";
    }
    return out;
}

std::vector<std::filesystem::path> write_all(const ReportInput& in, const std::filesystem::path& dir) {
    std::filesystem::create_directories(dir);
    const std::pair<const char*, std::string> files[] = {{"report.html", html(in)},
                                                         {"report.md", markdown(in)},
                                                         {"report.json", json(in)},
                                                         {"junit.xml", junit(in)}};
    std::vector<std::filesystem::path> paths;
    for (const auto& [name, text] : files) {
        const std::filesystem::path p = dir / name;
        std::ofstream out(p, std::ios::binary);
        out << text;
        out.close();
        if (!out) throw std::runtime_error("cannot write " + p.string());
        paths.push_back(p);
    }
    return paths;
}

}  // namespace evg::reports
