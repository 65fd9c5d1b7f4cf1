// One core of a launch (an AIC or an AIV): its scalar unit, its pipe queues, its local memories, its flags.
// Kernel code reaches the core it runs on through current_core().
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "evg/hw/arch.hpp"
#include "evg/hw/checker.hpp"
#include "evg/hw/clock.hpp"
#include "evg/hw/core_state.hpp"
#include "evg/hw/cube_state.hpp"
#include "evg/hw/instruction.hpp"
#include "evg/hw/memory.hpp"
#include "evg/hw/numeric/types.hpp"
#include "evg/hw/report.hpp"
#include "evg/hw/sync_interceptor.hpp"
#include "evg/hw/sync_mutation.hpp"
#include "evg/hw/uninit_fill.hpp"

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

// What a core asks of the launch it runs in: numbering and recording its instructions, telling the checkers,
// scheduling, flag matching and the calls' legality where it depends on the launch. Machine implements it
// (privately: nothing else calls these) and hands it to each core it makes.
class CoreHost {
  public:
    // Numbers an instruction and records it; false when the instruction budget is exhausted.
    virtual bool register_instr(Instr& in) = 0;
    virtual void notify_issue(Core& c, const Instr& in) = 0;
    virtual void notify_execute(Core& c, const Instr& in, const VectorClock& known) = 0;
    virtual void notify_sync(const SyncEvent& e) = 0;
    virtual void after_issue(Core& c) = 0;  // gives the scheduler a chance to execute
    // Blocks the core's scalar unit until `ready()` holds; `what` describes the wait for deadlock reports.
    virtual void block_until(Core& c, const std::function<bool()>& ready, const std::string& what) = 0;
    virtual void violate(Violation v) = 0;
    // The index of a graph node's label in the launch's node labels, added on first use.
    virtual int32_t intern_node(std::string_view label) = 0;
    // Executes a SetFlag whose completion clock is `clock`.
    virtual void flag_set(Core& c, const Instr& in, const VectorClock& clock) = 0;
    // Consumes the oldest set of the flag `in` waits on; adds what the set knew to `learned`. `before`: what
    // the wait knew.
    virtual void flag_wait(Core& c, const Instr& in, VectorClock& learned, const VectorClock& before) = 0;
    virtual void counter_wait(Core& c, const Instr& in, VectorClock& learned) = 0;
    // Delivers a CrossCoreSetFlag whose completion clock is `clock` to the cores its mode names.
    virtual void deliver_cross(Core& setter, const Instr& set, const VectorClock& clock) = 0;
    // Checks a cross-core set or wait; false when it does nothing. A flag id above the mode's range is
    // reported and replaced by the id the hardware uses. wait: the call is a CrossCoreWaitFlag.
    virtual bool cross_core_legal(Core& c, uint8_t mode, Pipe p, uint16_t& flag, Site site,
                                  const std::string& op, bool wait) = 0;

  protected:
    ~CoreHost() = default;
};

class Core final : private SyncIssuer {
  public:
    // `host` is `m` seen as what a core asks of it; `state` is this core's pipes and flags, which `m` owns.
    Core(Machine& m, CoreHost& host, CoreState& state, int index, CoreType type, int block, int sub,
         int sub_num);

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
    Site atomic_site() const { return atomic_site_; }  // the SetAtomic call that set atomic_op()
    // The cube unit's mode registers and unitFlag bits (AIC); unit_flag issues the implicit SetFlag (set) or
    // WaitFlag<e>(kUnitFlagId) that carries one unitFlag hand-over between PIPE_M and PIPE_FIX.
    CubeState& cube() { return cube_; }
    // The instruction this core registered last, and the epoch of the last one issued on pipe `p`.
    uint64_t last_instr() const { return state_.last_instr; }
    uint32_t issued_epoch(Pipe p) const;
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
    // `rules`: rule bits (rules.hpp) the finding rests on besides its kind's.
    void violate(ViolationKind k, std::string message, std::vector<Location> locs = {},
                 Severity sev = Severity::error, uint64_t rules = 0);
    Location location(const Instr& i, const Access* a = nullptr) const;
    Location site_location(std::string op, Site site) const;
    // Reports `uninit_value` when `value` is the model's fill (uninit_fill.hpp): parameter `param` of `op`,
    // read from memory the kernel never initialised. `callee` and `arg` name the argument in the site's
    // source line, so that the message can quote the variable. Returns whether it reported.
    template <class T>
    bool check_initialised(T value, std::string_view param, const std::string& op, Site site,
                           std::string_view callee, size_t arg) {
        if (!is_uninit_fill(value)) return false;
        report_uninit_value(param, static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(value)), op,
                            site, callee, arg);
        return true;
    }
    void report_uninit_value(std::string_view param, uint64_t value, const std::string& op, Site site,
                             std::string_view callee, size_t arg);

    // A load of GM bytes nobody wrote (no host copy or set, no kernel store) into this core's memory: what an
    // uninit finding of the core names as its cause (the AscendC layer's copies note them; the first load of
    // each GM buffer to each destination is kept, up to kUninitLoads of them).
    struct UninitLoad {
        const Memory* gm = nullptr;
        uint64_t gm_begin = 0, gm_end = 0;  // the never-written bytes the load read: first to last
        uint64_t unwritten = 0;             // how many of them were never written
        bool none_written = false;          // no byte of the whole buffer was ever written
        const Memory* dst = nullptr;
        uint64_t dst_begin = 0, dst_end = 0;  // where the whole load went
        uint64_t instr = 0;
        std::string op;
        Site site;
    };
    static constexpr size_t kUninitLoads = 8;
    void note_uninit_load(UninitLoad load);
    const std::vector<UninitLoad>& uninit_loads() const { return uninit_loads_; }

    bool aborting() const override { return state_.aborting; }
    // What the scalar unit knows (it has issued, or learned from the waits it ran).
    const VectorClock& scalar_known() const { return s_known_; }
    // No checker of the launch reads clocks (Checker::kClocks): the core's stay empty, and its instructions
    // carry no snapshot (`issued` null).
    void keep_no_clocks();

    // Runs the kernel body on this core; then the moved WaitFlags still pending are issued.
    void run_kernel(const std::function<void()>& kernel);

    // The interceptor of the sync mutations that name this core (made on first use; sync_interceptor.hpp).
    SyncInterceptor& interceptor(MutationPlan& plan);
    // The sync calls the program made so far.
    int sync_calls() const { return sync_count_; }
    // The program call the instruction being issued belongs to (what the trace records).
    CallTag call_tag() const { return call_; }

  private:
    std::vector<UninitLoad> uninit_loads_;
    Machine& machine_;
    CoreHost& host_;
    CoreState& state_;
    int index_;
    CoreType type_;
    int block_, sub_, sub_num_;
    std::string name_;
    std::map<MemKind, std::unique_ptr<Memory>> local_;
    // Scalar unit: its knowledge, shared copy-on-write with the instructions it issues.
    VectorClock s_known_;
    std::shared_ptr<const VectorClock> s_snapshot_;
    bool clocks_ = true;  // keep_no_clocks
    AtomicOp atomic_ = AtomicOp::none;
    CubeState cube_;
    VectorMask vector_mask_;
    DType atomic_dtype_ = DType::f32;
    Site atomic_site_;
    uint64_t calls_after_abort_ = 0;
    int32_t node_ = -1;  // index into Machine's node labels; -1: no graph node

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
