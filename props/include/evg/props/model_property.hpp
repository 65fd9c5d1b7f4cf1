// A case through the real library on the model (evg::graph::run_on_model) on verify::make_case_data's data,
// and properties 1-3 of props/README.md on it: verify::judge finds nothing. The property suite
// (tests/model_props_test.cpp) and the one-judge test (conformance/suites/tests/one_judge_test.cpp) run them.
#pragma once
#include <cstdint>

#include "evg/graph/run.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/props/spec.hpp"
#include "evg/verify/verdict.hpp"

namespace evg::props {

struct CaseRun {
    graph::ModelRun model;
    oracle::Inputs inputs;
    bool exact_data = false;  // verify::CaseData::exact_data
};

// `c` (or `other`, a rewrite of c.problem, on c's data) on `cores` AI cores with the in-order scheduler
// (sched_seed 0) or the adversarial one.
CaseRun run_case(const Case& c, uint32_t cores, uint64_t sched_seed, const graph::Problem* other = nullptr,
                 graph::Swizzle swizzle = graph::Swizzle::Rows3);

// verify::judge of c's run (c.cores, c.sched_seed) against the oracle.
verify::Verdict judge_case(const Case& c);

// Properties 1-3: require_clean(judge_case(c)).
void model_matches_oracle_and_is_clean(const Case& c);

}  // namespace evg::props
