// Engine (a): the happens-before graph of one recorded run, built explicitly, decided by reachability.
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <tuple>

#include "evg/explore/model.hpp"
#include "keys.hpp"

namespace evg::explore {

namespace {

using detail::conflict;

bool set_like(Kind k) {
    return k == Kind::set || k == Kind::cross_set || k == Kind::barrier;
}
bool wait_like(Kind k) {
    return k == Kind::wait || k == Kind::cross_wait || k == Kind::barrier;
}

struct Round;

// One event that increments counters: a round firing (its nth time) or a direct set executing (nth: its
// instruction index, round null). It increments every target counter at once.
using IncrementEvent = std::pair<const Round*, size_t>;

// One increment of a cross-core counter: it lands when the last of its sources has executed.
struct Increment {
    std::vector<int> sources;  // instruction indices
    int mode = 0;
    const Round* round = nullptr;  // the round it is the nth increment of; null for a direct set
    size_t nth = 0;                // a direct set: its instruction index
    IncrementEvent event() const { return {round, nth}; }
};

struct Counter {
    CounterKey key;
    std::vector<Increment> incs;
    std::vector<int> waits;  // issue order
    bool resolved = false;
    // Why the counter is not resolved: every unordered pair of increments (each named by its first source) or
    // of waits, with the reason. The finding names the first pair whose instructions both execute.
    struct Unordered {
        int a, b;  // the instructions that name it: two waits, or the first sources of two increments
        std::string why;
        std::vector<int> needs;  // what must execute for the two to compete: both waits, or every source
        bool waits = false;      // two waits: they compete only for an increment that lands
    };
    std::vector<Unordered> unordered;
};

// The happens-before graph of n instructions. Edges are kept in one list as they come and indexed by their
// target (a stable counting sort: each node's predecessors in the order their edges were added) when next
// read; ancestors are one n x n bit matrix, a row per node. A handful of allocations per graph, whatever its
// size: an attempt at deciding a recorded run of a thousand instructions once made some 3,000 (a vector of
// predecessors, of match bits and of ancestor bits per node) and grew them edge by edge.
class Graph {
  public:
    explicit Graph(size_t n) : n_(n), words_((n + 63) / 64), anc_(n * words_, 0) {}

    // `match`: the edge from a set to the wait that takes it (the others are order edges).
    void edge(int from, int to, bool match = false) {
        if (from == to) return;
        edges_.push_back({from, to, match});
    }
    // Ancestors by fixpoint (the graph may have cycles: those nodes never execute).
    void close() {
        index();
        bool changed = true;
        while (changed) {
            changed = false;
            for (size_t i = 0; i < n_; ++i) {
                uint64_t* row = &anc_[i * words_];
                for (size_t e = first_[i]; e < first_[i + 1]; ++e) {
                    const auto pu = static_cast<size_t>(from_[e]);
                    uint64_t& w = row[pu / 64];
                    const uint64_t bit = uint64_t{1} << (pu % 64);
                    if (!(w & bit)) {
                        w |= bit;
                        changed = true;
                    }
                    if (pu == i) continue;
                    const uint64_t* prow = &anc_[pu * words_];
                    uint64_t grew = 0;
                    for (size_t k = 0; k < words_; ++k) {
                        const uint64_t m = row[k] | prow[k];
                        grew |= m ^ row[k];
                        row[k] = m;
                    }
                    changed |= grew != 0;
                }
            }
        }
    }
    // a happens-before b
    bool hb(int a, int b) const { return a != b && anc(static_cast<size_t>(b), static_cast<size_t>(a)); }
    bool ordered(int a, int b) const { return hb(a, b) || hb(b, a); }
    bool cyclic(int i) const { return anc(static_cast<size_t>(i), static_cast<size_t>(i)); }
    std::span<const int> preds(int i) const {
        index();
        const auto u = static_cast<size_t>(i);
        return {from_.data() + first_[u], from_.data() + first_[u + 1]};
    }
    // Whether the k-th predecessor of i (in preds(i)) is i's match edge.
    bool is_match(int i, size_t k) const {
        index();
        return match_[first_[static_cast<size_t>(i)] + k] != 0;
    }

  private:
    struct Edge {
        int from, to;
        bool match;
    };
    bool anc(size_t node, size_t of) const { return (anc_[node * words_ + of / 64] >> (of % 64)) & 1; }
    // The edges by target, when edges came since the last index.
    void index() const {
        if (indexed_ == edges_.size() && !first_.empty()) return;
        first_.assign(n_ + 1, 0);
        for (const Edge& e : edges_) ++first_[static_cast<size_t>(e.to) + 1];
        for (size_t i = 0; i < n_; ++i) first_[i + 1] += first_[i];
        from_.resize(edges_.size());
        match_.resize(edges_.size());
        fill_.assign(first_.begin(), first_.end() - 1);
        for (const Edge& e : edges_) {
            const size_t at = fill_[static_cast<size_t>(e.to)]++;
            from_[at] = e.from;
            match_[at] = e.match ? 1 : 0;
        }
        indexed_ = edges_.size();
    }

    size_t n_;
    size_t words_;
    std::vector<uint64_t> anc_;  // row i: the ancestors of i
    std::vector<Edge> edges_;
    mutable size_t indexed_ = 0;  // edges_ covered by the index below
    mutable std::vector<size_t> first_, fill_;
    mutable std::vector<int> from_;
    mutable std::vector<char> match_;
};

// Increment a lands before increment b in every schedule: every source of a comes before some source of b.
// (b lands when the last of its sources runs, which is after that source; a lands when its last source runs.
// Two rounds of one counter whose members each set in order are ordered so, although no single set of the
// later round need follow every set of the earlier one.) Otherwise some source of a follows no source of b,
// and a schedule runs everything b needs first.
// The increments of one round land in the order of their rounds by definition: the k-th round takes each
// member's k-th set that executes, so it completes before the (k+1)-th (which of a member's sets that is, is
// checked apart: unordered sets of one member make the round ambiguous).
bool inc_before(const Graph& g, const Increment& a, const Increment& b) {
    if (a.round && a.round == b.round) return a.nth < b.nth;
    for (int sa : a.sources) {
        bool some = false;
        for (int sb : b.sources) some |= sa == sb || g.hb(sa, sb);
        if (!some) return false;
    }
    return !a.sources.empty();
}

}  // namespace

namespace {

// What earlier attempts learned: per round set (instruction index), the first round it may join; and the
// waits that never execute in any schedule (a resolved counter has no increment left for them). Learning
// waits is given up (`learn_never` false) once the last attempt found a learned wait that has an increment
// left after all (Decider::learned_waits_still_never_run).
struct Learned {
    std::map<int, size_t> min_round;
    std::set<int> never;
    bool learn_never = true;
};

// An intra-core flag: one source pipe, one sink pipe; the k-th wait takes the k-th set.
struct Flag {
    std::vector<int> sets, waits;
    int core = 0;
    Event e{};
    int id = 0;
};

// The sets of one round flag (mode, group, flag): the k-th increment takes the k-th set of every member.
struct Round {
    int mode = 0, group = 0, flag = 0;
    std::vector<int> members;
    std::map<int, std::vector<int>>
        sets;  // member -> its sets, issue order (then the order they join rounds)
};

using EventPair = std::pair<IncrementEvent, IncrementEvent>;

// One attempt at deciding a run, a phase per method in the order decide() calls them: the happens-before
// graph (program order, intra-core flags, cross-core counters), what may run, the rounds' increments, the
// counters' resolution, then the findings. An attempt that learns a fact for the next one (a round set held
// back, a wait that never runs) ends without a verdict.
class Decider {
  public:
    Decider(const Run& run, Learned& learned, bool learn)
        : ins_(run.instrs),
          topo_(run.topo),
          n_(static_cast<int>(run.instrs.size())),
          learned_(learned),
          learn_(learn),
          g_(run.instrs.size()),
          matched_(run.instrs.size(), 0),
          may_(run.instrs.size(), 0),
          tainted_(run.instrs.size(), 0),
          live_(run.instrs.size(), 0) {}

    // The verdict, or nothing when this attempt learned something and another one is due. An attempt that may
    // not learn gives its verdict all the same, incomplete when it found something to learn.
    std::optional<Verdict> decide() {
        order_programs();
        match_intra_core_flags();
        collect_cross_core();
        g_.close();  // the order known so far: issue order, pipe order, intra-core flags
        judge_what_may_run();
        place_round_sets();
        resolve_counters();
        g_.close();
        hold_back_sets_on_cycles();
        learn_waits_that_never_run();
        if (retry_ && learn_) return std::nullopt;
        if (!retry_ && !learned_waits_still_never_run()) {
            learned_ = Learned{.min_round = {}, .never = {}, .learn_never = false};
            if (learn_) return std::nullopt;
            retry_ = true;  // no attempt left to decide without them: a give-up
        }
        v_.complete = !retry_;
        name_shapes();
        find_round_ambiguity();
        judge_liveness();
        drop_ambiguity_that_never_runs();
        const bool deadlock = find_deadlocks();
        find_sets_twice();
        find_races();
        if (!deadlock) find_leftovers();  // only a run that completes leaves something at the end
        detail::normalise(v_.findings);
        if (v_.findings.empty() && v_.complete) find_reads_from();
        return std::move(v_);
    }

  private:
    const Instr& instr(int i) const { return ins_[static_cast<size_t>(i)]; }
    bool may(int i) const { return may_[static_cast<size_t>(i)] != 0; }
    bool live(int i) const { return live_[static_cast<size_t>(i)] != 0; }
    bool tainted(int i) const { return tainted_[static_cast<size_t>(i)] != 0; }
    bool is_matched(int i) const { return matched_[static_cast<size_t>(i)] != 0; }
    // Executes in some schedule as far as the verdict claims: live, or after an unresolved counter.
    bool runs(int i) const { return live(i) || tainted(i); }

    // Program order of each core: issue order of the scalar unit, and each pipe under the chip's rules.
    void order_programs() {
        auto scalar = [&](int i) { return instr(i).pipe == Pipe::S || instr(i).blocking; };
        std::map<int, std::vector<int>> by_core;
        for (int i = 0; i < n_; ++i) {
            by_core[instr(i).core].push_back(i);
            index_of_[instr(i).id] = i;
            // An instruction its pipe orders after an earlier one by itself (Instr::after).
            if (instr(i).after != 0)
                if (const auto it = index_of_.find(instr(i).after); it != index_of_.end())
                    g_.edge(it->second, i);
        }
        for (auto& [core, list] : by_core) {
            int last_scalar = -1;
            struct PipeOrder {
                int last_set = -1, last_wait = -1, prev = -1;
                std::vector<int> since_set;  // instructions after the last set-like one
            };
            std::map<Pipe, PipeOrder> by_pipe;
            for (size_t k = 0; k < list.size(); ++k) {
                const int j = list[k];
                if (last_scalar >= 0) g_.edge(last_scalar, j);  // issued after what the scalar unit executed
                if (instr(j).kind == Kind::barrier && instr(j).barrier_pipe == Pipe::ALL)
                    for (size_t e = 0; e < k; ++e) g_.edge(list[e], j);  // waits for every pipe of its core
                if (scalar(j)) {
                    last_scalar = j;
                    continue;
                }
                // The same relation as "i before j if the pipe keeps order, j is set-like or i is wait-like",
                // with the edges transitivity implies left out: the last set-like instruction follows
                // everything before it, and the last wait-like one follows every earlier wait-like one.
                PipeOrder& po = by_pipe[instr(j).pipe];
                if (pipe_keeps_order(topo_.chip, instr(j).pipe)) {
                    if (po.prev >= 0) g_.edge(po.prev, j);
                } else {
                    if (set_like(instr(j).kind)) {
                        for (int i : po.since_set) g_.edge(i, j);
                        if (po.last_set >= 0) g_.edge(po.last_set, j);
                    }
                    if (po.last_wait >= 0) g_.edge(po.last_wait, j);
                }
                if (set_like(instr(j).kind)) {
                    po.last_set = j;
                    po.since_set.clear();
                } else {
                    po.since_set.push_back(j);
                }
                if (wait_like(instr(j).kind)) po.last_wait = j;
                po.prev = j;
            }
        }
    }

    void match_intra_core_flags() {
        for (int i = 0; i < n_; ++i) {
            if (instr(i).kind != Kind::set && instr(i).kind != Kind::wait) continue;
            auto& f = flags_[{instr(i).core, instr(i).event, instr(i).event_id}];
            f.core = instr(i).core;
            f.e = instr(i).event;
            f.id = instr(i).event_id;
            (instr(i).kind == Kind::set ? f.sets : f.waits).push_back(i);
        }
        for (auto& [key, f] : flags_)
            for (size_t k = 0; k < std::min(f.sets.size(), f.waits.size()); ++k) {
                g_.edge(f.sets[k], f.waits[k], true);
                matched_[static_cast<size_t>(f.waits[k])] = 1;
            }
    }

    // Cross-core counters: increments from direct sets now, from completed rounds once their sets are placed.
    void collect_cross_core() {
        for (int i = 0; i < n_; ++i) {
            if (instr(i).kind == Kind::cross_wait) {
                const CounterKey k = wait_counter(instr(i).core, instr(i).mode, instr(i).flag);
                counters_[k].key = k;
                counters_[k].waits.push_back(i);
            }
            if (instr(i).kind != Kind::cross_set) continue;
            const CrossEffect e = cross_effect(topo_, instr(i).core, instr(i).mode, instr(i).flag);
            if (!e.round) {
                for (const auto& t : e.targets) {
                    counters_[t].key = t;
                    counters_[t].incs.push_back({{i}, e.mode, nullptr, static_cast<size_t>(i)});
                }
                continue;
            }
            auto& r = rounds_[{e.mode, e.group, e.flag}];
            r.mode = e.mode;
            r.group = e.group;
            r.flag = e.flag;
            r.members = e.members;
            r.sets[instr(i).core].push_back(i);
        }
        for (const auto& [key, r] : rounds_)
            for (const auto& t : targets(r)) {
                counters_[t].key = t;
                rounds_into_[t].push_back(&r);
            }
    }

    std::vector<CounterKey> targets(const Round& r) const {
        return cross_effect(topo_, r.members.front(), r.mode, r.flag).targets;
    }
    bool inc_may(const Increment& inc) const {
        return std::all_of(inc.sources.begin(), inc.sources.end(), [&](int s) { return may(s); });
    }
    // How many times a round may fire, counting only the sets `counts` accepts: as often as its member with
    // the fewest such sets sets.
    template <class Counts>
    size_t round_times(const Round& r, Counts counts) const {
        size_t times = SIZE_MAX;
        for (int m : r.members) {
            const auto it = r.sets.find(m);
            times = std::min(times, it == r.sets.end() ? size_t{0}
                                                       : static_cast<size_t>(std::count_if(
                                                             it->second.begin(), it->second.end(), counts)));
        }
        return times == SIZE_MAX ? size_t{0} : times;
    }

    // What may execute in some schedule, optimistically: everything ordered before it may, an intra-core wait
    // has its set, and a cross-core wait has an increment left for it: more increments may land on its
    // counter (a direct set that may execute; a round as many times as each member has sets that may execute)
    // than there are waits on that counter ordered before it, each of which takes one first. Increments and
    // waits that can never execute compete for nothing, so they make no counter ambiguous. A wait an earlier
    // attempt found to never execute does not.
    void judge_what_may_run() { may_ = what_may_run(-1); }
    // The same judgement in the schedules that have not yet run `held` (-1: none), nor anything after it.
    std::vector<char> what_may_run(int held) const {
        std::vector<char> m(static_cast<size_t>(n_), 0);
        auto in = [&](int i) { return m[static_cast<size_t>(i)] != 0; };
        for (bool changed = true; changed;) {
            changed = false;
            for (int i = 0; i < n_; ++i) {
                if (in(i) || learned_.never.count(i)) continue;
                if (held >= 0 && (i == held || g_.hb(held, i))) continue;
                if (instr(i).kind == Kind::wait && !is_matched(i)) continue;
                if (instr(i).kind == Kind::cross_wait && !has_increment_left(i, in)) continue;
                const auto& ps = g_.preds(i);
                if (std::all_of(ps.begin(), ps.end(), in)) {
                    m[static_cast<size_t>(i)] = 1;
                    changed = true;
                }
            }
        }
        return m;
    }
    template <class May>
    bool has_increment_left(int wait, May may_run) const {
        const CounterKey k = wait_counter(instr(wait).core, instr(wait).mode, instr(wait).flag);
        size_t incs = 0, waits_before = 0;
        if (auto it = counters_.find(k); it != counters_.end()) {
            for (const auto& inc : it->second.incs)  // direct sets; rounds are counted below
                incs += !inc.round && std::all_of(inc.sources.begin(), inc.sources.end(), may_run) ? 1 : 0;
            for (int w : it->second.waits) waits_before += g_.hb(w, wait) ? 1 : 0;
        }
        if (auto it = rounds_into_.find(k); it != rounds_into_.end())
            for (const Round* r : it->second) incs += round_times(*r, may_run);
        return incs > waits_before;
    }
    // What may run before `w` does (what_may_run(w)), once per wait and attempt.
    const std::vector<char>& may_run_before(int w) {
        auto it = may_before_.find(w);
        if (it == may_before_.end()) it = may_before_.emplace(w, what_may_run(w)).first;
        return it->second;
    }

    // The first round (0-based) set s of round r may join: when j waits on a counter the round increments
    // come before the set, and at most o of that counter's increments come from elsewhere, the round fired j
    // - o times first, so the set joins round j - o + 1 or later.
    // An increment from elsewhere counts only if it can land before one of those j waits executes: a set that
    // follows all of them (another mode's set of the same id queued behind the first wait) cannot satisfy
    // any.
    size_t first_round(const Round& r, int s) {
        size_t first =
            std::max(learned_.min_round.count(s) ? learned_.min_round.at(s) : 0, member_sets_before(r, s));
        for (const auto& t : targets(r)) {
            std::vector<int> waits_before;
            for (int w : counters_[t].waits)
                if (g_.hb(w, s)) waits_before.push_back(w);
            if (waits_before.empty()) continue;
            // In time: it may run while one of those waits has not yet run, and so may be what it takes. Not
            // only what no wait orders before it: an increment whose set follows one of the waits through
            // another counter (the AIC sets behind its own wait for a round this set's member joins only
            // after the waits) cannot be taken by them, and counting it would let the set join a round it
            // never joins.
            auto in_time = [&](int x) {
                return may(x) && std::any_of(waits_before.begin(), waits_before.end(), [&](int w) {
                           return may_run_before(w)[static_cast<size_t>(x)] != 0;
                       });
            };
            size_t others = 0;
            for (const Increment& inc : counters_[t].incs)
                if (!inc.round && std::all_of(inc.sources.begin(), inc.sources.end(), in_time)) ++others;
            if (auto it = rounds_into_.find(t); it != rounds_into_.end())
                for (const Round* o : it->second)
                    if (o != &r) others += round_times(*o, in_time);
            if (waits_before.size() > others) first = std::max(first, waits_before.size() - others);
        }
        return first;
    }

    // A member's sets join its rounds in the order they execute, so a set that k of the member's sets (that
    // may execute) come before joins round k or later.
    size_t member_sets_before(const Round& r, int s) const {
        const auto& sets = r.sets.at(instr(s).core);
        return static_cast<size_t>(
            std::count_if(sets.begin(), sets.end(), [&](int o) { return may(o) && g_.hb(o, s); }));
    }

    // A round takes, from each member, the next set that executes: a set that never executes (it sits behind
    // a wait no schedule satisfies) joins no round, and the member's next set takes its place. Nor does a set
    // join a round that lands before it runs (first_round: a member that sets from V behind a wait for the
    // round and from MTE3 with nothing before: the MTE3 set joins the first round, the V set the next). The
    // k-th increment of a round pairs the k-th such set of every member.
    void place_round_sets() {
        for (auto& [key, r] : rounds_) {
            const Round& round = r;  // clang 14 cannot capture a structured binding
            for (auto& [m, sets] : r.sets) {
                std::erase_if(sets, [&](int s) { return !may(s); });
                std::vector<int> left = sets, placed;
                while (!left.empty()) {  // round k takes the first set left that may join it
                    auto it = std::find_if(left.begin(), left.end(),
                                           [&](int s) { return first_round(round, s) <= placed.size(); });
                    if (it == left.end()) it = left.begin();  // none may: the round never fires
                    placed.push_back(*it);
                    left.erase(it);
                }
                sets = placed;
            }
            size_t full = SIZE_MAX;
            for (int m : r.members) full = std::min(full, r.sets[m].size());
            for (size_t k = 0; k < full; ++k) {
                Increment inc{{}, r.mode, &r, k};
                for (int m : r.members) inc.sources.push_back(r.sets[m][k]);
                for (const auto& t : targets(r)) counters_[t].incs.push_back(inc);
            }
            for (int m : r.members)
                if (r.sets[m].size() > full) {
                    Finding f;
                    f.kind = FindingKind::counter_left;
                    f.what = detail::round_key(r.mode, r.group, r.flag);
                    // clang-format off: one message, one string, to be found by grep
                    f.message = fmt::format(
                        "mode {} cross-core flag {} was set by {} (#{}) but not by every participant: the "
                        "round never fires",
                        r.mode, r.flag, topo_.core_name(m), instr(r.sets[m][full]).id);
                    // clang-format on
                    round_left_.push_back(f);
                }
        }
    }

    // Increment a of counter c lands before increment b in every schedule: by the graph, or by counting. When
    // k waits of c come before some set of b, k increments landed before b (each wait took one); if no more
    // than k increments other than b can land before it (those not already known to land after it), each of
    // them does. (One AIV waits for the AIC's increment and only then joins a round on the same counter: the
    // round's increment comes second although no edge says so until the counter is resolved.) Facts found by
    // counting rule out more increments for the next count, and the order is transitive, so the relation is
    // grown to a fixpoint. Landing order found on one counter holds on every counter the same two events
    // increment (known_before_).
    std::vector<std::vector<char>> landing_order(const Counter& c) const {
        const size_t m = c.incs.size();
        std::vector<std::vector<char>> before(m, std::vector<char>(m, 0));
        std::vector<size_t> waits_before(m, 0);
        for (size_t x = 0; x < m; ++x) {
            for (int w : c.waits) {
                bool hb = false;
                for (int s : c.incs[x].sources) hb |= g_.hb(w, s);
                waits_before[x] += hb ? 1 : 0;
            }
            for (size_t y = 0; y < m; ++y)
                before[x][y] = x != y && inc_may(c.incs[x]) && inc_may(c.incs[y]) &&
                               (inc_before(g_, c.incs[x], c.incs[y]) ||
                                known_before_.count({c.incs[x].event(), c.incs[y].event()}) != 0);
        }
        for (bool changed = true; changed;) {
            changed = false;
            for (size_t y = 0; y < m; ++y) {
                if (waits_before[y] == 0 || !inc_may(c.incs[y])) continue;
                size_t could = 0;  // increments other than y that may land before it
                for (size_t k = 0; k < m; ++k) could += k != y && inc_may(c.incs[k]) && !before[y][k] ? 1 : 0;
                if (could > waits_before[y]) continue;
                for (size_t x = 0; x < m; ++x)
                    if (x != y && inc_may(c.incs[x]) && !before[y][x] && !before[x][y]) {
                        before[x][y] = 1;
                        changed = true;
                    }
            }
            for (size_t k = 0; k < m; ++k)
                for (size_t x = 0; x < m; ++x)
                    for (size_t y = 0; y < m; ++y)
                        if (before[x][k] && before[k][y] && !before[x][y]) {
                            before[x][y] = 1;
                            changed = true;
                        }
        }
        return before;
    }

    // How many of round increment r's member sets some source of increment o follows.
    size_t member_sets_followed(const Increment& r, const Increment& o) const {
        size_t followed = 0;
        for (int m : r.sources)
            followed += std::any_of(o.sources.begin(), o.sources.end(), [&](int s) { return g_.hb(m, s); });
        return followed;
    }

    // Of two unordered increments of different modes, one a round's: whether the other increment's sets
    // follow some of the round's member sets and not others. A checker that remembers only the member set
    // that completed the round then sees the two modes ordered or not depending on which member completed it.
    std::string split_round(const Increment& x, const Increment& y) const {
        for (const auto& [r, o] : {std::pair{&x, &y}, std::pair{&y, &x}}) {
            if (!r->round || r->sources.size() < 2) continue;
            const size_t followed = member_sets_followed(*r, *o);
            if (followed > 0 && followed < r->sources.size())
                return fmt::format(" (the mode-{} sets follow {} of the {} member sets of the mode-{} round)",
                                   o->mode, followed, r->sources.size(), r->mode);
        }
        return {};
    }

    // Resolve counters whose increments and waits are totally ordered; new edges may order more of them.
    void resolve_counters() {
        for (bool progress = true; progress;) {
            progress = false;
            g_.close();
            for (auto& entry : counters_) progress |= order_waits_behind_every_increment(entry.second);
            if (progress) continue;
            for (auto& entry : counters_) progress |= resolve(entry.second);
        }
    }
    // A wait with j waits of its counter before it runs once j + 1 increments have landed: when no more than
    // j + 1 may land before it (an increment with a source after the wait cannot), it follows every one of
    // them, whichever order they land in. (The AIC waits twice on a flag that a direct set and a round
    // increment: the second wait follows the round, so what sits behind it follows the round's member sets,
    // before the counter itself can be resolved.) True when it added an edge.
    bool order_waits_behind_every_increment(const Counter& c) {
        if (c.resolved) return false;
        bool added = false;
        for (int w : c.waits) {
            if (!may(w)) continue;
            const size_t before = waits_before(c, w);
            const std::vector<const Increment*> can = free_of(c, w);
            if (can.size() < before + 1) {  // fewer can land before it than it needs: it never passes
                never_found_.push_back(w);
                continue;
            }
            if (before + 1 != can.size()) continue;
            for (const Increment* inc : can)
                for (int s : inc->sources)
                    if (!g_.hb(s, w)) {
                        g_.edge(s, w);
                        added = true;
                    }
        }
        return added;
    }
    // The waits of counter c that may run and come before wait w: each takes an increment before w does.
    size_t waits_before(const Counter& c, int w) const {
        return static_cast<size_t>(
            std::count_if(c.waits.begin(), c.waits.end(), [&](int x) { return may(x) && g_.hb(x, w); }));
    }
    // The increments of counter c that may land before wait w runs: they may land, and none of their sets
    // follows w.
    std::vector<const Increment*> free_of(const Counter& c, int w) const {
        std::vector<const Increment*> out;
        for (const Increment& inc : c.incs)
            if (inc_may(inc) &&
                std::none_of(inc.sources.begin(), inc.sources.end(), [&](int s) { return g_.hb(w, s); }))
                out.push_back(&inc);
        return out;
    }
    // One counter: records why it is unresolved, or matches its waits to its increments. True when it learned
    // something (a landing order, a resolution).
    bool resolve(Counter& c) {
        if (c.resolved) return false;
        bool progress = false;
        c.unordered.clear();
        // before[a][b]: increment a lands before b in every schedule (the AIC's increment before a first
        // round, and that round before a second, order the AIC's before the second).
        const size_t m = c.incs.size();
        const std::vector<std::vector<char>> before = landing_order(c);
        for (size_t x = 0; x < m; ++x)
            for (size_t y = 0; y < m; ++y)
                if (before[x][y] && known_before_.insert({c.incs[x].event(), c.incs[y].event()}).second)
                    progress = true;
        for (size_t a = 0; a < m; ++a)
            for (size_t b = a + 1; b < m; ++b)
                if (inc_may(c.incs[a]) && inc_may(c.incs[b]) && !before[a][b] && !before[b][a]) {
                    std::vector<int> needs = c.incs[a].sources;
                    needs.insert(needs.end(), c.incs[b].sources.begin(), c.incs[b].sources.end());
                    c.unordered.push_back(
                        {c.incs[a].sources.front(), c.incs[b].sources.front(),
                         c.incs[a].mode != c.incs[b].mode
                             ? fmt::format("it is used in modes {} and {} at once{}", c.incs[a].mode,
                                           c.incs[b].mode, split_round(c.incs[a], c.incs[b]))
                             : "two of its sets are unordered, so their increments land in either order",
                         needs});
                }
        // Unordered waits matter only where there is an increment to compete for: with none, every wait
        // blocks in every schedule.
        const bool some_inc =
            std::any_of(c.incs.begin(), c.incs.end(), [&](const Increment& i) { return inc_may(i); });
        for (size_t a = 0; a < c.waits.size() && some_inc; ++a)
            for (size_t b = a + 1; b < c.waits.size(); ++b)
                if (may(c.waits[a]) && may(c.waits[b]) && !g_.ordered(c.waits[a], c.waits[b]))
                    c.unordered.push_back({c.waits[a],
                                           c.waits[b],
                                           "two unordered waits may take its increments in either order",
                                           {c.waits[a], c.waits[b]},
                                           true});
        if (!c.unordered.empty()) return progress;
        // An increment that never lands (its set sits behind a wait no schedule satisfies) is taken by no
        // wait: the waits take the ones that may land, in the order they land.
        std::vector<size_t> order;
        for (size_t k = 0; k < c.incs.size(); ++k)
            if (inc_may(c.incs[k])) order.push_back(k);
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return before[a][b] != 0; });
        std::stable_sort(c.waits.begin(), c.waits.end(), [&](int a, int b) { return g_.hb(a, b); });
        // Likewise a wait that never executes (it sits behind a wait no schedule satisfies) takes no
        // increment: the waits that may execute take them, in their order.
        std::vector<int> waits;
        std::copy_if(c.waits.begin(), c.waits.end(), std::back_inserter(waits),
                     [&](int w) { return may(w); });
        for (size_t k = 0; k < std::min(order.size(), waits.size()); ++k) {
            for (int s : c.incs[order[k]].sources) g_.edge(s, waits[k], true);
            matched_[static_cast<size_t>(waits[k])] = 1;
        }
        // The waits past the last increment that may land never execute: at most order.size() increments land
        // and the waits take them in their order. What may execute was judged before this counter ordered its
        // waits (a wait behind another one on the same counter, ordered so only through a counter resolved
        // since), so decide again without them: what sits behind them then competes for nothing.
        for (size_t k = order.size(); k < waits.size(); ++k) never_found_.push_back(waits[k]);
        c.resolved = true;
        return true;
    }

    // A round's set that the graph puts on a cycle through the increment it is a source of cannot have joined
    // that round (on Ascend950: a set behind a wait whose increment the AIC sets only after the round fired);
    // when the member has a later set to take its place, decide again with the set held back to the next
    // round.
    //
    // Likewise a set that the resolved graph puts after more of its member's sets than its round's number
    // (a mode-0 flag that one AIC sets from MTE2 and then, unordered in program order, from M, where the M
    // set is found to come first only through another counter) joins a later round: decide again with it held
    // back.
    void hold_back_sets_on_cycles() {
        for (const auto& [key, r] : rounds_)
            for (const auto& [m, sets] : r.sets)
                for (size_t k = 0; k < sets.size(); ++k) {
                    const size_t before = member_sets_before(r, sets[k]);
                    auto& min_round = learned_.min_round;
                    if (before > k && (!min_round.count(sets[k]) || min_round[sets[k]] < before)) {
                        if (learn_) min_round[sets[k]] = before;
                        retry_ = true;
                    }
                }
        for (const auto& [key, c] : counters_)
            for (const auto& inc : c.incs) {
                if (!inc.round) continue;
                const Round* r = inc.round;
                for (int src : inc.sources) {
                    const auto& sets = r->sets.at(instr(src).core);
                    auto& min_round = learned_.min_round;
                    if (g_.cyclic(src) && inc.nth + 1 < sets.size() &&
                        (!min_round.count(src) || min_round[src] < inc.nth + 1)) {
                        if (learn_) min_round[src] = inc.nth + 1;
                        retry_ = true;
                    }
                }
            }
    }

    // The waits the resolution found to never run, learned for the next attempt. Not from an attempt that
    // held a round set back: its rounds took a set that cannot have joined them, and what it resolved from
    // them is void.
    void learn_waits_that_never_run() {
        if (retry_) {  // a set was held back: what earlier attempts found never to run was found on its
                       // rounds
            if (learn_) learned_.never.clear();
            return;
        }
        if (!learned_.learn_never) return;
        auto learn = [&](int i) {
            if (learned_.never.count(i)) return;
            if (learn_) learned_.never.insert(i);
            retry_ = true;
        };
        for (int w : never_found_) learn(w);
        // What the graph puts on a cycle never executes either: an increment with such a source never lands.
        for (int i = 0; i < n_; ++i)
            if (g_.cyclic(i) && may(i)) learn(i);
    }

    // Whether each wait learned never to run still has no increment left for it in this attempt's graph: no
    // more increments that may land without following it than waits of its counter before it, each of which
    // takes one first (the count that found most of them, order_waits_behind_every_increment). A wait is
    // learned from one attempt's rounds and resolved counters, and an attempt that knows it may take other
    // choices: which of a member's unordered sets joins a round (place_round_sets takes the first that may),
    // which increment a wait takes. When the learned wait's increments are then free of it, the fact rested
    // on a choice no schedule has to make, and was used to make another. (A mode-0 set from M and one from
    // MTE2 behind a wait on the same flag: with the MTE2 set placed first the wait resolved to a mode-2
    // round that an AIV wait precedes, so that AIV wait was learned never to run; the next attempt, knowing
    // it, placed the M set first, and the AIV wait's increments came free, but it stayed learned, the
    // verdict a deadlock no schedule has.) Then the run is decided again without learning waits, and what
    // the choices leave open is named ambiguous, not decided by a guess.
    bool learned_waits_still_never_run() const {
        for (int w : learned_.never) {
            if (instr(w).kind != Kind::cross_wait) continue;  // others were learned on a cycle
            const auto it = counters_.find(wait_counter(instr(w).core, instr(w).mode, instr(w).flag));
            if (it == counters_.end()) continue;
            if (free_of(it->second, w).size() > waits_before(it->second, w)) return false;
        }
        return true;
    }

    // Shapes for the fuzzers' pattern counters: of each round increment and each increment of another mode on
    // the same counter, how many of the round's member sets the other increment's sets follow, and whether
    // the counter was resolved. "some" is the shape in which which member completes the round decides whether
    // the two modes look ordered; "all" and "none" with an ordered counter are one edit away from it.
    void name_shapes() {
        for (const auto& [key, c] : counters_)
            for (const Increment& r : c.incs) {
                if (!r.round || r.sources.size() < 2) continue;
                for (const Increment& o : c.incs) {
                    if (o.mode == r.mode) continue;
                    const size_t followed = member_sets_followed(r, o);
                    v_.shapes.push_back(fmt::format(
                        "round mode {} and a mode-{} increment on one counter: the increment follows "
                        "{} member sets, {}",
                        r.mode, o.mode,
                        followed == 0                  ? "none of the"
                        : followed == r.sources.size() ? "all"
                                                       : "some",
                        c.resolved ? "resolved" : "unresolved"));
                }
            }
    }

    // What no schedule executes stays untainted: it is stuck whatever the ambiguous counter does.
    // Nor does what the graph puts on a cycle: every edge of it holds in every schedule.
    void taint_from(int w) {
        for (int j = 0; j < n_; ++j)
            if ((j == w || g_.hb(w, j)) && may(j) && !g_.cyclic(j)) tainted_[static_cast<size_t>(j)] = 1;
    }

    // An unresolved counter's finding, named by its pair `u`.
    Finding counter_finding(const Counter& c, const Counter::Unordered& u) const {
        Finding f;
        f.kind = FindingKind::ambiguous;
        f.what = detail::counter_key(topo_, c.key);
        const int a = instr(u.a).id, b = instr(u.b).id;
        // A vector moved in, not assigned from a braced list: GCC 12 warns -Wnonnull, falsely, on its clone
        // of vector::assign when the explorer's sources are compiled as one unit (EVG_UNITY_BUILD).
        f.instrs = std::vector<int>{std::min(a, b), std::max(a, b)};
        f.message = fmt::format(
            "cross-core flag {} of {}: {} (#{} and #{}); which wait takes which increment depends on the "
            "schedule",
            c.key.flag, topo_.core_name(c.key.core), u.why, f.instrs[0], f.instrs[1]);
        return f;
    }

    // Ambiguity: an unresolved counter, or a round member whose sets are unordered (which set joins which
    // round depends on the schedule). What depends on either is not claimed (tainted).
    void find_round_ambiguity() {
        for (auto& [key, c] : counters_) {
            if (c.resolved) continue;
            v_.findings.push_back(counter_finding(c, c.unordered.front()));
            unresolved_[v_.findings.back().what] = &c;
            for (int w : c.waits) taint_from(w);
        }
        std::vector<std::pair<int, int>> round_unordered;
        for (auto& [key, r] : rounds_)
            for (int m : r.members) {
                const auto& s = r.sets[m];
                for (size_t a = 0; a + 1 < s.size(); ++a)
                    if (!g_.ordered(s[a], s[a + 1])) round_unordered.push_back({s[a], s[a + 1]});
            }
        for (auto [a, b] : round_unordered) {
            Finding f;
            f.kind = FindingKind::ambiguous;
            const Instr& x = instr(a);
            f.what = detail::round_key(x.mode, cross_effect(topo_, x.core, x.mode, x.flag).group, x.flag);
            f.instrs = std::vector<int>{std::min(x.id, instr(b).id), std::max(x.id, instr(b).id)};
            // clang-format off: one message, one string, to be found by grep
            f.message = fmt::format(
                "cross-core flag {} (mode {}) is set twice by {} from unordered pipes (#{} and #{}): which "
                "set joins which round depends on the schedule",
                x.flag, x.mode, topo_.core_name(x.core), f.instrs[0], f.instrs[1]);
            // clang-format on
            v_.findings.push_back(f);
            for (auto& [key, c] : counters_)
                for (const auto& inc : c.incs)
                    if (std::find(inc.sources.begin(), inc.sources.end(), a) != inc.sources.end())
                        for (int w : c.waits) taint_from(w);
        }
    }

    // Liveness: an instruction executes iff all its predecessors do and, for a wait, it has a source.
    void judge_liveness() {
        for (bool changed = true; changed;) {
            changed = false;
            for (int i = 0; i < n_; ++i) {
                if (live(i)) continue;
                const bool is_wait = instr(i).kind == Kind::wait || instr(i).kind == Kind::cross_wait;
                if (is_wait && !is_matched(i) && !tainted(i)) continue;
                const auto& ps = g_.preds(i);
                if (std::all_of(ps.begin(), ps.end(), [&](int p) { return live(p); })) {
                    live_[static_cast<size_t>(i)] = 1;
                    changed = true;
                }
            }
        }
    }

    // An ambiguity between instructions of which one never executes (it sits behind a wait that is never
    // satisfied, in every schedule, or on a cycle) decides nothing: no schedule runs both. A counter is named
    // by its first unordered pair that may compete: two increments whose sources all execute, or two waits
    // that execute while some increment lands; a counter with none is not ambiguous.
    void drop_ambiguity_that_never_runs() {
        if (std::none_of(v_.findings.begin(), v_.findings.end(),
                         [](const Finding& f) { return f.kind == FindingKind::ambiguous; }))
            return;
        std::set<std::string> none_runs;  // unresolved counters none of whose pairs both execute
        for (Finding& f : v_.findings) {
            const auto it = unresolved_.find(f.what);
            if (f.kind != FindingKind::ambiguous || it == unresolved_.end()) continue;
            const Counter& c = *it->second;
            const bool some_lands = std::any_of(c.incs.begin(), c.incs.end(), [&](const Increment& inc) {
                return std::all_of(inc.sources.begin(), inc.sources.end(), [&](int i) { return runs(i); });
            });
            const auto& pairs = c.unordered;
            const auto u = std::find_if(pairs.begin(), pairs.end(), [&](const Counter::Unordered& x) {
                return std::all_of(x.needs.begin(), x.needs.end(), [&](int i) { return runs(i); }) &&
                       (!x.waits || some_lands);
            });
            if (u == pairs.end())
                none_runs.insert(f.what);
            else
                f = counter_finding(c, *u);
        }
        std::erase_if(v_.findings, [&](const Finding& f) {
            if (f.kind != FindingKind::ambiguous) return false;
            if (unresolved_.count(f.what)) return none_runs.count(f.what) != 0;
            return std::any_of(f.instrs.begin(), f.instrs.end(), [&](int id) {
                const auto it = index_of_.find(id);
                return it != index_of_.end() && !runs(it->second);
            });
        });
    }

    // Deadlock: a wait that never executes although everything ordering it before its set does. The match
    // edge's source may itself be dead: the wait is stuck, and it is a root when its own order predecessors
    // all run. True when there is one.
    bool find_deadlocks() {
        bool deadlock = false;
        for (int i = 0; i < n_; ++i) {
            if (runs(i) || (instr(i).kind != Kind::wait && instr(i).kind != Kind::cross_wait)) continue;
            bool order_live = true;
            const auto& ps = g_.preds(i);
            for (size_t k = 0; k < ps.size(); ++k)
                if (!g_.is_match(i, k)) order_live &= live(ps[k]);
            if (!order_live) continue;
            deadlock = true;
            const Instr& w = instr(i);
            Finding f;
            f.kind = FindingKind::deadlock;
            f.instrs = std::vector<int>{w.id};
            // clang-format off: one message, one string, to be found by grep
            f.message = fmt::format(
                "#{} on {} ({}) can never be satisfied: the set it needs never executes, so everything after "
                "it on its {} is stuck",
                // clang-format on
                w.id, topo_.core_name(w.core),
                w.kind == Kind::wait ? fmt::format("WaitFlag<{}>({})", event_name(w.event), w.event_id)
                                     : fmt::format("CrossCoreWaitFlag<{}>({})", w.mode, w.flag),
                w.blocking ? std::string("scalar unit") : fmt::format("pipe {}", pipe_name(w.pipe)));
            v_.findings.push_back(f);
        }
        return deadlock;
    }

    // Set twice: the k-th set must come after the wait that consumes the (k-1)-th.
    void find_sets_twice() {
        for (auto& [key, f] : flags_)
            for (size_t k = 1; k < f.sets.size(); ++k) {
                const int s = f.sets[k];
                if (!live(s) || tainted(s)) continue;
                if (k - 1 < f.waits.size() && live(f.waits[k - 1]) && g_.hb(f.waits[k - 1], s)) continue;
                Finding x;
                x.kind = FindingKind::set_twice;
                x.instrs = std::vector<int>{instr(s).id};
                x.what = detail::flag_key(topo_, f.core, f.e, f.id);
                x.message = fmt::format(
                    "SetFlag<{}>({}) #{} on {} may execute while the flag is still set by #{}: no WaitFlag "
                    "consumes the earlier set before it",
                    event_name(f.e), f.id, instr(s).id, topo_.core_name(f.core), instr(f.sets[k - 1]).id);
                v_.findings.push_back(x);
            }
    }

    // Races: conflicting accesses of two executed instructions with no path between them.
    void find_races() {
        auto claimed = [&](int i) { return live(i) && !tainted(i) && !instr(i).accesses.empty(); };
        for (int a = 0; a < n_; ++a) {
            if (!claimed(a)) continue;
            for (int b = a + 1; b < n_; ++b) {
                if (!claimed(b) || g_.ordered(a, b)) continue;
                for (const auto& x : instr(a).accesses) {
                    const auto hit = std::find_if(instr(b).accesses.begin(), instr(b).accesses.end(),
                                                  [&](const Access& y) { return conflict(x, y); });
                    if (hit == instr(b).accesses.end()) continue;
                    v_.findings.push_back(race(a, b, x, *hit));
                    break;
                }
            }
        }
    }
    // Where each read takes its bytes from (Verdict::reads_from). Asked only of a run with no finding: every
    // instruction executes and any two writes of a byte, or a write and a read of it, are ordered. A read's
    // bytes are cut at the edges of the writes before it; a piece is read from the writes covering it that
    // no non-atomic write covering it follows (one write, or atomic ones after it, which the read sees all
    // of).
    void find_reads_from() {
        struct Write {
            int instr;
            const Access* a;
        };
        std::vector<std::vector<Write>> writes;  // by memory (dense numbers)
        for (int i = 0; i < n_; ++i)
            if (live(i))
                for (const Access& a : instr(i).accesses)
                    if (a.write && a.mem >= 0) {
                        const auto m = static_cast<size_t>(a.mem);
                        if (m >= writes.size()) writes.resize(m + 1);
                        writes[m].push_back({i, &a});
                    }
        std::vector<Write> before;
        std::vector<uint32_t> cuts;
        for (int r = 0; r < n_; ++r) {
            if (!live(r)) continue;
            const std::vector<Access>& ra = instr(r).accesses;
            for (size_t ai = 0; ai < ra.size(); ++ai) {
                const Access& x = ra[ai];
                if (x.write) continue;
                before.clear();
                cuts.assign({x.begin, x.end});
                if (x.mem >= 0 && static_cast<size_t>(x.mem) < writes.size())
                    for (const Write& w : writes[static_cast<size_t>(x.mem)])
                        if (w.a->begin < x.end && x.begin < w.a->end && g_.hb(w.instr, r)) {
                            before.push_back(w);
                            cuts.push_back(std::max(w.a->begin, x.begin));
                            cuts.push_back(std::min(w.a->end, x.end));
                        }
                std::sort(cuts.begin(), cuts.end());
                cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
                for (size_t k = 0; k + 1 < cuts.size(); ++k) {
                    ReadFrom piece{instr(r).id, static_cast<int>(ai), cuts[k], cuts[k + 1], {}};
                    auto covers = [&](const Write& w) {
                        return w.a->begin <= piece.begin && piece.end <= w.a->end;
                    };
                    for (const Write& w : before) {
                        if (!covers(w)) continue;
                        const bool overwritten =
                            std::any_of(before.begin(), before.end(), [&](const Write& v) {
                                return covers(v) && !v.a->atomic && g_.hb(w.instr, v.instr);
                            });
                        if (!overwritten) piece.writers.push_back(instr(w.instr).id);
                    }
                    std::sort(piece.writers.begin(), piece.writers.end());
                    piece.writers.erase(std::unique(piece.writers.begin(), piece.writers.end()),
                                        piece.writers.end());
                    v_.reads_from.push_back(std::move(piece));
                }
            }
        }
        canonicalise(v_.reads_from);
        v_.reads_known = true;
    }

    Finding race(int a, int b, const Access& x, const Access& y) const {
        Finding f;
        f.kind = FindingKind::race;
        f.instrs = std::vector<int>{std::min(instr(a).id, instr(b).id), std::max(instr(a).id, instr(b).id)};
        f.mem = x.mem;
        f.begin = std::max(x.begin, y.begin);
        f.end = std::min(x.end, y.end);
        f.message = fmt::format(
            "{} race on memory {} bytes [{}, {}) between #{} ({} {}) and #{} ({} {}): no chain of flags, "
            "barriers or issue order orders them",
            x.write ? (y.write ? "WAW" : "RAW") : "WAR", f.mem, f.begin, f.end, instr(a).id,
            topo_.core_name(instr(a).core), pipe_name(instr(a).pipe), instr(b).id,
            topo_.core_name(instr(b).core), pipe_name(instr(b).pipe));
        return f;
    }

    // What is left at the end of a run that completes: intra-core flags set more often than waited, counters
    // with unconsumed increments, rounds that never fire.
    void find_leftovers() {
        for (auto& [key, f] : flags_) {
            const auto sets = static_cast<size_t>(
                std::count_if(f.sets.begin(), f.sets.end(), [&](int s) { return live(s); }));
            if (sets <= f.waits.size()) continue;
            Finding x;
            x.kind = FindingKind::flag_left;
            x.what = detail::flag_key(topo_, f.core, f.e, f.id);
            x.message = fmt::format("SetFlag<{}>({}) of {} is still set at the end ({} sets, {} waits)",
                                    event_name(f.e), f.id, topo_.core_name(f.core), sets, f.waits.size());
            v_.findings.push_back(x);
        }
        for (auto& [key, c] : counters_) {
            if (!c.resolved || c.incs.size() <= c.waits.size()) continue;
            Finding x;
            x.kind = FindingKind::counter_left;
            x.what = detail::counter_key(topo_, c.key);
            x.message = fmt::format("cross-core flag {} of {} holds {} unconsumed increment(s) at the end",
                                    c.key.flag, topo_.core_name(c.key.core), c.incs.size() - c.waits.size());
            v_.findings.push_back(x);
        }
        for (auto& f : round_left_) v_.findings.push_back(f);
    }

    const std::vector<Instr>& ins_;
    std::map<int, int> index_of_;  // instruction id -> index in ins_ (order_programs fills it)
    const Topology& topo_;
    const int n_;
    Learned& learned_;
    const bool learn_;
    bool retry_ = false;
    std::vector<int> never_found_;  // waits past the last increment of a resolved counter
    Graph g_;
    Verdict v_;
    std::map<std::tuple<int, Event, int>, Flag> flags_;
    std::vector<char> matched_;  // waits: 1 when a source was matched
    std::map<CounterKey, Counter> counters_;
    std::map<std::tuple<int, int, int>, Round> rounds_;
    std::map<CounterKey, std::vector<const Round*>> rounds_into_;  // the rounds that increment each counter
    std::vector<char> may_;
    std::map<int, std::vector<char>> may_before_;  // may_run_before's answers (the graph is fixed by then)
    std::vector<Finding> round_left_;
    std::set<EventPair> known_before_;
    std::vector<char> tainted_;
    std::map<std::string, const Counter*> unresolved_;  // by the finding's `what`
    std::vector<char> live_;
};

}  // namespace

Verdict decide(const Run& run, int max_attempts) {
    Learned learned;
    // Each attempt that learns a fact ends without a verdict and the next one starts from what was learned; a
    // few suffice. Past the cap, one last attempt learns nothing and its verdict stands, marked incomplete
    // when it still found something to learn: it rests on facts not yet learned, a give-up, never an
    // agreement.
    for (int attempt = 0; attempt < max_attempts; ++attempt)
        if (auto v = Decider(run, learned, true).decide()) return std::move(*v);
    return *Decider(run, learned, false).decide();
}

}  // namespace evg::explore
