// An instruction: what the scalar unit put into a pipe queue, with the byte ranges it touches.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "evg/hw/arch.hpp"
#include "evg/hw/clock.hpp"
#include "evg/hw/instr_fn.hpp"
#include "evg/hw/site.hpp"
#include "evg/hw/trace.hpp"

namespace evg::hw {

class Memory;
class Core;

struct Access {
    Memory* mem = nullptr;
    uint64_t begin = 0, end = 0;  // bytes
    bool write = false;
    bool atomic = false;  // GM accumulation under SetAtomicAdd/Max/Min
};

// Every field has a default member initialiser: recycle_instr (instr_pool.cpp) default-initialises a recycled
// instruction in place.
struct Instr {
    uint64_t id = 0;  // issue order over the whole launch, 1-based
    Core* core = nullptr;
    Pipe pipe = Pipe::S;
    InstrKind kind = InstrKind::plain;
    int32_t node = -1;  // the graph node issuing it: an index into the launch's node labels (-1: none; set by
                        // the machine from the core's NodeScope when the instruction is registered)
    std::string op;     // "DataCopyPad", "Add", "SetFlag<MTE2_V>(0)"
    Site site;
    DType dtype = DType::f32;  // vector and cube instructions: see TraceEntry::dtype
    uint32_t repeats = 0;      // vector instructions: see TraceEntry::repeats
    std::vector<Access> accesses;
    InstrFn exec;  // the data effect; run once, when the scheduler executes the instruction
    // Its data effect tells the machine what its results hold (Machine::notify_result, notify_move) when a
    // checker wants results (Machine::wants_results): set by the instructions that test their results.
    bool tests_results = false;
    // Flag instructions.
    HardEvent event = HardEvent::MAX;
    int event_id = 0;
    uint8_t cross_mode = 0;
    uint16_t cross_flag = 0;
    // Happens-before.
    uint32_t epoch = 0;  // position in its pipe's queue, 1-based
    // An earlier instruction of the same pipe that the pipe itself orders this one after, without a barrier
    // (rule R3, mmad_accumulate_ordered: an accumulating Mmad after the Mmad that wrote its L0C region): its
    // id and epoch, 0 if none. Schedulers never run this one first, and the race checker counts the pair as
    // ordered.
    uint64_t after = 0;
    uint32_t after_epoch = 0;
    std::shared_ptr<const VectorClock> issued;  // what the scalar unit knew when it issued this
};

}  // namespace evg::hw
