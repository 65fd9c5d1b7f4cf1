// Flags and counters checker (docs/hardware-model.md §2, §3): a SetFlag while the flag may still be set
// (flag_set_twice), a cross-core counter that can exceed what it holds (counter_overflow), cross-core
// matches that depend on timing (cross_core_ambiguous: two unordered sets of one flag, two unordered waiters
// of one counter, one counter used in two modes without order), and what the kernel leaves behind
// (flag_left_set, counter_left_nonzero, a round not every member set, atomic_left_on).
#include <fmt/format.h>

#include <map>
#include <utility>

#include "evg/hw/checker.hpp"
#include "evg/hw/cube_state.hpp"
#include "evg/hw/fifo.hpp"

namespace evg::hw {

namespace {

// The executed waits of one flag or counter as far as a check can still ask for them: a set checks against
// one wait, and later sets against later ones, so older epochs are dropped (bounded however many waits a
// long kernel executes).
struct WaitEpochs {
    Fifo<Epoch> epochs;  // waits base, base + 1, ...
    uint64_t base = 0;   // index of epochs.front()
    uint64_t count = 0;  // executed waits
    void add(Epoch e) {
        epochs.push_back(e);
        ++count;
    }
    const Epoch& at(uint64_t i) const { return epochs[static_cast<size_t>(i - base)]; }  // base <= i < count
    void drop_before(uint64_t i) {
        while (base < i && !epochs.empty()) {
            epochs.pop_front();
            ++base;
        }
    }
};

// One intra-core flag or one cross-core counter: its sets (increments) and waits, counted.
struct History {
    uint64_t sets = 0;
    WaitEpochs waits;
    uint64_t last_set_instr = 0;
    uint64_t pending() const { return sets - waits.count; }
};

class FlagChecker final : public Checker {
  public:
    explicit FlagChecker(CheckerHost& host) : host_(host) {}
    unsigned events() const override { return kSync | kKernelEnd | kClocks; }

    void on_sync(const SyncEvent& e) override;
    void on_kernel_end(const KernelEndEvent& e) override;
    void live_instrs(std::vector<uint64_t>& out) const override;

  private:
    CheckerHost& host_;
    std::map<std::pair<int, FlagKey>, History> flags_;        // (core, flag_key)
    std::map<std::pair<int, CounterKey>, History> counters_;  // (core, counter key)
    // The last executed cross-core set of each (setter core, (mode, flag)): by mode, not by namespace, since
    // the sets a wait may take in any order are those of one mode.
    std::map<std::pair<int, std::pair<int, int>>, SyncRecord> last_cross_set_;
    // The last executed cross-core wait on each counter (core, counter key).
    std::map<std::pair<int, CounterKey>, SyncRecord> last_cross_wait_;
    // Modes 0-2 share a core's flag ids: per (core, flag), the mode in use and its operations on that core
    // (its sets, its waits, the increments it received), the latest per agent.
    struct ModeUse {
        int mode = -1;
        std::map<AgentId, SyncRecord> ops;
    };
    std::map<std::pair<int, int>, ModeUse> mode_use_;

    void flag_set(const SyncEvent& e);
    void counter_increment(const SyncEvent& e);
    void cross_set(const SyncEvent& e);
    // Reports when the wait `me`, knowing `before`, is unordered with the last executed wait on its counter.
    void check_waiters(int core, int ns, int flag, const SyncRecord& me, const VectorClock& before);
    void use_mode(int core, int mode, int flag, const VectorClock& before, const SyncRecord& op,
                  std::span<const SyncRecord> sources);
    void ambiguous(std::string msg, std::vector<Location> locs);
    Location set_location(uint64_t instr) const;  // of a set the trace still describes; empty if none
};

void FlagChecker::on_sync(const SyncEvent& e) {
    switch (e.kind) {
        case SyncKind::flag_set:
            flag_set(e);
            break;
        case SyncKind::flag_wait:
            flags_[{e.core, flag_key(e.in->event, e.in->event_id)}].waits.add({e.agent, e.in->epoch});
            break;
        case SyncKind::cross_set:
            cross_set(e);
            break;
        case SyncKind::counter_increment:
            counter_increment(e);
            break;
        case SyncKind::counter_wait:
            check_waiters(e.core, e.ns, e.flag, *e.record, *e.clock);
            last_cross_wait_[{e.core, e.counter()}] = *e.record;
            counters_[{e.core, e.counter()}].waits.add(e.record->at);
            break;
        case SyncKind::counter_wait_stuck:
            check_waiters(e.core, e.ns, e.flag, *e.record, *e.clock);
            break;
        case SyncKind::dcache_clean:
            break;
    }
}

Location FlagChecker::set_location(uint64_t instr) const {
    const TraceEntry* t = host_.traced(instr);
    return t ? location_of(host_, *t) : Location{};
}

void FlagChecker::flag_set(const SyncEvent& e) {
    const Instr& in = *e.in;
    History& f = flags_[{e.core, flag_key(in.event, in.event_id)}];
    ++f.sets;
    if (f.sets >= 2) {
        // The previous set must have been consumed by a wait that happens-before this set.
        const uint64_t need = f.sets - 1;  // waits that must precede
        const bool ok = f.waits.count >= need && e.clock->covers(f.waits.at(need - 1));
        if (!ok)
            host_.violate(
                {ViolationKind::flag_set_twice,
                 Severity::error,
                 fmt::format("{} on {} may execute while the flag is still set by #{}: no WaitFlag<{}>({}) "
                             "consumes the earlier set first (setting a set flag is undefined behaviour)",
                             in.op, host_.core_name(e.core), f.last_set_instr, event_name(in.event),
                             in.event_id),
                 {set_location(f.last_set_instr), location_of(e.core, host_.core_name(e.core), in)},
                 1});
    }
    // The next set checks against the wait matching this one, never against an earlier wait.
    f.waits.drop_before(f.sets - 1);
    f.last_set_instr = in.id;
}

void FlagChecker::counter_increment(const SyncEvent& e) {
    const Instr& set = *e.in;
    const SyncRecord& me = *e.record;
    History& st = counters_[{e.core, e.counter()}];
    ++st.sets;
    const auto max = static_cast<uint64_t>(host_.arch().cross_core_counter_max);
    if (st.sets > max) {
        const uint64_t need = st.sets - max;
        const bool ok = st.waits.count >= need && e.clock->covers(st.waits.at(need - 1));
        if (!ok)
            host_.violate(
                {ViolationKind::counter_overflow,
                 Severity::error,
                 fmt::format("{} can raise cross-core flag {} of {} to {}: the counter holds at most "
                             "{} unconsumed sets (the device hangs); wait on it before setting again",
                             set.op, e.flag, host_.core_name(e.core), st.pending(), max),
                 {location_of(me.core, host_.core_name(me.core), set)},
                 1});
        // The next increment checks against a later wait than this one did.
        st.waits.drop_before(need);
    }
    if (e.ns == 0)
        use_mode(e.core, set.cross_mode, e.flag, *e.clock, me,
                 e.sources.empty() ? std::span<const SyncRecord>(&me, 1) : e.sources);
    st.last_set_instr = set.id;
}

void FlagChecker::cross_set(const SyncEvent& e) {
    const SyncRecord& me = *e.record;
    // Sets of one core to one flag are consumed in the order they take effect, and consecutive cross-core
    // sets may take effect in any order: unless one happens-before the other, which one a wait takes depends
    // on timing.
    auto& last = last_cross_set_[{e.core, {e.in->cross_mode, e.in->cross_flag}}];
    if (last.instr && last.at.agent != me.at.agent && !e.clock->covers(last.at))
        ambiguous(
            fmt::format("{} and {} both set cross-core flag {} (mode {}) with no happens-before between "
                        "them: consecutive cross-core sets may take effect in any order, so which of them a "
                        "CrossCoreWaitFlag consumes (and what the waiter then knows) depends on timing; set "
                        "the flag from one pipe, order the two sets (an intra-core flag from one pipe to "
                        "the other), or give them different flag ids",
                        describe(host_, last), describe(host_, me), e.in->cross_flag, e.in->cross_mode),
            {location_of(host_, last), location_of(host_, me)});
    last = me;
}

void FlagChecker::ambiguous(std::string msg, std::vector<Location> locs) {
    host_.violate(
        {ViolationKind::cross_core_ambiguous, Severity::error,
         std::move(msg) +
             " (this run's other verdicts hold for the order in which it happened to execute them, not for "
             "every schedule)",
         std::move(locs), 1});
}

// Increments of modes 0-2 share a core's counters. Increments of two modes on one counter with no
// happens-before between them: a wait may take either, depending on timing. (A wait's own mode argument is
// not a use: on AtlasA2 it has no effect at all, and elsewhere it only selects the counter namespace.)
void FlagChecker::use_mode(int core, int mode, int flag, const VectorClock& before, const SyncRecord& op,
                           std::span<const SyncRecord> sources) {
    auto& u = mode_use_[{core, flag}];
    if (u.mode != mode) {
        if (u.mode >= 0)
            for (auto& [agent, prev] : u.ops) {
                if (agent == op.at.agent || before.covers(prev.at)) continue;
                ambiguous(
                    fmt::format("cross-core flag {} of {} is used in mode {} by {} and in mode {} by {} with "
                                "no happens-before between them: a flag id reused in another mode needs "
                                "every set and wait of the first mode completed first, otherwise a wait of "
                                "one mode may consume the other mode's increment, depending on timing; use "
                                "a different flag id for each mode, or let the second mode start only after "
                                "a wait that completes the first",
                                flag, host_.core_name(core), u.mode, describe(host_, prev), mode,
                                describe(host_, op)),
                    {location_of(host_, prev), location_of(host_, op)});
                break;
            }
        u.mode = mode;
        u.ops.clear();
    }
    // A round's increment lands only once every member has set: a later use in another mode must follow
    // each member's set, not only the one that completed the round.
    for (const SyncRecord& s : sources) u.ops[s.at.agent] = s;
}

void FlagChecker::check_waiters(int core, int ns, int flag, const SyncRecord& me, const VectorClock& before) {
    auto it = last_cross_wait_.find({core, CounterKey{ns, flag}});
    if (it == last_cross_wait_.end()) return;
    const SyncRecord& last = it->second;
    if (last.at.agent == me.at.agent || before.covers(last.at)) return;
    ambiguous(
        fmt::format("{} and {} both wait on cross-core flag {}{} of {} with no happens-before between them: "
                    "either may take the next increment, so which one proceeds (and what it then knows) "
                    "depends on timing, and the other may wait for an increment that never comes; wait on "
                    "one pipe and pass the order on with an intra-core flag, or use one flag id per waiting "
                    "pipe",
                    describe(host_, last), describe(host_, me), flag, ns == 4 ? " (mode 4)" : "",
                    host_.core_name(core)),
        {location_of(host_, last), location_of(host_, me)});
}

void FlagChecker::on_kernel_end(const KernelEndEvent& e) {
    auto atomic = e.atomic_on.begin();
    for (int c = 0; c < e.cores; ++c) {
        for (auto it = flags_.lower_bound({c, {}}); it != flags_.end() && it->first.first == c; ++it) {
            const auto& [key, f] = *it;
            if (f.pending() == 0) continue;
            const auto ev = static_cast<HardEvent>(key.second.first);
            const int id = key.second.second;
            // A unitFlag release by the last Fixpipe (FIX -> M) needs no Mmad after it.
            if (ev == HardEvent::FIX_M && id == kUnitFlagId) continue;
            host_.violate(
                {ViolationKind::flag_left_set,
                 Severity::error,
                 fmt::format("SetFlag<{}>({}) of {} is still set at kernel end ({} unconsumed set(s)); "
                             "the next kernel on this core would inherit it",
                             event_name(ev), id, host_.core_name(c), f.pending()),
                 {set_location(f.last_set_instr)},
                 1});
        }
        for (auto it = counters_.lower_bound({c, {}}); it != counters_.end() && it->first.first == c; ++it) {
            const auto& [key, st] = *it;
            if (st.pending() == 0) continue;
            const Location l = set_location(st.last_set_instr);
            host_.violate({ViolationKind::counter_left_nonzero,
                           Severity::error,
                           fmt::format("cross-core flag {}{} of {} holds {} unconsumed set(s) at kernel end",
                                       key.second.second, key.second.first == 4 ? " (mode 4)" : "",
                                       host_.core_name(c), st.pending()),
                           {l},
                           1});
        }
        for (; atomic != e.atomic_on.end() && atomic->core == c; ++atomic) {
            const Location l = location_at(0, c, host_.core_name(c), std::nullopt, "SetAtomic", atomic->site);
            host_.violate(
                {ViolationKind::atomic_left_on,
                 Severity::error,
                 fmt::format("{} ends the kernel with GM atomic mode on (set at {}); call SetAtomicNone()",
                             host_.core_name(c), atomic->site.str()),
                 {l},
                 1});
        }
    }
    for (const auto& r : e.open_rounds)
        host_.violate(
            {ViolationKind::counter_left_nonzero,
             Severity::error,
             fmt::format("mode {} cross-core flag {} was set by {} but not by every participant, so it "
                         "never fired",
                         r.mode, r.flag, host_.core_name(r.core)),
             {},
             1});
}

void FlagChecker::live_instrs(std::vector<uint64_t>& out) const {
    for (const auto& [key, f] : flags_) out.push_back(f.last_set_instr);
    for (const auto& [key, st] : counters_) out.push_back(st.last_set_instr);
    for (const auto& [key, d] : last_cross_set_) out.push_back(d.instr);
    for (const auto& [key, d] : last_cross_wait_) out.push_back(d.instr);
    for (const auto& [key, u] : mode_use_)
        for (const auto& [agent, d] : u.ops) out.push_back(d.instr);
}

}  // namespace

std::unique_ptr<Checker> make_flag_checker(CheckerHost& host) {
    return std::make_unique<FlagChecker>(host);
}

}  // namespace evg::hw
