// The sync patterns a program reaches: named features of how it uses flags and cross-core counters, read off
// the program and the explorer's happens-before verdict of one recorded run. A fuzzer keeps an input that
// reaches a new pattern (libFuzzer's extra counters), and sessions and campaigns print which patterns their
// inputs reached and how many of those inputs the two engines disagreed on.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <tuple>

#include "sync_program.hpp"

namespace evg::fuzz {

using explore::CounterKey;
using explore::FindingKind;
using explore::OpKind;

namespace {

std::string bucket(int n, std::initializer_list<int> bounds) {
    int lo = 0;
    for (int b : bounds) {
        if (n < b) return lo + 1 == b ? std::to_string(lo) : fmt::format("{}-{}", lo, b - 1);
        lo = b;
    }
    return fmt::format("{}+", lo);
}

std::string relation(size_t a, size_t b) {
    return a < b ? "fewer" : a == b ? "equal" : "more";
}

std::string modes_text(const std::set<int>& modes) {
    std::string s;
    for (int m : modes) {
        if (!s.empty()) s += '+';
        s += std::to_string(m);
    }
    return s.empty() ? "none" : s;
}

// Why the explorer's happens-before engine leaves a counter or round unresolved, from the reason its finding
// states.
std::string ambiguity_reason(const explore::Finding& f) {
    if (f.what.rfind("round(", 0) == 0) return "round-sets-unordered";
    if (f.message.find("used in modes") != std::string::npos)
        return f.message.find("member sets of the mode-") != std::string::npos ? "modes split-round"
                                                                               : "modes";
    if (f.message.find("unordered waits") != std::string::npos) return "waits-unordered";
    return "increments-unordered";
}

}  // namespace

std::vector<std::string> sync_patterns(const explore::Program& p, const explore::Verdict& decided) {
    std::set<std::string> out;
    const explore::Topology& t = p.topo;
    const std::string_view chip = t.chip == explore::Chip::AtlasA2 ? "A2" : "950";
    out.insert(fmt::format("launch {} {}", chip, t.mix ? "mix" : t.block_dim == 2 ? "aiv2" : "aiv1"));

    // Verdict of the happens-before engine: which kinds of finding occur together.
    std::set<std::string_view> kinds;
    for (const auto& f : decided.findings) kinds.insert(explore::finding_kind_name(f.kind));
    std::string kt;
    for (auto k : kinds) kt += fmt::format("{}{}", kt.empty() ? "" : "+", k);
    out.insert("verdict " + (kt.empty() ? std::string("clean") : kt));

    // Intra-core flags: balance, distance from the k-th set to the k-th wait, ids shared by several events.
    struct FlagUse {
        std::vector<int> sets, waits;  // op indices on the core
    };
    std::map<std::tuple<int, explore::Event, int>, FlagUse> flags;
    std::map<std::pair<int, int>, std::set<explore::Event>> events_of_id;
    for (size_t c = 0; c < p.cores.size(); ++c)
        for (size_t i = 0; i < p.cores[c].size(); ++i) {
            const explore::Op& op = p.cores[c][i];
            if (op.kind != OpKind::set_flag && op.kind != OpKind::wait_flag) continue;
            auto& u = flags[{static_cast<int>(c), op.event, op.id}];
            (op.kind == OpKind::set_flag ? u.sets : u.waits).push_back(static_cast<int>(i));
            events_of_id[{static_cast<int>(c), op.id}].insert(op.event);
        }
    for (const auto& [key, u] : flags) {
        const explore::Event e = std::get<1>(key);
        const bool same_pipe_kind = e.src == e.dst;
        out.insert(fmt::format("flag sets {} waits{}", relation(u.sets.size(), u.waits.size()),
                               same_pipe_kind ? " (one pipe)" : ""));
        out.insert(fmt::format("flag uses {}",
                               bucket(static_cast<int>(u.sets.size() + u.waits.size()), {1, 2, 3, 4, 6})));
        for (size_t k = 0; k < std::min(u.sets.size(), u.waits.size()); ++k) {
            const int d = u.waits[k] - u.sets[k];
            out.insert(d < 0 ? "flag wait before its set"
                             : fmt::format("flag set-wait distance {}", bucket(d - 1, {1, 2, 3, 5})));
        }
    }
    for (const auto& [key, evs] : events_of_id)
        if (evs.size() > 1)
            out.insert(
                fmt::format("event id shared by {} events", bucket(static_cast<int>(evs.size()), {3})));

    if (!t.mix) return {out.begin(), out.end()};

    // Cross-core counters: the modes whose increments reach each, whether and how often it is waited on,
    // from how many pipes it is set and waited, and whether the happens-before engine resolves it.
    struct CounterUse {
        std::set<int> modes;
        size_t incs = 0, waits = 0;
        std::set<std::pair<int, explore::Pipe>> set_pipes;
        std::set<explore::Pipe> wait_pipes;
    };
    std::map<CounterKey, CounterUse> counters;
    struct RoundUse {
        std::map<int, size_t> sets;  // member -> sets
        std::vector<int> members;
        std::vector<CounterKey> targets;
        std::set<std::pair<int, explore::Pipe>> pipes;
    };
    std::map<std::tuple<int, int, int>, RoundUse> rounds;
    std::map<std::pair<int, int>, std::set<int>> modes_of_setter_flag;  // (core, flag id) -> modes it sets
    for (size_t c = 0; c < p.cores.size(); ++c) {
        std::set<int> own_set_flags;
        int last_wait_mode = -1;  // the mode of the core's last cross-core wait so far
        for (size_t i = 0; i < p.cores[c].size(); ++i) {
            const explore::Op& op = p.cores[c][i];
            const int core = static_cast<int>(c);
            if (op.kind == OpKind::cross_wait) {
                CounterKey k = explore::wait_counter(core, op.mode, op.flag);
                counters[k].waits++;
                counters[k].wait_pipes.insert(op.pipe);
                out.insert(fmt::format("cross wait mode {} {} a set of its own on that id", op.mode,
                                       own_set_flags.count(op.flag % 16) ? "after" : "without"));
                last_wait_mode = op.mode;
                continue;
            }
            if (op.kind != OpKind::cross_set) continue;
            // A set issued after a wait passes on what the wait learned: the chains that order one core's
            // increment after other cores' sets.
            out.insert(last_wait_mode < 0
                           ? fmt::format("cross set mode {} before any wait of its core", op.mode)
                           : fmt::format("cross set mode {} after a wait mode {}", op.mode, last_wait_mode));
            own_set_flags.insert(op.flag % 16);
            modes_of_setter_flag[{core, op.flag % 16}].insert(op.mode);
            explore::CrossEffect e = explore::cross_effect(t, core, op.mode, op.flag);
            if (!e.round) {
                for (const auto& k : e.targets) {
                    counters[k].modes.insert(op.mode);
                    counters[k].incs++;
                    counters[k].set_pipes.insert({core, op.pipe});
                }
                continue;
            }
            auto& r = rounds[{e.mode, e.group, e.flag}];
            r.sets[core]++;
            r.members = e.members;
            r.targets = e.targets;
            r.pipes.insert({core, op.pipe});
        }
    }
    for (const auto& [key, r] : rounds) {
        size_t full = SIZE_MAX;
        for (int m : r.members) full = std::min(full, r.sets.count(m) ? r.sets.at(m) : size_t{0});
        out.insert(fmt::format("round mode {} {}", std::get<0>(key), full == 0 ? "never fires" : "fires"));
        for (const auto& k : r.targets) {
            if (full == 0) continue;
            counters[k].modes.insert(std::get<0>(key));
            counters[k].incs += full;
            counters[k].set_pipes.insert(r.pipes.begin(), r.pipes.end());
        }
    }
    for (const auto& [key, modes] : modes_of_setter_flag)
        if (modes.size() > 1) out.insert(fmt::format("one core sets one id in modes {}", modes_text(modes)));

    for (const std::string& shape : decided.shapes) out.insert(shape);

    std::map<std::string, std::string> reason_of;  // counter or round key -> ambiguity reason
    for (const auto* f : decided.of(FindingKind::ambiguous)) {
        reason_of[f->what] = ambiguity_reason(*f);
        out.insert(fmt::format("ambiguous {}", ambiguity_reason(*f)));
    }
    const bool races = decided.has(FindingKind::race);
    for (const auto& [key, u] : counters) {
        const std::string modes = modes_text(u.modes);
        const std::string waited = u.waits == 0 ? "unwaited" : "waited";
        const auto it = reason_of.find(explore::counter_key(t, key));
        const std::string resolved = it == reason_of.end() ? "resolved" : "ambiguous " + it->second;
        out.insert(fmt::format("counter modes {} {}", modes, waited));
        out.insert(fmt::format("counter modes {} increments {} waits", modes, relation(u.incs, u.waits)));
        out.insert(fmt::format("counter modes {} {} {}", modes, waited, resolved));
        if (it != reason_of.end())
            out.insert(fmt::format("counter modes {} {} {} {}", modes, waited, resolved,
                                   races ? "with a race" : "without a race"));
        out.insert(fmt::format("counter set from {} pipes, waited from {}",
                               bucket(static_cast<int>(u.set_pipes.size()), {3}),
                               bucket(static_cast<int>(u.wait_pipes.size()), {2})));
    }
    return {out.begin(), out.end()};
}

}  // namespace evg::fuzz
