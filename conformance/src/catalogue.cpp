// The catalogue (all_cases), the runner (run_cases) and the helpers the suites share.
#include "catalogue.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "evg/graph/run.hpp"
#include "evg/graph/text.hpp"
#include "evg/graph/ub_budget.hpp"
#include "evg/graph/validate.hpp"

namespace evg::conformance {

namespace detail {

std::string arch_str(graph::ArchId a) {
    return std::string(hw::arch_name(a));
}
std::string dtype_str(graph::DType t) {
    return std::string(hw::dtype_name(t));
}

std::string configure(graph::Problem& p, graph::ArchId arch, const Config& cfg) {
    p.arch = arch;
    p.m = cfg.m;
    p.n = cfg.n;
    p.k = cfg.k;
    p.tile =
        cfg.arch_tile ? graph::default_tile(arch) : graph::kRunTiles[2];  // the small tile: the props' too
    p.path = cfg.ub ? graph::WorkspacePath::UB : graph::WorkspacePath::GM;
    for (graph::Node& n : p.graph.nodes)
        if (n.kind == graph::NodeKind::AccLoad) n.use_ub = cfg.ub;
    for (graph::Tensor& t : p.graph.tensors) {
        if (t.rows != 1) t.rows = p.m;
        if (t.cols != 1) t.cols = p.n;
        t.row_stride = t.cols + (t.rows == p.m ? cfg.pad : 0);
    }
    uint32_t cl = cfg.cl;
    if (cl == 0) {
        const graph::ArchId budget_arch =
            cfg.ub && arch != graph::ArchId::Ascend950 ? graph::ArchId::Ascend950 : arch;
        cl = graph::max_compute_length(p.graph, budget_arch, p.path);
        if (cl == 0) cl = 32;
    }
    p.compute_length = cl;
    // A graph that carves no UB (a UB-path AccLoad stored directly) has no largest computeLength: its id says
    // so instead of printing the 32-bit bound.
    const std::string cl_text = cfg.cl != 0        ? std::to_string(cl)
                                : cl >= (1u << 30) ? std::string("max-noUB")
                                                   : fmt::format("{}max", cl);
    return fmt::format("{}/{}/CL{}{}", cfg.ub ? "ub" : "gm", cfg.shape, cl_text,
                       cfg.pad ? fmt::format("/stride+{}", cfg.pad) : "");
}

const std::vector<std::string>& applicability_rules() {
    static const std::vector<std::string> r = {"acc-path",      "bf16-arithmetic", "arch-functor",
                                               "functor-dtype", "broadcast-dtype", "cast-illegal"};
    return r;
}

CaseSpec model_case(std::string id, std::string suite, std::string node_kind, std::string dtype, ModelCase c,
                    const std::vector<std::string>& na_rules) {
    CaseSpec s;
    s.id = std::move(id);
    s.suite = std::move(suite);
    s.node_kind = std::move(node_kind);
    s.dtype = std::move(dtype);
    s.arch = arch_str(c.problem.arch);
    s.path = c.problem.path == graph::WorkspacePath::UB ? "ub" : "gm";
    CaseSpec meta = s;
    s.run = [meta, c = std::move(c), na_rules]() -> CaseResult {
        for (const graph::Diagnostic& d : graph::validate(c.problem)) {
            if (d.severity != graph::Severity::Error) continue;
            const bool na = std::find(na_rules.begin(), na_rules.end(), d.rule) != na_rules.end();
            CaseResult r =
                na ? not_applicable(meta, fmt::format("[{}] {}", d.rule, d.message)) : start_result(meta);
            r.graph_text = graph::print(c.problem);
            if (!na) r.message = "the problem does not validate: " + d.format();
            return r;
        }
        return judge_conforming(measure(meta, c));
    };
    return s;
}

}  // namespace detail

bool glob_match(const std::string& glob, const std::string& text) {
    // Iterative '*' / '?' matching with backtracking to the last star.
    std::size_t g = 0, t = 0, star = std::string::npos, mark = 0;
    while (t < text.size()) {
        if (g < glob.size() && (glob[g] == '?' || glob[g] == text[t])) {
            ++g;
            ++t;
        } else if (g < glob.size() && glob[g] == '*') {
            star = g++;
            mark = t;
        } else if (star != std::string::npos) {
            g = star + 1;
            t = ++mark;
        } else {
            return false;
        }
    }
    while (g < glob.size() && glob[g] == '*') ++g;
    return g == glob.size();
}

std::vector<CaseSpec> all_cases() {
    std::vector<CaseSpec> out;
    detail::add_node_cases(out);
    detail::add_composition_cases(out);
    detail::add_static_composition_cases(out);
    detail::add_example_cases(out);
    detail::add_negative_cases(out);
    detail::add_hazard_cases(out);
    return out;
}

std::vector<ControlRequirement> required_controls() {
    std::vector<ControlRequirement> out;
    detail::add_checker_requirements(out);
    detail::add_judge_requirements(out);
    return out;
}

namespace {

// One case, timed; an exception is the case's failure.
CaseResult run_one(const CaseSpec& c) {
    const auto t0 = std::chrono::steady_clock::now();
    CaseResult r;
    try {
        r = c.run();
    } catch (const std::exception& e) {
        r = start_result(c);
        r.message = fmt::format("exception: {}", e.what());
    } catch (...) {
        r = start_result(c);
        r.message = "exception: (not a std::exception)";
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

// `jobs` threads take the cases in catalogue order; the calling thread hands each result to `progress` in
// that order as soon as it and every earlier one are done. A case runs on one thread from start to end, with
// that thread's device and upstream-hazard switches (both thread-local: lib/hw device.cpp,
// upstream_hazards.hpp), so cases on different threads share nothing mutable. `stop` is asked under the lock
// that hands out the next case, so the cases that ran are always a prefix of the catalogue.
std::vector<CaseResult> run_parallel(const std::vector<const CaseSpec*>& todo,
                                     const std::function<void(const CaseResult&)>& progress,
                                     const std::function<bool()>& stop, int jobs) {
    std::mutex mu;
    std::condition_variable done_one;
    std::vector<std::optional<CaseResult>> slots(todo.size());
    size_t next = 0;       // the next case to hand out
    bool stopped = false;  // `stop` said true: no case starts any more
    const auto worker = [&] {
        while (true) {
            size_t i = 0;
            {
                std::lock_guard lock(mu);
                if (stopped || next == todo.size()) return;
                if (stop && stop()) {
                    stopped = true;
                    done_one.notify_all();
                    return;
                }
                i = next++;
            }
            CaseResult r = run_one(*todo[i]);
            {
                std::lock_guard lock(mu);
                slots[i] = std::move(r);
            }
            done_one.notify_all();
        }
    };
    std::vector<std::jthread> threads;
    const size_t n = std::min(todo.size(), static_cast<size_t>(jobs));
    for (size_t t = 0; t < n; ++t) threads.emplace_back(worker);

    std::vector<CaseResult> out;
    std::unique_lock lock(mu);
    while (true) {
        // Finished: every case handed out has been passed on, and no further one will be.
        const auto finished = [&] { return out.size() == next && (stopped || next == todo.size()); };
        done_one.wait(lock, [&] { return finished() || (out.size() < next && slots[out.size()]); });
        if (finished()) break;
        CaseResult r = std::move(*slots[out.size()]);
        slots[out.size()].reset();
        lock.unlock();
        if (progress) progress(r);
        out.push_back(std::move(r));
        lock.lock();
    }
    return out;  // the threads have all returned or are about to (jthread joins them)
}

}  // namespace

std::vector<CaseResult> run_cases(const std::vector<CaseSpec>& cases, const std::string& filter_glob,
                                  const std::function<void(const CaseResult&)>& progress,
                                  const std::function<bool()>& stop, int jobs) {
    std::vector<const CaseSpec*> todo;
    for (const CaseSpec& c : cases)
        if (filter_glob.empty() || glob_match(filter_glob, c.id)) todo.push_back(&c);
    if (jobs > 1 && todo.size() > 1) return run_parallel(todo, progress, stop, jobs);
    std::vector<CaseResult> out;
    for (const CaseSpec* c : todo) {
        if (stop && stop()) break;
        CaseResult r = run_one(*c);
        if (progress) progress(r);
        out.push_back(std::move(r));
    }
    return out;
}

CaseSpec planted_failing_case() {
    // A conforming RowBroadcast case run with upstream's missing PipeBarrier switched on: on AtlasA2 the
    // replication races with the Add that reads it, so the conformance judgement fails (race).
    graph::Problem p;
    p.a = p.b = graph::DType::f16;
    p.c = graph::DType::f32;
    p.graph = graph::parse_graph(R"(input bias : float[1, 128]
output D : float[64, 128]
%0 = AccLoad float
%1 = RowBroadcast float bias
%2 = Compute Add float (%0, %1)
%3 = AuxStore float D (%2)
)");
    const std::string tail = detail::configure(p, graph::ArchId::AtlasA2, detail::kFull);
    ModelCase c;
    c.problem = p;
    c.hazards.row_broadcast_no_barrier = true;
    CaseSpec s = detail::model_case("Planted/RowBroadcast/AtlasA2/float/" + tail, "node", "RowBroadcast",
                                    "float", c, {});
    return s;
}

}  // namespace evg::conformance
