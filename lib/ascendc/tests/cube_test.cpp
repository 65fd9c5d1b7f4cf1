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

// GM A, B -> L1 (Nd2Nz, zN) -> L0A (zZ on AtlasA2, zN on Ascend950) / L0B (nZ) -> L0C (NZ). M = 16 rows is
// one fractal row, so the zN and zZ layouts of A in L0A coincide and one Load2D v2 serves both chips. Leaves
// C in L0C at offset 0 and the M_FIX flag set (unless `f` drops waits).
void load_and_mmad(GM_ADDR a, GM_ADDR b, Fault f, bool twice = false, uint8_t unitFlag = 0) {
    GlobalTensor<half> ga, gb;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
    LocalTensor<half> l1a(TPosition::A1, 0, M * K), l1b(TPosition::B1, M * K * 2, K * N);
    LocalTensor<half> l0a(TPosition::A2, 0, M * K), l0b(TPosition::B2, 0, K * N);
    LocalTensor<float> l0c(TPosition::CO1, 0, M * N);
    Nd2NzParams na;
    na.nValue = M;
    na.dValue = K;
    na.srcDValue = K;
    na.dstNzC0Stride = M;
    na.dstNzNStride = 1;
    DataCopy(l1a, ga, na);
    Nd2NzParams nb;
    nb.nValue = K;
    nb.dValue = N;
    nb.srcDValue = N;
    nb.dstNzC0Stride = K;
    nb.dstNzNStride = 1;
    DataCopy(l1b, gb, nb);
    SetFlag<HardEvent::MTE2_MTE1>(0);
    WaitFlag<HardEvent::MTE2_MTE1>(0);
    LoadData2DParamsV2 la;
    la.mStep = M / 16;
    la.kStep = K / 16;
    la.srcStride = M / 16;
    la.dstStride = M / 16;
    LoadData(l0a, l1a, la);
    LoadData2DParamsV2 lb;
    lb.mStep = K / 16;
    lb.kStep = N / 16;
    lb.srcStride = K / 16;
    lb.dstStride = N / 16;
    lb.ifTranspose = true;
    LoadData(l0b, l1b, lb);
    SetFlag<HardEvent::MTE1_M>(0);
    if (f != Fault::no_wait_mte1_m) WaitFlag<HardEvent::MTE1_M>(0);
    MmadParams mp(M, N, K);
    mp.unitFlag = twice ? 0 : unitFlag;
    Mmad(l0c, l0a, l0b, mp);
    if (twice) {
        PipeBarrier<PIPE_M>();  // the second Mmad reads the C the first one wrote, on the same pipe
        mp.cmatrixInitVal = false;
        mp.unitFlag = unitFlag;
        Mmad(l0c, l0a, l0b, mp);
    }
    if (unitFlag != 0) {
        if (f == Fault::no_wait_mte1_m) WaitFlag<HardEvent::MTE1_M>(0);
        return;  // the unit flag hands L0C over
    }
    SetFlag<HardEvent::M_FIX>(0);
    if (f != Fault::no_wait_m_fix) WaitFlag<HardEvent::M_FIX>(0);
    if (f == Fault::no_wait_mte1_m) WaitFlag<HardEvent::MTE1_M>(0);  // keep the flag balanced, too late
}

FixpipeParamsV220 fix_params(QuantMode_t q, uint8_t unitFlag = 0) {
    FixpipeParamsV220 p;
    p.mSize = M;
    p.nSize = N;
    p.srcStride = M;
    p.dstStride = N;
    p.quantPre = q;
    p.unitFlag = unitFlag;
    return p;
}

// The public API's shape-and-ReLU constructor sets those five fields and leaves the rest at their defaults.
TEST(Cube, FixpipeParamsV220ConstructorSetsShapeAndRelu) {
    const FixpipeParamsV220 p(N, M, M, N, true);
    EXPECT_EQ(p.nSize, N);
    EXPECT_EQ(p.mSize, M);
    EXPECT_EQ(p.srcStride, M);
    EXPECT_EQ(p.dstStride, N);
    EXPECT_TRUE(p.reluEn);
    EXPECT_EQ(p.quantPre, QuantMode_t::NoQuant);
    EXPECT_EQ(p.ndNum, 1);
    EXPECT_EQ(p.unitFlag, 0);
}

void matmul_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR cf, GM_ADDR ch, Fault f, bool twice = false) {
    if ASCEND_IS_AIC {
        load_and_mmad(a, b, f, twice);
        GlobalTensor<float> gcf;
        GlobalTensor<half> gch;
        gcf.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(cf));
        gch.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(ch));
        LocalTensor<float> l0c(TPosition::CO1, 0, M * N);
        Fixpipe(gcf, l0c, fix_params(QuantMode_t::NoQuant));
        Fixpipe(gch, l0c, fix_params(QuantMode_t::F322F16));
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
        Mmad(c_half, l0a, l0b, MmadParams(M, N, K));  // half accumulator: illegal
        LocalTensor<int32_t> c_int(TPosition::CO1, 0, M * N);
        GlobalTensor<half> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(out));
        Fixpipe(g, c_int, fix_params(QuantMode_t::NoQuant));  // int32 -> half without dequant: illegal
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
        Fixpipe(g, l0c, fix_params(QuantMode_t::NoQuant));
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
        FixpipeParamsC310 p;
        p.mSize = M;
        p.nSize = N;
        p.srcStride = M;
        p.dstStride = N;
        Fixpipe(ub, l0c, p);
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

// FixpipeParamsArch3510 is the later AscendC name of FixpipeParamsC310: a kernel written with it lands the
// same result.
TEST(Cube, FixpipeParamsArch3510IsTheSameFixpipe) {
    evg::hw::Device dev(config(evg::hw::ArchId::Ascend950));
    Buffers buf(dev);
    const auto& r = dev.launch(1, evg::hw::KernelType::mix_aic_1_2, [&] {
        if ASCEND_IS_AIC {
            load_and_mmad(buf.a, buf.b, Fault::none);
            LocalTensor<float> l0c(TPosition::CO1, 0, M * N);
            GlobalTensor<float> g;
            g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(buf.cf));
            FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> p;
            p.mSize = M;
            p.nSize = N;
            p.srcStride = M;
            p.dstStride = N;
            Fixpipe(g, l0c, p);
        }
    });
    EXPECT_TRUE(r.violations.empty()) << r.text();
    EXPECT_EQ(buf.floats(buf.cf), host_c());
}

TEST(Cube, FixpipeToUbIsRejectedOnAtlasA2) {
    evg::hw::Device dev(config(evg::hw::ArchId::AtlasA2));
    const auto& r = dev.launch(1, evg::hw::KernelType::mix_aic_1_2, [&] {
        if ASCEND_IS_AIC {
            LocalTensor<float> l0c(TPosition::CO1, 0, M * N);
            LocalTensor<float> ub(TPosition::VECCALC, 0, M * N);
            FixpipeParamsC310 p;
            p.mSize = M;
            p.nSize = N;
            p.srcStride = M;
            p.dstStride = N;
            Fixpipe(ub, l0c, p);
        }
    });
    ASSERT_EQ(r.count(ViolationKind::bad_param), 1u) << r.text();
    const auto* v = r.first(ViolationKind::bad_param);
    EXPECT_NE(v->message.find("L0C->UB data path does not exist on AtlasA2"), std::string::npos)
        << v->message;
}

}  // namespace

namespace {

// unitFlag: the last Mmad (3) hands L0C to the Fixpipe (3) without M_FIX; with `fix_flag` 0 the Fixpipe does
// not wait (a race); with `mmad_flag` 2 no Mmad fills the blocks (the Fixpipe would wait forever).
void unit_flag_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR cf, uint8_t mmad_flag, uint8_t fix_flag) {
    if ASCEND_IS_AIC {
        load_and_mmad(a, b, Fault::none, false, mmad_flag);
        GlobalTensor<float> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(cf));
        LocalTensor<float> l0c(TPosition::CO1, 0, M * N);
        Fixpipe(g, l0c, fix_params(QuantMode_t::NoQuant, fix_flag));
    }
}

TEST_P(CubeBothArchs, UnitFlagHandOverOrdersMmadBeforeFixpipe) {
    evg::hw::Device dev(config(GetParam()));
    Buffers buf(dev);
    const auto& r =
        dev.launch(1, evg::hw::KernelType::aic_only, [&] { unit_flag_kernel(buf.a, buf.b, buf.cf, 3, 3); });
    EXPECT_TRUE(r.violations.empty()) << r.text();
    EXPECT_EQ(buf.floats(buf.cf), host_c());
}

TEST_P(CubeBothArchs, FixpipeWithoutUnitFlagAfterAUnitFlagMmadIsARace) {
    evg::hw::Device dev(config(GetParam()));
    Buffers buf(dev);
    const auto& r =
        dev.launch(1, evg::hw::KernelType::aic_only, [&] { unit_flag_kernel(buf.a, buf.b, buf.cf, 3, 0); });
    EXPECT_GE(r.count(ViolationKind::race), 1u) << r.text();
}

TEST_P(CubeBothArchs, FixpipeWaitingForABlockNoMmadFillsIsReported) {
    evg::hw::Device dev(config(GetParam()));
    Buffers buf(dev);
    const auto& r =
        dev.launch(1, evg::hw::KernelType::aic_only, [&] { unit_flag_kernel(buf.a, buf.b, buf.cf, 2, 3); });
    EXPECT_EQ(r.count(ViolationKind::deadlock), 1u) << r.text();
}

// nd2nz of a 3 x 20 half matrix (40-byte rows): element (r, c) lands at zN offset (c / 16) * 16 * 16 + r * 16
// + c % 16; columns 20..31 of the second block are zero; nothing else of the 16-row blocks is written.
// Observed through an Mmad with an identity B (16 x 32): C = A's 16 x 32 zN image read back row-major.
TEST_P(CubeBothArchs, Nd2NzLaysOutZnAndZeroFillsTheRowTail) {
    evg::hw::Device dev(config(GetParam()));
    constexpr int R = 3, D = 20, KP = 32, NN = 32;
    std::vector<half> ha(R * D), hb(KP * NN);
    for (int i = 0; i < R * D; ++i) ha[size_t(i)] = half(float(i + 1));
    for (int k = 0; k < KP; ++k)
        for (int j = 0; j < NN; ++j) hb[size_t(k) * NN + j] = half(k == j ? 1.0f : 0.0f);
    auto* ga = static_cast<GM_ADDR>(dev.malloc(ha.size() * 2, "A"));
    auto* gb = static_cast<GM_ADDR>(dev.malloc(hb.size() * 2, "B"));
    auto* gc = static_cast<GM_ADDR>(dev.malloc(size_t(R) * NN * 4, "C"));
    dev.copy_to_device(ga, ha.data(), ha.size() * 2);
    dev.copy_to_device(gb, hb.data(), hb.size() * 2);
    const auto& r = dev.launch(1, evg::hw::KernelType::aic_only, [&] {
        GlobalTensor<half> tA, tB;
        tA.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(ga));
        tB.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(gb));
        LocalTensor<half> l1a(TPosition::A1, 0, 16 * KP), l1b(TPosition::B1, 4096, KP * NN);
        LocalTensor<half> l0a(TPosition::A2, 0, 16 * KP), l0b(TPosition::B2, 0, KP * NN);
        LocalTensor<float> l0c(TPosition::CO1, 0, 16 * NN);
        Nd2NzParams na;
        na.nValue = R;
        na.dValue = D;
        na.srcDValue = D;
        na.dstNzC0Stride = 16;
        na.dstNzNStride = 1;
        DataCopy(l1a, tA, na);
        Nd2NzParams nb;
        nb.nValue = KP;
        nb.dValue = NN;
        nb.srcDValue = NN;
        nb.dstNzC0Stride = KP;
        nb.dstNzNStride = 1;
        DataCopy(l1b, tB, nb);
        SetFlag<HardEvent::MTE2_MTE1>(0);
        WaitFlag<HardEvent::MTE2_MTE1>(0);
        LoadData2DParamsV2 la;
        la.mStep = 1;
        la.kStep = 2;
        la.srcStride = 1;
        la.dstStride = 1;
        LoadData(l0a, l1a, la);
        LoadData2DParamsV2 lb;
        lb.mStep = 2;
        lb.kStep = 2;
        lb.srcStride = 2;
        lb.dstStride = 2;
        lb.ifTranspose = true;
        LoadData(l0b, l1b, lb);
        SetFlag<HardEvent::MTE1_M>(0);
        WaitFlag<HardEvent::MTE1_M>(0);
        Mmad(l0c, l0a, l0b, MmadParams(16, NN, KP));
        SetFlag<HardEvent::M_FIX>(0);
        WaitFlag<HardEvent::M_FIX>(0);
        GlobalTensor<float> tC;
        tC.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gc));
        FixpipeParamsV220 fp;
        fp.mSize = R;
        fp.nSize = NN;
        fp.srcStride = 16;
        fp.dstStride = NN;
        Fixpipe(tC, l0c, fp);
    });
    EXPECT_TRUE(r.violations.empty()) << r.text();
    std::vector<float> c(size_t(R) * NN);
    dev.copy_to_host(c.data(), gc, c.size() * 4);
    for (int i = 0; i < R; ++i)
        for (int j = 0; j < NN; ++j)
            EXPECT_EQ(c[size_t(i) * NN + j], j < D ? float(i * D + j + 1) : 0.0f) << i << "," << j;
}

TEST(Cube, DualDestinationSplitMNeedsAnEvenM) {
    evg::hw::Device dev(config(evg::hw::ArchId::Ascend950));
    const auto& r = dev.launch(1, evg::hw::KernelType::mix_aic_1_2, [&] {
        if ASCEND_IS_AIC {
            LocalTensor<float> l0c(TPosition::CO1, 0, M * N);
            LocalTensor<float> ub(TPosition::VECCALC, 0, M * N);
            FixpipeParamsC310 p;
            p.mSize = 15;
            p.nSize = N;
            p.srcStride = 16;
            p.dstStride = N;
            p.dualDstCtl = 1;
            Fixpipe(ub, l0c, p);
        }
    });
    ASSERT_EQ(r.count(ViolationKind::bad_param), 1u) << r.text();
    EXPECT_NE(r.first(ViolationKind::bad_param)->message.find("must be even"), std::string::npos);
}

}  // namespace
