// Data cache control: DataCacheCleanAndInvalid. The scalar unit reaches GM through a per-core data cache that
// the hardware keeps coherent neither with the DMA nor with other cores; GM bytes written by SetValue stay in
// the cache until a clean writes them back.
#pragma once
#include <cstdint>

#include "ascendc/tensor.hpp"
#include "ascendc/types.hpp"

namespace AscendC {

enum class CacheLine : uint8_t {
    SINGLE_CACHE_LINE = 0,  // the cache line holding the address: from the address to the next 64 B boundary
    ENTIRE_DATA_CACHE,      // the whole data cache of the core (the address is ignored)
};

enum class DcciDst : uint8_t {
    CACHELINE_ALL = 0,  // same effect as CACHELINE_OUT
    CACHELINE_UB,       // reserved: not supported
    CACHELINE_OUT,      // keep the data cache coherent with GM
    CACHELINE_ATOMIC,   // reserved: not supported
};

namespace detail {
// entire: ENTIRE_DATA_CACHE; dst: the DcciDst value (CACHELINE_OUT when the call has none).
void data_cache_clean(const void* addr, bool entire, DcciDst dst, Site site);
}  // namespace detail

template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dstTensor, Site site = Site::here()) {
    detail::data_cache_clean(dstTensor.GetPhyAddr(), entireType == CacheLine::ENTIRE_DATA_CACHE, dcciDst,
                             site);
}

template <typename T, CacheLine entireType>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dstTensor, Site site = Site::here()) {
    detail::data_cache_clean(dstTensor.GetPhyAddr(), entireType == CacheLine::ENTIRE_DATA_CACHE,
                             DcciDst::CACHELINE_OUT, site);
}

}  // namespace AscendC
