// measure(): one problem on the model and in the oracle, judged by lib/verify (the judge the property suite
// and `evgcheck run` use).
#include "evg/conformance/model_case.hpp"

#include <fmt/format.h>

#include "evg/process/shell_quote.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "evg/graph/run.hpp"
#include "evg/graph/text.hpp"
#include "evg/hw/rules.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/verify/compare.hpp"
#include "evg/verify/data.hpp"
#include "evg/verify/judge.hpp"
#include "evg/verify/trace.hpp"

namespace evg::conformance {

namespace {

// The report's side of a Measurement's evidence: violation counts, trace size and events, UB peak.
void record_report(Measurement& m, const hw::Report& rep, const hw::Trace& trace) {
    count_violations(m.result, rep.violations);
    // From the report's counts when the run kept no trace (the same numbers as the trace's).
    m.result.instructions = trace.empty() ? rep.stats.instructions : trace.size();
    m.result.events_used = trace.empty() ? verify::events_used(rep) : verify::events_used(trace);
    m.result.ub_peak = static_cast<uint32_t>(rep.stats.ub_peak);
}

// The name judge_hazard matches for a finding.
std::string fired_name(const verify::Finding& f) {
    if (f.tag == verify::Tag::violation) return f.kind;
    if (f.tag == verify::Tag::output_mismatch) return "wrong-value";
    std::string n(verify::tag_name(f.tag));
    std::replace(n.begin(), n.end(), '_', '-');
    return n;
}

}  // namespace

void count_violations(CaseResult& r, const std::vector<hw::Violation>& violations) {
    for (const hw::Violation& v : violations) {
        r.violations[std::string(hw::violation_kind_name(v.kind))] += v.occurrences;
        for (const hw::RuleId id : hw::rules_of(v))
            if (const hw::RuleInfo& rule = hw::rule_info(id); rule.status == hw::RuleStatus::assumed)
                r.assumed_rules[std::string(rule.code)] += v.occurrences;
    }
}

std::string shell_quote(const std::string& word) {
    return evg::process::shell_quote(word);
}

std::string replay_command(const std::string& id, const std::string& binary, const std::string& out_root) {
    return replay_command(id, binary, out_root, "");
}

std::string replay_command(const std::string& id, const std::string& binary, const std::string& out_root,
                           const std::string& options) {
    std::string folder = id;  // one folder per case: its report stays beside the others
    for (char& c : folder)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
    const std::filesystem::path out = std::filesystem::absolute(std::filesystem::path(out_root) / folder);
    // The id always in quotes, as users write a glob.
    const std::string filter = id.find('\'') == std::string::npos ? "'" + id + "'" : shell_quote(id);
    return fmt::format("{} conformance {}--filter {} --out {}",
                       shell_quote(std::filesystem::absolute(binary).string()),
                       options.empty() ? "" : options + " ", filter, shell_quote(out.string()));
}

std::string replay_command(const std::string& id) {
    return replay_command(id, EVG_CONFORMANCE_EVGCHECK, EVG_CONFORMANCE_REPLAY_DIR);
}

CaseResult start_result(const CaseSpec& spec) {
    CaseResult r;
    r.id = spec.id;
    r.suite = spec.suite;
    r.node_kind = spec.node_kind;
    r.dtype = spec.dtype;
    r.arch = spec.arch;
    r.path = spec.path;
    r.family = spec.family;
    r.proves = spec.proves;
    r.fixed_form = spec.fixed_form;
    r.status = Status::fail;
    r.replay = replay_command(spec.id);
    return r;
}

CaseResult not_applicable(const CaseSpec& spec, const std::string& rule) {
    CaseResult r = start_result(spec);
    r.status = Status::not_applicable;
    r.message = rule;
    return r;
}

Measurement measure(const CaseSpec& spec, const ModelCase& c) {
    Measurement m;
    m.result = start_result(spec);
    const graph::Problem& p = c.problem;
    m.result.graph_text = graph::print(p);
    const verify::CaseData data = verify::make_case_data(p, c.data, c.data_seed, c.input_sign);
    const graph::RunInputs in = verify::run_inputs(data.inputs);
    graph::RunOptions opt;
    opt.block_dim = c.cores;
    opt.config.arch = p.arch;
    opt.config.keep_trace = false;  // everything measured comes from the report: memory stays bounded
    graph::ModelRun run;
    {
        Catlass::Epilogue::Fusion::ScopedUpstreamHazards scoped(c.hazards);
        run = graph::run_on_model(p, in, opt);
    }
    record_report(m, run.report, run.trace);
    m.result.tiles =
        static_cast<uint32_t>(((p.m + p.tile.m - 1) / p.tile.m) * ((p.n + p.tile.n - 1) / p.tile.n));
    m.result.instr_per_tile =
        m.result.tiles ? static_cast<double>(m.result.instructions) / m.result.tiles : 0;

    const oracle::OracleResult golden = oracle::evaluate(p, data.inputs, verify::values_the_judge_reads(p));
    verify::JudgeOptions jo;
    jo.exact_data = data.exact_data;
    jo.whole_cl = c.hazards.compute_over_compute_length;
    m.verdict = verify::judge(p, run, golden, jo);
    m.result.ub_predicted = static_cast<uint32_t>(m.verdict.ub_predicted);
    m.result.worst_ulp = m.verdict.worst_ulp;
    for (const verify::OutputCheck& o : m.verdict.outputs)
        m.result.outputs.push_back({o.tensor, o.nan, o.inf});
    for (const verify::FpBorn& b : m.verdict.fp_born) m.result.fp_born.push_back(b.op + " at " + b.site);
    return m;
}

Measurement measure_run(const CaseSpec& spec, const graph::Problem& problem, const graph::ModelRun& run,
                        const oracle::OracleResult& golden, const verify::JudgeOptions& options) {
    Measurement m;
    m.result = start_result(spec);
    m.result.graph_text = graph::print(problem);
    record_report(m, run.report, run.trace);
    m.verdict = verify::judge(problem, run, golden, options);
    m.result.ub_predicted = static_cast<uint32_t>(m.verdict.ub_predicted);
    m.result.worst_ulp = m.verdict.worst_ulp;
    for (const verify::OutputCheck& o : m.verdict.outputs)
        m.result.outputs.push_back({o.tensor, o.nan, o.inf});
    for (const verify::FpBorn& b : m.verdict.fp_born) m.result.fp_born.push_back(b.op + " at " + b.site);
    return m;
}

Measurement measure_report(const CaseSpec& spec, const hw::Report& report, const hw::Trace& trace,
                           std::string mismatch) {
    Measurement m;
    m.result = start_result(spec);
    record_report(m, report, trace);
    m.verdict = verify::judge_report(report, trace);
    if (!mismatch.empty()) m.verdict.add(verify::Tag::output_mismatch, std::move(mismatch));
    return m;
}

CaseResult judge_conforming(Measurement m) {
    CaseResult r = std::move(m.result);
    r.status = m.verdict.clean() ? Status::pass : Status::fail;
    r.message = m.verdict.text();
    return r;
}

std::vector<std::string> fired(const verify::Verdict& v) {
    std::vector<std::string> out;
    for (const verify::Finding& f : v.findings)
        if (const std::string n = fired_name(f); std::find(out.begin(), out.end(), n) == out.end())
            out.push_back(n);
    if (out.empty()) out.push_back("clean");
    return out;
}

namespace {

// The message of a control or hazard judgement: what fired, with the first finding of each.
std::string evidence_of(const verify::Verdict& v, const std::vector<std::string>& what) {
    std::string evidence;
    for (const std::string& name : what) {
        const std::string plain = name.substr(0, name.find(':'));  // "race:RAW/..." -> "race"
        for (const verify::Finding& f : v.findings)
            if (fired_name(f) == plain) {
                const std::string line = f.message.substr(0, f.message.find('\n'));
                // (a violation's message already starts with its kind)
                evidence +=
                    f.tag == verify::Tag::violation ? "; " + line : fmt::format("; {}: {}", plain, line);
                break;
            }
    }
    return evidence;
}

std::vector<std::string> split_plus(const std::string& s) {
    std::vector<std::string> out;
    std::size_t from = 0;
    while (from <= s.size()) {
        const std::size_t plus = std::min(s.find('+', from), s.size());
        if (plus > from) out.push_back(s.substr(from, plus - from));
        from = plus + 1;
    }
    return out;
}

}  // namespace

CaseResult judge_exactly(Measurement m, const std::vector<std::string>& what, const std::string& expected) {
    CaseResult r = std::move(m.result);
    r.expected = expected;
    std::vector<std::string> want = split_plus(expected), got = what;
    std::sort(want.begin(), want.end());
    want.erase(std::unique(want.begin(), want.end()), want.end());
    std::sort(got.begin(), got.end());
    got.erase(std::unique(got.begin(), got.end()), got.end());
    const bool hit = want == got;
    std::string list;
    for (const std::string& f : what) list += (list.empty() ? "" : ", ") + f;
    const std::string evidence = evidence_of(m.verdict, what);
    r.status = hit ? Status::pass : Status::fail;
    if (expected == "clean")
        r.message = hit ? "clean: no checker fired and the outputs match"
                        : fmt::format("expected clean; fired: {}{}", list, evidence);
    else
        r.message = hit ? fmt::format("caught by exactly: {}{}", list, evidence)
                        : fmt::format("expected exactly {} to fire; fired: {}{}", expected,
                                      list == "clean" ? "nothing" : list, evidence);
    return r;
}

const char* race_shape_name(RaceShape s) {
    switch (s) {
        case RaceShape::none:
            return "";
        case RaceShape::raw_same_pipe:
            return "RAW/same-pipe";
        case RaceShape::war_same_pipe:
            return "WAR/same-pipe";
        case RaceShape::waw_same_pipe:
            return "WAW/same-pipe";
        case RaceShape::raw_cross_pipe:
            return "RAW/cross-pipe";
        case RaceShape::war_cross_pipe:
            return "WAR/cross-pipe";
        case RaceShape::waw_cross_pipe:
            return "WAW/cross-pipe";
        case RaceShape::raw_cross_core:
            return "RAW/cross-core";
        case RaceShape::war_cross_core:
            return "WAR/cross-core";
        case RaceShape::waw_cross_core:
            return "WAW/cross-core";
    }
    return "";
}

RaceShape race_shape_of(const hw::Violation& v) {
    if (v.kind != hw::ViolationKind::race || v.locations.size() != 2) return RaceShape::none;
    const hw::Location& a = v.locations[0];  // the earlier-issued access
    const hw::Location& b = v.locations[1];
    const bool aw = a.access == "write", bw = b.access == "write";
    if (!aw && !bw) return RaceShape::none;
    const int where = a.core != b.core ? 2 : a.pipe != b.pipe ? 1 : 0;  // same pipe, cross pipe, cross core
    const int dir = aw ? (bw ? 2 : 0) : 1;                              // RAW, WAR, WAW
    return kRaceShapes[static_cast<std::size_t>(where * 3 + dir)];
}

std::string control_finding(hw::ViolationKind kind, RaceShape shape) {
    std::string n(hw::violation_kind_name(kind));
    if (shape != RaceShape::none) n += std::string(":") + race_shape_name(shape);
    return n;
}

std::vector<std::string> fired_with_race_shapes(const verify::Verdict& verdict, const hw::Report& report) {
    std::vector<std::string> out;
    for (const std::string& f : fired(verdict)) {
        if (f != "race") {
            out.push_back(f);
            continue;
        }
        for (const hw::Violation& v : report.violations)
            if (v.kind == hw::ViolationKind::race && v.severity == hw::Severity::error) {
                const RaceShape s = race_shape_of(v);
                out.push_back(s == RaceShape::none ? "race" : control_finding(v.kind, s));
            }
    }
    std::vector<std::string> unique;
    for (const std::string& f : out)
        if (std::find(unique.begin(), unique.end(), f) == unique.end()) unique.push_back(f);
    return unique;
}

CaseResult judge_hazard(Measurement m, const std::string& expected) {
    CaseResult r = std::move(m.result);
    r.expected = expected;
    const std::vector<std::string> what = fired(m.verdict);
    bool hit = false;
    std::size_t from = 0;
    while (from <= expected.size()) {
        const std::size_t bar = std::min(expected.find('|', from), expected.size());
        const std::string want = expected.substr(from, bar - from);
        hit = hit || std::find(what.begin(), what.end(), want) != what.end();
        from = bar + 1;
    }
    std::string list;
    for (const std::string& f : what) list += (list.empty() ? "" : ", ") + f;
    const std::string evidence = evidence_of(m.verdict, what);  // the first finding of each fired name
    r.status = hit ? Status::pass : Status::fail;
    if (what == std::vector<std::string>{"clean"})
        r.message = hit ? "clean: no checker fired and the outputs match"
                        : fmt::format("expected {} to fire; fired: nothing", expected);
    else
        r.message = hit ? fmt::format("caught by: {}{}", list, evidence)
                        : fmt::format("expected {} to fire; fired: {}{}", expected, list, evidence);
    return r;
}

}  // namespace evg::conformance
