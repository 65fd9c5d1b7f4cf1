// One conformance problem through the real library on the model (evg::graph::run_on_model) and the oracle.
//
// measure() runs the problem on verify::make_case_data's inputs (outputs start as the sentinel), evaluates
// the oracle on the same inputs, judges the run with verify::judge (lib/verify: the one judge the property
// suite and `evgcheck run` use too) and fills a CaseResult's evidence (report counts, worst ULP, UB peak and
// its prediction, instructions, events). judge_*() decide the status from the Verdict:
//   conforming case: the Verdict is clean (no finding of any tag);
//   hazard case:     the expected finding fires (a violation kind, "wrong-value" for output_mismatch, or
//                    another tag's name with '-': "unwritten-output", "flag-balance", "ub-peak", ...), or,
//                    for the fixed form of a hazard, "clean": the Verdict is clean.
// measure_report() judges a stand-alone kernel's run (verify::judge_report plus the caller's comparison), for
// hazard cases that are kernels rather than graphs.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catlass/epilogue/fusion/upstream_hazards.hpp"
#include "evg/conformance/case.hpp"
#include "evg/graph/graph.hpp"
#include "evg/graph/run.hpp"
#include "evg/hw/instruction.hpp"
#include "evg/hw/report.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/verify/data.hpp"
#include "evg/verify/judge.hpp"
#include "evg/verify/verdict.hpp"

namespace evg::conformance {

struct ModelCase {
    graph::Problem problem;
    verify::DataMode data = verify::DataMode::Exact;
    uint64_t data_seed = 1;
    verify::InputSign input_sign = verify::InputSign::mixed;  // negative / positive: reduce cases (data.hpp)
    uint32_t cores = 2;
    Catlass::Epilogue::Fusion::UpstreamHazards hazards{};  // all off: the library's correct behaviour
};

// What one run produced: the evidence and the judge's Verdict.
struct Measurement {
    CaseResult result;        // evidence fields filled, status not decided
    verify::Verdict verdict;  // every finding of the run; clean: it conforms
};

// Counts a run's violations into `r`: by kind, and by the assumed rules they rest on.
void count_violations(CaseResult& r, const std::vector<hw::Violation>& violations);

// The metadata of `spec` plus graph_text and replay, status fail.
CaseResult start_result(const CaseSpec& spec);

Measurement measure(const CaseSpec& spec, const ModelCase& c);

// The evidence of one stand-alone kernel run: the report's violations, the trace's size and events, the UB
// peak; the Verdict is verify::judge_report's, plus an output_mismatch finding with `mismatch`, the caller's
// comparison with its reference (empty: outputs match).
Measurement measure_report(const CaseSpec& spec, const hw::Report& report, const hw::Trace& trace,
                           std::string mismatch);

// The evidence and Verdict of a run made outside run_on_model (a static EVG launched by Catlass host code, a
// kernel compiled against upstream Catlass): verify::judge of `run` against `golden` with `options`.
Measurement measure_run(const CaseSpec& spec, const graph::Problem& problem, const graph::ModelRun& run,
                        const oracle::OracleResult& golden, const verify::JudgeOptions& options);

// pass = the Verdict is clean; the message is its text.
CaseResult judge_conforming(Measurement m);
// What fired in a Verdict, by the names judge_hazard matches: the violation kinds, "wrong-value" for
// output_mismatch, every other tag's name with '-' for '_'; {"clean"} when nothing did.
std::vector<std::string> fired(const verify::Verdict& v);
// pass = `expected` fires (fired()); '|' separates acceptable alternatives ("uninit_to_gm|wrong-value").
// "clean" fires when nothing else does. The message names what fired and the first finding of each.
CaseResult judge_hazard(Measurement m, const std::string& expected);

// pass = what fired (`what`: fired(), or a refinement such as fired_with_race_shapes()) is exactly
// `expected`: '+' joins findings that must all fire, and nothing else may; "clean": nothing fires. The
// message names what fired and the first finding of each. The controls' judgement: a checker that fires on
// the right fault but also on something else, or fires only a neighbour's finding, fails it.
CaseResult judge_exactly(Measurement m, const std::vector<std::string>& what, const std::string& expected);

// The direction of a race (by issue order: the earlier access is the first letter) and where its two
// accesses are: on one pipe of one core, on two pipes of one core, or on two cores.
enum class RaceShape : uint8_t {
    none,
    raw_same_pipe,
    war_same_pipe,
    waw_same_pipe,
    raw_cross_pipe,
    war_cross_pipe,
    waw_cross_pipe,
    raw_cross_core,
    war_cross_core,
    waw_cross_core,
};
inline constexpr RaceShape kRaceShapes[] = {
    RaceShape::raw_same_pipe,  RaceShape::war_same_pipe,  RaceShape::waw_same_pipe,
    RaceShape::raw_cross_pipe, RaceShape::war_cross_pipe, RaceShape::waw_cross_pipe,
    RaceShape::raw_cross_core, RaceShape::war_cross_core, RaceShape::waw_cross_core,
};
const char* race_shape_name(RaceShape s);  // "RAW/same-pipe", ..., "WAW/cross-core"; "" for none
// The shape of a race violation, from its two locations (none when it is not a race with two).
RaceShape race_shape_of(const hw::Violation& v);
// The name of a finding a control proves: the violation kind's name, and for a race "race:<shape>".
std::string control_finding(hw::ViolationKind kind, RaceShape shape = RaceShape::none);

// fired(verdict), with "race" replaced by "race:<shape>" of every race violation of `report` (the report the
// verdict judged).
std::vector<std::string> fired_with_race_shapes(const verify::Verdict& verdict, const hw::Report& report);

// A case that is not applicable on its (arch, dtype, path) with the rule that excludes it.
CaseResult not_applicable(const CaseSpec& spec, const std::string& rule);

// The replay command of an id: `<binary> conformance --filter '<id>' --out <out_root>/<id as a folder name>`,
// every path absolute, so that it runs as printed from any folder and writes a report of its own instead of
// replacing the full one. Without arguments: this build's evgcheck and <build>/conformance/replays.
std::string replay_command(const std::string& id);
std::string replay_command(const std::string& id, const std::string& binary, const std::string& out_root);
// The same with more options after `conformance` (already quoted: "--catlass-root /path").
std::string replay_command(const std::string& id, const std::string& binary, const std::string& out_root,
                           const std::string& options);
// A word a POSIX shell reads back as itself (quoted when it has to be).
std::string shell_quote(const std::string& word);

}  // namespace evg::conformance
