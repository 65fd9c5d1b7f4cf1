// Data movement: DataCopy (GM<->UB on MTE2/MTE3, UB->UB on V) and DataCopyPad (byte-granular GM side).
#pragma once
#include <cstdint>

#include "ascendc/tensor.hpp"

namespace AscendC {

// Strides in 32-byte DataBlocks (docs/hardware-model.md §5.2).
struct DataCopyParams {
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;
    uint16_t srcStride = 0;
    uint16_t dstStride = 0;
};

// blockLen in bytes; strides: GM side in bytes, UB side in 32-byte blocks (docs/hardware-model.md §5.3).
struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
};

template <class T>
struct DataCopyPadExtParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue{};
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
