// The skeleton of Catlass's per-token dequant epilogue for AtlasA2, as a stand-alone AscendC kernel:
//
//   D[r][c] = half( float(C[r][c]) * scale_channel[c] * scale_token[r] )      C: int32 accumulators
//
// Per tile of `tile_rows` full rows, in one of two buffer sets (event id = tile index % 2):
//   MTE2: C tile (int32) and the per-channel scale row (float) into the set's UB buffers;
//   V:    Cast int32 -> float into the set's float buffer, Mul of every row by the scale row (row broadcast),
//         Muls of every row by its per-token scale (column broadcast; the scale is a scalar read from GM),
//         Cast float -> half (CAST_RINT);
//   MTE3: the half tile to D.
// The events are BlockEpilogue's: V_MTE2 and MTE3_V set twice before the loop (both sets free), MTE2_V and
// V_MTE3 inside each tile, all drained after the loop.
//
// Two kernels: dequant_per_token (correct) and dequant_per_token_missing_barrier, the upstream AtlasA2 bug
// fixed in April 2026: no PipeBarrier<PIPE_V> between the Cast into the float buffer and the broadcast Mul
// that reads it. Ascend950's vector pipe keeps program order, so the bug is a race on AtlasA2 only.
#pragma once
#include <cstdint>

#include "kernel_operator.h"

namespace AscendC::samples {

// The problem, split over the AIVs of an aiv_only launch: AIV b takes rows [b * rows / blocks, ...).
struct DequantShape {
    uint32_t rows = 24;      // M, a multiple of blocks * tile_rows
    uint32_t cols = 64;      // N, a multiple of 16 (32-byte rows of half)
    uint32_t tile_rows = 4;  // rows per tile
};

// The body both kernels share; `barrier_after_cast` is the upstream fix.
inline void dequant_per_token_body(GM_ADDR c, GM_ADDR scale_channel, GM_ADDR scale_token, GM_ADDR d,
                                   DequantShape s, bool barrier_after_cast) {
    const uint32_t blocks = static_cast<uint32_t>(GetBlockNum());
    const uint32_t block = static_cast<uint32_t>(GetBlockIdx());
    const uint32_t rows_per_block = s.rows / blocks;
    const uint32_t n = s.cols;
    const uint32_t tile = s.tile_rows * n;  // elements per tile

    // Per set: C (int32), the scale row (float), the float work tile, the half output tile.
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    const uint32_t set_bytes = tile * 4 + n * 4 + tile * 4 + tile * 2;
    pipe.InitBuffer(buf, 2 * set_bytes);
    LocalTensor<uint8_t> ub = buf.Get<uint8_t>();
    LocalTensor<int32_t> acc[2];
    LocalTensor<float> scale_row[2], work[2];
    LocalTensor<half> out[2];
    for (uint32_t i = 0; i < 2; ++i) {
        uint32_t at = i * set_bytes;
        acc[i] = ub[at].ReinterpretCast<int32_t>();
        at += tile * 4;
        scale_row[i] = ub[at].ReinterpretCast<float>();
        at += n * 4;
        work[i] = ub[at].ReinterpretCast<float>();
        at += tile * 4;
        out[i] = ub[at].ReinterpretCast<half>();
    }
    GlobalTensor<int32_t> gc;
    GlobalTensor<float> gch, gtok;
    GlobalTensor<half> gd;
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(c));
    gch.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(scale_channel));
    gtok.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(scale_token));
    gd.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(d));

    SetFlag<HardEvent::V_MTE2>(0);
    SetFlag<HardEvent::V_MTE2>(1);
    SetFlag<HardEvent::MTE3_V>(0);
    SetFlag<HardEvent::MTE3_V>(1);
    const uint32_t first_row = block * rows_per_block;
    for (uint32_t t = 0; t * s.tile_rows < rows_per_block; ++t) {
        const int id = static_cast<int>(t % 2);
        const uint32_t row0 = first_row + t * s.tile_rows;

        WaitFlag<HardEvent::V_MTE2>(id);
        DataCopy(acc[id], gc[uint64_t(row0) * n], tile);
        DataCopy(scale_row[id], gch, n);
        SetFlag<HardEvent::MTE2_V>(id);

        WaitFlag<HardEvent::MTE2_V>(id);
        WaitFlag<HardEvent::MTE3_V>(id);
        Cast(work[id], acc[id], RoundMode::CAST_NONE, tile);
        if (barrier_after_cast) PipeBarrier<PIPE_V>();
        for (uint32_t r = 0; r < s.tile_rows; ++r)
            Mul(work[id][r * n], work[id][r * n], scale_row[id], static_cast<int32_t>(n));
        PipeBarrier<PIPE_V>();
        for (uint32_t r = 0; r < s.tile_rows; ++r)
            Muls(work[id][r * n], work[id][r * n], gtok.GetValue(row0 + r), static_cast<int32_t>(n));
        PipeBarrier<PIPE_V>();
        Cast(out[id], work[id], RoundMode::CAST_RINT, tile);
        SetFlag<HardEvent::V_MTE2>(id);
        SetFlag<HardEvent::V_MTE3>(id);

        WaitFlag<HardEvent::V_MTE3>(id);
        DataCopy(gd[uint64_t(row0) * n], out[id], tile);
        SetFlag<HardEvent::MTE3_V>(id);
    }
    WaitFlag<HardEvent::V_MTE2>(0);
    WaitFlag<HardEvent::V_MTE2>(1);
    WaitFlag<HardEvent::MTE3_V>(0);
    WaitFlag<HardEvent::MTE3_V>(1);
}

// The fixed epilogue: PipeBarrier<PIPE_V> between the Cast and the broadcast Mul.
inline void dequant_per_token(GM_ADDR c, GM_ADDR scale_channel, GM_ADDR scale_token, GM_ADDR d,
                              DequantShape s) {
    dequant_per_token_body(c, scale_channel, scale_token, d, s, true);
}

// The upstream bug: the broadcast Mul reads the Cast's float buffer with no PipeBarrier<PIPE_V> before it.
inline void dequant_per_token_missing_barrier(GM_ADDR c, GM_ADDR scale_channel, GM_ADDR scale_token,
                                              GM_ADDR d, DequantShape s) {
    dequant_per_token_body(c, scale_channel, scale_token, d, s, false);
}

}  // namespace AscendC::samples
