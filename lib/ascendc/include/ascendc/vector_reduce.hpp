// Per-block and per-repeat reductions and the block broadcast of the level-0 vector API
// (docs/ascendc-device-environment.md §4): BlockReduceSum/Max/Min (one result per 32-byte block, eight per
// repeat, written contiguously, consecutive repeats dstRepStride x 8 elements apart), WholeReduceSum/Max/Min
// and RepeatReduceSum (one result per repeat, dstRepStride elements apart), Brcb (eight source elements per
// repeat, each filling one 32-byte destination block). Sums add pairwise (adjacent lanes, then adjacent
// partial sums) and round to the element type at every step; a half partial sum past 65504 saturates there.
#pragma once
#include <cstdint>

#include "ascendc/unmodelled.hpp"
#include "ascendc/vector_level0.hpp"

namespace AscendC {

// What WholeReduceMax/Min write per repeat: ORDER_ONLY_VALUE the value alone; the others value and index.
enum class ReduceOrder : uint8_t {
    ORDER_VALUE_INDEX = 0,
    ORDER_INDEX_VALUE,
    ORDER_ONLY_VALUE,
    ORDER_ONLY_INDEX
};

namespace detail {
enum class L0Reduce : uint8_t {
    block_sum,
    block_max,
    block_min,
    whole_sum,
    whole_max,
    whole_min,
    repeat_sum
};
// dst_rep: BlockReduce* in units of eight elements, the others in elements.
void vec_reduce_level0(L0Reduce kind, ::evg::hw::DType t, const LocalRef& dst, const LocalRef& src,
                       MaskArg mask, int64_t repeat_time, int64_t dst_rep, int64_t src_blk, int64_t src_rep,
                       Site site);
void vec_brcb(::evg::hw::DType t, const LocalRef& dst, const LocalRef& src, int64_t repeat_time,
              uint32_t dst_blk, uint32_t dst_rep, Site site);
}  // namespace detail

#define EVG_ASCENDC_BLOCK_REDUCE(NAME, KIND)                                                            \
    template <typename T, bool isSetMask = true>                                                        \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,    \
                     const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,        \
                     const int32_t srcRepStride, Site site = Site::here()) {                            \
        detail::vec_reduce_level0(detail::L0Reduce::KIND, detail::l0_dtype<T>(), dst.ref(), src.ref(),  \
                                  detail::mask_arg<isSetMask>(static_cast<uint64_t>(mask)), repeatTime, \
                                  dstRepStride, srcBlkStride, srcRepStride, site);                      \
    }                                                                                                   \
    template <typename T, bool isSetMask = true>                                                        \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,    \
                     const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,     \
                     const int32_t srcRepStride, Site site = Site::here()) {                            \
        detail::vec_reduce_level0(detail::L0Reduce::KIND, detail::l0_dtype<T>(), dst.ref(), src.ref(),  \
                                  detail::mask_arg<isSetMask>(mask, detail::elem_bytes<T>), repeatTime, \
                                  dstRepStride, srcBlkStride, srcRepStride, site);                      \
    }
EVG_ASCENDC_BLOCK_REDUCE(BlockReduceSum, block_sum)
EVG_ASCENDC_BLOCK_REDUCE(BlockReduceMax, block_max)
EVG_ASCENDC_BLOCK_REDUCE(BlockReduceMin, block_min)
#undef EVG_ASCENDC_BLOCK_REDUCE

template <typename T, bool isSetMask = true>
inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                           const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                           const int32_t srcRepStride, Site site = Site::here()) {
    detail::vec_reduce_level0(detail::L0Reduce::whole_sum, detail::l0_dtype<T>(), dst.ref(), src.ref(),
                              detail::mask_arg<isSetMask>(mask, detail::elem_bytes<T>), repeatTime,
                              dstRepStride, srcBlkStride, srcRepStride, site);
}
template <typename T, bool isSetMask = true>
inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,
                           const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                           const int32_t srcRepStride, Site site = Site::here()) {
    detail::vec_reduce_level0(detail::L0Reduce::whole_sum, detail::l0_dtype<T>(), dst.ref(), src.ref(),
                              detail::mask_arg<isSetMask>(static_cast<uint64_t>(mask)), repeatTime,
                              dstRepStride, srcBlkStride, srcRepStride, site);
}

// WholeReduceMax/Min: ORDER_ONLY_VALUE is modelled; the orders that also write the index are not.
#define EVG_ASCENDC_WHOLE_REDUCE(NAME, KIND)                                                                \
    template <typename T, bool isSetMask = true>                                                            \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],           \
                     const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,      \
                     const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,        \
                     Site site = Site::here()) {                                                            \
        if (order != ReduceOrder::ORDER_ONLY_VALUE) detail::unmodelled(#NAME " with an index order", site); \
        detail::vec_reduce_level0(detail::L0Reduce::KIND, detail::l0_dtype<T>(), dst.ref(), src.ref(),      \
                                  detail::mask_arg<isSetMask>(mask, detail::elem_bytes<T>), repeatTime,     \
                                  dstRepStride, srcBlkStride, srcRepStride, site);                          \
    }                                                                                                       \
    template <typename T, bool isSetMask = true>                                                            \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,              \
                     const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,      \
                     const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,        \
                     Site site = Site::here()) {                                                            \
        if (order != ReduceOrder::ORDER_ONLY_VALUE) detail::unmodelled(#NAME " with an index order", site); \
        detail::vec_reduce_level0(detail::L0Reduce::KIND, detail::l0_dtype<T>(), dst.ref(), src.ref(),      \
                                  detail::mask_arg<isSetMask>(static_cast<uint64_t>(mask)), repeatTime,     \
                                  dstRepStride, srcBlkStride, srcRepStride, site);                          \
    }
EVG_ASCENDC_WHOLE_REDUCE(WholeReduceMax, whole_max)
EVG_ASCENDC_WHOLE_REDUCE(WholeReduceMin, whole_min)
#undef EVG_ASCENDC_WHOLE_REDUCE

// RepeatReduceSum: dstBlkStride has no effect.
template <typename T, bool isSetMask = true>
inline void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                            const int32_t mask, const int32_t dstBlkStride, const int32_t srcBlkStride,
                            const int32_t dstRepStride, const int32_t srcRepStride,
                            Site site = Site::here()) {
    (void)dstBlkStride;
    detail::vec_reduce_level0(detail::L0Reduce::repeat_sum, detail::l0_dtype<T>(), dst.ref(), src.ref(),
                              detail::mask_arg<isSetMask>(static_cast<uint64_t>(mask)), repeatTime,
                              dstRepStride, srcBlkStride, srcRepStride, site);
}

template <typename T>
inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t repeatTime,
                 const BrcbRepeatParams& repeatParams, Site site = Site::here()) {
    detail::vec_brcb(detail::l0_dtype<T>(), dst.ref(), src0.ref(), repeatTime, repeatParams.dstBlkStride,
                     repeatParams.dstRepStride, site);
}

}  // namespace AscendC
