// A double-buffered element-wise kernel (Z = X + Y over half) on the machine with every checker on, with
// every checker off, and Eigen evaluating the same expression. Counters report elements per second.
#include <benchmark/benchmark.h>

#include <Eigen/Core>
#include <cstring>
#include <vector>

#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace {

using namespace AscendC;

constexpr uint32_t kTile = 16384;  // halves per buffer: 6 buffers x 32 KiB = AtlasA2's 192 KiB of UB

void add_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint64_t total) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 6 * kTile * sizeof(half));
    LocalTensor<half> ub = buf.Get<half>();
    LocalTensor<half> bx[2] = {ub[0], ub[kTile]}, by[2] = {ub[2 * kTile], ub[3 * kTile]},
                      bz[2] = {ub[4 * kTile], ub[5 * kTile]};
    GlobalTensor<half> gx, gy, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x));
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y));
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(z));
    SetFlag<HardEvent::V_MTE2>(0);
    SetFlag<HardEvent::V_MTE2>(1);
    SetFlag<HardEvent::MTE3_V>(0);
    SetFlag<HardEvent::MTE3_V>(1);
    for (uint64_t t = 0; t * kTile < total; ++t) {
        int id = static_cast<int>(t % 2);
        WaitFlag<HardEvent::V_MTE2>(id);
        DataCopy(bx[id], gx[t * kTile], kTile);
        DataCopy(by[id], gy[t * kTile], kTile);
        SetFlag<HardEvent::MTE2_V>(id);
        WaitFlag<HardEvent::MTE2_V>(id);
        WaitFlag<HardEvent::MTE3_V>(id);
        Add(bz[id], bx[id], by[id], static_cast<int32_t>(kTile));
        SetFlag<HardEvent::V_MTE2>(id);
        SetFlag<HardEvent::V_MTE3>(id);
        WaitFlag<HardEvent::V_MTE3>(id);
        DataCopy(gz[t * kTile], bz[id], kTile);
        SetFlag<HardEvent::MTE3_V>(id);
    }
    WaitFlag<HardEvent::V_MTE2>(0);
    WaitFlag<HardEvent::V_MTE2>(1);
    WaitFlag<HardEvent::MTE3_V>(0);
    WaitFlag<HardEvent::MTE3_V>(1);
}

std::vector<uint16_t> data(uint64_t n, uint32_t seed) {
    std::vector<uint16_t> v(n);
    uint32_t s = seed;
    for (auto& x : v) {
        s = s * 1664525u + 1013904223u;
        x = evg::hw::half(static_cast<float>(static_cast<int>(s >> 20) - 2048) / 64.0f).bits;
    }
    return v;
}

void run_model(benchmark::State& st, bool checks) {
    uint64_t n = static_cast<uint64_t>(st.range(0));
    evg::hw::Config cfg;
    if (!checks) cfg.checks = evg::hw::CheckerConfig::none();
    evg::hw::Device dev(cfg);
    auto hx = data(n, 1), hy = data(n, 2);
    void* x = dev.malloc(n * 2, "X");
    void* y = dev.malloc(n * 2, "Y");
    void* z = dev.malloc(n * 2, "Z");
    dev.copy_to_device(x, hx.data(), n * 2);
    dev.copy_to_device(y, hy.data(), n * 2);
    for (auto _ : st) {
        auto& r = dev.launch(1, evg::hw::KernelType::aiv_only, [&] {
            add_kernel(static_cast<GM_ADDR>(x), static_cast<GM_ADDR>(y), static_cast<GM_ADDR>(z), n);
        });
        if (!r.clean()) st.SkipWithError("the benchmark kernel reported violations");
    }
    st.counters["elements/s"] =
        benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Model_ChecksOn(benchmark::State& st) {
    run_model(st, true);
}
void BM_Model_ChecksOff(benchmark::State& st) {
    run_model(st, false);
}

void BM_Eigen(benchmark::State& st) {
    uint64_t n = static_cast<uint64_t>(st.range(0));
    auto hx = data(n, 1), hy = data(n, 2);
    using Arr = Eigen::Array<Eigen::half, Eigen::Dynamic, 1>;
    Arr ex(static_cast<Eigen::Index>(n)), ey(static_cast<Eigen::Index>(n)), ez(static_cast<Eigen::Index>(n));
    for (uint64_t i = 0; i < n; ++i) {
        ex[static_cast<Eigen::Index>(i)] = Eigen::numext::bit_cast<Eigen::half>(hx[i]);
        ey[static_cast<Eigen::Index>(i)] = Eigen::numext::bit_cast<Eigen::half>(hy[i]);
    }
    for (auto _ : st) {
        ez = ex + ey;
        benchmark::DoNotOptimize(ez.data());
        benchmark::ClobberMemory();
    }
    st.counters["elements/s"] =
        benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
}

constexpr int64_t kFull = int64_t(1) << 24;   // 16M halves: the figure
constexpr int64_t kSmoke = int64_t(1) << 16;  // for the bench-smoke ctest label

BENCHMARK(BM_Model_ChecksOn)->Arg(kFull)->Arg(kSmoke)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Model_ChecksOff)->Arg(kFull)->Arg(kSmoke)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Eigen)->Arg(kFull)->Arg(kSmoke)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
