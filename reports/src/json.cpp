// The report as JSON (for dashboards) and as JUnit XML (for CI).
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "evg/markup.hpp"
#include "evg/reports/report.hpp"
#include "rules.hpp"

namespace evg::reports {

namespace {

nlohmann::json case_json(const CaseResult& r) {
    nlohmann::json v = nlohmann::json::object();
    for (const auto& [kind, n] : r.violations) v[kind] = n;
    nlohmann::json assumed = nlohmann::json::object();  // rule id -> findings resting on it
    for (const auto& [rule, n] : r.assumed_rules) assumed[rule] = n;
    nlohmann::json outputs = nlohmann::json::array();
    for (const CaseResult::OutputValues& o : r.outputs)
        outputs.push_back({{"tensor", o.tensor}, {"nan", o.nan}, {"inf", o.inf}});
    return {{"id", r.id},
            {"suite", r.suite},
            {"node_kind", r.node_kind},
            {"dtype", r.dtype},
            {"arch", r.arch},
            {"path", r.path},
            {"family", r.family},
            {"status", status_word(r.status)},
            {"message", r.message},
            {"expected", r.expected},
            {"proves", r.proves},
            {"fixed_form", r.fixed_form},
            {"worst_ulp", r.worst_ulp},
            {"ub_peak", r.ub_peak},
            {"ub_predicted", r.ub_predicted},
            {"instructions", r.instructions},
            {"instr_per_tile", r.instr_per_tile},
            {"tiles", r.tiles},
            {"events_used", r.events_used},
            {"violations", v},
            {"assumed_rules", assumed},
            {"outputs", outputs},
            {"fp_born", r.fp_born},
            {"replay", r.replay},
            {"graph_text", r.graph_text},
            {"seconds", r.seconds}};
}

}  // namespace

std::string json(const ReportInput& in) {
    const Totals t = totals(in.results);
    const Matrix m = build_matrix(in.results);
    nlohmann::json j;
    j["summary"] = {
        {"passed", t.passed},    {"failed", t.failed},           {"not_applicable", t.not_applicable},
        {"seconds", in.seconds}, {"filter", in.filter},          {"archs", in.archs},
        {"command", in.command}, {"line", summary_line(in)},     {"partial", !in.partial.empty()},
        {"not_run", in.not_run}, {"partial_reason", in.partial}, {"ran_all", in.ran_all}};
    j["kind"] = "conformance";
    if (in.shard)
        j["shard"] = {{"index", in.shard->shard.index},       {"count", in.shard->shard.count},
                      {"run_command", in.shard->run_command}, {"positions", in.shard->positions},
                      {"selected", in.shard->selected},       {"whole_selection", in.shard->whole_selection}};
    nlohmann::json controls = nlohmann::json::array();
    for (const conformance::ControlRequirement& c : in.controls)
        controls.push_back({{"finding", c.finding},
                            {"arch", c.arch},
                            {"meaning", c.meaning},
                            {"not_applicable", c.not_applicable}});
    j["controls"] = controls;
    nlohmann::json matrix = nlohmann::json::array();
    for (const std::string& kind : m.node_kinds)
        for (const std::string& arch : m.archs)
            for (const std::string& dtype : m.dtypes) {
                const Cell* c = m.find(kind, dtype, arch);
                if (c == nullptr) continue;
                matrix.push_back({{"node_kind", kind},
                                  {"arch", arch},
                                  {"dtype", dtype},
                                  {"status", status_word(c->status())},
                                  {"pass", c->pass},
                                  {"fail", c->fail},
                                  {"not_applicable", c->not_applicable},
                                  {"worst_ulp", c->worst_ulp},
                                  {"ub_peak", c->ub_peak},
                                  {"ub_predicted", c->ub_predicted},
                                  {"instr_per_tile", c->instr_per_tile},
                                  {"nan", c->nan},
                                  {"inf", c->inf},
                                  {"events_used", c->events_used},
                                  {"case_ids", c->case_ids}});
            }
    j["matrix"] = {{"rows", m.node_kinds}, {"archs", m.archs}, {"dtypes", m.dtypes}, {"cells", matrix}};
    if (in.upstream) {
        const SideBySide s = build_side_by_side(in);
        nlohmann::json side = nlohmann::json::array();
        for (const std::string& kind : s.node_kinds)
            for (const std::string& dtype : s.dtypes)
                if (const SideCell* c = s.find(kind, dtype))
                    side.push_back({{"node_kind", kind},
                                    {"dtype", dtype},
                                    {"evgcheck", side_text(*c, false)},
                                    {"upstream", side_text(*c, true)},
                                    {"in_upstream", c->in_upstream},
                                    {"upstream_pass", c->upstream.pass},
                                    {"upstream_fail", c->upstream.fail},
                                    {"upstream_store_load_race", c->store_load},
                                    {"upstream_case_ids", c->upstream.case_ids}});
        j["upstream"] = {{"root", in.upstream->root},
                         {"commit", in.upstream->commit},
                         {"version", in.upstream->version},
                         {"tested_version", in.upstream->tested_version},
                         {"description", in.upstream->description},
                         {"cells", in.upstream->cells},
                         {"side_by_side", side}};
    }
    nlohmann::json failing = nlohmann::json::array(), negative = nlohmann::json::array(),
                   hazards = nlohmann::json::array(), cases = nlohmann::json::array();
    for (const CaseResult& r : in.results) {
        nlohmann::json c = case_json(r);
        if (r.status == Status::fail)
            failing.push_back(
                {{"id", r.id}, {"message", r.message}, {"replay", r.replay}, {"graph_text", r.graph_text}});
        if (r.suite == "negative") negative.push_back(c);
        if (r.suite == "hazard") hazards.push_back(c);
        cases.push_back(std::move(c));
    }
    nlohmann::json alive = nlohmann::json::array();
    const std::vector<AliveCell> cells = proven_alive(in);
    for (const AliveCell& c : cells)
        alive.push_back({{"finding", c.req.finding},
                         {"arch", c.req.arch},
                         {"meaning", c.req.meaning},
                         {"state", alive_word(c.state)},
                         {"proved_by", c.proved_by},
                         {"fixed", c.fixed},
                         {"failed", c.failed},
                         {"not_applicable", c.req.not_applicable}});
    j["checkers_proven_alive"] = {{"summary", alive_summary(cells)}, {"cells", alive}};
    j["rules"] = rules_json(in);
    j["failing"] = failing;
    j["negative"] = negative;
    j["hazards"] = hazards;
    nlohmann::json tags = nlohmann::json::array();
    for (const auto& [tag, n] : in.props.tags)
        tags.push_back(
            {{"tag", tag}, {"cases", n}, {"share", in.props.cases ? double(n) / in.props.cases : 0.0}});
    j["sync_table"] =
        in.sync_table ? nlohmann::json::parse(sync_table_json(*in.sync_table)) : nlohmann::json();
    j["hand_fused"] =
        in.hand_fused ? nlohmann::json::parse(hand_fused_json(*in.hand_fused)) : nlohmann::json();
    j["props_coverage"] = {
        {"run", in.props.run}, {"source", in.props.source}, {"cases", in.props.cases}, {"tags", tags}};
    j["cases"] = cases;
    return j.dump(2) + "\n";
}

std::string junit(const ReportInput& in) {
    // One <testsuite> per suite, in order of first appearance, one <testcase> per case id.
    std::vector<std::string> suites;
    for (const CaseResult& r : in.results)
        if (std::find(suites.begin(), suites.end(), r.suite) == suites.end()) suites.push_back(r.suite);
    const Totals t = totals(in.results);
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += fmt::format(
        "<testsuites name=\"evgcheck conformance\" tests=\"{}\" failures=\"{}\" errors=\"0\" "
        "skipped=\"{}\" time=\"{:.3f}\">\n",
        in.results.size(), t.failed, t.not_applicable, in.seconds);
    for (const std::string& suite : suites) {
        int n = 0, failures = 0, skipped = 0;
        double seconds = 0;
        for (const CaseResult& r : in.results) {
            if (r.suite != suite) continue;
            ++n;
            failures += r.status == Status::fail;
            skipped += r.status == Status::not_applicable;
            seconds += r.seconds;
        }
        out += fmt::format(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" "
            "time=\"{:.3f}\">\n",
            xml_escape(suite), n, failures, skipped, seconds);
        for (const CaseResult& r : in.results) {
            if (r.suite != suite) continue;
            out += fmt::format("    <testcase classname=\"conformance.{}.{}\" name=\"{}\" time=\"{:.3f}\"",
                               xml_escape(suite), xml_escape(r.node_kind), xml_escape(r.id), r.seconds);
            if (r.status == Status::pass) {
                out += "/>\n";
                continue;
            }
            out += ">\n";
            if (r.status == Status::fail) {
                std::string body = r.message;
                if (!r.expected.empty()) body += "\nexpected: " + r.expected;
                body += "\nviolations: " + violations_text(r.violations);
                if (!r.replay.empty()) body += "\nreplay: " + r.replay;
                if (!r.graph_text.empty()) body += "\ngraph:\n" + r.graph_text;
                out += fmt::format("      <failure message=\"{}\" type=\"{}\">{}</failure>\n",
                                   xml_escape(r.message), r.suite == "negative" ? "rejection" : "conformance",
                                   xml_escape(body));
            } else {
                out += fmt::format("      <skipped message=\"{}\"/>\n", xml_escape(r.message));
            }
            out += "    </testcase>\n";
        }
        out += "  </testsuite>\n";
    }
    out += "</testsuites>\n";
    return out;
}

}  // namespace evg::reports
