// The conformance report (README.md, "Two commands"): one set of case results written as a self-contained
// HTML page, a Markdown file, JSON for dashboards and a JUnit XML for CI. Every format carries the same
// content: the matrix node kind x dtype x arch (pass / fail / not applicable with case counts; per cell the
// worst error in ULP, the UB peak, the events used and the instructions per tile), the failing cases with
// their replay commands, the negative-conformance table, the hazard table and the property-suite coverage
// distribution (or "not run").
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "evg/conformance/case.hpp"
#include "evg/reports/hand_fused.hpp"
#include "evg/reports/sync_table.hpp"
#include "evg/shard.hpp"

namespace evg::reports {

using conformance::CaseResult;
using conformance::Status;

// The coverage distribution of a property run (props/: Coverage::table()), when one was run.
struct PropsCoverage {
    bool run = false;
    std::string source;  // where it came from: "evgcheck conformance --props" or a log file
    int cases = 0;
    std::vector<std::pair<std::string, int>> tags;  // tag -> cases, in the table's order
};

// Reads the "coverage over N cases:" table(s) of a property run's output (the first shard prints it). Returns
// run = false when the text holds no such table. When several tables are present, they are summed.
PropsCoverage parse_props_coverage(std::string_view log, std::string source);

// The Catlass checkout whose nodes the run tested (evgcheck conformance --catlass-root).
struct UpstreamCheckout {
    std::string root;            // absolute
    std::string commit;          // "" when the folder is not a git checkout
    std::string version;         // as the checkout's files state it; "" when none does
    std::string tested_version;  // the version of evgcheck's tests whose headers it has; "" when none
    std::string description;     // the one line that says all of it (acl::CatlassCheckout::describe)
    // Matrix::key(node_kind, dtype, "Ascend950") of every cell the checkout has cases for, run or filtered
    // out.
    std::set<std::string> cells;
};

// What a shard's report holds of a sharded run (`evgcheck conformance --shard K/N`, evg/shard.hpp).
struct ShardInfo {
    Shard shard;
    std::string run_command;  // the command without --shard: the same for every shard of one run
    // Each result's place in the unsharded run's order: results[i] is its case positions[i].
    std::vector<std::size_t> positions;
    std::size_t selected = 0;  // cases the unsharded run selects (all shards together)
    // The unsharded run selects the whole catalogue on every chip (what ReportInput::ran_all asks of a run
    // besides finishing).
    bool whole_selection = false;
};

struct ReportInput {
    std::vector<CaseResult> results;
    // With --catlass-root: the checkout; its cases are the suite "upstream" (the side-by-side section).
    std::optional<UpstreamCheckout> upstream;
    double seconds = 0;              // wall time of the whole run
    std::string filter;              // the --filter glob, empty for all
    std::vector<std::string> archs;  // the arch set that was run
    std::string command;             // the command line that produced it
    PropsCoverage props;
    std::optional<SyncTableData>
        sync_table;  // the SYNC mutation table, when one was run (a section of its own)
    // The seed examples against their hand-fused epilogues on the cycle model, when they were run.
    std::optional<std::vector<HandFusedRow>> hand_fused;
    // A run stopped early (its time budget ran out): why, and how many selected cases did not run. Every
    // format says so next to the totals.
    std::string partial;
    size_t not_run = 0;
    // The findings the controls must prove alive (conformance::required_controls()), and whether the whole
    // catalogue ran on every chip: then a finding that no row proved is NOT PROVEN, otherwise not run.
    std::vector<conformance::ControlRequirement> controls;
    bool ran_all = false;
    // A shard of a sharded run: its share (ran_all is then false: the checkers are proven alive, or not, by
    // the merged report).
    std::optional<ShardInfo> shard;
};

// Reads json()'s output back into what wrote it (a run's report or a shard's). Throws std::runtime_error
// naming the field that is missing or wrong.
ReportInput read_report_json(std::string_view text);

// The report of a sharded run from the reports of all its shards (`evgcheck report merge`): the results in
// the unsharded run's order, the totals, matrix and sections of the unsharded run; its wall time the longest
// shard's. Throws std::runtime_error naming what does not fit: a report that is not a shard, shards of
// different runs (their commands without --shard differ) or of different N, a shard missing or given twice,
// two shards holding one case.
ReportInput merge_shards(std::vector<ReportInput> shards);

// The "checkers proven alive" section: each finding of required_controls() on each chip, and the control rows
// (CaseResult::proves) that ran for it. Proven: a fault row passed (its fault gave exactly that finding) and
// every row of the finding on that chip passed (the fixed forms ran clean).
enum class Alive : uint8_t { proven, not_proven, not_run, not_applicable };
struct AliveCell {
    conformance::ControlRequirement req;
    Alive state = Alive::not_run;
    std::vector<std::string> proved_by;  // passing fault rows
    std::vector<std::string> fixed;      // passing fixed forms
    std::vector<std::string> failed;     // rows that failed
};
// "NaN or infinity born from finite values in 120 case(s), the oracle agreeing: Cast 80, Exp 40" (the
// checker "fp"'s born events of passing and failing cases, by op); empty when there is none.
std::string fp_born_summary(const ReportInput& in);
std::vector<AliveCell> proven_alive(const ReportInput& in);
const char* alive_word(Alive a);  // "proven", "NOT PROVEN", "not run", "n/a"
// "checkers proven alive: 118 of 118 findings x chips, 1 not applicable", with the unproven ones named;
// empty without requirements.
std::string alive_summary(const std::vector<AliveCell>& cells);
std::string alive_markdown(const std::vector<AliveCell>& cells);  // a "##" section
std::string alive_html(const std::vector<AliveCell>& cells);      // an <h2> section

// One matrix cell: the cases of one node kind, dtype and arch (suites node, composition and example).
struct Cell {
    std::string node_kind, dtype, arch;
    int pass = 0, fail = 0, not_applicable = 0;
    double worst_ulp = 0;
    uint32_t ub_peak = 0, ub_predicted = 0;  // the largest of the cell's cases
    double instr_per_tile = 0;               // the largest of the cell's cases
    uint64_t nan = 0, inf = 0;               // NaN and infinite output elements over the cell's cases
    std::vector<std::string> events_used;    // the union, sorted
    std::vector<std::string> case_ids;

    Status status() const;  // fail if any case failed; pass if any passed; else not applicable
};

struct Matrix {
    std::vector<std::string> node_kinds;  // rows, in the spec's node order, then any others
    std::vector<std::string> archs;       // column groups
    std::vector<std::string> dtypes;      // columns within a group
    std::map<std::string, Cell> cells;    // key(node_kind, dtype, arch)

    static std::string key(std::string_view node_kind, std::string_view dtype, std::string_view arch);
    const Cell* find(std::string_view node_kind, std::string_view dtype, std::string_view arch) const;
};

// The matrix column of a dtype: a Cast's "half->int8" (any "->" or "/" suffix) counts under its source type.
std::string matrix_dtype(std::string_view dtype);

// Suites shown in the matrix; "negative" and "hazard" cases have tables of their own, "upstream" ones
// (upstream Catlass's nodes) the side-by-side section.
bool in_matrix(const CaseResult& r);

Matrix build_matrix(const std::vector<CaseResult>& results);

struct Totals {
    int passed = 0, failed = 0, not_applicable = 0;
};
Totals totals(const std::vector<CaseResult>& results);

// "conformance: 812 passed, 0 failed, 40 not applicable in 212 s"
std::string summary_line(const ReportInput& in);

// How each report names a Status: the word of text, Markdown and JSON ("pass", "fail", "n/a"), the HTML badge
// ("PASS", "FAIL", "n/a") and the HTML cell class ("pass", "fail", "na"). One table for every writer.
struct StatusText {
    const char* word;
    const char* badge;
    const char* css;
};
const StatusText& status_text(Status s);
inline const char* status_word(Status s) {
    return status_text(s).word;
}

// The node suite side by side on evgcheck's library and on upstream Catlass's (suite "upstream"), Ascend950,
// where upstream has EVG: one row per node kind of the node suite, one column per dtype. A cell where
// evgcheck's suite has cases and upstream none is "not in this Catlass": upstream lacks the node kind, or
// every functor or cast of it for that dtype (conformance/upstream_cells.hpp is the intersection).
struct SideCell {
    Cell evgcheck, upstream;   // the cases of each side (node_kind, dtype, counts)
    int store_load = 0;        // upstream cases that passed with its store-of-a-load race set aside (§4)
    bool in_upstream = false;  // the checkout has the cell (UpstreamCheckout::cells), whether it ran or not
};
struct SideBySide {
    std::vector<std::string> node_kinds, dtypes;
    std::map<std::string, SideCell> cells;  // Matrix::key(node_kind, dtype, "Ascend950")
    const SideCell* find(std::string_view node_kind, std::string_view dtype) const;
};
SideBySide build_side_by_side(const ReportInput& in);
// A side's cell as the text and Markdown tables print it: "pass 24", "FAIL 1/24", "-" (no case); upstream's
// "not in this Catlass" (the checkout has no such cell), "not run" (it has, the filter left it out), and
// "pass 4 (§4 4)" when some of its cases passed with upstream's store-of-a-load race set aside.
std::string side_text(const SideCell& c, bool upstream);
std::string side_by_side_text(const ReportInput& in);      // for the terminal ("" without --catlass-root)
std::string side_by_side_markdown(const ReportInput& in);  // a "##" section ("" without --catlass-root)
std::string side_by_side_html(const ReportInput& in);      // an <h2> section ("" without --catlass-root)

// The matrix as plain text for a terminal: one row per node kind, one column per arch/dtype; cells "pass 12",
// "FAIL 1/12", "n/a 3" or "-" (no case).
std::string text_matrix(const Matrix& m);

std::string html(const ReportInput& in);
std::string markdown(const ReportInput& in);
std::string json(const ReportInput& in);
std::string junit(const ReportInput& in);

// Writes report.html, report.md, report.json and junit.xml into `dir` (created if missing); returns the
// paths.
std::vector<std::filesystem::path> write_all(const ReportInput& in, const std::filesystem::path& dir);

// Small helpers shared by the writers.
std::string format_bytes(uint32_t bytes);  // "48.0 KiB", "512 B"
std::string format_ulp(double ulp);        // "0", "0.5", "3", "1.2e+06"
std::string violations_text(
    const std::map<std::string, uint64_t>& v);  // "race x2, uninit_to_gm x1" or "none"
// Text for a Markdown table cell: '|' escaped, newlines as <br>, and '<', '>', '&' as entities, so that
// SetFlag<MTE2_V>(0) is shown rather than taken for an HTML tag.
std::string markdown_cell(std::string_view s);
// Text for a code span (`...`) in a table cell, where entities would show literally: '|' escaped, '`'
// replaced.
std::string markdown_code_cell(std::string_view s);
std::string html_escape(std::string_view s);  // & < > " as entities

}  // namespace evg::reports
