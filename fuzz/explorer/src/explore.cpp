// Engine (b): executes a program under every interleaving its flags allow, with memoised states.
//
// A state: each core's scalar program counter, which ops have executed, every flag bit, every cross-core
// counter, every round's pending sets, and the value of every memory cell. Steps: the scalar unit executes
// the op at its program counter (S-pipe ops and the ops that block it), or a pipe executes one of its issued
// ops that the chip's ordering rules and the flags allow. Issuing an op into a pipe queue changes nothing but
// what may run later, so the scalar unit issues queued ops as soon as it reaches them (this keeps every state
// where a pair of ops is executable, every deadlock and every final state).
//
// A state is a fixed-size run of bytes (its layout is the program's, `Layout`), so that exploring allocates
// nothing per state: the visited states live one after the other in one arena, the visited set is an
// open-addressing table of their indices (compared byte for byte: a hash collision never merges two states),
// and the depth-first stack holds indices. Everything a step needs (flag slots, counter slots, a cross-core
// set's targets, the cells an access covers, which pairs conflict) is computed once per program.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>

#include "evg/explore/model.hpp"
#include "keys.hpp"

namespace evg::explore {

namespace {

uint32_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return static_cast<uint32_t>(x);
}

// Where each part of a state lies in its bytes. Multi-byte fields are read and written with memcpy, so the
// bytes need no alignment.
struct Layout {
    size_t cores = 0;
    size_t done = 0;    // per core: executed ops, 8 bytes
    size_t mem = 0;     // per cell: its value, 4 bytes
    size_t pc = 0;      // per core, 1 byte
    size_t bits = 0;    // per flag, 1 byte
    size_t counts = 0;  // per counter, 1 byte
    size_t rounds = 0;  // per (round, member): sets not yet used by a round, 1 byte
    size_t size = 0;
};

struct Step {
    int core;
    int op;
};

// A state: a view of `Layout::size` bytes.
class StateRef {
  public:
    StateRef(uint8_t* b, const Layout& l) : b_(b), l_(&l) {}
    uint64_t done(size_t c) const {
        uint64_t v;
        std::memcpy(&v, b_ + l_->done + 8 * c, 8);
        return v;
    }
    void set_done(size_t c, uint64_t v) { std::memcpy(b_ + l_->done + 8 * c, &v, 8); }
    uint32_t cell(size_t k) const {
        uint32_t v;
        std::memcpy(&v, b_ + l_->mem + 4 * k, 4);
        return v;
    }
    void set_cell(size_t k, uint32_t v) { std::memcpy(b_ + l_->mem + 4 * k, &v, 4); }
    uint8_t& pc(size_t c) { return b_[l_->pc + c]; }
    uint8_t pc(size_t c) const { return b_[l_->pc + c]; }
    uint8_t& bit(size_t k) { return b_[l_->bits + k]; }
    uint8_t bit(size_t k) const { return b_[l_->bits + k]; }
    uint8_t& count(size_t k) { return b_[l_->counts + k]; }
    uint8_t count(size_t k) const { return b_[l_->counts + k]; }
    uint8_t& round(size_t k) { return b_[l_->rounds + k]; }
    uint8_t round(size_t k) const { return b_[l_->rounds + k]; }
    std::vector<uint32_t> cells() const {
        std::vector<uint32_t> v((l_->pc - l_->mem) / 4);
        for (size_t k = 0; k < v.size(); ++k) v[k] = cell(k);
        return v;
    }

  private:
    uint8_t* b_;
    const Layout* l_;
};

// A scratch state: owns its bytes.
struct Scratch {
    explicit Scratch(const Layout& l) : bytes(l.size), ref(bytes.data(), l) {}
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
    void assign(const uint8_t* from) { std::memcpy(bytes.data(), from, bytes.size()); }
    std::vector<uint8_t> bytes;
    StateRef ref;
};

// What one op does, precomputed from the program.
struct Effect {
    size_t slot = 0;  // set/wait: flag; cross_wait: counter
    // cross_set: the round's first slot and this core's member index, or none; the target counters.
    bool round = false;
    size_t round_base = 0, member = 0, members = 0;
    std::vector<size_t> targets;
    // plain: the cells each access covers, reads then writes.
    std::vector<std::pair<int, int>> reads, writes;
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
        // Each op's effect.
        effects_.resize(nc);
        for (size_t c = 0; c < nc; ++c)
            for (const Instr& in : ins_[c]) {
                const int ci = static_cast<int>(c);
                Effect fx;
                if (in.kind == Kind::set || in.kind == Kind::wait)
                    fx.slot = flag_at(ci, in.event, in.event_id);
                if (in.kind == Kind::cross_wait) fx.slot = counter_at(wait_counter(ci, in.mode, in.flag));
                if (in.kind == Kind::cross_set) {
                    CrossEffect e = cross_effect(topo_, ci, in.mode, in.flag);
                    fx.round = e.round;
                    if (e.round) {
                        fx.round_base = round_at(e);
                        fx.member = static_cast<size_t>(std::find(e.members.begin(), e.members.end(), ci) -
                                                        e.members.begin());
                        fx.members = e.members.size();
                    }
                    for (const auto& t : e.targets) fx.targets.push_back(counter_at(t));
                }
                for (const auto& a : in.accesses)
                    (a.write ? fx.writes : fx.reads)
                        .emplace_back(cell_of(a.mem, a.begin), cell_of(a.mem, a.end));
                effects_[c].push_back(std::move(fx));
            }
        // Conflicting pairs, by op id.
        n_ops_ = static_cast<size_t>(p.op_count());
        for (size_t c = 0; c < nc; ++c) first_id_.push_back(p.op_id(static_cast<int>(c), 0));
        conflict_of_.assign(n_ops_ * n_ops_, -1);
        raced_.assign(n_ops_ * n_ops_, 0);
        reported_.assign(n_ops_, 0);
        for (size_t a = 0; a < nc; ++a)
            for (size_t i = 0; i < ins_[a].size(); ++i)
                for (size_t b = 0; b < nc; ++b)
                    for (size_t j = 0; j < ins_[b].size(); ++j) {
                        int x = p.op_id(static_cast<int>(a), static_cast<int>(i));
                        int y = p.op_id(static_cast<int>(b), static_cast<int>(j));
                        if (x >= y) continue;
                        int& slot = conflict_of_[static_cast<size_t>(x) * n_ops_ + static_cast<size_t>(y)];
                        for (const auto& u : ins_[a][i].accesses)
                            for (const auto& w : ins_[b][j].accesses)
                                if (detail::conflict(u, w) && slot < 0) {
                                    slot = static_cast<int>(conflicts_.size());
                                    conflicts_.push_back({u.mem, std::max(u.begin, w.begin),
                                                          std::min(u.end, w.end),
                                                          u.write ? (w.write ? "WAW" : "RAW") : "WAR"});
                                }
                    }
        // The layout of a state.
        l_.cores = nc;
        l_.done = 0;
        l_.mem = 8 * nc;
        l_.pc = l_.mem + 4 * cell_begin_.size();
        l_.bits = l_.pc + nc;
        l_.counts = l_.bits + flags_.size();
        l_.rounds = l_.counts + counters_.size();
        l_.size = l_.rounds + round_slots_;
    }

    const Layout& layout() const { return l_; }

    void initial(StateRef s) const {
        for (size_t c = 0; c < l_.cores; ++c) {
            s.pc(c) = 0;
            s.set_done(c, 0);
        }
        for (size_t k = 0; k < flags_.size(); ++k) s.bit(k) = 0;
        for (size_t k = 0; k < counters_.size(); ++k) s.count(k) = 0;
        for (size_t k = 0; k < round_slots_; ++k) s.round(k) = 0;
        for (size_t k = 0; k < cell_begin_.size(); ++k) s.set_cell(k, mix(0x1000 + k));
    }

    // Issues every op the scalar units reach that goes to a pipe queue. `on_issue` sees each, in order.
    template <class F>
    void issue(StateRef s, F&& on_issue) const {
        for (size_t c = 0; c < ins_.size(); ++c)
            while (s.pc(c) < ins_[c].size() && !scalar(c, s.pc(c))) {
                on_issue(static_cast<int>(c), static_cast<int>(s.pc(c)));
                ++s.pc(c);
            }
    }

    bool scalar(size_t c, size_t i) const { return ins_[c][i].pipe == Pipe::S; }

    bool enabled(const StateRef& s, size_t c, size_t i) const {
        const uint64_t done = s.done(c);
        if ((done >> i) & 1) return false;
        if (scalar(c, i) ? s.pc(c) != i : i >= s.pc(c)) return false;
        if ((done & need_[c][i]) != need_[c][i]) return false;
        const Instr& in = ins_[c][i];
        if (in.kind == Kind::wait) return s.bit(effects_[c][i].slot) != 0;
        if (in.kind == Kind::cross_wait) return s.count(effects_[c][i].slot) != 0;
        return true;
    }

    void steps(const StateRef& s, std::vector<Step>& out) const {
        out.clear();
        for (size_t c = 0; c < ins_.size(); ++c)
            for (size_t i = 0; i < ins_[c].size(); ++i)
                if (enabled(s, c, i)) out.push_back({static_cast<int>(c), static_cast<int>(i)});
    }

    // Where a plain op about to execute reads its bytes from, per read access and cell, into `out`; then its
    // writes land in `seen` (per cell: the last non-atomic write and the atomic writes after it, op ids).
    void observe(Step st, std::vector<std::vector<int>>& seen, std::vector<ReadFrom>& out) const {
        const Instr& in = ins_[static_cast<size_t>(st.core)][static_cast<size_t>(st.op)];
        if (in.kind != Kind::plain) return;
        seen.resize(cell_begin_.size());
        const int id = id_of(st.core, st.op);
        for (size_t ai = 0; ai < in.accesses.size(); ++ai) {
            const Access& a = in.accesses[ai];
            if (a.write) continue;
            for (int k = cell_of(a.mem, a.begin); k < cell_of(a.mem, a.end); ++k)
                out.push_back({id, static_cast<int>(ai), cell_begin_[static_cast<size_t>(k)], cell_end(k),
                               seen[static_cast<size_t>(k)]});
        }
        for (const Access& a : in.accesses) {
            if (!a.write) continue;
            for (int k = cell_of(a.mem, a.begin); k < cell_of(a.mem, a.end); ++k) {
                std::vector<int>& w = seen[static_cast<size_t>(k)];
                if (!a.atomic) w.clear();
                if (std::find(w.begin(), w.end(), id) == w.end())
                    w.insert(std::upper_bound(w.begin(), w.end(), id), id);
            }
        }
    }

    // Executes one step; findings of the step itself (set twice) go to `out`, once per op.
    void apply(StateRef s, Step st, std::vector<Finding>& out) const {
        auto c = static_cast<size_t>(st.core);
        auto i = static_cast<size_t>(st.op);
        const Instr& in = ins_[c][i];
        const Effect& fx = effects_[c][i];
        int id = id_of(st.core, st.op);
        switch (in.kind) {
            case Kind::plain: {
                uint64_t h = static_cast<uint64_t>(id) * 0x9e3779b97f4a7c15ULL;
                for (const auto& [k0, k1] : fx.reads)
                    for (int k = k0; k < k1; ++k)
                        h = mix(h ^ (static_cast<uint64_t>(s.cell(static_cast<size_t>(k))) << 20) ^
                                static_cast<uint64_t>(k));
                for (const auto& [k0, k1] : fx.writes)
                    for (int k = k0; k < k1; ++k)
                        s.set_cell(static_cast<size_t>(k), mix(h + static_cast<uint64_t>(k) * 131));
                break;
            }
            case Kind::set: {
                auto& bit = s.bit(fx.slot);
                if (bit && report_once(kSetTwice, static_cast<size_t>(id))) {
                    Finding f;
                    f.kind = FindingKind::set_twice;
                    // A vector moved in, not assigned from a braced list: GCC 12 warns -Wnonnull, falsely, on
                    // its clone of vector::assign when the explorer's sources are compiled as one unit
                    // (EVG_UNITY_BUILD).
                    f.instrs = std::vector<int>{id};
                    f.what = detail::flag_key(topo_, st.core, in.event, in.event_id);
                    f.message = fmt::format("{} executes while its flag is still set", describe(p_, id));
                    out.push_back(f);
                }
                bit = 1;
                break;
            }
            case Kind::wait:
                s.bit(fx.slot) = 0;
                break;
            case Kind::cross_wait:
                --s.count(fx.slot);
                break;
            case Kind::cross_set: {
                if (fx.round) {
                    ++s.round(fx.round_base + fx.member);
                    bool full = true;
                    for (size_t m = 0; m < fx.members; ++m) full &= s.round(fx.round_base + m) != 0;
                    if (!full) break;
                    for (size_t m = 0; m < fx.members; ++m) --s.round(fx.round_base + m);
                }
                for (size_t t : fx.targets) {
                    auto& n = s.count(t);
                    if (n < 255) ++n;
                }
                break;
            }
            case Kind::barrier:
                break;
        }
        s.set_done(c, s.done(c) | uint64_t{1} << i);
        if (scalar(c, i)) ++s.pc(c);
    }

    bool finished(const StateRef& s) const {
        for (size_t c = 0; c < ins_.size(); ++c)
            if (s.pc(c) < ins_[c].size() || s.done(c) != mask(ins_[c].size())) return false;
        return true;
    }

    // Findings of a state where nothing can move (each finding once per exploration: its identity and
    // message are the same in every state that has it).
    void terminal(const StateRef& s, std::vector<Finding>& out) const {
        if (finished(s)) {
            for (size_t k = 0; k < flags_.size(); ++k)
                if (s.bit(k) && report_once(kFlagLeft, k)) {
                    auto [core, e, id] = flags_[k];
                    Finding f;
                    f.kind = FindingKind::flag_left;
                    f.what = detail::flag_key(topo_, core, e, id);
                    f.message = fmt::format("flag {} is still set when every op has finished", f.what);
                    out.push_back(f);
                }
            // A counter left at two values in two states is one finding: the first state's message names it.
            for (size_t k = 0; k < counters_.size(); ++k)
                if (s.count(k) && report_once(kCounterLeft, k)) {
                    Finding f;
                    f.kind = FindingKind::counter_left;
                    f.what = detail::counter_key(topo_, counters_[k]);
                    f.message = fmt::format("cross-core counter {} holds {} when every op has finished",
                                            f.what, s.count(k));
                    out.push_back(f);
                }
            for (const auto& [key, base] : round_base_) {
                auto [mode, group, flag] = key;
                for (size_t m = 0; m < round_members_.at(key); ++m)
                    if (s.round(base + m)) {
                        if (!report_once(kRoundLeft, base)) break;
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
                if ((s.done(c) >> i) & 1) continue;
                if (scalar(c, i) ? s.pc(c) != i : i >= s.pc(c)) continue;
                if ((s.done(c) & need_[c][i]) != need_[c][i]) continue;
                int id = p_.op_id(static_cast<int>(c), static_cast<int>(i));
                if (!report_once(kDeadlock, static_cast<size_t>(id))) continue;
                Finding f;
                f.kind = FindingKind::deadlock;
                f.instrs = std::vector<int>{id};
                f.message =
                    fmt::format("deadlock: {} waits forever (nothing else can move)", describe(p_, id));
                out.push_back(f);
            }
    }

    // Every pair of conflicting ops executable in this state.
    void races(const std::vector<Step>& en, std::vector<Finding>& out) const {
        for (size_t a = 0; a < en.size(); ++a)
            for (size_t b = a + 1; b < en.size(); ++b) {
                int x = id_of(en[a].core, en[a].op), y = id_of(en[b].core, en[b].op);
                const size_t pair =
                    static_cast<size_t>(std::min(x, y)) * n_ops_ + static_cast<size_t>(std::max(x, y));
                const int k = conflict_of_[pair];
                // A pair is reported once: the same pair can both execute in many states, and its finding
                // (and message) is the same in each.
                if (k < 0 || raced_[pair]) continue;
                raced_[pair] = 1;
                const ConflictInfo& ci = conflicts_[static_cast<size_t>(k)];
                Finding f;
                f.kind = FindingKind::race;
                f.instrs = std::vector<int>{std::min(x, y), std::max(x, y)};
                f.mem = ci.mem;
                f.begin = ci.begin;
                f.end = ci.end;
                f.message = fmt::format("{} race on {} bytes [{}, {}): {} and {} can both execute", ci.kind,
                                        p_.mems[static_cast<size_t>(f.mem)].name, f.begin, f.end,
                                        describe(p_, f.instrs[0]), describe(p_, f.instrs[1]));
                out.push_back(f);
            }
    }

    size_t ops(int core) const { return ins_[static_cast<size_t>(core)].size(); }

  private:
    struct ConflictInfo {
        int mem;
        uint32_t begin, end;
        const char* kind;
    };
    enum Reported : uint8_t {
        kSetTwice = 1,
        kDeadlock = 2,
        kFlagLeft = 4,
        kCounterLeft = 8,
        kRoundLeft = 16
    };
    const Program& p_;
    const Topology& topo_;
    Layout l_;
    std::vector<std::vector<Instr>> ins_;
    std::vector<std::vector<Effect>> effects_;
    size_t n_ops_ = 0;
    std::vector<int> first_id_;     // per core: the op id of its first op
    std::vector<int> conflict_of_;  // [x * n + y], x < y: index into conflicts_, or -1
    std::vector<ConflictInfo> conflicts_;
    mutable std::vector<uint8_t> raced_;     // [x * n + y]: races() has reported the pair
    mutable std::vector<uint8_t> reported_;  // per op id: Reported bits of the findings already given
    mutable std::set<std::pair<uint8_t, size_t>> reported_other_;  // flags, counters, rounds
    std::vector<std::vector<uint64_t>> need_;  // same-core ops that must have executed first (pipe rules)
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

    int id_of(int core, int op) const { return first_id_[static_cast<size_t>(core)] + op; }
    // True the first time a finding of this kind and index is seen.
    bool report_once(Reported kind, size_t index) const {
        if (kind == kSetTwice || kind == kDeadlock) {
            if (reported_[index] & kind) return false;
            reported_[index] |= kind;
            return true;
        }
        return reported_other_.insert({static_cast<uint8_t>(kind), index}).second;
    }
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
    // The byte after cell k.
    uint32_t cell_end(int k) const {
        const auto m = static_cast<size_t>(cell_mem_[static_cast<size_t>(k)]);
        return k + 1 < cell_base_[m + 1] ? cell_begin_[static_cast<size_t>(k) + 1] : p_.mems[m].size;
    }
    // First cell at or after byte `at` of memory m (cells are split at every access boundary).
    int cell_of(int m, uint32_t at) const {
        int lo = cell_base_[static_cast<size_t>(m)], hi = cell_base_[static_cast<size_t>(m) + 1];
        for (int k = lo; k < hi; ++k)
            if (cell_begin_[static_cast<size_t>(k)] >= at) return k;
        return hi;
    }
};

// The visited states: their bytes one after the other, and an open-addressing table of their indices.
class Visited {
  public:
    explicit Visited(size_t state_size) : size_(state_size), table_(1024, kEmpty) {}
    size_t count() const { return count_; }
    const uint8_t* at(uint32_t index) const { return bytes_.data() + static_cast<size_t>(index) * size_; }
    // The index of the state, and whether it was new; a new state is added unless `may_add` is false
    // (then the index is kEmpty).
    std::pair<uint32_t, bool> insert(const uint8_t* s, bool may_add) {
        const uint64_t h = hash(s);
        size_t slot = h & (table_.size() - 1);
        for (;; slot = (slot + 1) & (table_.size() - 1)) {
            const uint32_t k = table_[slot];
            if (k == kEmpty) break;
            if (same(at(k), s)) return {k, false};
        }
        if (!may_add) return {kEmpty, false};
        const auto index = static_cast<uint32_t>(count_++);
        bytes_.insert(bytes_.end(), s, s + size_);
        table_[slot] = index;
        if (2 * count_ > table_.size()) grow();
        return {index, true};
    }
    static constexpr uint32_t kEmpty = ~uint32_t{0};

  private:
    size_t size_;
    size_t count_ = 0;
    std::vector<uint8_t> bytes_;
    std::vector<uint32_t> table_;

    // Word by word, not memcmp: a sanitizer build intercepts every memcmp call (and libFuzzer traces it).
    bool same(const uint8_t* a, const uint8_t* b) const {
        size_t i = 0;
        for (; i + 8 <= size_; i += 8) {
            uint64_t x, y;
            std::memcpy(&x, a + i, 8);
            std::memcpy(&y, b + i, 8);
            if (x != y) return false;
        }
        for (; i < size_; ++i)
            if (a[i] != b[i]) return false;
        return true;
    }
    uint64_t hash(const uint8_t* s) const {
        uint64_t h = 0x9e3779b97f4a7c15ULL ^ size_;
        size_t i = 0;
        for (; i + 8 <= size_; i += 8) {
            uint64_t w;
            std::memcpy(&w, s + i, 8);
            h = (h ^ w) * 0xff51afd7ed558ccdULL;
            h ^= h >> 29;
        }
        for (; i < size_; ++i) h = (h ^ s[i]) * 0x100000001b3ULL;
        return mix(h) | (static_cast<uint64_t>(mix(h >> 32 ^ h)) << 32);
    }
    void grow() {
        std::vector<uint32_t> t(table_.size() * 2, kEmpty);
        for (uint32_t k = 0; k < count_; ++k) {
            size_t slot = hash(at(k)) & (t.size() - 1);
            while (t[slot] != kEmpty) slot = (slot + 1) & (t.size() - 1);
            t[slot] = k;
        }
        table_.swap(t);
    }
};

}  // namespace

Verdict explore(const Program& p, Limits limits) {
    Semantics sem(p);
    const Layout& l = sem.layout();
    Verdict v;
    std::vector<Finding> found;
    Visited seen(l.size);
    std::vector<uint32_t> stack;
    std::vector<Step> en;
    Scratch s(l), t(l);
    sem.initial(s.ref);
    sem.issue(s.ref, [](int, int) {});
    stack.push_back(seen.insert(s.bytes.data(), true).first);
    while (!stack.empty()) {
        s.assign(seen.at(stack.back()));
        stack.pop_back();
        ++v.states;
        sem.steps(s.ref, en);
        sem.races(en, found);
        if (en.empty()) {
            sem.terminal(s.ref, found);
            if (sem.finished(s.ref)) v.final_memories.insert(s.ref.cells());
            continue;
        }
        for (const Step& st : en) {
            t.assign(s.bytes.data());
            sem.apply(t.ref, st, found);
            sem.issue(t.ref, [](int, int) {});
            // Past the budget a state already seen costs nothing; a new one is not explored.
            const bool may_add = seen.count() < limits.max_states;
            auto [index, added] = seen.insert(t.bytes.data(), may_add);
            if (added) stack.push_back(index);
            if (index == Visited::kEmpty) v.complete = false;
        }
        if (found.size() > 4096) detail::normalise(found);
    }
    detail::normalise(found);
    v.findings = std::move(found);
    return v;
}

Run record(const Program& p, uint64_t seed, std::vector<ReadFrom>* observed) {
    Semantics sem(p);
    Run run;
    run.topo = p.topo;
    std::mt19937_64 rng(seed);
    std::vector<Finding> ignored;
    std::vector<Step> en;
    std::vector<std::vector<int>> seen;  // per cell: the writes it holds
    if (observed) observed->clear();
    Scratch s(sem.layout());
    sem.initial(s.ref);
    auto issued = [&](int c, int i) { run.instrs.push_back(instr_of(p, c, i)); };
    sem.issue(s.ref, issued);
    for (;;) {
        sem.steps(s.ref, en);
        if (en.empty()) break;
        Step st = en[std::uniform_int_distribution<size_t>(0, en.size() - 1)(rng)];
        if (sem.scalar(static_cast<size_t>(st.core), static_cast<size_t>(st.op))) issued(st.core, st.op);
        if (observed) sem.observe(st, seen, *observed);
        sem.apply(s.ref, st, ignored);
        sem.issue(s.ref, issued);
    }
    // A scalar unit stuck on an op has issued it: it is part of the run.
    for (size_t c = 0; c < p.cores.size(); ++c)
        if (s.ref.pc(c) < sem.ops(static_cast<int>(c))) issued(static_cast<int>(c), s.ref.pc(c));
    if (observed) canonicalise(*observed);
    return run;
}

}  // namespace evg::explore
