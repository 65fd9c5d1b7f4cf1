#include "check_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "coverage.hpp"
#include "evg/json_field.hpp"
#include "evg/markup.hpp"

namespace evg::upstream::check {

namespace {

constexpr const char* kDocument = "check report JSON";

template <class T>
T field(const nlohmann::json& j, const char* name, const std::string& where) {
    return json_field<T>(j, name, where, kDocument);
}

std::string shard_word(const CheckReport& r) {
    return r.shard ? fmt::format(" (shard {})", r.shard->text()) : std::string();
}

}  // namespace

std::string check_report_json(const CheckReport& r) {
    nlohmann::json graphs = nlohmann::json::array();
    for (const CheckGraph& g : r.results)
        graphs.push_back({{"number", g.number},
                          {"summary", g.summary},
                          {"cells", g.cells},
                          {"pass", g.pass},
                          {"cases", g.cases},
                          {"excused_cases", g.excused_cases},
                          {"excused", g.excused},
                          {"not_compared", g.not_compared},
                          {"failure", g.failure},
                          {"seconds", g.seconds}});
    nlohmann::json j = {{"kind", "check"},
                        {"command", r.command},
                        {"run_command", r.run_command},
                        {"root", r.root},
                        {"catlass", r.catlass},
                        {"seed", r.seed},
                        {"graphs", r.graphs},
                        {"cases", r.cases},
                        {"drawn", r.drawn},
                        {"numbers", r.numbers},
                        {"stopped", r.stopped},
                        {"seconds", r.seconds},
                        {"exit_code", check_report_exit_code(r)},
                        {"results", graphs}};
    j["shard"] =
        r.shard ? nlohmann::json{{"index", r.shard->index}, {"count", r.shard->count}} : nlohmann::json();
    return j.dump(2) + "\n";
}

CheckReport read_check_report_json(std::string_view text) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(fmt::format("{}: not JSON: {}", kDocument, e.what()));
    }
    if (!j.is_object() || !j.contains("kind") || j.at("kind") != "check")
        throw std::runtime_error(fmt::format("{}: not a check report (no \"kind\": \"check\")", kDocument));
    const std::string top = "the report";
    CheckReport r;
    r.command = field<std::string>(j, "command", top);
    r.run_command = field<std::string>(j, "run_command", top);
    r.root = field<std::string>(j, "root", top);
    r.catlass = field<std::string>(j, "catlass", top);
    r.seed = field<uint64_t>(j, "seed", top);
    r.graphs = field<int>(j, "graphs", top);
    r.cases = field<int>(j, "cases", top);
    r.drawn = field<int>(j, "drawn", top);
    r.numbers = field<std::vector<int>>(j, "numbers", top);
    r.stopped = field<std::string>(j, "stopped", top);
    r.seconds = field<double>(j, "seconds", top);
    if (const nlohmann::json& s = j.contains("shard") ? j.at("shard") : nlohmann::json(); !s.is_null())
        r.shard = Shard{field<int>(s, "index", "shard"), field<int>(s, "count", "shard")};
    for (const nlohmann::json& g : field<nlohmann::json>(j, "results", top)) {
        CheckGraph c;
        c.number = field<int>(g, "number", "a graph");
        const std::string where = fmt::format("graph {}", c.number);
        c.summary = field<std::string>(g, "summary", where);
        c.cells = field<std::vector<std::string>>(g, "cells", where);
        c.pass = field<bool>(g, "pass", where);
        c.cases = field<int>(g, "cases", where);
        c.excused_cases = field<int>(g, "excused_cases", where);
        c.excused = field<std::map<std::string, int>>(g, "excused", where);
        c.not_compared = field<std::string>(g, "not_compared", where);
        c.failure = field<std::string>(g, "failure", where);
        c.seconds = field<double>(g, "seconds", where);
        r.results.push_back(std::move(c));
    }
    return r;
}

std::string check_report_junit(const CheckReport& r) {
    int failures = 0;
    for (const CheckGraph& g : r.results) failures += !g.pass;
    const size_t skipped = r.numbers.size() - r.results.size();
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    const std::string name = xml_escape("evgcheck check --catlass-root " + r.root + shard_word(r));
    out += fmt::format(
        "<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" time=\"{:.3f}\">\n",
        name, r.numbers.size(), failures, skipped, r.seconds);
    out += fmt::format(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" "
        "time=\"{:.3f}\">\n",
        name, r.numbers.size(), failures, skipped, r.seconds);
    for (const int number : r.numbers) {
        const auto it = std::find_if(r.results.begin(), r.results.end(),
                                     [&](const CheckGraph& g) { return g.number == number; });
        const std::string head =
            fmt::format("    <testcase classname=\"check.seed{}\" name=\"graph {}{}\"", r.seed, number,
                        it == r.results.end() ? "" : " (" + xml_escape(it->summary) + ")");
        if (it == r.results.end()) {
            out += head + " time=\"0\">\n      <skipped message=\"" +
                   xml_escape(r.stopped.empty() ? "not run" : "not run: " + r.stopped) +
                   "\"/>\n    </testcase>\n";
        } else if (it->pass) {
            out += head + fmt::format(" time=\"{:.3f}\"/>\n", it->seconds);
        } else {
            const std::string first_line = it->failure.substr(0, it->failure.find('\n'));
            out += head + fmt::format(
                              " time=\"{:.3f}\">\n      <failure message=\"{}\" "
                              "type=\"check\">{}</failure>\n    </testcase>\n",
                              it->seconds, xml_escape(first_line), xml_escape(it->failure));
        }
    }
    out += "  </testsuite>\n</testsuites>\n";
    return out;
}

std::string check_report_ending(const CheckReport& r) {
    corpus::Coverage coverage;
    std::map<std::string, std::pair<int, int>> excused;  // entry -> (cases, graphs)
    for (const CheckGraph& g : r.results) {
        if (!g.pass) continue;
        coverage.add_cells(std::set<std::string>(g.cells.begin(), g.cells.end()), g.cases);
        for (const auto& [entry, n] : g.excused) {
            excused[entry].first += n;
            excused[entry].second += 1;
        }
    }
    std::string out = fmt::format(
        "coverage of upstream's configuration space (cells: cases that passed in them; "
        "docs/upstream-coverage.md):\n{}",
        coverage.summary());
    if (const std::vector<std::string> left = coverage.left_out(); !left.empty())
        out += fmt::format(
            "{} reachable cells left out: {} graphs cannot cover them; more graphs (--graphs) cover more\n",
            left.size(), r.results.size());
    if (excused.empty()) {
        out += "known findings excused: none (no case had a finding the known-findings file takes out)\n";
    } else {
        out +=
            "known findings excused (cases that passed with a finding the known-findings file takes out; "
            "everything else in them judged):\n";
        for (const auto& [entry, count] : excused)
            out += fmt::format("  {:>4} cases in {} graph{}: {}\n", count.first, count.second,
                               count.second == 1 ? "" : "s", entry);
    }
    out += fmt::format("evgcheck check{}: {} graphs x {} runtime cases passed on {} in {:.1f} s\n",
                       shard_word(r), r.results.size(), r.cases, r.root, r.seconds);
    return out;
}

int check_report_exit_code(const CheckReport& r) {
    for (const CheckGraph& g : r.results)
        if (!g.pass) return 1;
    if (r.results.empty() && !r.numbers.empty() && r.stopped.find("does not compile") != std::string::npos)
        return 1;
    return r.results.size() == r.numbers.size() ? 0 : 3;
}

CheckReport merge_check_shards(std::vector<CheckReport> shards) {
    if (shards.empty()) throw std::runtime_error("merge: no shard reports to merge");
    for (const CheckReport& s : shards)
        if (!s.shard)
            throw std::runtime_error(fmt::format(
                "merge: the report of '{}' is not a shard's (a run without --shard K/N is whole already)",
                s.command));
    const CheckReport& first = shards.front();
    const int n = first.shard->count;
    std::vector<const CheckReport*> by_index(static_cast<size_t>(n), nullptr);
    for (const CheckReport& s : shards) {
        if (s.run_command != first.run_command)
            throw std::runtime_error(
                fmt::format("merge: shards of different runs: '{}' (shard {}) and '{}' (shard {})",
                            first.run_command, first.shard->text(), s.run_command, s.shard->text()));
        if (s.shard->count != n || s.drawn != first.drawn || s.root != first.root ||
            s.catlass != first.catlass)
            throw std::runtime_error(fmt::format(
                "merge: shard {} ({} graphs drawn, checkout {}) and shard {} ({} graphs drawn, checkout {}) "
                "are "
                "not shards of one run",
                first.shard->text(), first.drawn, first.catlass, s.shard->text(), s.drawn, s.catlass));
        const CheckReport*& slot = by_index[static_cast<size_t>(s.shard->index - 1)];
        if (slot != nullptr)
            throw std::runtime_error(fmt::format("merge: shard {} is given twice", s.shard->text()));
        slot = &s;
    }
    std::vector<std::string> missing;
    for (int k = 1; k <= n; ++k)
        if (by_index[static_cast<size_t>(k - 1)] == nullptr) missing.push_back(Shard{k, n}.text());
    if (!missing.empty())
        throw std::runtime_error(fmt::format("merge: shard{} {} of the run missing",
                                             missing.size() > 1 ? "s" : "", fmt::join(missing, ", ")));
    CheckReport out = first;
    out.command = first.run_command;
    out.shard.reset();
    out.numbers.clear();
    out.results.clear();
    out.seconds = 0;
    std::vector<std::string> stopped;
    std::set<int> seen;
    for (const CheckReport* s : by_index) {
        for (const int number : s->numbers) {
            if (number < 0 || !s->shard->holds(static_cast<size_t>(number)) || !seen.insert(number).second)
                throw std::runtime_error(fmt::format("merge: shard {} holds graph {}, which is not its own",
                                                     s->shard->text(), number));
            out.numbers.push_back(number);
        }
        for (const CheckGraph& g : s->results) {
            if (std::find(s->numbers.begin(), s->numbers.end(), g.number) == s->numbers.end())
                throw std::runtime_error(fmt::format("merge: shard {} ran graph {}, which it does not hold",
                                                     s->shard->text(), g.number));
            out.results.push_back(g);
        }
        if (!s->stopped.empty()) stopped.push_back(fmt::format("shard {}: {}", s->shard->text(), s->stopped));
        out.seconds = std::max(out.seconds, s->seconds);
    }
    std::sort(out.numbers.begin(), out.numbers.end());
    std::vector<int> absent;
    for (int number = 0; number < first.drawn; ++number)
        if (!seen.count(number)) absent.push_back(number);
    if (!absent.empty())
        throw std::runtime_error(fmt::format("merge: no shard holds graph{} {} of the run's {}",
                                             absent.size() > 1 ? "s" : "", fmt::join(absent, ", "),
                                             first.drawn));
    std::sort(out.results.begin(), out.results.end(),
              [](const CheckGraph& a, const CheckGraph& b) { return a.number < b.number; });
    out.stopped = fmt::format("{}", fmt::join(stopped, "; "));
    return out;
}

}  // namespace evg::upstream::check
