// The cycle model: a time for every instruction of a launch, computed from its trace (docs/cycle-model.md).
//
// It runs after the functional model, over the records the machine kept (Config::keep_trace and
// Config::trace_accesses), so it cannot change a result, a checker finding or the trace. Each core's scalar
// unit hands its instructions to their pipe queues in program order, one per Costs::scalar_issue cycles, and
// stops behind a blocking instruction until it completes. Each pipe runs its queue in order: an instruction
// starts when it has been issued, the pipe is free and, for a WaitFlag or CrossCoreWaitFlag, the set it
// consumed (TraceEntry::matched) has completed (plus the cross-core latency). Its duration comes from the
// chip's CostTable. The waiting of a WaitFlag beyond that is its stall, charged to the flag.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "evg/hw/arch.hpp"
#include "evg/hw/trace.hpp"

namespace evg::hw::timing {

// The launch a trace comes from: its chip and its cores (core indices as TraceEntry::core numbers them).
struct Launch {
    ArchId arch = ArchId::AtlasA2;
    int block_dim = 1;
    KernelType type = KernelType::mix_aic_1_2;
    bool is_aiv(int core) const;
    std::string core_name(int core) const;  // "AIC0", "AIV0.1" (as sync mutations name cores)
};

// What decided when an instruction started (the latest of its three constraints).
enum class Bound : uint8_t {
    issue,  // the scalar unit issued it then
    pipe,   // the previous instruction of its pipe ended then
    flag,   // the set it waited for (or, for PipeBarrier<PIPE_ALL>, the last instruction it drained) ended
            // then
};

// The time of trace entry i (slices[i]).
struct Slice {
    uint64_t issue = 0;    // when the scalar unit handed it to its pipe
    uint64_t start = 0;    // when its pipe started it
    uint64_t end = 0;      // when it completed; duration = end - start, stall included for a wait
    uint64_t stall = 0;    // of [start, end): cycles spent waiting for its flag, set or drained pipes
    uint64_t bytes = 0;    // DMA: bytes moved; vector: bytes of the widest operand
    uint32_t repeats = 0;  // vector: 256-byte repeats
    uint32_t after = 0;    // the entry (id) whose end bound its start: 0 when it was its issue
    Bound bound = Bound::issue;
    bool timed = false;  // false: it never ran in the functional model (a deadlock) and has no time
};

// An edge of the timeline: the set (or cross-core set) `set` released the wait `wait` (entry ids).
struct Flow {
    uint32_t set = 0, wait = 0;
    bool cross_core = false;
};

// UB bytes holding a value that is still to be read, on one core: a step function, as (time, bytes) points.
struct UbSample {
    uint64_t time = 0;
    uint64_t bytes = 0;
};

struct PipeTime {
    uint16_t core = 0;
    Pipe pipe = Pipe::S;
    uint64_t instructions = 0;
    uint64_t busy = 0;   // cycles executing (stalls excluded)
    uint64_t stall = 0;  // cycles a wait or barrier of this pipe held the pipe
    uint64_t idle = 0;   // total - busy - stall
};

// Stall charged to one flag of one core: (core, event, id) or a cross-core flag. (A PipeBarrier<PIPE_ALL>
// waits for its own core's pipes, not for a flag: its stall is in the scalar unit's PipeTime.)
struct FlagStall {
    uint16_t core = 0;
    std::string flag;  // "WaitFlag<MTE2_V>(0)", "CrossCoreWaitFlag<2, PIPE_MTE2>(0)"
    uint64_t waits = 0;
    uint64_t stall = 0;
};

struct Summary {
    uint64_t total = 0;  // cycles from launch to the last instruction's end
    double clock_ghz = 0;
    std::vector<PipeTime> pipes;         // every (core, pipe) that ran something, by core then pipe slot
    std::vector<FlagStall> flag_stalls;  // by stall, largest first
    // MTE2, V and MTE3 of the AIV cores (all AIVs together): the sum of their busy times, the time at least
    // one of them is busy, and the time two or more are busy at once. overlap = sum / union: 1 when the three
    // never run together, up to 3.
    uint64_t mte_v_busy_sum = 0, mte_v_union = 0, mte_v_two_or_more = 0;
    uint64_t mte_v_union_max = 0;  // the largest one AIV's time with at least one of the three busy
    double overlap = 0;
    // The critical path: from the last-ending instruction back through what bound each start. Its parts add
    // up to `total`: the instructions executing on it (by pipe slot), the cross-core flag latencies between
    // them, and the scalar unit's issue slots that held an instruction back.
    std::vector<uint32_t> critical_path;      // entry ids of the instructions executing on it, first to last
    uint64_t critical_busy[kPipeSlots] = {};  // cycles of the path executing on each pipe slot
    uint64_t critical_latency = 0;            // cycles of cross-core flag latency
    uint64_t critical_issue = 0;              // cycles of scalar issue
    // Roofline: the busiest (core, pipe) and its busy time; total / roofline >= 1.
    uint16_t roofline_core = 0;
    Pipe roofline_pipe = Pipe::S;
    uint64_t roofline = 0;
    double roofline_ratio = 0;
};

struct Timeline {
    Launch launch;
    std::vector<Slice> slices;  // slices[i]: the trace's entry i
    std::vector<Flow> flows;
    std::vector<std::vector<UbSample>> ub;  // per core index (empty for cores without UB accesses)
    Summary summary;
    // False when some instruction never ran (a deadlock in the functional run): the untimed ones are left
    // out.
    bool complete = true;
    // Set when the trace had no access records (Config::trace_accesses off): copies and vector instructions
    // were charged their start-up only.
    bool missing_accesses = false;
};

// Times every entry of `trace` (a launch's, with its accesses recorded).
Timeline simulate(const Trace& trace, const Launch& launch);

}  // namespace evg::hw::timing
