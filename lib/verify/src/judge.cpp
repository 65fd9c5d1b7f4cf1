// judge() and judge_report() of judge.hpp.
#include "evg/verify/judge.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "evg/hw/arch.hpp"
#include "evg/verify/compare.hpp"
#include "evg/verify/trace.hpp"
#include "evg/verify/ub_expectation.hpp"

namespace evg::verify {

Verdict judge_report(const hw::Report& report, const hw::Trace& trace) {
    Verdict v;
    v.ub_peak = report.stats.ub_peak;
    for (const hw::Violation& x : report.violations) {
        if (x.severity != hw::Severity::error) continue;
        v.add(Tag::violation,
              fmt::format("{}{}: {}", hw::violation_kind_name(x.kind),
                          x.occurrences > 1 ? fmt::format(" (x{})", x.occurrences) : "", x.message));
        v.findings.back().kind = std::string(hw::violation_kind_name(x.kind));
    }
    for (const std::string& m : report.mutations_unapplied)
        v.add(Tag::mutation_unapplied, "the sync mutation " + m + " never found its sync call");
    // A kept trace, or, without one, the report's issue counts (the same numbers for a machine's run).
    const std::vector<FlagImbalance> flags =
        trace.empty() ? unbalanced_flags(report) : unbalanced_flags(trace);
    if (!flags.empty()) {
        std::string text;
        for (const FlagImbalance& f : flags) {
            if (!text.empty()) text += '\n';
            text += to_string(f, report.kernel_type, report.block_dim);
        }
        v.add(Tag::flag_balance, text);
    }
    return v;
}

Verdict judge(const graph::Problem& problem, const graph::ModelRun& run, const oracle::OracleResult& golden,
              const JudgeOptions& options) {
    Verdict v = judge_report(run.report, run.trace);
    // With an oracle, a NaN or an infinity the kernel made is the graph's own math when the oracle computes
    // it too, and a wrong value when it does not: the comparison below decides. The checker's findings
    // (warnings under the runner's policy, graph::run_on_model) are evidence (Verdict::fp_born), named by a
    // mismatch as the place its values came from.
    for (const hw::Violation& x : run.report.violations) {
        if (hw::violation_kind_finder(x.kind) != "fp") continue;
        const hw::Location* l = x.locations.empty() ? nullptr : &x.locations.front();
        v.fp_born.push_back({std::string(hw::violation_kind_name(x.kind)), l ? l->op : std::string(),
                             l ? l->site : std::string(), x.message});
    }
    const UbExpectation ub = ub_expectation(problem, golden, options.whole_cl);
    v.ub_predicted = ub.lo;
    const uint64_t ub_size = hw::arch_spec(problem.arch).ub_size;
    if (options.ub_rule) {
        if (v.ub_peak > ub_size)
            v.add(Tag::ub_peak, fmt::format("UB peak {} B is above UB_SIZE {} B", v.ub_peak, ub_size));
        else if (!ub.exact())
            v.add(Tag::ub_peak,
                  fmt::format("the UB peak rule gives only a bracket {} .. {} B", ub.lo, ub.hi));
        else if (v.ub_peak != ub.lo)
            v.add(Tag::ub_peak, fmt::format("UB peak {} B, predicted {} B", v.ub_peak, ub.lo));
        if (run.predicted_ub_end != 0 && v.ub_peak > run.predicted_ub_end)
            v.add(Tag::ub_peak, fmt::format("UB peak {} B is above UbAccounting's requirement {} B",
                                            v.ub_peak, run.predicted_ub_end));
    }
    compare_outputs(problem, run, golden, exact_friendly(options.exact_data, problem, golden),
                    options.sentinel, v, options.values_not_judged);
    if (!v.fp_born.empty())
        for (Finding& f : v.findings) {
            if (f.tag != Tag::output_mismatch) continue;
            f.message += "\nNaN and infinities of this run were born at:";
            for (size_t i = 0; i < v.fp_born.size() && i < 3; ++i)
                f.message +=
                    fmt::format("\n  {} ({}): {}", v.fp_born[i].site, v.fp_born[i].op, v.fp_born[i].message);
            if (v.fp_born.size() > 3) f.message += fmt::format("\n  and {} more", v.fp_born.size() - 3);
        }
    std::stable_sort(v.findings.begin(), v.findings.end(),
                     [](const Finding& x, const Finding& y) { return x.tag < y.tag; });
    return v;
}

}  // namespace evg::verify
