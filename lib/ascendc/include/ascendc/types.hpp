// AscendC basic vocabulary: qualifiers, element types, pipes, events, positions, round modes.
#pragma once
#include <cstdint>

#include "evg/hw/arch.hpp"
#include "evg/hw/numeric/convert.hpp"
#include "evg/hw/numeric/types.hpp"
#include "evg/hw/site.hpp"

// The compiler-predefined environment (qualifiers, global pipe_t / event_t).
#include "ascendc/predefined.hpp"

using half = ::evg::hw::half;
using bfloat16_t = ::evg::hw::bfloat16;
using GM_ADDR = __gm__ uint8_t*;

#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

namespace AscendC {

using ::evg::hw::HardEvent;
using RoundMode = ::evg::hw::RoundMode;

// The compiler's enums, also reachable as AscendC::PIPE_V and AscendC::EVENT_ID0.
using ::EVENT_ID0;
using ::EVENT_ID1;
using ::EVENT_ID2;
using ::EVENT_ID3;
using ::EVENT_ID4;
using ::EVENT_ID5;
using ::EVENT_ID6;
using ::EVENT_ID7;
using ::event_t;
using ::PIPE_ALL;
using ::PIPE_FIX;
using ::PIPE_M;
using ::PIPE_MTE1;
using ::PIPE_MTE2;
using ::PIPE_MTE3;
using ::PIPE_S;
using ::pipe_t;
using ::PIPE_V;

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
    C2PIPE2GM,  // the fixpipe buffer (FB): quantisation parameters for Fixpipe
    LCM = VECCALC
};
using QuePosition = TPosition;

enum class CacheMode : uint8_t { CACHE_MODE_NORMAL, CACHE_MODE_DISABLE, CACHE_MODE_LAST };

enum AscendCCoreType : uint8_t { MIX = 0, AIC = 1, AIV = 2 };

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
        case TPosition::C2PIPE2GM:
            return ::evg::hw::MemKind::FB;
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
