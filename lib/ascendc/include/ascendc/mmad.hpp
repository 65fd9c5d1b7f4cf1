// Mmad: L0A (A2) x L0B (B2) -> L0C (CO1) on PIPE_M, and the cube mode settings (docs/hardware-model.md
// §16.3).
#pragma once
#include <cstdint>

#include "ascendc/tensor.hpp"
#include "ascendc/unmodelled.hpp"

namespace AscendC {

// C (m x n, L0C NZ) = [C +] A (m x k) . B (k x n). A is read in L0A's layout (zZ on AtlasA2, zN on
// Ascend950), B in nZ; every fractal of RoundUp(m, 16) x RoundUp(n, 16) is written; the sum runs over exactly
// k elements. cmatrixInitVal: true -> C = A.B, false -> C += A.B. unitFlag (0 off, 2 wait, 3 wait and hand
// over, 1 reserved): see §16.4. m == 1 without disableGemv (GEMV mode), isBias, cmatrixSource, the sparse and
// Winograd modes are not modelled.
struct MmadParams {
    uint16_t m = 0;
    uint16_t n = 0;
    uint16_t k = 0;
    bool isBias = false;
    int32_t fmOffset = 0;
    bool enSsparse = false;
    bool enWinogradA = false;
    bool enWinogradB = false;
    uint8_t unitFlag = 0;
    bool kDirectionAlign = false;
    bool cmatrixSource = false;
    bool cmatrixInitVal = true;
    bool disableGemv = false;
    MmadParams() = default;
    MmadParams(uint16_t m_, uint16_t n_, uint16_t k_, bool isBias_ = false, int32_t fmOffset_ = 0,
               bool enSsparse_ = false, bool enWinogradA_ = false, bool enWinogradB_ = false)
        : m(m_),
          n(n_),
          k(k_),
          isBias(isBias_),
          fmOffset(fmOffset_),
          enSsparse(enSsparse_),
          enWinogradA(enWinogradA_),
          enWinogradB(enWinogradB_) {}
};

namespace detail {
void mmad(const LocalRef& c, ::evg::hw::DType ct, const LocalRef& a, const LocalRef& b, ::evg::hw::DType at,
          ::evg::hw::DType bt, const MmadParams& p, Site site);
void set_hf32_mode(bool on, Site site);
void set_mm_layout_transform(bool n_first, Site site);
}  // namespace detail

// Legal (A, B -> C): half, half -> float; bfloat16, bfloat16 -> float; int8, int8 -> int32; float, float ->
// float. Anything else is an illegal_dtype violation.
template <class C, class T, class U>
inline void Mmad(const LocalTensor<C>& c, const LocalTensor<T>& a, const LocalTensor<U>& b,
                 const MmadParams& p, Site site = Site::here()) {
    detail::mmad(c.ref(), dtype_v<C>, a.ref(), b.ref(), dtype_v<T>, dtype_v<U>, p, site);
}
// With a bias table operand (C2): not modelled.
template <class C, class T, class U, class S>
inline void Mmad(const LocalTensor<C>&, const LocalTensor<T>&, const LocalTensor<U>&, const LocalTensor<S>&,
                 const MmadParams&, Site site = Site::here()) {
    detail::unmodelled("Mmad(bias)", site);
}

// HF32 mode (float operands rounded to HF32 before the MAC): recorded; an Mmad on float operands while it is
// on stops the run as unmodelled. transMode/rndMode are recorded as given.
inline void SetHF32Mode(bool on, Site site = Site::here()) {
    detail::set_hf32_mode(on, site);
}
inline void SetHF32TransMode(bool, Site site = Site::here()) {
    detail::unmodelled("SetHF32TransMode", site);
}
// N-first (true) or M-first (false) fractal order of Mmad: no effect on values; recorded.
inline void SetMMLayoutTransform(bool nFirst, Site site = Site::here()) {
    detail::set_mm_layout_transform(nFirst, site);
}

}  // namespace AscendC
