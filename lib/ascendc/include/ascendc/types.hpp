// AscendC basic vocabulary: qualifiers, element types, pipes, events, positions, round modes.
#pragma once
#include <cstdint>

#include "evg/hw/arch.hpp"
#include "evg/hw/numeric/convert.hpp"
#include "evg/hw/numeric/types.hpp"
#include "evg/hw/site.hpp"

// Device qualifiers compile to nothing on the model, as in the CPU debug flow.
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef __inline__
#define __inline__ inline
#endif

using half = ::evg::hw::half;
using bfloat16_t = ::evg::hw::bfloat16;
using GM_ADDR = uint8_t*;

namespace AscendC {

using ::evg::hw::HardEvent;
using RoundMode = ::evg::hw::RoundMode;

enum pipe_t : uint8_t {
    PIPE_S = 0,
    PIPE_V = 1,
    PIPE_M = 2,
    PIPE_MTE1 = 3,
    PIPE_MTE2 = 4,
    PIPE_MTE3 = 5,
    PIPE_ALL = 6,
    PIPE_FIX = 10
};

enum event_t : int32_t {
    EVENT_ID0 = 0,
    EVENT_ID1,
    EVENT_ID2,
    EVENT_ID3,
    EVENT_ID4,
    EVENT_ID5,
    EVENT_ID6,
    EVENT_ID7
};

enum class TPosition : uint8_t {
    GM,
    A1,
    A2,
    B1,
    B2,
    C1,
    C2,
    CO1,
    CO2,
    VECIN,
    VECOUT,
    VECCALC,
    LCM = VECCALC
};
using QuePosition = TPosition;

enum class CacheMode : uint8_t { CACHE_MODE_NORMAL, CACHE_MODE_DISABLE, CACHE_MODE_LAST };

enum AscendCCoreType : uint8_t { AIC = 1, AIV = 2 };

// Storage of a position in the model.
constexpr ::evg::hw::MemKind position_memory(TPosition p) {
    switch (p) {
        case TPosition::GM:
            return ::evg::hw::MemKind::GM;
        case TPosition::A1:
        case TPosition::B1:
        case TPosition::C1:
            return ::evg::hw::MemKind::L1;
        case TPosition::A2:
            return ::evg::hw::MemKind::L0A;
        case TPosition::B2:
            return ::evg::hw::MemKind::L0B;
        case TPosition::CO1:
            return ::evg::hw::MemKind::L0C;
        case TPosition::C2:
            return ::evg::hw::MemKind::BT;
        case TPosition::CO2:
        case TPosition::VECIN:
        case TPosition::VECOUT:
        case TPosition::VECCALC:
            return ::evg::hw::MemKind::UB;
    }
    return ::evg::hw::MemKind::UB;
}

template <class T>
inline constexpr ::evg::hw::DType dtype_v = ::evg::hw::dtype_of_v<T>;

using Site = ::evg::hw::Site;

}  // namespace AscendC
