// Compare and select, count forms (docs/hardware-model.md §6.3): Compare / CompareScalar write one bit per
// element (bit i of byte i / 8) over whole repeats of 256 bytes (a tail is not compared); Select takes
// src0 where the bit is 1 and src1 (a tensor or a scalar) where it is 0.
#pragma once
#include <cstdint>

#include "ascendc/unmodelled.hpp"
#include "ascendc/vector_level0.hpp"

namespace AscendC {

enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };

namespace detail {
// src1 null: compare with `scalar`.
void vec_compare(::evg::hw::DType t, CMPMODE mode, const LocalRef& dst, const LocalRef& src0,
                 const LocalRef* src1, double scalar, uint64_t count, Site site);
// src1 null: select `scalar` where the bit is 0.
void vec_select(::evg::hw::DType t, const LocalRef& dst, const LocalRef& mask, const LocalRef& src0,
                const LocalRef* src1, double scalar, uint64_t count, Site site);
}  // namespace detail

template <typename T, typename U>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                    CMPMODE cmpMode, uint32_t count, Site site = Site::here()) {
    const detail::LocalRef b = src1.ref();
    detail::vec_compare(detail::l0_dtype<T>(), cmpMode, dst.ref(), src0.ref(), &b, 0.0, count, site);
}

template <typename T, typename U>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,
                          CMPMODE cmpMode, uint32_t count, Site site = Site::here()) {
    detail::vec_compare(detail::l0_dtype<T>(), cmpMode, dst.ref(), src0.ref(), nullptr,
                        detail::scalar_value(src1Scalar), count, site);
}

template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, uint32_t count, Site site = Site::here()) {
    if (selMode != SELMODE::VSEL_TENSOR_TENSOR_MODE)
        detail::unmodelled("Select (tensor, tensor) in this mode", site);
    const detail::LocalRef b = src1.ref();
    detail::vec_select(detail::l0_dtype<T>(), dst.ref(), selMask.ref(), src0.ref(), &b, 0.0, count, site);
}

template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   T src1, SELMODE selMode, uint32_t count, Site site = Site::here()) {
    if (selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE)
        detail::unmodelled("Select (tensor, scalar) in this mode", site);
    detail::vec_select(detail::l0_dtype<T>(), dst.ref(), selMask.ref(), src0.ref(), nullptr,
                       detail::scalar_value(src1), count, site);
}

}  // namespace AscendC
