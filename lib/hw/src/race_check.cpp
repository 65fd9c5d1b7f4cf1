// Machine, race checking: happens-before between the accesses of two instructions, and why a missing edge is
// missing (docs/hardware-model.md §13).
#include "evg/hw/machine.hpp"

#include <fmt/format.h>

#include "evg/hw/race_shadow.hpp"

namespace evg::hw {

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
                int32_t node;
            };
            Side prior{k.earlier.instr,    e->core, e->pipe, std::string(e->op()), e->site().str(),
                       k.earlier_is_write, e->node};
            Side now{in.id, c.index(), in.pipe, in.op, in.site.str(), a.write, in.node};
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
            violate(
                {ViolationKind::race,
                 Severity::error,
                 fmt::format("{} race on {} bytes [{}, {}) between {} ({}{}) and {} ({}{}): {}", kind,
                             a.mem->name(), k.begin, k.end, label(first), first.op, node_suffix(first.node),
                             label(second), second.op, node_suffix(second.node), edge),
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
                       we ? we->op() : std::string_view("the wait"), wait,
                       se ? se->op() : std::string_view("a set"), set, first);
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

}  // namespace evg::hw
