// EVG against hand-fused epilogues on the cycle model (bench/README.md "EVG against
// hand-fused"). One benchmark per seed example case (conformance/examples/hand_fused: example, chip, shape,
// computeLength). The figures are the modelled cycles, not the wall time of the model: the counters of a case
// are
//   evg_cycles, hand_cycles        total cycles of the launch (evg::hw::timing::simulate)
//   evg_over_hand                  evg_cycles / hand_cycles
//   evg_over_roofline              evg_cycles / the EVG run's roofline (its busiest pipe's busy time)
//   hand_over_roofline             the same for the hand-fused run
//   evg_epilogue, hand_epilogue    the busiest AIV's time with MTE2, V or MTE3 busy
//   evg_v_barriers, hand_v_barriers PipeBarrier<PIPE_V> issued by the AIVs
// A case whose checks fail (a finding, outputs not bit-identical, a judge finding) is reported as an error.
// --benchmark_filter=m65_n100 keeps the representative shape (CL 256 and the seed's own computeLength).
#include <benchmark/benchmark.h>

#include <string>

#include "comparison.hpp"

namespace {

void run_case(benchmark::State& state, const evg::hand_fused::CaseSpec* spec) {
    evg::hand_fused::Comparison c;
    for (auto _ : state) c = spec->run();
    if (!c.ok()) {
        state.SkipWithError(c.problems.front().c_str());
        return;
    }
    state.counters["evg_cycles"] = static_cast<double>(c.evg.total);
    state.counters["hand_cycles"] = static_cast<double>(c.hand.total);
    state.counters["evg_over_hand"] = c.evg_over_hand();
    state.counters["evg_over_roofline"] = c.evg_over_roofline();
    state.counters["hand_over_roofline"] = c.hand_over_roofline();
    state.counters["evg_epilogue"] = static_cast<double>(c.evg.epilogue);
    state.counters["hand_epilogue"] = static_cast<double>(c.hand.epilogue);
    state.counters["evg_v_barriers"] = static_cast<double>(c.evg.v_barriers);
    state.counters["hand_v_barriers"] = static_cast<double>(c.hand.v_barriers);
}

const bool registered = [] {
    for (const evg::hand_fused::CaseSpec& c : evg::hand_fused::all_cases())
        benchmark::RegisterBenchmark(("BM_EvgVsHand/" + c.example + "/" + c.config).c_str(), run_case, &c)
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond);
    return true;
}();

}  // namespace

BENCHMARK_MAIN();
