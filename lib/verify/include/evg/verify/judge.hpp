// The judge: whether one run of a problem on the model conforms. The property suite, the conformance
// catalogue, the seed examples and `evgcheck run` all decide PASS here, and only here: a run passes when its
// Verdict has no finding.
//
// The rules, in the order of their Tags (verdict.hpp):
//   violation          no error from any checker of the machine (report.clean());
//   mutation_unapplied every requested sync mutation found its sync call;
//   ub_peak            the UB peak is within UB_SIZE and equals ub_expectation exactly;
//   flag_balance       SetFlag and WaitFlag balance per (core, HardEvent, id), from the trace's fields;
//   missing_output, unwritten_output, padding_written, output_mismatch: compare_outputs (compare.hpp), with
//                      the sentinel when the outputs started as make_case_data leaves them.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "evg/graph/graph.hpp"
#include "evg/graph/run.hpp"
#include "evg/hw/instruction.hpp"
#include "evg/hw/report.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/verify/verdict.hpp"

namespace evg::verify {

struct JudgeOptions {
    bool exact_data = false;  // CaseData::exact_data: outputs bit-exact where exact_friendly holds
    bool sentinel = true;     // the outputs started as make_case_data leaves them (sentinel, reduce identity)
    bool ub_rule = true;      // the exact UB peak (off only for runs whose UB use is not the library's own,
                              // e.g. a sync mutation that deletes instructions)
    bool whole_cl = false;    // the run computed over the whole computeLength (the library's switch
                              // UpstreamHazards::compute_over_compute_length): the UB peak rule's variant
    // Outputs whose values a documented finding of the run decides (output -> the finding, as a reason): they
    // are checked for being written, and not compared with the oracle (OutputCheck "not compared", the reason
    // given). Only a caller that took the finding out of the report sets it (upstream's store-of-a-load race,
    // upstream/corpus/corpus_check.hpp).
    std::map<std::string, std::string> values_not_judged;
};

// Everything a report and its trace decide on their own: violation, mutation_unapplied, flag_balance. Also
// the verdict of a stand-alone kernel run (no graph, no oracle).
Verdict judge_report(const hw::Report& report, const hw::Trace& trace);

// The whole judgement of one run of `problem` whose inputs gave `golden`.
Verdict judge(const graph::Problem& problem, const graph::ModelRun& run, const oracle::OracleResult& golden,
              const JudgeOptions& options = {});

}  // namespace evg::verify
