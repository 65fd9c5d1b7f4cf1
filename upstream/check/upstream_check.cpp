// evgcheck check --catlass-root DIR: the random-graph property on a user's Catlass checkout, compiled at run
// time. Random graphs that upstream Catlass can run (upstream/corpus/corpus_emit.hpp: the corpus's own draws
// and emission) are compiled against DIR in one library of instances, each instance is run by
// evg_upstream_runner over random runtime cases (m, n, k, cores, schedule, data), judged by the one judge and
// compared with evgcheck's copy bit for bit, and a failure is shrunk: first over the runtime cases (the
// runner's rapidcheck), then over the graph, whose smaller candidates (props::shrink_candidates on the
// failing graph's Spec: a node bypassed or collapsed into an input, a type made float, ...) are compiled one
// by one, under a compile budget, and kept when they fail the same way. A library is kept in the work folder
// under the hash of its source, so a candidate or a replay compiled once is not compiled again.
//
// The result: the minimal case (graph text and runtime parameters), the failed check's sentence, a program in
// upstream's dialect that builds with evgcheck_add_program and reproduces the failure, and a replay line.
#include "check_upstream.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "acl/catlass_checkout.hpp"
#include "corpus_emit.hpp"
#include "evg/graph/error.hpp"
#include "evg/hw/file_lock.hpp"
#include "evg/hw/fnv1a.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/props/generators.hpp"
#include "evg/props/model_property.hpp"
#include "evg/props/regression.hpp"
#include "runner_protocol.hpp"
#include "subprocess.hpp"

#ifndef EVGCHECK_PACKAGE_DIR
#define EVGCHECK_PACKAGE_DIR ""
#endif
#ifndef EVGCHECK_UPSTREAM_RUNNER
#define EVGCHECK_UPSTREAM_RUNNER ""
#endif
#ifndef EVGCHECK_UPSTREAM_KNOWN_FINDINGS
#define EVGCHECK_UPSTREAM_KNOWN_FINDINGS ""
#endif
#ifndef EVGCHECK_CXX_COMPILER
#define EVGCHECK_CXX_COMPILER ""
#endif
#ifndef EVGCHECK_VERSION
#define EVGCHECK_VERSION ""
#endif
#ifndef EVGCHECK_CMAKE
#define EVGCHECK_CMAKE "cmake"
#endif

namespace evgcheck {

namespace fs = std::filesystem;
using namespace evg;
using namespace evg::upstream::corpus;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// The whole command's time budget (--time-budget): past it, what runs was stopped and the check ends.
void stop_if_past(Clock::time_point stop) {
    if (Clock::now() >= stop) throw UpstreamCheckTimeBudget("the time budget ran out");
}

// The name of a cached library or failure folder.
std::string content_hash(const std::string& text) {
    return evg::hw::fnv1a64_hex(text);
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_file(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error(fmt::format("cannot write {}", path.string()));
}

// The last `n` lines of a text.
std::string tail_lines(const std::string& text, int n) {
    size_t pos = text.size();
    for (int k = 0; k <= n && pos > 0; ++k) pos = text.rfind('\n', pos - 1);
    return pos == std::string::npos || pos == 0 ? text : text.substr(pos + 1);
}

// A file of this process in the work folder (two checks may share one).
fs::path scratch_file(const fs::path& work, const std::string& what) {
    return work / fmt::format("{}-{}.txt", what, ::getpid());
}

std::string env_or(const char* name, const char* fallback) {
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0' ? v : fallback;
}

// What makes a library of instances besides its source and the checkout: the evgcheck build it is compiled
// against and loaded by (its package folder and the package's files, which carry the build's flags, a
// sanitizer's among them; its compiler; its version; its runner). Builds that share a work folder (the
// default ~/.cache/evgcheck/upstream) keep apart libraries: a release check never loads a sanitizer build's.
std::string build_identity() {
    const fs::path package = env_or("EVGCHECK_PACKAGE_DIR", EVGCHECK_PACKAGE_DIR);
    std::string id = fmt::format("package {}\ncompiler {}\nevgcheck {}\nrunner {}\n", package.string(),
                                 EVGCHECK_CXX_COMPILER, EVGCHECK_VERSION,
                                 env_or("EVGCHECK_UPSTREAM_RUNNER", EVGCHECK_UPSTREAM_RUNNER));
    std::error_code ec;
    std::vector<fs::path> files;
    for (const fs::directory_entry& e : fs::directory_iterator(package, ec))
        if (e.path().extension() == ".cmake") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) id += "== " + f.filename().string() + "\n" + read_file(f);
    return id;
}

// The build tool a configured build folder names (CMAKE_MAKE_PROGRAM in its CMakeCache.txt), "" when it names
// none that exists.
std::string make_program(const fs::path& build) {
    std::istringstream cache(read_file(build / "CMakeCache.txt"));
    const std::string key = "CMAKE_MAKE_PROGRAM:FILEPATH=";
    for (std::string line; std::getline(cache, line);)
        if (line.rfind(key, 0) == 0) {
            const std::string path = line.substr(key.size());
            return fs::is_regular_file(path) ? path : std::string();
        }
    return {};
}

// Compiles libraries of instances against the checkout: one CMake project per source text and evgcheck
// build (build_identity), in work/lib-<hash>, configured with the build folder's package
// (evg_upstream_side_library) and built with the build's compiler. A project built before is only brought up
// to date (Ninja: nothing to do unless a header of the checkout or a library of the package changed).
class Compiler {
  public:
    Compiler(fs::path work, std::string root, double budget, Clock::time_point stop)
        : work_(std::move(work)),
          root_(std::move(root)),
          identity_(build_identity()),
          budget_(budget),
          stop_(stop) {}

    struct Result {
        std::optional<fs::path> library;
        std::string error;  // the compiler's words (tail) when it failed
        bool budget_spent = false;
        bool cached = false;
    };

    Result build(const std::string& source) {
        Result r;
        const fs::path dir = work_ / ("lib-" + content_hash(root_ + '\n' + identity_ + '\n' + source));
        const fs::path lib = dir / "build" / "libinstances.so";
        const bool built_before = fs::exists(lib);
        if (!built_before && spent_ >= budget_) {
            r.budget_spent = true;
            return r;
        }
        const auto start = Clock::now();
        const auto deadline =
            std::min(stop_, start + std::chrono::milliseconds(static_cast<long long>(
                                        (built_before ? 600.0 : std::max(60.0, budget_ - spent_)) * 1000)));
        fs::create_directories(dir);
        // Two checks sharing the work folder build one library one at a time.
        const hw::FileLock lock((dir / ".lock").string());
        write_file(dir / "instances.cpp", source);
        write_file(
            dir / "CMakeLists.txt",
            fmt::format("# Generated by evgcheck check --catlass-root: one library of upstream corpus "
                        "instances.\n"
                        "cmake_minimum_required(VERSION 3.25)\n"
                        "project(evgcheck_upstream_instances CXX)\n"
                        "find_package(evgcheck CONFIG REQUIRED)\n"
                        "evg_upstream_side_library(instances CORPUS ROOT \"{}\" SOURCES instances.cpp)\n",
                        root_));
        if (!fs::exists(dir / "build" / "CMakeCache.txt")) {
            std::vector<std::string> args = {
                "-S",
                dir.string(),
                "-B",
                (dir / "build").string(),
                "-G",
                "Ninja",
                "-DCMAKE_BUILD_TYPE=Release",
                "-Devgcheck_DIR=" + env_or("EVGCHECK_PACKAGE_DIR", EVGCHECK_PACKAGE_DIR)};
            if (!std::string(EVGCHECK_CXX_COMPILER).empty())
                args.push_back(std::string("-DCMAKE_CXX_COMPILER=") + EVGCHECK_CXX_COMPILER);
            const ProcessResult cfg = run_process(EVGCHECK_CMAKE, args, {}, deadline);
            stop_if_past(stop_);
            if (cfg.exit_code != 0) {
                fs::remove_all(dir / "build");
                r.error = "configuring the library failed:\n" + tail_lines(cfg.output, 30);
                spent_ += seconds_since(start);
                return r;
            }
        }
        // The build tool itself, not `cmake --build`: stopped (or told by PR_SET_PDEATHSIG that evgcheck
        // died), Ninja stops the compilers it runs, where cmake would leave them running.
        const std::string ninja = make_program(dir / "build");
        const ProcessResult b =
            ninja.empty() ? run_process(EVGCHECK_CMAKE, {"--build", (dir / "build").string()}, {}, deadline)
                          : run_process(ninja, {"-C", (dir / "build").string()}, {}, deadline);
        stop_if_past(stop_);
        const double took = seconds_since(start);
        if (!built_before) {
            spent_ += took;
            ++compiles_;
        } else {
            ++cached_;
        }
        if (b.timed_out) {
            r.budget_spent = true;
            r.error = "the compile budget ran out during the build";
            return r;
        }
        if (b.exit_code != 0 || !fs::exists(lib)) {
            // The compiler's errors first (at most 25), else the build's last lines.
            std::istringstream lines(b.output);
            int errors = 0;
            for (std::string line; std::getline(lines, line) && errors < 25;)
                if (line.find(": error: ") != std::string::npos) {
                    r.error += line + "\n";
                    ++errors;
                }
            if (errors == 0) r.error = tail_lines(b.output, 40);
            ++failed_;
            return r;
        }
        r.library = lib;
        r.cached = built_before;
        return r;
    }

    double spent() const { return spent_; }
    double budget() const { return budget_; }
    int compiles() const { return compiles_; }
    int cached() const { return cached_; }
    int failed() const { return failed_; }

  private:
    fs::path work_;
    std::string root_, identity_;
    double budget_, spent_ = 0;
    Clock::time_point stop_;
    int compiles_ = 0, cached_ = 0, failed_ = 0;
};

// One run of the runner (runner_protocol.hpp): its verdict file read back, or the verdict of a run that
// wrote none (a timeout, a crash, a runner that could not start the instance).
using RunnerVerdict = upstream::runner::Verdict;

RunnerVerdict run_runner(upstream::runner::Request rq, const UpstreamCheckOptions& o) {
    rq.known = o.known;
    rq.case_limit = o.case_limit;
    fs::remove(rq.out);
    const std::string runner = env_or("EVGCHECK_UPSTREAM_RUNNER", EVGCHECK_UPSTREAM_RUNNER);
    const ProcessResult r = run_process(
        runner, upstream::runner::arguments(rq), {},
        std::min(o.stop,
                 Clock::now() + std::chrono::milliseconds(static_cast<long long>(o.run_timeout * 1000))));
    stop_if_past(o.stop);
    RunnerVerdict v;
    if (r.timed_out) {
        v.tag = "timeout";
        v.message = fmt::format("the run did not end within {:.0f} s (stopped)", o.run_timeout);
        return v;
    }
    if (r.exit_code == upstream::runner::kExitUnusable ||
        (r.exit_code != upstream::runner::kExitPass && r.exit_code != upstream::runner::kExitFail) ||
        !fs::exists(rq.out)) {
        v.tag = r.signal != 0 ? "crash" : "runner";
        v.message =
            r.signal != 0
                ? fmt::format("the run ended by signal {}:\n{}", r.signal, tail_lines(r.output, 30))
                : fmt::format("the runner failed (exit {}):\n{}", r.exit_code, tail_lines(r.output, 30));
        return v;
    }
    v = upstream::runner::read_verdict(read_file(rq.out));
    fs::remove(rq.out);
    return v;
}

// The runner's request for instance `index` of `library`, verdict to `out`: the property over `cases` cases
// from `seed`, or the one case in `case_file`.
upstream::runner::Request property_request(const fs::path& library, int index, int cases, uint64_t seed,
                                           const fs::path& out) {
    upstream::runner::Request rq;
    rq.library = library.string();
    rq.index = index;
    rq.cases = cases;
    rq.seed = seed;
    rq.out = out.string();
    return rq;
}
upstream::runner::Request case_request(const fs::path& library, int index, const fs::path& case_file,
                                       const fs::path& out) {
    upstream::runner::Request rq;
    rq.library = library.string();
    rq.index = index;
    rq.one_case = true;
    rq.case_file = case_file.string();
    rq.out = out.string();
    return rq;
}

std::string library_source(const std::vector<props::Case>& cases, const std::string& origin) {
    std::string body = instances_file_header(origin);
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const std::string fn = instance_functions(static_cast<int>(i), cases[i], false);
        if (fn.empty()) throw std::logic_error("check --catlass-root: a case the emission refuses was drawn");
        body += fn;
    }
    return body + "}  // namespace\n";
}

// The Spec of the failing case: the drawn graph's Spec with the runtime parameters the runner's shrink
// ended on (they decode to the same case; nullopt when they do not, and the graph is then not shrunk).
std::optional<props::Spec> spec_of(props::Spec spec, const props::Case& failing) {
    spec.m = failing.problem.m;
    spec.n = failing.problem.n;
    spec.k = failing.problem.k;
    spec.cores = static_cast<uint8_t>(failing.cores);
    spec.sched_seed = failing.sched_seed;
    spec.data_seed = failing.data_seed;
    if (!(upstream_case(spec) == failing)) return std::nullopt;
    return spec;
}

// The outputs the reproducer program compares with: the oracle's when the data makes every result exact
// (the judge then compares bit for bit too), else evgcheck's copy's on the same schedule (the property's
// bit-for-bit partner).
std::vector<std::vector<uint8_t>> expected_outputs(const props::Case& c, const verify::CaseData& data,
                                                   std::string* source) {
    const graph::Problem& p = c.problem;
    std::vector<std::vector<uint8_t>> out(p.graph.tensors.size());
    if (data.exact_data) {
        *source = "the oracle's outputs (exact data)";
        const oracle::OracleResult r = oracle::evaluate(p, data.inputs);
        for (std::size_t i = 0; i < p.graph.tensors.size(); ++i)
            if (p.graph.tensors[i].role == graph::TensorRole::Output)
                out[i] = bytes_of(r.output(p.graph.tensors[i].name));
        return out;
    }
    *source = "the outputs of evgcheck's own Catlass copy on the same schedule";
    const props::CaseRun ours = props::run_case(c, c.cores, c.sched_seed);
    for (std::size_t i = 0; i < p.graph.tensors.size(); ++i)
        if (p.graph.tensors[i].role == graph::TensorRole::Output)
            out[i] = ours.model.outputs.at(p.graph.tensors[i].name);
    return out;
}

std::string quote(const std::string& s) {
    if (s.find_first_of(" '\"$\\") == std::string::npos) return s;
    std::string out = "'";
    for (const char ch : s) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return out + "'";
}

int report_failure(const UpstreamCheckOptions& o, std::ostream& out, const Compiler& compiler,
                   const props::Case& c, const RunnerVerdict& verdict, int steps, int tried,
                   bool budget_spent, double seconds) {
    const std::string case_text = props::to_text(c, "UpstreamCheck/minimal");
    const fs::path dir = o.work_dir / ("failure-" + content_hash(o.root + '\n' + case_text));
    fs::create_directories(dir);
    write_file(dir / "case.txt", case_text);
    const verify::CaseData data = verify::make_case_data(c.problem, c.data, c.data_seed, c.sign);
    std::string expected_from;
    const auto expected = expected_outputs(c, data, &expected_from);
    const std::string scheduler = c.sched_seed
                                      ? fmt::format("--scheduler adversarial --seed {}", c.sched_seed)
                                      : "--scheduler in_order";
    const std::string program_header = fmt::format(
        "// A failure of `evgcheck check --catlass-root {}`, shrunk: {}\n"
        "// Catlass {}\n"
        "// {}\n"
        "// The kernel as evgcheck's upstream corpus builds it, the case's data, and {} to compare with.\n"
        "// Build: the CMakeLists.txt beside this file (evgcheck_add_program). Run: evgcheck run-program {} "
        "--known "
        "{} --expect \"Compare success.\" ./repro\n\n",
        o.root, props::summary(c), evg::acl::identify_catlass_checkout(o.root).describe(),
        verdict.message.substr(0, verdict.message.find('\n')), expected_from, scheduler, o.known);
    write_file(dir / "repro.cpp", reproducer_program(c, data, expected, program_header));
    write_file(
        dir / "CMakeLists.txt",
        fmt::format("# The reproducer of a failure of evgcheck check --catlass-root, as a Catlass program "
                    "run on the model.\n"
                    "cmake_minimum_required(VERSION 3.25)\n"
                    "project(evgcheck_repro CXX)\n"
                    "find_package(evgcheck CONFIG REQUIRED)\n"
                    "evgcheck_add_program(repro SOURCES repro.cpp CATLASS_ROOT \"{}\" ARCH Ascend950)\n"
                    "target_compile_options(repro PRIVATE -Wno-error)\n",
                    o.root));

    out << fmt::format(
        "\nminimal failing case ({} nodes; {} graph shrink steps, {} candidates run, {} compiled in {:.1f} s "
        "of the "
        "{:.0f} s compile budget{}, {} from cache{}; {:.1f} s in all):\n{}\n",
        props::node_count(c), steps, tried, compiler.compiles(), compiler.spent(), compiler.budget(),
        budget_spent ? ", which ran out: the case may shrink further with a larger --compile-budget" : "",
        compiler.cached(),
        compiler.failed() > 0
            ? fmt::format(", {} that the checkout does not compile (left out: a graph it cannot build shows "
                          "nothing)",
                          compiler.failed())
            : "",
        seconds, case_text);
    out << "failure [" << verdict.tag << "]: " << verdict.message << "\n\n";
    out << fmt::format("files: {} (the case), {} (the program in upstream's dialect), {}\n",
                       (dir / "case.txt").string(), (dir / "repro.cpp").string(),
                       (dir / "CMakeLists.txt").string());
    out << fmt::format(
        "build the program: cmake -S {} -B {}/build -G Ninja -Devgcheck_DIR={} && cmake --build {}/build\n",
        dir.string(), dir.string(), env_or("EVGCHECK_PACKAGE_DIR", EVGCHECK_PACKAGE_DIR), dir.string());
    out << fmt::format("run it:   {} run-program {} --known {} --expect 'Compare success.' {}/build/repro\n",
                       quote(o.self), scheduler, quote(o.known), dir.string());
    out << fmt::format("replay: {} check --catlass-root {} --replay {} --work-dir {}{}{}\n", quote(o.self),
                       quote(o.root), quote((dir / "case.txt").string()), quote(o.work_dir.string()),
                       o.known == EVGCHECK_UPSTREAM_KNOWN_FINDINGS ? "" : " --known " + quote(o.known),
                       o.case_limit == upstream::runner::kDefaultCaseLimit
                           ? ""
                           : fmt::format(" --case-limit {}", o.case_limit));
    return 1;
}

int shrink_and_report(const UpstreamCheckOptions& o, std::ostream& out, Compiler& compiler,
                      const props::Spec& drawn, props::Case current, RunnerVerdict verdict) {
    const auto start = Clock::now();
    const std::string tag = verdict.tag;
    int steps = 0, tried = 0;
    std::optional<props::Spec> spec = spec_of(drawn, current);
    bool budget_spent = false;
    if (!spec)
        out << "(the failing case is not the drawn Spec's at its runtime parameters: the graph is not "
               "shrunk)\n";
    const fs::path verdict_file = scratch_file(o.work_dir, "verdict");
    const fs::path case_file = scratch_file(o.work_dir, "candidate");
    while (spec && !budget_spent) {
        bool smaller = false;
        for (const props::Spec& candidate_spec : props::shrink_candidates(*spec)) {
            const props::Case candidate = upstream_case(candidate_spec);
            if (candidate == current || !instance_refusal(candidate).empty()) continue;
            const Compiler::Result lib = compiler.build(
                library_source({candidate}, "evgcheck check --catlass-root, a shrink candidate"));
            if (lib.budget_spent) {
                budget_spent = true;
                break;
            }
            if (!lib.library) continue;  // a candidate the checkout does not compile shows nothing
            ++tried;
            write_file(case_file, props::to_text(candidate, "UpstreamCheck/candidate"));
            const RunnerVerdict v = run_runner(case_request(*lib.library, 0, case_file, verdict_file), o);
            if (v.pass || v.tag != tag) continue;
            spec = candidate_spec;
            current = candidate;
            verdict = v;
            ++steps;
            smaller = true;
            out << fmt::format("  step {}: {} nodes ({})\n", steps, props::node_count(current),
                               props::summary(current))
                << std::flush;
            break;
        }
        if (!smaller) break;
    }
    fs::remove(case_file);
    return report_failure(o, out, compiler, current, verdict, steps, tried, budget_spent,
                          seconds_since(start));
}

}  // namespace

UpstreamCheck::UpstreamCheck(UpstreamCheckOptions o) : o_(std::move(o)) {
    if (o_.work_dir.empty()) {
        const std::string cache = env_or("XDG_CACHE_HOME", "");
        const std::string home = env_or("HOME", "/tmp");
        o_.work_dir = (cache.empty() ? fs::path(home) / ".cache" : fs::path(cache)) / "evgcheck" / "upstream";
    }
    o_.work_dir = fs::absolute(o_.work_dir);
    o_.root = fs::absolute(o_.root).lexically_normal().string();
    if (!o_.root.empty() && o_.root.back() == '/') o_.root.pop_back();
    if (o_.known.empty()) o_.known = EVGCHECK_UPSTREAM_KNOWN_FINDINGS;
}

std::string UpstreamCheck::setup_error() const {
    if (!fs::exists(fs::path(o_.root) / "include" / "catlass" / "catlass.hpp"))
        return fmt::format("--catlass-root: '{}' is not a Catlass checkout (no include/catlass/catlass.hpp)",
                           o_.root);
    const std::string package = env_or("EVGCHECK_PACKAGE_DIR", EVGCHECK_PACKAGE_DIR);
    const std::string runner = env_or("EVGCHECK_UPSTREAM_RUNNER", EVGCHECK_UPSTREAM_RUNNER);
    if (package.empty() || !fs::exists(fs::path(package) / "evgcheckConfig.cmake"))
        return fmt::format(
            "this evgcheck has no build folder package to compile against (looked for '{}'; set "
            "EVGCHECK_PACKAGE_DIR to build/<preset>/package)",
            package);
    if (runner.empty() || !fs::exists(runner))
        return fmt::format(
            "this evgcheck has no evg_upstream_runner (looked for '{}'; build it, or set "
            "EVGCHECK_UPSTREAM_RUNNER)",
            runner);
    return {};
}

int UpstreamCheck::run(std::ostream& out) {
    Compiler compiler(o_.work_dir, o_.root, o_.compile_budget, o_.stop);
    const auto start = Clock::now();
    fs::create_directories(o_.work_dir);
    const int wanted = o_.only_graph >= 0 ? o_.only_graph + 1 : o_.graphs;
    out << fmt::format(
               "evgcheck check: {} on the Catlass checkout {} (Ascend950), {} runtime cases each, seed "
               "{}; work folder {}\n",
               o_.only_graph >= 0 ? fmt::format("random graph {}", o_.only_graph)
                                  : fmt::format("{} random graphs", o_.graphs),
               o_.root, o_.cases, o_.seed, o_.work_dir.string())
        << "catlass: " << evg::acl::identify_catlass_checkout(o_.root).describe() << "\n"
        << std::flush;
    UpstreamDraws draws(o_.seed);
    std::vector<Draw> drawn;
    std::vector<int> numbers;  // each drawn graph's number in the seed's sequence
    for (int number = 0; number < wanted; ++number) {
        std::optional<Draw> d = draws.next(static_cast<uint64_t>(wanted) * 20);
        if (!d) {
            out << fmt::format("(only {} graphs upstream can run were found in {} draws)\n", number,
                               wanted * 20);
            break;
        }
        if (number < o_.only_graph) continue;
        drawn.push_back(std::move(*d));
        numbers.push_back(number);
    }
    if (drawn.empty()) return 1;
    std::vector<props::Case> cases;
    cases.reserve(drawn.size());
    for (const Draw& d : drawn) cases.push_back(d.c);
    const std::string source =
        library_source(cases, fmt::format("evgcheck check --catlass-root, seed {}", o_.seed));
    // The first library is built whatever the budget: without it nothing runs.
    Compiler first(o_.work_dir, o_.root, std::max(o_.compile_budget, 1800.0), o_.stop);
    const Compiler::Result lib = first.build(source);
    if (!lib.library) {
        out << fmt::format(
            "FAILED the checkout does not compile the {} graphs' instances (upstream's kernel "
            "around each EVG, Ascend950):\n{}\n",
            cases.size(), lib.error);
        return 1;
    }
    out << fmt::format("compiled {} graphs against the checkout in {:.1f} s{}\n", cases.size(),
                       seconds_since(start), lib.cached ? " (cached)" : "")
        << std::flush;

    for (std::size_t i = 0; i < drawn.size(); ++i) {
        const fs::path verdict_file = scratch_file(o_.work_dir, "verdict");
        const RunnerVerdict v = run_runner(
            property_request(*lib.library, static_cast<int>(i), o_.cases, o_.seed + numbers[i], verdict_file),
            o_);
        if (i == 0 && !v.compiler.empty()) out << "kernel compiler: " << v.compiler << "\n";
        if (v.pass) {
            out << fmt::format("ok   graph {} ({}): {} cases\n", numbers[i], props::summary(drawn[i].c),
                               v.passed)
                << std::flush;
            continue;
        }
        out << fmt::format("FAILED graph {} ({})\n", numbers[i], props::summary(drawn[i].c));
        if (v.case_text.empty()) {
            out << fmt::format("failure [{}]: {}\n(the runner gave no case to shrink)\n", v.tag, v.message);
            return 1;
        }
        const props::Case failing = props::case_from_text(v.case_text);
        out << fmt::format(
                   "  runtime parameters shrunk to: {}\n  shrinking the graph (each candidate compiled "
                   "against the checkout):\n",
                   props::summary(failing))
            << std::flush;
        return shrink_and_report(o_, out, compiler, drawn[i].spec, failing, v);
    }
    out << fmt::format("evgcheck check: {} graphs x {} runtime cases passed on {} in {:.1f} s\n",
                       drawn.size(), o_.cases, o_.root, seconds_since(start));
    return 0;
}

int UpstreamCheck::replay(std::ostream& out, const fs::path& case_file) {
    if (!fs::is_regular_file(case_file))
        throw UpstreamCheckInputError(fmt::format("--replay: '{}' is not a file", case_file.string()));
    props::Case c;
    try {
        c = props::case_from_text(read_file(case_file));
    } catch (const graph::ParseError& e) {
        throw UpstreamCheckInputError(fmt::format("--replay: {}:{}", case_file.string(), e.what()));
    }
    if (const std::string why = instance_refusal(c, false); !why.empty())
        throw UpstreamCheckInputError(fmt::format(
            "--replay: the case in {} cannot run on upstream Catlass: {}", case_file.string(), why));
    Compiler compiler(o_.work_dir, o_.root, std::max(o_.compile_budget, 1800.0), o_.stop);
    const Compiler::Result lib =
        compiler.build(library_source({c}, "evgcheck check --catlass-root --replay"));
    if (!lib.library) {
        out << "FAILED the checkout does not compile the case's instance:\n" << lib.error << "\n";
        return 1;
    }
    const RunnerVerdict v = run_runner(
        case_request(*lib.library, 0, fs::absolute(case_file), scratch_file(o_.work_dir, "verdict")), o_);
    if (v.pass) {
        out << fmt::format("ok   {} passes on {}\n", props::summary(c), o_.root);
        return 0;
    }
    out << fmt::format("FAILED {} on {}\nfailure [{}]: {}\n", props::summary(c), o_.root, v.tag, v.message);
    return 1;
}

}  // namespace evgcheck
