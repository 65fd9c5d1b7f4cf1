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
    std::string op;  // "DataCopyPad", "Add", "SetFlag<MTE2_V>(0)"
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

// A compact record of every executed instruction, kept for reports and tests.
struct TraceEntry {
    uint64_t id;
    int core;
    Pipe pipe;
    InstrKind kind;
    std::string op;
    Site site;
};

}  // namespace evg::hw
