// Fixpipe: L0C (CO1) -> GM, or -> an AIV's UB on Ascend950, on PIPE_FIX: NZ -> ND (row-major) or NZ kept,
// with the conversion of quantPre (docs/hardware-model.md §16.5).
#pragma once
#include <cstdint>

#include "ascendc/tensor.hpp"
#include "ascendc/unmodelled.hpp"

// Fixpipe quantisation modes (a global enum, as the compiler's). NoQuant, F322F16 and F322BF16 are modelled
// (round to nearest even); the others stop the run as unmodelled.
enum class QuantMode_t : uint8_t {
    NoQuant = 0,
    F322F16,
    F322BF16,
    DEQF16,
    VDEQF16,
    QF322B8_PRE,
    VQF322B8_PRE,
    REQ8,
    VREQ8,
    QS322BF16_PRE,
    VQS322BF16_PRE,
    QF322F16_PRE,
    VQF322F16_PRE,
    QF322BF16_PRE,
    VQF322BF16_PRE,
    QF322F32_PRE,
    VQF322F32_PRE,
};

namespace AscendC {

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
    CO2Layout format = CO2Layout::ROW_MAJOR;
    bool isToUB = false;
};
inline constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ, false};
inline constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR, false};
inline constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR, false};

// The NZ -> ND sub-matrix settings (several ND outputs from one Fixpipe).
struct Nz2NdParams {
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint32_t dstNdStride = 0;
};

// Layout (ROW_MAJOR): destination element (i, j) = L0C (i, j) for i < mSize, j < nSize, L0C's 16-column
// blocks srcStride rows apart, destination rows dstStride elements apart. NZ: destination keeps the 16 x C0
// fractals, column blocks dstStride 32-byte blocks apart.
struct FixpipeParamsV220 {
    FixpipeParamsV220() = default;
    // The shape-and-ReLU constructor of the public API (upstream's convolution tiles use it).
    FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn,
                      bool reluEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn) {}
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint16_t srcStride = 0;
    uint32_t dstStride = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint16_t dstNdStride = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    bool isChannelSplit = false;
};

// Ascend950. dualDstCtl: 0 one destination (subBlockId picks the AIV for UB); 1 rows [0, mSize/2) to AIV0's
// UB and the rest to AIV1's (mSize even); 2 columns [0, nSize/2) to AIV0 and the rest to AIV1 (nSize % 32 ==
// 0); both at the same UB offset and no quantisation or ReLU.
template <CO2Layout format = CO2Layout::ROW_MAJOR>
struct FixpipeParamsC310 {
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint32_t srcStride = 0;
    uint32_t dstStride = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    bool isChannelSplit = false;
    uint8_t dualDstCtl = 0;
    bool subBlockId = false;
    Nz2NdParams params{};
};

// The same parameters under the name later AscendC releases give them (the chip's architecture number rather
// than its core version): one struct, two names, so a kernel written with either name runs the same Fixpipe.
template <CO2Layout format = CO2Layout::ROW_MAJOR>
using FixpipeParamsArch3510 = FixpipeParamsC310<format>;

// DataCopy's Fixpipe form (the CO1 -> GM/UB "DataCopy"): nz2ndEn selects ROW_MAJOR (with SetFixpipeNz2ndFlag)
// or NZ.
struct DataCopyCO12DstParams {
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint32_t dstStride = 0;
    uint16_t srcStride = 0;
    uint8_t unitFlag = 0;
    uint8_t clipReluPre = 0;
    uint8_t eltWiseOp = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    bool reluPre = false;
    bool channelSplit = false;
    bool nz2ndEn = false;
    uint8_t sid = 0;
};

namespace detail {
struct FixSpec {
    bool row_major;  // NZ -> ND, else NZ kept
    uint64_t m, n, src_stride, dst_stride;
    QuantMode_t quant;
    bool relu, channel_split;
    uint8_t unit_flag, dual;
    uint8_t sub_block;
    bool nd_from_flag;  // ndNum etc. from SetFixpipeNz2ndFlag
    uint64_t nd_num, src_nd_stride, dst_nd_stride;
};
void fixpipe_gm(void* dst, ::evg::hw::DType dt, const LocalRef& src, ::evg::hw::DType st, const FixSpec& f,
                Site site);
void fixpipe_ub(const LocalRef& dst, ::evg::hw::DType dt, const LocalRef& src, ::evg::hw::DType st,
                const FixSpec& f, Site site);
void set_fixpipe_nz2nd_flag(uint64_t nd_num, uint64_t src_nd_stride, uint64_t dst_nd_stride, Site site);

template <FixpipeConfig config, class P>
FixSpec spec_of(const P& p, uint8_t dual, uint8_t sub, uint64_t nd, uint64_t snd, uint64_t dnd) {
    static_assert(config.format != CO2Layout::COLUMN_MAJOR || sizeof(P) == 0,
                  "Fixpipe: CO2Layout::COLUMN_MAJOR is not modelled");
    return FixSpec{config.format == CO2Layout::ROW_MAJOR,
                   p.mSize,
                   p.nSize,
                   p.srcStride,
                   p.dstStride,
                   p.quantPre,
                   p.reluEn,
                   p.isChannelSplit,
                   p.unitFlag,
                   dual,
                   sub,
                   false,
                   nd,
                   snd,
                   dnd};
}
inline FixSpec spec_of_copy(const DataCopyCO12DstParams& p) {
    return FixSpec{
        p.nz2ndEn,  p.mSize, p.nSize, p.srcStride, p.dstStride, p.quantPre, p.reluPre, p.channelSplit,
        p.unitFlag, 0,       0,       p.nz2ndEn,   1,           0,          0};
}
}  // namespace detail

// AtlasA2 (and Ascend950) L0C -> GM.
template <class D, class S, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<D>& dst, const LocalTensor<S>& src, const FixpipeParamsV220& p,
                    Site site = Site::here()) {
    detail::fixpipe_gm(dst.GetPhyAddr(), dtype_v<D>, src.ref(), dtype_v<S>,
                       detail::spec_of<config>(p, 0, 0, p.ndNum, p.srcNdStride, p.dstNdStride), site);
}
template <class D, class S, const FixpipeConfig& config = CFG_ROW_MAJOR, CO2Layout L>
inline void Fixpipe(const GlobalTensor<D>& dst, const LocalTensor<S>& src, const FixpipeParamsC310<L>& p,
                    Site site = Site::here()) {
    detail::fixpipe_gm(dst.GetPhyAddr(), dtype_v<D>, src.ref(), dtype_v<S>,
                       detail::spec_of<config>(p, p.dualDstCtl, p.subBlockId, p.params.ndNum,
                                               p.params.srcNdStride, p.params.dstNdStride),
                       site);
}
// Ascend950 L0C -> UB (the AIV subBlockId of this AIC's group, or both with dualDstCtl).
template <class D, class S, const FixpipeConfig& config = CFG_ROW_MAJOR, CO2Layout L>
inline void Fixpipe(const LocalTensor<D>& dst, const LocalTensor<S>& src, const FixpipeParamsC310<L>& p,
                    Site site = Site::here()) {
    detail::fixpipe_ub(dst.ref(), dtype_v<D>, src.ref(), dtype_v<S>,
                       detail::spec_of<config>(p, p.dualDstCtl, p.subBlockId, p.params.ndNum,
                                               p.params.srcNdStride, p.params.dstNdStride),
                       site);
}
// Quantisation with a per-channel tensor: not modelled.
template <class D, class S, const FixpipeConfig& config = CFG_ROW_MAJOR, class Q, class P>
inline void Fixpipe(const GlobalTensor<D>&, const LocalTensor<S>&, const LocalTensor<Q>&, const P&,
                    Site site = Site::here()) {
    detail::unmodelled("Fixpipe(quant tensor)", site);
}

template <class D, class S>
inline void DataCopy(const GlobalTensor<D>& dst, const LocalTensor<S>& src, const DataCopyCO12DstParams& p,
                     Site site = Site::here()) {
    detail::fixpipe_gm(dst.GetPhyAddr(), dtype_v<D>, src.ref(), dtype_v<S>, detail::spec_of_copy(p), site);
}
template <class D, class S>
inline void DataCopy(const LocalTensor<D>& dst, const LocalTensor<S>& src, const DataCopyCO12DstParams& p,
                     Site site = Site::here()) {
    detail::fixpipe_ub(dst.ref(), dtype_v<D>, src.ref(), dtype_v<S>, detail::spec_of_copy(p), site);
}

// The quantisation parameters of Fixpipe (scale table, ReLU): declared; not modelled.
template <class T, bool isSetRelu = false, class X>
inline void SetFixPipeConfig(const X&, bool = false, Site site = Site::here()) {
    detail::unmodelled("SetFixPipeConfig", site);
}

// ndNum ND matrices from one Fixpipe: srcNdStride (L0C fractals of 1 KB on AtlasA2, C0 blocks on Ascend950)
// and dstNdStride (elements) apart. Recorded on the core; the DataCopyCO12DstParams form reads it.
inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint32_t dstNdStride,
                                Site site = Site::here()) {
    detail::set_fixpipe_nz2nd_flag(ndNum, srcNdStride, dstNdStride, site);
}

}  // namespace AscendC
