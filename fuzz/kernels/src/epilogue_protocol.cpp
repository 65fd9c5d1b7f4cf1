// The BlockEpilogue event protocol kernel (see epilogue_protocol.hpp) and its host harness.
#include "evg/fuzz/epilogue_protocol.hpp"

#include <cstring>

#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace evg::fuzz {

ProtocolInputs protocol_inputs(const ProtocolShape& s) {
    ProtocolInputs in;
    const uint64_t n = s.elements();
    in.c.resize(n);
    in.x.resize(n);
    for (uint64_t i = 0; i < n; ++i) {
        in.c[i] = static_cast<float>(static_cast<int>(i % 211) - 105) / 8.0f;
        in.x[i] = static_cast<float>(static_cast<int>((i * 7) % 127) - 63) / 16.0f;
    }
    return in;
}

std::vector<uint8_t> protocol_reference(const ProtocolShape& s, const ProtocolInputs& in) {
    const uint64_t n = s.elements();
    std::vector<float> d(n);
    for (uint64_t i = 0; i < n; ++i) {
        const float sum = in.c[i] + in.x[i];
        d[i] = sum * 0.5f;
    }
    std::vector<uint8_t> out(2 * n * sizeof(float));
    std::memcpy(out.data(), d.data(), n * sizeof(float));
    std::memcpy(out.data() + n * sizeof(float), in.x.data(), n * sizeof(float));
    return out;
}

void epilogue_protocol_kernel(uint8_t* c, uint8_t* x, uint8_t* d, uint8_t* e, const ProtocolShape& s) {
    using namespace AscendC;
    const uint32_t tile = s.tile;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 6 * tile * sizeof(float));
    LocalTensor<float> ub = buf.Get<float>();
    // Set i: C at [3i], X at [3i+1], D at [3i+2] (in tiles).
    LocalTensor<float> ub_c[2] = {ub[0], ub[3 * tile]};
    LocalTensor<float> ub_x[2] = {ub[tile], ub[4 * tile]};
    LocalTensor<float> ub_d[2] = {ub[2 * tile], ub[5 * tile]};
    GlobalTensor<float> gc, gx, gd, ge;
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
    gd.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(d));
    ge.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(e));
    const uint64_t base = static_cast<uint64_t>(GetBlockIdx()) * s.tiles * tile;

    // Constructor: both sets free to load, outputs free to overwrite, previous stores done.
    SetFlag<HardEvent::V_MTE2>(0);
    SetFlag<HardEvent::V_MTE2>(1);
    SetFlag<HardEvent::MTE3_V>(0);
    SetFlag<HardEvent::MTE3_V>(1);
    const bool store_before_load = !s.upstream_store_load;
    if (store_before_load) {
        SetFlag<HardEvent::MTE3_MTE2>(0);
        SetFlag<HardEvent::MTE3_MTE2>(1);
    }
    for (uint32_t t = 0; t < s.tiles; ++t) {
        const int id = static_cast<int>(t % 2);
        const uint64_t at = base + uint64_t(t) * tile;
        // LOAD: the previous user of this set has finished COMPUTE and STORE.
        WaitFlag<HardEvent::V_MTE2>(id);
        if (store_before_load) WaitFlag<HardEvent::MTE3_MTE2>(id);
        DataCopy(ub_c[id], gc[at], tile);
        DataCopy(ub_x[id], gx[at], tile);
        SetFlag<HardEvent::MTE2_V>(id);
        // COMPUTE: this tile's loads are done; the previous STORE of this set's output is done.
        WaitFlag<HardEvent::MTE2_V>(id);
        WaitFlag<HardEvent::MTE3_V>(id);
        Add(ub_d[id], ub_c[id], ub_x[id], static_cast<int32_t>(tile));
        PipeBarrier<PIPE_V>();
        Muls(ub_d[id], ub_d[id], 0.5f, static_cast<int32_t>(tile));
        SetFlag<HardEvent::V_MTE2>(id);
        SetFlag<HardEvent::V_MTE3>(id);
        // STORE: this tile's compute is done.
        WaitFlag<HardEvent::V_MTE3>(id);
        DataCopy(gd[at], ub_d[id], tile);
        DataCopy(ge[at], ub_x[id], tile);
        SetFlag<HardEvent::MTE3_V>(id);
        if (store_before_load) SetFlag<HardEvent::MTE3_MTE2>(id);
    }
    // Destructor: every load, compute and store has completed; no flag is left set.
    WaitFlag<HardEvent::V_MTE2>(0);
    WaitFlag<HardEvent::V_MTE2>(1);
    WaitFlag<HardEvent::MTE3_V>(0);
    WaitFlag<HardEvent::MTE3_V>(1);
    if (store_before_load) {
        WaitFlag<HardEvent::MTE3_MTE2>(0);
        WaitFlag<HardEvent::MTE3_MTE2>(1);
    }
}

KernelRun run_epilogue_protocol(hw::Config cfg, hw::ArchId arch, const ProtocolShape& s) {
    cfg.arch = arch;
    hw::Device dev(cfg);
    const ProtocolInputs in = protocol_inputs(s);
    const uint64_t bytes = s.elements() * sizeof(float);
    void* c = dev.malloc(bytes, "C");
    void* x = dev.malloc(bytes, "X");
    void* d = dev.malloc(bytes, "D");
    void* e = dev.malloc(bytes, "E");
    dev.copy_to_device(c, in.c.data(), bytes);
    dev.copy_to_device(x, in.x.data(), bytes);
    const std::vector<uint8_t> zeros(bytes, 0);
    dev.copy_to_device(d, zeros.data(), bytes);
    dev.copy_to_device(e, zeros.data(), bytes);
    auto cp = static_cast<uint8_t*>(c), xp = static_cast<uint8_t*>(x), dp = static_cast<uint8_t*>(d),
         ep = static_cast<uint8_t*>(e);
    KernelRun r;
    r.report =
        dev.launch(s.blocks, hw::KernelType::aiv_only, [&] { epilogue_protocol_kernel(cp, xp, dp, ep, s); });
    r.trace = dev.take_last_trace();
    r.outputs.resize(2 * bytes);
    dev.copy_to_host(r.outputs.data(), d, bytes);
    dev.copy_to_host(r.outputs.data() + bytes, e, bytes);
    return r;
}

}  // namespace evg::fuzz
