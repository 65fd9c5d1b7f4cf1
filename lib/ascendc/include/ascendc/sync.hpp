// Intra-core and cross-core synchronisation, atomics, and the core identity queries.
#pragma once
#include <cstdint>

#include "ascendc/types.hpp"

namespace AscendC {

namespace detail {
void set_flag(HardEvent e, int32_t id, Site site);
void wait_flag(HardEvent e, int32_t id, Site site);
void pipe_barrier(pipe_t p, Site site);
void cross_core_set(uint8_t mode, pipe_t p, uint16_t flag, Site site);
void cross_core_wait(uint8_t mode, pipe_t p, uint16_t flag, Site site);
void set_atomic(int op, ::evg::hw::DType t, Site site);  // op: 0 none, 1 add, 2 max, 3 min
bool is_aic();
}  // namespace detail

template <HardEvent event>
inline void SetFlag(int32_t eventID, Site site = Site::here()) {
    detail::set_flag(event, eventID, site);
}
template <HardEvent event>
inline void WaitFlag(int32_t eventID, Site site = Site::here()) {
    detail::wait_flag(event, eventID, site);
}
template <pipe_t pipe>
inline void PipeBarrier(Site site = Site::here()) {
    detail::pipe_barrier(pipe, site);
}

template <uint8_t modeId, pipe_t pipe>
inline void CrossCoreSetFlag(uint16_t flagId, Site site = Site::here()) {
    detail::cross_core_set(modeId, pipe, flagId, site);
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
inline void CrossCoreWaitFlag(uint16_t flagId, Site site = Site::here()) {
    detail::cross_core_wait(modeId, pipe, flagId, site);
}

template <class T>
inline void SetAtomicAdd(Site site = Site::here()) {
    detail::set_atomic(1, dtype_v<T>, site);
}
template <class T>
inline void SetAtomicMax(Site site = Site::here()) {
    detail::set_atomic(2, dtype_v<T>, site);
}
template <class T>
inline void SetAtomicMin(Site site = Site::here()) {
    detail::set_atomic(3, dtype_v<T>, site);
}
inline void SetAtomicNone(Site site = Site::here()) {
    detail::set_atomic(0, ::evg::hw::DType::f32, site);
}
inline void DisableDmaAtomic(Site site = Site::here()) {
    detail::set_atomic(0, ::evg::hw::DType::f32, site);
}

int64_t GetBlockIdx();
int64_t GetBlockNum();
int64_t GetSubBlockIdx();
int64_t GetSubBlockNum();
int64_t GetTaskRatio();
inline void SetSyncBaseAddr(uint64_t) {}  // the FFTS base address: nothing to do on the model

}  // namespace AscendC

// The core type a translation unit is compiled for. bisheng compiles a mixed kernel once per core type
// (`__DAV_CUBE__` for the AIC pass, `__DAV_VEC__` for the AIV pass), so on device this is a constant. The
// model runs one compiled function on every core, so without either macro it is MIX: code that selects per
// core at run time (`if ASCEND_IS_AIV { ... }`, as every kernel on the EVG path does) runs right on every
// core; code that needs the core type as a template argument (`BarrierFlag<MODE, g_coreType>`) fails to
// compile rather than pick one core's flag for both (docs/ascendc-device-environment.md, "g_coreType").
#if defined(__DAV_CUBE__) && !defined(__DAV_VEC__)
constexpr int32_t g_coreType = AscendC::AIC;
#elif defined(__DAV_VEC__) && !defined(__DAV_CUBE__)
constexpr int32_t g_coreType = AscendC::AIV;
#else
constexpr int32_t g_coreType = AscendC::MIX;
#endif

// In AscendC these are `constexpr(g_coreType == AscendC::AIV)` after `if`, resolved per compiler pass. On the
// model every core runs the same function and the test is made at run time: `if ASCEND_IS_AIC { ... }` still
// reads as intended.
#define ASCEND_IS_AIC (::AscendC::detail::is_aic())
#define ASCEND_IS_AIV (!::AscendC::detail::is_aic())
#define ASCEND_IS_NOT_AIC (!::AscendC::detail::is_aic())
#define ASCEND_IS_NOT_AIV (::AscendC::detail::is_aic())
