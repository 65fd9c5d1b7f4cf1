#include "run_problem.hpp"

#include <fmt/format.h>

#include <ostream>
#include <sstream>

#include "evg/graph/error.hpp"
#include "evg/graph/text.hpp"
#include "evg/graph/ub_budget.hpp"
#include "evg/graph/validate.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/verify/compare.hpp"
#include "evg/verify/data.hpp"
#include "evg/verify/judge.hpp"
#include "model.hpp"

namespace evgcheck {

namespace g = evg::graph;
namespace o = evg::oracle;

RunOutcome run_problem(const SourceFile& src, const Overrides& overrides, const RunSettings& settings,
                       std::ostream& warnings) {
    const g::Problem problem = make_problem(src, overrides);
    validate_or_throw(src, g::validate(problem), warnings);
    check_ranges(src, problem);
    check_limits(estimate_run(problem, settings.list_mutation_points, settings.timeline), settings.limits,
                 src.path);

    std::ostringstream out;
    const std::string problem_text = g::print(problem);
    out << problem_text.substr(0, problem_text.find('\n')) << "\n";
    const g::UbBudget budget = g::ub_budget(problem);
    out << "graph: " << problem.graph.nodes.size() << " nodes, " << problem.graph.tensors.size()
        << (problem.graph.tensors.size() == 1 ? " tensor" : " tensors") << "; UB " << g::thousands(budget.end)
        << " B of " << g::thousands(budget.ub_size) << " B (computeLength " << problem.compute_length
        << ", largest that fits " << budget.max_compute_length << ")\n";
    const evg::verify::CaseData data = evg::verify::make_case_data(problem, settings.mode, settings.seed);
    out << "data: " << data.description << "; seed " << settings.seed << "\n";

    o::OracleResult golden;
    try {
        golden = o::evaluate(problem, data.inputs, evg::verify::values_the_judge_reads(problem));
    } catch (const ::evg::Error& e) {
        throw InputError(src.path + ": the oracle cannot evaluate the problem: " + e.what());
    }

    nlohmann::json j;
    j["file"] = src.path;
    j["problem"] = problem_text;
    j["seed"] = settings.seed;
    j["data"] = data.description;
    j["exact_data"] = data.exact_data;

    ModelOptions mo;
    mo.block_dim = settings.cores;
    mo.scheduler_seed = settings.scheduler_seed;
    mo.mutations = settings.mutations;
    mo.list_mutation_points = settings.list_mutation_points;
    mo.checks = settings.checks;
    mo.timeline = settings.timeline;
    mo.source = src.path;
    for (const std::string& h : settings.hazards)
        if (!Catlass::Epilogue::Fusion::set_upstream_hazard(mo.hazards, h))
            throw InputError("unknown upstream hazard '" + h + "'");
    if (!settings.hazards.empty()) {
        out << "upstream hazards on:";
        for (const std::string& h : settings.hazards) out << " " << h;
        out << "\n";
    }
    ModelRun run;
    try {
        run = run_model(problem, data.inputs, mo);
    } catch (const g::GraphError& e) {
        throw InputError(src.path + ": the model cannot run this problem: " + e.what());
    }
    // The judge (lib/verify) decides; everything below only reports its Verdict.
    evg::verify::JudgeOptions jo;
    jo.exact_data = data.exact_data;
    jo.whole_cl = mo.hazards.compute_over_compute_length;
    const evg::verify::Verdict verdict = evg::verify::judge(problem, run.run, golden, jo);
    const bool ok = verdict.clean();
    const evg::hw::Report& rep = run.run.report;
    out << "model: " << (rep.clean() ? "clean" : "VIOLATIONS") << ", " << rep.stats.instructions
        << " instructions on " << rep.block_dim << (rep.block_dim == 1 ? " core" : " cores") << ", UB peak "
        << g::thousands(rep.stats.ub_peak) << " B (predicted: " << g::thousands(verdict.ub_predicted)
        << " B; accounting: " << g::thousands(run.run.predicted_ub_end) << " B)\n";
    if (!rep.violations.empty() || !rep.mutations_unapplied.empty())
        out << rep.text() << "\n";
    else
        out << rep.schedule_text();  // the adversarial scheduler's statistics, as the JSON has them
    if (!settings.mutations.empty())
        out << "sync mutations: " << evg::hw::to_string(settings.mutations) << "\n";
    if (!settings.checks.empty()) out << "opt-in checkers on: " << settings.checks << "\n";
    if (settings.list_mutation_points) {
        out << run.mutation_points.size() << " mutation point(s); each replays with --mutate '<text>':\n";
        for (const auto& m : run.mutation_points) out << "  " << evg::hw::to_string(m) << "\n";
    }
    std::optional<TimedRun> timed;
    if (settings.timeline) {
        // The cycle model reads the finished run's trace: it changes nothing above.
        const evg::hw::timing::Launch launch{problem.arch, rep.block_dim, evg::hw::KernelType::mix_aic_1_2};
        timed.emplace();
        timed->timeline = evg::hw::timing::simulate(run.run.trace, launch);
        if (settings.cycle_summary)
            timed->summary = settings.cycle_summary(timed->timeline, run.run.trace, launch);
        timed->node_labels = rep.node_labels;
        out << timed->summary;
        const evg::hw::timing::Summary& s = timed->timeline.summary;
        nlohmann::json pipes = nlohmann::json::array();
        for (const evg::hw::timing::PipeTime& p : s.pipes)
            pipes.push_back({{"core", launch.core_name(p.core)},
                             {"pipe", std::string(evg::hw::pipe_name(p.pipe))},
                             {"instructions", p.instructions},
                             {"busy", p.busy},
                             {"stall", p.stall},
                             {"idle", p.idle}});
        j["cycles"] = {{"total", s.total},
                       {"clock_ghz", s.clock_ghz},
                       {"complete", timed->timeline.complete},
                       {"pipes", pipes},
                       {"overlap", s.overlap},
                       {"critical_path_instructions", s.critical_path.size()},
                       {"roofline_core", launch.core_name(s.roofline_core)},
                       {"roofline_pipe", std::string(evg::hw::pipe_name(s.roofline_pipe))},
                       {"roofline", s.roofline},
                       {"roofline_ratio", s.roofline_ratio}};
    }
    j["model"] = nlohmann::json::parse(rep.json());
    j["comparisons"] = nlohmann::json::array();
    for (const evg::verify::OutputCheck& c : verdict.outputs) {
        std::string reason = c.reason;
        if (reason.starts_with(c.tensor + ": ")) reason.erase(0, c.tensor.size() + 2);
        out << c.tensor << ": " << (c.ok ? "equal" : "DIFFERENT") << " (" << reason << "); " << c.nan
            << " NaN, " << c.inf << " infinite\n";
        if (!c.summary.empty()) {
            std::string summary = c.summary;
            while (!summary.empty() && summary.back() == '\n') summary.pop_back();
            out << "  " << summary << "\n";
        }
        j["comparisons"].push_back({{"tensor", c.tensor},
                                    {"mode", c.mode},
                                    {"reason", c.reason},
                                    {"compared", c.compared},
                                    {"mismatches", c.mismatches},
                                    {"unwritten", c.unwritten},
                                    {"max_ulp", c.max_ulp},
                                    {"nan", c.nan},
                                    {"inf", c.inf},
                                    {"ok", c.ok}});
    }
    j["findings"] = nlohmann::json::array();
    for (const evg::verify::Finding& f : verdict.findings)
        j["findings"].push_back({{"tag", std::string(evg::verify::tag_name(f.tag))},
                                 {"message", f.message},
                                 {"tensor", f.tensor},
                                 {"node", f.node}});
    if (!verdict.clean()) out << verdict.findings.size() << " finding(s):\n" << verdict.text();
    // The result line says when an output holds NaN or infinity, so that a PASS over them is not read as a
    // PASS over finite numbers.
    std::string special;
    for (const evg::verify::OutputCheck& c : verdict.outputs)
        if (c.nan + c.inf > 0)
            special +=
                fmt::format("{}{} {} NaN, {} infinite", special.empty() ? "" : "; ", c.tensor, c.nan, c.inf);
    out << "result: " << (ok ? "PASS" : "FAIL") << (special.empty() ? "" : " (" + special + ")") << "\n";
    j["ok"] = ok;
    if (timed) timed->trace = std::move(run.run.trace);
    return RunOutcome{out.str(), std::move(j), ok, std::move(timed)};
}

}  // namespace evgcheck
