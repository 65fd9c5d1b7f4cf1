// The checker controls' race, flag and cross-core kernels (kernels.hpp). Each kernel is written as a
// Catlass developer would write the faulty code, with the fix under `!fault`.
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "harness.hpp"
#include "kernels.hpp"

namespace evg::conformance::controls {

using namespace AscendC;

namespace {

std::vector<float> scaled(const std::vector<float>& x, float mul, float add) {
    std::vector<float> y(x.size());
    for (size_t i = 0; i < x.size(); ++i) y[i] = x[i] * mul + add;
    return y;
}

}  // namespace

HazardRun race_raw_v_v(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    const std::vector<float> x = ramp(kN, 1.0f);
    GM_ADDR gx = b.input("X", x), gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 3 * kN * 4);
        LocalTensor<float> a = buf.Get<float>(), t = a[kN], y = a[2 * kN];
        DataCopy(a, gm(gx), kN);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        Muls(t, a, 2.0f, kLen);
        if (!fault) PipeBarrier<PIPE_V>();  // Adds reads what Muls wrote
        Adds(y, t, 1.0f, kLen);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(gm(gy), y, kN);
    });
    r.mismatch = b.compare(gy, scaled(x, 2.0f, 1.0f), "Y");
    return r;
}

HazardRun race_war_v_v(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    const std::vector<float> x = ramp(kN, 1.0f);
    GM_ADDR gx = b.input("X", x), gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 2 * kN * 4);
        LocalTensor<float> a = buf.Get<float>(), t = a[kN];
        DataCopy(a, gm(gx), kN);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        Muls(t, a, 2.0f, kLen);
        if (!fault) PipeBarrier<PIPE_V>();  // Muls has read A before Duplicate overwrites it
        Duplicate(a, 0.0f, kLen);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(gm(gy), t, kN);
    });
    r.mismatch = b.compare(gy, scaled(x, 2.0f, 0.0f), "Y");
    return r;
}

HazardRun race_raw_m_m(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    constexpr uint16_t kF = 16;  // one 16 x 16 fractal per operand
    constexpr uint32_t kElems = kF * kF;
    const std::vector<float> af = ramp(kElems, 0.5f), bf = ramp(kElems, 0.25f);
    std::vector<half> ah(kElems), bh(kElems);
    for (uint32_t i = 0; i < kElems; ++i) {  // exact in half: multiples of 1/4 below 4
        ah[i] = half(af[i]);
        bh[i] = half(bf[i]);
    }
    std::vector<float> packed_a(kElems / 2), packed_b(kElems / 2);  // the half bits, as GM bytes
    std::memcpy(packed_a.data(), ah.data(), kElems * 2);
    std::memcpy(packed_b.data(), bh.data(), kElems * 2);
    GM_ADDR ga = b.input("A", packed_a), gb = b.input("B", packed_b), gd = b.zeros("D", kElems);
    HazardRun r = b.launch(1, hw::KernelType::aic_only, [&] {
        GlobalTensor<half> a, bt;
        a.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(ga));
        bt.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(gb));
        LocalTensor<half> l1a(TPosition::A1, 0, kElems), l1b(TPosition::B1, kElems * 2, kElems);
        LocalTensor<half> l0a(TPosition::A2, 0, kElems), l0b(TPosition::B2, 0, kElems);
        LocalTensor<float> l0c(TPosition::CO1, 0, kElems);
        Nd2NzParams nd;  // a 16 x 16 ND matrix into one zN fractal
        nd.nValue = kF;
        nd.dValue = kF;
        nd.srcDValue = kF;
        nd.dstNzC0Stride = kF;
        nd.dstNzNStride = 1;
        DataCopy(l1a, a, nd);
        DataCopy(l1b, bt, nd);
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
        MmadParams first(kF, kF, kF);
        first.cmatrixInitVal = true;
        Mmad(l0c, l0a, l0b, first);
        if (!fault) PipeBarrier<PIPE_M>();  // the second Mmad accumulates onto the first's C
        MmadParams second(kF, kF, kF);
        second.cmatrixInitVal = false;
        Mmad(l0c, l0a, l0b, second);
        SetFlag<HardEvent::M_FIX>(0);
        WaitFlag<HardEvent::M_FIX>(0);
        FixpipeParamsV220 fp;
        fp.mSize = kF;
        fp.nSize = kF;
        fp.srcStride = kF;
        fp.dstStride = kF;
        GlobalTensor<float> d = gm(gd);
        Fixpipe(d, l0c, fp);
    });
    std::vector<float> want(kElems);
    for (uint32_t i = 0; i < kF; ++i)
        for (uint32_t j = 0; j < kF; ++j) {
            float s = 0;
            for (uint32_t k = 0; k < kF; ++k) s += af[i * kF + k] * bf[k * kF + j];
            want[i * kF + j] = s + s;
        }
    r.mismatch = b.compare(gd, want, "D");
    return r;
}

namespace {

// Mmads on a 64 x 64 x 16 tile of uniform operands (A all 0.5, B all 0.25: every product 0.125, one Mmad's
// sum 2), loaded one fractal at a time. The steps after the first say whether each overwrites
// (cmatrixInitVal) or accumulates, and whether a PipeBarrier<PIPE_M> comes before it. D is L0C at the end.
struct MmadStep {
    bool overwrite;
    bool barrier_before;
};

HazardRun mmad_steps(const hw::Config& cfg, std::initializer_list<MmadStep> steps, float want_value) {
    constexpr uint16_t kM = 64, kK = 16, kF = 16;
    constexpr uint32_t kFractal = kF * kF;  // halves in one 16 x 16 fractal
    constexpr uint32_t kOut = uint32_t{kM} * kM;
    std::vector<half> ah(kFractal, half(0.5f)), bh(kFractal, half(0.25f));
    std::vector<float> packed_a(kFractal / 2), packed_b(kFractal / 2);  // the half bits, as GM bytes
    std::memcpy(packed_a.data(), ah.data(), kFractal * 2);
    std::memcpy(packed_b.data(), bh.data(), kFractal * 2);
    Bench b(cfg);
    GM_ADDR ga = b.input("A", packed_a), gb = b.input("B", packed_b), gd = b.zeros("D", kOut);
    HazardRun r = b.launch(1, hw::KernelType::aic_only, [&] {
        GlobalTensor<half> a, bt;
        a.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(ga));
        bt.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(gb));
        LocalTensor<half> l1a(TPosition::A1, 0, kFractal), l1b(TPosition::B1, kFractal * 2, kFractal);
        LocalTensor<half> l0a(TPosition::A2, 0, uint32_t{kM} * kK), l0b(TPosition::B2, 0, uint32_t{kK} * kM);
        LocalTensor<float> l0c(TPosition::CO1, 0, kOut);
        Nd2NzParams nd;  // one 16 x 16 ND fractal of each operand into L1
        nd.nValue = kF;
        nd.dValue = kF;
        nd.srcDValue = kF;
        nd.dstNzC0Stride = kF;
        nd.dstNzNStride = 1;
        DataCopy(l1a, a, nd);
        DataCopy(l1b, bt, nd);
        SetFlag<HardEvent::MTE2_MTE1>(0);
        WaitFlag<HardEvent::MTE2_MTE1>(0);
        LoadData2DParamsV2 la;  // the one fractal, into each of the four of L0A and L0B
        la.mStep = 1;
        la.kStep = 1;
        la.srcStride = 1;
        la.dstStride = 1;
        LoadData2DParamsV2 lb = la;
        lb.ifTranspose = true;
        for (uint32_t f = 0; f < kM / kF; ++f) {
            LoadData(l0a[f * kFractal], l1a, la);
            LoadData(l0b[f * kFractal], l1b, lb);
        }
        SetFlag<HardEvent::MTE1_M>(0);
        WaitFlag<HardEvent::MTE1_M>(0);
        MmadParams first(kM, kM, kK);
        first.cmatrixInitVal = true;
        Mmad(l0c, l0a, l0b, first);
        for (const MmadStep& step : steps) {
            if (step.barrier_before) PipeBarrier<PIPE_M>();
            MmadParams next(kM, kM, kK);
            next.cmatrixInitVal = step.overwrite;
            Mmad(l0c, l0a, l0b, next);
        }
        SetFlag<HardEvent::M_FIX>(0);
        WaitFlag<HardEvent::M_FIX>(0);
        FixpipeParamsV220 fp;
        fp.mSize = kM;
        fp.nSize = kM;
        fp.srcStride = kM;
        fp.dstStride = kM;
        GlobalTensor<float> d = gm(gd);
        Fixpipe(d, l0c, fp);
    });
    r.mismatch = b.compare(gd, std::vector<float>(kOut, want_value), "D");
    return r;
}

}  // namespace

HazardRun race_raw_m_m_16_fractals(const hw::Config& cfg, bool fault) {
    // The second Mmad accumulates onto the first's C: 2 + 2.
    return mmad_steps(cfg, {{.overwrite = false, .barrier_before = !fault}}, 4.0f);
}

HazardRun race_waw_m_m_overwrite(const hw::Config& cfg, bool fault) {
    // The second accumulates (ordered on Ascend950 by the pipe, by the barrier on AtlasA2); the third starts
    // the region again, after the second has written it only when the barrier is there: 2.
    return mmad_steps(
        cfg, {{.overwrite = false, .barrier_before = true}, {.overwrite = true, .barrier_before = !fault}},
        2.0f);
}

HazardRun race_waw_mte3_mte3(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    const std::vector<float> x = ramp(kN, 1.0f);
    GM_ADDR gx = b.input("X", x), gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 2 * kN * 4);
        LocalTensor<float> a = buf.Get<float>(), t = a[kN];
        DataCopy(a, gm(gx), kN);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        Muls(t, a, 2.0f, kLen);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(gm(gy), a, kN);               // a first draft of Y ...
        if (!fault) PipeBarrier<PIPE_MTE3>();  // ... lands before the final one
        DataCopy(gm(gy), t, kN);
    });
    r.mismatch = b.compare(gy, scaled(x, 2.0f, 0.0f), "Y");
    return r;
}

HazardRun race_raw_mte2_v(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    const std::vector<float> x = ramp(kN, 1.0f);
    GM_ADDR gx = b.input("X", x), gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 2 * kN * 4);
        LocalTensor<float> a = buf.Get<float>(), t = a[kN];
        DataCopy(a, gm(gx), kN);
        if (!fault) {  // the load has landed before V reads it
            SetFlag<HardEvent::MTE2_V>(0);
            WaitFlag<HardEvent::MTE2_V>(0);
        }
        Muls(t, a, 2.0f, kLen);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(gm(gy), t, kN);
    });
    r.mismatch = b.compare(gy, scaled(x, 2.0f, 0.0f), "Y");
    return r;
}

HazardRun race_war_v_mte2(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    const std::vector<float> x = ramp(kN, 1.0f), x2 = ramp(kN, 3.0f);
    GM_ADDR gx = b.input("X", x), gx2 = b.input("X2", x2), gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 3 * kN * 4);
        LocalTensor<float> a = buf.Get<float>(), t = a[kN], y = a[2 * kN];
        DataCopy(a, gm(gx), kN);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        Muls(t, a, 2.0f, kLen);
        if (!fault) {  // V has read A before MTE2 reloads it
            SetFlag<HardEvent::V_MTE2>(0);
            WaitFlag<HardEvent::V_MTE2>(0);
        }
        PipeBarrier<PIPE_MTE2>();  // the reload lands after the first load
        DataCopy(a, gm(gx2), kN);
        SetFlag<HardEvent::MTE2_V>(1);
        WaitFlag<HardEvent::MTE2_V>(1);
        PipeBarrier<PIPE_V>();  // Add reads what Muls wrote
        Add(y, a, t, kLen);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(gm(gy), y, kN);
    });
    std::vector<float> want(kN);
    for (uint32_t i = 0; i < kN; ++i) want[i] = x2[i] + 2.0f * x[i];
    r.mismatch = b.compare(gy, want, "Y");
    return r;
}

HazardRun race_waw_v_mte2(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    const std::vector<float> x = ramp(kN, 1.0f);
    GM_ADDR gx = b.input("X", x), gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 2 * kN * 4);
        LocalTensor<float> a = buf.Get<float>(), t = a[kN];
        Duplicate(a, 7.0f, kLen);  // a default, which the load replaces
        if (!fault) {              // the fill has landed before the load overwrites it
            SetFlag<HardEvent::V_MTE2>(0);
            WaitFlag<HardEvent::V_MTE2>(0);
        }
        DataCopy(a, gm(gx), kN);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        Muls(t, a, 2.0f, kLen);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(gm(gy), t, kN);
    });
    r.mismatch = b.compare(gy, scaled(x, 2.0f, 0.0f), "Y");
    return r;
}

// ---- across cores: the two AIVs of one AI core (mix launch, block 0; the AIC has nothing to do). The fix
// is a mode-1 cross-core flag, which both AIVs set and wait for: a barrier between them. ----

namespace {

constexpr uint16_t kBarrierFlag = 3;

// Both AIVs: every earlier access of `pipe` is done, and so are the other AIV's before its set.
template <pipe_t Pipe>
void aiv_barrier() {
    CrossCoreSetFlag<1, Pipe>(kBarrierFlag);
    CrossCoreWaitFlag<1, Pipe>(kBarrierFlag);
}

}  // namespace

HazardRun race_raw_cross_core(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    GM_ADDR gw = b.zeros("W", kN), gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::mix_aic_1_2, [&] {
        if ASCEND_IS_AIC {
            return;
        }
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, kN * 4);
        LocalTensor<float> a = buf.Get<float>();
        if (GetSubBlockIdx() == 0) {  // the producer stores W
            Duplicate(a, 3.0f, kLen);
            SetFlag<HardEvent::V_MTE3>(0);
            WaitFlag<HardEvent::V_MTE3>(0);
            DataCopy(gm(gw), a, kN);
            if (!fault) aiv_barrier<PIPE_MTE3>();
        } else {  // the consumer loads W and stores it as Y
            if (!fault) aiv_barrier<PIPE_MTE2>();
            DataCopy(a, gm(gw), kN);
            SetFlag<HardEvent::MTE2_MTE3>(0);
            WaitFlag<HardEvent::MTE2_MTE3>(0);
            DataCopy(gm(gy), a, kN);
        }
    });
    r.mismatch = b.compare(gy, std::vector<float>(kN, 3.0f), "Y");
    return r;
}

HazardRun race_war_cross_core(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    const std::vector<float> w = ramp(kN, 1.0f);
    GM_ADDR gw = b.input("W", w), gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::mix_aic_1_2, [&] {
        if ASCEND_IS_AIC {
            return;
        }
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, kN * 4);
        LocalTensor<float> a = buf.Get<float>();
        if (GetSubBlockIdx() == 0) {  // reads W and keeps it as Y
            DataCopy(a, gm(gw), kN);
            if (!fault) aiv_barrier<PIPE_MTE2>();
            SetFlag<HardEvent::MTE2_MTE3>(0);
            WaitFlag<HardEvent::MTE2_MTE3>(0);
            DataCopy(gm(gy), a, kN);
        } else {  // overwrites W once the other AIV has read it
            Duplicate(a, 5.0f, kLen);
            SetFlag<HardEvent::V_MTE3>(0);
            WaitFlag<HardEvent::V_MTE3>(0);
            if (!fault) aiv_barrier<PIPE_MTE3>();
            DataCopy(gm(gw), a, kN);
        }
    });
    r.mismatch = b.compare(gy, w, "Y");
    return r;
}

HazardRun race_waw_cross_core(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    GM_ADDR gw = b.zeros("W", kN);
    HazardRun r = b.launch(1, hw::KernelType::mix_aic_1_2, [&] {
        if ASCEND_IS_AIC {
            return;
        }
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, kN * 4);
        LocalTensor<float> a = buf.Get<float>();
        const bool first = GetSubBlockIdx() == 0;
        Duplicate(a, first ? 3.0f : 5.0f, kLen);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        if (first) {  // a default for W ...
            DataCopy(gm(gw), a, kN);
            if (!fault) aiv_barrier<PIPE_MTE3>();
        } else {  // ... which the second AIV replaces
            if (!fault) aiv_barrier<PIPE_MTE3>();
            DataCopy(gm(gw), a, kN);
        }
    });
    r.mismatch = b.compare(gw, std::vector<float>(kN, 5.0f), "W");
    return r;
}

// ---- flags ----

namespace {

// The AIV kernel Y = 2 X with its MTE2 -> V handshake written by `handshake`.
template <class Handshake>
HazardRun doubled(const hw::Config& cfg, Handshake handshake) {
    Bench b(cfg);
    const std::vector<float> x = ramp(kN, 1.0f);
    GM_ADDR gx = b.input("X", x), gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 2 * kN * 4);
        LocalTensor<float> a = buf.Get<float>(), t = a[kN];
        DataCopy(a, gm(gx), kN);
        handshake();
        Muls(t, a, 2.0f, kLen);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(gm(gy), t, kN);
    });
    r.mismatch = b.compare(gy, scaled(x, 2.0f, 0.0f), "Y");
    return r;
}

}  // namespace

HazardRun deadlock_wait_without_set(const hw::Config& cfg, bool fault) {
    HazardRun r = doubled(cfg, [fault] {
        if (!fault) SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
    });
    if (fault) r.mismatch.clear();  // the kernel never gets to its store
    return r;
}

HazardRun flag_set_twice(const hw::Config& cfg, bool fault) {
    // Two signals, e.g. of an unrolled loop's two iterations; the second may find the first still set
    // unless it uses its own id (ping-pong ids, as BlockEpilogue's two buffer sets do).
    return doubled(cfg, [fault] {
        const int second = fault ? 0 : 1;
        SetFlag<HardEvent::MTE2_V>(0);
        SetFlag<HardEvent::MTE2_V>(second);
        WaitFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(second);
    });
}

namespace {
// A pipeline's stages with their event ids, as a block-level class keeps them: the constructor assigns the
// ids only in one configuration (the fault: the other configuration still uses them).
struct Stages {
    int32_t eventIds[2];
    explicit Stages(bool assignIds) {
        if (assignIds)
            for (int32_t i = 0; i < 2; ++i) eventIds[i] = i;
    }
};
// Takes the object's address out of the compiler's sight, as a call into other code does: the ids are then
// read from the object's memory (a register could hold anything; evgcheck_use_catlass builds user code so
// that such fields stay in memory).
[[gnu::noinline]] void look_at(Stages* stages) {
    asm volatile("" : : "r"(stages) : "memory");
}
}  // namespace

HazardRun uninit_event_id(const hw::Config& cfg, bool fault) {
    // The object is the kernel function's own (as Catlass's block objects are), not a helper's: a helper
    // called after AscendC calls gets a frame where the model's frames were, which only the compiler's fill
    // covers (docs/checkers.md, "Values never initialised").
    Bench b(cfg);
    const std::vector<float> x = ramp(kN, 1.0f);
    GM_ADDR gx = b.input("X", x), gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        Stages stages(!fault);
        look_at(&stages);
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 2 * kN * 4);
        LocalTensor<float> a = buf.Get<float>(), t = a[kN];
        DataCopy(a, gm(gx), kN);
        SetFlag<HardEvent::MTE2_V>(stages.eventIds[0]);
        WaitFlag<HardEvent::MTE2_V>(stages.eventIds[0]);
        Muls(t, a, 2.0f, kLen);
        SetFlag<HardEvent::V_MTE3>(stages.eventIds[1]);
        WaitFlag<HardEvent::V_MTE3>(stages.eventIds[1]);
        DataCopy(gm(gy), t, kN);
    });
    r.mismatch = b.compare(gy, scaled(x, 2.0f, 0.0f), "Y");
    return r;
}

HazardRun flag_left_set(const hw::Config& cfg, bool fault) {
    return doubled(cfg, [fault] {
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        SetFlag<HardEvent::MTE2_V>(1);               // a handshake for a second load that was taken out ...
        if (!fault) WaitFlag<HardEvent::MTE2_V>(1);  // ... with its wait, in the fix
    });
}

HazardRun counter_left_nonzero(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    return b.launch(1, hw::KernelType::mix_aic_1_2, [&] {
        if ASCEND_IS_AIC {
            CrossCoreSetFlag<2, PIPE_MTE2>(0);  // "tile ready" to both AIVs
        } else if (!fault) {
            CrossCoreWaitFlag<2, PIPE_MTE2>(0);
        }
    });
}

HazardRun cross_core_two_pipe_sets(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    GM_ADDR gx = b.zeros("X", 2 * kN);
    return b.launch(1, hw::KernelType::mix_aic_1_2, [&] {
        if ASCEND_IS_AIC {
            LocalTensor<float> l1(TPosition::A1, 0, 2 * kN);
            CrossCoreWaitFlag<2, PIPE_MTE2>(0);  // X is written
            DataCopy(l1, gm(gx), 2 * kN);
            CrossCoreWaitFlag<2, PIPE_MTE2>(0);  // the second signal
        } else {
            TPipe pipe;
            TBuf<TPosition::VECCALC> buf;
            pipe.InitBuffer(buf, 2 * kN * 4);
            LocalTensor<float> a = buf.Get<float>(), t = a[kN];
            Duplicate(a, 1.0f, kLen);
            SetFlag<HardEvent::V_MTE3>(0);
            WaitFlag<HardEvent::V_MTE3>(0);
            DataCopy(gm(gx)[kN * GetSubBlockIdx()], a, kN);
            CrossCoreSetFlag<2, PIPE_MTE3>(0);
            Duplicate(t, 2.0f, kLen);
            if (fault) {  // the second signal leaves from V: it may overtake the first
                CrossCoreSetFlag<2, PIPE_V>(0);
            } else {  // from MTE3 too, after the first
                SetFlag<HardEvent::V_MTE3>(1);
                WaitFlag<HardEvent::V_MTE3>(1);
                CrossCoreSetFlag<2, PIPE_MTE3>(0);
            }
        }
    });
}

HazardRun atomic_left_on(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    const std::vector<float> x = ramp(kN, 1.0f);
    GM_ADDR gx = b.input("X", x), gy = b.input("Y", std::vector<float>(kN, 1.0f));
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, kN * 4);
        LocalTensor<float> a = buf.Get<float>();
        DataCopy(a, gm(gx), kN);
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
        SetAtomicAdd<float>();
        DataCopy(gm(gy), a, kN);  // Y += X
        if (!fault) SetAtomicNone();
    });
    r.mismatch = b.compare(gy, scaled(x, 1.0f, 1.0f), "Y");
    return r;
}

HazardRun cross_core_flag_id_above_15(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    GM_ADDR gw = b.zeros("W", 2 * kN), gy = b.zeros("Y", 2 * kN);
    HazardRun r = b.launch(1, hw::KernelType::mix_aic_1_2, [&] {
        if ASCEND_IS_AIC {
            LocalTensor<float> l1(TPosition::A1, 0, 2 * kN);
            CrossCoreWaitFlag<2, PIPE_MTE2>(1);  // both AIVs have stored W
            DataCopy(l1, gm(gw), 2 * kN);
            return;
        }
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, kN * 4);
        LocalTensor<float> a = buf.Get<float>();
        Duplicate(a, 3.0f, kLen);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(gm(gw)[kN * GetSubBlockIdx()], a, kN);
        DataCopy(gm(gy)[kN * GetSubBlockIdx()], a, kN);
        CrossCoreSetFlag<2, PIPE_MTE3>(fault ? 17 : 1);
    });
    r.mismatch = b.compare(gy, std::vector<float>(2 * kN, 3.0f), "Y");
    return r;
}

HazardRun sync_all_unmodelled(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    GM_ADDR gw = b.zeros("W", kN), gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::mix_aic_1_2, [&] {
        if ASCEND_IS_AIC {
            return;
        }
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, kN * 4);
        LocalTensor<float> a = buf.Get<float>();
        const bool producer = GetSubBlockIdx() == 0;
        if (producer) {
            Duplicate(a, 3.0f, kLen);
            SetFlag<HardEvent::V_MTE3>(0);
            WaitFlag<HardEvent::V_MTE3>(0);
            DataCopy(gm(gw), a, kN);
        }
        if (fault) {
            SyncAll<true>();  // every AIV of the launch meets here
        } else if (producer) {
            aiv_barrier<PIPE_MTE3>();
        } else {
            aiv_barrier<PIPE_MTE2>();
        }
        if (!producer) {
            DataCopy(a, gm(gw), kN);
            SetFlag<HardEvent::MTE2_MTE3>(0);
            WaitFlag<HardEvent::MTE2_MTE3>(0);
            DataCopy(gm(gy), a, kN);
        }
    });
    if (!fault) r.mismatch = b.compare(gy, std::vector<float>(kN, 3.0f), "Y");
    return r;
}

HazardRun portable_v_order(const hw::Config& cfg, bool fault) {
    // The opt-in checker watches this run: race_raw_v_v's kernel, whose fault (Adds reading what Muls wrote
    // with no PipeBarrier<PIPE_V>) is right on Ascend950, where PIPE_V keeps order, and a race on AtlasA2.
    hw::Config with = cfg;
    with.checks.portable_v_order = true;
    return race_raw_v_v(with, fault);
}

HazardRun redundant_wait(const hw::Config& cfg, bool fault) {
    // The opt-in checker watches this run. Two rounds of load, scale and store through one buffer; the
    // fault hands each load over twice: the wait on id 1 consumes a set issued before the one V has already
    // waited for, so it orders nothing.
    hw::Config with = cfg;
    with.checks.redundant_waits = true;
    Bench b(with);
    const std::vector<float> x = ramp(kN, 1.0f);
    GM_ADDR gx = b.input("X", x), gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 2 * kN * 4);
        LocalTensor<float> a = buf.Get<float>(), t = a[kN];
        for (int round = 0; round < 2; ++round) {
            if (round > 0) {  // V has read A and MTE3 has stored T: both buffers are free again
                WaitFlag<HardEvent::V_MTE2>(0);
                WaitFlag<HardEvent::MTE3_V>(0);
            }
            DataCopy(a, gm(gx), kN);
            if (fault) SetFlag<HardEvent::MTE2_V>(1);
            SetFlag<HardEvent::MTE2_V>(0);
            WaitFlag<HardEvent::MTE2_V>(0);
            if (fault) WaitFlag<HardEvent::MTE2_V>(1);
            Muls(t, a, 2.0f, kLen);
            if (round == 0) SetFlag<HardEvent::V_MTE2>(0);
            SetFlag<HardEvent::V_MTE3>(0);
            WaitFlag<HardEvent::V_MTE3>(0);
            DataCopy(gm(gy), t, kN);
            if (round == 0) SetFlag<HardEvent::MTE3_V>(0);
        }
    });
    r.mismatch = b.compare(gy, scaled(x, 2.0f, 0.0f), "Y");
    return r;
}

}  // namespace evg::conformance::controls
