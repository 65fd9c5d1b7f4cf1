// The checkers' interface to the execution engine. The engine (Machine, Core: scheduling, fibers, pipe
// queues, flag matching, vector clocks, the trace) tells every checker what happens through six kinds of
// event: an instruction is issued, an instruction with accesses executes, a synchronisation takes effect, the
// kernel ends, an instruction that tests its results found NaN or infinite lanes, and a copy moved bytes. A
// checker asks for the first five by the bits of Checker::events(); moves come with results (a checker that
// asks for kResult is told of moves too: what a lane holds travels with its bytes). A checker keeps its own
// state and reports what it finds through CheckerHost::violate.
// A checker sees the engine only through this header: it cannot change what executes, and it can be
// driven alone by a scripted stream of events (lib/hw/tests/checkers/).
//
// The checkers are listed in one table (lib/hw/src/checkers/registry.cpp: name, the Config switch that
// enables it, its factory); the engine builds one of each enabled checker per launch and calls them in the
// table's order. docs/checkers.md lists them and is the recipe for adding one.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "evg/hw/arch.hpp"
#include "evg/hw/clock.hpp"
#include "evg/hw/config.hpp"
#include "evg/hw/flag_key.hpp"
#include "evg/hw/instruction.hpp"
#include "evg/hw/numeric/fp_scan.hpp"
#include "evg/hw/report.hpp"
#include "evg/hw/site.hpp"
#include "evg/hw/trace.hpp"

namespace evg::hw {

class Memory;

// What a checker may ask of the engine.
class CheckerHost {
  public:
    virtual const Config& config() const = 0;
    virtual const ArchSpec& arch() const = 0;
    // The description of instruction `id` (nullptr for 0). Descriptions of the instructions a checker's
    // live_instrs() names are kept for as long as it names them.
    virtual const TraceEntry* traced(uint64_t id) const = 0;
    // Records a violation (folded with identical ones; the engine adds each location's graph node).
    virtual void violate(Violation v) = 0;
    // The report name of launch-wide core `core` ("AIV 3 (block 1, sub 1)").
    virtual const std::string& core_name(int core) const = 0;
    virtual CoreType core_type(int core) const = 0;
    // ", node <label>" for a message naming an instruction of graph node `node`; empty for -1.
    virtual std::string node_suffix(int32_t node) const = 0;
    // The call chain instruction `id` was issued through (call_chain.hpp); 0 for none.
    virtual uint32_t chain_of(uint64_t id) const = 0;
    // The numeric-exception counts of the launch (the checker "fp"): they go to its report's LaunchStats.
    virtual void record_fp_counts(FpCounts counts) = 0;

  protected:
    ~CheckerHost() = default;
};

// The happens-before agent of pipe `p` of launch-wide core `core`.
constexpr AgentId agent_of(int core, Pipe p) {
    return static_cast<AgentId>(core * kPipeSlots + pipe_slot(p));
}

// A synchronisation instruction as the checkers remember it for their messages.
struct SyncRecord {
    Epoch at;  // its agent (core, pipe) and epoch
    uint64_t instr = 0;
    int core = -1;
    Pipe pipe = Pipe::S;
    std::string op;
    Site site;
};
SyncRecord sync_record(int core, AgentId agent, const Instr& in);
// "#12 CrossCoreSetFlag<...>(1) on MTE3 of AIV 0 (block 0, sub 0) (issued at kernel.cpp:40)"
std::string describe(const CheckerHost& host, const SyncRecord& r);
// The one place a Location is made (every location_of, and the locations the checkers and the engine name):
// the instruction's number (0 for none), its core, pipe (none for a call that issued no instruction), op and
// site, with the text of the site's line (source_text).
Location location_at(uint64_t instr, int core, std::string core_name, std::optional<Pipe> pipe,
                     std::string op, const Site& site);
Location location_of(const CheckerHost& host, const SyncRecord& r);
// The location of a described instruction (CheckerHost::traced): its id, core, pipe, op and site.
Location location_of(const CheckerHost& host, const TraceEntry& t);
// The location of instruction `in` of core `core` (and of its access `a`, when given).
Location location_of(int core, const std::string& core_name, const Instr& in, const Access* a = nullptr);

// An instruction has its number (Instr::id) and is about to be queued on its pipe, or, on the scalar unit,
// to run.
struct IssueEvent {
    const Instr& in;
    int core;
};

// An instruction with accesses executes: a pipe's plain instruction when the scheduler runs it, or a scalar
// access (GetValue, SetValue) when it is issued. Before its data effect.
struct ExecuteEvent {
    const Instr& in;
    int core;
    AgentId agent;             // of (core, in.pipe)
    const VectorClock& known;  // what the instruction happens-after
};

enum class SyncKind : uint8_t {
    flag_set,            // a SetFlag executed; `clock`: what it knew (its completion)
    flag_wait,           // a WaitFlag consumed the set `matched`, which knew `matched_clock`; `clock`: what
                         // the wait knew before
    cross_set,           // a CrossCoreSetFlag executed (`record`); `clock`: what it knew; `targets`: the
                         // cores it signals (not the setter)
    counter_increment,   // an increment landed on counter (ns, flag) of `core`, delivered by the set `record`
                         // (`in`) knowing `clock`; `sources`: the sets it follows (a round's members' sets)
    counter_wait,        // a CrossCoreWaitFlag (`record`) is about to consume an increment of (ns, flag);
                         // `clock`: what it knew before
    counter_wait_stuck,  // a CrossCoreWaitFlag that can never run (the launch deadlocked); `clock` as above
    dcache_clean,        // DataCacheCleanAndInvalid by `core`: [begin, end) of `mem`, or everything the core
                         // holds when `mem` is null
};

struct SyncEvent {
    SyncKind kind;
    int core = -1;
    const Instr* in = nullptr;
    AgentId agent = 0;  // of `in` (counter_increment: of the set, on its own core)
    const VectorClock* clock = nullptr;
    uint64_t matched = 0;
    const VectorClock* matched_clock = nullptr;
    int ns = 0;  // counters: 0 for modes 0-2, 4 for mode 4 (counter_namespace)
    int flag = 0;
    CounterKey counter() const { return {ns, flag}; }
    const SyncRecord* record = nullptr;
    std::span<const int> targets = {};
    std::span<const SyncRecord> sources = {};
    const Memory* mem = nullptr;
    uint64_t begin = 0, end = 0;
};

// What an instruction's element loops found in its results (fp_scan.hpp), told after its data effect by the
// instructions that test their results (Instr::tests_results: vector arithmetic and casts, fixpipe). Only its
// NaN and infinite lanes are listed (their byte offsets in dst and in the operands' memories).
struct ResultEvent {
    const Instr& in;
    int core;
    const Memory* dst;
    DType dst_type;
    const Memory* src[2] = {nullptr, nullptr};
    DType src_type = DType::f32;
    double scalar = 0.0;
    bool has_scalar = false;
    std::span<const FpLane> lanes;
    uint64_t subnormal = 0;
};

// Bytes a copy moved, told by the copies among the instructions that test their results (DataCopy): what the
// bytes held moves with them.
struct MoveEvent {
    const Instr& in;
    int core;
    const Memory* dst;
    uint64_t dst_off;
    const Memory* src;
    uint64_t src_off;
    uint64_t bytes;
};

// The state the kernel left behind that a checker may judge.
struct KernelEndEvent {
    struct AtomicLeftOn {
        int core;
        Site site;  // of the SetAtomic call
    };
    struct OpenRound {  // a mode 0/1/2 round some member set but not every member
        int mode;
        int flag;
        int core;  // a member that set
    };
    int cores = 0;                            // launch-wide core indices 0 .. cores - 1
    std::span<const AtomicLeftOn> atomic_on;  // by core, ascending
    std::span<const OpenRound> open_rounds;
};

class Checker {
  public:
    // The events a checker is told of (a bit per kind): the engine calls only the checkers that want an
    // event, so an instruction costs nothing to a checker that does not look at it. kResult brings on_move
    // as well. kClocks is no event: the checker reads the happens-before clocks the events carry
    // (ExecuteEvent::known, SyncEvent::clock and matched_clock, an instruction's `issued`); a launch none of
    // whose checkers reads them keeps none (they stay empty), and its instructions cost no clock work.
    enum Events : unsigned {
        kIssue = 1,
        kExecute = 2,
        kSync = 4,
        kKernelEnd = 8,
        kResult = 16,
        kClocks = 32
    };
    virtual ~Checker() = default;
    virtual unsigned events() const = 0;
    virtual void on_issue(const IssueEvent&) {}
    virtual void on_execute(const ExecuteEvent&) {}
    virtual void on_sync(const SyncEvent&) {}
    virtual void on_kernel_end(const KernelEndEvent&) {}
    virtual void on_result(const ResultEvent&) {}
    virtual void on_move(const MoveEvent&) {}
    // Appends the instructions the checker's state names (their descriptions must stay available).
    virtual void live_instrs(std::vector<uint64_t>&) const {}
    // No instruction issued before `oldest` is still to execute: state kept only for pairs with such an
    // instruction may go.
    virtual void forget_before(uint64_t /*oldest*/) {}
};

// The checkers, in the registry's order.
struct CheckerInfo {
    std::string_view name;    // "race", "redundant-waits": the finder of its kinds in violation_kinds.def
    bool CheckerConfig::*on;  // the switch that enables it
    bool opt_in;              // off unless switched on by name (it finds costs, not faults)
    std::unique_ptr<Checker> (*make)(CheckerHost&);
};
std::span<const CheckerInfo> checker_registry();
// The kinds a checker (or "engine") reports, from violation_kinds.def's finder column, in the table's order.
std::vector<ViolationKind> kinds_found_by(std::string_view finder);
// Switches on the opt-in checkers named in `names` (','-separated registry names). Throws HostError naming
// an unknown or empty name and the opt-in checkers there are; "" switches nothing on.
void enable_checks(CheckerConfig& checks, std::string_view names);
// Opt-in checkers every launch of this process runs as well as its Config's (`evgcheck conformance --check`):
// set once, before the launches. Names as enable_checks takes them; throws HostError as it does.
void enable_process_checks(std::string_view names);
// The checker "fp"'s switch and severity for every launch of this process (`--fp`, EVG_FP): "graded", "warn",
// "error" or "off" (Config::fp_policy, CheckerConfig::fp); set once, before the launches, it overrides each
// launch's Config. Throws HostError naming the values for another.
void set_process_fp(std::string_view value);
// The environment variable a process that never called set_process_fp reads it from (a program's EVG_FP,
// lib/ascendc/include/acl/program_env.def).
inline constexpr const char* kFpEnvName = "EVG_FP";
// Applies set_process_fp's setting to `cfg` (nothing when it was not set).
void apply_process_fp(Config& cfg);
// One of each checker `checks` enables, in the registry's order.
std::vector<std::unique_ptr<Checker>> make_checkers(CheckerHost& host, const CheckerConfig& checks);
// The checker named `name` (for tests and tools); nullptr for an unknown name.
std::unique_ptr<Checker> make_checker(std::string_view name, CheckerHost& host);

}  // namespace evg::hw
