// The cycle model's parameters: one table per chip, every number with where it comes from
// (docs/cycle-model.md). The cycle model (timing.hpp) reads nothing else; the functional machine never reads
// it.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

#include "evg/hw/arch.hpp"
#include "evg/hw/numeric/dtype.hpp"

namespace evg::hw {

// One number of the table and its source. `assumed`: no public figure exists; the value is the project's
// assumption, and `source` says what it rests on.
struct CostParam {
    double value = 0;
    std::string_view source;
    bool assumed = false;
};

// A data path of the DMA engines (and of the V pipe's UB -> UB copy), named by its source and destination
// memory.
enum class DataPath : uint8_t {
    gm_to_ub,
    gm_to_l1,
    ub_to_gm,
    l1_to_gm,
    ub_to_ub,
    l0c_to_gm,
    l0c_to_l1,
    l0c_to_ub,
    l1_to_l0a,
    l1_to_l0b,
    l1_to_ub,
    ub_to_l1,
    l1_to_bt,
    l1_to_fb,
};
inline constexpr int kDataPaths = 14;
std::string_view data_path_name(DataPath p);  // "GM->UB"
// The path of a copy from `src` to `dst`; false when no engine moves data that way.
bool data_path_between(MemKind src, MemKind dst, DataPath& out);

struct PathCost {
    CostParam bytes_per_cycle;  // sustained bandwidth of one core's engine on this path
    CostParam start_latency;    // cycles before the first byte moves, per instruction
};

// A vector instruction: cycles = startup + per_repeat x repeats, a repeat being 256 bytes of the widest
// operand. Three columns by element type: 16-bit floats, float, integers.
struct VectorCost {
    std::string_view op;  // the instruction's name as the trace records it, up to '<' ("Add", "Exp", "Cast")
    double f16_startup, f16_per_repeat;
    double f32_startup, f32_per_repeat;
    double int_startup, int_per_repeat;
    std::string_view source;
    bool assumed = false;
};

struct CostTable {
    ArchId arch;
    CostParam clock_ghz;
    PathCost paths[kDataPaths];
    std::span<const VectorCost> vector;  // by op name
    CostParam repeat_bytes;              // bytes of one vector repeat
    // Cube: multiply-accumulates per cycle by the type of A and B, and a start-up per Mmad.
    CostParam cube_macs_f16, cube_macs_f32, cube_macs_i8, cube_startup;
    // Synchronisation.
    CostParam set_flag, wait_flag;
    CostParam barrier_v;      // PipeBarrier<PIPE_V> after vector work: the vector pipeline drains
    CostParam barrier_other;  // a barrier on a pipe with nothing to drain, and PipeBarrier<PIPE_ALL> itself
    CostParam cross_set;      // CrossCoreSetFlag
    CostParam cross_latency;  // from a cross-core set completing to the waiting core seeing it
    // The scalar unit.
    CostParam scalar_issue;  // cycles to hand one instruction to its pipe queue
    CostParam scalar_op;     // a scalar access (GetValue / SetValue) or a data-cache operation

    const PathCost& path(DataPath p) const { return paths[static_cast<int>(p)]; }
    // The vector entry for `op` (the name up to '<'), or nullptr.
    const VectorCost* vector_cost(std::string_view op) const;
};

const CostTable& cost_table(ArchId arch);

}  // namespace evg::hw
