// One core of a launch (an AIC or an AIV): its scalar unit, its pipe queues, its local memories, its flags.
// Kernel code reaches the core it runs on through current_core().
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "evg/hw/arch.hpp"
#include "evg/hw/checker.hpp"
#include "evg/hw/clock.hpp"
#include "evg/hw/cube_state.hpp"
#include "evg/hw/instruction.hpp"
#include "evg/hw/memory.hpp"
#include "evg/hw/numeric/types.hpp"
#include "evg/hw/report.hpp"
#include "evg/hw/sync_interceptor.hpp"
#include "evg/hw/sync_mutation.hpp"

namespace evg::hw {

class Machine;

namespace detail {
// Thrown to unwind a kernel thread that keeps calling the API after its launch was stopped.
struct CoreAbortTag {};
}  // namespace detail

enum class AtomicOp : uint8_t { none, add, max, min };

// The vector mask register of a core (docs/hardware-model.md §6.1): written by the scalar unit
// (SetVectorMask, SetMaskCount, SetMaskNorm, ResetMask, and the level-0 calls with isSetMask), read by each
// vector instruction when it is issued. Normal mode: bit i of (high:low) enables element i of every repeat.
// Counter mode: `low` is the total element count of the next instructions and their repeat count is derived.
struct VectorMask {
    bool counter = false;
    uint64_t high = ~uint64_t{0};
    uint64_t low = ~uint64_t{0};
};

struct PipeQueue {
    std::deque<std::unique_ptr<Instr>> queue;  // issued, not yet executed, in issue order
    uint32_t issued = 0;                       // epochs handed out
    VectorClock known;  // what every not-yet-executed instruction of this pipe happens-after, except those in
                        // `frozen`
    // Knowledge of queued instructions that a later wait of the pipe overtook (epoch -> knowledge): what an
    // instruction happens-after depends on its place in the pipe, not on when it executes, so it does not
    // learn what a wait issued after it learned.
    std::map<uint32_t, VectorClock> frozen;
};

// The executed waits of a flag or counter, as far as a deadlock message names them: how many, and the
// instructions of the first kFirstWaiters (the message names those and counts the rest).
struct WaitLog {
    static constexpr size_t kFirstWaiters = 8;
    uint64_t count = 0;                   // executed waits
    std::vector<uint64_t> first_waiters;  // the instructions of the first kFirstWaiters waits
    void add(uint64_t instr) {
        if (first_waiters.size() < kFirstWaiters) first_waiters.push_back(instr);
        ++count;
    }
};

// One-bit intra-core flag, kept as the sequence of its sets and waits (the k-th wait consumes the k-th set).
struct FlagState {
    struct Set {
        VectorClock clock;
        uint64_t instr;
    };
    std::deque<Set> pending;  // sets not yet consumed
    WaitLog waits;            // executed waits
    uint64_t sets = 0;        // executed sets
};

// A cross-core flag counter of one core.
struct CounterState {
    struct Increment {
        VectorClock clock;  // what the set (for a mode 0/1/2 round: every set of the round) knew
        uint64_t instr;     // the set that delivered it (for a round: the set that completed it)
    };
    std::deque<Increment> pending;  // increments not yet consumed
    WaitLog waits;                  // executed waits
    uint64_t increments = 0;
};

class Core final : private SyncIssuer {
  public:
    Core(Machine& m, int index, CoreType type, int block, int sub, int sub_num);

    Machine& machine() { return machine_; }
    const ArchSpec& arch() const;
    int index() const { return index_; }
    CoreType type() const { return type_; }
    int block() const { return block_; }
    int sub() const { return sub_; }
    int sub_num() const { return sub_num_; }
    const std::string& name() const { return name_; }
    // The name sync mutations use: "AIC<b>", "AIV<b>.<s>" in a mix launch, "AIV<v>" in an AIV-only launch.
    std::string short_name() const override;
    AgentId agent(Pipe p) const { return agent_of(index_, p); }
    bool owns(Pipe p) const;

    // The local memory of this core, or nullptr if this core type has none of that kind.
    Memory* local(MemKind k);

    // ---- Issue (called by the AscendC layer) ----
    // Queues an instruction on its pipe. The instruction must already carry op, site, accesses and exec.
    void issue(std::unique_ptr<Instr> instr);
    // Runs an access of the scalar unit now (GetValue/SetValue), after checking it like any instruction.
    void scalar(std::unique_ptr<Instr> instr);
    void set_flag(HardEvent e, int id, Site site);
    void wait_flag(HardEvent e, int id, Site site);
    void pipe_barrier(Pipe p, Site site);
    void cross_core_set(uint8_t mode, Pipe p, uint16_t flag, Site site);
    void cross_core_wait(uint8_t mode, Pipe p, uint16_t flag, Site site);
    void set_atomic(AtomicOp op, DType t, Site site);
    // DataCacheCleanAndInvalid: GM bytes this core's scalar unit wrote are written back from its data cache.
    // `entire`: the whole cache (ENTIRE_DATA_CACHE); else the bytes [begin, end) of `mem` (none when null).
    void dcache_clean(bool entire, Memory* mem, uint64_t begin, uint64_t end, std::string_view op, Site site);
    AtomicOp atomic_op() const { return atomic_; }
    // The cube unit's mode registers and unitFlag bits (AIC); unit_flag issues the implicit SetFlag (set) or
    // WaitFlag<e>(kUnitFlagId) that carries one unitFlag hand-over between PIPE_M and PIPE_FIX.
    CubeState& cube() { return cube_; }
    void unit_flag(bool set, HardEvent e, Site site);
    // The vector mask register (one per core, in program order of the scalar unit).
    VectorMask& vector_mask() { return vector_mask_; }
    DType atomic_dtype() const { return atomic_dtype_; }

    // The graph node the core runs (evg::ascendc::NodeScope): every instruction registered meanwhile carries
    // it. enter_node makes `label` current and returns the previous node, which leave_node restores.
    int32_t enter_node(std::string_view label);
    void leave_node(int32_t previous) { node_ = previous; }
    int32_t node() const { return node_; }

    // Records a violation found while issuing or executing on this core.
    void violate(ViolationKind k, std::string message, std::vector<Location> locs = {},
                 Severity sev = Severity::error);
    Location location(const Instr& i, const Access* a = nullptr) const;
    Location site_location(std::string op, Site site) const;

    bool aborting() const override { return aborting_; }

    // The interceptor of the sync mutations that name this core (made on first use; sync_interceptor.hpp).
    SyncInterceptor& interceptor(MutationPlan& plan);
    // The sync calls the program made so far.
    int sync_calls() const { return sync_count_; }
    // The program call the instruction being issued belongs to (what the trace records).
    CallTag call_tag() const { return call_; }

  private:
    friend class Machine;
    Machine& machine_;
    int index_;
    CoreType type_;
    int block_, sub_, sub_num_;
    std::string name_;
    std::map<MemKind, std::unique_ptr<Memory>> local_;
    std::array<PipeQueue, kPipeSlots> pipes_;
    // Scalar unit: its knowledge, shared copy-on-write with the instructions it issues.
    VectorClock s_known_;
    std::shared_ptr<const VectorClock> s_snapshot_;
    uint32_t s_epoch_ = 0;
    std::map<std::pair<int, int>, FlagState> flags_;        // (HardEvent, id)
    std::map<std::pair<int, int>, CounterState> counters_;  // (namespace: 0 = modes 0-2, 4 = mode 4; flag id)
    // The CrossCoreWaitFlag the scalar unit is blocked in, if any (a deadlock names who took its increment).
    const Instr* blocked_cross_wait_ = nullptr;
    AtomicOp atomic_ = AtomicOp::none;
    CubeState cube_;
    VectorMask vector_mask_;
    DType atomic_dtype_ = DType::f32;
    Site atomic_site_;
    bool aborting_ = false;
    uint64_t calls_after_abort_ = 0;
    int32_t node_ = -1;        // index into Machine's node labels; -1: no graph node
    uint64_t last_instr_ = 0;  // the instruction this core registered last (it may still be in flight: a
                               // blocked scalar wait), kept described when the trace is not

    // Stream positions and sync indices, counted over the program's own calls (see TraceEntry::stream).
    uint32_t stream_ = 0;
    int32_t sync_count_ = 0;
    CallTag call_;  // what register_instr records for the instruction being issued
    std::unique_ptr<SyncInterceptor> interceptor_;  // null: no sync mutation names this core

    std::shared_ptr<const VectorClock> scalar_snapshot();
    void s_learn(const VectorClock& c);
    // Checks a SetFlag/WaitFlag; false when the call compiles to nothing. An id outside 0..max_event_id is
    // reported and replaced by the id the hardware uses (its bits [2:0]).
    bool check_event(HardEvent e, int& id, Site site, const char* what);
    bool abort_guard();  // true when this call must do nothing
    // Numbers an instruction of the scalar unit, which runs now and in order; false when over budget.
    bool on_scalar(Instr& in);
    std::unique_ptr<Instr> make(Pipe p, InstrKind k, std::string_view op, Site site);

    // Program calls: begin_call numbers the call (stream position, and sync index when `sync`), the
    // interceptor first issuing any moved SetFlag due before this position; end_call lets it release moved
    // WaitFlags whose distance ran out.
    CallTag begin_call(bool sync, Site site);
    void end_call();
    void finish_kernel();  // the kernel body returned: moved WaitFlags still pending are issued now
    // Queues an instruction on its pipe (numbered by the current tags).
    void push(std::unique_ptr<Instr> in);
    void do_set(HardEvent e, int id, Site site);
    void do_wait(HardEvent e, int id, Site site);
    void do_barrier(Pipe p, Site site);
    void do_cross_set(uint8_t mode, Pipe p, uint16_t flag, Site site);
    void do_cross_wait(uint8_t mode, Pipe p, uint16_t flag, Site site);
    // SyncIssuer: what the interceptor issues, tagged as the call it stands for.
    void issue_set(HardEvent e, int id, Site site, CallTag tag, bool check) override;
    void issue_wait(HardEvent e, int id, Site site, CallTag tag, bool check) override;
    void issue_barrier(Pipe p, Site site, CallTag tag) override;
    void issue_pair(HardEvent e, int id, Site site, CallTag tag) override;
    void issue_cross_set(uint8_t mode, Pipe p, uint16_t flag, Site site, CallTag tag, bool check) override;
    void issue_cross_wait(uint8_t mode, Pipe p, uint16_t flag, Site site, CallTag tag, bool check) override;
    // Runs `issue` with the instructions it registers tagged `tag`.
    template <class F>
    void tagged(CallTag tag, F&& issue) {
        const CallTag saved = call_;
        call_ = tag;
        issue();
        call_ = saved;
    }
    bool barrier_legal(Pipe p, Site site);
};

// The core the calling kernel thread runs on. Throws evg::hw::HostError outside a kernel.
Core& current_core();
Core* current_core_or_null();

}  // namespace evg::hw
