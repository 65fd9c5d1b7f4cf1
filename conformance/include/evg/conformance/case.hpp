// The conformance catalogue: its case records and the runner (README.md, "Two commands").
//
// Every case is a deterministic problem with a stable id (e.g. "RowBroadcast/AtlasA2/half/tailN33/CL4096")
// that replays it alone through `evgcheck conformance --filter '<id>'`. The report writers consume
// CaseResult.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace evg::conformance {

enum class Status { pass, fail, not_applicable };

struct CaseResult {
    std::string id;     // stable, e.g. "RowBroadcast/AtlasA2/half/tailN33/CL4096" — replays it alone
    std::string suite;  // "node" | "composition" | "example" | "negative" | "hazard"
    std::string
        node_kind;  // matrix row: "AccLoad".."ScalarReduce" (composition/example: "Composition"/"Example")
    std::string dtype;  // matrix column part: "half", "float", ...
    std::string arch;   // "AtlasA2" | "Ascend950"
    std::string path;   // "gm" | "ub"
    // Upstream cases: the block-mmad configuration family their kernel ran ("uf", "uf+res", "l0c1", ...;
    // upstream/conformance); "" for others.
    std::string family;
    Status status = Status::fail;
    std::string message;   // why it failed / not applicable; for negative cases the diagnostic received
    std::string expected;  // negative/hazard cases: the documented message or the checker expected
    // Controls (hazard rows that prove a checker or a judge rule alive): the finding the row's fault proves,
    // as required_controls() names it ("race:RAW/cross-pipe", "flag_left_set", "judge:nan-where-number");
    // empty for other cases. `fixed_form`: the control's fixed form, which must run clean.
    std::string proves;
    bool fixed_form = false;
    double worst_ulp = 0;  // worst ULP distance of any output against the oracle (0 when bit-exact)
    uint32_t ub_peak = 0, ub_predicted = 0;
    uint64_t instructions = 0;
    double instr_per_tile = 0;
    uint32_t tiles = 0;
    std::vector<std::string> events_used;  // e.g. "MTE2_V", "V_MTE2", ... (distinct HardEvents of the trace)
    std::map<std::string, uint64_t> violations;  // kind -> count
    // Findings of the run that rest on an assumed rule of the model (docs/hardware-model.md §17): rule id
    // ("R7") -> count.
    std::map<std::string, uint64_t> assumed_rules;
    // NaN and infinite elements of each output the judge compared (verify::OutputCheck), in graph order: a
    // PASS over NaN is right when the oracle expects NaN, and the report says so.
    struct OutputValues {
        std::string tensor;
        uint64_t nan = 0, inf = 0;
    };
    std::vector<OutputValues> outputs;
    // NaN and infinities the kernel made from finite values (the machine's checker "fp"; verify::FpBorn):
    // with an oracle, a count with its place ("Exp at kernel.cpp:40"), not a finding; a mismatch names them.
    std::vector<std::string> fp_born;
    std::string replay;      // one command: "build/release/tools/evgcheck conformance --filter '<id>'"
    std::string graph_text;  // the problem in lib/graph's text format (for failing-case listings)
    double seconds = 0;
};

struct CaseSpec {
    std::string id, suite, node_kind, dtype, arch, path;
    std::string proves;  // controls: as CaseResult::proves
    bool fixed_form = false;
    std::function<CaseResult()> run;
    std::string family;  // as CaseResult::family
};

// The whole catalogue, in a deterministic order.
std::vector<CaseSpec> all_cases();

// Runs every case whose id matches `filter_glob` ('*' any run, '?' one character; empty = all), calling
// `progress` after each. A case that throws is reported as failed with the exception's text. `stop`, when
// given, is asked before each case starts, and once it says true no further case starts (the results so far
// are returned).
// `jobs` > 1 runs that many cases at once on as many threads; the results, and the calls of `progress` (on
// the calling thread), come in catalogue order all the same, so the outcome does not depend on `jobs`.
std::vector<CaseResult> run_cases(const std::vector<CaseSpec>&, const std::string& filter_glob,
                                  const std::function<void(const CaseResult&)>& progress,
                                  const std::function<bool()>& stop = {}, int jobs = 1);

// One finding that the main job must prove alive on one chip: a control row whose fault gives exactly that
// finding (and whose fixed form runs clean) must pass. Generated from the one table of each kind of finding:
// the machine's violation kinds (violation_kinds.def; a race once per direction and place) and the judge's
// tags (tags.def; an output mismatch once per way a value can be wrong).
struct ControlRequirement {
    std::string finding;         // "race:RAW/cross-pipe", "flag_left_set", "judge:nan-where-number"
    std::string arch;            // "AtlasA2" | "Ascend950"
    std::string meaning;         // what the finding means, from its table
    std::string not_applicable;  // why no kernel can give it on this chip; empty when one must
};
std::vector<ControlRequirement> required_controls();

// A test-only case that always fails (not in all_cases()), for the report writers' tests.
CaseSpec planted_failing_case();

// Glob match over ids: '*' matches any run of characters, '?' one character.
bool glob_match(const std::string& glob, const std::string& text);

}  // namespace evg::conformance
