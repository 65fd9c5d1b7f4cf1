// System calls and constants upstream Catlass names beyond the EVG path: vector and cube geometry constants,
// CeilDivision, GetTaskRation, TEventID, ICachePreLoad, SyncAll, Mutex, the control registers, InitConstValue
// and the bisheng intrinsic pipe_barrier. What each does on the model: docs/ascendc-api.md.
#pragma once
#include <cstdint>

#include "ascendc/sync.hpp"
#include "ascendc/tensor.hpp"
#include "ascendc/types.hpp"
#include "ascendc/unmodelled.hpp"

namespace AscendC {

inline constexpr uint32_t VECTOR_REG_WIDTH = 256;  // bytes in one vector register / one repeat
inline constexpr uint32_t ONE_BLK_SIZE = 32;       // bytes in one DataBlock
inline constexpr uint32_t ONE_BLOCK_SIZE = 32;
inline constexpr uint32_t BLOCK_CUBE = 16;  // rows and columns of one cube fractal

// Bytes in one vector register (VECTOR_REG_WIDTH), as a constant expression.
constexpr uint32_t GetVecLen() {
    return VECTOR_REG_WIDTH;
}

// ceil(a / b) for positive integers; 0 when b is 0.
template <class T, class U>
constexpr auto CeilDivision(T a, U b) {
    return b == 0 ? decltype(a + b)(0) : decltype(a + b)((a + b - 1) / b);
}

// AIV cores per AIC in a mixed kernel (2), 1 on an AIC: GetTaskRatio's other spelling.
inline int64_t GetTaskRation() {
    return GetTaskRatio();
}

using TEventID = int8_t;

// Preloads `n` instruction-cache lines. The model has no instruction cache: nothing to do.
inline void ICachePreLoad(const int64_t n) {
    (void)n;
}

// The value of a 16-bit float as float.
inline float ToFloat(half v) {
    return static_cast<float>(v);
}
inline float ToFloat(bfloat16_t v) {
    return static_cast<float>(v);
}

// Synchronises every core of the launch (isAIVOnly: every AIV). Declared only.
template <bool isAIVOnly = true>
inline void SyncAll(Site site = Site::here()) {
    detail::unmodelled(isAIVOnly ? "SyncAll<true>" : "SyncAll<false>", site);
}

// Ascend950's hardware mutexes between the pipes of one core (ids 0-27). Declared only.
struct Mutex {
    template <pipe_t pipe>
    static void Lock(int32_t mutexId, Site site = Site::here()) {
        (void)mutexId;
        detail::unmodelled("Mutex::Lock", site);
    }
    template <pipe_t pipe>
    static void Unlock(int32_t mutexId, Site site = Site::here()) {
        (void)mutexId;
        detail::unmodelled("Mutex::Unlock", site);
    }
};

// Bits [startBit, endBit] of the CTRL special-purpose register (float overflow mode, ...). Declared only.
template <int8_t startBit, int8_t endBit>
inline void SetCtrlSpr(int64_t value, Site site = Site::here()) {
    (void)value;
    detail::unmodelled("SetCtrlSpr", site);
}
template <int8_t startBit, int8_t endBit>
inline int64_t GetCtrlSpr(Site site = Site::here()) {
    detail::unmodelled("GetCtrlSpr", site);
}

// InitConstValue: fills `repeatTimes` runs of `blockNum` 32-byte blocks of an L1 / L0A / L0B tensor with
// `initValue`, skipping `dstGap` blocks between runs.
template <class T>
struct InitConstValueParams {
    InitConstValueParams() = default;
    InitConstValueParams(uint16_t repeatTimesIn, uint16_t blockNumIn, uint16_t dstGapIn, T initValueIn)
        : repeatTimes(repeatTimesIn), blockNum(blockNumIn), dstGap(dstGapIn), initValue(initValueIn) {}
    uint16_t repeatTimes = 0;
    uint16_t blockNum = 0;
    uint16_t dstGap = 0;
    T initValue{};
};

namespace detail {
// One instruction on PIPE_MTE2 writing the runs; `value` holds `elem` bytes.
void init_const_value(const LocalRef& dst, uint16_t repeat, uint16_t block_num, uint16_t dst_gap,
                      const void* value, uint32_t elem, Site site);
}  // namespace detail

template <class T, class U>
inline void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<U>& p,
                           Site site = Site::here()) {
    T v = static_cast<T>(p.initValue);
    detail::init_const_value(dst.ref(), p.repeatTimes, p.blockNum, p.dstGap, &v, sizeof(T), site);
}

// TransDataTo5HD: transposes 16 rows given by UB addresses into 16 columns (NCHW -> NC1HWC0), on PIPE_V.
// Declared only.
struct TransDataTo5HDParams {
    TransDataTo5HDParams() = default;
    TransDataTo5HDParams(bool dstHighHalfIn, bool srcHighHalfIn, uint8_t repeatTimesIn,
                         uint16_t dstRepStrideIn, uint16_t srcRepStrideIn)
        : dstHighHalf(dstHighHalfIn),
          srcHighHalf(srcHighHalfIn),
          repeatTimes(repeatTimesIn),
          dstRepStride(dstRepStrideIn),
          srcRepStride(srcRepStrideIn) {}
    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
};
template <class T>
inline void TransDataTo5HD(const uint64_t dstList[], const uint64_t srcList[], const TransDataTo5HDParams& p,
                           Site site = Site::here()) {
    (void)dstList;
    (void)srcList;
    (void)p;
    detail::unmodelled("TransDataTo5HD", site);
}
template <class T>
inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[16], const LocalTensor<T> (&srcList)[16],
                           const TransDataTo5HDParams& p, Site site = Site::here()) {
    (void)dstList;
    (void)srcList;
    (void)p;
    detail::unmodelled("TransDataTo5HD", site);
}

}  // namespace AscendC

// bisheng's intrinsic form of PipeBarrier, as AtlasA2 code calls it.
inline void pipe_barrier(pipe_t pipe, ::AscendC::Site site = ::AscendC::Site::here()) {
    ::AscendC::detail::pipe_barrier(pipe, site);
}
