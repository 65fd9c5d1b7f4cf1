// The fuzz targets' speed, two ways:
//
// run_target/<target>: executions per second of the target's LLVMFuzzerTestOneInput over its checked-in
// corpus (fuzz/corpus/<target>/), one thread, built with the project's compiler (no sanitizer, no coverage
// instrumentation: the target's own cost, an upper bound of a session's exec/s). Each iteration runs one
// corpus input, round robin; items_per_second is exec/s of wall time. Counters: allocs_per_exec (operator new
// calls, alloc_count.hpp) and allocs_per_instr (per instruction the model issued, for the targets that
// launch).
//
// session/<target>: a fixed-seed libFuzzer session of the fuzz build's binary (ASan + UBSan + coverage, what
// `evgcheck fuzz` runs): `fuzz_<target> -seed=1 -max_total_time=T` from a fresh copy of the seed corpus, one
// process, with the target's timeout and libFuzzer options from its .options file as `evgcheck fuzz` passes
// them. Counters: exec_per_s (wall), exec_per_cpu_s (the child's user + system time: the figure that moves
// least when other jobs share the host), features and edges at the end, corpus size, and for the targets that
// count sync patterns (EVG_FUZZ_PATTERNS) the number of distinct patterns the session's inputs reached. The
// binaries come from EVG_FUZZ_BIN (a folder: the fuzz preset's, or the OSS-Fuzz build's out folder of
// fuzz/build.sh, so that the two builds are measured side by side) or the fuzz preset's folder
// (build/fuzz/fuzz); T is EVG_BENCH_FUZZ_SECONDS (default 60). Without the fuzz build the benchmark fails
// with the command that builds it.
//
// The targets come from fuzz_bench_targets.inc (generated: EVG_BENCH_FUZZ_TARGET(<name>) per line, see
// evg_bench_fuzz in bench/CMakeLists.txt), each linked with its entry point renamed evg_fuzz_entry_<name>.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "alloc_count.hpp"
#include "evg/hw/device.hpp"
#include "fuzz_output.hpp"

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
    const uint64_t allocs0 = evg::bench::allocations();
    const uint64_t instrs0 = evg::hw::Device::process_launches().instructions;
    for (auto _ : state) {
        const std::vector<uint8_t>& in = corpus[i++ % corpus.size()];
        benchmark::DoNotOptimize(entry(in.data(), in.size()));
    }
    const auto allocs = static_cast<double>(evg::bench::allocations() - allocs0);
    const auto instrs = static_cast<double>(evg::hw::Device::process_launches().instructions - instrs0);
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
    state.counters["corpus"] = static_cast<double>(corpus.size());
    state.counters["allocs_per_exec"] =
        allocs / static_cast<double>(std::max<int64_t>(1, state.iterations()));
    if (instrs > 0) state.counters["allocs_per_instr"] = allocs / instrs;
}

#define EVG_BENCH_FUZZ_TARGET(name)                                    \
    BENCHMARK_CAPTURE(run_target, name, &evg_fuzz_entry_##name, #name) \
        ->Unit(benchmark::kMicrosecond)                                \
        ->UseRealTime();
#include "fuzz_bench_targets.inc"
#undef EVG_BENCH_FUZZ_TARGET

// ---- instrumented sessions ----

std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The last value of `key` (e.g. "stat::number_of_executed_units:") in libFuzzer's output, or -1.
double last_number_after(const std::string& text, const std::string& key) {
    const size_t at = text.rfind(key);
    if (at == std::string::npos) return -1;
    return std::strtod(text.c_str() + at + key.size(), nullptr);
}

void session(benchmark::State& state, const std::string& target) {
    const char* bin_env = std::getenv("EVG_FUZZ_BIN");
    const fs::path dir = bin_env && *bin_env ? bin_env : EVG_FUZZ_BIN_DEFAULT;
    fs::path bin = dir / evgcheck::fuzzer_file_names(target).front();
    for (const std::string& name : evgcheck::fuzzer_file_names(target))
        if (fs::exists(dir / name)) {
            bin = dir / name;
            break;
        }
    if (!fs::exists(bin)) {
        state.SkipWithError(
            ("no fuzz binary " + bin.string() +
             ": build it with `cmake --preset fuzz && cmake --build build/fuzz --target fuzz_" + target +
             "` (or set EVG_FUZZ_BIN)")
                .c_str());
        return;
    }
    const char* secs_env = std::getenv("EVG_BENCH_FUZZ_SECONDS");
    int seconds = 60;
    if (secs_env && *secs_env) {
        char* end = nullptr;
        const long v = std::strtol(secs_env, &end, 10);
        if (*end != '\0' || v < 1 || v > 86400) {
            state.SkipWithError(("EVG_BENCH_FUZZ_SECONDS='" + std::string(secs_env) +
                                 "': expected a whole number of seconds from 1 to 86400")
                                    .c_str());
            return;
        }
        seconds = static_cast<int>(v);
    }
    // The session runs as `evgcheck fuzz` runs it: with the target's timeout and libFuzzer options.
    evgcheck::TargetOptions options;
    try {
        options = evgcheck::target_options_of(read_file(bin.string() + ".options"));
    } catch (const std::invalid_argument& e) {
        state.SkipWithError((bin.string() + ".options: " + e.what()).c_str());
        return;
    }
    const fs::path work =
        fs::temp_directory_path() / ("evg_bench_fuzz_session_" + std::to_string(::getpid()));
    fs::remove_all(work);
    fs::create_directories(work / "corpus");
    const fs::path log = work / "log.txt", patterns = work / "patterns.tsv";
    const fs::path seeds = fs::path(EVG_FUZZ_CORPUS_DIR) / target;
    std::vector<std::string> args = {bin.string(),
                                     "-seed=1",
                                     "-max_total_time=" + std::to_string(seconds),
                                     "-print_final_stats=1",
                                     "-timeout=" + std::to_string(options.timeout),
                                     "-rss_limit_mb=2560",
                                     "-artifact_prefix=" + (work / "").string()};
    args.insert(args.end(), options.flags.begin(), options.flags.end());
    args.push_back((work / "corpus").string());
    args.push_back(seeds.string());
    double exec = 0, wall = 0, cpu = 0;
    for (auto _ : state) {
        const auto t0 = std::chrono::steady_clock::now();
        const pid_t pid = ::fork();
        if (pid == 0) {
            const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            ::dup2(fd, 1);
            ::dup2(fd, 2);
            ::setenv("EVG_FUZZ_PATTERNS", patterns.c_str(), 1);
            std::vector<char*> argv;
            argv.reserve(args.size() + 1);
            for (std::string& a : args) argv.push_back(a.data());
            argv.push_back(nullptr);
            ::execv(argv[0], argv.data());
            ::_exit(127);
        }
        int status = 0;
        rusage ru{};
        ::wait4(pid, &status, 0, &ru);
        wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        cpu = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
              static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
        const std::string out = read_file(log);
        exec = last_number_after(out, "stat::number_of_executed_units:");
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || exec < 0) {
            const std::string tail = out.size() > 2000 ? out.substr(out.size() - 2000) : out;
            state.SkipWithError(("the session failed (" + log.string() + "):\n" + tail).c_str());
            return;
        }
        state.counters["features"] = last_number_after(out, " ft: ");
        state.counters["edges"] = last_number_after(out, " cov: ");
        state.counters["corpus"] = last_number_after(out, " corp: ");
    }
    state.counters["exec_per_s"] = exec / wall;
    state.counters["exec_per_cpu_s"] = cpu > 0 ? exec / cpu : 0.0;
    state.counters["seconds"] = seconds;
    if (fs::exists(patterns)) {  // one line per pattern any input of the session reached
        std::istringstream in(read_file(patterns));
        double n = 0;
        for (std::string line; std::getline(in, line);) n += line.empty() ? 0 : 1;
        state.counters["patterns"] = n;
    }
    fs::remove_all(work);
}

#define EVG_BENCH_FUZZ_TARGET(name) \
    BENCHMARK_CAPTURE(session, name, #name)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();
#include "fuzz_bench_targets.inc"
#undef EVG_BENCH_FUZZ_TARGET

}  // namespace

BENCHMARK_MAIN();
