// The cube unit's mode registers of an AIC, written by its scalar unit in program order
// (docs/hardware-model.md §16): HF32 mode, the Mmad traversal order, the Fixpipe NZ->ND settings, and the
// unitFlag bit of each 512-byte block of L0C with the hand-overs between PIPE_M and PIPE_FIX not yet
// consumed.
#pragma once
#include <cstdint>
#include <vector>

namespace evg::hw {

struct CubeState {
    bool hf32 = false;     // SetHF32Mode: float operands rounded to HF32 before the MAC
    bool n_first = false;  // SetMMLayoutTransform(true): Mmad walks N first (values unchanged)
    uint16_t nd_num = 1;   // SetFixpipeNz2ndFlag
    uint32_t src_nd_stride = 0, dst_nd_stride = 0;
    std::vector<uint8_t>
        unit_bits;          // per 512 B block of L0C: 1 = filled by an Mmad (unitFlag 3), not yet read
    uint32_t m_to_fix = 0;  // unitFlag hand-overs M -> FIX set and not yet waited for
    uint32_t fix_to_m = 0;  // unitFlag hand-overs FIX -> M set and not yet waited for
    // The Mmad that last wrote each L0C region no later Mmad has written over: its bytes, its padded shape
    // (m and n rounded up to 16), its instruction id and its epoch on PIPE_M (rule R3 needs the previous
    // writer of exactly the region, and shape, an accumulating Mmad reads).
    struct MmadWrite {
        uint64_t off = 0, bytes = 0;
        uint64_t mp = 0, np = 0;
        uint64_t instr = 0;
        uint32_t epoch = 0;
    };
    std::vector<MmadWrite> mmad_writes;
};

// The flag id that carries unitFlag hand-overs (SetFlag/WaitFlag<M_FIX|FIX_M>(kUnitFlagId)); user flags are
// 0..7, so it never meets one.
inline constexpr int kUnitFlagId = 63;

}  // namespace evg::hw
