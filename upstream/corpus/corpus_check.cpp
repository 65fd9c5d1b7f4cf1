#include "corpus_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

#include "../sync_sequences.hpp"
#include "corpus_emit.hpp"
#include "evg/graph/implementation.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/props/require.hpp"
#include "evg/verify/compare.hpp"
#include "evg/verify/data.hpp"
#include "evg/verify/judge.hpp"

namespace evg::upstream::corpus {

thread_local PropertySteps* PropertySteps::sink = nullptr;

namespace {

double thread_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Adds the CPU time from its construction to its end to one step of PropertySteps::sink, when there is one.
class StepTimer {
  public:
    explicit StepTimer(double PropertySteps::*step)
        : step_(step), start_(PropertySteps::sink ? thread_cpu_seconds() : 0) {}
    ~StepTimer() {
        if (PropertySteps::sink) PropertySteps::sink->*step_ += thread_cpu_seconds() - start_;
    }
    StepTimer(const StepTimer&) = delete;
    StepTimer& operator=(const StepTimer&) = delete;

  private:
    double PropertySteps::*step_;
    double start_;
};

// The oracle's values of `p` on the case's data, as the judge reads them: a node's values the judge does not
// read (verify::values_the_judge_reads) are released once every node that needs them is computed, which
// spares the oracle a sixth of its time on a corpus case (judge_case does the same for evgcheck's own cases).
oracle::OracleResult golden_of(const graph::Problem& p, const verify::CaseData& data) {
    return oracle::evaluate(p, data.inputs, verify::values_the_judge_reads(p));
}

// The TopologicalVisitor twin's request: the case's, with the checkers that only watch turned off. The
// property reads the twin's trace (its synchronisation) and its outputs' bytes, never its report, and a
// checker that only watches (race, dcache, fp and the opt-in ones) changes neither: it is called on the
// machine's events and decides nothing the kernel or the scheduler does. The checkers that decide what runs
// stay as the case has them: `flags` (a flag call on a pipe the core does not have compiles to nothing and is
// not issued), `memory` (an access it refuses is not executed) and `uninit` (a core's stack is refilled with
// the fill, so that a variable read before it is set reads what it reads in the TreeVisitor's run).
RunRequest twin_request(RunRequest rq) {
    hw::CheckerConfig& c = rq.config.checks;
    c.race = c.dcache = c.fp = c.redundant_waits = c.portable_v_order = c.node_slots = false;
    return rq;
}

}  // namespace

graph::ModelRun run_evgcheck_copy(const props::Case& c, const verify::CaseData& data) {
    const graph::RunInputs in = verify::run_inputs(data.inputs);
    graph::RunOptions opt;
    opt.block_dim = c.cores;
    opt.config.scheduler = hw::SchedulerKind::in_order;
    opt.config.checks = hw::CheckerConfig::none();
    opt.config.keep_trace = false;
    return graph::run_on_model(evgcheck_copy(c).problem, in, opt);
}

RunRequest make_request(const props::Case& c, const verify::CaseData& data) {
    const graph::Problem& p = c.problem;
    RunRequest rq;
    rq.m = static_cast<uint32_t>(p.m);
    rq.n = static_cast<uint32_t>(p.n);
    rq.k = static_cast<uint32_t>(p.k);
    rq.cores = c.cores;
    rq.config.scheduler = c.sched_seed ? hw::SchedulerKind::adversarial : hw::SchedulerKind::in_order;
    rq.config.seed = c.sched_seed;
    rq.a = operand_in_gm(p, data, 'A');
    rq.b = operand_in_gm(p, data, 'B');
    for (const graph::Tensor& t : p.graph.tensors) {
        const auto it = data.inputs.find(t.name);
        if (it == data.inputs.end() || it->second.bytes().size() != graph::buffer_bytes(t))
            throw std::logic_error(
                fmt::format("upstream corpus: the case data has no contents of {} bytes for {}",
                            graph::buffer_bytes(t), t.name));
        rq.tensors.push_back({t.name, bytes_of(it->second)});
    }
    return rq;
}

UpstreamVerdict run_and_judge(const Instance& instance, const props::Case& c, const verify::CaseData& data,
                              verify::KnownFindings* known) {
    return judge_run(instance.run(make_request(c, data)), c, data, known);
}

void adopt_trace(InstanceRun& run) {
    if (run.op_sites.empty()) return;  // adopted already, or no trace
    // A Site's file must outlive the process's intern table, which knows a file by its address: one string
    // per file name, never freed.
    static std::mutex mu;
    static std::set<std::string> files;
    std::vector<uint32_t> ids(run.op_sites.size());
    {
        const std::lock_guard<std::mutex> lock(mu);
        for (size_t k = 0; k < ids.size(); ++k) {
            const OpSite& o = run.op_sites[k];
            ids[k] = hw::intern_op_site(o.op, hw::Site{files.insert(o.file).first->c_str(), o.line});
        }
    }
    for (size_t i = 0; i < run.trace.size(); ++i) {
        hw::TraceEntry& e = run.trace[i];
        if (e.op_site < ids.size()) e.op_site = ids[e.op_site];
    }
    run.op_sites.clear();
}

verify::RunConditions run_conditions(const graph::Problem& p) {
    verify::RunConditions out;
    out.stores_a_load = graph::known_hazard(graph::Implementation::upstream, p.graph).has_value();
    return out;
}

graph::ModelRun model_run(const InstanceRun& run, const graph::Problem& p, verify::KnownFindings* known,
                          std::vector<const verify::KnownFinding*>* excused) {
    graph::ModelRun model;
    model.report = run.report;
    if (known) {
        const verify::RunConditions conditions = run_conditions(p);
        const verify::KnownFinding* race = nullptr;  // the entry that took a store-of-a-load race out
        std::erase_if(model.report.violations, [&](const hw::Violation& v) {
            const verify::KnownFinding* k = known->match(v, conditions);
            if (k && excused) excused->push_back(k);
            if (k && k->stores_a_load) race = k;
            return k != nullptr;
        });
        // The race's other consequence: when the next load ran first, a racing store copies out the padding
        // that load leaves undefined (uninit_to_gm into the output of a store that reads a load's buffer,
        // which the checker's sentence names: "copied to <buffer> offset"). Taken out with the race, by its
        // entry; into any other output it stays a finding.
        if (race) {
            std::set<std::string> outputs;
            for (const int i : graph::stores_of_loads(p.graph))
                outputs.insert(p.graph.nodes[static_cast<std::size_t>(i)].tensor);
            std::erase_if(model.report.violations, [&](const hw::Violation& v) {
                if (v.kind != hw::ViolationKind::uninit_to_gm) return false;
                const std::string_view m = v.message;
                const size_t at = m.find("(copied to ");
                if (at == std::string_view::npos) return false;
                const std::string_view rest = m.substr(at + 11);
                if (!outputs.count(std::string(rest.substr(0, rest.find(" offset "))))) return false;
                if (excused) excused->push_back(race);
                return true;
            });
        }
    }
    for (std::size_t i = 0; i < p.graph.tensors.size(); ++i)
        if (p.graph.tensors[i].role == graph::TensorRole::Output)
            model.outputs[p.graph.tensors[i].name] = run.tensors[i];
    return model;
}

std::map<std::string, std::string> race_decided_outputs(
    const graph::Problem& p, const std::vector<const verify::KnownFinding*>& excused) {
    std::map<std::string, std::string> out;
    const auto race = std::find_if(excused.begin(), excused.end(),
                                   [](const verify::KnownFinding* k) { return k->stores_a_load; });
    if (race == excused.end()) return out;
    for (const int s : graph::stores_of_loads(p.graph))
        out[p.graph.nodes[static_cast<std::size_t>(s)].tensor] = fmt::format(
            "its store reads a load's buffer, and upstream's store-of-a-load race, excused in this run ({}: "
            "{}), "
            "decides its values",
            (*race)->where, (*race)->spelling);
    return out;
}

verify::JudgeOptions upstream_judge_options(const graph::Problem& p, const verify::CaseData& data,
                                            const std::vector<const verify::KnownFinding*>& excused) {
    verify::JudgeOptions options;
    options.exact_data = data.exact_data;
    options.ub_rule = false;  // the UB layout is upstream's own, not evgcheck's UbAccounting
    options.values_not_judged = race_decided_outputs(p, excused);
    return options;
}

UpstreamVerdict judge_run(InstanceRun run, const props::Case& c, const verify::CaseData& data,
                          verify::KnownFindings* known) {
    const graph::Problem& p = c.problem;
    UpstreamVerdict out;
    out.run = std::move(run);
    graph::ModelRun model;
    {
        const StepTimer timer(&PropertySteps::judge);
        adopt_trace(out.run);
        model = model_run(out.run, p, known, &out.excused);
    }
    const oracle::OracleResult golden = [&] {
        const StepTimer timer(&PropertySteps::oracle);
        return golden_of(p, data);
    }();
    const StepTimer timer(&PropertySteps::judge);
    out.verdict = verify::judge(p, model, golden, upstream_judge_options(p, data, out.excused));
    return out;
}

uint64_t case_instruction_limit(uint64_t evgcheck_instructions, double case_limit) {
    const double limit = static_cast<double>(evgcheck_instructions) * case_limit;
    if (!(limit < 1e18)) return uint64_t{1'000'000'000'000'000'000};
    return std::max(kMinCaseInstructions, static_cast<uint64_t>(limit));
}

std::vector<const verify::KnownFinding*> upstream_matches_oracle_and_evgcheck(const Instance& instance,
                                                                              const props::Case& c,
                                                                              verify::KnownFindings& known,
                                                                              double case_limit) {
    const graph::Problem& p = c.problem;
    const verify::CaseData data = [&] {
        const StepTimer timer(&PropertySteps::data);
        return verify::make_case_data(p, c.data, c.data_seed, c.sign);
    }();
    // The differential partner first: evgcheck's copy on the same problem, data and cores (in issue order,
    // run_evgcheck_copy), whose instruction count bounds upstream's run.
    const graph::ModelRun ours = [&] {
        const StepTimer timer(&PropertySteps::ours);
        return run_evgcheck_copy(c, data);
    }();
    RunRequest rq = make_request(c, data);
    rq.config.keep_trace = instance.run_topological != nullptr;  // the twin's synchronisation is compared
    rq.config.max_instructions = case_instruction_limit(ours.report.stats.instructions, case_limit);
    // A kept trace numbers instructions in 32 bits (Config::max_instructions).
    if (rq.config.keep_trace)
        rq.config.max_instructions = std::min<uint64_t>(rq.config.max_instructions, 0xffffffffu);
    const auto run_theirs = [&](const RunRequest& request) {
        const StepTimer timer(&PropertySteps::theirs);
        return instance.run(request);
    };
    UpstreamVerdict theirs = judge_run(run_theirs(rq), c, data, &known);
    if (PropertySteps::sink) {
        PropertySteps::sink->ours_instructions += ours.report.stats.instructions;
        PropertySteps::sink->theirs_instructions += theirs.run.report.stats.instructions;
    }
    RunRequest twin_rq = rq;  // the twin's outputs compare with the values judged: in order, below
    if (!theirs.excused.empty() && rq.config.scheduler == hw::SchedulerKind::adversarial &&
        !theirs.verdict.clean()) {
        // Findings judged on this run (less the excused ones), values on the in-order run of the case.
        graph::ModelRun model = model_run(theirs.run, p, &known);
        RunRequest in_order = rq;
        in_order.config.scheduler = hw::SchedulerKind::in_order;
        in_order.config.seed = 0;
        twin_rq = in_order;
        UpstreamVerdict values = judge_run(run_theirs(in_order), c, data, &known);
        props::require_clean(
            values.verdict,
            "upstream's kernel against the oracle (in issue order: the adversarial run has an "
            "excused finding)");
        for (std::size_t i = 0; i < p.graph.tensors.size(); ++i)
            if (p.graph.tensors[i].role == graph::TensorRole::Output)
                model.outputs[p.graph.tensors[i].name] = values.run.tensors[i];
        std::vector<const verify::KnownFinding*> both = theirs.excused;
        both.insert(both.end(), values.excused.begin(), values.excused.end());
        theirs.verdict = verify::judge(p, model, golden_of(p, data), upstream_judge_options(p, data, both));
        theirs.run.tensors = std::move(values.run.tensors);
        theirs.excused = std::move(both);
    }
    props::require_clean(theirs.verdict, "upstream's kernel against the oracle");
    // The outputs the store-of-a-load race decided in this run are not compared below either: their bytes
    // are the race's, not the kernel's to agree on.
    const std::map<std::string, std::string> decided = race_decided_outputs(p, theirs.excused);

    // A tree instance's twin: the same graph as a TopologicalVisitor, the same request, the same bytes and
    // the same synchronisation (the visitors differ in how they walk the nodes, not in BlockEpilogue's
    // flags).
    if (instance.run_topological) {
        const StepTimer timer(&PropertySteps::twin);
        InstanceRun topo = instance.run_topological(twin_request(twin_rq));
        adopt_trace(topo);
        if (const std::string sync = first_sync_difference(theirs.run.trace, topo.trace); !sync.empty())
            RC_FAIL(fmt::format("upstream's TreeVisitor and TopologicalVisitor synchronise differently: {}",
                                sync));
        for (std::size_t i = 0; i < p.graph.tensors.size(); ++i) {
            const graph::Tensor& t = p.graph.tensors[i];
            if (t.role != graph::TensorRole::Output || decided.count(t.name)) continue;
            const std::string diff =
                first_difference(theirs.run.tensors[i], topo.tensors[i], hw::dtype_size(t.element));
            if (!diff.empty())
                RC_FAIL(fmt::format("output {} of upstream's TreeVisitor and TopologicalVisitor differ at {}",
                                    t.name, diff));
        }
    }

    // The outputs of the differential partner, run above.
    for (std::size_t i = 0; i < p.graph.tensors.size(); ++i) {
        const graph::Tensor& t = p.graph.tensors[i];
        if (t.role != graph::TensorRole::Output || decided.count(t.name)) continue;
        const auto it = ours.outputs.find(t.name);
        RC_ASSERT(it != ours.outputs.end());
        const std::string diff =
            first_difference(theirs.run.tensors[i], it->second, hw::dtype_size(t.element));
        if (!diff.empty())
            RC_FAIL(fmt::format("output {} of upstream's kernel and of evgcheck's copy differ at {}", t.name,
                                diff));
    }
    std::vector<const verify::KnownFinding*> excused = theirs.excused;
    std::sort(excused.begin(), excused.end());
    excused.erase(std::unique(excused.begin(), excused.end()), excused.end());
    return excused;
}

rc::Gen<props::Case> runtime_cases(const props::Case& base) {
    return rc::gen::exec([base] {
        const graph::TileShape t = base.problem.tile;
        const auto extent = [](int64_t tile) {
            return *rc::gen::weightedOneOf<int64_t>(
                {{1, rc::gen::just<int64_t>(1)}, {6, rc::gen::inRange<int64_t>(1, 3 * tile + 1)}});
        };
        const int64_t m = extent(t.m), n = extent(t.n);
        const int64_t k = *rc::gen::inRange<int64_t>(1, 2 * t.k + 1);
        props::Case c = base;
        c.problem = graph::with_shape(base.problem, m, n, k);
        c.cores = *rc::gen::inRange<uint32_t>(1, 9);
        c.sched_seed = *rc::gen::weightedOneOf<uint64_t>(
            {{1, rc::gen::just<uint64_t>(0)}, {1, rc::gen::inRange<uint64_t>(1, 1u << 30)}});
        c.data_seed = *rc::gen::inRange<uint64_t>(0, 1u << 20);
        return c;
    });
}

std::string first_sync_difference(const hw::Trace& a, const hw::Trace& b) {
    const std::vector<SyncDivergence> d = sync_divergences(sync_sequences(a), sync_sequences(b));
    if (d.empty()) return {};
    return fmt::format("core {} pipe {}: call {} of {} / {} is '{}' / '{}'", d[0].core, d[0].pipe, d[0].call,
                       d[0].size_a, d[0].size_b, d[0].a, d[0].b);
}

std::string first_difference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, std::size_t elem) {
    if (a.size() != b.size()) return fmt::format("sizes {} and {} bytes", a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i])
            return fmt::format("element {}: byte {} is {:#04x} vs {:#04x}", i / elem, i, a[i], b[i]);
    return {};
}

}  // namespace evg::upstream::corpus
