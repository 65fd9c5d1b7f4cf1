#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <exception>
#include <map>

#include "evg/explore/model.hpp"
#include "evg/fuzz/mutation.hpp"

namespace evg::fuzz {

namespace {

std::vector<std::string> sorted_unique(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    return v;
}

std::string list_or_none(const std::vector<std::string>& v) {
    return v.empty() ? "none" : fmt::format("{}", fmt::join(v, ","));
}

// Legality checkers judge the program text, not a schedule: the explorer does not decide them, so a
// mutation they reject counts as caught whatever the explorer says.
bool is_rule_checker(hw::ViolationKind k) {
    return k == hw::ViolationKind::illegal_event || k == hw::ViolationKind::illegal_cross_core;
}

std::string entry_text(const hw::TraceEntry& e) {
    return fmt::format("{}@{}", e.op(), e.site().str());
}

// The first instruction, over all cores, where the mutated run's per-core instruction sequence leaves the
// unmutated one (compared by pipe, kind, op and site); "" when they are identical.
std::string first_divergence(const hw::Trace& ref, const hw::Trace& mut) {
    std::map<int, std::vector<const hw::TraceEntry*>> a, b;
    for (const auto& e : ref) a[e.core].push_back(&e);
    for (const auto& e : mut) b[e.core].push_back(&e);
    uint64_t best_id = UINT64_MAX;
    std::string best;
    auto same = [](const hw::TraceEntry& x, const hw::TraceEntry& y) {
        return x.pipe == y.pipe && x.kind == y.kind && x.op() == y.op() && x.site().line == y.site().line &&
               std::string_view(x.site().file) == std::string_view(y.site().file);
    };
    for (const auto& [core, mv] : b) {
        const std::vector<const hw::TraceEntry*>& rv = a[core];
        size_t i = 0;
        while (i < mv.size() && i < rv.size() && same(*mv[i], *rv[i])) ++i;
        if (i < mv.size()) {
            if (mv[i]->id < best_id) best_id = mv[i]->id, best = entry_text(*mv[i]);
        } else if (i < rv.size() && best.empty()) {
            best = fmt::format("end-before:{}", entry_text(*rv[i]));
        }
    }
    return best;
}

std::string first_violation(const hw::Report& r) {
    for (const hw::Violation& v : r.violations)
        if (v.severity == hw::Severity::error)
            return fmt::format("{}: {}", hw::violation_kind_name(v.kind), v.message);
    return "";
}

}  // namespace

namespace {

// The explorer's name of a sync checker's kind; "" for legality checkers.
std::string explorer_name(hw::ViolationKind k) {
    switch (k) {
        case hw::ViolationKind::race:
            return "race";
        case hw::ViolationKind::deadlock:
            return "deadlock";
        case hw::ViolationKind::flag_set_twice:
            return "set_twice";
        case hw::ViolationKind::flag_left_set:
            return "flag_left";
        case hw::ViolationKind::counter_overflow:
        case hw::ViolationKind::counter_left_nonzero:
            return "counter_left";
        case hw::ViolationKind::illegal_event:
        case hw::ViolationKind::illegal_cross_core:
            return "";
        default:
            return "ambiguous";
    }
}

}  // namespace

bool is_sync_checker(hw::ViolationKind k) {
    switch (k) {
        case hw::ViolationKind::race:
        case hw::ViolationKind::deadlock:
        case hw::ViolationKind::flag_set_twice:
        case hw::ViolationKind::flag_left_set:
        case hw::ViolationKind::counter_overflow:
        case hw::ViolationKind::counter_left_nonzero:
        case hw::ViolationKind::illegal_event:
        case hw::ViolationKind::illegal_cross_core:
            return true;
        default:
            // A cross-core ambiguity kind, where the machine has one.
            return hw::violation_kind_name(k).find("ambig") != std::string_view::npos;
    }
}

std::string plan_operator(const std::vector<hw::SyncMutation>& plan) {
    std::string s;
    for (const hw::SyncMutation& m : plan) {
        if (!s.empty()) s += '+';
        s += hw::sync_op_name(m.op);
    }
    return s;
}

Reference reference_run(const Subject& s) {
    Reference ref;
    hw::Config cfg;
    cfg.keep_trace = true;
    cfg.trace_accesses = true;  // for the explorer's reads
    ref.run = s.run(cfg);
    ref.clean = ref.run.report.clean();
    if (!ref.clean) ref.problem = first_violation(ref.run.report);
    ref.points = hw::mutation_points(ref.run.trace, s.arch, s.type, s.block_dim);
    for (const hw::TraceEntry& e : ref.run.trace)
        if (e.sync_index >= 0)
            ref.sync_files[{hw::core_short_name(s.type, s.block_dim, e.core), e.sync_index}] = e.site().file;
    if (ref.clean) {
        try {
            ref.explored = explore_trace(ref.run.trace, s.arch, s.type, s.block_dim);
        } catch (const std::exception&) {
            // A launch the explorer does not model (AIC-only): no reads to compare with; classify says why
            // for each mutation.
            ref.explored = {};
            ref.explored.reads_known = false;
        }
    }
    return ref;
}

Classification classify(const Subject& s, const Reference& ref, const std::vector<hw::SyncMutation>& plan,
                        const ClassifyOptions& opt) {
    Classification c;
    hw::Config cfg;
    cfg.keep_trace = true;
    cfg.trace_accesses = true;
    cfg.mutations = plan;
    SubjectRun run;
    try {
        run = s.run(cfg);
    } catch (const std::exception& e) {
        c.verdict = SyncVerdict::unapplied;
        c.detail = fmt::format("the mutated run threw: {}", e.what());
        return c;
    }
    if (!run.report.mutations_unapplied.empty()) {
        c.verdict = SyncVerdict::unapplied;
        c.detail = "not applied: " + list_or_none(run.report.mutations_unapplied);
        return c;
    }
    bool rule_only = true;
    for (const hw::Violation& v : run.report.violations) {
        if (v.severity != hw::Severity::error) continue;
        const std::string name(hw::violation_kind_name(v.kind));
        if (is_sync_checker(v.kind)) {
            c.checkers.push_back(name);
            if (const std::string e = explorer_name(v.kind); !e.empty()) c.checker_kinds.push_back(e);
            rule_only = rule_only && is_rule_checker(v.kind);
        } else {
            c.others.push_back(name);
        }
    }
    c.checkers = sorted_unique(std::move(c.checkers));
    c.checker_kinds = sorted_unique(std::move(c.checker_kinds));
    c.others = sorted_unique(std::move(c.others));
    const std::string differ = compare_outputs(s, ref.run, run);
    c.outputs_differ = !differ.empty();
    c.divergent_instr = first_divergence(ref.run.trace, run.trace);

    ExplorerVerdict ex;
    try {
        ex = explore_trace(run.trace, s.arch, s.type, s.block_dim);
    } catch (const std::exception& e) {
        c.verdict = SyncVerdict::unapplied;
        c.detail = fmt::format("the explorer threw: {}", e.what());
        return c;
    }
    c.explorer = ex.kinds;
    if (!ex.complete) {
        c.verdict = SyncVerdict::undecided;
        c.detail = fmt::format(
            "the explorer gave up after {} attempts at deciding the happens-before graph (its best effort: "
            "{}); "
            "checkers: {}",
            explore::kMaxDecideAttempts, list_or_none(c.explorer), list_or_none(c.checkers));
        return c;
    }
    const std::string said = fmt::format(
        "checkers: {}; other checkers: {}; explorer: {}{}; outputs {}", list_or_none(c.checkers),
        list_or_none(c.others), list_or_none(c.explorer), ex.first.empty() ? "" : " (" + ex.first + ")",
        c.outputs_differ ? "differ: " + differ.substr(0, differ.find('\n')) : "equal");
    const bool hazard = !c.explorer.empty();
    if (hazard) {
        if (!c.checkers.empty())
            c.verdict = SyncVerdict::caught;
        else if (c.outputs_differ || !c.others.empty())
            c.verdict = SyncVerdict::output_only;
        else
            c.verdict = SyncVerdict::missed;
        if (c.verdict != SyncVerdict::caught) c.detail = said;
        return c;
    }
    if (!c.checkers.empty()) {
        c.verdict = rule_only ? SyncVerdict::caught : SyncVerdict::false_alarm;
        if (!rule_only) c.detail = said + "; " + first_violation(run.report);
        return c;
    }
    // No hazard: does every read take its bytes from the writes it took unmutated? The explorer's reads are
    // the same in every schedule, so a changed one is a reordering of the program, not of a schedule.
    if (ref.explored.reads_known && ex.reads_known) {
        const std::optional<std::string> changed =
            first_changed_read(ref.run.trace, ref.explored, run.trace, ex, s.type, s.block_dim);
        if (changed && !changed->empty()) {
            c.changed_read = *changed;
            const bool shown = !c.others.empty() || c.outputs_differ;
            c.verdict = shown ? SyncVerdict::reordered : SyncVerdict::missed;
            c.detail = fmt::format("{}reordered: {}; {}{}", shown ? "" : "nothing shows it: ", c.changed_read,
                                   said, c.others.empty() ? "" : "; " + first_violation(run.report));
            return c;
        }
    }
    if (!c.others.empty() || c.outputs_differ) {
        c.verdict = SyncVerdict::divergent;
        c.detail = said + (c.others.empty() ? "" : "; " + first_violation(run.report));
        return c;
    }
    // Proven harmless: the schedules the adversarial scheduler picks must agree.
    for (int i = 0; i < opt.adversarial; ++i) {
        hw::Config adv;
        adv.keep_trace = false;
        adv.mutations = plan;
        adv.scheduler = hw::SchedulerKind::adversarial;
        adv.seed = opt.schedule_seed + static_cast<uint64_t>(i);
        SubjectRun a;
        try {
            a = s.run(adv);
        } catch (const std::exception& e) {
            c.verdict = SyncVerdict::divergent;
            c.detail = fmt::format("explorer: none; adversarial seed {} threw: {}", adv.seed, e.what());
            return c;
        }
        const std::string adv_differ = a.report.clean() ? compare_outputs(s, ref.run, a) : "";
        if (!a.report.clean() || !adv_differ.empty()) {
            c.verdict = SyncVerdict::divergent;
            c.detail = fmt::format(
                "explorer: none; adversarial seed {}: {}", adv.seed,
                a.report.clean() ? "clean, outputs differ: " + adv_differ : first_violation(a.report));
            return c;
        }
    }
    c.verdict = SyncVerdict::harmless;
    return c;
}

std::string node_kind_of_file(const std::string& file, const std::string& kernel) {
    std::string base = file.substr(file.find_last_of('/') + 1);
    const std::string stem = base.substr(0, base.find('.'));
    if (stem.rfind("visitor_", 0) == 0) {
        std::string out;
        bool up = true;
        for (const char ch : stem.substr(8)) {
            if (ch == '_') {
                up = true;
                continue;
            }
            out += up ? static_cast<char>(ch - 'a' + 'A') : ch;
            up = false;
        }
        return out;
    }
    if (stem == "operations") return "Compute";
    if (stem.rfind("block_epilogue", 0) == 0) return "BlockEpilogue";
    if (stem.rfind("basic_matmul", 0) == 0 || stem.rfind("matmul", 0) == 0 || stem == "block_mmad" ||
        stem == "cross_core_sync")
        return "Kernel";
    return kernel.empty() ? base : kernel;
}

std::string node_kind(const Subject& s, const Reference& ref, const hw::SyncMutation& m) {
    const auto it = ref.sync_files.find({m.core, m.n});
    return it == ref.sync_files.end() ? "?" : node_kind_of_file(it->second, s.kernel);
}

std::vector<std::string> mutation_patterns(const Subject& s, const Reference& ref,
                                           const std::vector<hw::SyncMutation>& plan,
                                           const Classification& c) {
    std::vector<std::string> out;
    if (plan.empty()) return out;
    const std::string_view verdict = reports::sync_verdict_name(c.verdict);
    out.push_back(fmt::format("launch {} {}", s.arch == hw::ArchId::AtlasA2 ? "A2" : "950", s.path));
    for (const hw::SyncMutation& m : plan)
        out.push_back(fmt::format("{} in {}", hw::sync_op_name(m.op), node_kind(s, ref, m)));
    out.push_back(plan.size() == 1 ? fmt::format("{} in {}: {}", hw::sync_op_name(plan[0].op),
                                                 node_kind(s, ref, plan[0]), verdict)
                                   : fmt::format("two mutations: {}", verdict));
    auto kinds = [](const std::vector<std::string>& v) {
        return v.empty() ? std::string("none") : fmt::format("{}", fmt::join(v, "+"));
    };
    out.push_back(fmt::format("{}: checkers {}; explorer {}", verdict, kinds(c.checkers), kinds(c.explorer)));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace evg::fuzz
