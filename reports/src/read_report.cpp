// The conformance report read back from its JSON (json.cpp writes it), and the reports of a sharded run's
// shards merged into the report of the run.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "evg/json_field.hpp"
#include "evg/reports/report.hpp"

namespace evg::reports {

namespace {

constexpr const char* kDocument = "report JSON";

template <class T>
T field(const nlohmann::json& j, const char* name, const char* where) {
    return evg::json_field<T>(j, name, where, kDocument);
}

const nlohmann::json& member(const nlohmann::json& j, const char* name, const char* where) {
    if (!j.is_object() || !j.contains(name))
        throw std::runtime_error(fmt::format("{}: {} has no field '{}'", kDocument, where, name));
    return j.at(name);
}

Status status_of(const std::string& word, const std::string& id) {
    for (const Status s : {Status::pass, Status::fail, Status::not_applicable})
        if (word == status_word(s)) return s;
    throw std::runtime_error(
        fmt::format("{}: case '{}': unknown status '{}' (pass, fail or n/a)", kDocument, id, word));
}

CaseResult case_of(const nlohmann::json& c) {
    CaseResult r;
    r.id = field<std::string>(c, "id", "a case");
    const std::string where = "case '" + r.id + "'";
    const char* w = where.c_str();
    r.suite = field<std::string>(c, "suite", w);
    r.node_kind = field<std::string>(c, "node_kind", w);
    r.dtype = field<std::string>(c, "dtype", w);
    r.arch = field<std::string>(c, "arch", w);
    r.path = field<std::string>(c, "path", w);
    r.family = field<std::string>(c, "family", w);
    r.status = status_of(field<std::string>(c, "status", w), r.id);
    r.message = field<std::string>(c, "message", w);
    r.expected = field<std::string>(c, "expected", w);
    r.proves = field<std::string>(c, "proves", w);
    r.fixed_form = field<bool>(c, "fixed_form", w);
    r.worst_ulp = field<double>(c, "worst_ulp", w);
    r.ub_peak = field<uint32_t>(c, "ub_peak", w);
    r.ub_predicted = field<uint32_t>(c, "ub_predicted", w);
    r.instructions = field<uint64_t>(c, "instructions", w);
    r.instr_per_tile = field<double>(c, "instr_per_tile", w);
    r.tiles = field<uint32_t>(c, "tiles", w);
    r.events_used = field<std::vector<std::string>>(c, "events_used", w);
    r.violations = field<std::map<std::string, uint64_t>>(c, "violations", w);
    r.assumed_rules = field<std::map<std::string, uint64_t>>(c, "assumed_rules", w);
    for (const nlohmann::json& o : member(c, "outputs", w))
        r.outputs.push_back(
            {field<std::string>(o, "tensor", w), field<uint64_t>(o, "nan", w), field<uint64_t>(o, "inf", w)});
    r.fp_born = field<std::vector<std::string>>(c, "fp_born", w);
    r.replay = field<std::string>(c, "replay", w);
    r.graph_text = field<std::string>(c, "graph_text", w);
    r.seconds = field<double>(c, "seconds", w);
    return r;
}

HandFusedRow hand_fused_row_of(const nlohmann::json& j) {
    const char* w = "a hand_fused row";
    HandFusedRow r;
    r.example = field<std::string>(j, "example", w);
    r.config = field<std::string>(j, "config", w);
    r.evg_cycles = field<uint64_t>(j, "evg_cycles", w);
    r.hand_cycles = field<uint64_t>(j, "hand_cycles", w);
    r.evg_over_hand = field<double>(j, "evg_over_hand", w);
    r.evg_over_roofline = field<double>(j, "evg_over_roofline", w);
    r.ok = field<bool>(j, "ok", w);
    r.problem = field<std::string>(j, "problem", w);
    r.hand_over_roofline = field<double>(j, "hand_over_roofline", w);
    r.evg_epilogue = field<uint64_t>(j, "evg_epilogue", w);
    r.hand_epilogue = field<uint64_t>(j, "hand_epilogue", w);
    r.evg_v_busy = field<uint64_t>(j, "evg_v_busy", w);
    r.hand_v_busy = field<uint64_t>(j, "hand_v_busy", w);
    r.evg_v_barriers = field<uint64_t>(j, "evg_v_barriers", w);
    r.hand_v_barriers = field<uint64_t>(j, "hand_v_barriers", w);
    r.roofline_pipe = field<std::string>(j, "roofline_pipe", w);
    return r;
}

}  // namespace

ReportInput read_report_json(std::string_view text) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(fmt::format("{}: not JSON: {}", kDocument, e.what()));
    }
    if (!j.is_object() || !j.contains("kind") || j.at("kind") != "conformance")
        throw std::runtime_error(fmt::format(
            "{}: not a conformance report (no \"kind\": \"conformance\"; a report of an evgcheck before "
            "sharding, or another file)",
            kDocument));
    ReportInput in;
    const nlohmann::json& s = member(j, "summary", "the report");
    in.seconds = field<double>(s, "seconds", "summary");
    in.filter = field<std::string>(s, "filter", "summary");
    in.archs = field<std::vector<std::string>>(s, "archs", "summary");
    in.command = field<std::string>(s, "command", "summary");
    in.partial = field<std::string>(s, "partial_reason", "summary");
    in.not_run = field<std::size_t>(s, "not_run", "summary");
    in.ran_all = field<bool>(s, "ran_all", "summary");
    for (const nlohmann::json& c : member(j, "cases", "the report")) in.results.push_back(case_of(c));
    for (const nlohmann::json& c : member(j, "controls", "the report"))
        in.controls.push_back({field<std::string>(c, "finding", "a control"),
                               field<std::string>(c, "arch", "a control"),
                               field<std::string>(c, "meaning", "a control"),
                               field<std::string>(c, "not_applicable", "a control")});
    if (j.contains("shard")) {
        const nlohmann::json& sh = j.at("shard");
        ShardInfo info;
        info.shard = {field<int>(sh, "index", "shard"), field<int>(sh, "count", "shard")};
        info.run_command = field<std::string>(sh, "run_command", "shard");
        info.positions = field<std::vector<std::size_t>>(sh, "positions", "shard");
        info.selected = field<std::size_t>(sh, "selected", "shard");
        info.whole_selection = field<bool>(sh, "whole_selection", "shard");
        if (info.positions.size() != in.results.size())
            throw std::runtime_error(fmt::format("{}: shard {} names {} positions for {} cases", kDocument,
                                                 info.shard.text(), info.positions.size(),
                                                 in.results.size()));
        in.shard = std::move(info);
    }
    if (j.contains("upstream") && !j.at("upstream").is_null()) {
        const nlohmann::json& u = j.at("upstream");
        UpstreamCheckout c;
        c.root = field<std::string>(u, "root", "upstream");
        c.commit = field<std::string>(u, "commit", "upstream");
        c.version = field<std::string>(u, "version", "upstream");
        c.tested_version = field<std::string>(u, "tested_version", "upstream");
        c.description = field<std::string>(u, "description", "upstream");
        c.cells = field<std::set<std::string>>(u, "cells", "upstream");
        in.upstream = std::move(c);
    }
    const nlohmann::json& p = member(j, "props_coverage", "the report");
    in.props.run = field<bool>(p, "run", "props_coverage");
    in.props.source = field<std::string>(p, "source", "props_coverage");
    in.props.cases = field<int>(p, "cases", "props_coverage");
    for (const nlohmann::json& t : member(p, "tags", "props_coverage"))
        in.props.tags.emplace_back(field<std::string>(t, "tag", "a props tag"),
                                   field<int>(t, "cases", "a props tag"));
    if (const nlohmann::json& t = member(j, "sync_table", "the report"); !t.is_null())
        in.sync_table = parse_sync_table_json(t.dump());
    if (const nlohmann::json& h = member(j, "hand_fused", "the report"); !h.is_null()) {
        in.hand_fused.emplace();
        for (const nlohmann::json& r : h) in.hand_fused->push_back(hand_fused_row_of(r));
    }
    return in;
}

ReportInput merge_shards(std::vector<ReportInput> shards) {
    if (shards.empty()) throw std::runtime_error("merge: no shard reports to merge");
    for (const ReportInput& r : shards)
        if (!r.shard)
            throw std::runtime_error(fmt::format(
                "merge: the report of '{}' is not a shard's (a run without --shard K/N is whole already)",
                r.command));
    const ShardInfo& first = *shards.front().shard;
    const int n = first.shard.count;
    std::vector<const ReportInput*> by_index(static_cast<std::size_t>(n), nullptr);
    for (const ReportInput& r : shards) {
        const ShardInfo& s = *r.shard;
        if (s.run_command != first.run_command)
            throw std::runtime_error(
                fmt::format("merge: shards of different runs: '{}' (shard {}) and '{}' (shard {})",
                            first.run_command, first.shard.text(), s.run_command, s.shard.text()));
        if (s.shard.count != n || s.selected != first.selected)
            throw std::runtime_error(
                fmt::format("merge: shard {} of {} cases and shard {} of {} cases are not shards of one run",
                            first.shard.text(), first.selected, s.shard.text(), s.selected));
        const ReportInput*& slot = by_index[static_cast<std::size_t>(s.shard.index - 1)];
        if (slot != nullptr)
            throw std::runtime_error(fmt::format("merge: shard {} is given twice", s.shard.text()));
        slot = &r;
    }
    std::vector<std::string> missing;
    for (int k = 1; k <= n; ++k)
        if (by_index[static_cast<std::size_t>(k - 1)] == nullptr) missing.push_back(Shard{k, n}.text());
    if (!missing.empty())
        throw std::runtime_error(fmt::format("merge: shard{} {} of the run missing",
                                             missing.size() > 1 ? "s" : "", fmt::join(missing, ", ")));

    ReportInput out;
    std::vector<std::pair<std::size_t, CaseResult>> placed;
    std::set<std::size_t> seen;
    bool whole = true;
    std::vector<std::string> partial;
    for (const ReportInput* r : by_index) {
        const ShardInfo& s = *r->shard;
        for (std::size_t i = 0; i < r->results.size(); ++i) {
            const std::size_t at = s.positions[i];
            if (at >= s.selected || !s.shard.holds(at) || !seen.insert(at).second)
                throw std::runtime_error(
                    fmt::format("merge: shard {} holds case {} ('{}'), which is not its own of {} cases",
                                s.shard.text(), at, r->results[i].id, s.selected));
            placed.emplace_back(at, r->results[i]);
        }
        whole = whole && s.whole_selection;
        if (!r->partial.empty()) partial.push_back(fmt::format("shard {}: {}", s.shard.text(), r->partial));
        out.not_run += r->not_run;
        out.seconds = std::max(out.seconds, r->seconds);
        if (r->upstream) {
            if (!out.upstream)
                out.upstream = r->upstream;
            else
                out.upstream->cells.insert(r->upstream->cells.begin(), r->upstream->cells.end());
        }
        if (r->props.run && !out.props.run) out.props = r->props;
        if (r->sync_table && !out.sync_table) out.sync_table = r->sync_table;
        if (r->hand_fused && !out.hand_fused) out.hand_fused = r->hand_fused;
    }
    std::sort(placed.begin(), placed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [at, result] : placed) out.results.push_back(std::move(result));
    const ReportInput& one = *by_index.front();
    out.filter = one.filter;
    out.archs = one.archs;
    out.command = first.run_command;
    out.controls = one.controls;
    out.partial = fmt::format("{}", fmt::join(partial, "; "));
    if (out.partial.empty() && out.results.size() != first.selected)
        throw std::runtime_error(
            fmt::format("merge: the shards hold {} of the run's {} cases, and none says it stopped early",
                        out.results.size(), first.selected));
    out.ran_all = whole && out.partial.empty();
    return out;
}

}  // namespace evg::reports
