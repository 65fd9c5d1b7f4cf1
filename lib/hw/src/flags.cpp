// Machine, flags: SetFlag/WaitFlag inside a core, cross-core flags and their rounds, and the cross-core
// ambiguity checks (docs/hardware-model.md §2, §3).
#include "evg/hw/machine.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace evg::hw {

void Machine::flag_set(Core& c, const Instr& in, const VectorClock& clock) {
    auto& f = c.flags_[{static_cast<int>(in.event), in.event_id}];
    ++f.sets;
    if (cfg_.checks.flags && f.sets >= 2) {
        // The previous set must have been consumed by a wait that happens-before this set.
        size_t need = static_cast<size_t>(f.sets - 1);  // waits that must precede
        bool ok = f.waits.count >= need && clock.covers(f.waits.at(need - 1));
        if (!ok) {
            Location prev;
            if (const TraceEntry* e = traced(f.last_set_instr)) {
                prev.instr = f.last_set_instr;
                prev.core = c.index();
                prev.core_name = c.name();
                prev.pipe = std::string(pipe_name(e->pipe));
                prev.op = e->op();
                prev.site = e->site().str();
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
    // The next set checks against the wait matching this one, never against an earlier wait.
    f.waits.drop_before(f.sets - 1);
    f.pending.push_back({clock, in.id});
    f.last_set_instr = in.id;
}

void Machine::flag_wait(Core& c, const Instr& in, VectorClock& learned) {
    auto& f = c.flags_[{static_cast<int>(in.event), in.event_id}];
    const FlagState::Set& set = f.pending.front();
    learned.join(set.clock);
    if (cfg_.keep_trace && in.id && in.id <= trace_.size())
        trace_[in.id - 1].matched = static_cast<uint32_t>(set.instr);
    waits_by_event_[{c.index(), pipe_slot(in.pipe), static_cast<int>(in.event)}].push_back(
        {in.id, set.instr});
    f.pending.pop_front();
    f.waits.add({c.agent(in.pipe), in.epoch}, in.id);
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
void Machine::use_mode(Core& c, int mode, int flag, const VectorClock& before, const SetDesc& op,
                       const std::vector<SetDesc>& sources) {
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
    // A round's increment lands only once every member has set: a later use in another mode must follow
    // each member's set, not only the one that completed the round.
    for (const SetDesc& s : sources) u.ops[s.at.agent] = s;
}

bool Machine::cross_core_legal(Core& c, uint8_t mode, Pipe p, uint16_t& flag, Site site,
                               const std::string& op, bool wait) {
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
    if (mode == 1 && c.type() == CoreType::AIC && !wait)
        return fail(fmt::format("{}: mode 1 synchronises the AIVs of one AI core; an AIC cannot use it", op));
    // A wait on the scalar pipe is CrossCoreWaitFlag's default (<0, PIPE_S>): the scalar unit waits, whatever
    // mode the matching sets used. A set's mode and pipe say how it signals, so a set needs a real pipe.
    if (p == Pipe::ALL || (p == Pipe::S && mode != 4 && !wait))
        return fail(fmt::format("{}: pipe {} is not allowed in mode {} (use V, M, MTE1, MTE2, MTE3 or FIX)",
                                op, pipe_name(p), mode));
    if (p != Pipe::S && !c.owns(p))
        return fail(fmt::format("{}: {} has no pipe {}", op, c.name(), pipe_name(p)));
    // 16 flags per core (an AIC's mode-4 flags: 32); the hardware keeps the low bits of the id.
    const int max_flag = (mode == 4 && c.type() == CoreType::AIC) ? 31 : 15;
    if (flag > max_flag) {
        const auto hw_flag = static_cast<uint16_t>(flag & max_flag);
        fail(
            fmt::format("{}: flag id {} is above {}; the hardware keeps only the low {} bits of the id: this "
                        "is flag {}, and pairs with the cross-core calls of flag {}",
                        op, flag, max_flag, max_flag == 31 ? 5 : 4, hw_flag, hw_flag));
        flag = hw_flag;
    }
    if (mode != 4 && flag > 10)
        fail(fmt::format("{}: flag id {} is above 10; ids 11-14 are used by SyncAll", op, flag),
             Severity::warning);
    return true;
}

void Machine::deliver(Core& target, int ns, int flag, const VectorClock& clock, const Instr& set,
                      const std::vector<SetDesc>& sources) {
    auto& st = target.counters_[{ns, flag}];
    ++st.increments;
    if (cfg_.checks.flags && st.increments > static_cast<uint64_t>(arch().cross_core_counter_max)) {
        size_t need = static_cast<size_t>(st.increments) - static_cast<size_t>(arch().cross_core_counter_max);
        bool ok = st.waits.count >= need && clock.covers(st.waits.at(need - 1));
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
    // The next increment checks against a later wait than this one did.
    if (st.increments > static_cast<uint64_t>(arch().cross_core_counter_max))
        st.waits.drop_before(st.increments - static_cast<uint64_t>(arch().cross_core_counter_max));
    if (ns == 0) {
        SetDesc me = desc(*set.core, set);
        use_mode(target, set.cross_mode, flag, clock, me,
                 sources.empty() ? std::vector<SetDesc>{me} : sources);
    }
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
        r.sets[setter.index()].push_back({clock, me});
        for (int m : r.members)
            if (r.sets[m].empty()) return;
        VectorClock joined;
        std::vector<SetDesc> sources;
        for (int m : r.members) {
            joined.join(r.sets[m].front().clock);
            sources.push_back(std::move(r.sets[m].front().desc));
            r.sets[m].pop_front();
        }
        on_complete(joined, sources);
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
        round({2, setter.block(), flag}, members,
              [&](const VectorClock& joined, const std::vector<SetDesc>& sources) {
                  if (Core* t = aic_of(setter.block())) deliver(*t, 0, flag, joined, set, sources);
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
    round({mode, group, flag}, members, [&](const VectorClock& joined, const std::vector<SetDesc>& sources) {
        for (int m : members) deliver(core(m), 0, flag, joined, set, sources);
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
    if (cfg_.keep_trace && in.id && in.id <= trace_.size())
        trace_[in.id - 1].matched = static_cast<uint32_t>(inc.instr);
    st.pending.pop_front();
    st.waits.add({c.agent(in.pipe), in.epoch}, in.id);
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

std::string Machine::consumed_text(const WaitLog& waits, uint64_t sets) {
    std::string ids;
    const auto& waiters = waits.first_waiters;
    size_t n = waiters.size();
    for (size_t i = 0; i < n; ++i) {
        if (i) ids += i + 1 == n && n == waits.count ? " and " : ", ";
        ids += fmt::format("#{}", waiters[i]);
    }
    if (n < waits.count) ids += fmt::format(" and {} more", waits.count - n);
    if (sets == 1) return fmt::format("was set once; the set was consumed by {}", ids);
    if (sets == 2) return fmt::format("was set 2 times; both sets were consumed by {}", ids);
    return fmt::format("was set {} times; all {} sets were consumed by {}", sets, sets, ids);
}

}  // namespace evg::hw
