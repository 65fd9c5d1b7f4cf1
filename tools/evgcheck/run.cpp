// evgcheck run GRAPH: the full kernel on the model, checked by every checker and against the oracle.
#include <algorithm>
#include <array>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "args.hpp"
#include "catlass/epilogue/fusion/upstream_hazards.hpp"
#include "commands.hpp"
#include "evg/hw/error.hpp"
#ifdef EVGCHECK_HAS_REPORTS
#include "evg/reports/cycle_summary.hpp"
#include "evg/reports/timeline.hpp"
#endif
#include "load.hpp"
#include "problem_options.hpp"
#include "run_problem.hpp"

namespace evgcheck {

namespace {

constexpr std::array kRunOptions = {
    kArchOption,
    kMOption,
    kNOption,
    kKOption,
    kClOption,
    kPathOption,
    OptionSpec{"seed", "S", "seed of the input data (default 1)"},
    OptionSpec{"data", "exact|uniform|special",
               "input data: small integers the oracle must match bit for bit (default), uniform reals, or "
               "reals with NaN/inf/subnormal/tie values and values that overflow half/bfloat16"},
    OptionSpec{"cores", "N", "AI cores launched (default 2)"},
    OptionSpec{"scheduler-seed", "S", "run the adversarial scheduler with this seed (default: in order)"},
    OptionSpec{
        "mutate", "TEXT",
        "rewrite sync calls as they are issued, e.g. 'drop-wait core=AIV0.1 n=7' (several: ';'-separated)"},
    OptionSpec{"list-mutations", "", "list every sync mutation point of this run (each a --mutate text)"},
    kCheckOption,
    kFpOption,
    OptionSpec{
        "hazard", "NAME[,NAME]",
        "switch on upstream Catlass's behaviour for a hazard, by its name in docs/hazards.md (a name that is "
        "none lists them)"},
    OptionSpec{"json", "FILE", "also write the report as JSON"},
    OptionSpec{"timeline", "FILE.json|FILE.html",
               "time the run with the cycle model (docs/cycle-model.md), print its summary and write the "
               "timeline: Chrome trace / Perfetto JSON, or a self-contained page"},
    OptionSpec{"timeout", "SECONDS", "give up after this long (default 300)"},
    kMaxMemoryOption,
    kMaxWorkOption,
    OptionSpec{"help", "", "print this help"},
};

constexpr const char* kRunUsage =
    "Usage: evgcheck run GRAPH [options]\n"
    "\n"
    "Runs GRAPH's epilogue behind a GEMM on the model of the Ascend AI core: the real Catlass\n"
    "BlockEpilogue and kernel with the graph as a DynamicVisitor. Every checker watches the run (races,\n"
    "event flags, UB bounds, uninitialised data); then one judge (lib/verify, the same as the property\n"
    "suite's and the conformance catalogue's) decides: no violation, the UB peak equal to its exact\n"
    "prediction, SetFlag/WaitFlag balanced, every output element written (outputs start as a sentinel)\n"
    "and equal to the oracle as strictly as the graph allows (bit-exact, within the functor's ULP\n"
    "bound, the summation bound of a float Add reduction, or Catlass's tolerance). Each finding is\n"
    "printed with its tag ([violation], [ub_peak], [unwritten_output], ...); PASS means none.\n"
    "GRAPH is a graph file (docs/graph-format.md: grammar, every node, examples), or - for standard\n"
    "input; a `problem` line in it sets the chip, the shapes and computeLength, and the options below\n"
    "override it. Exit code: 0 no finding, 1 a finding, 2 bad input, 3 internal error or timeout.\n"
    "\n";

DataMode parse_data_mode(const Args& args) {
    constexpr std::string_view kModes[] = {"exact", "uniform", "special"};
    const std::string v = args.choice("data", kModes).value_or("exact");
    return v == "exact" ? DataMode::Exact : v == "uniform" ? DataMode::Uniform : DataMode::Special;
}

}  // namespace

int run_command(std::span<const char* const> argv) {
    const Args args = Args::parse(argv, kRunOptions, "run", 1);
    if (args.has("help")) {
        std::cout << kRunUsage << options_help(kRunOptions);
        return kExitOk;
    }
    if (args.positional().empty()) {
        throw UsageError("evgcheck run: expected a GRAPH file (see evgcheck run --help)");
    }
    const Overrides overrides = read_overrides(args, "run");
    RunSettings settings;
    settings.seed = static_cast<uint64_t>(args.integer("seed", 0, (1LL << 62)).value_or(1));
    settings.mode = parse_data_mode(args);
    settings.cores = static_cast<uint32_t>(args.integer("cores", 1, 64).value_or(2));
    settings.scheduler_seed =
        static_cast<uint64_t>(args.integer("scheduler-seed", 1, (1LL << 62)).value_or(0));
    settings.limits = read_limits(args);
    if (const auto m = args.get("mutate")) {
        try {
            settings.mutations = evg::hw::parse_sync_mutations(*m);
        } catch (const evg::Error& e) {
            throw UsageError(std::string("evgcheck run: option --mutate: ") + e.what());
        }
    }
    settings.list_mutation_points = args.has("list-mutations");
    settings.checks = read_checks(args, "run");
    read_fp(args, "run");
    if (const auto h = args.get("hazard")) {
        const std::string& names = *h;
        for (size_t start = 0; start <= names.size();) {
            const size_t comma = std::min(names.find(',', start), names.size());
            std::string name = names.substr(start, comma - start);
            Catlass::Epilogue::Fusion::UpstreamHazards probe;
            if (!Catlass::Epilogue::Fusion::set_upstream_hazard(probe, name)) {
                std::string known;
                for (const auto& n : Catlass::Epilogue::Fusion::kUpstreamHazardNames)
                    known += (known.empty() ? "" : ", ") + std::string(n.name);
                throw UsageError(fmt::format(
                    "evgcheck run: option --hazard: no upstream hazard is called '{}' (known: {})", name,
                    known));
            }
            settings.hazards.push_back(std::move(name));
            start = comma + 1;
        }
    }
    const double timeout = args.seconds("timeout", 86400).value_or(300);
    const std::optional<std::string> json_path = args.get("json");
    if (json_path) check_output_file(*json_path, "json", "run");
    const std::optional<std::string> timeline_path = args.get("timeline");
    if (timeline_path) {
#ifndef EVGCHECK_HAS_REPORTS
        throw UsageError("evgcheck run: option --timeline: this evgcheck was built without reports/");
#endif
        check_timeline_file(*timeline_path, "run");
        settings.timeline = true;
#ifdef EVGCHECK_HAS_REPORTS
        settings.cycle_summary = evg::reports::cycle_summary_text;
#endif
    }
    arm_time_budget(timeout, "--timeout");

    const SourceFile src = read_source(args.positional()[0]);
    const RunOutcome outcome = run_problem(src, overrides, settings, std::cerr);
    const nlohmann::json& j = outcome.json;
    const bool ok = outcome.ok;
    std::cout << outcome.text;
#ifdef EVGCHECK_HAS_REPORTS
    if (timeline_path && outcome.timed) {
        const TimedRun& t = *outcome.timed;
        const std::string problem_line =
            j.value("problem", std::string()).substr(0, j.value("problem", std::string()).find('\n'));
        const evg::reports::TimelineInput in{t.trace, t.timeline, t.node_labels,
                                             src.path + " (" + problem_line + ")", t.summary};
        std::ofstream f(*timeline_path);
        if (timeline_path->ends_with(".html"))
            evg::reports::write_timeline_html(f, in);
        else
            evg::reports::write_timeline_json(f, in);
        if (!f.flush())
            throw UsageError("evgcheck run: option --timeline: cannot write '" + *timeline_path + "'");
        std::cout << "timeline: " << *timeline_path << "\n";
    }
#endif
    if (json_path) {
        std::ofstream f(*json_path);
        if (!f || !(f << j.dump(2) << "\n")) {
            throw UsageError("evgcheck run: option --json: cannot write '" + *json_path + "'");
        }
    }
    return ok ? kExitOk : kExitFailed;
}

}  // namespace evgcheck
