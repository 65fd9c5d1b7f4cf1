#include "model.hpp"

#include "evg/graph/run.hpp"
#include "evg/hw/checker.hpp"
#include "evg/verify/data.hpp"

namespace evgcheck {

namespace g = evg::graph;
namespace o = evg::oracle;

ModelRun run_model(const g::Problem& problem, const o::Inputs& inputs, const ModelOptions& options) {
    const g::RunInputs in = evg::verify::run_inputs(inputs);
    g::RunOptions ro;
    ro.block_dim = options.block_dim;
    ro.config.arch = problem.arch;
    // Only the mutation points are read from the trace (the judge balances SetFlag/WaitFlag over the
    // report's counts): without them, a long graph runs in memory bounded by its size, not its length.
    ro.config.keep_trace = options.list_mutation_points || options.timeline;
    // The cycle model charges copies and vector instructions by the bytes they touch.
    ro.config.trace_accesses = options.timeline;
    ro.config.mutations = options.mutations;
    evg::hw::enable_checks(ro.config.checks, options.checks);
    ro.source = options.source;
    if (options.scheduler_seed != 0) {
        ro.config.scheduler = evg::hw::SchedulerKind::adversarial;
        ro.config.seed = options.scheduler_seed;
    }
    g::ModelRun run = [&] {
        const Catlass::Epilogue::Fusion::ScopedUpstreamHazards on(options.hazards);
        return g::run_on_model(problem, in, ro);
    }();
    ModelRun out;
    if (options.list_mutation_points)
        out.mutation_points = evg::hw::mutation_points(
            run.trace, problem.arch, evg::hw::KernelType::mix_aic_1_2, static_cast<int>(options.block_dim));
    out.run = std::move(run);
    return out;
}

}  // namespace evgcheck
