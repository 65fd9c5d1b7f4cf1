// The checker controls' memory, type, parameter and exception kernels (kernels.hpp). A fault whose
// instruction the model refuses to run (an out-of-bounds operand, an illegal cast or type, a bad parameter)
// leaves its destination as it was: each kernel first gives that destination a default, so that the fault
// gives its own finding and no never-written bytes downstream.
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "ascendc/evg_node_scope.hpp"
#include "evg/hw/arch.hpp"
#include "harness.hpp"
#include "kernels.hpp"

namespace evg::conformance::controls {

using namespace AscendC;

namespace {

uint32_t ub_bytes(const hw::Config& cfg) {
    return hw::mem_capacity(hw::arch_spec(cfg.arch), hw::MemKind::UB);
}

// Fills `t` with `value` and orders the fill before whatever MTE2 writes into it next.
void preset_for_mte2(const LocalTensor<float>& t, float value) {
    Duplicate(t, value, kLen);
    SetFlag<HardEvent::V_MTE2>(0);
    WaitFlag<HardEvent::V_MTE2>(0);
}

}  // namespace

HazardRun ub_out_of_bounds(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    GM_ADDR gy = b.zeros("Y", kN);
    const uint32_t top = ub_bytes(cfg);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        // A tile kept at the top of UB: the fault places it half a tile too high.
        LocalTensor<float> t(TPosition::VECCALC, top - (fault ? kN * 2 : kN * 4), kN);
        Duplicate(t, 1.0f, kLen);
        store_from_v(gy, t);
    });
    if (!fault) r.mismatch = b.compare(gy, std::vector<float>(kN, 1.0f), "Y");
    return r;
}

HazardRun gm_out_of_bounds(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    const std::vector<float> x = ramp(kN, 1.0f);
    GM_ADDR gx = b.input("X", x), gy = b.zeros("Y", kN / 2);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, kN * 4);
        LocalTensor<float> a = buf.Get<float>();
        preset_for_mte2(a, 0.0f);
        // The second half of X; the fault starts 16 elements too far and runs past the allocation.
        DataCopy(a, gm(gx)[fault ? kN / 2 + 16 : kN / 2], kN / 2);
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
        DataCopy(gm(gy), a, kN / 2);
    });
    if (!fault) r.mismatch = b.compare(gy, std::vector<float>(x.begin() + kN / 2, x.end()), "Y");
    return r;
}

HazardRun ub_misaligned(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    const std::vector<float> x = ramp(kN, 1.0f);
    GM_ADDR gx = b.input("X", x), gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 3 * kN * 4);
        // The tile after an 8-float header: 32 bytes in; the fault's 4-float header puts it 16 bytes in.
        LocalTensor<float> a = buf.Get<float>()[fault ? 4 : 8], t = buf.Get<float>()[2 * kN];
        DataCopy(a, gm(gx), kN);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        Muls(t, a, 2.0f, kLen);
        store_from_v(gy, t);
    });
    std::vector<float> want(kN);
    for (uint32_t i = 0; i < kN; ++i) want[i] = 2.0f * x[i];
    r.mismatch = b.compare(gy, want, "Y");
    return r;
}

HazardRun ub_carve_overflow(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    const std::vector<float> x = ramp(kN, 1.0f);
    GM_ADDR gx = b.input("X", x), gy = b.zeros("Y", kN);
    const uint32_t top = ub_bytes(cfg);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> io, work;
        pipe.InitBuffer(io, kN * 4);
        // A work area for the rest of UB; the fault sizes it as if the I/O buffer took nothing.
        pipe.InitBuffer(work, fault ? top : top - kN * 4);
        LocalTensor<float> a = io.Get<float>();
        DataCopy(a, gm(gx), kN);
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
        DataCopy(gm(gy), a, kN);
    });
    r.mismatch = b.compare(gy, x, "Y");
    return r;
}

HazardRun uninit_store(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    const std::vector<float> x = ramp(kN, 1.0f);
    GM_ADDR gx = b.input("X", x), gy = b.zeros("Y", 2 * kN);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 2 * kN * 4);
        LocalTensor<float> a = buf.Get<float>();
        DataCopy(a, gm(gx), kN);  // the first half of the buffer
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
        DataCopy(gm(gy), a, fault ? 2 * kN : kN);  // the fault stores the whole buffer
    });
    if (!fault) {
        std::vector<float> want(2 * kN, 0.0f);
        std::copy(x.begin(), x.end(), want.begin());
        r.mismatch = b.compare(gy, want, "Y");
    }
    return r;
}

HazardRun uninit_scalar_read(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    GM_ADDR gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 2 * kN * 4);
        LocalTensor<float> a = buf.Get<float>(), t = a[kN];
        if (!fault) {  // the fix fills A before the scalar unit reads it
            Duplicate(a, 2.0f, kLen);
            SetFlag<HardEvent::V_S>(0);
            WaitFlag<HardEvent::V_S>(0);
        }
        const float scale = a.GetValue(3);
        Duplicate(t, fault ? 0.0f : scale, kLen);  // (the fault's garbage scale is not stored)
        store_from_v(gy, t);
    });
    if (!fault) r.mismatch = b.compare(gy, std::vector<float>(kN, 2.0f), "Y");
    return r;
}

HazardRun cast_mode_illegal(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    std::vector<half> xh(kN);
    for (uint32_t i = 0; i < kN; ++i) xh[i] = half(static_cast<float>(static_cast<int>(i % 13) - 6));
    std::vector<float> packed(kN / 2);  // the half bits, as GM bytes
    std::memcpy(packed.data(), xh.data(), kN * 2);
    GM_ADDR gx = b.input("X", packed), gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, kN * 2 + kN * 4);
        LocalTensor<half> h = buf.Get<half>();
        LocalTensor<float> f = buf.Get<uint8_t>()[kN * 2].ReinterpretCast<float>();
        GlobalTensor<half> xg;
        xg.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(gx));
        Duplicate(f, 0.0f, kLen);  // a default for F
        DataCopy(h, xg, kN);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        PipeBarrier<PIPE_V>();  // the Cast overwrites the default
        Cast(f, h, fault ? RoundMode::CAST_RINT : RoundMode::CAST_NONE, kN);
        store_from_v(gy, f);
    });
    if (!fault) {
        std::vector<float> want(kN);
        for (uint32_t i = 0; i < kN; ++i) want[i] = static_cast<float>(static_cast<int>(i % 13) - 6);
        r.mismatch = b.compare(gy, want, "Y");
    }
    return r;
}

HazardRun exp_of_int32(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    GM_ADDR gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 2 * kN * 4);
        LocalTensor<float> a = buf.Get<float>(), t = a[kN];
        Duplicate(a, 0.0f, kLen);  // e^0 = 1
        Duplicate(t, 0.0f, kLen);  // a default for T
        PipeBarrier<PIPE_V>();
        if (fault)  // the exponent taken as the int32 bits of its buffer
            Exp(t.ReinterpretCast<int32_t>(), a.ReinterpretCast<int32_t>(), kLen);
        else
            Exp(t, a, kLen);
        store_from_v(gy, t);
    });
    if (!fault) r.mismatch = b.compare(gy, std::vector<float>(kN, 1.0f), "Y");
    return r;
}

HazardRun copy_pad_block_len(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    const std::vector<float> x = ramp(kN, 1.0f);
    GM_ADDR gx = b.input("X", x), gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, kN * 4);
        LocalTensor<float> a = buf.Get<float>();
        preset_for_mte2(a, 0.0f);
        // One burst of the row; the fault gives its length as the row's bytes minus a 2-byte header.
        const DataCopyExtParams in{1, fault ? kN * 4 - 2 : kN * 4, 0, 0, 0};
        DataCopyPad(a, gm(gx), in, DataCopyPadExtParams<float>{});
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
        DataCopy(gm(gy), a, kN);
    });
    if (!fault) r.mismatch = b.compare(gy, x, "Y");
    return r;
}

HazardRun vector_overlap(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    GM_ADDR gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 4 * kN * 4);
        LocalTensor<float> a = buf.Get<float>();
        Duplicate(a, -1.0f, 2 * kLen);
        Duplicate(a[2 * kN], 0.0f, 2 * kLen);
        PipeBarrier<PIPE_V>();
        // 128 lanes, two repeats: the fault's destination starts where the second repeat's source does.
        Relu(fault ? a[kN] : a[2 * kN], a, 2 * kLen);
        store_from_v(gy, a[2 * kN]);
    });
    if (!fault) r.mismatch = b.compare(gy, std::vector<float>(kN, 0.0f), "Y");
    return r;
}

HazardRun null_gm_buffer(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    const std::vector<float> x = ramp(kN, 1.0f);
    GM_ADDR gx = b.input("X", x), gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, kN * 4);
        LocalTensor<float> a = buf.Get<float>();
        preset_for_mte2(a, 0.0f);
        // The fault passes the argument it forgot to set (a null GM_ADDR).
        DataCopy(a, gm(fault ? nullptr : gx), kN);
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
        DataCopy(gm(gy), a, kN);
    });
    if (!fault) r.mismatch = b.compare(gy, x, "Y");
    return r;
}

HazardRun kernel_throws(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    const std::vector<float> x = ramp(kN, 1.0f);
    GM_ADDR gx = b.input("X", x), gy = b.zeros("Y", kN);
    const uint32_t rows = fault ? 0 : 1;  // a tiling parameter the host forgot to fill
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        if (rows == 0) throw std::invalid_argument("the tiling has 0 rows");
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, kN * 4);
        LocalTensor<float> a = buf.Get<float>();
        DataCopy(a, gm(gx), kN);
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
        DataCopy(gm(gy), a, kN);
    });
    if (!fault) r.mismatch = b.compare(gy, x, "Y");
    return r;
}

HazardRun dcache_not_cleaned(const hw::Config& cfg, bool fault) {
    Bench b(cfg);
    std::vector<float> x = ramp(kN, 1.0f);
    GM_ADDR gx = b.input("X", x), gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, kN * 4);
        LocalTensor<float> a = buf.Get<float>();
        GlobalTensor<float> g = gm(gx);
        g.SetValue(1, 100.0f);  // a scalar patch of X ...
        if (!fault)             // ... written back from the data cache before the DMA reads X
            DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(g);
        DataCopy(a, g, kN);
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
        DataCopy(gm(gy), a, kN);
    });
    x[1] = 100.0f;
    if (!fault) r.mismatch = b.compare(gy, x, "Y");
    return r;
}

}  // namespace evg::conformance::controls

namespace evg::conformance::controls {

HazardRun node_slot_overrun(const hw::Config& cfg, bool fault) {
    // The opt-in checker watches this run: three graph nodes, each with a slot of its own (as an EVG gives
    // them). "scale" writes 2 * X into its slot S; the fault gives its Muls twice the length, so it also
    // writes the slot A that "load" filled with X; "add" then reads A: Y = S + A, wrong under the fault.
    hw::Config with = cfg;
    with.checks.node_slots = true;
    Bench b(with);
    const std::vector<float> x = ramp(kN, 1.0f);
    GM_ADDR gx = b.input("X", x), gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 5 * kN * 4);
        // Slots: S [0, kN), A [kN, 2kN), the source of scale C [2kN, 4kN) (room for the faulty length), Y.
        LocalTensor<float> s = buf.Get<float>(), a = s[kN], c = s[2 * kN], y = s[4 * kN];
        {
            const ascendc::NodeScope node("load");
            DataCopy(a, gm(gx), kN);
        }
        {
            const ascendc::NodeScope node("source");
            Duplicate(c, 1.0f, 2 * kLen);
        }
        PipeBarrier<PIPE_V>();
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        {
            const ascendc::NodeScope node("scale");
            Muls(s, c, 2.0f, fault ? 2 * kLen : kLen);
        }
        PipeBarrier<PIPE_V>();
        {
            const ascendc::NodeScope node("add");
            Add(y, s, a, kLen);
        }
        store_from_v(gy, y);
    });
    std::vector<float> want = x;
    for (float& v : want) v += 2.0f;
    r.mismatch = b.compare(gy, want, "Y");
    return r;
}

}  // namespace evg::conformance::controls
