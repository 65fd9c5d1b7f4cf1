// Machine, flags: SetFlag/WaitFlag inside a core, cross-core flags and their rounds: which set a wait
// consumes and what it learns (docs/hardware-model.md §2, §3). What is wrong about them is the flags
// checker's (checkers/flags.cpp), told through sync events.
#include "evg/hw/machine.hpp"
#include "evg/hw/rules.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace evg::hw {

void Machine::flag_set(Core& c, const Instr& in, const VectorClock& clock) {
    // A pending set can make a queued wait of the core executable (CoreState::changed). A set that executes
    // on a pipe comes through execute(), which marks the core; a SetFlag whose source is the scalar unit runs
    // in Core::do_set and comes here directly, and nothing else would tell the scheduler to look again.
    state(c).changed = true;
    auto& f = state(c).flags[flag_key(in.event, in.event_id)];
    ++f.sets;
    notify_sync({.kind = SyncKind::flag_set,
                 .core = c.index(),
                 .in = &in,
                 .agent = c.agent(in.pipe),
                 .clock = &clock});
    f.pending.push_back({clock, in.id});
}

void Machine::flag_wait(Core& c, const Instr& in, VectorClock& learned, const VectorClock& before) {
    auto& f = state(c).flags[flag_key(in.event, in.event_id)];
    const FlagState::Set& set = f.pending.front();
    learned.join(set.clock);
    if (cfg_.keep_trace && in.id && in.id <= trace_.size())
        trace_[in.id - 1].matched = static_cast<uint32_t>(set.instr);
    notify_sync({.kind = SyncKind::flag_wait,
                 .core = c.index(),
                 .in = &in,
                 .agent = c.agent(in.pipe),
                 .clock = &before,
                 .matched = set.instr,
                 .matched_clock = &set.clock});
    f.pending.pop_front();
    f.waits.add(in.id);
}

SyncRecord Machine::record(Core& c, const Instr& in) const {
    return sync_record(c.index(), c.agent(in.pipe), in);
}

bool Machine::cross_core_legal(Core& c, uint8_t mode, Pipe p, uint16_t& flag, Site site,
                               const std::string& op, bool wait) {
    auto fail = [&](std::string msg, Severity sev = Severity::error, uint64_t rules = 0) {
        c.violate(ViolationKind::illegal_cross_core, std::move(msg), {c.site_location(op, site)}, sev, rules);
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
    if (cfg_.checks.uninit &&
        c.check_initialised(flag, "flag id", op, site, wait ? "CrossCoreWaitFlag" : "CrossCoreSetFlag", 0)) {
        flag = static_cast<uint16_t>(flag & max_flag);
        return true;
    }
    if (flag > max_flag) {
        const auto hw_flag = static_cast<uint16_t>(flag & max_flag);
        fail(
            fmt::format("{}: flag id {} is above {}; the hardware keeps only the low {} bits of the id: this "
                        "is flag {}, and pairs with the cross-core calls of flag {}",
                        op, flag, max_flag, max_flag == 31 ? 5 : 4, hw_flag, hw_flag),
            Severity::error, rule_bit(RuleId::R11));
        flag = hw_flag;
    }
    if (mode != 4 && flag > 10)
        fail(fmt::format("{}: flag id {} is above 10; ids 11-14 are used by SyncAll", op, flag),
             Severity::warning);
    return true;
}

void Machine::deliver(Core& target, int ns, int flag, const VectorClock& clock, const Instr& set,
                      const std::vector<SyncRecord>& sources) {
    state(target).changed = true;
    auto& st = state(target).counters[{ns, flag}];
    ++st.increments;
    const SyncRecord me = record(*set.core, set);
    SyncEvent e{.kind = SyncKind::counter_increment,
                .core = target.index(),
                .in = &set,
                .agent = me.at.agent,
                .clock = &clock,
                .ns = ns,
                .flag = flag,
                .record = &me};
    e.sources = sources;
    notify_sync(e);
    st.pending.push_back({clock, set.id});
}

void Machine::deliver_cross(Core& setter, const Instr& set, const VectorClock& clock) {
    const int mode = set.cross_mode, flag = set.cross_flag;
    const SyncRecord me = record(setter, set);
    // The cores the set signals, as the mode routes it.
    std::vector<int> targets;
    auto target = [&](Core* t) {
        if (t && t != &setter) targets.push_back(t->index());
    };
    std::vector<int> members;  // a round's participants (modes 0, 1, and 2 from the AIVs)
    if (mode == 4) {
        target(setter.type() == CoreType::AIC ? aiv_of(setter.block(), flag < 16 ? 0 : 1)
                                              : aic_of(setter.block()));
    } else if (mode == 2 && setter.type() == CoreType::AIC) {
        for (int s = 0; s < 2; ++s) target(aiv_of(setter.block(), s));
    } else if (mode == 2) {
        for (int s = 0; s < 2; ++s)
            if (Core* t = aiv_of(setter.block(), s)) members.push_back(t->index());
        target(aic_of(setter.block()));
    } else {
        if (mode == 1) {
            for (int s = 0; s < 2; ++s)
                if (Core* t = aiv_of(setter.block(), s)) members.push_back(t->index());
        } else {
            for (auto& c : cores_)
                if (c->type() == setter.type()) members.push_back(c->index());
        }
        for (int m : members) target(&core(m));
    }
    SyncEvent e{.kind = SyncKind::cross_set,
                .core = setter.index(),
                .in = &set,
                .agent = me.at.agent,
                .clock = &clock,
                .record = &me};
    e.targets = targets;
    notify_sync(e);

    // A round: the increment lands once every member has set, knowing every member's set.
    auto round = [&](std::tuple<int, int, int> key, auto&& on_complete) {
        auto& r = rounds_[key];
        r.members = members;
        r.sets[setter.index()].push_back({clock, me});
        for (int m : r.members)
            if (r.sets[m].empty()) return;
        VectorClock joined;
        std::vector<SyncRecord> sources;
        for (int m : r.members) {
            joined.join(r.sets[m].front().clock);
            sources.push_back(std::move(r.sets[m].front().record));
            r.sets[m].pop_front();
        }
        on_complete(joined, sources);
    };
    if (mode == 4) {
        if (setter.type() == CoreType::AIC) {
            if (Core* t = aiv_of(setter.block(), flag < 16 ? 0 : 1)) deliver(*t, 4, flag % 16, clock, set);
        } else if (Core* t = aic_of(setter.block())) {
            deliver(*t, 4, flag + 16 * setter.sub(), clock, set);
        }
        return;
    }
    if (mode == 2 && setter.type() == CoreType::AIC) {
        for (int s = 0; s < 2; ++s)
            if (Core* t = aiv_of(setter.block(), s)) deliver(*t, 0, flag, clock, set);
        return;
    }
    if (mode == 2) {  // AIV -> its AIC, once both AIVs have set
        round({2, setter.block(), flag},
              [&](const VectorClock& joined, const std::vector<SyncRecord>& sources) {
                  if (Core* t = aic_of(setter.block())) deliver(*t, 0, flag, joined, set, sources);
              });
        return;
    }
    const int group = mode == 1 ? setter.block() : static_cast<int>(setter.type());
    round({mode, group, flag}, [&](const VectorClock& joined, const std::vector<SyncRecord>& sources) {
        for (int m : members) deliver(core(m), 0, flag, joined, set, sources);
    });
}

void Machine::counter_wait(Core& c, const Instr& in, VectorClock& learned) {
    const int ns = counter_namespace(in.cross_mode);
    auto& st = state(c).counters[{ns, in.cross_flag}];
    // What the wait happens-after before it consumes: a scalar-unit wait knows what the scalar unit knows; a
    // pipe wait what its pipe passed on to it (`learned`) and what the scalar unit knew at issue.
    VectorClock before = in.pipe == Pipe::S ? c.scalar_known() : learned;
    if (in.issued) before.join(*in.issued);
    const SyncRecord me = record(c, in);
    notify_sync({.kind = SyncKind::counter_wait,
                 .core = c.index(),
                 .in = &in,
                 .agent = me.at.agent,
                 .clock = &before,
                 .ns = ns,
                 .flag = in.cross_flag,
                 .record = &me});
    const CounterState::Increment& inc = st.pending.front();
    learned.join(inc.clock);
    if (cfg_.keep_trace && in.id && in.id <= trace_.size())
        trace_[in.id - 1].matched = static_cast<uint32_t>(inc.instr);
    st.pending.pop_front();
    st.waits.add(in.id);
}

void Machine::wait_stuck(Core& c, const Instr& in, const VectorClock& before) {
    const SyncRecord me = record(c, in);
    notify_sync({.kind = SyncKind::counter_wait_stuck,
                 .core = c.index(),
                 .in = &in,
                 .agent = me.at.agent,
                 .clock = &before,
                 .ns = counter_namespace(in.cross_mode),
                 .flag = in.cross_flag,
                 .record = &me});
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
