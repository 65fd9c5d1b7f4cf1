// run_case, judge_case and properties 1-3 (model_property.hpp).
#include "evg/props/model_property.hpp"

#include <algorithm>
#include <string>

#include "evg/props/coverage.hpp"
#include "evg/props/require.hpp"
#include "evg/verify/compare.hpp"
#include "evg/verify/data.hpp"
#include "evg/verify/judge.hpp"

namespace evg::props {

CaseRun run_case(const Case& c, uint32_t cores, uint64_t sched_seed, const graph::Problem* other,
                 graph::Swizzle swizzle) {
    CaseRun r;
    verify::CaseData data = verify::make_case_data(c.problem, c.data, c.data_seed, c.sign);
    r.inputs = std::move(data.inputs);
    r.exact_data = data.exact_data;
    const graph::RunInputs in = verify::run_inputs(r.inputs);
    graph::RunOptions opt;
    opt.block_dim = cores;
    opt.swizzle = swizzle;
    opt.config.scheduler = sched_seed ? hw::SchedulerKind::adversarial : hw::SchedulerKind::in_order;
    opt.config.seed = sched_seed;
    opt.config.keep_trace = false;  // the judge reads the report's counts; nothing reads the trace
    r.model = graph::run_on_model(other ? *other : c.problem, in, opt);
    return r;
}

verify::Verdict judge_case(const Case& c) {
    const CaseRun r = run_case(c, c.cores, c.sched_seed);
    const oracle::OracleResult golden =
        oracle::evaluate(c.problem, r.inputs, verify::values_the_judge_reads(c.problem));
    verify::JudgeOptions opt;
    opt.exact_data = r.exact_data;
    verify::Verdict v = verify::judge(c.problem, r.model, golden, opt);
    for (const verify::FpBorn& b : v.fp_born) {
        const std::string tag = "born:" + b.op.substr(0, b.op.find('<'));
        if (std::find(case_outcome_tags().begin(), case_outcome_tags().end(), tag) ==
            case_outcome_tags().end())
            case_outcome_tags().push_back(tag);
    }
    return v;
}

void model_matches_oracle_and_is_clean(const Case& c) {
    require_clean(judge_case(c));
}

}  // namespace evg::props
