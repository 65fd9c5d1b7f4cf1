// GEMM (BlockMmad) dispatch policies: the names user code writes to pick a BlockMmad and its chip.
// Every policy here selects the same BlockMmad (gemm/block/block_mmad.hpp): K-loop over L1 tiles, L0
// ping-pong, float accumulation in L0C. ENABLE_UNIT_FLAG is accepted for source compatibility; the model has
// no unit flag (Mmad and Fixpipe are ordered by M_FIX events instead), so it changes nothing.
#pragma once
#include <cstdint>

#include "catlass/arch/arch.hpp"

namespace Catlass::Gemm {

// MASTER spelling: the chip is a template argument.
template <class ArchTag_, bool ENABLE_UNIT_FLAG_ = false>
struct MmadPingpong {
    using ArchTag = ArchTag_;
    static constexpr uint32_t STAGES = 2;
    static constexpr bool ENABLE_UNIT_FLAG = ENABLE_UNIT_FLAG_;
};

// L1 (seed 000) spelling: AtlasA2.
template <bool ENABLE_UNIT_FLAG_ = false>
struct MmadAtlasA2Pingpong : MmadPingpong<Arch::AtlasA2, ENABLE_UNIT_FLAG_> {};

// Ascend950 spelling of the same policy.
template <bool ENABLE_UNIT_FLAG_ = false>
struct MmadAscend950Pingpong : MmadPingpong<Arch::Ascend950, ENABLE_UNIT_FLAG_> {};

}  // namespace Catlass::Gemm
