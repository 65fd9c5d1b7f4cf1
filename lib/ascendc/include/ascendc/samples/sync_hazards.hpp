// Upstream synchronisation and copy faults written as small stand-alone AscendC kernels, each in its faulty
// and its fixed form (`fault` selects), with a runner that launches it on a fresh device and compares what it
// left in GM with a plain C++ reference. The conformance hazard table runs each form on the model and
// requires the named checker to fire on the fault and nothing to fire on the fix (docs/hazards.md).
//
//   fix_m_wait_dropped        AIC: two Mmad -> Fixpipe tiles through one L0C buffer; the fault drops the
//                             WaitFlag<FIX_M> before the second Mmad, which overwrites L0C while the Fixpipe
//                             of the first tile may still read it (and leaves the FIX_M flag set).
//   scalar_pipe_flag          AIV: a Cast writes UB on V and MTE3 stores it; the fault orders the store with
//                             SetFlag/WaitFlag<S_MTE3> (set on the scalar pipe, which does not wait for V)
//                             where V_MTE3 was meant.
//   reverse_depth_16          mix: the AIC signals 2 x depth tiles to its AIVs over a mode-2 flag and waits
//   on
//                             a reverse flag every `depth` sets; the fault's depth 16 lets 16 sets pile up on
//                             a counter that holds 15 (the model reports it instead of wrapping).
//   tile_copy_view_shape      AIV: a 20 x 40 float matrix copied GM -> UB -> GM in 8 x 16 tiles with
//                             DataCopyPad; the fault takes the burst count and length from the tile view's
//                             nominal shape and the GM stride from the view instead of the origin matrix, so
//                             rows are read from the wrong place and the tail tiles run past the matrix.
//   compute_length_unaligned  AIV: 192 floats scaled in chunks of computeLength elements with DataCopy; the
//                             fault's computeLength of 100 floats (400 bytes) is not a multiple of 32 bytes.
//   event_id_above_7          AIV: the copy-in -> compute handshake written SetFlag<MTE2_V>(9) /
//                             WaitFlag<MTE2_V>(1); the hardware uses bits [2:0] of an event id, so the two
//                             are one flag and the program is ordered; the model reports the id, not a race.
//   mode4_aiv_flag_above_15   mix, Ascend950: AIV 0 stores W and sets CrossCoreSetFlag<4>(17), the AIC waits
//   on
//                             flag 1 and reads W; the hardware keeps the low 4 bits of an AIV's mode-4 flag
//                             id, so 17 is flag 1 and the read is ordered; the model reports the id, not a
//                             race.
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "evg/hw/device.hpp"
#include "evg/hw/error.hpp"
#include "kernel_operator.h"

namespace AscendC::samples {

// ---- kernels ----

// A (16 x 16 half) . B (16 x 16 half) into L0C (float) twice, the second accumulating; each result read out
// by a Fixpipe to GM. Between the two, the Mmad must wait until the Fixpipe has read L0C (FIX_M): without
// that wait the second Mmad overwrites C while it is being read out.
inline void fix_m_wait_dropped_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR d, bool fault) {
    if (!ASCEND_IS_AIC) return;
    constexpr uint16_t kN = 16;  // one 16 x 16 fractal per operand
    constexpr uint32_t kElems = kN * kN;
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gd;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
    gd.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(d));
    LocalTensor<half> l1a(TPosition::A1, 0, kElems), l1b(TPosition::B1, kElems * 2, kElems);
    LocalTensor<half> l0a(TPosition::A2, 0, kElems), l0b(TPosition::B2, 0, kElems);
    LocalTensor<float> l0c(TPosition::CO1, 0, kElems);
    Nd2NzParams nd;  // a 16 x 16 ND matrix into one zN fractal
    nd.nValue = kN;
    nd.dValue = kN;
    nd.srcDValue = kN;
    nd.dstNzC0Stride = kN;
    nd.dstNzNStride = 1;
    DataCopy(l1a, ga, nd);
    DataCopy(l1b, gb, nd);
    SetFlag<HardEvent::MTE2_MTE1>(0);
    WaitFlag<HardEvent::MTE2_MTE1>(0);
    LoadData2DParamsV2 la;  // one fractal each; B transposed into nZ
    la.mStep = 1;
    la.kStep = 1;
    la.srcStride = 1;
    la.dstStride = 1;
    LoadData(l0a, l1a, la);
    LoadData2DParamsV2 lb = la;
    lb.ifTranspose = true;
    LoadData(l0b, l1b, lb);
    SetFlag<HardEvent::MTE1_M>(0);
    WaitFlag<HardEvent::MTE1_M>(0);
    FixpipeParamsV220 fp;
    fp.mSize = kN;
    fp.nSize = kN;
    fp.srcStride = kN;
    fp.dstStride = kN;
    for (uint32_t t = 0; t < 2; ++t) {
        if (t > 0 && !fault) WaitFlag<HardEvent::FIX_M>(0);  // the Fixpipe of the last tile has read L0C
        MmadParams mp(kN, kN, kN);
        mp.cmatrixInitVal = t == 0;  // tile 1 accumulates: D1 = 2 A.B
        Mmad(l0c, l0a, l0b, mp);
        SetFlag<HardEvent::M_FIX>(0);
        WaitFlag<HardEvent::M_FIX>(0);
        Fixpipe(gd[t * kElems], l0c, fp);
        if (t == 0) SetFlag<HardEvent::FIX_M>(0);
    }
}

inline void scalar_pipe_flag_kernel(GM_ADDR x, GM_ADDR y, bool fault) {
    constexpr uint32_t kElems = 64;
    GlobalTensor<float> gx;
    GlobalTensor<half> gy;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y));
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kElems * 4 + kElems * 2);
    LocalTensor<float> in = buf.Get<float>();
    LocalTensor<half> out = buf.Get<uint8_t>()[kElems * 4].ReinterpretCast<half>();
    DataCopy(in, gx, kElems);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    Cast(out, in, RoundMode::CAST_RINT, kElems);
    if (fault) {  // set on S: runs as soon as the scalar unit reaches it, not after the Cast
        SetFlag<HardEvent::S_MTE3>(0);
        WaitFlag<HardEvent::S_MTE3>(0);
    } else {
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
    }
    DataCopy(gy, out, kElems);
}

inline void reverse_depth_kernel(uint32_t depth) {
    constexpr uint16_t kFlag = 0, kReverse = 1;
    const uint32_t tiles = 2 * depth;
    uint32_t count = 0;
    if ASCEND_IS_AIC {
        for (uint32_t t = 0; t < tiles; ++t) {  // producer: "tile t is ready", a reverse wait every `depth`
            CrossCoreSetFlag<2, PIPE_FIX>(kFlag);
            if (++count >= depth) {
                CrossCoreWaitFlag<2, PIPE_FIX>(kReverse);
                count = 0;
            }
        }
    } else {
        for (uint32_t t = 0; t < tiles; ++t) {  // consumer: a reverse set every `depth` waits
            CrossCoreWaitFlag<2, PIPE_MTE2>(kFlag);
            if (++count >= depth) {
                CrossCoreSetFlag<2, PIPE_MTE2>(kReverse);
                count = 0;
            }
        }
    }
}

struct TileCopyShape {
    uint32_t rows = 20, cols = 40;           // the origin matrix (floats)
    uint32_t tile_rows = 8, tile_cols = 16;  // the tile view's nominal shape
};

inline void tile_copy_kernel(GM_ADDR x, GM_ADDR d, TileCopyShape s, bool fault) {
    GlobalTensor<float> gx, gd;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
    gd.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(d));
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, s.tile_rows * s.tile_cols * 4);
    LocalTensor<float> ub = buf.Get<float>();
    for (uint32_t r0 = 0; r0 < s.rows; r0 += s.tile_rows)
        for (uint32_t c0 = 0; c0 < s.cols; c0 += s.tile_cols) {
            // The tile's actual extent, clipped to the matrix, and the GM gap between its rows.
            uint32_t rows = std::min(s.tile_rows, s.rows - r0), cols = std::min(s.tile_cols, s.cols - c0);
            uint32_t gm_gap = (s.cols - cols) * 4;
            if (fault) {  // burst count and length from the view's nominal shape, the stride from the view
                rows = s.tile_rows;
                cols = s.tile_cols;
                gm_gap = (s.tile_cols - cols) * 4;
            }
            // UB rows are tile_cols floats apart (a multiple of 32 bytes): the UB gap is in DataBlocks.
            const uint32_t ub_gap = (s.tile_cols - cols) * 4 / 32;
            const DataCopyExtParams in{static_cast<uint16_t>(rows), cols * 4, gm_gap, ub_gap, 0};
            const DataCopyExtParams out{static_cast<uint16_t>(rows), cols * 4, ub_gap, gm_gap, 0};
            PipeBarrier<PIPE_ALL>();  // the last tile's store has read the buffer
            DataCopyPad(ub, gx[uint64_t(r0) * s.cols + c0], in, DataCopyPadExtParams<float>{});
            SetFlag<HardEvent::MTE2_MTE3>(0);
            WaitFlag<HardEvent::MTE2_MTE3>(0);
            DataCopyPad(gd[uint64_t(r0) * s.cols + c0], ub, out);
        }
}

inline void compute_length_kernel(GM_ADDR x, GM_ADDR y, uint32_t total, uint32_t compute_length) {
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, (compute_length * 4 + 31) / 32 * 32);
    LocalTensor<float> ub = buf.Get<float>();
    for (uint32_t off = 0; off < total; off += compute_length) {
        const uint32_t len = std::min(compute_length, total - off);
        PipeBarrier<PIPE_ALL>();  // the last chunk's store has read the buffer
        DataCopy(ub, gx[off], len);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        Muls(ub, ub, 2.0f, static_cast<int32_t>(len));
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(gy[off], ub, len);
    }
}

inline void event_id_kernel(GM_ADDR x, GM_ADDR y, int set_id, int wait_id) {
    constexpr uint32_t kElems = 64;
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kElems * 4);
    LocalTensor<float> ub = buf.Get<float>();
    DataCopy(ub, gx, kElems);
    SetFlag<HardEvent::MTE2_V>(set_id);
    WaitFlag<HardEvent::MTE2_V>(wait_id);
    Muls(ub, ub, 2.0f, static_cast<int32_t>(kElems));
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(gy, ub, kElems);
}

inline void mode4_flag_kernel(GM_ADDR w, GM_ADDR d, uint16_t aiv_flag) {
    constexpr uint32_t kElems = 64;
    GlobalTensor<float> gw, gd;
    gw.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(w));
    gd.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(d));
    if ASCEND_IS_AIC {
        LocalTensor<float> l1(TPosition::A1, 0, kElems);
        CrossCoreWaitFlag<4, PIPE_MTE2>(1);  // AIV 0's mode-4 flag 1
        DataCopy(l1, gw, kElems);            // MTE2 read W
        PipeBarrier<PIPE_ALL>();
    } else if (GetSubBlockIdx() == 0) {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, kElems * 4);
        LocalTensor<float> ub = buf.Get<float>();
        Duplicate(ub, 3.0f, static_cast<int32_t>(kElems));
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(gw, ub, kElems);  // MTE3 write W
        DataCopy(gd, ub, kElems);
        CrossCoreSetFlag<4, PIPE_MTE3>(aiv_flag);
    }
}

// ---- runners ----

// One hazard kernel's run: the report, the trace, and how GM differs from the reference ("" when it does
// not).
struct HazardRun {
    ::evg::hw::Report report;
    ::evg::hw::Trace trace;
    std::string mismatch;
};

namespace detail_hazards {
inline std::vector<float> ramp(size_t n, float scale) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(static_cast<int>(i % 13) - 6) * scale;
    return v;
}
template <class T>
std::string compare(const std::vector<T>& got, const std::vector<T>& want, const char* what) {
    size_t bad = 0, first = got.size();
    for (size_t i = 0; i < got.size(); ++i)
        if (std::bit_cast<std::array<unsigned char, sizeof(T)>>(got[i]) !=
            std::bit_cast<std::array<unsigned char, sizeof(T)>>(want[i])) {  // bit for bit
            if (first == got.size()) first = i;
            ++bad;
        }
    if (bad == 0) return {};
    return std::to_string(bad) + " of " + std::to_string(got.size()) + " elements of " + what +
           " differ from the reference; the first is element " + std::to_string(first);
}
template <class T>
std::vector<T> read(::evg::hw::Device& dev, void* p, size_t n) {
    std::vector<T> v(n);
    dev.copy_to_host(v.data(), p, n * sizeof(T));
    return v;
}
}  // namespace detail_hazards

// The kernel names of the hazard table.
inline constexpr const char* kSyncHazardKernels[] = {
    "fix_m_wait_dropped",       "scalar_pipe_flag", "reverse_depth_16",       "tile_copy_view_shape",
    "compute_length_unaligned", "event_id_above_7", "mode4_aiv_flag_above_15"};

// Runs hazard kernel `name` (one of kSyncHazardKernels) in its faulty (`fault`) or fixed form.
inline HazardRun run_sync_hazard(const ::evg::hw::Config& cfg, const std::string& name, bool fault) {
    using namespace ::evg::hw;
    namespace dh = detail_hazards;
    Config c = cfg;
    c.keep_trace = true;
    Device dev(c);
    HazardRun r;
    auto zeros = [&](void* p, size_t bytes) {
        dev.copy_to_device(p, std::vector<uint8_t>(bytes, 0).data(), bytes);
    };
    if (name == "fix_m_wait_dropped") {
        constexpr size_t n = 256;
        const std::vector<float> af = dh::ramp(n, 0.5f), bf = dh::ramp(n, 0.25f);
        std::vector<half> a(n), b(n);
        for (size_t i = 0; i < n; ++i) {  // exact in half: multiples of 1/4 below 4
            a[i] = half(af[i]);
            b[i] = half(bf[i]);
        }
        void* ga = dev.malloc(n * 2, "A");
        void* gb = dev.malloc(n * 2, "B");
        void* gd = dev.malloc(2 * n * 4, "D");
        dev.copy_to_device(ga, a.data(), n * 2);
        dev.copy_to_device(gb, b.data(), n * 2);
        zeros(gd, 2 * n * 4);
        r.report = dev.launch(1, KernelType::aic_only, [&] {
            fix_m_wait_dropped_kernel(static_cast<GM_ADDR>(ga), static_cast<GM_ADDR>(gb),
                                      static_cast<GM_ADDR>(gd), fault);
        });
        std::vector<float> want(2 * n);
        for (size_t i = 0; i < 16; ++i)
            for (size_t j = 0; j < 16; ++j) {
                float s = 0;
                for (size_t k = 0; k < 16; ++k) s += af[i * 16 + k] * bf[k * 16 + j];
                want[i * 16 + j] = s;
                want[n + i * 16 + j] = s + s;
            }
        r.mismatch = dh::compare(dh::read<float>(dev, gd, 2 * n), want, "D");
    } else if (name == "scalar_pipe_flag") {
        constexpr size_t n = 64;
        const std::vector<float> x = dh::ramp(n, 1.5f);
        void* gx = dev.malloc(n * 4, "X");
        void* gy = dev.malloc(n * 2, "Y");
        dev.copy_to_device(gx, x.data(), n * 4);
        zeros(gy, n * 2);
        r.report = dev.launch(1, KernelType::aiv_only, [&] {
            scalar_pipe_flag_kernel(static_cast<GM_ADDR>(gx), static_cast<GM_ADDR>(gy), fault);
        });
        std::vector<uint16_t> want(n);
        for (size_t i = 0; i < n; ++i) want[i] = half(x[i]).bits;
        r.mismatch = dh::compare(dh::read<uint16_t>(dev, gy, n), want, "Y");
    } else if (name == "reverse_depth_16") {
        r.report = dev.launch(1, KernelType::mix_aic_1_2, [&] { reverse_depth_kernel(fault ? 16 : 15); });
    } else if (name == "tile_copy_view_shape") {
        const TileCopyShape s;
        const size_t n = size_t(s.rows) * s.cols;
        const std::vector<float> x = dh::ramp(n, 1.0f);
        void* gx = dev.malloc(n * 4, "X");
        void* gd = dev.malloc(n * 4, "D");
        dev.copy_to_device(gx, x.data(), n * 4);
        zeros(gd, n * 4);
        r.report = dev.launch(1, KernelType::aiv_only, [&] {
            tile_copy_kernel(static_cast<GM_ADDR>(gx), static_cast<GM_ADDR>(gd), s, fault);
        });
        r.mismatch = dh::compare(dh::read<float>(dev, gd, n), x, "D");
    } else if (name == "compute_length_unaligned") {
        constexpr uint32_t total = 192;
        const std::vector<float> x = dh::ramp(total, 0.5f);
        void* gx = dev.malloc(total * 4, "X");
        void* gy = dev.malloc(total * 4, "Y");
        dev.copy_to_device(gx, x.data(), total * 4);
        zeros(gy, total * 4);
        r.report = dev.launch(1, KernelType::aiv_only, [&] {
            compute_length_kernel(static_cast<GM_ADDR>(gx), static_cast<GM_ADDR>(gy), total,
                                  fault ? 100 : 96);
        });
        std::vector<float> want(total);
        for (uint32_t i = 0; i < total; ++i) want[i] = 2.0f * x[i];
        r.mismatch = dh::compare(dh::read<float>(dev, gy, total), want, "Y");
    } else if (name == "event_id_above_7") {
        constexpr size_t n = 64;
        const std::vector<float> x = dh::ramp(n, 1.0f);
        void* gx = dev.malloc(n * 4, "X");
        void* gy = dev.malloc(n * 4, "Y");
        dev.copy_to_device(gx, x.data(), n * 4);
        zeros(gy, n * 4);
        r.report = dev.launch(1, KernelType::aiv_only, [&] {
            event_id_kernel(static_cast<GM_ADDR>(gx), static_cast<GM_ADDR>(gy), fault ? 9 : 1, 1);
        });
        std::vector<float> want(n);
        for (size_t i = 0; i < n; ++i) want[i] = 2.0f * x[i];
        r.mismatch = dh::compare(dh::read<float>(dev, gy, n), want, "Y");
    } else if (name == "mode4_aiv_flag_above_15") {
        constexpr size_t n = 64;
        void* gw = dev.malloc(n * 4, "W");
        void* gd = dev.malloc(n * 4, "D");
        zeros(gw, n * 4);
        zeros(gd, n * 4);
        r.report = dev.launch(1, KernelType::mix_aic_1_2, [&] {
            mode4_flag_kernel(static_cast<GM_ADDR>(gw), static_cast<GM_ADDR>(gd), fault ? 17 : 1);
        });
        r.mismatch = dh::compare(dh::read<float>(dev, gd, n), std::vector<float>(n, 3.0f), "D");
    } else {
        throw ::evg::Error("run_sync_hazard: no hazard kernel named " + name);
    }
    r.trace = dev.take_last_trace();
    return r;
}

}  // namespace AscendC::samples
