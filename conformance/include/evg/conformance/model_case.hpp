// One conformance problem through the real library on the model (evg::graph::run_on_model) and the oracle.
//
// measure() runs the problem, evaluates the oracle on the same inputs and fills a CaseResult's evidence
// (report counts, worst ULP, UB peak and its prediction, instructions, events). judge_*() decide the status:
//   conforming case: no violation, every output matches the oracle, the UB peak equals the prediction;
//   hazard case:     the expected checker fires (a violation kind, or "wrong-value": an output differs), or,
//                    for the fixed form of a hazard, "clean": nothing fires.
// measure_report() fills the same evidence from a stand-alone kernel's run, for hazard cases that are kernels
// rather than graphs.
// The comparison and the UB-peak rule are those of the property suite (props/README.md, "The UB peak rule").
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catlass/epilogue/fusion/upstream_hazards.hpp"
#include "evg/conformance/case.hpp"
#include "evg/graph/graph.hpp"
#include "evg/hw/instruction.hpp"
#include "evg/hw/report.hpp"
#include "evg/props/spec.hpp"

namespace evg::conformance {

struct ModelCase {
    graph::Problem problem;
    props::DataMode data = props::DataMode::Exact;
    uint64_t data_seed = 1;
    uint32_t cores = 2;
    Catlass::Epilogue::Fusion::UpstreamHazards hazards{};  // all off: the library's correct behaviour
};

// What one run produced; `mismatch` is empty when every output matches the oracle.
struct Measurement {
    CaseResult result;     // evidence fields filled, status not decided
    std::string mismatch;  // the comparison's findings
    bool ub_equal = false;
    bool clean = false;
    std::string report_text;
    std::map<std::string, std::string> findings;  // violation kind -> the message of its first violation
};

// The metadata of `spec` plus graph_text and replay, status fail.
CaseResult start_result(const CaseSpec& spec);

Measurement measure(const CaseSpec& spec, const ModelCase& c);

// The evidence of one stand-alone kernel run: the report's violations and findings, the trace's size and
// events, the UB peak; `mismatch` is the caller's comparison with its reference (empty: outputs match).
Measurement measure_report(const CaseSpec& spec, const hw::Report& report,
                           const std::vector<hw::TraceEntry>& trace, std::string mismatch);

// pass = clean, outputs match, UB peak equals the prediction.
CaseResult judge_conforming(Measurement m);
// pass = `expected` fires: a violation kind name ("race", "uninit_to_gm", ...) or "wrong-value";
// '|' separates acceptable alternatives ("uninit_to_gm|wrong-value"). "clean" fires when nothing else does
// (no violation, outputs match). The message names what fired and, for each violation kind, its first
// finding.
CaseResult judge_hazard(Measurement m, const std::string& expected);

// A case that is not applicable on its (arch, dtype, path) with the rule that excludes it.
CaseResult not_applicable(const CaseSpec& spec, const std::string& rule);

// The replay command of an id.
std::string replay_command(const std::string& id);

}  // namespace evg::conformance
