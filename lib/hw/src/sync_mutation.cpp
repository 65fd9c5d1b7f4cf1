// Sync mutations: the text form, core short names, and the listing of every mutation point of a run.
#include "evg/hw/sync_mutation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <set>

#include "evg/hw/error.hpp"
#include "evg/hw/instruction.hpp"

namespace evg::hw {

namespace {

struct OpInfo {
    SyncOp op;
    std::string_view name;
    std::string_view fields;  // the fields after core= and n=, in print order
};

// One row per operator: its name and the fields its text form carries (besides core and n).
constexpr OpInfo kOps[] = {
    {SyncOp::drop_set, "drop-set", ""},
    {SyncOp::drop_wait, "drop-wait", ""},
    {SyncOp::drop_pair, "drop-pair", "pair"},
    {SyncOp::dup_set, "dup-set", ""},
    {SyncOp::set_id, "set-id", "id"},
    {SyncOp::wait_id, "wait-id", "id"},
    {SyncOp::set_event, "set-event", "event"},
    {SyncOp::wait_event, "wait-event", "event"},
    {SyncOp::move_wait, "move-wait", "by"},
    {SyncOp::move_set, "move-set", "by at event id"},
    {SyncOp::drop_barrier, "drop-barrier", ""},
    {SyncOp::insert_barrier, "insert-barrier", "pipe"},
    {SyncOp::insert_pair, "insert-pair", "event id"},
    {SyncOp::drop_cross_set, "drop-cross-set", ""},
    {SyncOp::drop_cross_wait, "drop-cross-wait", ""},
    {SyncOp::dup_cross_set, "dup-cross-set", ""},
    {SyncOp::cross_set_flag, "cross-set-flag", "id"},
    {SyncOp::cross_wait_flag, "cross-wait-flag", "id"},
};
static_assert(std::size(kOps) == kSyncOpCount);

const OpInfo& info(SyncOp op) {
    return kOps[static_cast<size_t>(op)];
}

std::vector<std::string_view> words(std::string_view s) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
        size_t j = i;
        while (j < s.size() && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' && s[j] != '\r') ++j;
        if (j > i) out.push_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

std::string expected_form(const OpInfo& o) {
    std::string f = fmt::format("{} core=<AIC<b>|AIV<b>.<s>|AIV<v>> n=<sync index>", o.name);
    for (auto w : words(o.fields)) {
        if (w == "pair") f += " pair=<sync index of the wait>";
        if (w == "id") f += " id=<id>";
        if (w == "event") f += " event=<HardEvent, e.g. MTE2_V>";
        if (w == "by") f += " by=<instructions>";
        if (w == "at") f += " at=<stream position>";
        if (w == "pipe") f += " pipe=<V|M|MTE1|MTE2|MTE3|FIX>";
    }
    return f;
}

template <class T>
bool parse_number(std::string_view v, T& out) {
    if (v.empty()) return false;
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    return ec == std::errc() && p == v.data() + v.size();
}

[[noreturn]] void bad_mutation(std::string_view text, const std::string& why) {
    throw HostError(fmt::format("sync mutation '{}': {}", text, why));
}

bool valid_core_name(std::string_view s) {
    auto digits = [](std::string_view d) {
        return !d.empty() && d.size() <= 5 &&
               std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if (s.substr(0, 3) == "AIC") return digits(s.substr(3));
    if (s.substr(0, 3) != "AIV") return false;
    auto rest = s.substr(3);
    auto dot = rest.find('.');
    if (dot == std::string_view::npos) return digits(rest);
    return digits(rest.substr(0, dot)) && digits(rest.substr(dot + 1));
}

std::optional<HardEvent> event_from_name(std::string_view s) {
    for (int e = 0; e < static_cast<int>(HardEvent::MAX); ++e)
        if (event_name(static_cast<HardEvent>(e)) == s) return static_cast<HardEvent>(e);
    return std::nullopt;
}

std::optional<Pipe> pipe_from_name(std::string_view s) {
    for (Pipe p : {Pipe::S, Pipe::V, Pipe::M, Pipe::MTE1, Pipe::MTE2, Pipe::MTE3, Pipe::FIX})
        if (pipe_name(p) == s) return p;
    return std::nullopt;
}

}  // namespace

std::string_view sync_op_name(SyncOp op) {
    return info(op).name;
}

std::string to_string(const SyncMutation& m) {
    const OpInfo& o = info(m.op);
    std::string s = fmt::format("{} core={} n={}", o.name, m.core, m.n);
    for (auto w : words(o.fields)) {
        if (w == "pair") s += fmt::format(" pair={}", m.pair);
        if (w == "id") s += fmt::format(" id={}", m.id);
        if (w == "event") s += fmt::format(" event={}", event_name(m.event));
        if (w == "by") s += fmt::format(" by={}", m.by);
        if (w == "at") s += fmt::format(" at={}", m.at);
        if (w == "pipe") s += fmt::format(" pipe={}", pipe_name(m.pipe));
    }
    return s;
}

SyncMutation parse_sync_mutation(std::string_view text) {
    auto ws = words(text);
    auto fail = [&](const std::string& why) { bad_mutation(text, why); };
    if (ws.empty()) fail("empty text (expected e.g. 'drop-wait core=AIV0.1 n=7')");
    const OpInfo* o = nullptr;
    for (const auto& x : kOps)
        if (x.name == ws[0]) o = &x;
    if (!o) {
        std::string names;
        for (const auto& x : kOps) names += fmt::format("{}{}", names.empty() ? "" : ", ", x.name);
        fail(fmt::format("unknown operator '{}' (expected one of {})", ws[0], names));
    }
    SyncMutation m;
    m.op = o->op;
    std::string form = expected_form(*o);
    std::vector<std::string_view> want = {"core", "n"};
    for (auto w : words(o->fields)) want.push_back(w);
    std::set<std::string_view> seen;
    for (size_t i = 1; i < ws.size(); ++i) {
        auto w = ws[i];
        auto eq = w.find('=');
        auto key = w.substr(0, eq);
        if (eq == std::string_view::npos || std::find(want.begin(), want.end(), key) == want.end())
            fail(fmt::format("unexpected word '{}' (expected form '{}')", w, form));
        if (!seen.insert(key).second)
            fail(fmt::format("'{}' is given twice (expected form '{}')", key, form));
        auto v = w.substr(eq + 1);
        auto bad = [&](std::string_view what) {
            fail(fmt::format("bad value in '{}': {} (expected form '{}')", w, what, form));
        };
        if (key == "core") {
            if (!valid_core_name(v)) bad("a core is named AIC<b>, AIV<b>.<s> or AIV<v>");
            m.core = std::string(v);
        } else if (key == "n") {
            if (!parse_number(v, m.n) || m.n < 0) bad("a sync index >= 0");
        } else if (key == "pair") {
            if (!parse_number(v, m.pair) || m.pair < 0) bad("a sync index >= 0");
        } else if (key == "id") {
            if (!parse_number(v, m.id) || m.id < 0 || m.id > 31) bad("an id in 0..31");
        } else if (key == "by") {
            if (!parse_number(v, m.by) || m.by < 1) bad("a distance >= 1");
        } else if (key == "at") {
            if (!parse_number(v, m.at) || m.at < 1) bad("a stream position >= 1");
        } else if (key == "event") {
            auto e = event_from_name(v);
            if (!e) bad("not a HardEvent name");
            m.event = *e;
        } else if (key == "pipe") {
            auto p = pipe_from_name(v);
            if (!p || *p == Pipe::S) bad("a pipe among V, M, MTE1, MTE2, MTE3, FIX");
            m.pipe = *p;
        }
    }
    for (auto k : want)
        if (!seen.count(k)) fail(fmt::format("'{}=' is missing (expected form '{}')", k, form));
    return m;
}

std::vector<SyncMutation> parse_sync_mutations(std::string_view text) {
    std::vector<SyncMutation> out;
    size_t i = 0;
    while (i <= text.size()) {
        size_t j = text.find(';', i);
        if (j == std::string_view::npos) j = text.size();
        auto part = text.substr(i, j - i);
        if (!words(part).empty()) out.push_back(parse_sync_mutation(part));
        i = j + 1;
    }
    return out;
}

std::string to_string(const std::vector<SyncMutation>& plan) {
    std::string s;
    for (const auto& m : plan) s += (s.empty() ? "" : "; ") + to_string(m);
    return s;
}

std::string core_name(CoreType type, int block, int sub, int sub_num) {
    if (type == CoreType::AIC) return fmt::format("AIC {}", block);
    const int vid = block * sub_num + sub;
    return sub_num > 1 ? fmt::format("AIV {} (block {}, sub {})", vid, block, sub)
                       : fmt::format("AIV {}", vid);
}

std::string core_name(KernelType type, int block_dim, int core_index) {
    const int aics = aic_count(type, block_dim);
    if (core_index < aics) return core_name(CoreType::AIC, core_index, 0, 1);
    const int v = core_index - aics;
    const int sub_num = type == KernelType::mix_aic_1_2 ? 2 : 1;
    return core_name(CoreType::AIV, v / sub_num, v % sub_num, sub_num);
}

std::string core_short_name(KernelType type, int block_dim, int core_index) {
    int aics = aic_count(type, block_dim);
    if (core_index < aics) return fmt::format("AIC{}", core_index);
    int v = core_index - aics;
    if (type == KernelType::mix_aic_1_2) return fmt::format("AIV{}.{}", v / 2, v % 2);
    return fmt::format("AIV{}", v);
}

// ---------------------------------------------------------------------------------------------------------------
// Mutation points

namespace {

bool is_sync(InstrKind k) {
    return k != InstrKind::plain;
}

// Another event for a set (same source pipe) or a wait (same destination pipe), valid on the core.
std::vector<HardEvent> other_events(const ArchSpec& a, CoreType t, HardEvent e, bool same_src) {
    std::vector<HardEvent> out;
    auto ok = [&](HardEvent x) {
        return x != e && event_valid_for(t, x) && core_owns_pipe(a, t, event_src(x)) &&
               core_owns_pipe(a, t, event_dst(x));
    };
    if (auto flip = event_between(event_dst(e), event_src(e)); flip && ok(*flip)) out.push_back(*flip);
    for (int i = 0; i < static_cast<int>(HardEvent::MAX); ++i) {
        auto x = static_cast<HardEvent>(i);
        if (!ok(x) || (!out.empty() && x == out.front())) continue;
        if (same_src ? event_src(x) == event_src(e) : event_dst(x) == event_dst(e)) {
            out.push_back(x);
            break;
        }
    }
    return out;
}

}  // namespace

std::vector<SyncMutation> mutation_points(const Trace& trace, ArchId arch, KernelType type, int block_dim,
                                          const std::vector<int>& move_by) {
    const ArchSpec& a = arch_spec(arch);
    int aics = aic_count(type, block_dim);
    // Per core, its sync calls in sync-index order; ids each core uses per event; cross flags of the run.
    std::map<int, std::vector<const TraceEntry*>> syncs;
    std::map<std::pair<int, int>, std::set<int>> ids_used;  // (core, event) -> ids
    std::set<int> cross_used;
    bool any_matched = false;
    for (const auto& t : trace) {
        if (!is_sync(t.kind) || t.sync_index < 0) continue;
        syncs[t.core].push_back(&t);
        if (t.kind == InstrKind::set_flag || t.kind == InstrKind::wait_flag)
            ids_used[{t.core, static_cast<int>(t.event)}].insert(t.event_id);
        if (t.kind == InstrKind::cross_set || t.kind == InstrKind::cross_wait)
            cross_used.insert(t.cross_flag);
        any_matched |= t.matched != 0;
    }
    for (auto& [core, v] : syncs)
        std::stable_sort(v.begin(), v.end(), [](const TraceEntry* x, const TraceEntry* y) {
            return x->sync_index < y->sync_index;
        });

    // drop_pair: the wait that consumed each set. With TraceEntry::matched filled by the scheduler, that is
    // exact; without it (matched 0 everywhere), the k-th wait of an (event, id) on a core pairs with its k-th
    // set, which is what an in-order run consumes.
    std::map<uint64_t, int> pair_of_set;  // set instr id -> sync index of its wait
    std::map<uint64_t, const TraceEntry*> by_id;
    for (const auto& [core, v] : syncs)
        for (const TraceEntry* t : v) by_id[t->id] = t;
    if (any_matched) {
        for (const auto& [id, t] : by_id)
            if (t->kind == InstrKind::wait_flag && t->matched) pair_of_set[t->matched] = t->sync_index;
    } else {
        for (const auto& [core, v] : syncs) {
            std::map<std::pair<int, int>, std::vector<const TraceEntry*>> sets, waits;
            for (const TraceEntry* t : v) {
                auto key = std::make_pair(static_cast<int>(t->event), t->event_id);
                if (t->kind == InstrKind::set_flag) sets[key].push_back(t);
                if (t->kind == InstrKind::wait_flag) waits[key].push_back(t);
            }
            for (auto& [key, s] : sets) {
                auto& w = waits[key];
                for (size_t k = 0; k < s.size() && k < w.size(); ++k)
                    pair_of_set[s[k]->id] = w[k]->sync_index;
            }
        }
    }

    std::vector<SyncMutation> out;
    for (const auto& [core_key, v] : syncs) {
        const int core = core_key;  // a plain variable: lambdas below capture it
        CoreType ct = core < aics ? CoreType::AIC : CoreType::AIV;
        std::string name = core_short_name(type, block_dim, core);
        auto unused_id = [&](HardEvent e, int avoid) {
            const auto& used = ids_used[{core, static_cast<int>(e)}];
            for (int id = 0; id <= a.max_user_event_id; ++id)
                if (!used.count(id) && id != avoid) return id;
            return -1;
        };
        auto unused_cross = [&](int avoid) {
            for (int f = 0; f <= 10; ++f)
                if (!cross_used.count(f) && f != avoid) return f;
            return -1;
        };
        // The pair inserted before each call: the first event of the core's pool whose pipes it owns.
        std::optional<HardEvent> pair_event;
        for (HardEvent e : {HardEvent::MTE2_V, HardEvent::V_MTE3, HardEvent::MTE1_M, HardEvent::MTE2_MTE1})
            if (event_valid_for(ct, e) && core_owns_pipe(a, ct, event_src(e)) &&
                core_owns_pipe(a, ct, event_dst(e))) {
                pair_event = e;
                break;
            }
        std::vector<Pipe> barrier_pipes =
            ct == CoreType::AIV ? std::vector<Pipe>{Pipe::V} : std::vector<Pipe>{Pipe::M, Pipe::MTE1};

        for (const TraceEntry* t : v) {
            SyncMutation base;
            base.core = name;
            base.n = t->sync_index;
            auto add = [&](SyncOp op, auto&& fill) {
                SyncMutation m = base;
                m.op = op;
                fill(m);
                out.push_back(m);
            };
            auto none = [](SyncMutation&) {};
            for (Pipe p : barrier_pipes) add(SyncOp::insert_barrier, [&](SyncMutation& m) { m.pipe = p; });
            if (pair_event)
                if (int id = unused_id(*pair_event, -1); id >= 0)
                    add(SyncOp::insert_pair, [&](SyncMutation& m) {
                        m.event = *pair_event;
                        m.id = id;
                    });
            switch (t->kind) {
                case InstrKind::set_flag:
                case InstrKind::wait_flag: {
                    bool set = t->kind == InstrKind::set_flag;
                    if (set) {
                        add(SyncOp::drop_set, none);
                        if (auto it = pair_of_set.find(t->id); it != pair_of_set.end())
                            add(SyncOp::drop_pair, [&](SyncMutation& m) { m.pair = it->second; });
                        add(SyncOp::dup_set, none);
                    } else {
                        add(SyncOp::drop_wait, none);
                    }
                    std::vector<int> ids;
                    if ((t->event_id ^ 1) <= a.max_event_id) ids.push_back(t->event_id ^ 1);
                    if (int u = unused_id(t->event, t->event_id); u >= 0 && u != (t->event_id ^ 1))
                        ids.push_back(u);
                    for (int id : ids)
                        add(set ? SyncOp::set_id : SyncOp::wait_id, [&](SyncMutation& m) { m.id = id; });
                    for (HardEvent e : other_events(a, ct, t->event, set))
                        add(set ? SyncOp::set_event : SyncOp::wait_event,
                            [&](SyncMutation& m) { m.event = e; });
                    for (int by : move_by) {
                        if (by < 1) continue;
                        if (set) {
                            if (t->stream <= static_cast<uint32_t>(by)) continue;
                            add(SyncOp::move_set, [&](SyncMutation& m) {
                                m.by = by;
                                m.at = t->stream - static_cast<uint32_t>(by);
                                m.event = t->event;
                                m.id = t->event_id;
                            });
                        } else {
                            add(SyncOp::move_wait, [&](SyncMutation& m) { m.by = by; });
                        }
                    }
                    break;
                }
                case InstrKind::barrier:
                    add(SyncOp::drop_barrier, none);
                    break;
                case InstrKind::cross_set:
                    add(SyncOp::drop_cross_set, none);
                    add(SyncOp::dup_cross_set, none);
                    if (int f = unused_cross(t->cross_flag); f >= 0)
                        add(SyncOp::cross_set_flag, [&](SyncMutation& m) { m.id = f; });
                    break;
                case InstrKind::cross_wait:
                    add(SyncOp::drop_cross_wait, none);
                    if (int f = unused_cross(t->cross_flag); f >= 0)
                        add(SyncOp::cross_wait_flag, [&](SyncMutation& m) { m.id = f; });
                    break;
                case InstrKind::plain:
                    break;
            }
        }
    }
    return out;
}

}  // namespace evg::hw
