// The test side of the upstream corpus (corpus_abi.hpp): one case of an instance run through upstream's
// kernel and judged, shared by the corpus test (a checkout as it is) and the fixed-copy test (the fixes of
// docs/upstream-findings.md applied to a copy in the build folder).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <rapidcheck.h>

#include "corpus_abi.hpp"
#include "evg/graph/run.hpp"
#include "evg/props/spec.hpp"
#include "evg/verify/data.hpp"
#include "evg/verify/known_findings.hpp"
#include "evg/verify/verdict.hpp"
#include "runner_protocol.hpp"

namespace evg::upstream::corpus {

// The random instances of the library (those without a name), in index order; the named one called `name`.
// Inline: this library is linked beside either corpus library, whose upstream_corpus() the caller links.
inline std::vector<Instance> random_instances() {
    std::vector<Instance> out;
    for (const Instance& i : upstream_corpus())
        if (std::string_view(i.name).empty()) out.push_back(i);
    return out;
}
inline const Instance* named_instance(std::string_view name) {
    for (const Instance& i : upstream_corpus())
        if (name == i.name) return &i;
    return nullptr;
}

// Case `c` as evgcheck's copy runs it, the differential partner of upstream's run: its own kernel, in the
// default kernel configuration (graph::KernelConfig: the configuration changes the GEMM's schedule and A and
// B's order in GM, not the values of C, so the outputs are compared byte for byte all the same).
inline props::Case evgcheck_copy(props::Case c) {
    c.problem.kernel = graph::KernelConfig{};
    return c;
}

// evgcheck's copy of case `c` on its data (the property's: made once for both runs), as the property reads
// it: the bytes of its outputs and the count of its instructions, nothing of its report. So it runs as a
// reference computation, in issue order with every checker off: evgcheck's own properties judge its copy
// with every checker under both schedulers (props/, "model_matches_oracle_and_is_clean"), and the outputs of
// a run without a race are the same under every schedule. (Without the uninit checker a core's stack is not
// refilled with the fill (fiber.hpp): a kernel variable read before it is set would read something else,
// and that read is a finding of evgcheck's own properties.) Upstream's run is the one judged, with every
// checker, under the case's schedule.
graph::ModelRun run_evgcheck_copy(const props::Case& c, const verify::CaseData& data);

// The request of case `c` on `data` (make_case_data of the case): its shape, cores and schedule, A, B and
// every tensor of the graph with its contents.
RunRequest make_request(const props::Case& c, const verify::CaseData& data);

struct UpstreamVerdict {
    InstanceRun run;          // as the kernel left it, known findings and all
    verify::Verdict verdict;  // the one judge on it, without the findings `known` matched (when given)
    // The entry of `known` each finding it took out matched (one per finding, in report order).
    std::vector<const verify::KnownFinding*> excused;
};

// Runs `instance` on case `c` and judges the run against the oracle: every checker, flag balance, every
// output written and equal to the oracle's (the UB rule is off: the UB layout is upstream's, not evgcheck's
// UbAccounting). Findings `known` matches are taken out before the judge sees the report.
UpstreamVerdict run_and_judge(const Instance& instance, const props::Case& c, const verify::CaseData& data,
                              verify::KnownFindings* known);
// Gives the trace of a run made by the library the op names and sites of this process
// (InstanceRun::op_sites); judge_run does it.
void adopt_trace(InstanceRun& run);

// What the tags of known-findings entries ask of a run of `p` (known_findings.hpp): whether its graph stores
// a load's buffer directly (graph::known_hazard, docs/upstream-findings.md §4).
verify::RunConditions run_conditions(const graph::Problem& p);

// The outputs whose values upstream's store-of-a-load race decides in a run that had it excused (an entry of
// `excused` with the tag stores-a-load): the outputs of graph::stores_of_loads, each with the reason, for
// verify::JudgeOptions::values_not_judged. Empty when no such entry excused a finding. The race's consequence
// is the wrong bytes of exactly those stores' outputs (the next load overwrites the buffer they read, or the
// cube the C region): everything else of the run is judged.
std::map<std::string, std::string> race_decided_outputs(
    const graph::Problem& p, const std::vector<const verify::KnownFinding*>& excused);

// The run as the judge takes it: the report without the findings `known` matches (when given; the entries
// they matched appended to `excused`, when given; with the store-of-a-load race, its consequence at the same
// store instruction: an uninit_to_gm of the bytes the racing load left undefined) and every output tensor by
// name (no trace: it stays in `run`).
graph::ModelRun model_run(const InstanceRun& run, const graph::Problem& p, verify::KnownFindings* known,
                          std::vector<const verify::KnownFinding*>* excused = nullptr);

// The same judge on a run made already (say with a trace kept: make_request, then the instance's run).
UpstreamVerdict judge_run(InstanceRun run, const props::Case& c, const verify::CaseData& data,
                          verify::KnownFindings* known);

// The instructions upstream's kernel may issue for a case: `case_limit` (runner::kDefaultCaseLimit, `evgcheck
// check --catlass-root --case-limit`) times what evgcheck's copy issues for it, never under
// kMinCaseInstructions.
inline constexpr uint64_t kMinCaseInstructions = 1'000'000;
uint64_t case_instruction_limit(uint64_t evgcheck_instructions, double case_limit);

// CPU seconds (this thread's) of the steps of upstream_matches_oracle_and_evgcheck, added up over its calls
// while `PropertySteps::sink` points at one: the benchmark's profile of the property
// (bench/upstream_corpus_bench.cpp, BM_UpstreamCorpusSteps). Nothing else sets the sink.
struct PropertySteps {
    double data = 0;    // make_case_data, once for upstream's run and evgcheck's copy
    double ours = 0;    // evgcheck's copy on the model (graph::run_on_model, in order, no checker)
    double theirs = 0;  // upstream's kernel on the model (the instance's run; again in order after a finding)
    double oracle = 0;  // oracle::evaluate
    double judge = 0;   // adopting the trace, taking out known findings, verify::judge
    double twin = 0;    // the TopologicalVisitor twin's run, and the comparisons of synchronisation and bytes
    uint64_t ours_instructions = 0;    // the instructions evgcheck's copy issued, summed over the cases
    uint64_t theirs_instructions = 0;  // and upstream's run (the first, judged one)
    static thread_local PropertySteps* sink;
};

// The property of the corpus test (and of its benchmark): upstream's run of case `c` passes the judge once
// `known` has taken out its findings, its TopologicalVisitor twin (when the instance has one) writes the same
// bytes and synchronises the same (first_sync_difference), and every output tensor equals, byte for byte,
// what evgcheck's copy (run_on_model) writes on the same problem, data and cores. evgcheck's copy runs as a
// reference computation, in issue order and with no checker: only its outputs and its instruction count are
// read, and evgcheck's own properties judge it with every checker under both schedulers. RC_ASSERT /
// RC_FAIL only.
//
// A run whose report holds a known finding (a documented race, say) under the adversarial scheduler may have
// the race's documented consequence in its outputs: the schedule let the racing instructions run in the order
// that gives the wrong value. Such a run is judged, findings taken out, and its values are judged on the same
// case run by the in-order scheduler, where the race of the int8 L0 loads (§7) has no effect; every other
// finding and every other value stays judged. docs/upstream-coverage.md §5. The store-of-a-load race (§4) can
// bite under the in-order scheduler too (a load not held by any flag runs before a store still waiting for
// its own): when it was excused, the outputs it decides (race_decided_outputs) are checked for being written
// and not compared, with the oracle, the TopologicalVisitor twin or evgcheck's copy (§6).
//
// A run of upstream's kernel may issue at most case_instruction_limit(what evgcheck's copy issues for the
// case, `case_limit`) instructions: a kernel whose loop does not end is stopped there and fails with a
// kernel_exception saying where each core was, which shrinks like any failure.
//
// Returns the entries of `known` that excused a finding of the case's run (each once): what the summary of a
// run counts per entry.
std::vector<const verify::KnownFinding*> upstream_matches_oracle_and_evgcheck(
    const Instance& instance, const props::Case& c, verify::KnownFindings& known,
    double case_limit = runner::kDefaultCaseLimit);

// The runtime cases of an instance: m, n, k around the tile (tails, 1-row and 1-column problems, a last block
// whose second AIV gets no row), 1-8 cores, in order or adversarial, any data seed. The graph, types,
// computeLength, tile and data mode are the instance's (`base`).
rc::Gen<props::Case> runtime_cases(const props::Case& base);

// Where two runs' synchronisation (every SetFlag, WaitFlag, PipeBarrier and cross-core set and wait, per core
// and pipe, in issue order; both traces adopted) first parts, as "core 4 pipe MTE2: call 3 of 40 / 41 is '..'
// /
// '..'"; "" when it is the same.
std::string first_sync_difference(const hw::Trace& a, const hw::Trace& b);

// The first element where two buffers of elements of `elem` bytes differ, as "element i: byte b is 0x.. vs
// 0x.."; "" when they are equal.
std::string first_difference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, std::size_t elem);

}  // namespace evg::upstream::corpus
