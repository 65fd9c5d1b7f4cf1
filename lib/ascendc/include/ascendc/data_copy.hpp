// Data movement: DataCopy (GM<->UB on MTE2/MTE3, UB->UB on V) and DataCopyPad (byte-granular GM side).
#pragma once
#include <cstdint>

#include "ascendc/tensor.hpp"
#include "ascendc/unmodelled.hpp"

namespace AscendC {

// Strides in 32-byte DataBlocks (docs/hardware-model.md §5.2).
struct DataCopyParams {
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;
    uint16_t srcStride = 0;
    uint16_t dstStride = 0;
    // AscendC's constructors: device code writes `DataCopyParams(1, len, 0, 0)` as well as braces.
    constexpr DataCopyParams() = default;
    constexpr DataCopyParams(uint16_t count, uint16_t len, uint16_t srcStrideIn, uint16_t dstStrideIn)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
};

// blockLen in bytes; strides: GM side in bytes, UB side in 32-byte blocks (docs/hardware-model.md §5.3).
struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
    constexpr DataCopyExtParams() = default;
    constexpr DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcStrideIn, uint32_t dstStrideIn,
                                uint32_t rsvIn = 0)
        : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn) {}
};

// GM -> L1 (A1/B1) with ND -> zN conversion, on PIPE_MTE2 (docs/hardware-model.md §16.1). For each of ndNum
// matrices i (GM at i * srcNdMatrixStride elements, L1 at i * dstNzMatrixStride elements), row j (GM at
// j * srcDValue elements, L1 at j * dstNzNStride 32-byte blocks) and 32-byte block b of that row (L1 at
// b * dstNzC0Stride 32-byte blocks): the block's dValue elements are copied; when dValue * sizeof(T) is not a
// multiple of 32 the last block of each row is zero-filled; rows past nValue are not touched. ndNum, nValue
// or dValue 0: no instruction. Field widths: 16-bit on AtlasA2 (2201); the 3510 layout (wider) when the chip
// is chosen at run time.
#if (defined(__NPU_ARCH__) && __NPU_ARCH__ == 2201) || (defined(CATLASS_ARCH) && CATLASS_ARCH == 2201)
struct Nd2NzParams {
    uint16_t ndNum = 1;
    uint16_t nValue = 0;
    uint16_t dValue = 0;
    uint16_t srcNdMatrixStride = 0;
    uint16_t srcDValue = 0;
    uint16_t dstNzC0Stride = 0;
    uint16_t dstNzNStride = 0;
    uint16_t dstNzMatrixStride = 0;
};
#else
struct Nd2NzParams {
    uint16_t ndNum = 1;
    uint32_t nValue = 0;
    uint32_t dValue = 0;
    uint64_t srcNdMatrixStride = 0;
    uint64_t srcDValue = 0;
    uint32_t dstNzC0Stride = 0;
    uint32_t dstNzNStride = 0;
    uint64_t dstNzMatrixStride = 0;
};
#endif

// GM (DN, column-major) -> L1 zN (Ascend950). Declared; not modelled.
struct Dn2NzParams {
    uint16_t dnNum = 1;
    uint32_t nValue = 0;
    uint32_t dValue = 0;
    uint64_t srcDnMatrixStride = 0;
    uint64_t srcDValue = 0;
    uint32_t dstNzC0Stride = 0;
    uint32_t dstNzNStride = 0;
    uint64_t dstNzMatrixStride = 0;
};

template <class T>
struct DataCopyPadExtParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue{};
    constexpr DataCopyPadExtParams() = default;
    constexpr DataCopyPadExtParams(bool isPadIn, uint8_t leftPadIn, uint8_t rightPadIn, T padValue)
        : isPad(isPadIn), leftPadding(leftPadIn), rightPadding(rightPadIn), paddingValue(padValue) {}
};

namespace detail {
struct PadSpec {
    bool is_pad;
    uint8_t left, right;
    uint64_t value_bits;  // the padding value's bytes
};
// count in elements of `elem` bytes.
void copy_gm_to_local(const LocalRef& dst, const void* src, uint64_t count, uint32_t elem, Site site);
void copy_local_to_gm(void* dst, const LocalRef& src, uint64_t count, uint32_t elem, Site site);
void copy_local_to_local(const LocalRef& dst, const LocalRef& src, uint64_t count, uint32_t elem, Site site);
void copy_gm_to_local(const LocalRef& dst, const void* src, const DataCopyParams& p, uint32_t elem,
                      Site site);
void copy_local_to_gm(void* dst, const LocalRef& src, const DataCopyParams& p, uint32_t elem, Site site);
void copy_local_to_local(const LocalRef& dst, const LocalRef& src, const DataCopyParams& p, uint32_t elem,
                         Site site);
void copy_pad_gm_to_local(const LocalRef& dst, const void* src, const DataCopyExtParams& p,
                          const PadSpec& pad, uint32_t elem, Site site);
void copy_pad_local_to_gm(void* dst, const LocalRef& src, const DataCopyExtParams& p, uint32_t elem,
                          Site site);
struct Nd2NzSpec {
    uint64_t nd_num, n, d, src_matrix_stride, src_d, dst_c0_stride, dst_n_stride, dst_matrix_stride;
};
void copy_nd2nz(const LocalRef& dst, const void* src, const Nd2NzSpec& p, uint32_t elem, Site site);
}  // namespace detail

template <class T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count,
                     Site site = Site::here()) {
    detail::copy_gm_to_local(dst.ref(), src.GetPhyAddr(), count, sizeof(T), site);
}
template <class T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count,
                     Site site = Site::here()) {
    detail::copy_local_to_gm(dst.GetPhyAddr(), src.ref(), count, sizeof(T), site);
}
template <class T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count,
                     Site site = Site::here()) {
    detail::copy_local_to_local(dst.ref(), src.ref(), count, sizeof(T), site);
}
template <class T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                     Site site = Site::here()) {
    detail::copy_gm_to_local(dst.ref(), src.GetPhyAddr(), p, sizeof(T), site);
}
template <class T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                     Site site = Site::here()) {
    detail::copy_local_to_gm(dst.GetPhyAddr(), src.ref(), p, sizeof(T), site);
}
template <class T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
                     Site site = Site::here()) {
    detail::copy_local_to_local(dst.ref(), src.ref(), p, sizeof(T), site);
}

template <class T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p,
                     Site site = Site::here()) {
    detail::copy_nd2nz(dst.ref(), src.GetPhyAddr(),
                       detail::Nd2NzSpec{p.ndNum, p.nValue, p.dValue, p.srcNdMatrixStride, p.srcDValue,
                                         p.dstNzC0Stride, p.dstNzNStride, p.dstNzMatrixStride},
                       sizeof(T), site);
}
template <class T, bool enableSmallC0 = false>
inline void DataCopy(const LocalTensor<T>&, const GlobalTensor<T>&, const Dn2NzParams&,
                     Site site = Site::here()) {
    detail::unmodelled("DataCopy(Dn2NzParams)", site);
}

template <class T>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                        const DataCopyPadExtParams<T>& pad, Site site = Site::here()) {
    detail::PadSpec spec{pad.isPad, pad.leftPadding, pad.rightPadding, 0};
    static_assert(sizeof(T) <= sizeof(spec.value_bits));
    __builtin_memcpy(&spec.value_bits, &pad.paddingValue, sizeof(T));
    detail::copy_pad_gm_to_local(dst.ref(), src.GetPhyAddr(), p, spec, sizeof(T), site);
}
template <class T>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p,
                        Site site = Site::here()) {
    detail::copy_pad_local_to_gm(dst.GetPhyAddr(), src.ref(), p, sizeof(T), site);
}

}  // namespace AscendC
