// An instruction: what the scalar unit put into a pipe queue, with the byte ranges it touches.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "evg/hw/arch.hpp"
#include "evg/hw/clock.hpp"
#include "evg/hw/site.hpp"

namespace evg::hw {

class Memory;
class Core;

struct Access {
    Memory* mem = nullptr;
    uint64_t begin = 0, end = 0;  // bytes
    bool write = false;
    bool atomic = false;  // GM accumulation under SetAtomicAdd/Max/Min
};

enum class InstrKind : uint8_t { plain, set_flag, wait_flag, barrier, cross_set, cross_wait };

struct Instr {
    uint64_t id = 0;  // issue order over the whole launch, 1-based
    Core* core = nullptr;
    Pipe pipe = Pipe::S;
    InstrKind kind = InstrKind::plain;
    int32_t node = -1;  // the graph node issuing it: an index into the launch's node labels (-1: none; set by
                        // the machine from the core's NodeScope when the instruction is registered)
    std::string op;     // "DataCopyPad", "Add", "SetFlag<MTE2_V>(0)"
    Site site;
    std::vector<Access> accesses;
    std::function<void(Instr&)>
        exec;  // the data effect; run once, when the scheduler executes the instruction
    // Flag instructions.
    HardEvent event = HardEvent::MAX;
    int event_id = 0;
    uint8_t cross_mode = 0;
    uint16_t cross_flag = 0;
    // Happens-before.
    uint32_t epoch = 0;                         // position in its pipe's queue, 1-based
    std::shared_ptr<const VectorClock> issued;  // what the scalar unit knew when it issued this
};

// One byte range an instruction touched, as recorded in the trace (Config::trace_accesses).
struct TraceAccess {
    uint32_t mem = 0;  // Memory::uid(): GM allocations and every core's local memories have distinct ids
    uint64_t begin = 0, end = 0;
    bool write = false;
    bool atomic = false;
};

// A record of every issued instruction, kept for reports, tests, the sync fuzzers and the schedule explorer.
// Sync instructions carry their event, id, mode and flag as fields: nothing downstream parses `op`.
struct TraceEntry {
    uint64_t id = 0;  // issue order over the whole launch, 1-based
    int core = 0;     // launch-wide core index (AICs first, then AIVs; see Machine)
    Pipe pipe = Pipe::S;
    InstrKind kind = InstrKind::plain;
    bool blocking = false;  // executed by the scalar unit, which issued nothing more until it completed
                            // (an S-pipe WaitFlag, an AtlasA2 CrossCoreWaitFlag, PipeBarrier<PIPE_ALL>)
    std::string op;
    Site site;
    // Sync fields.
    HardEvent event = HardEvent::MAX;  // set_flag, wait_flag
    int event_id = -1;                 // set_flag, wait_flag
    uint8_t cross_mode = 0;            // cross_set, cross_wait
    uint16_t cross_flag = 0;           // cross_set, cross_wait
    Pipe barrier_pipe = Pipe::S;       // barrier: the pipe it orders (Pipe::ALL for PipeBarrier<PIPE_ALL>)
    // Order.
    uint32_t epoch = 0;   // position in its pipe's queue, 1-based (scalar-unit entries: in the S stream)
    uint32_t stream = 0;  // position in its core's scalar issue stream, 1-based: every instruction the
                          // core's scalar unit issued or executed, in program order
    int32_t sync_index =
        -1;                // sync calls only: the core's n-th sync call (0-based), the mutation point number
    int32_t node = -1;     // the graph node that issued it: an index into Report::node_labels (-1: none, e.g.
                           // BlockEpilogue's and the kernel's own instructions)
    uint64_t matched = 0;  // wait_flag / cross_wait: the set whose increment this run's wait consumed (for a
                           // mode 0/1/2 round, the set that completed the round); 0 if it never ran
    std::vector<TraceAccess> accesses;  // when Config::trace_accesses
};

}  // namespace evg::hw
