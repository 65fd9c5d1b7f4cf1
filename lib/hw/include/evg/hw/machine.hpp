// One kernel launch: the cores, their fibers, the scheduler that runs pipe queues, flag matching, and the
// events it tells the checkers (checker.hpp).
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "evg/hw/checker.hpp"
#include "evg/hw/config.hpp"
#include "evg/hw/core.hpp"
#include "evg/hw/report.hpp"

namespace evg::hw {

namespace detail {
class Fiber;
}

class Device;

// Names the graph node of an instruction issued outside any evg::ascendc::NodeScope: upstream Catlass's
// visitors, which evgcheck runs unchanged, open none. The AscendC layer's namer (lib/ascendc/src/
// upstream_nodes.cpp) reads the node kind from the Catlass file that issued it; an empty label: no node.
using NodeNamer = std::string (*)(const Instr& in);
void set_node_namer(NodeNamer namer);

class Machine final : private CheckerHost, private CoreHost {
  public:
    Machine(Device& dev, const Config& cfg, int block_dim, KernelType type);
    ~Machine();
    Machine(const Machine&) = delete;
    Machine& operator=(const Machine&) = delete;

    // Runs `kernel` on every core (each core runs it with its own identity) to completion or deadlock.
    Report run(const std::function<void()>& kernel);

    const Config& config() const override { return cfg_; }
    const ArchSpec& arch() const override { return arch_spec(cfg_.arch); }
    Device& device() { return dev_; }
    int block_dim() const { return block_dim_; }
    KernelType kernel_type() const { return type_; }
    size_t agents() const { return cores_.size() * kPipeSlots; }
    Core& core(int i) { return *cores_[static_cast<size_t>(i)]; }
    int core_count() const { return static_cast<int>(cores_.size()); }
    // Every issued instruction, when Config::keep_trace (else empty).
    const Trace& trace() const { return trace_; }
    Trace take_trace() { return std::move(trace_); }
    // The description of instruction `id`: from the trace, or, without one, from the records the checkers'
    // state still names (nullptr for id 0).
    const TraceEntry* traced(uint64_t id) const override;
    // The most instruction records held at once: the trace's length with Config::keep_trace; without it, the
    // high-water mark of the retained records, which does not grow with the instruction count.
    uint64_t records_peak() const { return cfg_.keep_trace ? trace_.size() : records_peak_; }
    Core* aic_of(int block);
    Core* aiv_of(int block, int sub);
    // The labels of the graph nodes that issued instructions, interned (TraceEntry::node indexes them).
    const std::vector<std::string>& node_labels() const { return node_labels_; }

    // For a signal that ends the process while this launch runs (fault_watch.hpp): the report of the launch
    // with the finding for a fault in the running core's code (`what` names the signal and its address), and
    // one line per core saying where it is, for a stop.
    Report fault_report(const std::string& what);
    std::vector<std::string> where_cores_are() const;

    // Whether a checker wants what results hold (an instruction that tests its results tells it then).
    bool wants_results() const { return !on_result_.empty(); }
    void notify_result(const ResultEvent& e);
    void notify_move(const MoveEvent& e);

  private:
    // ---- CoreHost: what the cores ask (core.hpp) ----
    bool register_instr(Instr& in) override;
    void after_issue(Core& c) override;
    void block_until(Core& c, const std::function<bool()>& ready, const std::string& what) override;
    // Records a violation (for the cores and the checkers); each location of an instruction gets that
    // instruction's node label.
    void violate(Violation v) override;
    int32_t intern_node(std::string_view label) override;
    void notify_issue(Core& c, const Instr& in) override;
    void notify_execute(Core& c, const Instr& in, const VectorClock& known) override;
    void notify_sync(const SyncEvent& e) override;
    void deliver_cross(Core& setter, const Instr& set, const VectorClock& clock) override;
    // A flag id above the mode's range is replaced by the id the hardware uses (its low 4 bits; 5 for the
    // AIC's mode-4 flags). A CrossCoreWaitFlag's pipe may be S, the default, in any mode.
    bool cross_core_legal(Core& c, uint8_t mode, Pipe p, uint16_t& flag, Site site, const std::string& op,
                          bool wait) override;
    // Checks that the flag cannot still be set (through the checkers).
    void flag_set(Core& c, const Instr& in, const VectorClock& clock) override;
    void flag_wait(Core& c, const Instr& in, VectorClock& learned, const VectorClock& before) override;
    void counter_wait(Core& c, const Instr& in, VectorClock& learned) override;

    // ---- CheckerHost ----
    const std::string& core_name(int core) const override;
    CoreType core_type(int core) const override;
    // ", node <label>" for a message naming an instruction of that node; empty for -1.
    std::string node_suffix(int32_t node) const override;
    uint32_t chain_of(uint64_t id) const override { return id < chains_.size() ? chains_[id] : 0; }
    void record_fp_counts(FpCounts counts) override { fp_counts_ = std::move(counts); }

    // The checkers of this launch (checker.hpp), told of every event in the registry's order.
    std::vector<std::unique_ptr<Checker>> checkers_;
    std::vector<Checker*> on_issue_, on_execute_, on_sync_, on_result_;  // the checkers that want each event
    FpCounts fp_counts_;
    Device& dev_;
    Config cfg_;
    int block_dim_;
    KernelType type_;
    // Each core's pipes and flags (core_state.hpp), indexed like cores_; sized once, before the cores that
    // hold references to its elements are made.
    std::vector<CoreState> states_;
    CoreState& state(const Core& c) { return states_[static_cast<size_t>(c.index())]; }
    const CoreState& state(const Core& c) const { return states_[static_cast<size_t>(c.index())]; }
    std::vector<std::unique_ptr<Core>> cores_;
    Trace trace_;
    // Without Config::keep_trace: the records of the instructions the checkers may still describe, ids
    // ascending (record_ids_[i] is the full 64-bit id of records_[i]). compact() drops the others whenever
    // the table has doubled since the last compaction (and is above Config::record_floor).
    std::vector<TraceEntry> records_;
    std::vector<uint64_t> record_ids_;
    uint64_t records_peak_ = 0;
    uint64_t next_compact_ = 0;
    void compact();
    // Issue statistics, counted as instructions register (the trace need not be kept).
    std::array<uint64_t, 16> per_pipe_{};
    uint64_t events_set_ = 0, events_waited_ = 0;
    std::map<std::tuple<int, HardEvent, int>, std::pair<uint64_t, uint64_t>> flag_calls_;  // LaunchStats
    std::vector<std::string> node_labels_;
    std::map<std::string, int32_t, std::less<>> node_index_;
    uint64_t instr_count_ = 0;
    std::vector<Violation> violations_;
    bool chains_on_ = false;        // Config::call_chains, in a process that registered its code directories
    std::vector<uint32_t> chains_;  // by instruction id: its call chain (capture_call_chain), 0 for none
    std::map<std::string, size_t> violation_index_;
    uint64_t dropped_violations_ = 0;
    bool deadlocked_ = false;
    bool clocks_ = false;  // a checker of the launch reads the happens-before clocks (Checker::kClocks)
    std::mt19937_64 rng_;

    // ---- cross-core rounds ----
    // Sets of participants not yet matched (mode 0: all cores of a type; mode 1 and the AIV->AIC direction of
    // mode 2: the two AIVs of one AI core). key: (mode, group, flag). Each pending set keeps its clock and
    // its record: the round's increment follows every member's set.
    struct RoundSet {
        VectorClock clock;
        SyncRecord record;
    };
    struct Round {
        std::vector<int> members;
        std::map<int, std::deque<RoundSet>> sets;
    };
    std::map<std::tuple<int, int, int>, Round> rounds_;
    SyncRecord record(Core& c, const Instr& in) const;

    // ---- schedule statistics ----
    uint64_t steps_ = 0;
    // Scratch of execute (the clock the executing instruction knows) and random_step (the candidates), kept
    // to reuse their storage.
    VectorClock exec_known_;
    struct Cand {
        Core* c;
        int slot;
        size_t pos;
    };
    std::vector<Cand> step_cands_;
    ScheduleCoverage coverage_;

    // ---- cores as fibers (stackful coroutines on the launching thread) ----
    struct Runner {
        std::unique_ptr<detail::Fiber> fiber;
        enum class State { ready, blocked, finished } state = State::ready;
        std::function<bool()> ready;
        std::string blocked_on;
    };
    std::vector<Runner> runners_;
    void core_main(int i, const std::function<void()>& kernel);
    void yield_to_scheduler(int i);
    int pick_runnable();
    std::vector<int> runnable_;  // pick_runnable's scratch

    // ---- execution ----
    bool executable(Core& c, int slot, size_t pos) const;
    void execute(Core& c, int slot, size_t pos);
    bool drain_in_order();  // executes until nothing can run; true if anything ran
    bool random_step();     // adversarial: executes one random executable instruction
    void drain();           // per scheduler kind
    void report_deadlock();
    // One increment of counter (ns, flag) of `target`, knowing `clock`, delivered by `set`; `sources` are the
    // sets it follows (a round's members' sets; empty: `set` alone).
    void deliver(Core& target, int ns, int flag, const VectorClock& clock, const Instr& set,
                 const std::vector<SyncRecord>& sources = {});
    std::string consumed_text(const WaitLog& waits, uint64_t sets);
    // A CrossCoreWaitFlag that can never run (`before`: what it knew): the checkers are told.
    void wait_stuck(Core& c, const Instr& in, const VectorClock& before);
    void end_checks();
    Report make_report();

    void plan_mutations();  // hands each mutation of the plan to the interceptor of the core it names
    std::unique_ptr<MutationPlan> plan_;
};

}  // namespace evg::hw
