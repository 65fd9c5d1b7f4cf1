// Targets (b) and (c) of bench/README.md: the main job's wall time and the model's cost on long graphs and
// large shapes.
//
//   BM_ConformanceMainJob/main   what `evgcheck conformance --out DIR` (scripts/main.sh) does, in process:
//                                the whole catalogue (conformance::all_cases(), both archs) through
//                                conformance::run_cases, then the four reports (reports::write_all) into a
//                                temporary folder. Counters: seconds (wall), cpu_s, cases, passed, failed,
//                                not_applicable, unproven (findings no control proved alive). Target: the
//                                main job's wall time on the machine's 2 cores.
//   BM_ConformanceMainJob/smoke  the same over the Example/* cases only (ctest bench-smoke).
//   BM_Chain700                  a chain of 700 element-wise nodes (AccLoad float, then 699 Compute nodes
//                                alternating Adds [1] and Muls [0.5], then AuxStore float D) at m=256 n=512
//                                k=64 on AtlasA2, its largest computeLength (32), through run_on_model with
//                                every checker and the trace on (what the trace costs per instruction; the
//                                oracle and the judge are not timed). Targets: <= 5 s and <= 300 MB.
//   BM_Chain700Untraced          the same without the trace (Config::keep_trace off, as `evgcheck run` runs
//                                it now): the machine's memory does not grow with the instruction count.
//   BM_Example4096               seed example seed003_add (conformance::example_problems(): AtlasA2, gm path,
//                                k=40) at m=n=4096 with the arch's L1 tile (128x256x256) and its largest
//                                computeLength. Target: <= 4 GB peak RSS.
//   BM_ChainSmoke                a 16-node chain at 64 x 128 the same way (ctest bench-smoke).
//   BM_Timeline                  a 64-node chain at 256 x 512 run as `evgcheck run --timeline` runs
//                                it (the trace with every access), then the cycle model and the Chrome-trace
//                                JSON written to /dev/null. Extra counters: timeline_s (simulate + JSON,
//                                wall), cycles (the model's total). bytes_per_instruction is then what a
//                                timed run costs per instruction (tools/evgcheck/estimate.hpp charges 384 B).
//
// BM_Chain700, BM_Example4096 and BM_ChainSmoke run the problem in a child process (this binary re-executed
// with --evg_bench_child=<job>), so that the peak RSS is that run's alone, whatever earlier benchmarks of
// this process allocated. peak_rss_mb is the child's VmHWM (/proc/self/status) read after the run: the peak
// of the child's own process image. (wait4's ru_maxrss would not do: Linux folds the forked copy's resident
// set, i.e. the parent's, into it at exec.) rss_growth_mb is that peak minus the child's resident set just
// before run_on_model (problem built, inputs made), bytes_per_instruction the growth over the instructions
// the run issued (Report::stats.instructions). seconds / cpu_s are run_on_model's wall and CPU time in the
// child (the model runs its cores as fibers on one thread: cpu_s is one core's time, the robust figure on a
// loaded machine); the benchmark's Time column is `seconds` (manual time).
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "evg/conformance/case.hpp"
#include "evg/conformance/examples.hpp"
#include "evg/graph/run.hpp"
#include "evg/graph/text.hpp"
#include "evg/graph/ub_budget.hpp"
#include "evg/hw/timing.hpp"
#include "evg/reports/report.hpp"
#include "evg/reports/timeline.hpp"
#include "evg/verify/data.hpp"

namespace {

using namespace evg;

double cpu_seconds_self() {
    rusage ru{};
    ::getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

// ---- (b) the main job ----

void BM_ConformanceMainJob(benchmark::State& state, const char* filter) {
    const std::filesystem::path out =
        std::filesystem::temp_directory_path() / ("evg_bench_conformance." + std::to_string(::getpid()));
    reports::Totals t;
    size_t cases = 0;
    int unproven = 0;  // findings a control did not prove alive
    double wall = 0, cpu = 0;
    for (auto _ : state) {
        const auto wall0 = std::chrono::steady_clock::now();
        const double cpu0 = cpu_seconds_self();
        std::vector<conformance::CaseSpec> specs = conformance::all_cases();  // the CLI builds it too
        if (*filter != '\0')
            std::erase_if(specs, [&](const conformance::CaseSpec& s) {
                return !conformance::glob_match(filter, s.id);
            });
        reports::ReportInput in;
        in.results = conformance::run_cases(specs, "", {});
        in.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
        in.archs = {"AtlasA2", "Ascend950"};
        in.filter = filter;
        in.command = "evg_bench BM_ConformanceMainJob";
        in.controls = conformance::required_controls();
        in.ran_all = *filter == '\0';
        reports::write_all(in, out);
        benchmark::DoNotOptimize(reports::text_matrix(reports::build_matrix(in.results)));
        wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
        cpu = cpu_seconds_self() - cpu0;
        state.SetIterationTime(wall);
        t = reports::totals(in.results);
        cases = in.results.size();
        for (const reports::AliveCell& c : reports::proven_alive(in))
            unproven += c.state == reports::Alive::not_proven;
    }
    std::filesystem::remove_all(out);
    state.counters["seconds"] = wall;
    state.counters["cpu_s"] = cpu;
    state.counters["cases"] = static_cast<double>(cases);
    state.counters["passed"] = t.passed;
    state.counters["failed"] = t.failed;
    state.counters["not_applicable"] = t.not_applicable;
    state.counters["unproven"] = unproven;
    if (t.failed > 0) state.SkipWithError("a conformance case failed: run `evgcheck conformance` for which");
    if (unproven > 0) state.SkipWithError("a control did not fire: run `evgcheck conformance` for which");
}
BENCHMARK_CAPTURE(BM_ConformanceMainJob, main, "")->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);
BENCHMARK_CAPTURE(BM_ConformanceMainJob, smoke, "Example/*")
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// ---- (c) long graphs and large shapes, each in a child process ----

// `nodes` element-wise nodes in a chain (AccLoad, nodes - 1 Computes), then the store.
graph::Problem chain(int nodes, int64_t m, int64_t n) {
    std::ostringstream text;
    text << "problem arch=AtlasA2 m=" << m << " n=" << n << " k=64 a=half b=half c=float cl=32 path=gm\n"
         << "output D : float[" << m << ", " << n << "]\n%0 = AccLoad float\n";
    for (int i = 1; i < nodes; ++i)
        text << '%' << i << (i % 2 == 1 ? " = Compute Adds float [1] (%" : " = Compute Muls float [0.5] (%")
             << i - 1 << ")\n";
    text << '%' << nodes << " = AuxStore float D (%" << nodes - 1 << ")\n";
    graph::Problem p = graph::parse_problem(text.str());
    p.compute_length = graph::max_compute_length(p.graph, p.arch, p.path);
    return p;
}

graph::Problem example4096() {
    for (conformance::ExampleProblem& ex : conformance::example_problems()) {
        graph::Problem& p = ex.problem;
        if (ex.name != "seed003_add" || p.arch != graph::ArchId::AtlasA2 ||
            p.path != graph::WorkspacePath::GM)
            continue;
        const int64_t m0 = p.m, n0 = p.n;
        p.m = p.n = 4096;
        p.tile = graph::default_tile(p.arch);
        for (graph::Tensor& t : p.graph.tensors) {
            if (t.rows == m0) t.rows = p.m;
            if (t.cols == n0) t.cols = p.n;
            t.row_stride = t.cols;
        }
        p.compute_length = graph::max_compute_length(p.graph, p.arch, p.path);
        return p;
    }
    throw std::runtime_error("no seed003_add AtlasA2 gm example in conformance::example_problems()");
}

// A field of /proc/self/status in kB: "VmRSS" (resident now) or "VmHWM" (the peak of this process image).
long status_kb(const std::string& field) {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1));
    return -1;
}

// The child: runs one job and prints its figures as "key value" lines on stdout.
int child_main(const std::string& job) {
    try {
        const long rss_start = status_kb("VmRSS");
        const bool untraced = job == "chain700_untraced";
        const bool timed = job == "timeline";
        const graph::Problem p = job == "chain700" || untraced ? chain(700, 256, 512)
                                 : job == "chain16"            ? chain(16, 64, 128)
                                 : timed                       ? chain(64, 256, 512)
                                 : job == "example4096"        ? example4096()
                                                        : throw std::runtime_error("unknown job " + job);
        const verify::CaseData data = verify::make_case_data(p, verify::DataMode::Exact, 1);
        graph::RunInputs in;
        for (const auto& [name, t] : data.inputs) {
            const auto* b = reinterpret_cast<const uint8_t*>(t.bytes().data());
            in.tensors[name] = std::vector<uint8_t>(b, b + t.bytes().size());
        }
        graph::RunOptions opt;
        opt.config.arch = p.arch;
        opt.config.keep_trace = !untraced;  // the trace's cost per instruction, or the bounded run
        opt.config.trace_accesses = timed;
        const long rss_ready = status_kb("VmRSS");
        const auto wall0 = std::chrono::steady_clock::now();
        const double cpu0 = cpu_seconds_self();
        const graph::ModelRun run = graph::run_on_model(p, in, opt);
        const double cpu = cpu_seconds_self() - cpu0;
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
        if (timed) {
            const auto t0 = std::chrono::steady_clock::now();
            const hw::timing::Launch launch{p.arch, static_cast<int>(opt.block_dim),
                                            hw::KernelType::mix_aic_1_2};
            const hw::timing::Timeline tl = hw::timing::simulate(run.trace, launch);
            std::ofstream null("/dev/null");
            reports::write_timeline_json(null, {run.trace, tl, run.report.node_labels, "bench", ""});
            std::printf("timeline_s %.6f\ncycles %llu\n",
                        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                        static_cast<unsigned long long>(tl.summary.total));
        }
        std::printf(
            "seconds %.6f\ncpu_s %.6f\ninstructions %llu\nclean %d\nrss_start_kb %ld\nrss_ready_kb %ld\n"
            "nodes %zu\ncompute_length %u\npeak_rss_kb %ld\n",
            wall, cpu, static_cast<unsigned long long>(run.report.stats.instructions),
            run.report.clean() ? 1 : 0, rss_start, rss_ready, p.graph.nodes.size(), p.compute_length,
            status_kb("VmHWM"));
        return 0;
    } catch (const std::exception& e) {
        std::printf("error %s\n", e.what());
        return 1;
    }
}

struct ChildRun {
    std::map<std::string, double> values;
    std::string error;
};

ChildRun run_child(const std::string& job) {
    ChildRun r;
    const std::string arg = "--evg_bench_child=" + job;
    int fds[2];
    if (::pipe(fds) != 0) {
        r.error = "pipe failed";
        return r;
    }
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) {
        r.error = "fork failed";
        return r;
    }
    if (pid == 0) {
        ::dup2(fds[1], 1);
        ::close(fds[0]);
        ::close(fds[1]);
        ::execl("/proc/self/exe", "evg_bench_child", arg.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ::close(fds[1]);
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    std::istringstream lines(out);
    for (std::string key; lines >> key;) {
        if (key == "error") {
            std::getline(lines, r.error);
            break;
        }
        double v = 0;
        lines >> v;
        r.values[key] = v;
    }
    if (r.error.empty() && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        r.error = "the child exited abnormally (status " + std::to_string(status) + ")";
    return r;
}

void BM_ModelChild(benchmark::State& state, const char* job) {
    ChildRun r;
    for (auto _ : state) {
        r = run_child(job);
        state.SetIterationTime(r.error.empty() ? r.values["seconds"] : 0.0);
    }
    if (!r.error.empty()) {
        state.SkipWithError(("child " + std::string(job) + ": " + r.error).c_str());
        return;
    }
    const double instructions = r.values["instructions"];
    const double peak_kb = r.values["peak_rss_kb"];
    const double growth_kb = peak_kb - r.values["rss_ready_kb"];
    state.counters["seconds"] = r.values["seconds"];
    state.counters["cpu_s"] = r.values["cpu_s"];
    state.counters["instructions"] = instructions;
    state.counters["peak_rss_mb"] = peak_kb / 1024.0;
    state.counters["rss_growth_mb"] = growth_kb / 1024.0;
    state.counters["bytes_per_instruction"] = instructions > 0 ? growth_kb * 1024.0 / instructions : 0.0;
    state.counters["nodes"] = r.values["nodes"];
    state.counters["compute_length"] = r.values["compute_length"];
    if (r.values.count("timeline_s")) {
        state.counters["timeline_s"] = r.values["timeline_s"];
        state.counters["cycles"] = r.values["cycles"];
    }
    if (r.values["clean"] != 1.0) state.SkipWithError("the run's report is not clean");
}
void BM_Chain700(benchmark::State& state) {
    BM_ModelChild(state, "chain700");
}
void BM_Chain700Untraced(benchmark::State& state) {
    BM_ModelChild(state, "chain700_untraced");
}
// A 16-node chain at 64 x 128: the child mechanism in a second (ctest bench-smoke).
void BM_ChainSmoke(benchmark::State& state) {
    BM_ModelChild(state, "chain16");
}
void BM_Timeline(benchmark::State& state) {
    BM_ModelChild(state, "timeline");
}
void BM_Example4096(benchmark::State& state) {
    BM_ModelChild(state, "example4096");
}
BENCHMARK(BM_Chain700)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);
BENCHMARK(BM_Chain700Untraced)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);
BENCHMARK(BM_Example4096)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);
BENCHMARK(BM_ChainSmoke)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Timeline)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);

}  // namespace

// The main of evg_bench_all: a child run (--evg_bench_child=<job>), or the benchmarks.
int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind("--evg_bench_child=", 0) == 0)
            return child_main(a.substr(std::strlen("--evg_bench_child=")));
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
