#include "evg/hw/machine.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "evg/hw/device.hpp"
#include "evg/hw/error.hpp"
#include "evg/hw/race_shadow.hpp"
#include "fiber.hpp"

namespace evg::hw {

namespace detail {
extern thread_local Core* tls_core;
}

Machine::Machine(Device& dev, const Config& cfg, int block_dim, KernelType type)
    : dev_(dev), cfg_(cfg), block_dim_(block_dim), type_(type), rng_(cfg.seed) {
    // Core numbering: AICs first (index = block), then AIVs (index = aic_count + block * sub_num + sub).
    int aics = type == KernelType::aiv_only ? 0 : block_dim;
    int aivs =
        type == KernelType::aic_only ? 0 : (type == KernelType::mix_aic_1_2 ? 2 * block_dim : block_dim);
    int sub_num = type == KernelType::mix_aic_1_2 ? 2 : 1;
    cores_.reserve(static_cast<size_t>(aics + aivs));
    // Clocks need the agent count before cores build them.
    cores_.resize(static_cast<size_t>(aics + aivs));
    for (int b = 0; b < aics; ++b)
        cores_[static_cast<size_t>(b)] = std::make_unique<Core>(*this, b, CoreType::AIC, b, 0, 1);
    for (int v = 0; v < aivs; ++v) {
        int idx = aics + v;
        cores_[static_cast<size_t>(idx)] =
            std::make_unique<Core>(*this, idx, CoreType::AIV, v / sub_num, v % sub_num, sub_num);
    }
    dcache_ = std::make_unique<DataCache>();
    plan_mutations();
}

Machine::~Machine() {
    // A launch left by an exception of the scheduler still has cores inside the kernel body: stop them and
    // let each unwind its stack (its API calls now throw CoreAbortTag), so that nothing on a fiber's stack
    // leaks.
    for (size_t i = 0; i < runners_.size(); ++i) {
        auto& f = runners_[i].fiber;
        if (!f) continue;
        cores_[i]->aborting_ = true;
        while (f->suspended()) {
            detail::tls_core = cores_[i].get();
            f->resume();
            detail::tls_core = nullptr;
        }
    }
}

Core* Machine::aic_of(int block) {
    if (type_ == KernelType::aiv_only || block < 0 || block >= block_dim_) return nullptr;
    return cores_[static_cast<size_t>(block)].get();
}

Core* Machine::aiv_of(int block, int sub) {
    if (type_ == KernelType::aic_only || block < 0 || block >= block_dim_) return nullptr;
    int aics = type_ == KernelType::aiv_only ? 0 : block_dim_;
    int sub_num = type_ == KernelType::mix_aic_1_2 ? 2 : 1;
    if (sub < 0 || sub >= sub_num) return nullptr;
    return cores_[static_cast<size_t>(aics + block * sub_num + sub)].get();
}

bool Machine::register_instr(Instr& in) {
    if (instr_count_ >= cfg_.max_instructions) {
        if (!deadlocked_) {
            deadlocked_ = true;
            violate({ViolationKind::kernel_exception,
                     Severity::error,
                     fmt::format("the kernel issued more than {} instructions; the launch was stopped (raise "
                                 "Config::max_instructions if this is intended)",
                                 cfg_.max_instructions),
                     {in.core->location(in)},
                     1});
            for (auto& c : cores_) c->aborting_ = true;
        }
        return false;
    }
    in.id = ++instr_count_;
    const Core& c = *in.core;
    TraceEntry t;
    t.id = in.id;
    t.core = c.index();
    t.pipe = in.pipe;
    t.kind = in.kind;
    t.op = in.op;
    t.site = in.site;
    switch (in.kind) {
        case InstrKind::set_flag:
        case InstrKind::wait_flag:
            t.event = in.event;
            t.event_id = in.event_id;
            break;
        case InstrKind::cross_set:
        case InstrKind::cross_wait:
            t.cross_mode = in.cross_mode;
            t.cross_flag = in.cross_flag;
            break;
        case InstrKind::barrier:
            t.barrier_pipe = in.pipe == Pipe::S ? Pipe::ALL : in.pipe;  // PIPE_ALL runs on the scalar unit
            break;
        case InstrKind::plain:
            break;
    }
    t.epoch = in.epoch;
    t.stream = c.tag_stream_;
    t.sync_index = c.tag_sync_;
    t.blocking = in.pipe == Pipe::S && (in.kind == InstrKind::wait_flag || in.kind == InstrKind::cross_wait ||
                                        in.kind == InstrKind::barrier);
    if (cfg_.trace_accesses) {
        t.accesses.reserve(in.accesses.size());
        for (const auto& a : in.accesses)
            if (a.mem) t.accesses.push_back({a.mem->uid(), a.begin, a.end, a.write, a.atomic});
    }
    trace_.push_back(std::move(t));
    return true;
}

// ---------------------------------------------------------------------------------------------------------------
// Race checking

void Machine::race_check(Core& c, Instr& in, const VectorClock& known) {
    std::vector<Conflict> conflicts;
    AgentId me = c.agent(in.pipe);
    AccessRecord rec{{me, in.epoch}, in.id, false};
    auto ordered = [&](const Epoch& e) { return known.covers(e); };
    for (const auto& a : in.accesses) {
        if (!a.mem || a.begin >= a.end) continue;
        conflicts.clear();
        rec.atomic = a.atomic;
        a.mem->shadow().access(a.begin, a.end, a.write, rec, ordered, conflicts);
        for (const auto& k : conflicts) {
            const TraceEntry* e = traced(k.earlier.instr);
            if (!e) continue;
            // Describe the pair in issue order, whatever order the scheduler ran it in: the
            // earlier-issued access is the one that should have been ordered first.
            struct Side {
                uint64_t id;
                int core;
                Pipe pipe;
                std::string op, site;
                bool write;
            };
            Side prior{e->id, e->core, e->pipe, e->op, e->site.str(), k.earlier_is_write};
            Side now{in.id, c.index(), in.pipe, in.op, in.site.str(), a.write};
            const Side& first = prior.id < now.id ? prior : now;
            const Side& second = prior.id < now.id ? now : prior;
            std::string kind = first.write ? (second.write ? "WAW" : "RAW") : "WAR";
            auto label = [](const Side& s) {
                return fmt::format("{} {} #{}", pipe_name(s.pipe), s.write ? "write" : "read", s.id);
            };
            Core& c1 = core(first.core);
            Core& c2 = core(second.core);
            std::string edge;
            if (first.core != second.core) {
                edge = fmt::format("no cross-core flag orders {} of {} before {} of {}", label(first),
                                   c1.name(), label(second), c2.name());
                edge += explain_cross_core(first.core, first.pipe, first.id, first.write, label(first),
                                           second.core, second.id, second.write);
            } else if (first.pipe == second.pipe) {
                edge = fmt::format("no PipeBarrier<PIPE_{}> orders {} before {}", pipe_name(first.pipe),
                                   label(first), label(second));
            } else {
                auto ev = event_between(first.pipe, second.pipe);
                if (ev && event_valid_for(c1.type(), *ev))
                    edge = fmt::format(
                        "no WaitFlag<{}> orders {} before {}{}", event_name(*ev), label(first), label(second),
                        explain_same_core(first.core, first.id, label(first), second.pipe, second.id, *ev));
                else
                    edge = fmt::format("no flag chain orders {} before {}", label(first), label(second));
            }
            auto loc = [&](const Side& s, Core& sc) {
                Location l;
                l.instr = s.id;
                l.core = s.core;
                l.core_name = sc.name();
                l.pipe = std::string(pipe_name(s.pipe));
                l.op = s.op;
                l.memory = a.mem->name();
                l.begin = k.begin;
                l.end = k.end;
                l.access = s.write ? "write" : "read";
                l.site = s.site;
                return l;
            };
            violate({ViolationKind::race,
                     Severity::error,
                     fmt::format("{} race on {} bytes [{}, {}) between {} ({}) and {} ({}): {}", kind,
                                 a.mem->name(), k.begin, k.end, label(first), first.op, label(second),
                                 second.op, edge),
                     {loc(first, c1), loc(second, c2)},
                     1});
        }
    }
}

std::string Machine::explain_same_core(int c, uint64_t id1, const std::string& first, Pipe p2, uint64_t id2,
                                       HardEvent ev) {
    auto it = waits_by_event_.find({c, pipe_slot(p2), static_cast<int>(ev)});
    if (it == waits_by_event_.end()) return {};
    // Waits of one pipe execute in issue order: the list is sorted by wait. The last wait issued before the
    // second access is the one that should have ordered it.
    auto& v = it->second;
    auto w = std::lower_bound(v.begin(), v.end(), std::make_pair(id2, uint64_t{0}));
    if (w == v.begin()) return {};
    --w;
    auto [wait, set] = *w;
    // Only a wait issued between the two accesses was meant to order them.
    if (wait < id1 || !set || set > id1) return {};
    const TraceEntry* we = traced(wait);
    const TraceEntry* se = traced(set);
    return fmt::format(": {} #{} consumed {} #{}, which was issued before {} (so it does not cover it)",
                       we ? we->op : std::string("the wait"), wait, se ? se->op : std::string("a set"), set,
                       first);
}

std::string Machine::explain_cross_core(int c1, Pipe p1, uint64_t id1, bool w1, const std::string& first,
                                        int c2, uint64_t id2, bool w2) {
    Core& a = core(c1);
    Core& b = core(c2);
    std::string out;
    // A flag from the first core to the second, issued after the first access but on another pipe: the set
    // waits only for its own pipe.
    if (auto it = cross_links_.find({c1, c2}); it != cross_links_.end())
        for (const auto& s : it->second)
            if (s.instr > id1 && s.instr < id2 && s.pipe != p1) {
                out += fmt::format(
                    "; {} #{} of {} reaches {} but is set on {}, so it does not wait for {} (set it "
                    "on PIPE_{}, or order {} before {} with an intra-core flag)",
                    s.op, s.instr, a.name(), b.name(), pipe_name(s.pipe), first, pipe_name(p1), pipe_name(p1),
                    pipe_name(s.pipe));
                break;
            }
    bool reverse = !w1 && w2;  // WAR: the reader must hand the buffer back to the writer
    bool back = cross_links_.count({c2, c1}) && !cross_links_.count({c1, c2});
    if (reverse)
        out += fmt::format(
            "; this is a WAR: the missing edge is a reverse flag from {} (after its read #{}) back to "
            "{} (before its write #{})",
            a.name(), id1, b.name(), id2);
    else
        out +=
            fmt::format("; the missing edge is a flag from {} (after its {} #{}) to {} (before its {} #{})",
                        a.name(), w1 ? "write" : "read", id1, b.name(), w2 ? "write" : "read", id2);
    if (back)
        out += fmt::format("; the cross-core flags between them go only from {} to {}", b.name(), a.name());
    return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Flags

void Machine::flag_set(Core& c, const Instr& in, const VectorClock& clock) {
    auto& f = c.flags_[{static_cast<int>(in.event), in.event_id}];
    ++f.sets;
    if (cfg_.checks.flags && f.sets >= 2) {
        // The previous set must have been consumed by a wait that happens-before this set.
        size_t need = static_cast<size_t>(f.sets - 1);  // waits that must precede
        bool ok = f.waits.size() >= need && clock.covers(f.waits[need - 1]);
        if (!ok) {
            Location prev;
            if (const TraceEntry* e = traced(f.last_set_instr)) {
                prev.instr = e->id;
                prev.core = c.index();
                prev.core_name = c.name();
                prev.pipe = std::string(pipe_name(e->pipe));
                prev.op = e->op;
                prev.site = e->site.str();
            }
            violate(
                {ViolationKind::flag_set_twice,
                 Severity::error,
                 fmt::format("{} on {} may execute while the flag is still set by #{}: no WaitFlag<{}>({}) "
                             "consumes the earlier set first (setting a set flag is undefined behaviour)",
                             in.op, c.name(), f.last_set_instr, event_name(in.event), in.event_id),
                 {prev, c.location(in)},
                 1});
        }
    }
    f.pending.push_back({clock, in.id});
    f.last_set_instr = in.id;
}

void Machine::flag_wait(Core& c, const Instr& in, VectorClock& learned) {
    auto& f = c.flags_[{static_cast<int>(in.event), in.event_id}];
    const FlagState::Set& set = f.pending.front();
    learned.join(set.clock);
    if (cfg_.keep_trace && in.id && in.id <= trace_.size()) trace_[in.id - 1].matched = set.instr;
    waits_by_event_[{c.index(), pipe_slot(in.pipe), static_cast<int>(in.event)}].push_back(
        {in.id, set.instr});
    f.pending.pop_front();
    f.waits.push_back({c.agent(in.pipe), in.epoch});
    f.waiters.push_back(in.id);
}

Machine::SetDesc Machine::desc(Core& c, const Instr& in) const {
    return {{c.agent(in.pipe), in.epoch}, in.id, c.index(), in.pipe, in.op, in.site};
}

std::string Machine::describe(const SetDesc& d) {
    return fmt::format("#{} {} on {} of {} (issued at {})", d.instr, d.op, pipe_name(d.pipe),
                       core(d.core).name(), d.site.str());
}

Location Machine::loc_of(const SetDesc& d) {
    Location l;
    l.instr = d.instr;
    l.core = d.core;
    l.core_name = core(d.core).name();
    l.pipe = std::string(pipe_name(d.pipe));
    l.op = d.op;
    l.site = d.site.str();
    return l;
}

void Machine::ambiguous(std::string msg, std::vector<Location> locs) {
    violate(
        {ViolationKind::cross_core_ambiguous, Severity::error,
         std::move(msg) +
             " (this run's other verdicts hold for the order in which it happened to execute them, not for "
             "every schedule)",
         std::move(locs), 1});
}

// Increments of modes 0-2 share a core's counters. Increments of two modes on one counter with no
// happens-before between them: a wait may take either, depending on timing. (A wait's own mode argument is
// not a use: on AtlasA2 it has no effect at all, and elsewhere it only selects the counter namespace.)
void Machine::use_mode(Core& c, int mode, int flag, const VectorClock& before, const SetDesc& op) {
    auto& u = mode_use_[{c.index(), flag}];
    if (u.mode != mode) {
        if (u.mode >= 0 && cfg_.checks.flags)
            for (auto& [agent, prev] : u.ops) {
                if (agent == op.at.agent || before.covers(prev.at)) continue;
                ambiguous(
                    fmt::format("cross-core flag {} of {} is used in mode {} by {} and in mode {} by {} with "
                                "no happens-before between them: a flag id reused in another mode needs "
                                "every set and wait of the first mode completed first, otherwise a wait of "
                                "one mode may consume the other mode's increment, depending on timing; use "
                                "a different flag id for each mode, or let the second mode start only after "
                                "a wait that completes the first",
                                flag, c.name(), u.mode, describe(prev), mode, describe(op)),
                    {loc_of(prev), loc_of(op)});
                break;
            }
        u.mode = mode;
        u.ops.clear();
    }
    u.ops[op.at.agent] = op;
}

bool Machine::cross_core_legal(Core& c, uint8_t mode, Pipe p, uint16_t flag, Site site,
                               const std::string& op) {
    auto fail = [&](std::string msg, Severity sev = Severity::error) {
        c.violate(ViolationKind::illegal_cross_core, std::move(msg), {c.site_location(op, site)}, sev);
        return sev == Severity::warning;
    };
    if (type_ != KernelType::mix_aic_1_2)
        return fail(fmt::format("{}: cross-core flags need a mix (AIC + AIV) kernel; this launch is {}", op,
                                type_ == KernelType::aiv_only ? "AIV-only" : "AIC-only"));
    if (mode != 0 && mode != 1 && mode != 2 && mode != 4)
        return fail(
            fmt::format("{}: mode {} does not exist (modes are 0, 1, 2 and, on Ascend950, 4)", op, mode));
    if (mode == 4 && !arch().cross_core_mode4)
        return fail(
            fmt::format("{}: mode 4 (AIC <-> one AIV) exists only on Ascend950, not on {}", op, arch().name));
    if (mode == 1 && c.type() == CoreType::AIC)
        return fail(fmt::format("{}: mode 1 synchronises the AIVs of one AI core; an AIC cannot use it", op));
    if (p == Pipe::ALL || (p == Pipe::S && mode != 4))
        return fail(fmt::format("{}: pipe {} is not allowed in mode {} (use V, M, MTE1, MTE2, MTE3 or FIX)",
                                op, pipe_name(p), mode));
    if (p != Pipe::S && !c.owns(p))
        return fail(fmt::format("{}: {} has no pipe {}", op, c.name(), pipe_name(p)));
    int max_flag = (mode == 4 && c.type() == CoreType::AIC) ? 31 : 15;
    if (flag > max_flag)
        return fail(fmt::format("{}: flag id {} is above {}; the hardware keeps only the low bits", op, flag,
                                max_flag));
    if (mode != 4 && flag > 10)
        fail(fmt::format("{}: flag id {} is above 10; ids 11-14 are used by SyncAll", op, flag),
             Severity::warning);
    return true;
}

void Machine::deliver(Core& target, int ns, int flag, const VectorClock& clock, const Instr& set) {
    auto& st = target.counters_[{ns, flag}];
    ++st.increments;
    if (cfg_.checks.flags && st.increments > static_cast<uint64_t>(arch().cross_core_counter_max)) {
        size_t need = static_cast<size_t>(st.increments) - static_cast<size_t>(arch().cross_core_counter_max);
        bool ok = st.waits.size() >= need && clock.covers(st.waits[need - 1]);
        if (!ok)
            violate({ViolationKind::counter_overflow,
                     Severity::error,
                     fmt::format("{} can raise cross-core flag {} of {} to {}: the counter holds at most {} "
                                 "unconsumed sets (the device hangs); wait on it before setting again",
                                 set.op, flag, target.name(), st.pending.size() + 1,
                                 arch().cross_core_counter_max),
                     {set.core->location(set)},
                     1});
    }
    if (ns == 0) use_mode(target, set.cross_mode, flag, clock, desc(*set.core, set));
    st.pending.push_back({clock, set.id});
    st.last_set_instr = set.id;
}

void Machine::deliver_cross(Core& setter, const Instr& set, const VectorClock& clock) {
    int mode = set.cross_mode, flag = set.cross_flag;
    SetDesc me = desc(setter, set);
    // Sets of one core to one flag are consumed in the order they take effect, and consecutive cross-core
    // sets may take effect in any order: unless one happens-before the other, which one a wait takes depends
    // on timing.
    auto& last = last_cross_set_[{setter.index(), mode, flag}];
    if (cfg_.checks.flags && last.instr && last.at.agent != me.at.agent && !clock.covers(last.at))
        ambiguous(
            fmt::format("{} and {} both set cross-core flag {} (mode {}) with no happens-before between "
                        "them: consecutive cross-core sets may take effect in any order, so which of them a "
                        "CrossCoreWaitFlag consumes (and what the waiter then knows) depends on timing; set "
                        "the flag from one pipe, order the two sets (an intra-core flag from one pipe to "
                        "the other), or give them different flag ids",
                        describe(last), describe(me), flag, mode),
            {loc_of(last), loc_of(me)});
    last = me;
    auto link = [&](Core* t) {
        if (!t || t == &setter) return;
        auto& v = cross_links_[{setter.index(), t->index()}];
        if (v.size() >= 16) v.erase(v.begin());
        v.push_back(me);
    };
    auto round = [&](std::tuple<int, int, int> key, std::vector<int> members, auto&& on_complete) {
        auto& r = rounds_[key];
        r.members = std::move(members);
        r.sets[setter.index()].push_back(clock);
        for (int m : r.members)
            if (r.sets[m].empty()) return;
        VectorClock joined;
        for (int m : r.members) {
            joined.join(r.sets[m].front());
            r.sets[m].pop_front();
        }
        on_complete(joined);
    };
    if (mode == 4) {
        if (setter.type() == CoreType::AIC) {
            Core* t = aiv_of(setter.block(), flag < 16 ? 0 : 1);
            link(t);
            if (t) deliver(*t, 4, flag % 16, clock, set);
        } else if (Core* t = aic_of(setter.block())) {
            link(t);
            deliver(*t, 4, flag + 16 * setter.sub(), clock, set);
        }
        return;
    }
    if (mode == 2 && setter.type() == CoreType::AIC) {
        for (int s = 0; s < 2; ++s)
            if (Core* t = aiv_of(setter.block(), s)) {
                link(t);
                deliver(*t, 0, flag, clock, set);
            }
        return;
    }
    if (mode == 2) {  // AIV -> its AIC, once both AIVs have set
        std::vector<int> members;
        for (int s = 0; s < 2; ++s)
            if (Core* t = aiv_of(setter.block(), s)) members.push_back(t->index());
        link(aic_of(setter.block()));
        round({2, setter.block(), flag}, members, [&](const VectorClock& joined) {
            if (Core* t = aic_of(setter.block())) deliver(*t, 0, flag, joined, set);
        });
        return;
    }
    std::vector<int> members;
    if (mode == 1) {
        for (int s = 0; s < 2; ++s)
            if (Core* t = aiv_of(setter.block(), s)) members.push_back(t->index());
    } else {
        for (auto& c : cores_)
            if (c->type() == setter.type()) members.push_back(c->index());
    }
    for (int m : members) link(&core(m));
    int group = mode == 1 ? setter.block() : static_cast<int>(setter.type());
    round({mode, group, flag}, members, [&](const VectorClock& joined) {
        for (int m : members) deliver(core(m), 0, flag, joined, set);
    });
}

void Machine::counter_wait(Core& c, const Instr& in, VectorClock& learned) {
    int ns = in.cross_mode == 4 ? 4 : 0;
    auto& st = c.counters_[{ns, in.cross_flag}];
    if (cfg_.checks.flags) {
        // What the wait happens-after before it consumes: a scalar-unit wait knows what the scalar unit
        // knows; a pipe wait what its pipe passed on to it (`learned`) and what the scalar unit knew at
        // issue.
        VectorClock before = in.pipe == Pipe::S ? c.s_known_ : learned;
        if (in.issued) before.join(*in.issued);
        SetDesc me = desc(c, in);
        check_waiters(c, in, before);
        last_cross_wait_[{c.index(), ns, in.cross_flag}] = me;
    }
    const CounterState::Increment& inc = st.pending.front();
    learned.join(inc.clock);
    if (cfg_.keep_trace && in.id && in.id <= trace_.size()) trace_[in.id - 1].matched = inc.instr;
    st.pending.pop_front();
    st.waits.push_back({c.agent(in.pipe), in.epoch});
    st.waiters.push_back(in.id);
}

void Machine::check_waiters(Core& c, const Instr& in, const VectorClock& before) {
    int ns = in.cross_mode == 4 ? 4 : 0;
    auto it = last_cross_wait_.find({c.index(), ns, in.cross_flag});
    if (it == last_cross_wait_.end()) return;
    const SetDesc& last = it->second;
    SetDesc me = desc(c, in);
    if (last.at.agent == me.at.agent || before.covers(last.at)) return;
    ambiguous(
        fmt::format("{} and {} both wait on cross-core flag {}{} of {} with no happens-before between them: "
                    "either may take the next increment, so which one proceeds (and what it then knows) "
                    "depends on timing, and the other may wait for an increment that never comes; wait on "
                    "one pipe and pass the order on with an intra-core flag, or use one flag id per waiting "
                    "pipe",
                    describe(last), describe(me), in.cross_flag, ns == 4 ? " (mode 4)" : "", c.name()),
        {loc_of(last), loc_of(me)});
}

std::string Machine::consumed_text(const std::vector<uint64_t>& waiters, uint64_t sets) {
    std::string ids;
    size_t n = std::min<size_t>(waiters.size(), 8);
    for (size_t i = 0; i < n; ++i) {
        if (i) ids += i + 1 == n && n == waiters.size() ? " and " : ", ";
        ids += fmt::format("#{}", waiters[i]);
    }
    if (n < waiters.size()) ids += fmt::format(" and {} more", waiters.size() - n);
    if (sets == 1) return fmt::format("was set once; the set was consumed by {}", ids);
    if (sets == 2) return fmt::format("was set 2 times; both sets were consumed by {}", ids);
    return fmt::format("was set {} times; all {} sets were consumed by {}", sets, sets, ids);
}

// ---------------------------------------------------------------------------------------------------------------
// Execution

namespace {
bool is_set(InstrKind k) {
    return k == InstrKind::set_flag || k == InstrKind::cross_set;
}
bool is_wait(InstrKind k) {
    return k == InstrKind::wait_flag || k == InstrKind::cross_wait;
}
}  // namespace

bool Machine::executable(Core& c, int slot, size_t pos) const {
    auto& q = c.pipes_[static_cast<size_t>(slot)];
    if (pos >= q.queue.size()) return false;
    const Instr& in = *q.queue[pos];
    if (pos > 0) {
        // What a pipe that does not keep order allows: a later plain instruction may complete before earlier
        // plain instructions and before an earlier set (a set waits for the earlier instructions of its pipe,
        // it does not hold back later ones); a wait may be satisfied while earlier plain instructions are in
        // flight. Nothing passes a wait or a barrier, and a set or a barrier passes nothing.
        Pipe p = slot_pipe(slot);
        bool ordered = p == Pipe::S || (p == Pipe::V && arch().v_pipe_ordered);
        if (ordered || pos >= cfg_.reorder_window) return false;
        if (in.kind != InstrKind::plain && !is_wait(in.kind)) return false;
        for (size_t j = 0; j < pos; ++j) {
            InstrKind k = q.queue[j]->kind;
            if (is_wait(k) || k == InstrKind::barrier) return false;
            if (is_wait(in.kind) && k != InstrKind::plain) return false;
        }
    }
    if (in.kind == InstrKind::wait_flag) {
        auto it = c.flags_.find({static_cast<int>(in.event), in.event_id});
        return it != c.flags_.end() && !it->second.pending.empty();
    }
    if (in.kind == InstrKind::cross_wait) {
        auto it = c.counters_.find({in.cross_mode == 4 ? 4 : 0, in.cross_flag});
        return it != c.counters_.end() && !it->second.pending.empty();
    }
    return true;
}

void Machine::execute(Core& c, int slot, size_t pos) {
    auto& q = c.pipes_[static_cast<size_t>(slot)];
    ++steps_;
    if (pos > 0) {
        bool over_plain = false, over_set = false;
        for (size_t j = 0; j < pos; ++j) {
            over_plain |= q.queue[j]->kind == InstrKind::plain;
            over_set |= is_set(q.queue[j]->kind);
        }
        if (is_wait(q.queue[pos]->kind)) {
            coverage_.wait_over_plain++;
            // The instructions the wait overtakes come before it in the pipe: they keep what the pipe knew.
            for (size_t j = 0; j < pos; ++j) q.frozen.try_emplace(q.queue[j]->epoch, q.known);
        } else {
            coverage_.plain_over_plain += over_plain;
            coverage_.plain_over_set += over_set;
        }
    }
    std::unique_ptr<Instr> in = std::move(q.queue[pos]);
    q.queue.erase(q.queue.begin() + static_cast<std::ptrdiff_t>(pos));
    AgentId me = c.agent(in->pipe);
    Pipe p = in->pipe;
    bool ordered = p == Pipe::S || (p == Pipe::V && arch().v_pipe_ordered);
    VectorClock known;
    if (auto f = q.frozen.find(in->epoch); f != q.frozen.end()) {
        known = std::move(f->second);
        q.frozen.erase(f);
    } else {
        known = q.known;
    }
    if (in->issued) known.join(*in->issued);
    switch (in->kind) {
        case InstrKind::plain:
            if (cfg_.checks.race) race_check(c, *in, known);
            if (in->exec) in->exec(*in);
            break;
        case InstrKind::barrier:
            q.known.raise(me, in->epoch);
            break;
        case InstrKind::set_flag: {
            known.raise(me, in->epoch);
            flag_set(c, *in, known);
            break;
        }
        case InstrKind::wait_flag:
            flag_wait(c, *in, q.known);
            break;
        case InstrKind::cross_set: {
            known.raise(me, in->epoch);
            deliver_cross(c, *in, known);
            break;
        }
        case InstrKind::cross_wait:
            counter_wait(c, *in, q.known);
            break;
    }
    if (ordered) q.known.raise(me, in->epoch);
}

bool Machine::drain_in_order() {
    bool any = false, progress = true;
    while (progress) {
        progress = false;
        for (auto& cp : cores_)
            for (int s = 0; s < kPipeSlots; ++s)
                while (executable(*cp, s, 0)) {
                    execute(*cp, s, 0);
                    progress = any = true;
                }
    }
    return any;
}

bool Machine::random_step() {
    struct Cand {
        Core* c;
        int slot;
        size_t pos;
    };
    std::vector<Cand> cands;
    for (auto& cp : cores_)
        for (int s = 0; s < kPipeSlots; ++s) {
            size_t n = std::min<size_t>(cp->pipes_[static_cast<size_t>(s)].queue.size(), cfg_.reorder_window);
            for (size_t pos = 0; pos < n; ++pos)
                if (executable(*cp, s, pos)) cands.push_back({cp.get(), s, pos});
        }
    if (cands.empty()) return false;
    auto& pick = cands[std::uniform_int_distribution<size_t>(0, cands.size() - 1)(rng_)];
    execute(*pick.c, pick.slot, pick.pos);
    return true;
}

void Machine::drain() {
    if (cfg_.scheduler == SchedulerKind::in_order) {
        drain_in_order();
        return;
    }
    while (random_step()) {
    }
}

void Machine::after_issue(Core& c) {
    if (cfg_.scheduler == SchedulerKind::in_order) {
        drain_in_order();
        return;
    }
    // Adversarial: run a random amount of pending work, and sometimes hand the scalar baton to another
    // core.
    int steps = std::uniform_int_distribution<int>(0, 3)(rng_);
    for (int i = 0; i < steps && random_step(); ++i) {
    }
    if (std::uniform_int_distribution<int>(0, 7)(rng_) == 0 && !c.aborting_) yield_to_scheduler(c.index());
}

// ---------------------------------------------------------------------------------------------------------------
// Fibers and scheduling

void Machine::yield_to_scheduler(int i) {
    runners_[static_cast<size_t>(i)].fiber->yield();
}

void Machine::block_until(Core& c, const std::function<bool()>& ready, std::string what) {
    for (;;) {
        if (cfg_.scheduler == SchedulerKind::in_order) {
            drain_in_order();
        } else {
            while (!ready() && random_step()) {
            }
        }
        if (ready() || c.aborting_) return;
        auto& r = runners_[static_cast<size_t>(c.index())];
        r.state = Runner::State::blocked;
        r.ready = ready;
        r.blocked_on = what;
        yield_to_scheduler(c.index());
        r.state = Runner::State::ready;
        r.ready = nullptr;
        if (c.aborting_) return;
    }
}

void Machine::core_main(int i, const std::function<void()>& kernel) {
    Core& c = core(i);
    auto fail = [&](const std::string& what) {
        violate({ViolationKind::kernel_exception,
                 Severity::error,
                 fmt::format("the kernel body on {} threw: {}", c.name(), what),
                 {},
                 1});
    };
    try {
        kernel();
        c.finish_kernel();
    } catch (const detail::CoreAbortTag&) {
    } catch (const evg::Error& e) {
        fail(e.what());
    } catch (const std::exception& e) {
        fail(e.what());
    } catch (...) {
        // A kernel thread that was stopped unwinds with an internal token; anything else is reported.
        if (!c.aborting_) fail("an exception of unknown type");
    }
    runners_[static_cast<size_t>(i)].state = Runner::State::finished;
}

int Machine::pick_runnable() {
    std::vector<int> cand;
    for (size_t i = 0; i < runners_.size(); ++i) {
        auto& r = runners_[i];
        if (r.state == Runner::State::ready) cand.push_back(static_cast<int>(i));
        if (r.state == Runner::State::blocked && r.ready && r.ready()) cand.push_back(static_cast<int>(i));
    }
    if (cand.empty()) return -1;
    if (cfg_.scheduler == SchedulerKind::in_order) return cand.front();
    return cand[std::uniform_int_distribution<size_t>(0, cand.size() - 1)(rng_)];
}

Report Machine::run(const std::function<void()>& kernel) {
    runners_.resize(cores_.size());
    for (size_t i = 0; i < cores_.size(); ++i)
        runners_[i].fiber =
            std::make_unique<detail::Fiber>([this, i, &kernel] { core_main(static_cast<int>(i), kernel); });
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
        for (auto& c : cores_) c->aborting_ = true;
        for (size_t i = 0; i < runners_.size(); ++i)
            while (runners_[i].state != Runner::State::finished) give_turn(static_cast<int>(i));
        break;
    }
    drain();
    if (!deadlocked_) {
        bool stuck = false;
        for (auto& c : cores_)
            for (auto& q : c->pipes_) stuck |= !q.queue.empty();
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
        auto& r = runners_[i];
        if (r.state == Runner::State::blocked) {
            parts.push_back(fmt::format("the scalar unit of {} is blocked in {}", c.name(), r.blocked_on));
            locs.push_back(c.site_location(r.blocked_on, {}));
        }
        for (int s = 0; s < kPipeSlots; ++s) {
            auto& q = c.pipes_[static_cast<size_t>(s)];
            if (q.queue.empty()) continue;
            const Instr& head = *q.queue.front();
            std::string why;
            if (head.kind == InstrKind::wait_flag) {
                auto it = c.flags_.find({static_cast<int>(head.event), head.event_id});
                if (it == c.flags_.end() || it->second.sets == 0)
                    why = fmt::format("which no SetFlag<{}>({}) will ever satisfy", event_name(head.event),
                                      head.event_id);
                else
                    why = fmt::format("which no further SetFlag<{}>({}) will satisfy: the flag {}",
                                      event_name(head.event), head.event_id,
                                      consumed_text(it->second.waiters, it->second.sets));
            } else if (head.kind == InstrKind::cross_wait) {
                if (cfg_.checks
                        .flags) {  // a wait that never ran may have lost its increment to another waiter
                    auto f = q.frozen.find(head.epoch);
                    VectorClock before = f != q.frozen.end() ? f->second : q.known;
                    if (head.issued) before.join(*head.issued);
                    check_waiters(c, head, before);
                }
                auto it = c.counters_.find({head.cross_mode == 4 ? 4 : 0, head.cross_flag});
                if (it == c.counters_.end() || it->second.increments == 0)
                    why = fmt::format("whose cross-core flag {} is never set", head.cross_flag);
                else
                    why =
                        fmt::format("whose cross-core flag {} {}, and no further set comes", head.cross_flag,
                                    consumed_text(it->second.waiters, it->second.increments));
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
    if (!cfg_.checks.flags) return;
    for (auto& cp : cores_) {
        Core& c = *cp;
        for (auto& [key, f] : c.flags_) {
            if (f.pending.empty()) continue;
            auto e = static_cast<HardEvent>(key.first);
            Location l;
            if (const TraceEntry* t = traced(f.pending.back().instr)) {
                l.instr = t->id;
                l.core = c.index();
                l.core_name = c.name();
                l.pipe = std::string(pipe_name(t->pipe));
                l.op = t->op;
                l.site = t->site.str();
            }
            violate({ViolationKind::flag_left_set,
                     Severity::error,
                     fmt::format(
                         "SetFlag<{}>({}) of {} is still set at kernel end ({} unconsumed set(s)); the next "
                         "kernel on this core would inherit it",
                         event_name(e), key.second, c.name(), f.pending.size()),
                     {l},
                     1});
        }
        for (auto& [key, st] : c.counters_) {
            if (st.pending.empty()) continue;
            Location l;
            if (const TraceEntry* t = traced(st.last_set_instr)) {
                l.instr = t->id;
                l.core = t->core;
                l.core_name = core(t->core).name();
                l.pipe = std::string(pipe_name(t->pipe));
                l.op = t->op;
                l.site = t->site.str();
            }
            violate({ViolationKind::counter_left_nonzero,
                     Severity::error,
                     fmt::format("cross-core flag {}{} of {} holds {} unconsumed set(s) at kernel end",
                                 key.second, key.first == 4 ? " (mode 4)" : "", c.name(), st.pending.size()),
                     {l},
                     1});
        }
        if (c.atomic_ != AtomicOp::none)
            violate(
                {ViolationKind::atomic_left_on,
                 Severity::error,
                 fmt::format("{} ends the kernel with GM atomic mode on (set at {}); call SetAtomicNone()",
                             c.name(), c.atomic_site_.str()),
                 {c.site_location("SetAtomic", c.atomic_site_)},
                 1});
    }
    for (auto& [key, r] : rounds_)
        for (auto& [m, sets] : r.sets)
            if (!sets.empty())
                violate({ViolationKind::counter_left_nonzero,
                         Severity::error,
                         fmt::format(
                             "mode {} cross-core flag {} was set by {} but not by every participant, so it "
                             "never fired",
                             std::get<0>(key), std::get<2>(key), core(m).name()),
                         {},
                         1});
}

Report Machine::make_report() {
    Report r;
    r.arch = std::string(arch().name);
    r.block_dim = block_dim_;
    r.kernel_type = type_;
    r.mutations_unapplied = unapplied_mutations();
    r.violations = violations_;
    if (dropped_violations_)
        r.violations.push_back({ViolationKind::kernel_exception,
                                Severity::warning,
                                fmt::format("{} further distinct violation(s) were not kept (limit {})",
                                            dropped_violations_, cfg_.max_violations),
                                {},
                                dropped_violations_});
    r.stats.instructions = instr_count_;
    for (const auto& t : trace_) {
        r.stats.per_pipe[std::string(pipe_name(t.pipe))]++;
        if (t.kind == InstrKind::set_flag) r.stats.events_set++;
        if (t.kind == InstrKind::wait_flag) r.stats.events_waited++;
    }
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
