// Cube-side instructions: GM -> L1 (MTE2) -> L0A/L0B (LoadData, MTE1) -> Mmad (M) -> Fixpipe (FIX) to GM or
// UB.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace {

using namespace AscendC;
using evg::hw::ViolationKind;

constexpr uint16_t M = 16, N = 16, K = 32;

enum class Fault { none, no_wait_mte1_m, no_wait_m_fix };

std::vector<half> host_a() {
    std::vector<half> a(M * K);
    for (int i = 0; i < M; ++i)
        for (int k = 0; k < K; ++k) a[size_t(i) * K + k] = half(float((i + k) % 5 - 2));
    return a;
}
std::vector<half> host_b() {
    std::vector<half> b(K * N);
    for (int k = 0; k < K; ++k)
        for (int j = 0; j < N; ++j) b[size_t(k) * N + j] = half(float((3 * k + j) % 7 - 3));
    return b;
}
std::vector<float> host_c(float times = 1.0f) {
    auto a = host_a(), b = host_b();
    std::vector<float> c(M * N, 0.0f);
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            float s = 0.0f;
            for (int k = 0; k < K; ++k)
                s += evg::hw::to_float(a[size_t(i) * K + k]) * evg::hw::to_float(b[size_t(k) * N + j]);
            c[size_t(i) * N + j] = times * s;
        }
    return c;
}

// GM A, B -> L1 -> L0A / L0B -> L0C. Leaves C in L0C at offset 0 and the M_FIX flag set (unless `f` drops
// waits).
void load_and_mmad(GM_ADDR a, GM_ADDR b, Fault f, bool twice = false) {
    GlobalTensor<half> ga, gb;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
    LocalTensor<half> l1a(TPosition::A1, 0, M * K), l1b(TPosition::B1, M * K * 2, K * N);
    LocalTensor<half> l0a(TPosition::A2, 0, M * K), l0b(TPosition::B2, 0, K * N);
    LocalTensor<float> l0c(TPosition::CO1, 0, M * N);
    DataCopy(l1a, ga, M * K);
    DataCopy(l1b, gb, K * N);
    SetFlag<HardEvent::MTE2_MTE1>(0);
    WaitFlag<HardEvent::MTE2_MTE1>(0);
    LoadData(l0a, l1a, M * K);
    LoadData(l0b, l1b, K * N);
    SetFlag<HardEvent::MTE1_M>(0);
    if (f != Fault::no_wait_mte1_m) WaitFlag<HardEvent::MTE1_M>(0);
    Mmad(l0c, l0a, l0b, MmadParams{M, N, K, true});
    if (twice) {
        PipeBarrier<PIPE_M>();  // the second Mmad reads the C the first one wrote, on the same pipe
        Mmad(l0c, l0a, l0b, MmadParams{M, N, K, false});
    }
    SetFlag<HardEvent::M_FIX>(0);
    if (f != Fault::no_wait_m_fix) WaitFlag<HardEvent::M_FIX>(0);
    if (f == Fault::no_wait_mte1_m) WaitFlag<HardEvent::MTE1_M>(0);  // keep the flag balanced, too late
}

void matmul_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR cf, GM_ADDR ch, Fault f, bool twice = false) {
    if ASCEND_IS_AIC {
        load_and_mmad(a, b, f, twice);
        GlobalTensor<float> gcf;
        GlobalTensor<half> gch;
        gcf.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(cf));
        gch.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(ch));
        LocalTensor<float> l0c(TPosition::CO1, 0, M * N);
        Fixpipe(gcf, l0c, FixpipeParams{M, N, N, N});
        Fixpipe(gch, l0c, FixpipeParams{M, N, N, N});
        if (f == Fault::no_wait_m_fix) WaitFlag<HardEvent::M_FIX>(0);
    }
}

struct Buffers {
    evg::hw::Device& dev;
    GM_ADDR a, b, cf, ch;
    explicit Buffers(evg::hw::Device& d) : dev(d) {
        auto ha = host_a(), hb = host_b();
        a = static_cast<GM_ADDR>(dev.malloc(ha.size() * 2, "A"));
        b = static_cast<GM_ADDR>(dev.malloc(hb.size() * 2, "B"));
        cf = static_cast<GM_ADDR>(dev.malloc(M * N * 4, "Cf"));
        ch = static_cast<GM_ADDR>(dev.malloc(M * N * 2, "Ch"));
        dev.copy_to_device(a, ha.data(), ha.size() * 2);
        dev.copy_to_device(b, hb.data(), hb.size() * 2);
    }
    std::vector<float> floats(GM_ADDR p) {
        std::vector<float> v(M * N);
        dev.copy_to_host(v.data(), p, v.size() * 4);
        return v;
    }
    std::vector<float> halves(GM_ADDR p) {
        std::vector<half> h(M * N);
        dev.copy_to_host(h.data(), p, h.size() * 2);
        std::vector<float> v;
        v.reserve(h.size());
        for (auto x : h) v.push_back(evg::hw::to_float(x));
        return v;
    }
};

evg::hw::Config config(evg::hw::ArchId arch) {
    evg::hw::Config cfg;
    cfg.arch = arch;
    return cfg;
}

// One race whose message names `text` and, when given, `also`.
bool has_race_with(const evg::hw::Report& r, const std::string& text, const std::string& also = {}) {
    for (const auto& v : r.violations)
        if (v.kind == ViolationKind::race && v.message.find(text) != std::string::npos &&
            v.message.find(also) != std::string::npos)
            return true;
    return false;
}

class CubeBothArchs : public ::testing::TestWithParam<evg::hw::ArchId> {};

TEST_P(CubeBothArchs, FullAicPipelineComputesTheProductCleanly) {
    evg::hw::Device dev(config(GetParam()));
    Buffers buf(dev);
    const auto& r = dev.launch(1, evg::hw::KernelType::mix_aic_1_2,
                               [&] { matmul_kernel(buf.a, buf.b, buf.cf, buf.ch, Fault::none); });
    EXPECT_TRUE(r.clean()) << r.text();
    EXPECT_TRUE(r.violations.empty()) << r.text();
    auto want = host_c();
    EXPECT_EQ(buf.floats(buf.cf), want);
    EXPECT_EQ(buf.halves(buf.ch), want);  // small integers: exact in half too
}

TEST_P(CubeBothArchs, AccumulatingMmadAddsToC) {
    evg::hw::Device dev(config(GetParam()));
    Buffers buf(dev);
    const auto& r = dev.launch(1, evg::hw::KernelType::mix_aic_1_2,
                               [&] { matmul_kernel(buf.a, buf.b, buf.cf, buf.ch, Fault::none, true); });
    EXPECT_TRUE(r.violations.empty()) << r.text();
    EXPECT_EQ(buf.floats(buf.cf), host_c(2.0f));
}

TEST_P(CubeBothArchs, MissingWaitMFixIsARaceOnL0C) {
    evg::hw::Device dev(config(GetParam()));
    Buffers buf(dev);
    const auto& r = dev.launch(1, evg::hw::KernelType::mix_aic_1_2,
                               [&] { matmul_kernel(buf.a, buf.b, buf.cf, buf.ch, Fault::no_wait_m_fix); });
    EXPECT_GE(r.count(ViolationKind::race), 1u) << r.text();
    EXPECT_TRUE(has_race_with(r, "no WaitFlag<M_FIX>", "L0C")) << r.text();
}

TEST_P(CubeBothArchs, MissingWaitMte1MIsARace) {
    evg::hw::Device dev(config(GetParam()));
    Buffers buf(dev);
    const auto& r = dev.launch(1, evg::hw::KernelType::mix_aic_1_2,
                               [&] { matmul_kernel(buf.a, buf.b, buf.cf, buf.ch, Fault::no_wait_mte1_m); });
    EXPECT_TRUE(has_race_with(r, "no WaitFlag<MTE1_M>", "L0")) << r.text();
}

TEST_P(CubeBothArchs, IllegalDtypesAreRejected) {
    evg::hw::Device dev(config(GetParam()));
    GM_ADDR out = static_cast<GM_ADDR>(dev.malloc(M * N * 2, "out"));
    const auto& r = dev.launch(1, evg::hw::KernelType::aic_only, [&] {
        LocalTensor<half> l0a(TPosition::A2, 0, M * K), l0b(TPosition::B2, 0, K * N);
        LocalTensor<half> c_half(TPosition::CO1, 0, M * N);
        Mmad(c_half, l0a, l0b, MmadParams{M, N, K, true});  // half accumulator: illegal
        LocalTensor<int32_t> c_int(TPosition::CO1, 0, M * N);
        GlobalTensor<half> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(out));
        Fixpipe(g, c_int, FixpipeParams{M, N, N, N});  // int32 -> half without dequant: illegal
    });
    EXPECT_EQ(r.count(ViolationKind::illegal_dtype), 2u) << r.text();
    EXPECT_EQ(r.violations.size(), 2u) << r.text();
}

TEST_P(CubeBothArchs, FixpipeOfNeverWrittenL0CToGmIsReported) {
    evg::hw::Device dev(config(GetParam()));
    GM_ADDR out = static_cast<GM_ADDR>(dev.malloc(M * N * 4, "out"));
    const auto& r = dev.launch(1, evg::hw::KernelType::aic_only, [&] {
        LocalTensor<float> l0c(TPosition::CO1, 0, M * N);
        GlobalTensor<float> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out));
        Fixpipe(g, l0c, FixpipeParams{M, N, N, N});
    });
    EXPECT_EQ(r.count(ViolationKind::uninit_to_gm), 1u) << r.text();
}

INSTANTIATE_TEST_SUITE_P(Arch, CubeBothArchs,
                         ::testing::Values(evg::hw::ArchId::AtlasA2, evg::hw::ArchId::Ascend950),
                         [](const auto& info) { return std::string(evg::hw::arch_name(info.param)); });

// AIC: C -> AIV0's UB (FIX), cross-core flag; AIV0: waits on V, then V -> MTE3 and copies the UB to GM.
void fixpipe_to_ub_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR cf) {
    if ASCEND_IS_AIC {
        load_and_mmad(a, b, Fault::none);
        LocalTensor<float> l0c(TPosition::CO1, 0, M * N);
        LocalTensor<float> ub(TPosition::VECCALC, 0, M * N);
        Fixpipe(ub, l0c, FixpipeParams{M, N, N, N}, 0);
        CrossCoreSetFlag<4, PIPE_FIX>(0);
    } else if (GetSubBlockIdx() == 0) {
        GlobalTensor<float> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(cf));
        LocalTensor<float> ub(TPosition::VECCALC, 0, M * N);
        CrossCoreWaitFlag<4, PIPE_V>(0);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(g, ub, M * N);
    }
}

TEST(Cube, FixpipeToUbLandsInTheAivUbOnAscend950) {
    evg::hw::Device dev(config(evg::hw::ArchId::Ascend950));
    Buffers buf(dev);
    const auto& r =
        dev.launch(1, evg::hw::KernelType::mix_aic_1_2, [&] { fixpipe_to_ub_kernel(buf.a, buf.b, buf.cf); });
    EXPECT_TRUE(r.clean()) << r.text();
    EXPECT_TRUE(r.violations.empty()) << r.text();
    EXPECT_EQ(buf.floats(buf.cf), host_c());
}

TEST(Cube, FixpipeToUbIsRejectedOnAtlasA2) {
    evg::hw::Device dev(config(evg::hw::ArchId::AtlasA2));
    const auto& r = dev.launch(1, evg::hw::KernelType::mix_aic_1_2, [&] {
        if ASCEND_IS_AIC {
            LocalTensor<float> l0c(TPosition::CO1, 0, M * N);
            LocalTensor<float> ub(TPosition::VECCALC, 0, M * N);
            Fixpipe(ub, l0c, FixpipeParams{M, N, N, N}, 0);
        }
    });
    ASSERT_EQ(r.count(ViolationKind::bad_param), 1u) << r.text();
    const auto* v = r.first(ViolationKind::bad_param);
    EXPECT_NE(v->message.find("L0C->UB data path does not exist on AtlasA2"), std::string::npos)
        << v->message;
}

}  // namespace
