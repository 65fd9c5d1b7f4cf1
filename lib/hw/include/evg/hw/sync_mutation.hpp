// Sync mutations: a plan in the launch configuration rewrites the n-th synchronisation call of a core as the
// core issues it, with no rebuild of the kernel. A mutation prints as a short text that parses back to itself
// ("drop-wait core=AIV0.1 n=7"), so that any mutated run replays from one line.
//
// A sync call is one of SetFlag, WaitFlag, PipeBarrier, CrossCoreSetFlag, CrossCoreWaitFlag. Each core counts
// its own sync calls in program order from 0 (TraceEntry::sync_index); a mutation names the core and that n.
// Core names: "AIC<b>" for the AIC of block b; "AIV<b>.<s>" for sub-core s of block b in a mix launch;
// "AIV<v>" for AIV v of an AIV-only launch.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "evg/hw/arch.hpp"

namespace evg::hw {

class Trace;

enum class SyncOp : uint8_t {
    drop_set,         // the SetFlag is not issued
    drop_wait,        // the WaitFlag is not issued
    drop_pair,        // the SetFlag and the WaitFlag that consumed it in the unmutated run (`pair`)
    dup_set,          // the SetFlag is issued twice in a row
    set_id,           // the SetFlag uses event id `id`
    wait_id,          // the WaitFlag uses event id `id`
    set_event,        // the SetFlag uses HardEvent `event` (and so the source pipe of that event)
    wait_event,       // the WaitFlag uses HardEvent `event`
    move_wait,        // the WaitFlag is issued later, after the next `by` instructions of the core's stream
    move_set,         // the SetFlag is issued earlier, just before stream position `at` (= its own - `by`)
                      // (it carries the set's `event` and `id`: the core issues it before reaching the call)
    drop_barrier,     // the PipeBarrier is not issued
    insert_barrier,   // a PipeBarrier<`pipe`> is issued before the sync call (harmless)
    insert_pair,      // SetFlag<`event`>(`id`) then WaitFlag<`event`>(`id`) before the sync call (harmless
                      // when the id is unused)
    drop_cross_set,   // the CrossCoreSetFlag is not issued
    drop_cross_wait,  // the CrossCoreWaitFlag is not issued
    dup_cross_set,    // the CrossCoreSetFlag is issued twice
    cross_set_flag,   // the CrossCoreSetFlag uses flag id `id`
    cross_wait_flag,  // the CrossCoreWaitFlag uses flag id `id`
};
inline constexpr int kSyncOpCount = 18;
std::string_view sync_op_name(SyncOp op);  // "drop-wait"

struct SyncMutation {
    SyncOp op = SyncOp::drop_wait;
    std::string core;                  // "AIV0.1", "AIC1", "AIV3"
    int n = 0;                         // the core's n-th sync call (0-based)
    int id = -1;                       // set_id, wait_id, insert_pair, cross_set/wait_flag, move_set
    HardEvent event = HardEvent::MAX;  // set_event, wait_event, insert_pair, move_set
    Pipe pipe = Pipe::V;               // insert_barrier
    int by = 0;                        // move_wait, move_set
    uint32_t at = 0;                   // move_set: the stream position the set is issued before
    int pair = -1;                     // drop_pair: sync index of the wait on the same core

    bool operator==(const SyncMutation&) const = default;
};

// "drop-wait core=AIV0.1 n=7", "set-id core=AIV0.0 n=3 id=1", "move-set core=AIV0.0 n=5 by=2 at=40
// event=MTE2_V id=0", ...
// Fields a mutation does not use are not printed.
std::string to_string(const SyncMutation& m);
// Parses the text form. Throws HostError naming the word that is wrong and what was expected.
SyncMutation parse_sync_mutation(std::string_view text);
// Several mutations separated by ';'.
std::vector<SyncMutation> parse_sync_mutations(std::string_view text);
std::string to_string(const std::vector<SyncMutation>& plan);

// The short core name of a launch-wide core index ("AIV0.1"), given the launch shape.
std::string core_short_name(KernelType type, int block_dim, int core_index);
// The name reports give the core (Core::name, Location::core_name): "AIV 3 (block 1, sub 1)", "AIC 0".
std::string core_name(KernelType type, int block_dim, int core_index);
// The same from the core's place in its block (sub_num: AIVs per block).
std::string core_name(CoreType type, int block, int sub, int sub_num);

// Every mutation point x operator that applies to a run, from its trace (TraceEntry::sync_index, stream,
// matched): drop/dup/re-number/re-direct/move of each set and wait, drop of each barrier, spurious barrier
// and redundant set/wait pair before each sync call (on an id the run never uses), cross-core drop, dup and
// re-number. `move_by` lists the distances tried for move_wait and move_set.
std::vector<SyncMutation> mutation_points(const Trace& trace, ArchId arch, KernelType type, int block_dim,
                                          const std::vector<int>& move_by = {1, 3});

}  // namespace evg::hw
