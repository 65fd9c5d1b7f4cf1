// One kernel launch: the cores, the launch loop, the checkers' host (checker.hpp) and the report. Flag
// matching and cross-core rounds (flags.cpp) and scheduling (schedule.cpp) are beside it; the checkers are in
// checkers/.
#include "evg/hw/machine.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <stdexcept>

#include "evg/hw/call_chain.hpp"
#include "evg/hw/device.hpp"
#include "evg/hw/error.hpp"
#include "fiber.hpp"
#include "launch_watch.hpp"

namespace evg::hw {

namespace detail {
extern thread_local Core* tls_core;
}

namespace {
std::atomic<NodeNamer> g_node_namer{nullptr};
}

void set_node_namer(NodeNamer namer) {
    g_node_namer.store(namer);
}

Machine::Machine(Device& dev, const Config& cfg, int block_dim, KernelType type)
    : dev_(dev),
      cfg_(cfg),
      block_dim_(block_dim),
      type_(type),
      chains_on_(cfg.call_chains && call_chains_on()),
      rng_(cfg.seed) {
    if (cfg.keep_trace && cfg.max_instructions > std::numeric_limits<uint32_t>::max())
        throw HostError(fmt::format(
            "kernel launch: Config::max_instructions {} with Config::keep_trace: a kept trace numbers "
            "instructions with 32 bits, so at most {} (switch keep_trace off for a longer kernel)",
            cfg.max_instructions, std::numeric_limits<uint32_t>::max()));
    // Core numbering: AICs first (index = block), then AIVs (index = aic_count + block * sub_num + sub).
    int aics = aic_count(type, block_dim);
    int aivs =
        type == KernelType::aic_only ? 0 : (type == KernelType::mix_aic_1_2 ? 2 * block_dim : block_dim);
    int sub_num = type == KernelType::mix_aic_1_2 ? 2 : 1;
    cores_.reserve(static_cast<size_t>(aics) + static_cast<size_t>(aivs));
    // Clocks need the agent count before cores build them.
    cores_.resize(static_cast<size_t>(aics) + static_cast<size_t>(aivs));
    states_ = std::vector<CoreState>(cores_.size());  // never resized: the cores hold references into it
    CoreHost& host = *this;
    for (int b = 0; b < aics; ++b)
        cores_[static_cast<size_t>(b)] =
            std::make_unique<Core>(*this, host, states_[static_cast<size_t>(b)], b, CoreType::AIC, b, 0, 1);
    for (int v = 0; v < aivs; ++v) {
        int idx = aics + v;
        cores_[static_cast<size_t>(idx)] =
            std::make_unique<Core>(*this, host, states_[static_cast<size_t>(idx)], idx, CoreType::AIV,
                                   v / sub_num, v % sub_num, sub_num);
    }
    apply_process_fp(cfg_);
    checkers_ = make_checkers(*this, cfg_.checks);
    for (auto& ch : checkers_) {
        if (ch->events() & Checker::kIssue) on_issue_.push_back(ch.get());
        if (ch->events() & Checker::kExecute) on_execute_.push_back(ch.get());
        if (ch->events() & Checker::kSync) on_sync_.push_back(ch.get());
        if (ch->events() & Checker::kResult) on_result_.push_back(ch.get());
        clocks_ |= (ch->events() & Checker::kClocks) != 0;
    }
    if (!clocks_)
        for (auto& c : cores_) c->keep_no_clocks();
    plan_mutations();
    next_compact_ = cfg_.record_floor;
}

Machine::~Machine() {
    // A launch left by an exception of the scheduler still has cores inside the kernel body: stop them and
    // let each unwind its stack (its API calls now throw CoreAbortTag), so that nothing on a fiber's stack
    // leaks.
    for (size_t i = 0; i < runners_.size(); ++i) {
        auto& f = runners_[i].fiber;
        if (!f) continue;
        states_[i].aborting = true;
        while (f->suspended()) {
            detail::tls_core = cores_[i].get();
            f->resume();
            detail::tls_core = nullptr;
        }
    }
}

void Machine::plan_mutations() {
    // Each sync mutation goes to the interceptor of the core it names.
    plan_ = std::make_unique<MutationPlan>(cfg_.mutations);
    for (size_t i = 0; i < cfg_.mutations.size(); ++i) {
        const SyncMutation& m = cfg_.mutations[i];
        Core* target = nullptr;
        for (auto& c : cores_)
            if (c->short_name() == m.core) target = c.get();
        if (!target) {
            plan_->mismatch(
                static_cast<int>(i),
                fmt::format("no core named {} in this launch ({}, blockDim {}: cores {} to {})", m.core,
                            type_ == KernelType::mix_aic_1_2 ? "mix"
                            : type_ == KernelType::aiv_only  ? "AIV-only"
                                                             : "AIC-only",
                            block_dim_, cores_.front()->short_name(), cores_.back()->short_name()));
            continue;
        }
        target->interceptor(*plan_).add(static_cast<int>(i));
    }
}

Core* Machine::aic_of(int block) {
    if (type_ == KernelType::aiv_only || block < 0 || block >= block_dim_) return nullptr;
    return cores_[static_cast<size_t>(block)].get();
}

Core* Machine::aiv_of(int block, int sub) {
    if (type_ == KernelType::aic_only || block < 0 || block >= block_dim_) return nullptr;
    int aics = aic_count(type_, block_dim_);
    int sub_num = type_ == KernelType::mix_aic_1_2 ? 2 : 1;
    if (sub < 0 || sub >= sub_num) return nullptr;
    return cores_[static_cast<size_t>(aics) + static_cast<size_t>(block * sub_num + sub)].get();
}

bool Machine::register_instr(Instr& in) {
    if (instr_count_ >= cfg_.max_instructions) {
        if (!deadlocked_) {
            deadlocked_ = true;
            // Where each core was: a loop that does not end shows as the core issuing this instruction, the
            // others waiting for it or done.
            std::vector<std::string> where = where_cores_are();
            const auto issuing = static_cast<size_t>(in.core->index());
            if (issuing < where.size())
                where[issuing] = fmt::format("{}: issuing {} at {}", in.core->name(), in.op, in.site.str());
            violate(
                {ViolationKind::kernel_exception,
                 Severity::error,
                 fmt::format("the kernel issued more than {} instructions (a loop that does not end?); the "
                             "launch was stopped (raise Config::max_instructions if this is intended). "
                             "Where each core was: {}",
                             cfg_.max_instructions, fmt::join(where, "; ")),
                 {in.core->location(in)},
                 1});
            for (auto& st : states_) st.aborting = true;
        }
        return false;
    }
    // Before numbering: the instruction being registered is not yet in any state compact() enumerates.
    if ((cfg_.keep_trace ? instr_count_ : records_.size()) >= next_compact_) compact();
    in.id = ++instr_count_;
    // In a program (on the issuing core's fiber): keep its stack, so that a finding about an instruction of
    // library code can name the user's line it came through, and an instruction of the user's functor the
    // visitor that called it (the checker node-slots).
    if (chains_on_)
        if (const uint32_t chain = capture_call_chain()) {
            if (chains_.size() <= in.id) chains_.resize(std::max<size_t>(in.id + 1, chains_.size() * 2));
            chains_[in.id] = chain;
        }
    Core& c = *in.core;
    state(c).last_instr = in.id;
    TraceEntry t;
    t.id = static_cast<uint32_t>(in.id);  // with keep_trace, ids fit (the constructor checked)
    t.core = static_cast<uint16_t>(c.index());
    t.pipe = in.pipe;
    t.kind = in.kind;
    in.node = c.node();
    if (in.node < 0)
        if (const NodeNamer namer = g_node_namer.load(std::memory_order_relaxed))
            if (const std::string label = namer(in); !label.empty()) in.node = intern_node(label);
    t.node = in.node;
    t.op_site = intern_op_site(in.op, in.site);
    t.dtype = in.dtype;
    t.repeats = in.repeats;
    t.after = static_cast<uint32_t>(in.after);
    switch (in.kind) {
        case InstrKind::set_flag:
        case InstrKind::wait_flag:
            t.event = in.event;
            t.event_id = static_cast<int16_t>(in.event_id);
            break;
        case InstrKind::cross_set:
        case InstrKind::cross_wait:
            t.cross_mode = in.cross_mode;
            t.cross_flag = static_cast<uint8_t>(in.cross_flag);
            break;
        case InstrKind::barrier:
            t.barrier_pipe = in.pipe == Pipe::S ? Pipe::ALL : in.pipe;  // PIPE_ALL runs on the scalar unit
            break;
        case InstrKind::plain:
            break;
    }
    t.epoch = in.epoch;
    t.stream = c.call_tag().stream;
    t.sync_index = c.call_tag().sync;
    t.blocking = in.pipe == Pipe::S && (in.kind == InstrKind::wait_flag || in.kind == InstrKind::cross_wait ||
                                        in.kind == InstrKind::barrier);
    per_pipe_[static_cast<size_t>(in.pipe) & (per_pipe_.size() - 1)]++;
    // The unitFlag hand-overs between M and FIX ride on flag id kUnitFlagId: no SetFlag/WaitFlag of the
    // kernel's, so they are not counted as its flag calls (the last release has no Mmad after it to consume
    // it).
    if ((in.kind == InstrKind::set_flag || in.kind == InstrKind::wait_flag) && in.event_id != kUnitFlagId) {
        auto& [sets, waits] = flag_calls_[{c.index(), in.event, in.event_id}];
        ++(in.kind == InstrKind::set_flag ? sets : waits);
        ++(in.kind == InstrKind::set_flag ? events_set_ : events_waited_);
    }
    if (!cfg_.keep_trace) {
        records_.push_back(t);
        record_ids_.push_back(in.id);
        records_peak_ = std::max<uint64_t>(records_peak_, records_.size());
    } else if (cfg_.trace_accesses) {
        std::vector<TraceAccess> accs;
        accs.reserve(in.accesses.size());
        for (const auto& a : in.accesses)
            if (a.mem) accs.push_back({a.mem->uid(), a.mem->kind(), a.begin, a.end, a.write, a.atomic});
        trace_.push_back(t, accs);
    } else {
        trace_.push_back(t);
    }
    return true;
}

const TraceEntry* Machine::traced(uint64_t id) const {
    if (id == 0 || id > instr_count_) return nullptr;
    if (cfg_.keep_trace) return &trace_[id - 1];
    auto it = std::lower_bound(record_ids_.begin(), record_ids_.end(), id);
    if (it == record_ids_.end() || *it != id)
        // compact() kept every instruction some checker state names: a miss is a bug of that enumeration,
        // and going on would change a message.
        throw std::logic_error(
            fmt::format("evg::hw: the description of instruction #{} was dropped while a "
                        "checker still refers to it",
                        id));
    return &records_[static_cast<size_t>(it - record_ids_.begin())];
}

// Bounds what a long launch keeps: each checker forgets what no pair with an instruction still to execute
// needs, and, without keep_trace, the records nobody names any more are dropped: those the checkers' state
// names, the flag and counter states' pending sets, queued instructions and each core's last instruction
// (still in flight when it is a blocked scalar wait).
void Machine::compact() {
    uint64_t oldest = instr_count_ + 1;
    for (auto& st : states_)
        for (auto& q : st.pipes)
            if (!q.queue.empty()) oldest = std::min(oldest, q.queue.front()->id);
    for (auto& ch : checkers_) ch->forget_before(oldest);
    if (cfg_.keep_trace) {
        next_compact_ = std::max<uint64_t>(cfg_.record_floor, 2 * instr_count_);
        return;
    }
    std::vector<uint64_t> live;
    for (auto& ch : checkers_) ch->live_instrs(live);
    for (auto& st : states_) {
        for (auto& [key, f] : st.flags)
            for (const auto& s : f.pending) live.push_back(s.instr);
        for (auto& [key, counter] : st.counters)
            for (const auto& i : counter.pending) live.push_back(i.instr);
        for (auto& q : st.pipes)
            for (const auto& in : q.queue) live.push_back(in->id);
        live.push_back(st.last_instr);
    }
    std::sort(live.begin(), live.end());
    live.erase(std::unique(live.begin(), live.end()), live.end());
    // Both lists ascend: keep the records whose id is live, in order.
    size_t out = 0, l = 0;
    for (size_t i = 0; i < records_.size(); ++i) {
        const uint64_t id = record_ids_[i];
        while (l < live.size() && live[l] < id) ++l;
        if (l == live.size() || live[l] != id) continue;
        records_[out] = records_[i];
        record_ids_[out] = id;
        ++out;
    }
    records_.resize(out);
    record_ids_.resize(out);
    next_compact_ = std::max<uint64_t>(cfg_.record_floor, 2 * out);
}

int32_t Machine::intern_node(std::string_view label) {
    if (auto it = node_index_.find(label); it != node_index_.end()) return it->second;
    const auto i = static_cast<int32_t>(node_labels_.size());
    node_labels_.emplace_back(label);
    node_index_.emplace(std::string(label), i);
    return i;
}

const std::string& Machine::core_name(int core) const {
    return cores_[static_cast<size_t>(core)]->name();
}

CoreType Machine::core_type(int core) const {
    return cores_[static_cast<size_t>(core)]->type();
}

void Machine::notify_issue(Core& c, const Instr& in) {
    const IssueEvent e{in, c.index()};
    for (Checker* ch : on_issue_) ch->on_issue(e);
}

void Machine::notify_execute(Core& c, const Instr& in, const VectorClock& known) {
    const ExecuteEvent e{in, c.index(), c.agent(in.pipe), known};
    for (Checker* ch : on_execute_) ch->on_execute(e);
}

void Machine::notify_sync(const SyncEvent& e) {
    for (Checker* ch : on_sync_) ch->on_sync(e);
}

void Machine::notify_result(const ResultEvent& e) {
    for (Checker* ch : on_result_) ch->on_result(e);
}

void Machine::notify_move(const MoveEvent& e) {
    for (Checker* ch : on_result_) ch->on_move(e);
}

void Machine::violate(Violation v) {
    // The node of a location: its instruction's, or, for a location without one, the node its core runs now
    // (an issue-time check, or the call a deadlocked core is blocked in). Not part of the folding key: one
    // fault of the library reached through several nodes stays one violation, named by its first.
    for (auto& l : v.locations) {
        if (!l.node.empty()) continue;
        int32_t n = -1;
        if (const TraceEntry* t = traced(l.instr))
            n = t->node;
        else if (l.instr == 0 && l.core >= 0 && l.core < core_count())
            n = core(l.core).node();
        if (n >= 0) l.node = node_labels_[static_cast<size_t>(n)];
    }
    // The call chain of each location: its instruction's, or, for an issue-time check of library code, the
    // stack of the core that runs it now (Report::set_launch_site resolves them).
    for (auto& l : v.locations) {
        if (l.chain_id) continue;
        if (l.instr > 0 && l.instr < chains_.size())
            l.chain_id = chains_[l.instr];
        else if (l.instr == 0 && chains_on_ && detail::tls_core && detail::tls_core->index() == l.core)
            l.chain_id = capture_call_chain();
    }
    std::string key(violation_kind_name(v.kind));
    for (const auto& l : v.locations) key += fmt::format("|{}|{}|{}", l.site, l.op, l.pipe);
    if (v.locations.empty()) key += "|" + v.message;
    auto it = violation_index_.find(key);
    if (it != violation_index_.end()) {
        violations_[it->second].occurrences++;
        return;
    }
    if (violations_.size() >= cfg_.max_violations) {
        ++dropped_violations_;
        return;
    }
    violation_index_.emplace(key, violations_.size());
    violations_.push_back(std::move(v));
}

std::string Machine::node_suffix(int32_t node) const {
    if (node < 0 || static_cast<size_t>(node) >= node_labels_.size()) return {};
    return ", node " + node_labels_[static_cast<size_t>(node)];
}

Report Machine::run(const std::function<void()>& kernel) {
    // A fault in a core's code, or a stop from outside, is told before the process ends (fault_watch.hpp).
    const detail::LaunchWatch watch(*this);
    runners_.resize(cores_.size());
    for (size_t i = 0; i < cores_.size(); ++i)
        runners_[i].fiber = std::make_unique<detail::Fiber>(
            [this, i, &kernel] { core_main(static_cast<int>(i), kernel); }, cfg_.checks.uninit);
    // The core whose fiber runs is the one the AscendC calls of the kernel body act on.
    auto give_turn = [&](int i) {
        detail::tls_core = &core(i);
        runners_[static_cast<size_t>(i)].fiber->resume();
        detail::tls_core = nullptr;
    };
    int last = -1;
    for (;;) {
        int next = pick_runnable();
        if (next < 0) {
            drain();
            next = pick_runnable();
        }
        if (next >= 0) {
            if (last >= 0 && next != last &&
                runners_[static_cast<size_t>(last)].state == Runner::State::ready)
                coverage_.core_handoffs++;
            last = next;
            give_turn(next);
            continue;
        }
        bool all_done = true;
        for (auto& r : runners_) all_done &= r.state == Runner::State::finished;
        if (all_done) break;
        // Nobody can move: report, then let every stuck thread run to its end with its API calls
        // disabled.
        report_deadlock();
        for (auto& st : states_) st.aborting = true;
        for (size_t i = 0; i < runners_.size(); ++i)
            while (runners_[i].state != Runner::State::finished) give_turn(static_cast<int>(i));
        break;
    }
    drain();
    if (!deadlocked_) {
        bool stuck = false;
        for (auto& st : states_)
            for (auto& q : st.pipes) stuck |= !q.queue.empty();
        if (stuck) report_deadlock();
    }
    if (!deadlocked_) end_checks();
    return make_report();
}

void Machine::report_deadlock() {
    deadlocked_ = true;
    std::vector<Location> locs;
    std::vector<std::string> parts;
    for (size_t i = 0; i < cores_.size(); ++i) {
        Core& c = *cores_[i];
        CoreState& st = states_[i];
        auto& r = runners_[i];
        if (r.state == Runner::State::blocked) {
            // A scalar unit blocked in a cross-core wait may, like a stuck pipe wait, have lost its increment
            // to an unordered waiter on another pipe (Ascend950: CrossCoreWaitFlag<4, PIPE_S> next to one on
            // MTE3).
            if (st.blocked_cross_wait) {
                VectorClock before = c.scalar_known();
                if (st.blocked_cross_wait->issued) before.join(*st.blocked_cross_wait->issued);
                wait_stuck(c, *st.blocked_cross_wait, before);
            }
            parts.push_back(fmt::format("the scalar unit of {} is blocked in {}", c.name(), r.blocked_on));
            locs.push_back(c.site_location(r.blocked_on, {}));
        }
        for (int s = 0; s < kPipeSlots; ++s) {
            auto& q = st.pipes[static_cast<size_t>(s)];
            if (q.queue.empty()) continue;
            const Instr& head = *q.queue.front();
            std::string why;
            if (head.kind == InstrKind::wait_flag) {
                auto it = st.flags.find(flag_key(head.event, head.event_id));
                if (it == st.flags.end() || it->second.sets == 0)
                    why = fmt::format("which no SetFlag<{}>({}) will ever satisfy", event_name(head.event),
                                      head.event_id);
                else
                    why = fmt::format("which no further SetFlag<{}>({}) will satisfy: the flag {}",
                                      event_name(head.event), head.event_id,
                                      consumed_text(it->second.waits, it->second.sets));
            } else if (head.kind == InstrKind::cross_wait) {
                {  // a wait that never ran may have lost its increment to another waiter
                    auto f = q.frozen.find(head.epoch);
                    VectorClock before = f != q.frozen.end() ? f->second : q.known;
                    if (head.issued) before.join(*head.issued);
                    wait_stuck(c, head, before);
                }
                auto it = st.counters.find(counter_key(head.cross_mode, head.cross_flag));
                if (it == st.counters.end() || it->second.increments == 0)
                    why = fmt::format("whose cross-core flag {} is never set", head.cross_flag);
                else
                    why =
                        fmt::format("whose cross-core flag {} {}, and no further set comes", head.cross_flag,
                                    consumed_text(it->second.waits, it->second.increments));
            } else {
                why = "behind a blocked instruction";
            }
            parts.push_back(
                fmt::format("pipe {} of {} is stuck at #{} {} (issued at {}), {}; {} instruction(s) "
                            "queued behind it",
                            pipe_name(slot_pipe(s)), c.name(), head.id, head.op, head.site.str(), why,
                            q.queue.size() - 1));
            locs.push_back(c.location(head));
        }
    }
    std::string msg = "deadlock: no core can make progress";
    for (auto& p : parts) msg += "; " + p;
    violate({ViolationKind::deadlock, Severity::error, msg, locs, 1});
}

void Machine::end_checks() {
    std::vector<KernelEndEvent::AtomicLeftOn> atomic_on;
    for (auto& c : cores_)
        if (c->atomic_op() != AtomicOp::none) atomic_on.push_back({c->index(), c->atomic_site()});
    std::vector<KernelEndEvent::OpenRound> open_rounds;
    for (const auto& [key, r] : rounds_)
        for (const auto& [m, sets] : r.sets)
            if (!sets.empty()) open_rounds.push_back({std::get<0>(key), std::get<2>(key), m});
    const KernelEndEvent e{core_count(), atomic_on, open_rounds};
    for (auto& ch : checkers_)
        if (ch->events() & Checker::kKernelEnd) ch->on_kernel_end(e);
}

Report Machine::make_report() {
    Report r;
    r.arch = std::string(arch().name);
    r.block_dim = block_dim_;
    r.kernel_type = type_;
    r.mutations_unapplied = plan_->unapplied([&](const std::string& name) {
        for (auto& c : cores_)
            if (c->short_name() == name) return c->sync_calls();
        return 0;
    });
    r.violations = violations_;
    r.node_labels = node_labels_;
    r.fp = fp_counts_;
    if (dropped_violations_)
        r.violations.push_back({ViolationKind::kernel_exception,
                                Severity::warning,
                                fmt::format("{} further distinct violation(s) were not kept (limit {})",
                                            dropped_violations_, cfg_.max_violations),
                                {},
                                dropped_violations_});
    r.stats.instructions = instr_count_;
    for (size_t p = 0; p < per_pipe_.size(); ++p)
        if (per_pipe_[p]) r.stats.per_pipe[std::string(pipe_name(static_cast<Pipe>(p)))] += per_pipe_[p];
    r.stats.events_set = events_set_;
    r.stats.events_waited = events_waited_;
    r.stats.records_peak = records_peak();
    r.stats.flag_calls = flag_calls_;
    r.stats.scheduler = cfg_.scheduler;
    r.stats.seed = cfg_.scheduler == SchedulerKind::adversarial ? cfg_.seed : 0;
    r.stats.steps = steps_;
    r.stats.coverage = coverage_;
    for (auto& c : cores_)
        if (Memory* ub = c->local(MemKind::UB))
            r.stats.ub_peak = std::max<uint32_t>(r.stats.ub_peak, static_cast<uint32_t>(ub->peak()));
    return r;
}

}  // namespace evg::hw
