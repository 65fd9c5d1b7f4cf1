// The Ascend950 register ("MicroAPI", also "Reg") vector API: registers, their enums and traits, and every
// call upstream Catlass makes on them. None of it is on the EVG path and the model does not execute it: the
// types are empty, and each call stops the core with an unmodelled_call violation that names the call and the
// caller's file:line (docs/ascendc-api.md). The calls are listed in unmodelled_calls.def.
//
// Signatures accept what upstream writes: an optional leading template head (element types, distribution
// modes, traits: see EVG_REG_HEAD_*) and any operands (registers, UB pointers, scalars, masks). Calls whose
// name also exists for LocalTensor (Add, DataCopy, Cast, ...) take part in overload resolution only when one
// operand is a register, so `using namespace AscendC::MicroAPI` leaves the tensor API as it was.
#pragma once
#include <cstdint>

#include "ascendc/types.hpp"
#include "ascendc/unmodelled.hpp"

namespace AscendC::Reg {

struct DefaultType {};

// A vector register of VECTOR_REG_WIDTH bytes holding elements of T.
template <class T, class Trait = DefaultType>
struct RegTensor {
    using ActualT = T;
};
struct MaskReg {};             // a predicate register: one bit per byte lane
struct UnalignReg {};          // the state of an unaligned load stream
struct UnalignRegForStore {};  // the state of an unaligned store stream
struct AddrReg {};             // an address register (loop-strided offsets)

enum class MaskPattern : uint8_t {
    ALL,
    VL1,
    VL2,
    VL3,
    VL4,
    VL8,
    VL16,
    VL32,
    VL64,
    VL128,
    M3,
    M4,
    H,
    Q,
    ALLF
};
enum class MaskMergeMode : uint8_t { ZEROING, MERGING };
enum class PostLiteral : uint8_t { POST_MODE_NORMAL, POST_MODE_UPDATE };
enum class DataCopyMode : uint8_t { DATA_BLOCK_COPY };
enum class MemType : uint8_t { VEC_STORE, VEC_LOAD, SCALAR_STORE, SCALAR_LOAD, VEC_ALL, SCALAR_ALL };
enum class ReduceType : uint8_t { SUM, MAX, MIN };
enum class SatMode : uint8_t { UNKNOWN, NO_SAT, SAT };
enum class RegLayout : uint8_t { UNKNOWN, ZERO, ONE, TWO, THREE };
enum class HighLowPart : uint8_t { LOWEST, HIGHEST };
enum class MaskDist : uint8_t { DIST_NORM, DIST_PACK, DIST_US, DIST_DS };
enum class LoadDist : uint8_t {
    DIST_NORM,
    DIST_BRC_B8,
    DIST_BRC_B16,
    DIST_BRC_B32,
    DIST_US_B8,
    DIST_US_B16,
    DIST_DS_B8,
    DIST_DS_B16,
    DIST_UNPACK_B8,
    DIST_UNPACK_B16,
    DIST_UNPACK_B32,
    DIST_UNPACK4_B8,
    DIST_DINTLV_B8,
    DIST_DINTLV_B16,
    DIST_DINTLV_B32,
    DIST_BLK,
    DIST_E2B_B16,
    DIST_E2B_B32,
};
enum class StoreDist : uint8_t {
    DIST_NORM,
    DIST_NORM_B8,
    DIST_NORM_B16,
    DIST_NORM_B32,
    DIST_FIRST_ELEMENT_B8,
    DIST_FIRST_ELEMENT_B16,
    DIST_FIRST_ELEMENT_B32,
    DIST_PACK_B16,
    DIST_PACK_B32,
    DIST_PACK_B64,
    DIST_PACK4_B32,
    DIST_INTLV_B8,
    DIST_INTLV_B16,
    DIST_INTLV_B32,
};

// How Cast lays out, saturates, masks and rounds.
struct CastTrait {
    RegLayout layoutMode = RegLayout::UNKNOWN;
    SatMode satMode = SatMode::UNKNOWN;
    MaskMergeMode mrgMode = MaskMergeMode::ZEROING;
    RoundMode roundMode = RoundMode::CAST_NONE;
};
// Div's masking and precision mode.
struct DivSpecificMode {
    MaskMergeMode mrgMode = MaskMergeMode::ZEROING;
    bool precisionMode = false;
};

namespace detail {
template <class T>
struct is_reg {
    static constexpr bool value = false;
};
template <class T>
struct is_reg<T&> : is_reg<T> {};
template <class T>
struct is_reg<T&&> : is_reg<T> {};
template <class T>
struct is_reg<const T> : is_reg<T> {};
template <class T, class Trait>
struct is_reg<RegTensor<T, Trait>> {
    static constexpr bool value = true;
};
template <>
struct is_reg<MaskReg> {
    static constexpr bool value = true;
};
template <>
struct is_reg<UnalignReg> {
    static constexpr bool value = true;
};
template <>
struct is_reg<UnalignRegForStore> {
    static constexpr bool value = true;
};
template <>
struct is_reg<AddrReg> {
    static constexpr bool value = true;
};
template <class... A>
inline constexpr bool any_reg_v = (is_reg<A>::value || ...);
}  // namespace detail

// Template heads before the deduced operands, as upstream writes them: LoadAlign<T, LoadDist::X>,
// Cast<To, From, trait>, Duplicate<T, MaskMergeMode::ZEROING, U>, Reduce<ReduceType::SUM, T, U, mode>.
#define EVG_REG_HEAD_TV class T0 = DefaultType, auto... M
#define EVG_REG_HEAD_TTV class T0 = DefaultType, class T1 = DefaultType, auto... M
#define EVG_REG_HEAD_TVT class T0 = DefaultType, auto M0 = 0, class T1 = DefaultType, auto... M
#define EVG_REG_HEAD_VTTV auto M0 = 0, class T0 = DefaultType, class T1 = DefaultType, auto... M
#define EVG_REG_HEAD_V auto... M

#define EVG_REG_TP1 class A0
#define EVG_REG_TP2 EVG_REG_TP1, class A1
#define EVG_REG_TP3 EVG_REG_TP2, class A2
#define EVG_REG_TP4 EVG_REG_TP3, class A3
#define EVG_REG_TP5 EVG_REG_TP4, class A4
#define EVG_REG_TP6 EVG_REG_TP5, class A5
#define EVG_REG_FP1 A0&&
#define EVG_REG_FP2 EVG_REG_FP1, A1&&
#define EVG_REG_FP3 EVG_REG_FP2, A2&&
#define EVG_REG_FP4 EVG_REG_FP3, A3&&
#define EVG_REG_FP5 EVG_REG_FP4, A4&&
#define EVG_REG_FP6 EVG_REG_FP5, A5&&
#define EVG_REG_AP1 A0
#define EVG_REG_AP2 EVG_REG_AP1, A1
#define EVG_REG_AP3 EVG_REG_AP2, A2
#define EVG_REG_AP4 EVG_REG_AP3, A3
#define EVG_REG_AP5 EVG_REG_AP4, A4
#define EVG_REG_AP6 EVG_REG_AP5, A5
#define EVG_REG_REQ_REG(N) requires detail::any_reg_v<EVG_REG_AP##N>
#define EVG_REG_REQ_ANY(N)

#define EVG_REG_OVERLOAD(name, head, ret, req, N)                                                         \
    template <EVG_REG_HEAD_##head, EVG_REG_TP##N>                                                         \
    EVG_REG_REQ_##req(N) inline ret name(EVG_REG_FP##N, ::AscendC::Site site = ::AscendC::Site::here()) { \
        ::AscendC::detail::unmodelled("MicroAPI::" #name, site);                                          \
    }
#define EVG_UNMODELLED_REG(name, head, ret, req)                                             \
    template <EVG_REG_HEAD_##head>                                                           \
    inline ret name(::AscendC::Site site =                                                   \
                        ::AscendC::Site::here()) requires(sizeof(EVG_REG_KIND_##req) == 2) { \
        ::AscendC::detail::unmodelled("MicroAPI::" #name, site);                             \
    }                                                                                        \
    EVG_REG_OVERLOAD(name, head, ret, req, 1)                                                \
    EVG_REG_OVERLOAD(name, head, ret, req, 2)                                                \
    EVG_REG_OVERLOAD(name, head, ret, req, 3)                                                \
    EVG_REG_OVERLOAD(name, head, ret, req, 4)                                                \
    EVG_REG_OVERLOAD(name, head, ret, req, 5)                                                \
    EVG_REG_OVERLOAD(name, head, ret, req, 6)
// Without operands only the ANY calls exist (CreateMask<T, MaskPattern::ALL>(), LocalMemBar<...>()).
#define EVG_REG_KIND_REG char
#define EVG_REG_KIND_ANY short
#include "ascendc/unmodelled_calls.def"
#undef EVG_REG_KIND_REG
#undef EVG_REG_KIND_ANY
#undef EVG_REG_OVERLOAD
#undef EVG_REG_REQ_REG
#undef EVG_REG_REQ_ANY

}  // namespace AscendC::Reg

namespace AscendC {
namespace MicroAPI = Reg;
}  // namespace AscendC

// bisheng's post-update literal of the store intrinsics, and vstas (store an unaligned register's tail).
enum : uint8_t { POST_UPDATE = 1 };
template <class U, class P, class O, class M>
inline void vstas(U&&, P&&, O&&, M&&, ::AscendC::Site site = ::AscendC::Site::here()) {
    ::AscendC::detail::unmodelled("vstas", site);
}
