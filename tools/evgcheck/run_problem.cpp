#include "run_problem.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>

#include "evg/graph/error.hpp"
#include "evg/graph/text.hpp"
#include "evg/graph/ub_budget.hpp"
#include "evg/graph/validate.hpp"
#include "evg/oracle/compare.hpp"
#include "evg/oracle/data.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/oracle/tolerance.hpp"
#include "model.hpp"

namespace evgcheck {

namespace g = evg::graph;
namespace o = evg::oracle;

namespace {

// A strided tensor's buffer ends with its last row's data: (rows - 1) * row_stride + cols elements.
std::size_t buffer_elements(const g::Tensor& t) {
    if (t.rows == 0) return 0;
    return static_cast<std::size_t>((t.rows - 1) * std::max(t.row_stride, t.cols) + t.cols);
}

// The reduce functor of the first node that writes the tensor (reduce outputs start from its identity).
std::optional<g::Functor> reduce_fn_of(const g::Graph& graph, const std::string& name) {
    for (const g::Node& n : graph.nodes) {
        if (n.tensor == name && g::writes_tensor(n.kind)) {
            if (g::is_reduce(n.kind)) return n.fn;
            return std::nullopt;
        }
    }
    return std::nullopt;
}

struct Data {
    o::Inputs inputs;
    bool exact_friendly = false;
    std::string description;
};

Data make_data(const g::Problem& p, DataMode mode, uint64_t seed) {
    Data d;
    uint64_t stream = seed * 1000003u;
    o::HostTensor a(p.a, static_cast<std::size_t>(p.m * p.k));
    o::HostTensor b(p.b, static_cast<std::size_t>(p.k * p.n));
    const int64_t r = std::min<int64_t>(o::exact_gemm_range(p.k, p.a == p.b ? p.a : g::DType::f32, p.c), 3);
    if (mode == DataMode::Exact && r > 0) {
        o::fill_integers(a, -r, r, ++stream);
        o::fill_integers(b, -r, r, ++stream);
        d.exact_friendly = true;
        d.description = "exact-friendly: integers in [-" + std::to_string(r) + ", " + std::to_string(r) +
                        "] for A and B, in [-3, 3] for the inputs";
    } else if (mode == DataMode::Special) {
        o::fill_uniform(a, -1, 1, ++stream);
        o::fill_uniform(b, -1, 1, ++stream);
        d.description =
            "uniform reals in [-1, 1) for A and B; the inputs with special values (NaN, inf, "
            "subnormals, ties)";
    } else {
        o::fill_uniform(a, -1, 1, ++stream);
        o::fill_uniform(b, -1, 1, ++stream);
        d.description = mode == DataMode::Exact
                            ? "uniform reals (K too long for exact-friendly integers)"
                            : "uniform reals: [-1, 1) for A and B, [-2, 2) for the inputs";
    }
    d.inputs.emplace("A", std::move(a));
    d.inputs.emplace("B", std::move(b));
    for (const g::Tensor& t : p.graph.tensors) {
        o::HostTensor h(t.element, buffer_elements(t));
        if (t.role == g::TensorRole::Input) {
            if (d.exact_friendly) {
                o::fill_integers(h, -3, 3, ++stream);
            } else if (mode == DataMode::Special) {
                o::fill_special(h, ++stream);
            } else {
                o::fill_uniform(h, -2, 2, ++stream);
            }
        } else if (const auto fn = reduce_fn_of(p.graph, t.name); fn && *fn != g::Functor::Add) {
            const o::Real init =
                *fn == g::Functor::Max ? o::dtype_lowest(t.element) : o::dtype_max(t.element);
            for (std::size_t i = 0; i < h.size(); ++i) h.set_value(i, init);
        }
        d.inputs.emplace(t.name, std::move(h));
    }
    return d;
}

}  // namespace

RunOutcome run_problem(const SourceFile& src, const Overrides& overrides, const RunSettings& settings,
                       std::ostream& warnings) {
    const g::Problem problem = make_problem(src, overrides);
    validate_or_throw(src, g::validate(problem), warnings);
    check_ranges(src, problem);
    check_limits(estimate_run(problem), settings.limits, src.path);

    std::ostringstream out;
    const std::string problem_text = g::print(problem);
    out << problem_text.substr(0, problem_text.find('\n')) << "\n";
    const g::UbBudget budget = g::ub_budget(problem);
    out << "graph: " << problem.graph.nodes.size() << " nodes, " << problem.graph.tensors.size()
        << (problem.graph.tensors.size() == 1 ? " tensor" : " tensors") << "; UB " << g::thousands(budget.end)
        << " B of " << g::thousands(budget.ub_size) << " B (computeLength " << problem.compute_length
        << ", largest that fits " << budget.max_compute_length << ")\n";
    const Data data = make_data(problem, settings.mode, settings.seed);
    out << "data: " << data.description << "; seed " << settings.seed << "\n";

    o::OracleResult golden;
    try {
        golden = o::evaluate(problem, data.inputs);
    } catch (const ::evg::Error& e) {
        throw InputError(src.path + ": the oracle cannot evaluate the problem: " + e.what());
    }

    nlohmann::json j;
    j["file"] = src.path;
    j["problem"] = problem_text;
    j["seed"] = settings.seed;
    j["data"] = data.description;
    j["exact_friendly"] = data.exact_friendly;

    bool ok = true;
    ModelOptions mo;
    mo.block_dim = settings.cores;
    mo.scheduler_seed = settings.scheduler_seed;
    mo.mutations = settings.mutations;
    mo.list_mutation_points = settings.list_mutation_points;
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
    {
        const evg::hw::Report& rep = run.report;
        out << "model: " << (rep.clean() ? "clean" : "VIOLATIONS") << ", " << rep.stats.instructions
            << " instructions on " << rep.block_dim << (rep.block_dim == 1 ? " core" : " cores")
            << ", UB peak " << g::thousands(rep.stats.ub_peak)
            << " B (accounting: " << g::thousands(run.predicted_ub_end) << " B)\n";
        if (!rep.violations.empty() || !rep.mutations_unapplied.empty()) out << rep.text() << "\n";
        if (!settings.mutations.empty()) {
            out << "sync mutations: " << evg::hw::to_string(settings.mutations) << "\n";
            if (!rep.mutations_unapplied.empty()) ok = false;
        }
        if (settings.list_mutation_points) {
            out << run.mutation_points.size() << " mutation point(s); each replays with --mutate '<text>':\n";
            for (const auto& m : run.mutation_points) out << "  " << evg::hw::to_string(m) << "\n";
        }
        if (!rep.clean()) ok = false;
        if (rep.stats.ub_peak > budget.ub_size || rep.stats.ub_peak > run.predicted_ub_end) {
            out << "UB: the peak is above UbAccounting's requirement\n";
            ok = false;
        }
        j["model"] = nlohmann::json::parse(rep.json());
        j["comparisons"] = nlohmann::json::array();
        for (const g::Tensor& t : problem.graph.tensors) {
            if (t.role != g::TensorRole::Output) continue;
            const auto it = run.outputs.find(t.name);
            if (it == run.outputs.end()) {
                out << t.name << ": the model returned no buffer\n";
                ok = false;
                continue;
            }
            const o::ComparePlan plan = o::plan_comparison(problem, t.name, data.exact_friendly);
            const o::CompareResult cmp = o::compare(t.name, it->second, golden.output(t.name),
                                                    o::Region{t.rows, t.cols, t.row_stride}, plan.options);
            std::string reason = plan.reason;
            if (reason.starts_with(t.name + ": ")) reason.erase(0, t.name.size() + 2);
            out << t.name << ": " << (cmp.ok() ? "equal" : "DIFFERENT") << " (" << reason << ")\n  "
                << cmp.to_string(plan.options.mode) << "\n";
            if (!cmp.ok()) ok = false;
            j["comparisons"].push_back({{"tensor", t.name},
                                        {"mode", o::compare_mode_name(plan.options.mode)},
                                        {"reason", plan.reason},
                                        {"compared", cmp.compared},
                                        {"mismatches", cmp.mismatches},
                                        {"max_ulp", cmp.max_ulp},
                                        {"ok", cmp.ok()}});
        }
    }
    out << "result: " << (ok ? "PASS" : "FAIL") << "\n";
    j["ok"] = ok;
    return RunOutcome{out.str(), std::move(j), ok};
}

}  // namespace evgcheck
