// measure(): one problem on the model and in the oracle, judged by the rules the property suite uses
// (evg/props/checks.hpp: the output comparison and the UB-peak rule of props/README.md).
#include "evg/conformance/model_case.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <set>

#include "evg/graph/run.hpp"
#include "evg/graph/text.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/props/checks.hpp"
#include "evg/props/generators.hpp"

namespace evg::conformance {

namespace {

std::vector<std::string> events_of(const std::vector<hw::TraceEntry>& trace) {
    static const std::regex re(R"(^(?:SetFlag|WaitFlag)<(\w+)>)");
    std::set<std::string> ev;
    for (const hw::TraceEntry& e : trace) {
        std::smatch m;
        if (std::regex_search(e.op, m, re)) ev.insert(m[1].str());
    }
    return {ev.begin(), ev.end()};
}

// The report's side of a Measurement: violation counts, first findings, trace size and events, UB peak.
void record_report(Measurement& m, const hw::Report& rep, const std::vector<hw::TraceEntry>& trace) {
    m.clean = rep.clean();
    m.report_text = rep.text();
    for (const hw::Violation& v : rep.violations) {
        const std::string kind(hw::violation_kind_name(v.kind));
        m.result.violations[kind] += v.occurrences;
        m.findings.emplace(kind, v.message);
    }
    m.result.instructions = trace.size();
    m.result.events_used = events_of(trace);
    m.result.ub_peak = static_cast<uint32_t>(rep.stats.ub_peak);
}

}  // namespace

std::string replay_command(const std::string& id) {
    return fmt::format("build/release/tools/evgcheck conformance --filter '{}'", id);
}

CaseResult start_result(const CaseSpec& spec) {
    CaseResult r;
    r.id = spec.id;
    r.suite = spec.suite;
    r.node_kind = spec.node_kind;
    r.dtype = spec.dtype;
    r.arch = spec.arch;
    r.path = spec.path;
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
    props::Case pc;
    pc.problem = p;
    pc.data = c.data;
    pc.data_seed = c.data_seed;
    pc.cores = c.cores;
    const oracle::Inputs inputs = props::make_inputs(pc);
    graph::RunInputs in;
    for (const auto& [name, t] : inputs) {
        const auto* b = reinterpret_cast<const uint8_t*>(t.bytes().data());
        in.tensors[name] = std::vector<uint8_t>(b, b + t.bytes().size());
    }
    graph::RunOptions opt;
    opt.block_dim = c.cores;
    opt.config.arch = p.arch;
    opt.config.keep_trace = true;
    graph::ModelRun run;
    {
        Catlass::Epilogue::Fusion::ScopedUpstreamHazards scoped(c.hazards);
        run = graph::run_on_model(p, in, opt);
    }
    const hw::Report& rep = run.report;
    record_report(m, rep, run.trace);
    m.result.tiles =
        static_cast<uint32_t>(((p.m + p.tile.m - 1) / p.tile.m) * ((p.n + p.tile.n - 1) / p.tile.n));
    m.result.instr_per_tile =
        m.result.tiles ? static_cast<double>(m.result.instructions) / m.result.tiles : 0;

    const oracle::OracleResult golden = oracle::evaluate(p, inputs);
    const props::UbExpectation ub = props::ub_expectation(p, golden);
    m.result.ub_predicted = static_cast<uint32_t>(ub.lo);
    m.ub_equal = ub.exact() && rep.stats.ub_peak == ub.lo;

    const props::OutputComparison cmp =
        props::compare_outputs(p, run, golden, props::exact_friendly(c.data, p, golden));
    m.mismatch = cmp.mismatch;
    m.result.worst_ulp = cmp.worst_ulp;
    return m;
}

Measurement measure_report(const CaseSpec& spec, const hw::Report& report,
                           const std::vector<hw::TraceEntry>& trace, std::string mismatch) {
    Measurement m;
    m.result = start_result(spec);
    record_report(m, report, trace);
    m.mismatch = std::move(mismatch);
    return m;
}

CaseResult judge_conforming(Measurement m) {
    CaseResult r = std::move(m.result);
    std::string why;
    if (!m.clean) why += "violations:\n" + m.report_text;
    if (!m.mismatch.empty()) why += "outputs differ from the oracle:\n" + m.mismatch;
    if (!m.ub_equal) why += fmt::format("UB peak {} B, predicted {} B\n", r.ub_peak, r.ub_predicted);
    r.status = why.empty() ? Status::pass : Status::fail;
    r.message = why;
    return r;
}

CaseResult judge_hazard(Measurement m, const std::string& expected) {
    CaseResult r = std::move(m.result);
    r.expected = expected;
    std::vector<std::string> fired;
    for (const auto& [kind, count] : r.violations)
        if (count > 0) fired.push_back(kind);
    if (!m.mismatch.empty()) fired.push_back("wrong-value");
    if (fired.empty()) fired.push_back("clean");
    bool hit = false;
    std::size_t from = 0;
    while (from <= expected.size()) {
        const std::size_t bar = std::min(expected.find('|', from), expected.size());
        const std::string want = expected.substr(from, bar - from);
        hit = hit || std::find(fired.begin(), fired.end(), want) != fired.end();
        from = bar + 1;
    }
    std::string list;
    for (const std::string& f : fired) list += (list.empty() ? "" : ", ") + f;
    std::string evidence;
    for (const std::string& f : fired) {
        const auto it = m.findings.find(f);
        if (it != m.findings.end()) evidence += fmt::format("; {}: {}", f, it->second);
    }
    if (!m.mismatch.empty()) evidence += "; wrong-value: " + m.mismatch.substr(0, m.mismatch.find('\n'));
    r.status = hit ? Status::pass : Status::fail;
    if (fired == std::vector<std::string>{"clean"})
        r.message = hit ? "clean: no checker fired and the outputs match"
                        : fmt::format("expected {} to fire; fired: nothing", expected);
    else
        r.message = hit ? fmt::format("caught by: {}{}", list, evidence)
                        : fmt::format("expected {} to fire; fired: {}{}", expected, list, evidence);
    return r;
}

}  // namespace evg::conformance
