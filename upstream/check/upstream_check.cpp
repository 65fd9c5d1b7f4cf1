// evgcheck check --catlass-root DIR: the random-graph property on a user's Catlass checkout, compiled at run
// time. Random graphs that upstream Catlass can run (upstream/corpus/corpus_emit.hpp: the corpus's own draws
// and emission) are compiled against DIR in one library of instances, each instance is run by
// evg_upstream_runner over random runtime cases (m, n, k, cores, schedule, data), judged by the one judge and
// compared with evgcheck's copy bit for bit, and a failure is shrunk: first over the runtime cases (the
// runner's rapidcheck), then over the graph, whose smaller candidates (props::shrink_candidates on the
// failing graph's Spec: a node bypassed or collapsed into an input, a type made float, ...) are compiled in
// batches, under a compile budget, and the first in order that fails the same way is kept. A library is kept
// in the work folder under the hash of its source, so a candidate or a replay compiled once is not compiled
// again.
//
// The result: the minimal case (graph text and runtime parameters), the failed check's sentence, a program in
// upstream's dialect that builds with evgcheck_add_program and reproduces the failure (reproducer.hpp), and a
// replay line. The libraries: library_cache.hpp; the runner's command line and verdict: runner_protocol.hpp.
#include "upstream_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <streambuf>
#include <string>
#include <utility>
#include <vector>

#include "acl/catlass_checkout.hpp"
#include "check_report.hpp"
#include "corpus_emit.hpp"
#include "coverage.hpp"
#include "engine.hpp"
#include "evg/graph/emit_cpp.hpp"
#include "evg/graph/error.hpp"
#include "evg/graph/kernel_config.hpp"
#include "evg/process/shell_quote.hpp"
#include "evg/process/subprocess.hpp"
#include "evg/props/generators.hpp"
#include "evg/props/model_property.hpp"
#include "evg/props/regression.hpp"
#include "library_cache.hpp"
#include "reproducer.hpp"
#include "runner_protocol.hpp"

namespace evg::upstream::check {

using namespace detail;
using namespace evg::upstream::corpus;

namespace {

// The largest batch of shrink candidates compiled into one library (about 24 CPU-s and half a GB with g++ 12;
// upstream/CMakeLists.txt has the measurements).
constexpr std::size_t kShrinkBatch = 8;

// One run of the runner (runner_protocol.hpp): its verdict file read back, or the verdict of a run that
// wrote none (a timeout, a crash, a runner that could not start the instance).
using RunnerVerdict = upstream::runner::Verdict;

RunnerVerdict run_runner(upstream::runner::Request rq, const UpstreamCheckOptions& o,
                         LibraryCache& compiler) {
    rq.known = o.known;
    rq.case_limit = o.case_limit;
    const std::string runner = runner_path();
    const auto start = [&] {
        fs::remove(rq.out);
        evg::process::ProcessResult p = evg::process::run_process(
            runner, upstream::runner::arguments(rq), {},
            std::min(o.stop,
                     Clock::now() + std::chrono::milliseconds(static_cast<long long>(o.run_timeout * 1000))));
        stop_if_past(o.stop);
        return p;
    };
    evg::process::ProcessResult r = start();
    if (r.exit_code == upstream::runner::kExitStale) {
        // A cached library of another evgcheck build's headers (corpus_load.hpp): built again, it runs. If
        // the rebuilt one is still refused, this evgcheck's headers changed after its runner was built.
        const LibraryCache::Result rebuilt = compiler.rebuild(rq.library);
        RunnerVerdict v;
        v.tag = "runner";
        if (!rebuilt.library) {
            v.message = fmt::format(
                "the cached library was stale (its ABI stamp not the runner's), and building it "
                "again failed:\n{}",
                rebuilt.error);
            return v;
        }
        r = start();
        if (r.exit_code == upstream::runner::kExitStale) {
            v.message = fmt::format(
                "the runner refuses a library built just now against this evgcheck's headers: the headers "
                "changed "
                "after evg_upstream_runner was built; rebuild evgcheck (cmake --build build/<preset>):\n{}",
                tail_lines(r.output, 5));
            return v;
        }
    }
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

// What a passed run's values were not compared on: "; values not compared with the oracle (...): D in 26 of
// them", "" when every output was compared in every case.
std::string not_compared_text(const RunnerVerdict& v) {
    std::string out;
    for (const auto& [output, cases] : v.not_compared)
        out += fmt::format("{}{} in {}", out.empty() ? "" : ", ", output, cases);
    return out.empty() ? out
                       : fmt::format(
                             "; values not compared with the oracle (upstream's store-of-a-load race, "
                             "excused, decides them): {} of them",
                             out);
}

// A stream buffer that writes to two: the command's output and the report's record of a failure.
class TeeBuffer : public std::streambuf {
  public:
    TeeBuffer(std::streambuf& a, std::streambuf& b) : a_(a), b_(b) {}

  protected:
    int overflow(int ch) override {
        if (ch == traits_type::eof()) return traits_type::not_eof(ch);
        const bool ok = a_.sputc(static_cast<char>(ch)) != traits_type::eof() &&
                        b_.sputc(static_cast<char>(ch)) != traits_type::eof();
        return ok ? ch : traits_type::eof();
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        const std::streamsize wrote = a_.sputn(s, n);
        b_.sputn(s, n);
        return wrote;
    }
    int sync() override { return a_.pubsync() | b_.pubsync(); }

  private:
    std::streambuf& a_;
    std::streambuf& b_;
};

// Case `c` with kernel configuration `k` (a Spec carries no kernel configuration: the draws schedule it).
props::Case with_kernel(props::Case c, const graph::KernelConfig& k) {
    c.problem.kernel = k;
    return c;
}

// Simpler kernel configurations than `k` to shrink to, simplest first: the default one, then `k` with its
// stage counts and L0 K at their defaults, then with row-major A and B. Each only when it differs from `k`.
std::vector<graph::KernelConfig> kernel_candidates(const graph::KernelConfig& k) {
    std::vector<graph::KernelConfig> out;
    const graph::KernelConfig d;
    const auto add = [&](const graph::KernelConfig& c) {
        if (!(c == k) && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
    };
    add(d);
    graph::KernelConfig stages = k;
    stages.l1a_stages = d.l1a_stages;
    stages.l1b_stages = d.l1b_stages;
    stages.l0a_stages = d.l0a_stages;
    stages.l0b_stages = d.l0b_stages;
    stages.l0_k = d.l0_k;
    add(stages);
    graph::KernelConfig rows = k;
    rows.layout_a = rows.layout_b = graph::MatrixLayout::RowMajor;
    add(rows);
    return out;
}

// The Spec of the failing case: the drawn graph's Spec with the runtime parameters the runner's shrink
// ended on (they decode to the same case; nullopt when they do not, and the graph is then not shrunk).
std::optional<props::Spec> spec_of(props::Spec spec, const props::Case& failing) {
    spec.ub_path = failing.problem.path == graph::WorkspacePath::UB;
    spec.m = failing.problem.m;
    spec.n = failing.problem.n;
    spec.k = failing.problem.k;
    spec.cores = static_cast<uint8_t>(failing.cores);
    spec.sched_seed = failing.sched_seed;
    spec.data_seed = failing.data_seed;
    if (!(with_kernel(upstream_case(spec), failing.problem.kernel) == failing)) return std::nullopt;
    return spec;
}

std::string quote(const std::string& s) {
    return evg::process::shell_quote(s);
}

int report_failure(const UpstreamCheckOptions& o, std::ostream& out, const LibraryCache& compiler,
                   const props::Case& c, const RunnerVerdict& verdict, int steps, int tried, int uncompiled,
                   bool budget_spent, double seconds) {
    const FailureFiles files = write_failure_files(o, c, verdict.message);
    const std::string& case_text = files.case_text;
    const std::string& scheduler = files.scheduler;
    const fs::path& dir = files.dir;

    out << fmt::format(
        "\nminimal failing case ({} nodes; {} graph shrink steps, {} candidates run, compiled {} in {:.1f} s "
        "of the {:.0f} s compile budget{}, {} from cache{}; {:.1f} s in all):\n{}\n",
        props::node_count(c), steps, tried,
        compiler.compiles() == 1 ? std::string("in 1 library")
                                 : fmt::format("in {} libraries", compiler.compiles()),
        compiler.spent(), compiler.budget(),
        budget_spent ? ", which ran out: the case may shrink further with a larger --compile-budget" : "",
        compiler.cached(),
        uncompiled > 0
            ? fmt::format(", {} candidates that the checkout does not compile (left out: a graph it cannot "
                          "build shows nothing)",
                          uncompiled)
            : "",
        seconds, case_text);
    out << "failure [" << verdict.tag << "]: " << verdict.message << "\n\n";
    out << fmt::format("files: {} (the case), {} (the program in upstream's dialect), {}\n",
                       (dir / "case.txt").string(), (dir / "repro.cpp").string(),
                       (dir / "CMakeLists.txt").string());
    out << fmt::format(
        "build the program: cmake -S {} -B {}/build -G Ninja -Devgcheck_DIR={} && cmake --build {}/build\n",
        dir.string(), dir.string(), package_dir(), dir.string());
    out << fmt::format("run it:   {} run-program {} --known {} --expect 'Compare success.' {}/build/repro\n",
                       quote(o.self), scheduler, quote(o.known), dir.string());
    out << fmt::format("replay: {} check --catlass-root {} --replay {} --work-dir {}{}{}\n", quote(o.self),
                       quote(o.root), quote((dir / "case.txt").string()), quote(o.work_dir.string()),
                       o.known == default_known_findings() ? "" : " --known " + quote(o.known),
                       o.case_limit == upstream::runner::kDefaultCaseLimit
                           ? ""
                           : fmt::format(" --case-limit {}", o.case_limit));
    return 1;
}

int shrink_and_report(const UpstreamCheckOptions& o, std::ostream& out, LibraryCache& compiler,
                      const Draw& drawn, props::Case current, RunnerVerdict verdict) {
    const auto start = Clock::now();
    const std::string tag = verdict.tag;
    int steps = 0, tried = 0;
    std::optional<props::Spec> spec = drawn.cover ? std::nullopt : spec_of(drawn.spec, current);
    bool budget_spent = false;
    if (!drawn.cover && !spec)
        out << "(the failing case is not the drawn Spec's at its runtime parameters: the graph is not "
               "shrunk)\n";
    const fs::path verdict_file = scratch_file(o.work_dir, "verdict");
    const fs::path case_file = scratch_file(o.work_dir, "candidate");
    int uncompiled = 0;  // candidates the checkout does not compile
    // The shrink library's instance that the current case failed on, and the problem it was compiled for. A
    // candidate of the same problem (it differs from the current case in its runtime parameters only: cores,
    // schedule, data) runs on that instance without a compile: an instance's code is its problem's
    // (instance_functions), and the runner runs the case file's case on it. Not the check's own library,
    // whose instances may have a TopologicalVisitor twin that a shrink candidate's has not.
    struct Compiled {
        fs::path library;
        int index;
        graph::Problem problem;
    };
    std::optional<Compiled> compiled;
    const auto compiled_already = [&](const props::Case& candidate) {
        return compiled && compiled->problem == candidate.problem;
    };
    // Runs instance `index` of `library`, the case `candidate`: whether it fails the same way (it is then the
    // current case).
    const auto fails_the_same = [&](const fs::path& library, int index, const props::Case& candidate) {
        ++tried;
        write_file(case_file, props::to_text(candidate, "UpstreamCheck/candidate"));
        const RunnerVerdict v =
            run_runner(case_request(library, index, case_file, verdict_file), o, compiler);
        if (v.pass || v.tag != tag) return false;
        current = candidate;
        verdict = v;
        compiled = Compiled{library, index, candidate.problem};
        ++steps;
        out << fmt::format("  step {}: {} nodes ({})\n", steps, props::node_count(current),
                           props::summary(current))
            << std::flush;
        return true;
    };
    // The first of `candidates`, in order, that compiles and fails the same way: the same choice as trying
    // them one by one, made with fewer compiles. The candidates go into libraries of growing batches (2, 4,
    // then kShrinkBatch), whose instances share one parse of upstream's headers: a library's fixed part
    // (configure, the registry, the headers, the link) is most of a one-instance library's time, an instance
    // a few seconds more (upstream/CMakeLists.txt). A batch the checkout does not compile is tried one
    // candidate at a time, so that the one it refuses leaves out only itself. A candidate compiled already
    // (above) runs in its turn, and a batch stops before it.
    const auto first_failing = [&](const std::vector<props::Case>& candidates) -> std::optional<std::size_t> {
        std::vector<std::size_t> runnable;  // indices into candidates
        for (std::size_t i = 0; i < candidates.size(); ++i)
            if (!(candidates[i] == current) && !graph::kernel_config_refusal(candidates[i].problem) &&
                instance_refusal(candidates[i]).empty())
                runnable.push_back(i);
        const auto build = [&](const std::vector<props::Case>& batch) {
            LibraryCache::Result lib = compiler.build(library_source(
                batch, batch.size() == 1 ? std::string("evgcheck check --catlass-root, a shrink candidate")
                                         : fmt::format("evgcheck check --catlass-root, {} shrink candidates",
                                                       batch.size())));
            if (lib.budget_spent) budget_spent = true;
            return lib;
        };
        std::size_t size = 2;
        for (std::size_t at = 0, end = 0; at < runnable.size() && !budget_spent; at = end) {
            if (const props::Case& next = candidates[runnable[at]]; compiled_already(next)) {
                end = at + 1;
                const Compiled on = *compiled;
                if (fails_the_same(on.library, on.index, next)) return runnable[at];
                continue;
            }
            end = at;
            while (end < runnable.size() && end - at < size && !compiled_already(candidates[runnable[end]]))
                ++end;
            size = std::min(size * 2, kShrinkBatch);
            std::vector<props::Case> batch;
            for (std::size_t i = at; i < end; ++i) batch.push_back(candidates[runnable[i]]);
            if (const LibraryCache::Result lib = build(batch); lib.library) {
                for (std::size_t i = 0; i < batch.size(); ++i)
                    if (fails_the_same(*lib.library, static_cast<int>(i), batch[i])) return runnable[at + i];
                continue;
            }
            if (budget_spent) break;
            for (std::size_t i = 0; i < batch.size() && !budget_spent; ++i) {
                const LibraryCache::Result one =
                    batch.size() == 1 ? LibraryCache::Result{} : build({batch[i]});
                if (!one.library) {
                    uncompiled += budget_spent ? 0 : 1;
                    continue;
                }
                if (fails_the_same(*one.library, 0, batch[i])) return runnable[at + i];
            }
        }
        return std::nullopt;
    };
    // A cover graph (made, not drawn: no Spec) shrinks to the chain of one of its cells.
    if (drawn.cover && drawn.cover_cells.size() > 1) {
        std::vector<props::Case> candidates;
        for (const CoverCell& cell : drawn.cover_cells) {
            props::Case candidate = current;
            const props::Case one =
                cover_case({cell}, current.problem.path == graph::WorkspacePath::UB, false, false);
            candidate.problem =
                graph::with_shape(one.problem, current.problem.m, current.problem.n, current.problem.k);
            candidate.problem.kernel = current.problem.kernel;
            candidates.push_back(std::move(candidate));
        }
        first_failing(candidates);
    }
    while (spec && !budget_spent) {
        // A simpler kernel configuration of the same graph first, then smaller graphs in the current one.
        std::vector<props::Spec> specs;
        std::vector<props::Case> candidates;
        for (const graph::KernelConfig& k : kernel_candidates(current.problem.kernel)) {
            specs.push_back(*spec);
            candidates.push_back(with_kernel(current, k));
        }
        for (const props::Spec& candidate_spec : props::shrink_candidates(*spec)) {
            specs.push_back(candidate_spec);
            candidates.push_back(with_kernel(upstream_case(candidate_spec), current.problem.kernel));
        }
        const std::optional<std::size_t> found = first_failing(candidates);
        if (!found) break;
        spec = specs[*found];
    }
    fs::remove(case_file);
    return report_failure(o, out, compiler, current, verdict, steps, tried, uncompiled, budget_spent,
                          seconds_since(start));
}

}  // namespace

UpstreamCheck::UpstreamCheck(UpstreamCheckOptions o) : o_(std::move(o)) {
    o_.work_dir = o_.work_dir.empty() ? default_work_dir() : fs::absolute(o_.work_dir);
    o_.root = fs::absolute(o_.root).lexically_normal().string();
    if (!o_.root.empty() && o_.root.back() == '/') o_.root.pop_back();
    if (o_.known.empty()) o_.known = default_known_findings();
}

std::string UpstreamCheck::setup_error() const {
    if (!fs::exists(fs::path(o_.root) / "include" / "catlass" / "catlass.hpp"))
        return fmt::format("--catlass-root: '{}' is not a Catlass checkout (no include/catlass/catlass.hpp)",
                           o_.root);
    if (std::string why = compile_setup_error(); !why.empty()) return why;
    const std::string runner = runner_path();
    if (runner.empty() || !fs::exists(runner))
        return fmt::format(
            "this evgcheck has no evg_upstream_runner (looked for '{}'; build it, or set "
            "EVGCHECK_UPSTREAM_RUNNER)",
            runner);
    return {};
}

int UpstreamCheck::run(std::ostream& out) {
    LibraryCache compiler(o_.work_dir, o_.root, o_.compile_budget, o_.stop);
    const auto start = Clock::now();
    fs::create_directories(o_.work_dir);
    const std::string catlass = evg::acl::identify_catlass_checkout(o_.root).describe();
    out << fmt::format(
               "evgcheck check: {}{} on the Catlass checkout {} (Ascend950), {} runtime cases each, seed "
               "{}; work folder {}\n",
               o_.only_graph >= 0 ? fmt::format("graph {} of {}", o_.only_graph, o_.graphs)
                                  : fmt::format("{} graphs", o_.graphs),
               o_.shard ? fmt::format(", shard {}", o_.shard->text()) : "", o_.root, o_.cases, o_.seed,
               o_.work_dir.string())
        << "catlass: " << catlass << "\n"
        << std::flush;
    std::vector<Draw> drawn = plan_instances(o_.seed, o_.graphs);
    if (static_cast<int>(drawn.size()) < o_.graphs)
        out << fmt::format("(only {} graphs upstream can run were found in {} draws)\n", drawn.size(),
                           o_.graphs * 20);
    CheckReport report;
    report.command = o_.command;
    report.run_command = o_.run_command;
    report.root = o_.root;
    report.catlass = catlass;
    report.seed = o_.seed;
    report.graphs = o_.graphs;
    report.cases = o_.cases;
    report.drawn = static_cast<int>(drawn.size());
    report.shard = o_.shard;
    // Each graph's number in the run: a shard keeps its share, --graph K the one.
    std::vector<int> numbers;
    std::vector<Draw> mine;
    for (std::size_t i = 0; i < drawn.size(); ++i)
        if ((o_.only_graph < 0 || static_cast<int>(i) == o_.only_graph) &&
            (!o_.shard || o_.shard->holds(i))) {
            numbers.push_back(static_cast<int>(i));
            mine.push_back(drawn[i]);
        }
    drawn = std::move(mine);
    report.numbers = numbers;
    // The report, written when the run ends however it ends (a failure, the time budget).
    const auto finish = [&](int code) {
        report.seconds = seconds_since(start);
        if (!o_.report_dir.empty()) {
            const fs::path dir = o_.report_dir;
            fs::create_directories(dir);
            write_file(dir / "check-report.json", check_report_json(report));
            write_file(dir / "junit.xml", check_report_junit(report));
            out << fmt::format("report: {} {}\n", (dir / "check-report.json").string(),
                               (dir / "junit.xml").string());
        }
        return code;
    };
    if (drawn.empty()) {
        if (o_.shard && o_.only_graph < 0) {  // more shards than graphs: this one holds none
            out << fmt::format("shard {} holds none of the run's {} graphs\n", o_.shard->text(),
                               report.drawn);
            out << check_report_ending(report);
            return finish(0);
        }
        return 1;
    }
    std::vector<props::Case> cases;
    std::vector<bool> twins;
    for (std::size_t i = 0; i < drawn.size(); ++i) {
        cases.push_back(drawn[i].c);
        twins.push_back(check_twin(drawn[i], static_cast<std::size_t>(numbers[i])));
    }
    try {
        const std::string source =
            library_source(cases, fmt::format("evgcheck check --catlass-root, seed {}", o_.seed), twins);
        // The first library is built whatever the budget: without it nothing runs.
        LibraryCache first(o_.work_dir, o_.root, std::max(o_.compile_budget, 1800.0), o_.stop);
        const LibraryCache::Result lib = first.build(source);
        if (!lib.library) {
            out << fmt::format(
                "FAILED the checkout does not compile the {} graphs' instances (upstream's kernel "
                "around each EVG, Ascend950):\n{}\n",
                cases.size(), lib.error);
            report.stopped = "the checkout does not compile the graphs' instances";
            return finish(1);
        }
        out << fmt::format("compiled {} graphs against the checkout in {:.1f} s{}\n", cases.size(),
                           seconds_since(start), lib.cached ? " (cached)" : "")
            << std::flush;

        for (std::size_t i = 0; i < drawn.size(); ++i) {
            const auto graph_start = Clock::now();
            const fs::path verdict_file = scratch_file(o_.work_dir, "verdict");
            const RunnerVerdict v = run_runner(property_request(*lib.library, static_cast<int>(i), o_.cases,
                                                                o_.seed + numbers[i], verdict_file),
                                               o_, first);
            if (i == 0 && !v.compiler.empty()) out << "kernel compiler: " << v.compiler << "\n";
            CheckGraph g;
            g.number = numbers[i];
            g.summary = props::summary(drawn[i].c);
            const std::set<std::string> cells = cells_of(drawn[i].c, twins[i]);
            g.cells.assign(cells.begin(), cells.end());
            if (v.pass) {
                g.pass = true;
                g.cases = v.passed;
                g.excused_cases = v.excused_cases;
                for (const auto& [entry, n] : v.excused) g.excused[entry] += n;
                g.not_compared = not_compared_text(v);
                g.seconds = seconds_since(graph_start);
                report.results.push_back(g);
                out << fmt::format("ok   graph {} ({}): {} cases{}{}\n", numbers[i], g.summary, v.passed,
                                   v.excused_cases ? fmt::format(", a known finding excused in {} of them",
                                                                 v.excused_cases)
                                                   : "",
                                   g.not_compared)
                    << std::flush;
                continue;
            }
            // A failure: what is printed of it, as it is printed, goes into the report too.
            std::ostringstream said;
            TeeBuffer tee(*out.rdbuf(), *said.rdbuf());
            std::ostream both(&tee);
            both << fmt::format("FAILED graph {} ({})\n", numbers[i], g.summary);
            int code = 1;
            if (v.case_text.empty()) {
                both << fmt::format("failure [{}]: {}\n(the runner gave no case to shrink)\n", v.tag,
                                    v.message);
            } else {
                const props::Case failing = props::case_from_text(v.case_text);
                both << fmt::format(
                            "  runtime parameters shrunk to: {}\n  shrinking the graph (candidates "
                            "compiled against the checkout in batches):\n",
                            props::summary(failing))
                     << std::flush;
                code = shrink_and_report(o_, both, compiler, drawn[i], failing, v);
            }
            both.flush();
            g.failure = said.str();
            g.seconds = seconds_since(graph_start);
            report.results.push_back(g);
            report.stopped = fmt::format("graph {} failed (a run stops at its first failure)", numbers[i]);
            return finish(code);
        }
    } catch (const UpstreamCheckTimeBudget&) {
        report.stopped = "the time budget ran out";
        finish(3);
        throw;
    }
    report.seconds = seconds_since(start);
    out << check_report_ending(report);
    return finish(0);
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
    if (const std::string why = instance_refusal(c); !why.empty())
        throw UpstreamCheckInputError(fmt::format(
            "--replay: the case in {} cannot run on upstream Catlass: {}", case_file.string(), why));
    LibraryCache compiler(o_.work_dir, o_.root, std::max(o_.compile_budget, 1800.0), o_.stop);
    const LibraryCache::Result lib =
        compiler.build(library_source({c}, "evgcheck check --catlass-root --replay"));
    if (!lib.library) {
        out << "FAILED the checkout does not compile the case's instance:\n" << lib.error << "\n";
        return 1;
    }
    const RunnerVerdict v = run_runner(
        case_request(*lib.library, 0, fs::absolute(case_file), scratch_file(o_.work_dir, "verdict")), o_,
        compiler);
    if (v.pass) {
        out << fmt::format("ok   {} passes on {}{}\n", props::summary(c), o_.root, not_compared_text(v));
        for (const auto& [entry, cases] : v.excused)
            out << fmt::format("     a known finding excused (the known-findings file, --known): {}\n",
                               entry);
        return 0;
    }
    out << fmt::format("FAILED {} on {}\nfailure [{}]: {}\n", props::summary(c), o_.root, v.tag, v.message);
    return 1;
}

}  // namespace evg::upstream::check
