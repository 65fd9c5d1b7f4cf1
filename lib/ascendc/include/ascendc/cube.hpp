// Cube-side instructions of the AIC: LoadData (L1 -> L0A/L0B, PIPE_MTE1), Mmad (L0A x L0B -> L0C, PIPE_M) and
// Fixpipe (L0C -> GM, and L0C -> an AIV's UB on Ascend950 only, PIPE_FIX). docs/hardware-model.md §1, §5,
// §10.
//
// Data layout: the model stores every matrix in L1, L0A, L0B and L0C as plain row-major elements. It does NOT
// model the hardware's fractal layouts (nZ in L1, zZ/nZ in L0A/L0B, NZ in L0C) nor the format conversion done
// by LoadData and Fixpipe; kernels written against this model move row-major tiles and get row-major results.
// Operand addresses are still checked against each memory's alignment (L0A/L0B 512 B, L0C 64 B, L1 32 B).
#pragma once
#include <cstdint>

#include "ascendc/tensor.hpp"

namespace AscendC {

// C (m x n) = A (m x k) . B (k x n), all row-major. cmatrixInitVal: true -> C = A.B, false -> C += A.B.
struct MmadParams {
    uint16_t m = 0;
    uint16_t n = 0;
    uint16_t k = 0;
    bool cmatrixInitVal = true;
};

// Copies an m x n block of L0C (row pitch srcStride elements) to the destination (row pitch dstStride
// elements), converting each element to the destination type. Both strides must be at least n.
struct FixpipeParams {
    uint16_t m = 0;
    uint16_t n = 0;
    uint32_t srcStride = 0;  // elements between the starts of consecutive L0C rows
    uint32_t dstStride = 0;  // elements between the starts of consecutive destination rows
};

namespace detail {
void load_data(const LocalRef& dst, const LocalRef& src, uint64_t bytes, Site site);
void mmad(const LocalRef& c, ::evg::hw::DType ct, const LocalRef& a, const LocalRef& b, ::evg::hw::DType at,
          ::evg::hw::DType bt, const MmadParams& p, Site site);
void fixpipe_gm(void* dst, ::evg::hw::DType dt, const LocalRef& src, ::evg::hw::DType st,
                const FixpipeParams& p, Site site);
void fixpipe_ub(const LocalRef& dst, ::evg::hw::DType dt, const LocalRef& src, ::evg::hw::DType st,
                const FixpipeParams& p, uint8_t subBlock, Site site);
}  // namespace detail

// L1 (A1/B1) -> L0A (A2) or L0B (B2): `count` contiguous elements, byte for byte, on PIPE_MTE1.
template <class T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count,
                     Site site = Site::here()) {
    detail::load_data(dst.ref(), src.ref(), uint64_t(count) * sizeof(T), site);
}

// L0A (A2) x L0B (B2) -> L0C (CO1) on PIPE_M. Legal (A, B -> C): half, half -> float; bfloat16, bfloat16 ->
// float; int8, int8 -> int32; float, float -> float. Anything else is an illegal_dtype violation.
template <class C, class T, class U>
inline void Mmad(const LocalTensor<C>& c, const LocalTensor<T>& a, const LocalTensor<U>& b,
                 const MmadParams& p, Site site = Site::here()) {
    detail::mmad(c.ref(), dtype_v<C>, a.ref(), b.ref(), dtype_v<T>, dtype_v<U>, p, site);
}

// L0C (CO1, float or int32) -> GM on PIPE_FIX. Legal (src -> dst): float -> float/half/bfloat16 (round to
// nearest even), int32 -> int32. Honours the core's atomic mode (SetAtomicAdd/Max/Min): each converted
// element is combined with GM in the destination type D (float math rounded once to D, int32 saturating); the
// dtype given to SetAtomicAdd<T> is not cross-checked against D.
template <class D, class S>
inline void Fixpipe(const GlobalTensor<D>& dst, const LocalTensor<S>& src, const FixpipeParams& p,
                    Site site = Site::here()) {
    detail::fixpipe_gm(dst.GetPhyAddr(), dtype_v<D>, src.ref(), dtype_v<S>, p, site);
}

// L0C (CO1) -> the UB of AIV `subBlock` of this AIC's block, on PIPE_FIX. Ascend950 only (the data path does
// not exist on AtlasA2). `dst` is an address in that AIV's UB. Same conversions as the GM overload.
template <class D, class S>
inline void Fixpipe(const LocalTensor<D>& dst, const LocalTensor<S>& src, const FixpipeParams& p,
                    uint8_t subBlock = 0, Site site = Site::here()) {
    detail::fixpipe_ub(dst.ref(), dtype_v<D>, src.ref(), dtype_v<S>, p, subBlock, site);
}

}  // namespace AscendC
