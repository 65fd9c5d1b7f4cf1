// Engine (b): executes a program under every interleaving its flags allow, with memoised states.
//
// A state: each core's scalar program counter, which ops have executed, every flag bit, every cross-core
// counter, every round's pending sets, and the value of every memory cell. Steps: the scalar unit executes
// the op at its program counter (S-pipe ops and the ops that block it), or a pipe executes one of its issued
// ops that the chip's ordering rules and the flags allow. Issuing an op into a pipe queue changes nothing but
// what may run later, so the scalar unit issues queued ops as soon as it reaches them (this keeps every state
// where a pair of ops is executable, every deadlock and every final state).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <unordered_set>

#include "evg/explore/model.hpp"
#include "keys.hpp"

namespace evg::explore {

namespace {

struct State {
    std::vector<uint8_t> pc;      // per core
    std::vector<uint64_t> done;   // per core: executed ops
    std::vector<uint8_t> bits;    // per flag
    std::vector<uint8_t> counts;  // per counter
    std::vector<uint8_t> rounds;  // per (round, member): sets not yet used by a round
    std::vector<uint32_t> mem;    // per cell
    std::string key() const {
        std::string k;
        auto put = [&](const void* p, size_t n) { k.append(static_cast<const char*>(p), n); };
        put(pc.data(), pc.size());
        put(done.data(), done.size() * 8);
        put(bits.data(), bits.size());
        put(counts.data(), counts.size());
        put(rounds.data(), rounds.size());
        put(mem.data(), mem.size() * 4);
        return k;
    }
};

uint32_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return static_cast<uint32_t>(x);
}

struct Step {
    int core;
    int op;
};

class Semantics {
  public:
    explicit Semantics(const Program& p) : p_(p), topo_(p.topo) {
        validate(p);
        const size_t nc = p.cores.size();
        ins_.resize(nc);
        need_.resize(nc);
        for (size_t c = 0; c < nc; ++c) {
            const int ci = static_cast<int>(c);
            for (size_t i = 0; i < p.cores[c].size(); ++i)
                ins_[c].push_back(instr_of(p, ci, static_cast<int>(i)));
            need_[c].resize(ins_[c].size(), 0);
            for (size_t j = 0; j < ins_[c].size(); ++j) {
                const Instr& b = ins_[c][j];
                uint64_t m = 0;
                if (b.kind == Kind::barrier && b.barrier_pipe == Pipe::ALL) {
                    for (size_t i = 0; i < j; ++i) m |= uint64_t{1} << i;
                } else if (b.pipe != Pipe::S) {
                    bool set_like =
                        b.kind == Kind::set || b.kind == Kind::cross_set || b.kind == Kind::barrier;
                    for (size_t i = 0; i < j; ++i) {
                        const Instr& a = ins_[c][i];
                        if (a.pipe != b.pipe) continue;
                        bool wait_like =
                            a.kind == Kind::wait || a.kind == Kind::cross_wait || a.kind == Kind::barrier;
                        if (pipe_keeps_order(topo_.chip, b.pipe) || set_like || wait_like)
                            m |= uint64_t{1} << i;
                    }
                }
                need_[c][j] = m;
                if (b.kind == Kind::set || b.kind == Kind::wait) flag_index(ci, b.event, b.event_id);
                if (b.kind == Kind::cross_wait) counter_index(wait_counter(ci, b.mode, b.flag));
                if (b.kind == Kind::cross_set) {
                    CrossEffect e = cross_effect(topo_, ci, b.mode, b.flag);
                    for (const auto& t : e.targets) counter_index(t);
                    if (e.round) round_index(e);
                }
            }
        }
        // Cells: every access boundary splits its memory.
        std::vector<std::set<uint32_t>> cuts(p.mems.size());
        for (size_t m = 0; m < p.mems.size(); ++m) cuts[m] = {0, p.mems[m].size};
        for (const auto& core : ins_)
            for (const auto& in : core)
                for (const auto& a : in.accesses) {
                    cuts[static_cast<size_t>(a.mem)].insert(a.begin);
                    cuts[static_cast<size_t>(a.mem)].insert(a.end);
                }
        for (size_t m = 0; m < p.mems.size(); ++m) {
            cell_base_.push_back(static_cast<int>(cell_begin_.size()));
            std::vector<uint32_t> v(cuts[m].begin(), cuts[m].end());
            for (size_t k = 0; k + 1 < v.size(); ++k) {
                cell_begin_.push_back(v[k]);
                cell_mem_.push_back(static_cast<int>(m));
            }
        }
        cell_base_.push_back(static_cast<int>(cell_begin_.size()));
        for (size_t a = 0; a < nc; ++a)
            for (size_t i = 0; i < ins_[a].size(); ++i)
                for (size_t b = 0; b < nc; ++b)
                    for (size_t j = 0; j < ins_[b].size(); ++j) {
                        int x = p.op_id(static_cast<int>(a), static_cast<int>(i));
                        int y = p.op_id(static_cast<int>(b), static_cast<int>(j));
                        if (x >= y) continue;
                        for (const auto& u : ins_[a][i].accesses)
                            for (const auto& w : ins_[b][j].accesses)
                                if (detail::conflict(u, w) && !conflicts_.count({x, y}))
                                    conflicts_[{x, y}] = {u.mem, std::max(u.begin, w.begin),
                                                          std::min(u.end, w.end),
                                                          u.write ? (w.write ? "WAW" : "RAW") : "WAR"};
                    }
    }

    State initial() const {
        State s;
        s.pc.assign(p_.cores.size(), 0);
        s.done.assign(p_.cores.size(), 0);
        s.bits.assign(flags_.size(), 0);
        s.counts.assign(counters_.size(), 0);
        s.rounds.assign(round_slots_, 0);
        for (size_t k = 0; k < cell_begin_.size(); ++k) s.mem.push_back(mix(0x1000 + k));
        return s;
    }

    // Issues every op the scalar units reach that goes to a pipe queue. `on_issue` sees each, in order.
    template <class F>
    void issue(State& s, F&& on_issue) const {
        for (size_t c = 0; c < ins_.size(); ++c)
            while (s.pc[c] < ins_[c].size() && !scalar(c, s.pc[c])) {
                on_issue(static_cast<int>(c), static_cast<int>(s.pc[c]));
                ++s.pc[c];
            }
    }

    bool scalar(size_t c, size_t i) const { return ins_[c][i].pipe == Pipe::S; }

    bool enabled(const State& s, int core, int op) const {
        auto c = static_cast<size_t>(core);
        auto i = static_cast<size_t>(op);
        if ((s.done[c] >> i) & 1) return false;
        if (scalar(c, i) ? s.pc[c] != i : i >= s.pc[c]) return false;
        if ((s.done[c] & need_[c][i]) != need_[c][i]) return false;
        const Instr& in = ins_[c][i];
        if (in.kind == Kind::wait) return s.bits[flag_at(core, in.event, in.event_id)] != 0;
        if (in.kind == Kind::cross_wait)
            return s.counts[counter_at(wait_counter(core, in.mode, in.flag))] != 0;
        return true;
    }

    std::vector<Step> steps(const State& s) const {
        std::vector<Step> out;
        for (size_t c = 0; c < ins_.size(); ++c)
            for (size_t i = 0; i < ins_[c].size(); ++i)
                if (enabled(s, static_cast<int>(c), static_cast<int>(i)))
                    out.push_back({static_cast<int>(c), static_cast<int>(i)});
        return out;
    }

    // Executes one step; findings of the step itself (set twice) go to `out`.
    void apply(State& s, Step st, std::vector<Finding>& out) const {
        auto c = static_cast<size_t>(st.core);
        auto i = static_cast<size_t>(st.op);
        const Instr& in = ins_[c][i];
        int id = p_.op_id(st.core, st.op);
        switch (in.kind) {
            case Kind::plain: {
                uint64_t h = static_cast<uint64_t>(id) * 0x9e3779b97f4a7c15ULL;
                for (const auto& a : in.accesses)
                    if (!a.write)
                        for (int k = cell_of(a.mem, a.begin); k < cell_of(a.mem, a.end); ++k)
                            h = mix(h ^ (static_cast<uint64_t>(s.mem[static_cast<size_t>(k)]) << 20) ^
                                    static_cast<uint64_t>(k));
                for (const auto& a : in.accesses)
                    if (a.write)
                        for (int k = cell_of(a.mem, a.begin); k < cell_of(a.mem, a.end); ++k)
                            s.mem[static_cast<size_t>(k)] = mix(h + static_cast<uint64_t>(k) * 131);
                break;
            }
            case Kind::set: {
                auto& bit = s.bits[flag_at(st.core, in.event, in.event_id)];
                if (bit) {
                    Finding f;
                    f.kind = FindingKind::set_twice;
                    f.instrs = {id};
                    f.what = detail::flag_key(topo_, st.core, in.event, in.event_id);
                    f.message = fmt::format("{} executes while its flag is still set", describe(p_, id));
                    out.push_back(f);
                }
                bit = 1;
                break;
            }
            case Kind::wait:
                s.bits[flag_at(st.core, in.event, in.event_id)] = 0;
                break;
            case Kind::cross_wait:
                --s.counts[counter_at(wait_counter(st.core, in.mode, in.flag))];
                break;
            case Kind::cross_set: {
                CrossEffect e = cross_effect(topo_, st.core, in.mode, in.flag);
                if (e.round) {
                    size_t base = round_at(e);
                    size_t me = static_cast<size_t>(std::find(e.members.begin(), e.members.end(), st.core) -
                                                    e.members.begin());
                    ++s.rounds[base + me];
                    bool full = true;
                    for (size_t m = 0; m < e.members.size(); ++m) full &= s.rounds[base + m] != 0;
                    if (!full) break;
                    for (size_t m = 0; m < e.members.size(); ++m) --s.rounds[base + m];
                }
                for (const auto& t : e.targets) {
                    auto& n = s.counts[counter_at(t)];
                    if (n < 255) ++n;
                }
                break;
            }
            case Kind::barrier:
                break;
        }
        s.done[c] |= uint64_t{1} << i;
        if (scalar(c, i)) ++s.pc[c];
    }

    bool finished(const State& s) const {
        for (size_t c = 0; c < ins_.size(); ++c)
            if (s.pc[c] < ins_[c].size() || s.done[c] != mask(ins_[c].size())) return false;
        return true;
    }

    // Findings of a state where nothing can move.
    void terminal(const State& s, std::vector<Finding>& out) const {
        if (finished(s)) {
            for (size_t k = 0; k < flags_.size(); ++k)
                if (s.bits[k]) {
                    auto [core, e, id] = flags_[k];
                    Finding f;
                    f.kind = FindingKind::flag_left;
                    f.what = detail::flag_key(topo_, core, e, id);
                    f.message = fmt::format("flag {} is still set when every op has finished", f.what);
                    out.push_back(f);
                }
            for (size_t k = 0; k < counters_.size(); ++k)
                if (s.counts[k]) {
                    Finding f;
                    f.kind = FindingKind::counter_left;
                    f.what = detail::counter_key(topo_, counters_[k]);
                    f.message = fmt::format("cross-core counter {} holds {} when every op has finished",
                                            f.what, s.counts[k]);
                    out.push_back(f);
                }
            for (const auto& [key, base] : round_base_) {
                auto [mode, group, flag] = key;
                for (size_t m = 0; m < round_members_.at(key); ++m)
                    if (s.rounds[base + m]) {
                        Finding f;
                        f.kind = FindingKind::counter_left;
                        f.what = detail::round_key(mode, group, flag);
                        f.message = fmt::format(
                            "mode {} cross-core flag {} was set by some participants only: "
                            "the round never fires",
                            mode, flag);
                        out.push_back(f);
                        break;
                    }
            }
            return;
        }
        // Deadlock: every wait that is next in line but cannot pass.
        for (size_t c = 0; c < ins_.size(); ++c)
            for (size_t i = 0; i < ins_[c].size(); ++i) {
                const Instr& in = ins_[c][i];
                if (in.kind != Kind::wait && in.kind != Kind::cross_wait) continue;
                if ((s.done[c] >> i) & 1) continue;
                if (scalar(c, i) ? s.pc[c] != i : i >= s.pc[c]) continue;
                if ((s.done[c] & need_[c][i]) != need_[c][i]) continue;
                Finding f;
                f.kind = FindingKind::deadlock;
                int id = p_.op_id(static_cast<int>(c), static_cast<int>(i));
                f.instrs = {id};
                f.message =
                    fmt::format("deadlock: {} waits forever (nothing else can move)", describe(p_, id));
                out.push_back(f);
            }
    }

    // Every pair of conflicting ops executable in this state.
    void races(const std::vector<Step>& en, std::vector<Finding>& out) const {
        for (size_t a = 0; a < en.size(); ++a)
            for (size_t b = a + 1; b < en.size(); ++b) {
                int x = p_.op_id(en[a].core, en[a].op), y = p_.op_id(en[b].core, en[b].op);
                auto it = conflicts_.find({std::min(x, y), std::max(x, y)});
                // A pair is reported once: the same pair can both execute in many states, and its finding
                // (and message) is the same in each.
                if (it == conflicts_.end() || !raced_.insert(it->first).second) continue;
                Finding f;
                f.kind = FindingKind::race;
                f.instrs = {std::min(x, y), std::max(x, y)};
                f.mem = it->second.mem;
                f.begin = it->second.begin;
                f.end = it->second.end;
                f.message = fmt::format("{} race on {} bytes [{}, {}): {} and {} can both execute",
                                        it->second.kind, p_.mems[static_cast<size_t>(f.mem)].name, f.begin,
                                        f.end, describe(p_, f.instrs[0]), describe(p_, f.instrs[1]));
                out.push_back(f);
            }
    }

    const Instr& instr(int core, int op) const {
        return ins_[static_cast<size_t>(core)][static_cast<size_t>(op)];
    }
    size_t ops(int core) const { return ins_[static_cast<size_t>(core)].size(); }

  private:
    struct ConflictInfo {
        int mem;
        uint32_t begin, end;
        const char* kind;
    };
    const Program& p_;
    const Topology& topo_;
    std::vector<std::vector<Instr>> ins_;
    mutable std::set<std::pair<int, int>> raced_;  // the pairs races() has reported
    std::vector<std::vector<uint64_t>> need_;      // same-core ops that must have executed first (pipe rules)
    std::vector<std::tuple<int, Event, int>> flags_;
    std::map<std::tuple<int, Event, int>, size_t> flag_idx_;
    std::vector<CounterKey> counters_;
    std::map<CounterKey, size_t> counter_idx_;
    std::map<std::tuple<int, int, int>, size_t> round_base_;
    std::map<std::tuple<int, int, int>, size_t> round_members_;
    size_t round_slots_ = 0;
    std::vector<int> cell_base_;
    std::vector<uint32_t> cell_begin_;
    std::vector<int> cell_mem_;
    std::map<std::pair<int, int>, ConflictInfo> conflicts_;

    static uint64_t mask(size_t n) { return n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1; }
    void flag_index(int core, Event e, int id) {
        auto k = std::make_tuple(core, e, id);
        if (flag_idx_.count(k)) return;
        flag_idx_[k] = flags_.size();
        flags_.push_back(k);
    }
    size_t flag_at(int core, Event e, int id) const { return flag_idx_.at({core, e, id}); }
    void counter_index(CounterKey k) {
        if (counter_idx_.count(k)) return;
        counter_idx_[k] = counters_.size();
        counters_.push_back(k);
    }
    size_t counter_at(CounterKey k) const { return counter_idx_.at(k); }
    void round_index(const CrossEffect& e) {
        auto k = std::make_tuple(e.mode, e.group, e.flag);
        if (round_base_.count(k)) return;
        round_base_[k] = round_slots_;
        round_members_[k] = e.members.size();
        round_slots_ += e.members.size();
    }
    size_t round_at(const CrossEffect& e) const { return round_base_.at({e.mode, e.group, e.flag}); }
    // First cell at or after byte `at` of memory m (cells are split at every access boundary).
    int cell_of(int m, uint32_t at) const {
        int lo = cell_base_[static_cast<size_t>(m)], hi = cell_base_[static_cast<size_t>(m) + 1];
        for (int k = lo; k < hi; ++k)
            if (cell_begin_[static_cast<size_t>(k)] >= at) return k;
        return hi;
    }
};

}  // namespace

Verdict explore(const Program& p, Limits limits) {
    Semantics sem(p);
    Verdict v;
    std::vector<Finding> found;
    std::unordered_set<std::string> seen;
    std::vector<State> stack;
    State s0 = sem.initial();
    sem.issue(s0, [](int, int) {});
    seen.insert(s0.key());
    stack.push_back(std::move(s0));
    while (!stack.empty()) {
        State s = std::move(stack.back());
        stack.pop_back();
        ++v.states;
        std::vector<Step> en = sem.steps(s);
        sem.races(en, found);
        if (en.empty()) {
            sem.terminal(s, found);
            if (sem.finished(s)) v.final_memories.insert(s.mem);
            continue;
        }
        for (const Step& st : en) {
            State t = s;
            sem.apply(t, st, found);
            sem.issue(t, [](int, int) {});
            if (seen.size() >= limits.max_states) {
                v.complete = false;
                continue;
            }
            if (seen.insert(t.key()).second) stack.push_back(std::move(t));
        }
        if (found.size() > 4096) detail::normalise(found);
    }
    detail::normalise(found);
    v.findings = std::move(found);
    return v;
}

Run record(const Program& p, uint64_t seed) {
    Semantics sem(p);
    Run run;
    run.topo = p.topo;
    std::mt19937_64 rng(seed);
    std::vector<Finding> ignored;
    State s = sem.initial();
    auto issued = [&](int c, int i) { run.instrs.push_back(instr_of(p, c, i)); };
    sem.issue(s, issued);
    for (;;) {
        std::vector<Step> en = sem.steps(s);
        if (en.empty()) break;
        Step st = en[std::uniform_int_distribution<size_t>(0, en.size() - 1)(rng)];
        if (sem.scalar(static_cast<size_t>(st.core), static_cast<size_t>(st.op))) issued(st.core, st.op);
        sem.apply(s, st, ignored);
        sem.issue(s, issued);
    }
    // A scalar unit stuck on an op has issued it: it is part of the run.
    for (size_t c = 0; c < p.cores.size(); ++c)
        if (s.pc[c] < sem.ops(static_cast<int>(c))) issued(static_cast<int>(c), s.pc[c]);
    return run;
}

}  // namespace evg::explore
