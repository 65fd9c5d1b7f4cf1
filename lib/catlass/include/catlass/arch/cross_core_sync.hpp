// Cross-core flags between the AIC and its AIVs (docs/hardware-model.md §3.2, docs/evg-semantics.md §6.1,
// §9).
//
// A cross-core flag is a counter (0..15) per flag id on the receiving core: a set adds one, a wait blocks
// while it is 0 and then subtracts one. A one-way producer/consumer flag would overflow after 15 unconsumed
// sets, so CrossCoreFlagWithReverse bounds the producer: after every MAX_REVERSE_DEPTH sets it waits on a
// reverse flag, which the consumer sets after every MAX_REVERSE_DEPTH waits.
#pragma once
#include <cstdint>

#include "catlass/catlass.hpp"

namespace Catlass::Arch {

constexpr uint32_t MAX_REVERSE_DEPTH = 15;
constexpr uint16_t FFTS_MAX_FLAG = 7;
constexpr uint16_t AIV_INTER_BLOCK_BARRIER = 8;
constexpr uint16_t AIC_INTER_BLOCK_BARRIER = 9;
constexpr uint16_t AIV_INTER_SUBBLOCK_BARRIER = 10;

// A plain cross-core flag: just its id.
struct CrossCoreFlag {
    uint16_t id = 0;
    CATLASS_DEVICE constexpr CrossCoreFlag() = default;
    CATLASS_DEVICE constexpr explicit CrossCoreFlag(uint16_t id_) : id(id_) {}
};

// A one-way flag with its reverse flag and the count of sets (producer) or waits (consumer) since the last
// reverse hand-shake. Each core keeps its own copy; both start at count 0.
template <uint32_t REVERSE_DEPTH_ = MAX_REVERSE_DEPTH>
struct CrossCoreFlagWithReverse {
    static constexpr uint32_t REVERSE_DEPTH = REVERSE_DEPTH_;
    static_assert(
        REVERSE_DEPTH >= 1 && REVERSE_DEPTH <= MAX_REVERSE_DEPTH,
        "CrossCoreFlagWithReverse: the reverse depth must be 1..15, the capacity of a cross-core counter");
    uint16_t id = 0;
    uint16_t reverseId = 0;
    uint32_t count = 0;
    CATLASS_DEVICE constexpr CrossCoreFlagWithReverse() = default;
    CATLASS_DEVICE constexpr CrossCoreFlagWithReverse(uint16_t id_, uint16_t reverseId_)
        : id(id_), reverseId(reverseId_) {}
};

template <uint8_t MODE, AscendC::pipe_t PIPE>
CATLASS_DEVICE void CrossCoreSetFlag(const CrossCoreFlag& flag) {
    AscendC::CrossCoreSetFlag<MODE, PIPE>(flag.id);
}

template <uint8_t MODE, AscendC::pipe_t PIPE>
CATLASS_DEVICE void CrossCoreWaitFlag(const CrossCoreFlag& flag) {
    AscendC::CrossCoreWaitFlag<MODE, PIPE>(flag.id);
}

// Producer side: set `id`; after every REVERSE_DEPTH sets, wait on `reverseId` (the consumer has taken them).
template <uint8_t MODE, AscendC::pipe_t PIPE, uint32_t DEPTH>
CATLASS_DEVICE void CrossCoreSetFlagWithReverse(CrossCoreFlagWithReverse<DEPTH>& flag) {
    AscendC::CrossCoreSetFlag<MODE, PIPE>(flag.id);
    if (++flag.count >= DEPTH) {
        AscendC::CrossCoreWaitFlag<MODE, PIPE>(flag.reverseId);
        flag.count = 0;
    }
}

// Consumer side: wait on `id`; after every REVERSE_DEPTH waits, set `reverseId` (room for DEPTH more sets).
template <uint8_t MODE, AscendC::pipe_t PIPE, uint32_t DEPTH>
CATLASS_DEVICE void CrossCoreWaitFlagWithReverse(CrossCoreFlagWithReverse<DEPTH>& flag) {
    AscendC::CrossCoreWaitFlag<MODE, PIPE>(flag.id);
    if (++flag.count >= DEPTH) {
        AscendC::CrossCoreSetFlag<MODE, PIPE>(flag.reverseId);
        flag.count = 0;
    }
}

// A barrier over the cores a mode groups: mode 0 = every AIV (or every AIC) of the launch, mode 1 = the two
// AIVs of one AI core. Set then wait on the reserved barrier id of the caller's kind.
template <uint8_t MODE, AscendC::pipe_t PIPE>
CATLASS_DEVICE void CrossCoreBarrier() {
    static_assert(
        MODE == 0 || MODE == 1,
        "CrossCoreBarrier: only mode 0 (all AIVs or all AICs) and mode 1 (the AIVs of one AI core) are "
        "barriers");
    uint16_t id = MODE == 1 ? AIV_INTER_SUBBLOCK_BARRIER
                            : (ASCEND_IS_AIC ? AIC_INTER_BLOCK_BARRIER : AIV_INTER_BLOCK_BARRIER);
    AscendC::CrossCoreSetFlag<MODE, PIPE>(id);
    AscendC::CrossCoreWaitFlag<MODE, PIPE>(id);
}

}  // namespace Catlass::Arch
