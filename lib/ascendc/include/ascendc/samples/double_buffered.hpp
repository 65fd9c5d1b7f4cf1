// A double-buffered AscendC kernel with switchable faults, used by the machine's tests and by evgcheck-demo.
#pragma once
#include <cstdint>

#include "kernel_operator.h"

namespace AscendC::samples {

// Which synchronisation the double-buffered kernel leaves out (all false: correctly synchronised).
struct DbFaults {
    bool drop_wait_mte2_v = false;  // V computes without waiting for this tile's load
    bool drop_wait_v_mte3 = false;  // MTE3 stores without waiting for the compute
    bool drop_barrier_v = false;    // the two dependent vector ops run without PipeBarrier<PIPE_V>
    bool leave_mte3_v = false;      // the last WaitFlag<MTE3_V>(1) is left out: a flag stays set
};

// y[i] = x[i] * 2 + 1 over `total` halves, `tile` per tile, two buffer sets with event ids 0/1 exactly as
// Catlass's BlockEpilogue does it. One AIV.
inline void double_buffered_kernel(GM_ADDR x, GM_ADDR y, uint32_t total, uint32_t tile, DbFaults f = {}) {
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4 * tile * sizeof(half));
    LocalTensor<half> ub = buf.Get<half>();
    LocalTensor<half> in[2] = {ub[0], ub[tile]};
    LocalTensor<half> out[2] = {ub[2 * tile], ub[3 * tile]};
    GlobalTensor<half> gx, gy;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x));
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y));
    SetFlag<HardEvent::V_MTE2>(0);
    SetFlag<HardEvent::V_MTE2>(1);
    SetFlag<HardEvent::MTE3_V>(0);
    SetFlag<HardEvent::MTE3_V>(1);
    for (uint32_t t = 0; t * tile < total; ++t) {
        int id = static_cast<int>(t % 2);
        WaitFlag<HardEvent::V_MTE2>(id);
        DataCopy(in[id], gx[t * tile], tile);
        SetFlag<HardEvent::MTE2_V>(id);
        if (!f.drop_wait_mte2_v) WaitFlag<HardEvent::MTE2_V>(id);
        WaitFlag<HardEvent::MTE3_V>(id);
        Muls(out[id], in[id], half(2.0f), static_cast<int32_t>(tile));
        if (!f.drop_barrier_v) PipeBarrier<PIPE_V>();
        Adds(out[id], out[id], half(1.0f), static_cast<int32_t>(tile));
        SetFlag<HardEvent::V_MTE2>(id);
        SetFlag<HardEvent::V_MTE3>(id);
        if (!f.drop_wait_v_mte3) WaitFlag<HardEvent::V_MTE3>(id);
        DataCopy(gy[t * tile], out[id], tile);
        SetFlag<HardEvent::MTE3_V>(id);
    }
    WaitFlag<HardEvent::V_MTE2>(0);
    WaitFlag<HardEvent::V_MTE2>(1);
    WaitFlag<HardEvent::MTE3_V>(0);
    if (!f.leave_mte3_v) WaitFlag<HardEvent::MTE3_V>(1);
    if (f.drop_wait_mte2_v) {  // keep the flags balanced so only the race remains
        for (uint32_t t = 0; t * tile < total; ++t) WaitFlag<HardEvent::MTE2_V>(static_cast<int>(t % 2));
    }
    if (f.drop_wait_v_mte3) {
        for (uint32_t t = 0; t * tile < total; ++t) WaitFlag<HardEvent::V_MTE3>(static_cast<int>(t % 2));
    }
}

}  // namespace AscendC::samples
