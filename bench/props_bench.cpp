// Property cases per second: random small problems (M, N up to one 32 x 64 tile plus one,
// K <= 65, graphs of up to 8 genes) through the whole property 1-3 check, the property suite's own function:
// case data, the kernel on the model with DynamicVisitor (run_on_model), the report's checkers, the oracle,
// and the judge. Target (a) of bench/README.md: at least 1,000 cases per second on one core
// (`cases_per_cpu_s`; run it under `taskset -c 0` for the wall figure to mean the same).
#include <benchmark/benchmark.h>
#include <rapidcheck.h>

#include <cstdint>
#include <ctime>
#include <string>

#include "alloc_count.hpp"
#include "evg/hw/device.hpp"
#include "evg/props/generators.hpp"
#include "evg/props/model_property.hpp"
#include "evg/props/runner.hpp"

namespace {

using namespace evg;
using namespace evg::props;

// One case: exactly what the property suite's main property does (props::model_matches_oracle_and_is_clean:
// the case's data, the kernel on the model through DynamicVisitor, every checker, the oracle, and the one
// judge, verify::judge, over the outputs).
void check_case(const Case& c) {
    model_matches_oracle_and_is_clean(c);
}

void BM_PropertyCases(benchmark::State& state) {
    RunConfig cfg;
    cfg.cases = static_cast<int>(state.range(0));
    cfg.seed = 1;
    cfg.shrink = false;
    cfg.gen.max_tiles = 1;
    int64_t cases = 0;
    const std::clock_t cpu0 = std::clock();  // process CPU time, every thread of the model included
    const uint64_t allocs0 = evg::bench::allocations();
    const uint64_t instrs0 = hw::Device::process_launches().instructions;
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
    // Heap allocations (operator new, alloc_count.hpp) per case and per instruction the model issued: data,
    // generation, oracle and judge included in the first, the machine's share bounded by the second.
    const auto allocs = static_cast<double>(evg::bench::allocations() - allocs0);
    const auto instrs = static_cast<double>(hw::Device::process_launches().instructions - instrs0);
    state.counters["allocs_per_case"] = cases > 0 ? allocs / static_cast<double>(cases) : 0.0;
    state.counters["allocs_per_instr"] = instrs > 0 ? allocs / instrs : 0.0;
}
BENCHMARK(BM_PropertyCases)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
