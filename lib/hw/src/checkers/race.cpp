// Race checker: every access is checked against the earlier accesses of the same bytes (an interval map
// per memory, race_shadow.hpp); an earlier conflicting access the accessor does not happen-after is a
// race. The message names the pair in issue order and the missing edge: the barrier, the WaitFlag or the
// cross-core flag that would have ordered it, and why the one that ran did not (docs/hardware-model.md
// §13).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

#include "evg/hw/checker.hpp"
#include "evg/hw/memory.hpp"
#include "evg/hw/race_shadow.hpp"

namespace evg::hw {

namespace {

class RaceChecker final : public Checker {
  public:
    explicit RaceChecker(CheckerHost& host) : host_(host) {}
    unsigned events() const override { return kExecute | kSync | kClocks; }

    void on_execute(const ExecuteEvent& e) override;
    void on_sync(const SyncEvent& e) override;
    void live_instrs(std::vector<uint64_t>& out) const override;
    void forget_before(uint64_t oldest) override;

  private:
    CheckerHost& host_;
    // The access history of each memory touched in this launch, by Memory::uid().
    std::unordered_map<uint32_t, RaceShadow> shadows_;
    uint32_t last_uid_ = 0;
    RaceShadow* last_shadow_ = nullptr;
    std::vector<Conflict> conflicts_;  // scratch, reused
    // Executed WaitFlags per (core, pipe slot, HardEvent): (wait, the set it consumed), in execution order.
    std::map<std::tuple<int, int, int>, std::vector<std::pair<uint64_t, uint64_t>>> waits_by_event_;
    // Executed cross-core sets per (setter core, receiving core), in execution order (the last 16).
    std::map<std::pair<int, int>, std::vector<SyncRecord>> cross_links_;

    RaceShadow& shadow(const Memory& m);
    void report(const ExecuteEvent& e, const Access& a, const Conflict& k);
    // Why the wait of event `ev` on the second pipe does not order the pair (empty if no such wait ran).
    std::string explain_same_core(int c, uint64_t id1, const std::string& first, Pipe p2, uint64_t id2,
                                  HardEvent ev) const;
    // Which cross-core flag exists between the two cores but does not order the pair, and which edge is
    // missing.
    std::string explain_cross_core(int c1, Pipe p1, uint64_t id1, bool w1, const std::string& first, int c2,
                                   uint64_t id2, bool w2) const;
};

RaceShadow& RaceChecker::shadow(const Memory& m) {
    if (!last_shadow_ || last_uid_ != m.uid()) {
        last_uid_ = m.uid();
        last_shadow_ = &shadows_[m.uid()];  // node-based: the reference stays valid as the map grows
    }
    return *last_shadow_;
}

void RaceChecker::on_execute(const ExecuteEvent& e) {
    AccessRecord rec{{e.agent, e.in.epoch}, e.in.id, false};
    // Besides the clock: the one earlier instruction of its pipe that the pipe orders this one after by
    // itself (rule R3, mmad_accumulate_ordered).
    const Epoch after{e.agent, e.in.after_epoch};
    auto ordered = [&](const Epoch& x) {
        return e.known.covers(x) ||
               (e.in.after_epoch != 0 && x.agent == after.agent && x.epoch == after.epoch);
    };
    for (const auto& a : e.in.accesses) {
        if (!a.mem || a.begin >= a.end) continue;
        conflicts_.clear();
        rec.atomic = a.atomic;
        shadow(*a.mem).access(a.begin, a.end, a.write, rec, ordered, conflicts_);
        for (const auto& k : conflicts_) report(e, a, k);
    }
}

void RaceChecker::report(const ExecuteEvent& e, const Access& a, const Conflict& k) {
    const TraceEntry* t = host_.traced(k.earlier.instr);
    if (!t) return;
    // Describe the pair in issue order, whatever order the scheduler ran it in: the earlier-issued access is
    // the one that should have been ordered first.
    struct Side {
        uint64_t id;
        int core;
        Pipe pipe;
        std::string op;
        Site site;
        bool write;
        int32_t node;
    };
    Side prior{k.earlier.instr,    t->core, t->pipe, std::string(t->op()), t->site(),
               k.earlier_is_write, t->node};
    Side now{e.in.id, e.core, e.in.pipe, e.in.op, e.in.site, a.write, e.in.node};
    const Side& first = prior.id < now.id ? prior : now;
    const Side& second = prior.id < now.id ? now : prior;
    std::string kind = first.write ? (second.write ? "WAW" : "RAW") : "WAR";
    auto label = [](const Side& s) {
        return fmt::format("{} {} #{}", pipe_name(s.pipe), s.write ? "write" : "read", s.id);
    };
    const std::string& n1 = host_.core_name(first.core);
    const std::string& n2 = host_.core_name(second.core);
    std::string edge;
    if (first.core != second.core) {
        edge = fmt::format("no cross-core flag orders {} of {} before {} of {}", label(first), n1,
                           label(second), n2);
        edge += explain_cross_core(first.core, first.pipe, first.id, first.write, label(first), second.core,
                                   second.id, second.write);
    } else if (first.pipe == second.pipe) {
        edge = fmt::format("no PipeBarrier<PIPE_{}> orders {} before {}", pipe_name(first.pipe), label(first),
                           label(second));
    } else {
        auto ev = event_between(first.pipe, second.pipe);
        if (ev && event_valid_for(host_.core_type(first.core), *ev))
            edge = fmt::format(
                "no WaitFlag<{}> orders {} before {}{}", event_name(*ev), label(first), label(second),
                explain_same_core(first.core, first.id, label(first), second.pipe, second.id, *ev));
        else
            edge = fmt::format("no flag chain orders {} before {}", label(first), label(second));
    }
    auto loc = [&](const Side& s, const std::string& core_name) {
        Location l = location_at(s.id, s.core, core_name, s.pipe, s.op, s.site);
        l.memory = a.mem->name();
        l.begin = k.begin;
        l.end = k.end;
        l.access = s.write ? "write" : "read";
        return l;
    };
    host_.violate(
        {ViolationKind::race,
         Severity::error,
         fmt::format("{} race on {} bytes [{}, {}) between {} ({}{}) and {} ({}{}): {}", kind, a.mem->name(),
                     k.begin, k.end, label(first), first.op, host_.node_suffix(first.node), label(second),
                     second.op, host_.node_suffix(second.node), edge),
         {loc(first, n1), loc(second, n2)},
         1});
}

void RaceChecker::on_sync(const SyncEvent& e) {
    if (e.kind == SyncKind::flag_wait) {
        waits_by_event_[{e.core, pipe_slot(e.in->pipe), static_cast<int>(e.in->event)}].push_back(
            {e.in->id, e.matched});
    } else if (e.kind == SyncKind::cross_set) {
        for (int t : e.targets) {
            auto& v = cross_links_[{e.core, t}];
            if (v.size() >= 16) v.erase(v.begin());
            v.push_back(*e.record);
        }
    }
}

std::string RaceChecker::explain_same_core(int c, uint64_t id1, const std::string& first, Pipe p2,
                                           uint64_t id2, HardEvent ev) const {
    auto it = waits_by_event_.find({c, pipe_slot(p2), static_cast<int>(ev)});
    if (it == waits_by_event_.end()) return {};
    // Waits of one pipe execute in issue order: the list is sorted by wait. The last wait issued before the
    // second access is the one that should have ordered it.
    const auto& v = it->second;
    auto w = std::lower_bound(v.begin(), v.end(), std::make_pair(id2, uint64_t{0}));
    if (w == v.begin()) return {};
    --w;
    auto [wait, set] = *w;
    // Only a wait issued between the two accesses was meant to order them.
    if (wait < id1 || !set || set > id1) return {};
    const TraceEntry* we = host_.traced(wait);
    const TraceEntry* se = host_.traced(set);
    return fmt::format(": {} #{} consumed {} #{}, which was issued before {} (so it does not cover it)",
                       we ? we->op() : std::string_view("the wait"), wait,
                       se ? se->op() : std::string_view("a set"), set, first);
}

std::string RaceChecker::explain_cross_core(int c1, Pipe p1, uint64_t id1, bool w1, const std::string& first,
                                            int c2, uint64_t id2, bool w2) const {
    const std::string& a = host_.core_name(c1);
    const std::string& b = host_.core_name(c2);
    std::string out;
    // A flag from the first core to the second, issued after the first access but on another pipe: the set
    // waits only for its own pipe.
    if (auto it = cross_links_.find({c1, c2}); it != cross_links_.end())
        for (const auto& s : it->second)
            if (s.instr > id1 && s.instr < id2 && s.pipe != p1) {
                out += fmt::format(
                    "; {} #{} of {} reaches {} but is set on {}, so it does not wait for {} (set it "
                    "on PIPE_{}, or order {} before {} with an intra-core flag)",
                    s.op, s.instr, a, b, pipe_name(s.pipe), first, pipe_name(p1), pipe_name(p1),
                    pipe_name(s.pipe));
                break;
            }
    bool reverse = !w1 && w2;  // WAR: the reader must hand the buffer back to the writer
    bool back = cross_links_.count({c2, c1}) && !cross_links_.count({c1, c2});
    if (reverse)
        out += fmt::format(
            "; this is a WAR: the missing edge is a reverse flag from {} (after its read #{}) back to "
            "{} (before its write #{})",
            a, id1, b, id2);
    else
        out +=
            fmt::format("; the missing edge is a flag from {} (after its {} #{}) to {} (before its {} #{})",
                        a, w1 ? "write" : "read", id1, b, w2 ? "write" : "read", id2);
    if (back) out += fmt::format("; the cross-core flags between them go only from {} to {}", b, a);
    return out;
}

void RaceChecker::live_instrs(std::vector<uint64_t>& out) const {
    for (const auto& [uid, s] : shadows_) s.instrs(out);
    for (const auto& [key, v] : waits_by_event_)
        for (const auto& [wait, set] : v) {
            out.push_back(wait);
            out.push_back(set);
        }
    for (const auto& [key, v] : cross_links_)
        for (const auto& d : v) out.push_back(d.instr);
}

// A race found from now on pairs an instruction still to execute with any earlier one, so the later of the
// two (which explain_same_core looks up) is at least `oldest`: per list, the last wait issued before it and
// every later one can still be the last wait before that access; older ones never are.
void RaceChecker::forget_before(uint64_t oldest) {
    for (auto& [key, v] : waits_by_event_) {
        auto w = std::lower_bound(v.begin(), v.end(), std::make_pair(oldest, uint64_t{0}));
        if (w != v.begin()) v.erase(v.begin(), std::prev(w));
    }
}

}  // namespace

std::unique_ptr<Checker> make_race_checker(CheckerHost& host) {
    return std::make_unique<RaceChecker>(host);
}

}  // namespace evg::hw
