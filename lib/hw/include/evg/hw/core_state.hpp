// What a core's pipes and flags hold while a launch runs: the queues the core issues into, the flag and
// counter states the machine matches sets and waits on. The machine owns one CoreState per core and executes
// from it; the core it belongs to holds a reference and issues into it. Neither class reaches into the other.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "evg/hw/arch.hpp"
#include "evg/hw/clock.hpp"
#include "evg/hw/fifo.hpp"
#include "evg/hw/flag_key.hpp"
#include "evg/hw/instruction.hpp"

namespace evg::hw {

struct PipeQueue {
    Fifo<std::unique_ptr<Instr>> queue;  // issued, not yet executed, in issue order
    uint32_t issued = 0;                 // epochs handed out
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
    Fifo<Set> pending;  // sets not yet consumed
    WaitLog waits;      // executed waits
    uint64_t sets = 0;  // executed sets
};

// A cross-core flag counter of one core.
struct CounterState {
    struct Increment {
        VectorClock clock;  // what the set (for a mode 0/1/2 round: every set of the round) knew
        uint64_t instr;     // the set that delivered it (for a round: the set that completed it)
    };
    Fifo<Increment> pending;  // increments not yet consumed
    WaitLog waits;            // executed waits
    uint64_t increments = 0;
};

// One core's share of a launch's execution state.
struct CoreState {
    std::array<PipeQueue, kPipeSlots> pipes;
    std::map<FlagKey, FlagState> flags;           // flag_key (flag_key.hpp)
    std::map<CounterKey, CounterState> counters;  // counter_key
    uint32_t queued = 0;  // instructions the pipes hold (the schedulers skip cores with none)
    // Whether what the core's pipes may execute can have changed since the scheduler last looked: set when an
    // instruction is queued, one of its instructions executes, a set reaches a flag (a scalar SetFlag too) or
    // a cross-core increment is delivered to it (what executable() reads: its queues, flags and counters).
    // The schedulers look again only at such a core: the in-order one skips the others (nothing of theirs
    // can run), the adversarial one reuses their candidates (`candidates`), so both execute what they did
    // when they looked at every core each time.
    bool changed = true;
    std::vector<std::pair<int, size_t>> candidates;  // (pipe slot, position): executable when last looked
    // The CrossCoreWaitFlag the scalar unit is blocked in, if any (a deadlock names who took its increment).
    const Instr* blocked_cross_wait = nullptr;
    bool aborting = false;    // the launch was stopped: the core's API calls do nothing
    uint64_t last_instr = 0;  // the instruction this core registered last (it may still be in flight: a
                              // blocked scalar wait), kept described when the trace is not
};

}  // namespace evg::hw
