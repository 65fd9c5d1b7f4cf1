// The upstream corpus (upstream/corpus/, label `upstream`) as figures: runtime cases per CPU-second of its
// property (upstream's kernel judged against the oracle, and evgcheck's copy beside it), and of upstream's
// run alone. Built when a Catlass checkout is configured (EVG_CATLASS_ROOT); run
// `build/release/bench/evg_bench_upstream_corpus`.
#include <benchmark/benchmark.h>

#include <ctime>
#include <string_view>
#include <vector>

#include "corpus_check.hpp"
#include "evg/props/regression.hpp"
#include "evg/props/runner.hpp"

namespace {

using namespace evg;
using namespace evg::upstream::corpus;

verify::KnownFindings& known() {
    static verify::KnownFindings k = verify::KnownFindings::read(EVG_UPSTREAM_KNOWN_FINDINGS);
    return k;
}

// state.range(0) runtime cases of the first state.range(1) random instances (0: every one), through `body`.
template <class Body>
void run_cases(benchmark::State& state, Body body) {
    std::vector<Instance> instances = random_instances();
    if (state.range(1) > 0 && static_cast<size_t>(state.range(1)) < instances.size())
        instances.resize(static_cast<size_t>(state.range(1)));
    int64_t cases = 0;
    const std::clock_t cpu0 = std::clock();
    for (auto _ : state) {
        for (const Instance& instance : instances) {
            props::RunConfig cfg;
            cfg.cases = static_cast<int>(state.range(0));
            cfg.seed = 35 + static_cast<uint64_t>(instance.index);
            cfg.shrink = false;
            cfg.case_source = runtime_cases(props::case_from_text(instance.text));
            const props::Outcome o = props::check_property(
                "bench", [&](const props::Case& c) { body(instance, c); }, cfg);
            if (!o.ok) {
                state.SkipWithError(o.report.c_str());
                return;
            }
            cases += o.passed;
        }
    }
    const double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
    state.counters["instances"] = static_cast<double>(instances.size());
    state.counters["cases_per_cpu_s"] = cpu > 0 ? static_cast<double>(cases) / cpu : 0.0;
}

// The whole property: upstream's run, the oracle, the judge, evgcheck's run.
void BM_UpstreamCorpusProperty(benchmark::State& state) {
    run_cases(state, [](const Instance& i, const props::Case& c) {
        upstream_matches_oracle_and_evgcheck(i, c, known());
    });
}
BENCHMARK(BM_UpstreamCorpusProperty)
    ->Args({10, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

// The property again, with the CPU time of each of its steps (PropertySteps) as milliseconds per case:
// where a case's time goes, the profile that the figure above is improved from.
void BM_UpstreamCorpusSteps(benchmark::State& state) {
    PropertySteps steps;
    PropertySteps::sink = &steps;
    int64_t cases = 0;
    run_cases(state, [&](const Instance& i, const props::Case& c) {
        upstream_matches_oracle_and_evgcheck(i, c, known());
        ++cases;
    });
    PropertySteps::sink = nullptr;
    const double per_case_ms = cases > 0 ? 1e3 / static_cast<double>(cases) : 0.0;
    state.counters["data_ms"] = steps.data * per_case_ms;
    state.counters["ours_ms"] = steps.ours * per_case_ms;
    state.counters["theirs_ms"] = steps.theirs * per_case_ms;
    state.counters["oracle_ms"] = steps.oracle * per_case_ms;
    state.counters["judge_ms"] = steps.judge * per_case_ms;
    state.counters["twin_ms"] = steps.twin * per_case_ms;
    const double per_case = cases > 0 ? 1.0 / static_cast<double>(cases) : 0.0;
    state.counters["ours_instr"] = static_cast<double>(steps.ours_instructions) * per_case;
    state.counters["theirs_instr"] = static_cast<double>(steps.theirs_instructions) * per_case;
}
BENCHMARK(BM_UpstreamCorpusSteps)->Args({10, 0})->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

// Upstream's kernel on the model alone (the request built from the case's data).
void BM_UpstreamCorpusRunOnly(benchmark::State& state) {
    run_cases(state, [](const Instance& i, const props::Case& c) {
        const verify::CaseData data = verify::make_case_data(c.problem, c.data, c.data_seed, c.sign);
        benchmark::DoNotOptimize(i.run(make_request(c, data)));
    });
}
// The figure: 10 cases of every instance. The smoke test (ctest bench_smoke_upstream_corpus): 2 cases of 4.
BENCHMARK(BM_UpstreamCorpusRunOnly)
    ->Args({10, 0})
    ->Args({2, 4})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

// evgcheck's copy alone, as the property runs it (corpus_check.cpp, run_evgcheck_copy: in issue order, no
// checker, no trace), with the case's data made first.
void BM_UpstreamCorpusOursOnly(benchmark::State& state) {
    run_cases(state, [](const Instance&, const props::Case& c) {
        const verify::CaseData data = verify::make_case_data(c.problem, c.data, c.data_seed, c.sign);
        benchmark::DoNotOptimize(run_evgcheck_copy(c, data));
    });
}
BENCHMARK(BM_UpstreamCorpusOursOnly)
    ->Args({10, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

// Upstream's run alone with one checker off (state.range(2): 0 none off, as the property runs it; 1 race,
// 2 uninit, 3 fp, 4 dcache, 5 flags, 6 memory; 7 every checker off): what each checker costs a corpus case,
// the difference of its figure from the first. A checker that decides what runs (flags, memory, uninit:
// twin_request in corpus_check.cpp) changes the run a little as well as its cost.
void BM_UpstreamCorpusRunChecks(benchmark::State& state) {
    const int64_t off = state.range(2);
    run_cases(state, [off](const Instance& i, const props::Case& c) {
        const verify::CaseData data = verify::make_case_data(c.problem, c.data, c.data_seed, c.sign);
        RunRequest rq = make_request(c, data);
        hw::CheckerConfig& k = rq.config.checks;
        if (off == 1) k.race = false;
        if (off == 2) k.uninit = false;
        if (off == 3) k.fp = false;
        if (off == 4) k.dcache = false;
        if (off == 5) k.flags = false;
        if (off == 6) k.memory = false;
        if (off == 7) k = hw::CheckerConfig::none();
        benchmark::DoNotOptimize(i.run(rq));
    });
}
BENCHMARK(BM_UpstreamCorpusRunChecks)
    ->ArgsProduct({{10}, {0}, {0, 1, 2, 3, 4, 5, 6, 7}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

}  // namespace
