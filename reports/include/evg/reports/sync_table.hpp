// The SYNC mutation table (fuzz/mutation/README.md): every mutation point x operator of a set of kernel runs,
// classified against the independent schedule explorer, counted per operator x node kind. One writer for
// every place the table appears: `evgcheck sync-table` (terminal, sync_table.md, sync_table.json) and the
// "Sync mutation table" section of the conformance report (`evgcheck conformance --sync-table FILE` reads the
// JSON back).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace evg::reports {

// The classes of one mutated run (fuzz/mutation: classify()).
enum class SyncVerdict : uint8_t {
    caught,       // the explorer finds a hazard and a sync checker fired
    output_only,  // the explorer finds a hazard, no sync checker fired, but the outputs (or another checker,
                  // e.g. uninit) show it: a checker miss
    harmless,     // the explorer proves no hazard, no checker fired, and adversarial schedules run clean with
                  // the unmutated outputs
    missed,       // the explorer finds a hazard, nothing shows it
    false_alarm,  // a sync checker fired on a mutation the explorer proves harmless
    divergent,    // the explorer proves no hazard, no checker fired in order, but an adversarial schedule ran
                  // dirty or changed the outputs: the explorer and the schedules disagree
    unapplied,    // the mutation did not apply, or the run failed with an error
    undecided,    // the explorer gave up (its decision hit its attempt cap): neither an agreement nor a
                  // disagreement, counted apart
    reordered,    // the explorer proves no hazard, but a read takes its bytes from other writes than in the
                  // unmutated run (in every schedule: the mutation orders a read before the write it used to
                  // take, or after another), and the outputs or another checker (uninit) show it; no sync
                  // checker can, there being no race: an agreement
};
inline constexpr int kSyncVerdictCount = 9;
std::string_view sync_verdict_name(SyncVerdict v);  // "caught", "output-only", ...
// Whether a verdict is a disagreement the table run fails on (missed, false alarm, divergent).
bool sync_verdict_fails(SyncVerdict v);

struct SyncTableRow {
    std::string op;         // "drop-wait"
    std::string node_kind;  // "BlockEpilogue", "RowBroadcast", "Kernel", a seed kernel's name
    uint64_t points = 0;    // mutated runs
    uint64_t counts[kSyncVerdictCount] = {};
    std::map<std::string, uint64_t> caught_by;  // checker kind ("race", "deadlock", ...) -> caught runs
    uint64_t count(SyncVerdict v) const { return counts[static_cast<int>(v)]; }
};

// One mutated run worth reading: every verdict except caught, reordered and harmless.
struct SyncTableFinding {
    SyncVerdict verdict = SyncVerdict::missed;
    std::string subject;  // "random#12 AtlasA2 gm m=33 n=65 ...", "Example/Ascend950/seed003_bias/ub/..."
    std::string node_kind;
    std::string mutation;  // the replayable text, "drop-wait core=AIV0.1 n=7"
    std::string detail;    // what each side said
};

struct SyncTableData {
    std::string command;
    uint64_t seed = 0;
    int graphs = 0;    // random graphs asked for
    int subjects = 0;  // kernel runs whose mutation points were applied
    std::vector<std::string>
        skipped;  // subjects not used, with the reason (an unmutated run that is not clean)
    std::vector<std::string> archs;
    int adversarial = 0;  // schedules per harmless mutation
    double seconds = 0;
    int parts = 1;         // runs added up by merge_sync_tables (seconds is then their sum, not a wall time)
    bool complete = true;  // false when the time budget stopped the run early
    std::vector<SyncTableRow> rows;  // sorted by operator, then node kind
    std::vector<SyncTableFinding> findings;
    // Caught mutations whose checker kinds (mapped to the explorer's names) differ from the explorer's kinds:
    // "checkers deadlock,set_twice / explorer deadlock" -> mutations. Both sides saw a hazard; the kinds
    // differ where one side reports a consequence the other does not claim.
    std::map<std::string, uint64_t> kind_differences;
};

// Adds one classified run to the table (creating its row).
void add_to_table(SyncTableData& t, const std::string& op, const std::string& node_kind, SyncVerdict v,
                  const std::vector<std::string>& caught_by);
// The tables of several runs of one table (`--shard K/N`, or one arch each) as one: rows, findings, skipped
// subjects and kind differences added up, archs joined, `seconds` the sum of the runs' times (CPU time when
// the shards ran side by side), complete when every part is, the commands joined with "; ". Throws
// std::runtime_error when the parts differ in seed, graphs or adversarial schedules (their sum would mean
// nothing).
SyncTableData merge_sync_tables(const std::vector<SyncTableData>& parts);
// The sum of every row (op and node_kind "total").
SyncTableRow table_totals(const SyncTableData& t);
// "sync table: 5120 points, 3012 caught, 0 output-only, 2100 harmless, 0 missed, 0 false alarms, ..."
std::string sync_table_summary(const SyncTableData& t);
// Whether the run has a missed, falsely alarmed or divergent mutation.
bool sync_table_fails(const SyncTableData& t);

// Plain text for a terminal: one line per row, then the totals and the findings.
std::string sync_table_text(const SyncTableData& t);
// Markdown; `heading` is the level of the table's title ("#" alone, "##" as a section of another report).
std::string sync_table_markdown(const SyncTableData& t, std::string_view heading = "#");
std::string sync_table_html(const SyncTableData& t);  // a <section> for the conformance page
std::string sync_table_json(const SyncTableData& t);
// Reads sync_table_json's output back. Throws std::runtime_error naming the field that is missing or wrong.
SyncTableData parse_sync_table_json(std::string_view text);

}  // namespace evg::reports
