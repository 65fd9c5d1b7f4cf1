// GM atomics (SetAtomicAdd/Max/Min): every store accumulates into GM in the atomic dtype, exactly once per
// element; floats round once to their type (no rounding to an integer), integers saturate.
#include <gtest/gtest.h>

#include <cmath>

#include <vector>

#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace {

using namespace AscendC;

template <class T>
std::vector<T> accumulate(void (*set_atomic)(Site), T init, T value) {
    evg::hw::Device dev;
    std::vector<T> host(32, init);
    void* g = dev.malloc(sizeof(T) * 32);
    dev.copy_to_device(g, host.data(), sizeof(T) * 32);
    auto gp = static_cast<GM_ADDR>(g);
    auto& r = dev.launch(1, evg::hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 1024);
        LocalTensor<T> t = buf.Get<T>();
        Duplicate(t, value, 32);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        GlobalTensor<T> gt;
        gt.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gp));
        set_atomic(Site::here());
        DataCopy(gt, t, 32);
        PipeBarrier<PIPE_MTE3>();
        DataCopy(gt, t, 32);  // twice: init + 2 * value
        SetAtomicNone();
    });
    EXPECT_TRUE(r.clean()) << r.text();
    dev.copy_to_host(host.data(), g, sizeof(T) * 32);
    return host;
}

TEST(Atomics, FloatAddKeepsFractions) {
    auto out = accumulate<float>([](Site s) { SetAtomicAdd<float>(s); }, 1.5f, 1.25f);
    EXPECT_EQ(out[0], 4.0f);
    auto frac = accumulate<float>([](Site s) { SetAtomicAdd<float>(s); }, 0.1f, 0.2f);
    EXPECT_EQ(frac[5], (0.1f + 0.2f) + 0.2f);
}

TEST(Atomics, HalfAddRoundsToHalf) {
    auto out = accumulate<half>([](Site s) { SetAtomicAdd<half>(s); }, half(2048.0f), half(1.0f));
    // 2048 + 1 = 2049 -> 2048 (ties to even), then + 1 again -> 2048.
    EXPECT_EQ(out[0].bits, half(2048.0f).bits);
}

TEST(Atomics, MaxMinAndIntegerSaturation) {
    auto mx = accumulate<float>([](Site s) { SetAtomicMax<float>(s); }, -3.5f, -1.25f);
    EXPECT_EQ(mx[0], -1.25f);
    auto mn = accumulate<int32_t>([](Site s) { SetAtomicMin<int32_t>(s); }, 7, -2);
    EXPECT_EQ(mn[0], -2);
    auto sat = accumulate<int16_t>([](Site s) { SetAtomicAdd<int16_t>(s); }, int16_t(32000), int16_t(500));
    EXPECT_EQ(sat[0], 32767);
}

// Found by the model property (a RowReduce Min of x * 0 over two AIVs gave +0 where the minimum is -0):
// atomic max/min order signed zeros as the vector Max/Min do, so the result does not depend on the arrival
// order.
TEST(Atomics, MaxMinOrderSignedZeros) {
    const auto bits = [](float f) { return std::signbit(f); };
    EXPECT_TRUE(bits(accumulate<float>([](Site s) { SetAtomicMin<float>(s); }, -0.0f, 0.0f)[0]));
    EXPECT_TRUE(bits(accumulate<float>([](Site s) { SetAtomicMin<float>(s); }, 0.0f, -0.0f)[0]));
    EXPECT_FALSE(bits(accumulate<float>([](Site s) { SetAtomicMax<float>(s); }, -0.0f, 0.0f)[0]));
    EXPECT_FALSE(bits(accumulate<float>([](Site s) { SetAtomicMax<float>(s); }, 0.0f, -0.0f)[0]));
}

}  // namespace
