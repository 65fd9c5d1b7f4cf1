// Property cases per second: random small problems (M, N up to one 32 x 64 tile plus one,
// K <= 65, graphs of up to 8 genes) through the whole property 1-3 check: case data, the kernel on the model
// with DynamicVisitor (run_on_model), the report's checkers, the oracle, and the output comparison. Target:
// at least 200 cases per second on one core (run it under `taskset -c 0`).
#include <benchmark/benchmark.h>
#include <rapidcheck.h>

#include <cstdint>
#include <ctime>
#include <string>

#include "evg/graph/run.hpp"
#include "evg/oracle/compare.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/oracle/numeric.hpp"
#include "evg/oracle/tolerance.hpp"
#include "evg/props/generators.hpp"
#include "evg/props/runner.hpp"

namespace {

using namespace evg;
using namespace evg::props;

// One case: run, checkers, oracle, comparison (as the property does; Add reductions are not compared here,
// their summation-order bound is the property's business).
void check_case(const Case& c) {
    const oracle::Inputs inputs = make_inputs(c);
    graph::RunInputs in;
    for (const auto& [name, t] : inputs) {
        const auto* b = reinterpret_cast<const uint8_t*>(t.bytes().data());
        in.tensors[name] = std::vector<uint8_t>(b, b + t.bytes().size());
    }
    graph::RunOptions opt;
    opt.block_dim = c.cores;
    opt.config.scheduler = c.sched_seed ? hw::SchedulerKind::adversarial : hw::SchedulerKind::in_order;
    opt.config.seed = c.sched_seed;
    const graph::ModelRun m = graph::run_on_model(c.problem, in, opt);
    RC_ASSERT(m.report.clean());
    const oracle::OracleResult golden = oracle::evaluate(c.problem, inputs);
    for (const graph::Tensor& t : c.problem.graph.tensors) {
        if (t.role != graph::TensorRole::Output) continue;
        bool add_reduce = false, written = false;
        for (std::size_t i = 0; i < c.problem.graph.nodes.size(); ++i) {
            const graph::Node& n = c.problem.graph.nodes[i];
            if (n.tensor != t.name || !golden.nodes[i].evaluated) continue;
            written = true;
            add_reduce |= graph::is_reduce(n.kind) && n.fn == graph::Functor::Add;
        }
        if (!written || add_reduce) continue;
        const oracle::ComparePlan plan = oracle::plan_comparison(c.problem, t.name, false);
        const std::vector<uint8_t>& bytes = m.outputs.at(t.name);
        oracle::HostTensor got(t.element,
                               bytes.size() / static_cast<std::size_t>(oracle::dtype_bytes(t.element)));
        std::copy(bytes.begin(), bytes.end(), reinterpret_cast<uint8_t*>(got.bytes().data()));
        benchmark::DoNotOptimize(oracle::compare(t.name, got, golden.output(t.name),
                                                 {t.rows, t.cols, t.row_stride}, plan.options));
    }
}

void BM_PropertyCases(benchmark::State& state) {
    RunConfig cfg;
    cfg.cases = static_cast<int>(state.range(0));
    cfg.seed = 1;
    cfg.shrink = false;
    cfg.gen.max_tiles = 1;
    int64_t cases = 0;
    const std::clock_t cpu0 = std::clock();  // process CPU time, every thread of the model included
    for (auto _ : state) {
        const Outcome o = check_property("bench", check_case, cfg);
        if (!o.ok) {
            state.SkipWithError(o.report.c_str());
            break;
        }
        cases += o.passed;
        ++cfg.seed;
    }
    const double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
    state.counters["cases_per_s"] =
        benchmark::Counter(static_cast<double>(cases), benchmark::Counter::kIsRate);
    // Per second of CPU: what one otherwise idle core gives (on a shared machine the wall clock includes
    // other jobs' time).
    state.counters["cases_per_cpu_s"] = cpu > 0 ? static_cast<double>(cases) / cpu : 0.0;
}
BENCHMARK(BM_PropertyCases)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

#ifndef EVG_BENCH_NO_MAIN  // evg_bench_all links every benchmark of issue 11 into one binary with one main
BENCHMARK_MAIN();
#endif
