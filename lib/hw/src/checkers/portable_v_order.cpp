// Portable V order (opt-in, "portable-v-order"): two dependent vector instructions of one core with nothing
// that orders them but Ascend950's in-order V pipe. On Ascend950 the pair is correct (PIPE_V keeps order,
// docs/hardware-model.md §1); on AtlasA2, whose V pipe does not, the same code races, which is why upstream's
// rule asks a multi-step functor for PipeBarrier<PIPE_V>. Switched on, the checker reports such a pair on
// Ascend950 as the race it would be on AtlasA2; on AtlasA2 it says nothing (the race checker reports the
// race).
//
// What orders an earlier V instruction E before a later one L of the same core, as on a chip whose V pipe
// keeps no order (what the engine's clocks do on AtlasA2):
// - a PipeBarrier<PIPE_V> issued between them (seen when it is issued: the V pipe's order is issue order);
// - a WaitFlag on PIPE_V between them whose set happens-after E (E -> set -> wait -> L);
// - the scalar unit knowing E complete when it issued L (PipeBarrier<PIPE_ALL>, a WaitFlag on PIPE_S of a
//   set that followed E): L's issue-time snapshot covers E.
// Each of these moves a cut: every V instruction of the core at or below the cut is ordered before every
// later one. A cross-core round trip that returns to the same core's V pipe is not followed (it would have to
// be written on purpose; the checker would report its pair).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_map>

#include "evg/hw/call_chain.hpp"
#include "evg/hw/checker.hpp"
#include "evg/hw/memory.hpp"
#include "evg/hw/race_shadow.hpp"

namespace evg::hw {

namespace {

class PortableVOrderChecker final : public Checker {
  public:
    explicit PortableVOrderChecker(CheckerHost& host) : host_(host) {}
    unsigned events() const override { return kIssue | kExecute | kSync | kClocks; }

    void on_issue(const IssueEvent& e) override {
        if (!host_.arch().v_pipe_ordered || e.in.pipe != Pipe::V || e.in.kind != InstrKind::barrier) return;
        // Every V instruction below the barrier is ordered before every one above it.
        core(e.core).pending[e.in.epoch] = std::max(core(e.core).pending[e.in.epoch], e.in.epoch);
    }

    void on_sync(const SyncEvent& e) override {
        if (!host_.arch().v_pipe_ordered || e.kind != SyncKind::flag_wait || !e.in || e.in->pipe != Pipe::V ||
            !e.matched_clock)
            return;
        const uint32_t cut = e.matched_clock->get(agent_of(e.core, Pipe::V));
        uint32_t& p = core(e.core).pending[e.in->epoch];
        p = std::max(p, cut);
    }

    void on_execute(const ExecuteEvent& e) override {
        if (!host_.arch().v_pipe_ordered || e.in.pipe != Pipe::V) return;
        PerCore& c = core(e.core);
        // The cuts of what ran before this instruction on the (in-order) V pipe.
        for (auto it = c.pending.begin(); it != c.pending.end() && it->first < e.in.epoch;) {
            c.cut = std::max(c.cut, it->second);
            it = c.pending.erase(it);
        }
        if (e.in.issued) c.cut = std::max(c.cut, e.in.issued->get(e.agent));
        const uint32_t cut = c.cut;
        const AgentId me = e.agent;
        auto ordered = [&](const Epoch& x) { return x.agent != me || x.epoch <= cut; };
        const AccessRecord rec{{e.agent, e.in.epoch}, e.in.id, false};
        for (const Access& a : e.in.accesses) {
            if (!a.mem || a.begin >= a.end || a.mem->kind() != MemKind::UB) continue;
            conflicts_.clear();
            c.shadows[a.mem->uid()].access(a.begin, a.end, a.write, rec, ordered, conflicts_);
            for (const Conflict& k : conflicts_) report(e, a, k);
        }
    }

    void live_instrs(std::vector<uint64_t>& out) const override {
        for (const auto& [core, c] : cores_)
            for (const auto& [uid, s] : c.shadows) s.instrs(out);
    }

  private:
    struct PerCore {
        uint32_t cut = 0;                      // V epochs at or below it are ordered before what runs next
        std::map<uint32_t, uint32_t> pending;  // V epoch of a barrier or wait -> the cut it makes after it
        std::unordered_map<uint32_t, RaceShadow> shadows;  // by Memory::uid(): the core's V accesses to UB
    };
    PerCore& core(int c) { return cores_[c]; }

    void report(const ExecuteEvent& e, const Access& a, const Conflict& k) {
        const TraceEntry* first = host_.traced(k.earlier.instr);
        if (!first) return;
        const char* shape = a.write ? (k.earlier_is_write ? "WAW" : "WAR") : "RAW";
        const std::string first_op(first->op()), first_site = first->site().str();
        // Where the barrier goes: after the first instruction's line, or, when a library issued it (a Catlass
        // operation the user's functor called), after the user's line that called the library.
        std::string barrier_site = first_site;
        if (site_owner(first->site()) != SiteOwner::user)
            if (std::string user = first_user_site(host_.chain_of(first->id)); !user.empty())
                barrier_site = std::move(user);
        host_.violate(
            {ViolationKind::v_order_unportable,
             Severity::error,
             fmt::format(
                 "{} on {} bytes [{}, {}) between V {} #{} {} (issued at {}) and V {} #{} {} (issued at "
                 "{}) of {}: nothing orders them but Ascend950's in-order V pipe, so the code is right "
                 "here and races on AtlasA2, whose V pipe keeps no order; a PipeBarrier<PIPE_V>() "
                 "after {} makes it portable",
                 shape, a.mem->name(), k.begin, k.end, k.earlier_is_write ? "write" : "read", k.earlier.instr,
                 first_op, first_site, a.write ? "write" : "read", e.in.id, e.in.op, e.in.site.str(),
                 host_.core_name(e.core), barrier_site),
             {location_of(host_, *first), location_of(e.core, host_.core_name(e.core), e.in, &a)},
             1});
    }

    CheckerHost& host_;
    std::map<int, PerCore> cores_;
    std::vector<Conflict> conflicts_;  // scratch, reused
};

}  // namespace

std::unique_ptr<Checker> make_portable_v_order_checker(CheckerHost& host) {
    return std::make_unique<PortableVOrderChecker>(host);
}

}  // namespace evg::hw
