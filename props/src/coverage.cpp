#include "evg/props/coverage.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "evg/graph/emit_cpp.hpp"
#include "evg/graph/functor.hpp"
#include "evg/graph/ub_budget.hpp"
#include "evg/oracle/numeric.hpp"

namespace evg::props {

std::vector<std::string> tags(const Case& c) {
    const graph::Problem& p = c.problem;
    std::set<std::string> t;
    t.insert(fmt::format("arch:{}", p.arch == ArchId::Ascend950 ? "Ascend950" : "AtlasA2"));
    t.insert(fmt::format("path:{}", graph::workspace_path_name(p.path)));
    t.insert(fmt::format("data:{}", data_text_name(c.data)));
    t.insert(fmt::format("elementC:{}", oracle::dtype_label(p.c)));
    for (const graph::Node& n : p.graph.nodes) {
        t.insert(fmt::format("kind:{}", graph::node_kind_name(n.kind)));
        t.insert(fmt::format("dtype:{}", oracle::dtype_label(n.element)));
        if (graph::has_functor(n.kind)) t.insert(fmt::format("fn:{}", graph::functor_name(n.fn)));
        if (n.kind == NodeKind::Cast) t.insert(fmt::format("round:{}", hw::round_mode_name(n.round)));
    }
    const bool tail = p.m % p.tile.m != 0 || p.n % p.tile.n != 0;
    t.insert(tail ? "shape:tail" : "shape:no-tail");
    t.insert(graph::is_tree(p.graph) ? "graph:tree" : "graph:dag");
    const int64_t tile_cols = std::min<int64_t>(p.n, p.tile.n);
    if (tile_cols > p.compute_length) t.insert("shape:cols>cl");
    // AIV 1 of a block gets no rows when the block has one row.
    if (p.m % p.tile.m == 1 || p.m == 1) t.insert("shape:aiv-no-rows");
    for (const graph::Tensor& x : p.graph.tensors)
        if (x.row_stride > x.cols) t.insert("shape:strided");
    if (p.compute_length == graph::max_compute_length(p.graph, p.arch, p.path)) t.insert("cl:max");
    return {t.begin(), t.end()};
}

std::vector<Requirement> default_requirements() {
    std::vector<Requirement> r = {
        {"arch:AtlasA2", 0.30},   {"arch:Ascend950", 0.30}, {"path:gm", 0.5},
        {"path:ub", 0.08},        {"data:exact", 0.4},      {"data:float", 0.2},
        {"shape:tail", 0.4},      {"shape:no-tail", 0.03},  {"graph:dag", 0.15},
        {"graph:tree", 0.2},      {"shape:cols>cl", 0.05},  {"shape:aiv-no-rows", 0.05},
        {"shape:strided", 0.05},  {"cl:max", 0.3},          {"dtype:float", 0.5},
        {"dtype:half", 0.3},      {"dtype:bfloat16", 0.05}, {"dtype:int32", 0.03},
        {"dtype:int16", 0.03},    {"dtype:int8", 0.02},     {"elementC:half", 0.1},
        {"elementC:int32", 0.04},
    };
    for (graph::NodeKind k : graph::kAllNodeKinds)
        r.push_back({fmt::format("kind:{}", graph::node_kind_name(k)), k == NodeKind::Compute ? 0.5 : 0.05});
    for (RoundMode m : hw::kAllRoundModes)
        r.push_back({fmt::format("round:{}", hw::round_mode_name(m)), 0.01});
    for (const graph::FunctorInfo& f : graph::all_functors())
        r.push_back({fmt::format("fn:{}", f.name), 0.003});
    return r;
}

void Coverage::record(const Case& c) {
    ++cases_;
    for (const std::string& t : tags(c)) ++counts_[t];
}

void Coverage::note(const std::string& tag) {
    ++counts_[tag];
}

std::vector<std::string>& case_outcome_tags() {
    static std::vector<std::string> tags;
    return tags;
}

int Coverage::count(const std::string& tag) const {
    auto it = counts_.find(tag);
    return it == counts_.end() ? 0 : it->second;
}

std::string Coverage::table() const {
    std::string s = fmt::format("coverage over {} cases:\n", cases_);
    for (const auto& [tag, n] : counts_)
        s += fmt::format("  {:<28} {:>7} {:>6.1f}%\n", tag, n, cases_ ? 100.0 * n / cases_ : 0.0);
    return s;
}

std::vector<std::string> Coverage::unmet(const std::vector<Requirement>& reqs) const {
    std::vector<std::string> out;
    for (const Requirement& r : reqs) {
        const double share = cases_ ? double(count(r.tag)) / cases_ : 0.0;
        if (share < r.min_share)
            out.push_back(fmt::format("{} {:.1f}% < {:.1f}%", r.tag, 100 * share, 100 * r.min_share));
    }
    return out;
}

void Coverage::merge(const Coverage& other) {
    cases_ += other.cases_;
    for (const auto& [tag, n] : other.counts_) counts_[tag] += n;
}

std::string Coverage::to_text() const {
    std::string s = fmt::format("cases {}\n", cases_);
    for (const auto& [tag, n] : counts_) s += fmt::format("{}\t{}\n", tag, n);
    return s;
}

Coverage Coverage::from_text(std::string_view text) {
    Coverage c;
    while (!text.empty()) {
        const size_t eol = std::min(text.find('\n'), text.size());
        const std::string_view line = text.substr(0, eol);
        text.remove_prefix(std::min(eol + 1, text.size()));
        if (line.starts_with("cases ")) {
            c.cases_ = std::stoi(std::string(line.substr(6)));
        } else if (const size_t tab = line.rfind('\t'); tab != std::string_view::npos) {
            c.counts_[std::string(line.substr(0, tab))] = std::stoi(std::string(line.substr(tab + 1)));
        }
    }
    return c;
}

}  // namespace evg::props
