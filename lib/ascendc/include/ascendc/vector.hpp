// Vector instructions on PIPE_V, count form ("first n elements"), as Catlass uses them.
#pragma once
#include <cstdint>
#include <string_view>

#include "ascendc/tensor.hpp"
#include "evg/hw/numeric/vector_rules.hpp"

namespace AscendC {

namespace detail {
// The element-wise instructions the vector compute kernels implement (src/vector_compute.hpp): a subset of
// the vocabulary's VectorOp (evg/hw/numeric/vector_rules.hpp), each with the value of its VectorOp, so that
// the instruction's name and its element types come from the vocabulary's one table (table_op, vec_op_name).
// A closed enumeration of its own keeps the kernels' switches exhaustive. Divs has two operand orders.
using VectorOp = ::evg::hw::VectorOp;
constexpr uint8_t value_of(VectorOp op) {
    return static_cast<uint8_t>(op);
}
enum class VecOp : uint8_t {
    Add = value_of(VectorOp::Add),
    Sub = value_of(VectorOp::Sub),
    Mul = value_of(VectorOp::Mul),
    Div = value_of(VectorOp::Div),
    Max = value_of(VectorOp::Max),
    Min = value_of(VectorOp::Min),
    Prelu = value_of(VectorOp::Prelu),
    Adds = value_of(VectorOp::Adds),
    Muls = value_of(VectorOp::Muls),
    Maxs = value_of(VectorOp::Maxs),
    Mins = value_of(VectorOp::Mins),
    DivsTensorScalar = value_of(VectorOp::Divs),  // dst = src / scalar
    DivsScalarTensor = 0xFF,  // dst = scalar / src: Divs too (table_op), the one value not a VectorOp
    LeakyRelu = value_of(VectorOp::LeakyRelu),
    Exp = value_of(VectorOp::Exp),
    Ln = value_of(VectorOp::Ln),
    Abs = value_of(VectorOp::Abs),
    Relu = value_of(VectorOp::Relu),
    Sqrt = value_of(VectorOp::Sqrt),
    Rsqrt = value_of(VectorOp::Rsqrt),
    Reciprocal = value_of(VectorOp::Reciprocal),
    Silu = value_of(VectorOp::Silu),
    Duplicate = value_of(VectorOp::Duplicate),
    And = value_of(VectorOp::And),
    Or = value_of(VectorOp::Or),
    ShiftLeft = value_of(VectorOp::ShiftLeft),
};
// The instruction of the vocabulary's table that `op` issues.
constexpr VectorOp table_op(VecOp op) {
    return op == VecOp::DivsScalarTensor ? VectorOp::Divs : static_cast<VectorOp>(op);
}
std::string_view vec_op_name(VecOp op);  // the vocabulary's name: "Add", "Divs", ...
void vec_binary(VecOp op, ::evg::hw::DType t, const LocalRef& dst, const LocalRef& a, const LocalRef& b,
                uint64_t count, Site site);
void vec_scalar(VecOp op, ::evg::hw::DType t, const LocalRef& dst, const LocalRef& a, double scalar,
                uint64_t count, Site site);
void vec_unary(VecOp op, ::evg::hw::DType t, const LocalRef& dst, const LocalRef& a, uint64_t count,
               Site site);
void vec_duplicate(::evg::hw::DType t, const LocalRef& dst, double scalar, uint64_t count, Site site);
void vec_cast(::evg::hw::DType to, ::evg::hw::DType from, const LocalRef& dst, const LocalRef& src,
              RoundMode m, uint64_t count, Site site);
// kind: 0 sum, 1 max, 2 min. Result in dst[0].
void vec_reduce(int kind, ::evg::hw::DType t, const LocalRef& dst, const LocalRef& src, const LocalRef& work,
                uint64_t count, Site site);
template <class T>
double scalar_value(T v) {
    return static_cast<double>(static_cast<float>(v));
}
inline double scalar_value(int32_t v) {
    return static_cast<double>(v);
}
inline double scalar_value(int16_t v) {
    return static_cast<double>(v);
}
}  // namespace detail

#define EVG_ASCENDC_BINARY(NAME)                                                                        \
    template <class T>                                                                                  \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                     const int32_t& count, Site site = Site::here()) {                                  \
        detail::vec_binary(detail::VecOp::NAME, dtype_v<T>, dst.ref(), src0.ref(), src1.ref(),          \
                           static_cast<uint64_t>(count < 0 ? 0 : count), site);                         \
    }
EVG_ASCENDC_BINARY(Add)
EVG_ASCENDC_BINARY(Sub)
EVG_ASCENDC_BINARY(Mul)
EVG_ASCENDC_BINARY(Div)
EVG_ASCENDC_BINARY(Max)
EVG_ASCENDC_BINARY(Min)
EVG_ASCENDC_BINARY(Prelu)
#undef EVG_ASCENDC_BINARY

#define EVG_ASCENDC_SCALAR(NAME, OP)                                                             \
    template <class T, class U>                                                                  \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue, \
                     const int32_t& count, Site site = Site::here()) {                           \
        detail::vec_scalar(detail::VecOp::OP, dtype_v<T>, dst.ref(), src.ref(),                  \
                           detail::scalar_value(static_cast<T>(scalarValue)),                    \
                           static_cast<uint64_t>(count < 0 ? 0 : count), site);                  \
    }
EVG_ASCENDC_SCALAR(Adds, Adds)
EVG_ASCENDC_SCALAR(Muls, Muls)
EVG_ASCENDC_SCALAR(Maxs, Maxs)
EVG_ASCENDC_SCALAR(Mins, Mins)
EVG_ASCENDC_SCALAR(Divs, DivsTensorScalar)
EVG_ASCENDC_SCALAR(LeakyRelu, LeakyRelu)
#undef EVG_ASCENDC_SCALAR

// Divs(dst, scalar, src): scalar / src, as Catlass's Reciprocal and Sigmoid use it on Ascend950.
template <class T, class U>
inline void Divs(const LocalTensor<T>& dst, const U& scalarValue, const LocalTensor<T>& src,
                 const int32_t& count, Site site = Site::here()) {
    detail::vec_scalar(detail::VecOp::DivsScalarTensor, dtype_v<T>, dst.ref(), src.ref(),
                       detail::scalar_value(static_cast<T>(scalarValue)),
                       static_cast<uint64_t>(count < 0 ? 0 : count), site);
}

#define EVG_ASCENDC_UNARY(NAME)                                                                  \
    template <class T>                                                                           \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count, \
                     Site site = Site::here()) {                                                 \
        detail::vec_unary(detail::VecOp::NAME, dtype_v<T>, dst.ref(), src.ref(),                 \
                          static_cast<uint64_t>(count < 0 ? 0 : count), site);                   \
    }
EVG_ASCENDC_UNARY(Exp)
EVG_ASCENDC_UNARY(Ln)
EVG_ASCENDC_UNARY(Abs)
EVG_ASCENDC_UNARY(Relu)
EVG_ASCENDC_UNARY(Sqrt)
EVG_ASCENDC_UNARY(Rsqrt)
EVG_ASCENDC_UNARY(Reciprocal)
EVG_ASCENDC_UNARY(Silu)
#undef EVG_ASCENDC_UNARY

template <class T, class U>
inline void Duplicate(const LocalTensor<T>& dst, const U& scalarValue, const int32_t& count,
                      Site site = Site::here()) {
    detail::vec_duplicate(dtype_v<T>, dst.ref(), detail::scalar_value(static_cast<T>(scalarValue)),
                          static_cast<uint64_t>(count < 0 ? 0 : count), site);
}

template <class T, class U>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                 const uint32_t count, Site site = Site::here()) {
    detail::vec_cast(dtype_v<T>, dtype_v<U>, dst.ref(), src.ref(), roundMode, count, site);
}

template <class T>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
                      const int32_t count, Site site = Site::here()) {
    detail::vec_reduce(0, dtype_v<T>, dst.ref(), src.ref(), work.ref(),
                       static_cast<uint64_t>(count < 0 ? 0 : count), site);
}
template <class T>
inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
                      const int32_t count, bool calIndex = false, Site site = Site::here()) {
    (void)calIndex;
    detail::vec_reduce(1, dtype_v<T>, dst.ref(), src.ref(), work.ref(),
                       static_cast<uint64_t>(count < 0 ? 0 : count), site);
}
template <class T>
inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
                      const int32_t count, bool calIndex = false, Site site = Site::here()) {
    (void)calIndex;
    detail::vec_reduce(2, dtype_v<T>, dst.ref(), src.ref(), work.ref(),
                       static_cast<uint64_t>(count < 0 ? 0 : count), site);
}

}  // namespace AscendC
