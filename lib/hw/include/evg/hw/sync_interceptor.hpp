// Sync mutations as they are applied: an interceptor in front of a core's sync calls. The core numbers each
// program call (its stream position and, for a sync call, its sync index; TraceEntry::stream, sync_index)
// and, when a mutation of the launch's plan names it, hands the call to its interceptor instead of issuing
// it: the interceptor issues what the mutation makes of it (nothing, the call twice, another id or event, the
// call later or earlier, an inserted barrier or pair) through the core's SyncIssuer interface, tagged as the
// call it stands for. A core no mutation names has no interceptor and issues its calls directly.
//
// The plan's bookkeeping (which mutation found its call, why one did not) is the launch's MutationPlan, which
// every interceptor of the launch reports to.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "evg/hw/arch.hpp"
#include "evg/hw/site.hpp"
#include "evg/hw/sync_mutation.hpp"
#include "evg/hw/trace.hpp"

namespace evg::hw {

// What the trace records for an instruction being issued: the program call it belongs to.
struct CallTag {
    uint32_t stream = 0;  // the call's stream position, 1-based
    int32_t sync = -1;    // the call's sync index; -1: no sync call of the program's (an inserted call)
};

// How an interceptor issues on its core: each call unmutated, tagged, after the checks the core makes of
// such a call (`check`: the event's legality, as for a call of the program; false where the call was
// checked already).
class SyncIssuer {
  public:
    virtual void issue_set(HardEvent e, int id, Site site, CallTag tag, bool check) = 0;
    virtual void issue_wait(HardEvent e, int id, Site site, CallTag tag, bool check) = 0;
    virtual void issue_barrier(Pipe p, Site site, CallTag tag) = 0;  // checked: a barrier on S is refused
    // SetFlag<e>(id) then WaitFlag<e>(id), when the event is legal (checked once, as for one call).
    virtual void issue_pair(HardEvent e, int id, Site site, CallTag tag) = 0;
    virtual void issue_cross_set(uint8_t mode, Pipe p, uint16_t flag, Site site, CallTag tag, bool check) = 0;
    virtual void issue_cross_wait(uint8_t mode, Pipe p, uint16_t flag, Site site, CallTag tag,
                                  bool check) = 0;
    virtual std::string short_name() const = 0;  // "AIV0.1", as mutations name cores
    virtual bool aborting() const = 0;

  protected:
    ~SyncIssuer() = default;
};

// The launch's plan (Config::mutations) and what became of each mutation.
class MutationPlan {
  public:
    explicit MutationPlan(const std::vector<SyncMutation>& plan);
    const std::vector<SyncMutation>& mutations() const { return plan_; }
    // Mutation i found its call (`part` 1: the call, or the set of a drop_pair; 2: the wait of a drop_pair).
    void applied(int i, uint8_t part = 1);
    // Mutation i found a call of the wrong kind, or names no core of the launch (the first reason is kept).
    void mismatch(int i, std::string reason);
    // "<mutation>: <why>" for each mutation that did not find every call it rewrites; `sync_calls(name)`
    // gives how many sync calls the named core made.
    template <class SyncCalls>
    std::vector<std::string> unapplied(SyncCalls&& sync_calls) const;

  private:
    const std::vector<SyncMutation>& plan_;
    std::vector<uint8_t> applied_;
    std::vector<std::string> reason_;
    std::string unapplied_reason(size_t i, int sync_calls) const;
};

template <class SyncCalls>
std::vector<std::string> MutationPlan::unapplied(SyncCalls&& sync_calls) const {
    std::vector<std::string> out;
    for (size_t i = 0; i < plan_.size(); ++i) {
        const uint8_t need = plan_[i].op == SyncOp::drop_pair ? 3 : 1;
        if ((applied_[i] & need) == need) continue;
        out.push_back(unapplied_reason(i, reason_[i].empty() ? sync_calls(plan_[i].core) : 0));
    }
    return out;
}

// The mutations of one core, applied to its calls as they come.
class SyncInterceptor {
  public:
    explicit SyncInterceptor(MutationPlan& plan) : plan_(plan) {}
    // Mutation i of the plan names this core.
    void add(int i);

    // Before the call at stream position `pos`: the moved sets due there are issued first.
    void before_call(SyncIssuer& core, uint32_t pos, Site site);
    // After a call: moved waits whose distance ran out are issued.
    void after_call(SyncIssuer& core);
    // The kernel body returned: moved waits still pending are issued.
    void finish(SyncIssuer& core);

    // The program's sync calls, numbered `tag` (already checked as calls of the program).
    void set_flag(SyncIssuer& core, CallTag tag, HardEvent e, int id, Site site);
    void wait_flag(SyncIssuer& core, CallTag tag, HardEvent e, int id, Site site);
    void pipe_barrier(SyncIssuer& core, CallTag tag, Pipe p, Site site);
    void cross_core_set(SyncIssuer& core, CallTag tag, uint8_t mode, Pipe p, uint16_t flag, Site site);
    void cross_core_wait(SyncIssuer& core, CallTag tag, uint8_t mode, Pipe p, uint16_t flag, Site site);

  private:
    MutationPlan& plan_;
    std::map<int, std::vector<int>> at_sync_;  // sync index -> the mutations that name it
    std::vector<int> early_sets_;              // move_set mutations
    std::vector<int> early_done_;              // those already issued at their `at`
    struct Deferred {                          // a moved WaitFlag waiting for its `by` calls
        int left;
        HardEvent event;
        int id;
        Site site;
        CallTag tag;
    };
    std::vector<Deferred> deferred_;
    std::optional<Deferred> deferring_;  // the moved wait of the current call (counted from the next call)

    // Applies the mutations at sync index tag.sync of a call of kind `kind` (inserted calls first). Returns
    // the mutation that rewrites the call itself, or nullptr when it is issued unchanged.
    const SyncMutation* mutate(SyncIssuer& core, CallTag tag, InstrKind kind, Site site,
                               HardEvent e = HardEvent::MAX, int id = -1);
};

}  // namespace evg::hw
