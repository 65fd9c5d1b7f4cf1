// L1 (A1/B1) -> L0A (A2) / L0B (B2) loads on PIPE_MTE1 (docs/hardware-model.md §16.2). A fractal is 512
// bytes: 16 rows of C0 = 32 / sizeof(T) elements, stored row by row.
#pragma once
#include <cstdint>

#include "ascendc/tensor.hpp"
#include "ascendc/unmodelled.hpp"

namespace AscendC {

// AtlasA2 (2201) Load2D. Repeat i copies the source fractal startIndex + i * srcStride to destination fractal
// i * (1 + dstGap). ifTranspose transposes each 16 x 16 fractal (16-bit types only).
struct LoadData2DParams {
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint8_t sid = 0;
    uint16_t dstGap = 0;
    bool ifTranspose = false;
    uint8_t addrMode = 0;
};

// Ascend950 (3510) Load2D v2, over the source's fractal grid (fractal (m, k) at (k * srcStride + m) * 512 B,
// m counting 16 rows, k counting C0 columns). Copies mStep x kStep fractals starting at (mStartPosition,
// kStartPosition). Without ifTranspose fractal (i, j) of the window lands at (j * dstStride + i) * 512 B.
// With ifTranspose the window, as a (16 mStep) x (C0 kStep) matrix W, is stored transposed: element (r, c) of
// W at ((r / C0) * dstStride + c / 16) * 512 B + ((c % 16) * C0 + r % C0) * sizeof(T) (32-bit types need an
// even kStep, 8-bit types an even mStep).
struct LoadData2DParamsV2 {
    uint32_t mStartPosition = 0;
    uint32_t kStartPosition = 0;
    uint16_t mStep = 0;
    uint16_t kStep = 0;
    int32_t srcStride = 0;
    uint16_t dstStride = 0;
    bool ifTranspose = false;
    uint8_t sid = 0;
};

// MX scale load that rides along a Load2D v2 (Ascend950). Declared; not modelled.
struct LoadData2DMxParams {
    uint16_t xStartPosition = 0;
    uint16_t yStartPosition = 0;
    uint8_t xStep = 0;
    uint8_t yStep = 0;
    uint16_t srcStride = 0;
    uint16_t dstStride = 0;
};

// AtlasA2 LoadDataWithTranspose (8- and 32-bit transposing loads). Declared; not modelled.
struct LoadData2dTransposeParams {
    uint16_t startIndex = 0;
    uint8_t repeatTimes = 0;
    uint16_t srcStride = 0;
    uint16_t dstGap = 0;
    uint16_t dstFracGap = 0;
    uint8_t addrMode = 0;
};

// Load3D (img2col) and its register settings: declared for upstream's float paths on AtlasA2; not modelled.
enum class FmatrixMode : uint8_t { FMATRIX_LEFT = 0, FMATRIX_RIGHT = 1 };
struct IsResetLoad3dConfig {
    bool isSetFMatrix = true;
    bool isSetPadding = true;
};
template <class T>
struct LoadData3DParamsV2 {
    uint8_t padList[4] = {0, 0, 0, 0};
    uint16_t l1H = 0, l1W = 0, channelSize = 0, kExtension = 0, mExtension = 0, kStartPt = 0, mStartPt = 0;
    uint8_t strideW = 1, strideH = 1, filterW = 1, filterH = 1, dilationFilterW = 1, dilationFilterH = 1;
    bool enTranspose = false, enSmallK = false, filterSizeW = false, filterSizeH = false, fMatrixCtrl = false;
    T padValue{};
};
struct LoadData3DParamsV2Pro {
    uint16_t channelSize = 0;
    bool enTranspose = false, enSmallK = false, filterSizeW = false, filterSizeH = false, fMatrixCtrl = false;
    uint64_t extConfig = 0, filterConfig = 0x10101010101ULL;
};

namespace detail {
struct Load2DSpec {
    bool v2;  // LoadData2DParamsV2, else LoadData2DParams
    bool transpose;
    uint64_t start, repeat, src_stride, dst_gap;            // v1
    uint64_t m_start, k_start, m_step, k_step, dst_stride;  // v2 (src_stride shared)
};
void load_2d(const LocalRef& dst, const LocalRef& src, uint32_t elem, const Load2DSpec& p, Site site);
}  // namespace detail

template <class T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p,
                     Site site = Site::here()) {
    detail::Load2DSpec s{false, p.ifTranspose, p.startIndex, p.repeatTimes, p.srcStride, p.dstGap, 0, 0, 0, 0,
                         0};
    detail::load_2d(dst.ref(), src.ref(), sizeof(T), s, site);
}
template <class T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParamsV2& p,
                     Site site = Site::here()) {
    detail::Load2DSpec s{true,
                         p.ifTranspose,
                         0,
                         0,
                         static_cast<uint64_t>(static_cast<uint32_t>(p.srcStride)),
                         0,
                         p.mStartPosition,
                         p.kStartPosition,
                         p.mStep,
                         p.kStep,
                         p.dstStride};
    detail::load_2d(dst.ref(), src.ref(), sizeof(T), s, site);
}
template <class T, class U, class S>
inline void LoadData(const LocalTensor<T>&, const LocalTensor<U>&, const LocalTensor<S>&,
                     const LoadData2DParamsV2&, const LoadData2DMxParams&, Site site = Site::here()) {
    detail::unmodelled("LoadData(LoadData2DMxParams)", site);
}
template <class T>
inline void LoadData(const LocalTensor<T>&, const GlobalTensor<T>&, const LoadData2DParams&,
                     Site site = Site::here()) {
    detail::unmodelled("LoadData(GM, LoadData2DParams)", site);
}
template <class T>
inline void LoadData(const LocalTensor<T>&, const GlobalTensor<T>&, const LoadData2DParamsV2&,
                     Site site = Site::here()) {
    detail::unmodelled("LoadData(GM, LoadData2DParamsV2)", site);
}
template <class T>
inline void LoadDataWithTranspose(const LocalTensor<T>&, const LocalTensor<T>&,
                                  const LoadData2dTransposeParams&, Site site = Site::here()) {
    detail::unmodelled("LoadDataWithTranspose", site);
}
inline constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG{};
template <class T, const IsResetLoad3dConfig& = IS_RESER_LOAD3D_DEFAULT_CONFIG>
inline void LoadData(const LocalTensor<T>&, const LocalTensor<T>&, const LoadData3DParamsV2<T>&,
                     Site site = Site::here()) {
    detail::unmodelled("LoadData(LoadData3DParamsV2)", site);
}
template <class T>
inline void LoadData(const LocalTensor<T>&, const LocalTensor<T>&, const LoadData3DParamsV2Pro&,
                     Site site = Site::here()) {
    detail::unmodelled("LoadData(LoadData3DParamsV2Pro)", site);
}
// The sparse-B Load2D of AtlasA2 (LoadDataWithSparse): declared; not modelled.
struct LoadData2dParams {
    uint64_t startIndex = 0, repeatTimes = 0, srcStride = 0, sid = 0, dstGap = 0, ifTranspose = 0,
             addrMode = 0;
};
template <class T, class I>
inline void LoadDataWithSparse(const LocalTensor<T>&, const LocalTensor<T>&, const LocalTensor<I>&,
                               const LoadData2dParams&, Site site = Site::here()) {
    detail::unmodelled("LoadDataWithSparse", site);
}
// Ascend950 Load3D with a destination stride (upstream's conv tiles): the repeat setting, then the load.
// Declared; not modelled.
struct LoadDataRepeatParamWithStride {
    uint16_t repeatStride = 0;
    uint8_t repeatTime = 1;
    uint8_t repeatMode = 0;
    uint16_t dstStride = 0;
};
inline void SetLoadDataRepeatWithStride(const LoadDataRepeatParamWithStride&, Site site = Site::here()) {
    detail::unmodelled("SetLoadDataRepeatWithStride", site);
}
template <class T>
inline void LoadDataWithStride(const LocalTensor<T>&, const LocalTensor<T>&, const LoadData3DParamsV2<T>&,
                               Site site = Site::here()) {
    detail::unmodelled("LoadDataWithStride", site);
}
inline void SetFmatrix(uint16_t, uint16_t, const uint8_t*, FmatrixMode, Site site = Site::here()) {
    detail::unmodelled("SetFmatrix", site);
}
inline void Load3DSetFMatrixCal(uint16_t, uint16_t, const uint8_t*, Site site = Site::here()) {
    detail::unmodelled("Load3DSetFMatrixCal", site);
}

}  // namespace AscendC

// The compiler's MX-scale load intrinsics (Ascend950), reached unqualified by upstream's MX tiles: declared;
// not modelled (the reported line is this header's).
template <class... A>
inline void load_cbuf_to_ca_mx(A&&...) {
    AscendC::detail::unmodelled("load_cbuf_to_ca_mx", AscendC::Site::here());
}
template <class... A>
inline void load_cbuf_to_cb_mx(A&&...) {
    AscendC::detail::unmodelled("load_cbuf_to_cb_mx", AscendC::Site::here());
}
