// The level-0 ("mask and repeat") vector API (docs/hardware-model.md §6.1, docs/ascendc-device-environment.md
// §4): each call runs `repeatTime` repeats of 8 DataBlocks (32 B) per operand, blocks blkStride apart and
// repeats repStride apart (32 B units), under the mask: first-k (`uint64_t mask`), bit-wise
// (`const uint64_t mask[]`: mask[0] the low 64 elements, mask[1] the high 64, read for 16-bit types only) or,
// with isSetMask = false, the register set by SetVectorMask. In counter mode (SetMaskCount) the register's
// low word is the total element count and repeatTime is ignored. Masked-off lanes are not written.
// Also the count forms of the calls that only this family has (And, Or, ShiftLeft, Axpy, MulAddDst).
#pragma once
#include <cstdint>
#include <type_traits>

#include "ascendc/tensor.hpp"
#include "ascendc/vector.hpp"
#include "ascendc/vector_mask.hpp"

namespace AscendC {

namespace detail {

// The mask operand of one level-0 call.
struct MaskArg {
    enum class Kind : uint8_t { first_k, bits, reg };
    Kind kind = Kind::reg;
    uint64_t high = 0, low = 0;  // first_k: low = k
};
template <bool isSetMask>
inline MaskArg mask_arg(uint64_t k) {
    if constexpr (isSetMask) return {MaskArg::Kind::first_k, 0, k};
    return {};
}
// mask[1] exists for 16-bit (and narrower) elements only: a 32-bit call passes one word.
template <bool isSetMask>
inline MaskArg mask_arg(const uint64_t mask[], uint32_t es) {
    if constexpr (isSetMask) return {MaskArg::Kind::bits, es <= 2 ? mask[1] : 0, mask[0]};
    return {};
}

// One operand of a level-0 instruction: where, its element size, its strides in 32-byte blocks.
struct L0Operand {
    LocalRef ref;
    uint32_t es = 4;
    uint32_t blk = 1;
    uint32_t rep = 8;
};

// What an element-wise level-0 instruction computes per enabled lane.
enum class L0Kind : uint8_t {
    element,      // dst = op(src0[, src1 | scalar]) with VecOp's lane function
    cast,         // dst = convert(src0, round)
    copy,         // dst = src0 (bits)
    mul_add_dst,  // dst = src0 * src1 + dst
    axpy,         // dst = src0 * scalar + dst
};

struct L0Call {
    L0Kind kind = L0Kind::element;
    VecOp op = VecOp::Add;
    ::evg::hw::DType dtype = ::evg::hw::DType::f32;      // dst's element type
    ::evg::hw::DType src_dtype = ::evg::hw::DType::f32;  // src0's (cast, mul_add_dst, axpy)
    RoundMode round = RoundMode::CAST_NONE;
    double scalar = 0.0;
};

// Issues one element-wise level-0 instruction on the current core (dst, then up to two sources).
void vec_level0(const L0Call& call, const L0Operand& dst, const L0Operand* src0, const L0Operand* src1,
                MaskArg mask, int64_t repeat_time, Site site);

// The model's element type of T: uint16_t and uint32_t lanes are ruled and moved as int16 and int32.
template <class T>
constexpr ::evg::hw::DType l0_dtype() {
    if constexpr (std::is_same_v<T, uint16_t>)
        return ::evg::hw::DType::i16;
    else if constexpr (std::is_same_v<T, uint32_t>)
        return ::evg::hw::DType::i32;
    else
        return dtype_v<T>;
}

template <class T>
inline L0Operand l0_operand(const LocalTensor<T>& t, uint32_t blk, uint32_t rep) {
    return {t.ref(), static_cast<uint32_t>(sizeof(T)), blk, rep};
}

template <class T>
inline void l0_binary(VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                      const LocalTensor<T>& src1, MaskArg mask, uint8_t repeatTime,
                      const BinaryRepeatParams& p, Site site) {
    const L0Operand d = l0_operand(dst, p.dstBlkStride, p.dstRepStride);
    const L0Operand a = l0_operand(src0, p.src0BlkStride, p.src0RepStride);
    const L0Operand b = l0_operand(src1, p.src1BlkStride, p.src1RepStride);
    vec_level0({L0Kind::element, op, l0_dtype<T>(), l0_dtype<T>()}, d, &a, &b, mask, repeatTime, site);
}

template <class T>
inline void l0_unary(VecOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src, double scalar,
                     MaskArg mask, uint8_t repeatTime, const UnaryRepeatParams& p, Site site) {
    const L0Operand d = l0_operand(dst, p.dstBlkStride, p.dstRepStride);
    const L0Operand a = l0_operand(src, p.srcBlkStride, p.srcRepStride);
    L0Call c{L0Kind::element, op, l0_dtype<T>(), l0_dtype<T>()};
    c.scalar = scalar;
    vec_level0(c, d, &a, nullptr, mask, repeatTime, site);
}

// Count form of a level-0-only call: counter mode over `count` elements with default strides, then normal
// mode and a full mask, as every count form leaves the register (docs/hardware-model.md §6.1).
void l0_count_form_begin(uint64_t count);
void l0_count_form_end();
}  // namespace detail

// ---- Two sources: Add, Sub, Mul, Div, Max, Min, And, Or ----
#define EVG_ASCENDC_L0_BINARY(NAME)                                                                     \
    template <typename T, bool isSetMask = true>                                                        \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                     const uint64_t mask[], const uint8_t repeatTime,                                   \
                     const BinaryRepeatParams& repeatParams, Site site = Site::here()) {                \
        detail::l0_binary(detail::VecOp::NAME, dst, src0, src1,                                         \
                          detail::mask_arg<isSetMask>(mask, detail::elem_bytes<T>), repeatTime,         \
                          repeatParams, site);                                                          \
    }                                                                                                   \
    template <typename T, bool isSetMask = true>                                                        \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                     uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams,   \
                     Site site = Site::here()) {                                                        \
        detail::l0_binary(detail::VecOp::NAME, dst, src0, src1, detail::mask_arg<isSetMask>(mask),      \
                          repeatTime, repeatParams, site);                                              \
    }
EVG_ASCENDC_L0_BINARY(Add)
EVG_ASCENDC_L0_BINARY(Sub)
EVG_ASCENDC_L0_BINARY(Mul)
EVG_ASCENDC_L0_BINARY(Div)
EVG_ASCENDC_L0_BINARY(Max)
EVG_ASCENDC_L0_BINARY(Min)
EVG_ASCENDC_L0_BINARY(And)
EVG_ASCENDC_L0_BINARY(Or)
#undef EVG_ASCENDC_L0_BINARY

// And and Or over the first `count` elements.
#define EVG_ASCENDC_L0_BINARY_COUNT(NAME)                                                                   \
    template <typename T>                                                                                   \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,     \
                     const int32_t& count, Site site = Site::here()) {                                      \
        detail::l0_count_form_begin(static_cast<uint64_t>(count < 0 ? 0 : count));                          \
        detail::l0_binary(detail::VecOp::NAME, dst, src0, src1, detail::MaskArg{}, 1, BinaryRepeatParams{}, \
                          site);                                                                            \
        detail::l0_count_form_end();                                                                        \
    }
EVG_ASCENDC_L0_BINARY_COUNT(And)
EVG_ASCENDC_L0_BINARY_COUNT(Or)
#undef EVG_ASCENDC_L0_BINARY_COUNT

// ---- One source and a scalar: Adds, Muls, Maxs, Mins, LeakyRelu, ShiftLeft ----
#define EVG_ASCENDC_L0_SCALAR(NAME)                                                                          \
    template <typename T, bool isSetMask = true>                                                             \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,             \
                     const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, \
                     Site site = Site::here()) {                                                             \
        detail::l0_unary(detail::VecOp::NAME, dst, src, detail::scalar_value(scalarValue),                   \
                         detail::mask_arg<isSetMask>(mask, detail::elem_bytes<T>), repeatTime, repeatParams, \
                         site);                                                                              \
    }                                                                                                        \
    template <typename T, bool isSetMask = true>                                                             \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,             \
                     uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,         \
                     Site site = Site::here()) {                                                             \
        detail::l0_unary(detail::VecOp::NAME, dst, src, detail::scalar_value(scalarValue),                   \
                         detail::mask_arg<isSetMask>(mask), repeatTime, repeatParams, site);                 \
    }
EVG_ASCENDC_L0_SCALAR(Adds)
EVG_ASCENDC_L0_SCALAR(Muls)
EVG_ASCENDC_L0_SCALAR(Maxs)
EVG_ASCENDC_L0_SCALAR(Mins)
EVG_ASCENDC_L0_SCALAR(LeakyRelu)
EVG_ASCENDC_L0_SCALAR(ShiftLeft)
#undef EVG_ASCENDC_L0_SCALAR

// ShiftLeft over the first `count` elements.
template <typename T, bool isSetMask = true>
inline void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
                      const int32_t& count, Site site = Site::here()) {
    detail::l0_count_form_begin(static_cast<uint64_t>(count < 0 ? 0 : count));
    detail::l0_unary(detail::VecOp::ShiftLeft, dst, src, detail::scalar_value(scalarValue), detail::MaskArg{},
                     1, UnaryRepeatParams{}, site);
    detail::l0_count_form_end();
}

// ---- One source: Exp, Ln, Abs, Relu, Sqrt, Rsqrt, Reciprocal ----
#define EVG_ASCENDC_L0_UNARY(NAME)                                                                           \
    template <typename T, bool isSetMask = true>                                                             \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],            \
                     const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,                        \
                     Site site = Site::here()) {                                                             \
        detail::l0_unary(detail::VecOp::NAME, dst, src, 0.0,                                                 \
                         detail::mask_arg<isSetMask>(mask, detail::elem_bytes<T>), repeatTime, repeatParams, \
                         site);                                                                              \
    }                                                                                                        \
    template <typename T, bool isSetMask = true>                                                             \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,                    \
                     const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,                        \
                     Site site = Site::here()) {                                                             \
        detail::l0_unary(detail::VecOp::NAME, dst, src, 0.0, detail::mask_arg<isSetMask>(mask), repeatTime,  \
                         repeatParams, site);                                                                \
    }
EVG_ASCENDC_L0_UNARY(Exp)
EVG_ASCENDC_L0_UNARY(Ln)
EVG_ASCENDC_L0_UNARY(Abs)
EVG_ASCENDC_L0_UNARY(Relu)
EVG_ASCENDC_L0_UNARY(Sqrt)
EVG_ASCENDC_L0_UNARY(Rsqrt)
EVG_ASCENDC_L0_UNARY(Reciprocal)
#undef EVG_ASCENDC_L0_UNARY

// ---- Duplicate: a scalar into every enabled lane ----
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const uint64_t mask[],
                      const uint8_t repeatTime, const uint16_t dstBlockStride, const uint8_t dstRepeatStride,
                      Site site = Site::here()) {
    detail::L0Call c{detail::L0Kind::element, detail::VecOp::Duplicate, detail::l0_dtype<T>(),
                     detail::l0_dtype<T>()};
    c.scalar = detail::scalar_value(scalarValue);
    detail::vec_level0(c, detail::l0_operand(dst, dstBlockStride, dstRepeatStride), nullptr, nullptr,
                       detail::mask_arg<isSetMask>(mask, detail::elem_bytes<T>), repeatTime, site);
}
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask,
                      const uint8_t repeatTime, const uint16_t dstBlockStride, const uint8_t dstRepeatStride,
                      Site site = Site::here()) {
    detail::L0Call c{detail::L0Kind::element, detail::VecOp::Duplicate, detail::l0_dtype<T>(),
                     detail::l0_dtype<T>()};
    c.scalar = detail::scalar_value(scalarValue);
    detail::vec_level0(c, detail::l0_operand(dst, dstBlockStride, dstRepeatStride), nullptr, nullptr,
                       detail::mask_arg<isSetMask>(mask), repeatTime, site);
}

// ---- Cast: the per-repeat element count follows the wider type ----
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                 const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                 Site site = Site::here()) {
    detail::L0Call c{detail::L0Kind::cast, detail::VecOp::Add, detail::l0_dtype<T>(), detail::l0_dtype<U>(),
                     roundMode};
    const auto d = detail::l0_operand(dst, repeatParams.dstBlkStride, repeatParams.dstRepStride);
    const auto s = detail::l0_operand(src, repeatParams.srcBlkStride, repeatParams.srcRepStride);
    constexpr uint32_t wide = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);
    detail::vec_level0(c, d, &s, nullptr, detail::mask_arg<isSetMask>(mask, wide), repeatTime, site);
}
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                 const uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                 Site site = Site::here()) {
    detail::L0Call c{detail::L0Kind::cast, detail::VecOp::Add, detail::l0_dtype<T>(), detail::l0_dtype<U>(),
                     roundMode};
    const auto d = detail::l0_operand(dst, repeatParams.dstBlkStride, repeatParams.dstRepStride);
    const auto s = detail::l0_operand(src, repeatParams.srcBlkStride, repeatParams.srcRepStride);
    detail::vec_level0(c, d, &s, nullptr, detail::mask_arg<isSetMask>(mask), repeatTime, site);
}

// ---- Copy: UB to UB on PIPE_V, lane by lane under the mask ----
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                 const uint8_t repeatTime, const CopyRepeatParams& repeatParams, Site site = Site::here()) {
    detail::L0Call c{detail::L0Kind::copy, detail::VecOp::Add, detail::l0_dtype<T>(), detail::l0_dtype<T>()};
    const auto d = detail::l0_operand(dst, repeatParams.dstStride, repeatParams.dstRepeatSize);
    const auto s = detail::l0_operand(src, repeatParams.srcStride, repeatParams.srcRepeatSize);
    detail::vec_level0(c, d, &s, nullptr, detail::mask_arg<isSetMask>(mask, detail::elem_bytes<T>),
                       repeatTime, site);
}
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask,
                 const uint8_t repeatTime, const CopyRepeatParams& repeatParams, Site site = Site::here()) {
    detail::L0Call c{detail::L0Kind::copy, detail::VecOp::Add, detail::l0_dtype<T>(), detail::l0_dtype<T>()};
    const auto d = detail::l0_operand(dst, repeatParams.dstStride, repeatParams.dstRepeatSize);
    const auto s = detail::l0_operand(src, repeatParams.srcStride, repeatParams.srcRepeatSize);
    detail::vec_level0(c, d, &s, nullptr, detail::mask_arg<isSetMask>(mask), repeatTime, site);
}

// ---- MulAddDst: dst = src0 * src1 + dst (dst may be float over half sources) ----
template <typename T, typename U, bool isSetMask = true>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                      const uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams,
                      Site site = Site::here()) {
    detail::L0Call c{detail::L0Kind::mul_add_dst, detail::VecOp::Mul, detail::l0_dtype<T>(),
                     detail::l0_dtype<U>()};
    const auto d = detail::l0_operand(dst, repeatParams.dstBlkStride, repeatParams.dstRepStride);
    const auto a = detail::l0_operand(src0, repeatParams.src0BlkStride, repeatParams.src0RepStride);
    const auto b = detail::l0_operand(src1, repeatParams.src1BlkStride, repeatParams.src1RepStride);
    constexpr uint32_t wide = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);
    detail::vec_level0(c, d, &a, &b, detail::mask_arg<isSetMask>(mask, wide), repeatTime, site);
}
template <typename T, typename U, bool isSetMask = true>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                      uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams,
                      Site site = Site::here()) {
    detail::L0Call c{detail::L0Kind::mul_add_dst, detail::VecOp::Mul, detail::l0_dtype<T>(),
                     detail::l0_dtype<U>()};
    const auto d = detail::l0_operand(dst, repeatParams.dstBlkStride, repeatParams.dstRepStride);
    const auto a = detail::l0_operand(src0, repeatParams.src0BlkStride, repeatParams.src0RepStride);
    const auto b = detail::l0_operand(src1, repeatParams.src1BlkStride, repeatParams.src1RepStride);
    detail::vec_level0(c, d, &a, &b, detail::mask_arg<isSetMask>(mask), repeatTime, site);
}
template <typename T, typename U>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                      const int32_t& count, Site site = Site::here()) {
    detail::l0_count_form_begin(static_cast<uint64_t>(count < 0 ? 0 : count));
    BinaryRepeatParams p;
    if constexpr (sizeof(T) > sizeof(U)) p.src0RepStride = p.src1RepStride = 4;
    MulAddDst<T, U, false>(dst, src0, src1, MASK_PLACEHOLDER, 1, p, site);
    detail::l0_count_form_end();
}

// ---- Axpy: dst = src * scalar + dst (dst may be float over a half source) ----
template <typename T, typename U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U scalarValue,
                 const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                 Site site = Site::here()) {
    detail::L0Call c{detail::L0Kind::axpy, detail::VecOp::Muls, detail::l0_dtype<T>(), detail::l0_dtype<U>()};
    c.scalar = detail::scalar_value(scalarValue);
    const auto d = detail::l0_operand(dst, repeatParams.dstBlkStride, repeatParams.dstRepStride);
    const auto a = detail::l0_operand(src, repeatParams.srcBlkStride, repeatParams.srcRepStride);
    constexpr uint32_t wide = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);
    detail::vec_level0(c, d, &a, nullptr, detail::mask_arg<isSetMask>(mask, wide), repeatTime, site);
}
template <typename T, typename U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U scalarValue, uint64_t mask,
                 const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, Site site = Site::here()) {
    detail::L0Call c{detail::L0Kind::axpy, detail::VecOp::Muls, detail::l0_dtype<T>(), detail::l0_dtype<U>()};
    c.scalar = detail::scalar_value(scalarValue);
    const auto d = detail::l0_operand(dst, repeatParams.dstBlkStride, repeatParams.dstRepStride);
    const auto a = detail::l0_operand(src, repeatParams.srcBlkStride, repeatParams.srcRepStride);
    detail::vec_level0(c, d, &a, nullptr, detail::mask_arg<isSetMask>(mask), repeatTime, site);
}
template <typename T, typename U>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U scalarValue,
                 const int32_t& count, Site site = Site::here()) {
    detail::l0_count_form_begin(static_cast<uint64_t>(count < 0 ? 0 : count));
    UnaryRepeatParams p;
    if constexpr (sizeof(T) > sizeof(U)) p.srcRepStride = 4;
    Axpy<T, U, false>(dst, src, scalarValue, MASK_PLACEHOLDER, 1, p, site);
    detail::l0_count_form_end();
}

}  // namespace AscendC
