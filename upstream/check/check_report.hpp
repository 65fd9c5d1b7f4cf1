// The report of `evgcheck check --catlass-root DIR` (--report DIR): one record per graph that ran, written as
// JSON (check-report.json, read back by `evgcheck report merge`) and JUnit XML (junit.xml), and the ending
// the command prints (coverage, known findings excused, the summary line), made from the report alone so that
// the merged report of a sharded run (--shard K/N, evg/shard.hpp) ends as the unsharded run does.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "evg/shard.hpp"

namespace evg::upstream::check {

struct CheckGraph {
    int number = 0;                  // graph K of the run
    std::string summary;             // props::summary of its drawn case
    std::vector<std::string> cells;  // the coverage cells it falls in (corpus::cells_of)
    bool pass = false;
    int cases = 0;                       // runtime cases that passed
    int excused_cases = 0;               // of them, cases with a finding the known-findings file took out
    std::map<std::string, int> excused;  // known-findings entry -> cases
    std::string not_compared;            // outputs the store-of-a-load race decides: "out0 in 26" ("" none)
    std::string failure;                 // a failed graph: what the command printed of it (shrink, replay)
    double seconds = 0;
};

struct CheckReport {
    std::string command;      // the command line, as run
    std::string run_command;  // without --shard: the same for every shard of one run
    std::string root;         // the checkout
    std::string catlass;      // what the checkout is (acl::CatlassCheckout::describe)
    uint64_t seed = 0;
    int graphs = 0;  // --graphs
    int cases = 0;   // --cases
    int drawn = 0;   // graphs the run's draws found (fewer than --graphs when upstream can run fewer)
    std::optional<Shard> shard;
    std::vector<int> numbers;         // the graphs this run holds (a shard: its share), in order
    std::vector<CheckGraph> results;  // the graphs that ran, in order
    // Why it stopped before its last graph ("" when it did not): a failed graph (the run stops at its first
    // failure), a checkout that does not compile, the time budget.
    std::string stopped;
    double seconds = 0;
};

std::string check_report_json(const CheckReport& r);
// Reads check_report_json's output back. Throws std::runtime_error naming the field that is missing or wrong.
CheckReport read_check_report_json(std::string_view text);
// One <testcase> per graph of the report's share; a graph that did not run is <skipped>.
std::string check_report_junit(const CheckReport& r);
// The lines the command ends a run whose graphs all passed with: the coverage of upstream's configuration
// space, the reachable cells left out, the known findings excused, and the summary line.
std::string check_report_ending(const CheckReport& r);
// The report of a sharded run from the reports of all its shards, graphs in the run's order. Throws
// std::runtime_error naming what does not fit (as reports::merge_shards does for the conformance report).
CheckReport merge_check_shards(std::vector<CheckReport> shards);
// 0 every graph of the run passed, 1 one failed (or the checkout did not compile), 3 the run stopped early
// otherwise (the time budget).
int check_report_exit_code(const CheckReport& r);

}  // namespace evg::upstream::check
