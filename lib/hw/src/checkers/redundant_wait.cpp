// Redundant-wait checker (opt-in, "redundant-waits"): a SetFlag/WaitFlag pair that orders nothing and can go.
// The pair costs a set, a wait and a flag id, and on the hardware the wait stalls its pipe until the set
// arrives; the order it was written for is already given by another edge. A cost, not a fault, so the checker
// is off unless switched on by name; switched on, its findings count like any other (the run is not clean:
// it was asked for).
//
// A pair of call sites (wait site W, set site T) is reported when removing both changes nothing:
// - in every execution of W, its pipe already happened-after the set it consumed and everything that set
//   knew (joining the set's clock adds nothing);
// - every set W consumed came from T, and every set of T that was consumed went to W (so the flag's balance
//   holds without them: a set site whose last set a clean-up wait consumes, as a double-buffered loop's
//   release is, is not reported);
// - the set is not issued by the scalar unit (S_* events): the model orders the scalar unit before what it
//   issues later, which the hardware does not promise for scalar stores, so a wait on such a set is never
//   called redundant;
// - W runs at least twice on one core (a loop's handshake): a pair that runs once per kernel is the set-up
//   and tear-down of a protocol (a double buffer's second set, unused by a one-tile problem, is set in the
//   constructor and consumed in the destructor), costs one set and one wait, and depends on the problem size.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

#include "evg/hw/checker.hpp"
#include "evg/hw/cube_state.hpp"

namespace evg::hw {

namespace {

class RedundantWaitChecker final : public Checker {
  public:
    explicit RedundantWaitChecker(CheckerHost& host) : host_(host) {}
    unsigned events() const override { return kSync | kKernelEnd | kClocks; }

    void on_sync(const SyncEvent& e) override {
        if (e.kind != SyncKind::flag_wait || e.in->event_id == kUnitFlagId)
            return;  // unitFlag: the hardware's
        if (event_src(e.in->event) == Pipe::S) return;
        const TraceEntry* wait = host_.traced(e.in->id);
        const TraceEntry* set = host_.traced(e.matched);
        if (!wait || !set) return;
        auto [it, added] = index_.try_emplace({wait->op_site, set->op_site}, pairs_.size());
        if (added) pairs_.push_back({*wait, *set, 0, 0, {}, 0});
        Pair& p = pairs_[it->second];
        ++p.executions;
        p.most_on_one_core = std::max(p.most_on_one_core, ++p.per_core[e.core]);
        p.redundant += e.clock->includes(*e.matched_clock);
        ++waits_at_[wait->op_site];
        ++sets_at_[set->op_site];
    }

    void on_kernel_end(const KernelEndEvent&) override {
        for (const Pair& p : pairs_) {
            if (p.redundant != p.executions || p.most_on_one_core < 2 ||
                waits_at_[p.wait.op_site] != p.executions || sets_at_[p.set.op_site] != p.executions)
                continue;
            const std::string pipe(pipe_name(p.wait.pipe));
            host_.violate(
                {ViolationKind::redundant_wait,
                 Severity::error,
                 fmt::format(
                     "{} #{} on PIPE_{} of {} (issued at {}) orders nothing: in each of its {} "
                     "execution(s) PIPE_{} already happened-after the {} it consumed (#{} on PIPE_{}, "
                     "issued at {}) and everything that set knew, and no other set or wait uses these two "
                     "call sites: the pair costs a set, a wait and a flag id, and can go",
                     p.wait.op(), p.wait.id, pipe, host_.core_name(p.wait.core), p.wait.site().str(),
                     p.executions, pipe, p.set.op(), p.set.id, pipe_name(p.set.pipe), p.set.site().str()),
                 {location_of(host_, p.set), location_of(host_, p.wait)},
                 p.executions});
        }
    }

  private:
    struct Pair {
        TraceEntry wait, set;  // their first execution
        uint64_t executions = 0, redundant = 0;
        std::map<int, uint64_t> per_core;  // executions per core
        uint64_t most_on_one_core = 0;
    };
    CheckerHost& host_;
    std::vector<Pair> pairs_;                                // in the order of their first execution
    std::map<std::pair<uint32_t, uint32_t>, size_t> index_;  // (wait op_site, set op_site) -> pairs_
    std::map<uint32_t, uint64_t> waits_at_,
        sets_at_;  // executed waits per wait site, consumed sets per set site
};

}  // namespace

std::unique_ptr<Checker> make_redundant_wait_checker(CheckerHost& host) {
    return std::make_unique<RedundantWaitChecker>(host);
}

}  // namespace evg::hw
