// The vector mask register and the repeat parameters of the level-0 vector API (docs/hardware-model.md §6.1):
// SetVectorMask, SetMaskCount, SetMaskNorm, ResetMask, MASK_PLACEHOLDER and the *RepeatParams structures.
// The mask is core state (evg::hw::Core::vector_mask), written here from the scalar unit in program order and
// read by every level-0 instruction when it is issued.
#pragma once
#include <cstdint>

#include "ascendc/types.hpp"

namespace AscendC {

// How SetVectorMask reads its argument: a per-repeat mask (NORMAL) or the total element count (COUNTER).
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER = 1 };

// The mask argument of a level-0 call made with isSetMask = false (the register set beforehand is used).
constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr uint64_t MASK_PLACEHOLDER_LIST[2] = {0, 0};

inline constexpr int32_t DEFAULT_BLK_NUM = 8;
inline constexpr int32_t DEFAULT_BLK_STRIDE = 1;
inline constexpr uint8_t DEFAULT_REPEAT_STRIDE = 8;

// Strides of a two-source level-0 call, in 32-byte DataBlocks: blkStride between the 8 blocks of one repeat,
// repStride between the same block of consecutive repeats.
struct BinaryRepeatParams {
    BinaryRepeatParams() = default;
    BinaryRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t src0BlkStrideIn,
                       const uint8_t src1BlkStrideIn, const uint8_t dstRepStrideIn,
                       const uint8_t src0RepStrideIn, const uint8_t src1RepStrideIn)
        : dstBlkStride(dstBlkStrideIn),
          src0BlkStride(src0BlkStrideIn),
          src1BlkStride(src1BlkStrideIn),
          dstRepStride(dstRepStrideIn),
          src0RepStride(src0RepStrideIn),
          src1RepStride(src1RepStrideIn) {}
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

// Strides of a one-source level-0 call (as BinaryRepeatParams). halfBlock matters to CastDeq only.
struct UnaryRepeatParams {
    UnaryRepeatParams() = default;
    UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn,
                      const uint8_t dstRepStrideIn, const uint8_t srcRepStrideIn)
        : dstBlkStride(dstBlkStrideIn),
          srcBlkStride(srcBlkStrideIn),
          dstRepStride(dstRepStrideIn),
          srcRepStride(srcRepStrideIn) {}
    UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn,
                      const uint8_t dstRepStrideIn, const uint8_t srcRepStrideIn, const bool halfBlockIn)
        : dstBlkStride(dstBlkStrideIn),
          srcBlkStride(srcBlkStrideIn),
          dstRepStride(dstRepStrideIn),
          srcRepStride(srcRepStrideIn),
          halfBlock(halfBlockIn) {}
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint16_t srcBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t srcRepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
    bool halfBlock = false;
};

// Brcb's destination strides (32-byte blocks). A dstBlkStride of 0 is taken as 1.
struct BrcbRepeatParams {
    BrcbRepeatParams() = default;
    BrcbRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn)
        : dstBlkStride(dstBlkStrideIn), dstRepStride(dstRepStrideIn) {}
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

// Copy's strides (32-byte blocks): dstStride/srcStride between the blocks of a repeat, dstRepeatSize and
// srcRepeatSize between repeats.
struct CopyRepeatParams {
    CopyRepeatParams() = default;
    CopyRepeatParams(const uint16_t dstStrideIn, const uint16_t srcStrideIn, uint16_t dstRepeatSizeIn,
                     uint16_t srcRepeatSizeIn)
        : dstStride(dstStrideIn),
          srcStride(srcStrideIn),
          dstRepeatSize(dstRepeatSizeIn),
          srcRepeatSize(srcRepeatSizeIn) {}
    uint16_t dstStride = DEFAULT_BLK_STRIDE;
    uint16_t srcStride = DEFAULT_BLK_STRIDE;
    uint16_t dstRepeatSize = DEFAULT_REPEAT_STRIDE;
    uint16_t srcRepeatSize = DEFAULT_REPEAT_STRIDE;
};

namespace detail {
// Element size of a level-0 operand type, for the mask width (256 / size elements per repeat).
template <class T>
inline constexpr uint32_t elem_bytes = static_cast<uint32_t>(sizeof(T));

// SetVectorMask(len) in normal mode: the first `len` elements of a repeat of `es`-byte elements.
void set_mask_first(uint32_t es, int64_t len, Site site);
// SetVectorMask(high, low) in normal mode; in counter mode `low` is the count.
void set_mask_bits(uint32_t es, uint64_t high, uint64_t low, Site site);
void set_mask_count(int64_t count, Site site);
void set_mask_mode(bool counter, Site site);
void reset_mask(Site site);
}  // namespace detail

template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow, Site site = Site::here()) {
    if constexpr (mode == MaskMode::COUNTER)
        detail::set_mask_count(static_cast<int64_t>(maskLow), site);
    else
        detail::set_mask_bits(detail::elem_bytes<T>, maskHigh, maskLow, site);
}

template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(int32_t len, Site site = Site::here()) {
    if constexpr (mode == MaskMode::COUNTER)
        detail::set_mask_count(len, site);
    else
        detail::set_mask_first(detail::elem_bytes<T>, len, site);
}

inline void SetMaskCount(Site site = Site::here()) {
    detail::set_mask_mode(true, site);
}
inline void SetMaskNorm(Site site = Site::here()) {
    detail::set_mask_mode(false, site);
}
inline void ResetMask(Site site = Site::here()) {
    detail::reset_mask(site);
}

}  // namespace AscendC
