// The machine's report against the explorer's verdict, finding by finding.
//
// Granularity:
// - set twice: the set instructions. The machine must name only sets the explorer can execute on a set flag
//   (or, after a set-twice of the same flag the explorer finds, later sets of that flag: the machine keeps
//   the lost set queued, so the next set after a wait lands on it), and must name one whenever the explorer
//   finds one. A set landing on a set flag is lost on the hardware (the explorer's bit stays 1) while the
//   machine queues it, so what later waits take differs; when a set-twice exists, nothing else is compared.
// - deadlock: whether one exists, and the waits stuck in it (pipe heads, and waits a scalar unit is blocked
//   in). Without set-twice and ambiguous matching the stuck state is the same in every schedule.
// - races: no false alarm is exact (every pair of instructions the machine names races in the explorer); no
// miss
//   is per byte: every byte on which the explorer finds a race is a conflicting byte of some pair the machine
//   names. The machine keeps the last write and the latest read per pipe of each byte, so it reports one
//   witness pair per racing byte, not every racing pair; a per-byte check is what that design promises.
// - flags left (only when nothing deadlocks): the set of flags (core, event, id). Counters left: whether any
//   is left (the machine names a round that never fired without a location).
// - ambiguous cross-core matching (a counter set from unordered pipes, one flag id in two modes at once, two
//   unordered waits on one counter): the machine's cross_core_ambiguous against the explorer's `ambiguous`
//   finding of its happens-before engine; when both name it, nothing else is compared.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "sync_program.hpp"

namespace evg::fuzz {

using explore::FindingKind;
using explore::OpKind;

int op_of_site(const explore::Program& p, const std::string& site) {
    int c = -1, line = 0;
    if (std::sscanf(site.c_str(), "core%d:%d", &c, &line) != 2) return -1;
    if (c < 0 || c >= static_cast<int>(p.cores.size())) return -1;
    if (line < 1 || line > static_cast<int>(p.cores[static_cast<size_t>(c)].size())) return -1;
    return p.op_id(c, line - 1);
}

namespace {

const explore::Op& op_at(const explore::Program& p, int id) {
    auto [c, i] = p.op_at(id);
    return p.cores[static_cast<size_t>(c)][static_cast<size_t>(i)];
}

// Byte ranges (memory, begin, end) on which two ops conflict; ranges, not bytes, so that a comparison costs
// no allocation per byte.
using Spans = std::vector<std::tuple<int, uint32_t, uint32_t>>;
void conflict_spans(const explore::Program& p, int x, int y, Spans& out) {
    auto [cx, ix] = p.op_at(x);
    auto [cy, iy] = p.op_at(y);
    explore::Instr a = explore::instr_of(p, cx, ix), b = explore::instr_of(p, cy, iy);
    for (const auto& u : a.accesses)
        for (const auto& w : b.accesses) {
            if (u.mem != w.mem || (!u.write && !w.write) || (u.atomic && w.atomic)) continue;
            const uint32_t lo = std::max(u.begin, w.begin), hi = std::min(u.end, w.end);
            if (lo < hi) out.emplace_back(u.mem, lo, hi);
        }
}

// The first byte (memory, offset) of `need`, in (memory, offset) order, that no range of `cover` holds.
std::optional<std::pair<int, uint32_t>> first_uncovered(Spans need, const Spans& cover) {
    std::sort(need.begin(), need.end());
    for (const auto& [mem, begin, end] : need) {
        uint32_t k = begin;
        for (bool moved = true; k < end && moved;) {
            moved = false;
            for (const auto& [m, b, e] : cover)
                if (m == mem && b <= k && k < e) {
                    k = e;
                    moved = true;
                }
        }
        if (k < end) return std::make_pair(mem, k);
    }
    return std::nullopt;
}

// Whether op `id` both reads and writes byte x (an in-place vector op).
bool reads_and_writes(const explore::Program& p, int id, std::pair<int, uint32_t> x) {
    auto [c, i] = p.op_at(id);
    bool r = false, w = false;
    for (const auto& a : explore::instr_of(p, c, i).accesses)
        if (a.mem == x.first && a.begin <= x.second && x.second < a.end) (a.write ? w : r) = true;
    return r && w;
}

std::string list(const std::set<int>& s) {
    std::string out;
    for (int i : s) out += fmt::format("{}#{}", out.empty() ? "" : ", ", i);
    return out.empty() ? "none" : out;
}
std::string list(const std::set<std::pair<int, int>>& s) {
    std::string out;
    for (auto [a, b] : s) out += fmt::format("{}(#{}, #{})", out.empty() ? "" : ", ", a, b);
    return out.empty() ? "none" : out;
}
std::string list(const std::set<std::string>& s) {
    std::string out;
    for (const auto& x : s) out += (out.empty() ? "" : ", ") + x;
    return out.empty() ? "none" : out;
}

}  // namespace

std::string compare_verdicts(const explore::Program& p, const hw::Report& machine, const explore::Verdict& e,
                             bool e_ambiguous) {
    std::set<std::pair<int, int>> m_races;
    std::set<int> m_twice, m_stuck;
    std::set<std::string> m_left;
    bool m_deadlock = false, m_counter_left = false, m_ambiguous = false;
    for (const hw::Violation& v : machine.violations) {
        if (v.severity != hw::Severity::error) continue;
        auto loc_op = [&](size_t k) {
            return k < v.locations.size() ? op_of_site(p, v.locations[k].site) : -1;
        };
        switch (v.kind) {
            case hw::ViolationKind::race: {
                int a = loc_op(0), b = loc_op(1);
                if (a < 0 || b < 0) return "the machine's race names no op of the program: " + v.message;
                m_races.insert({std::min(a, b), std::max(a, b)});
                break;
            }
            case hw::ViolationKind::flag_set_twice: {
                int s = v.locations.empty() ? -1 : loc_op(v.locations.size() - 1);
                if (s < 0) return "the machine's set-twice names no op of the program: " + v.message;
                m_twice.insert(s);
                break;
            }
            case hw::ViolationKind::deadlock:
                m_deadlock = true;
                for (const auto& l : v.locations) {
                    int op = op_of_site(p, l.site);
                    if (op < 0) {  // a blocked scalar unit: "<op> (issued at core<c>:<line>)"
                        auto at = l.op.find("(issued at ");
                        if (at != std::string::npos) op = op_of_site(p, l.op.substr(at + 11));
                    }
                    if (op < 0) continue;
                    OpKind k = op_at(p, op).kind;
                    if (k == OpKind::wait_flag || k == OpKind::cross_wait) m_stuck.insert(op);
                }
                break;
            case hw::ViolationKind::flag_left_set: {
                int s = loc_op(0);
                if (s < 0) return "the machine's flag-left names no op of the program: " + v.message;
                auto [c, i] = p.op_at(s);
                const explore::Op& op = op_at(p, s);
                m_left.insert(explore::flag_key(p.topo, c, op.event, op.id));
                (void)i;
                break;
            }
            case hw::ViolationKind::counter_left_nonzero:
                m_counter_left = true;
                break;
            case hw::ViolationKind::cross_core_ambiguous:
                m_ambiguous = true;
                break;
            default:
                return fmt::format("the machine reports {} on a program that is valid by construction: {}",
                                   hw::violation_kind_name(v.kind), v.message);
        }
    }
    std::set<std::pair<int, int>> e_races;
    std::set<int> e_twice, e_stuck;
    std::set<std::string> e_left;
    bool e_counter_left = false;
    for (const auto& f : e.findings) switch (f.kind) {
            case FindingKind::race:
                e_races.insert({f.instrs[0], f.instrs[1]});
                break;
            case FindingKind::set_twice:
                e_twice.insert(f.instrs[0]);
                break;
            case FindingKind::deadlock:
                e_stuck.insert(f.instrs[0]);
                break;
            case FindingKind::flag_left:
                e_left.insert(f.what);
                break;
            case FindingKind::counter_left:
                e_counter_left = true;
                break;
            case FindingKind::ambiguous:
                break;
        }

    // Ambiguous cross-core matching: the machine names the pattern and says its other verdicts hold only for
    // the order it ran; the explorer's happens-before engine names it too. Both must see it, and then nothing
    // else is compared (the explorer's exhaustive verdict holds, the machine's in-order one does not claim
    // to).
    if (m_ambiguous != e_ambiguous)
        return fmt::format("ambiguous cross-core matching: the machine {}; the explorer {}",
                           m_ambiguous ? "reports it" : "does not report it",
                           e_ambiguous ? "finds it" : "does not find it");
    if (m_ambiguous) return {};
    if (!m_twice.empty() || !e_twice.empty()) {
        // A set the machine names after an earlier set-twice of the same flag (core, event, id) that the
        // explorer finds is that set-twice's consequence: the hardware loses a set that lands on a set flag,
        // the machine keeps it queued, so a later wait leaves one set pending and the next set lands on it
        // (regressions/sync_program/set-twice-after-a-lost-set.bin).
        auto follows_a_lost_set = [&](int m) {
            const auto [mc, mi] = p.op_at(m);
            const explore::Op& mo = op_at(p, m);
            for (const int e : e_twice) {
                const auto [ec, ei] = p.op_at(e);
                const explore::Op& eo = op_at(p, e);
                if (ec == mc && ei < mi && eo.event == mo.event && eo.id == mo.id) return true;
            }
            return false;
        };
        bool subset = true;
        for (const int m : m_twice) subset = subset && (e_twice.count(m) || follows_a_lost_set(m));
        if (m_twice.empty() || e_twice.empty() || !subset)
            return fmt::format("set twice: the machine names {}; the explorer can execute {} on a set flag",
                               list(m_twice), list(e_twice));
        return {};
    }
    if (m_deadlock != !e_stuck.empty() || (m_deadlock && m_stuck != e_stuck))
        return fmt::format("deadlock: the machine {} (stuck waits {}); the explorer {} (stuck waits {})",
                           m_deadlock ? "reports one" : "reports none", list(m_stuck),
                           e_stuck.empty() ? "finds none" : "finds one", list(e_stuck));
    for (const auto& r : m_races)
        if (!e_races.count(r))
            return fmt::format(
                "false alarm: the machine reports a race between #{} and #{}; the explorer never "
                "finds both executable (explorer races: {})",
                r.first, r.second, list(e_races));
    Spans m_bytes;
    for (auto [a, b] : m_races) conflict_spans(p, a, b, m_bytes);
    for (auto [a, b] : e_races) {
        Spans bytes;
        conflict_spans(p, a, b, bytes);
        if (const auto uncovered = first_uncovered(bytes, m_bytes)) {
            const std::pair<int, uint32_t> x = *uncovered;
            return fmt::format(
                "{}: the explorer finds #{} and #{} racing on byte {} of {}; no race the machine "
                "reports covers that byte (machine races: {})",
                reads_and_writes(p, a, x) || reads_and_writes(p, b, x) ? "miss after an in-place op" : "miss",
                a, b, x.second, p.mems[static_cast<size_t>(x.first)].name, list(m_races));
        }
    }
    if (!m_deadlock) {
        if (m_left != e_left)
            return fmt::format("flags left: the machine names {}; the explorer {}", list(m_left),
                               list(e_left));
        if (m_counter_left != e_counter_left)
            return fmt::format("counters left: the machine {}; the explorer {}",
                               m_counter_left ? "reports one" : "none",
                               e_counter_left ? "finds one" : "none");
    }
    return {};
}

SyncProgramStats& sync_program_stats() {
    static SyncProgramStats s;
    return s;
}

std::string disagreement_signature(std::string_view what) {
    std::string_view head = what.substr(0, what.find('\n'));
    head = head.substr(0, head.find(':'));
    std::string out = "sync_program: ";
    bool in_number = false;
    for (const char ch : head) {
        const bool digit = ch >= '0' && ch <= '9';
        if (digit && !in_number) out += '#';
        if (!digit) out += ch;
        in_number = digit;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

}  // namespace evg::fuzz
