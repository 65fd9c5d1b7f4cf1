// Executions per second of each fuzz target's LLVMFuzzerTestOneInput over its checked-in corpus
// (fuzz/corpus/<target>/), one thread, built with the project's compiler (no sanitizer, no coverage
// instrumentation: the figure is the target's own cost, an upper bound of a libFuzzer session's exec/s).
// Each iteration runs one corpus input, round robin; items_per_second is exec/s of wall time (the machine
// runs each simulated core on a thread of its own, so the main thread's CPU time would overstate the rate).
// The targets come from fuzz_bench_targets.inc (generated: EVG_BENCH_FUZZ_TARGET(<name>) per line, see
// evg_bench_fuzz in bench/CMakeLists.txt), each linked with its entry point renamed evg_fuzz_entry_<name>.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#define EVG_BENCH_FUZZ_TARGET(name) extern "C" int evg_fuzz_entry_##name(const uint8_t* data, size_t size);
#include "fuzz_bench_targets.inc"
#undef EVG_BENCH_FUZZ_TARGET

namespace {

namespace fs = std::filesystem;
using Entry = int (*)(const uint8_t*, size_t);

std::vector<std::vector<uint8_t>> load_corpus(const std::string& target) {
    std::vector<std::vector<uint8_t>> inputs;
    const fs::path dir = fs::path(EVG_FUZZ_CORPUS_DIR) / target;
    if (!fs::is_directory(dir)) return inputs;
    std::vector<fs::path> files;
    for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
        if (e.is_regular_file()) files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
        std::ifstream in(f, std::ios::binary);
        inputs.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    return inputs;
}

void run_target(benchmark::State& state, Entry entry, const std::string& target) {
    const std::vector<std::vector<uint8_t>> corpus = load_corpus(target);
    if (corpus.empty()) {
        state.SkipWithError(("no corpus in fuzz/corpus/" + target).c_str());
        return;
    }
    size_t i = 0;
    for (auto _ : state) {
        const std::vector<uint8_t>& in = corpus[i++ % corpus.size()];
        benchmark::DoNotOptimize(entry(in.data(), in.size()));
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
    state.counters["corpus"] = static_cast<double>(corpus.size());
}

#define EVG_BENCH_FUZZ_TARGET(name)                                    \
    BENCHMARK_CAPTURE(run_target, name, &evg_fuzz_entry_##name, #name) \
        ->Unit(benchmark::kMicrosecond)                                \
        ->UseRealTime();
#include "fuzz_bench_targets.inc"
#undef EVG_BENCH_FUZZ_TARGET

}  // namespace

BENCHMARK_MAIN();
