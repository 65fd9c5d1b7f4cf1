// The "Rules of the model" section of the report (report.hpp): every rule a finding can rest on with its
// status and source (lib/hw's rules.def, docs/hardware-model.md §17), and how many findings of the run rest
// on each assumed one.
#include <fmt/format.h>

#include <map>
#include <string>

#include "rules.hpp"

#include "evg/hw/rules.hpp"

namespace evg::reports {

namespace {

// Findings of the run per assumed rule id, over every case.
std::map<std::string, uint64_t> assumed_counts(const ReportInput& in) {
    std::map<std::string, uint64_t> out;
    for (const CaseResult& r : in.results)
        for (const auto& [code, n] : r.assumed_rules) out[code] += n;
    return out;
}

}  // namespace

std::string rules_summary(const ReportInput& in) {
    size_t documented = 0, assumed = 0, contract = 0;
    for (const hw::RuleInfo& r : hw::all_rules())
        (r.status == hw::RuleStatus::documented ? documented
         : r.status == hw::RuleStatus::assumed  ? assumed
                                                : contract)++;
    uint64_t resting = 0;
    for (const auto& [code, n] : assumed_counts(in)) resting += n;
    return fmt::format(
        "rules of the model: {} documented, {} assumed, {} contract; {} finding(s) of this run rest on an "
        "assumed "
        "rule",
        documented, assumed, contract, resting);
}

std::string rules_markdown(const ReportInput& in) {
    const std::map<std::string, uint64_t> counts = assumed_counts(in);
    std::string o = "## Rules of the model\n\n" + rules_summary(in) +
                    " (docs/hardware-model.md §17).\n\n| id | status | rule | source | findings here |\n"
                    "|---|---|---|---|---|\n";
    for (const hw::RuleInfo& r : hw::all_rules()) {
        const auto it = counts.find(std::string(r.code));
        o += fmt::format("| {} | {} | {} | {} | {} |\n", r.code, hw::rule_status_name(r.status),
                         markdown_cell(r.statement), markdown_cell(r.source),
                         r.status != hw::RuleStatus::assumed
                             ? std::string()
                             : std::to_string(it == counts.end() ? 0 : it->second));
    }
    return o;
}

std::string rules_html(const ReportInput& in) {
    const std::map<std::string, uint64_t> counts = assumed_counts(in);
    std::string o = "<h2>Rules of the model</h2>\n<p class=\"meta\">" + html_escape(rules_summary(in)) +
                    "</p>\n<table><tr><th>id</th><th>status</th><th>rule</th><th>source</th><th>findings "
                    "here</th></tr>\n";
    for (const hw::RuleInfo& r : hw::all_rules()) {
        const auto it = counts.find(std::string(r.code));
        o += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", r.code,
                         hw::rule_status_name(r.status), html_escape(r.statement), html_escape(r.source),
                         r.status != hw::RuleStatus::assumed
                             ? std::string()
                             : std::to_string(it == counts.end() ? 0 : it->second));
    }
    return o + "</table>\n";
}

nlohmann::json rules_json(const ReportInput& in) {
    const std::map<std::string, uint64_t> counts = assumed_counts(in);
    nlohmann::json rules = nlohmann::json::array();
    for (const hw::RuleInfo& r : hw::all_rules()) {
        nlohmann::json j{{"id", r.code},
                         {"name", r.name},
                         {"status", hw::rule_status_name(r.status)},
                         {"rule", r.statement},
                         {"source", r.source}};
        if (r.status == hw::RuleStatus::assumed) {
            const auto it = counts.find(std::string(r.code));
            j["findings"] = it == counts.end() ? 0 : it->second;
        }
        rules.push_back(std::move(j));
    }
    return {{"summary", rules_summary(in)}, {"rules", rules}};
}

}  // namespace evg::reports
