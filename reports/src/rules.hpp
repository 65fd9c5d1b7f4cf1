// Internal to the report writers: the "Rules of the model" section (rules.cpp), in each format.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "evg/reports/report.hpp"

namespace evg::reports {

// "rules of the model: 26 documented, 3 assumed, ...; N finding(s) of this run rest on an assumed rule".
std::string rules_summary(const ReportInput& in);
std::string rules_markdown(const ReportInput& in);  // a "##" section
std::string rules_html(const ReportInput& in);      // an <h2> section
nlohmann::json rules_json(
    const ReportInput& in);  // {"summary", "rules": [{id, name, status, rule, source, findings}]}

}  // namespace evg::reports
