// The BlockEpilogue event protocol as a stand-alone AscendC kernel (one tile loop per AIV, aiv_only).
//
// Per AIV, `tiles` tiles of `tile` floats, alternating between two buffer sets (event id = tile index % 2):
//   LOAD    (MTE2): C and X into the set's buffers                     after WaitFlag V_MTE2, MTE3_MTE2
//   COMPUTE (V):    D = (C + X) * 0.5 into the set's output buffer      after WaitFlag MTE2_V, MTE3_V
//   STORE   (MTE3): D to GM, and X itself to E (a STORE that reads a LOAD buffer, which is what the
//                   MTE3_MTE2 event orders before the next LOAD of the set)   after WaitFlag V_MTE3
// The events are those of Catlass::Epilogue::Block::BlockEpilogue: before the loop V_MTE2, MTE3_V and
// MTE3_MTE2 are set for ids 0 and 1 (both sets free); each tile waits and sets them in BlockEpilogue's
// order; after the loop all six are waited, so no flag is left set.
#pragma once
#include <cstdint>
#include <vector>

#include "evg/fuzz/kernels.hpp"

namespace evg::fuzz {

struct ProtocolShape {
    uint32_t tiles = 3;   // tiles per AIV
    uint32_t tile = 256;  // floats per tile, a multiple of 8
    int blocks = 2;       // AIVs
    // Upstream's sequence: no MTE3_MTE2 events, so the STORE of X races with the next LOAD into its set.
    bool upstream_store_load = false;
    uint64_t elements() const { return uint64_t(tiles) * tile * static_cast<uint64_t>(blocks); }
};

struct ProtocolInputs {
    std::vector<float> c, x;
};
ProtocolInputs protocol_inputs(const ProtocolShape& s);

// D then E, as the kernel defines them, in bytes (the layout of KernelRun::outputs).
std::vector<uint8_t> protocol_reference(const ProtocolShape& s, const ProtocolInputs& in);

// The kernel body, for one AIV of an aiv_only launch (c, x, d, e: GM float arrays of s.elements()).
void epilogue_protocol_kernel(uint8_t* c, uint8_t* x, uint8_t* d, uint8_t* e, const ProtocolShape& s);

// One launch on a fresh device (cfg with arch forced to `arch`); outputs = D then E (E starts as zeros).
KernelRun run_epilogue_protocol(hw::Config cfg, hw::ArchId arch, const ProtocolShape& s);

}  // namespace evg::fuzz
