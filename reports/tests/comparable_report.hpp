// For the tests that hold a merged report of a sharded run against the unsharded run's (reports/tests,
// docs/tests): the report JSON without what differs from run to run of the same cases, the times, the command
// line (the unsharded run's names its --out or --report) and the report folder in replay lines.
#pragma once
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

namespace evg::reports::testing {

inline nlohmann::json comparable_report(nlohmann::json j) {
    if (j.is_object()) {
        for (const char* timed : {"seconds", "line", "command", "time"}) j.erase(timed);
        for (auto& [key, value] : j.items()) {
            if (key == "replay" && value.is_string()) {
                // "... --out <folder>/replays/<id>": the folder is each run's own.
                value = std::regex_replace(value.get<std::string>(), std::regex("--out \\S*/replays/"),
                                           "--out REPORT/replays/");
            } else if (key == "failure" && value.is_string()) {
                value = std::regex_replace(value.get<std::string>(), std::regex("[0-9]+\\.[0-9] s"), "T s");
            } else {
                value = comparable_report(value);
            }
        }
    } else if (j.is_array()) {
        for (auto& v : j) v = comparable_report(v);
    }
    return j;
}

}  // namespace evg::reports::testing
