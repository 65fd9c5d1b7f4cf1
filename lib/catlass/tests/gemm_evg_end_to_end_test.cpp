// The GEMM kernels with the real EVG library: D = A.B + X written exactly as seed 003 / seed 000 host code
// (TreeVisitor, BlockEpilogue, kernel Arguments braces, DeviceGemm), on both chips and both workspace paths,
// checked value by value against a host product and for a clean report.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "acl/acl.h"
#include "catlass/epilogue/block/block_epilogue.hpp"
#include "catlass/epilogue/fusion/fusion.hpp"
#include "catlass/gemm/gemm.hpp"
#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace {

using namespace Catlass;
using evg::hw::ViolationKind;

template <class E>
float to_f(E x) {
    if constexpr (std::is_same_v<E, float>)
        return x;
    else
        return evg::hw::to_float(x);
}

// Small integers: every product, sum and the final add are exact in float and in half.
template <class E>
std::vector<E> fill(uint32_t rows, uint32_t cols, uint32_t salt) {
    std::vector<E> v(size_t(rows) * cols);
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t j = 0; j < cols; ++j)
            v[size_t(i) * cols + j] = E(float(int((i * 5 + j * 3 + salt) % 7) - 3));
    return v;
}

template <class E>
std::vector<float> host_d(const std::vector<E>& a, const std::vector<E>& b, const std::vector<E>& x,
                          uint32_t m, uint32_t n, uint32_t k) {
    std::vector<float> d(size_t(m) * n);
    for (uint32_t i = 0; i < m; ++i)
        for (uint32_t j = 0; j < n; ++j) {
            float s = 0.0f;
            for (uint32_t kk = 0; kk < k; ++kk)
                s += to_f(a[size_t(i) * k + kk]) * to_f(b[size_t(kk) * n + j]);
            d[size_t(i) * n + j] = s + to_f(x[size_t(i) * n + j]);
        }
    return d;
}

struct GemmProblem {
    uint32_t m, n, k, blockDim;
};

template <class E>
struct DeviceData {
    std::vector<E> a, b, x;
    uint8_t *dA = nullptr, *dB = nullptr, *dX = nullptr, *dD = nullptr;
    GemmProblem pb;
    explicit DeviceData(const GemmProblem& p) : pb(p) {
        a = fill<E>(p.m, p.k, 1);
        b = fill<E>(p.k, p.n, 2);
        x = fill<E>(p.m, p.n, 3);
        dA = upload(a);
        dB = upload(b);
        dX = upload(x);
        aclrtMalloc(reinterpret_cast<void**>(&dD), size_t(p.m) * p.n * sizeof(E), ACL_MEM_MALLOC_HUGE_FIRST);
    }
    uint8_t* upload(const std::vector<E>& h) {
        uint8_t* p = nullptr;
        aclrtMalloc(reinterpret_cast<void**>(&p), h.size() * sizeof(E), ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMemcpy(p, h.size() * sizeof(E), h.data(), h.size() * sizeof(E), ACL_MEMCPY_HOST_TO_DEVICE);
        return p;
    }
    std::vector<float> d() const {
        std::vector<E> h(size_t(pb.m) * pb.n);
        aclrtMemcpy(h.data(), h.size() * sizeof(E), dD, h.size() * sizeof(E), ACL_MEMCPY_DEVICE_TO_HOST);
        std::vector<float> v;
        v.reserve(h.size());
        for (auto e : h) v.push_back(to_f(e));
        return v;
    }
    std::vector<float> want() const { return host_d(a, b, x, pb.m, pb.n, pb.k); }
};

// Seed 003's graph: D = C + X.
template <class E, bool USE_UB>
using AddEvg = Epilogue::Fusion::TreeVisitor<
    Epilogue::Fusion::VisitorAuxStore<E, tla::RowMajorLayout>,
    Epilogue::Fusion::TreeVisitor<Epilogue::Fusion::VisitorCompute<Epilogue::Fusion::Add, E>,
                                  Epilogue::Fusion::VisitorAccLoad<E, USE_UB>,
                                  Epilogue::Fusion::VisitorAuxLoad<E, tla::RowMajorLayout>>>;

// MASTER host code: BlockMmadTla + BlockEpilogue<EpilogueVisitor<USE_UB>, ...> + the kernel + DeviceGemm.
template <class ArchTag, class E, bool USE_UB, uint32_t CL, uint32_t L1M, uint32_t L1N, uint32_t L0K,
          template <class, class, class> class KernelT>
evg::hw::Report run_master(const GemmProblem& pb, std::vector<float>& got, std::vector<float>& want) {
    using L1TileShape = tla::tuple<tla::Int<L1M>, tla::Int<L1N>, tla::Int<2 * L0K>>;
    using L0TileShape = tla::tuple<tla::Int<L1M>, tla::Int<L1N>, tla::Int<L0K>>;
    using BlockMmad =
        Gemm::Block::BlockMmadTla<Gemm::MmadPingpong<ArchTag, true>, L1TileShape, L0TileShape, E, E, E>;
    using EVG = AddEvg<E, USE_UB>;
    using BlockEpilogue =
        Epilogue::Block::BlockEpilogue<Epilogue::EpilogueVisitor<USE_UB>, ArchTag, tla::Int<CL>, EVG, E>;
    using BlockScheduler = Gemm::Block::GemmIdentityBlockSwizzle<3, 0>;
    using MatmulKernel = KernelT<BlockMmad, BlockEpilogue, BlockScheduler>;

    evg::hw::reset_device();
    aclrtStream stream;
    aclrtCreateStream(&stream);
    DeviceData<E> data(pb);
    auto layoutA = tla::MakeLayout<E, layout::RowMajor>(pb.m, pb.k);
    auto layoutB = tla::MakeLayout<E, layout::RowMajor>(pb.k, pb.n);
    auto layoutD = tla::MakeLayout<E, layout::RowMajor>(pb.m, pb.n);
    typename MatmulKernel::Arguments arguments{GemmCoord(pb.m, pb.n, pb.k),
                                               data.dA,
                                               layoutA,
                                               data.dB,
                                               layoutB,
                                               data.dD,
                                               layoutD,
                                               nullptr,
                                               {{{}, {data.dX, layoutD}, {}}, {data.dD, layoutD}}};
    Gemm::Device::DeviceGemm<MatmulKernel> matmulOp;
    EXPECT_EQ(matmulOp.CanImplement(arguments), Status::kSuccess);
    size_t sizeWorkspace = matmulOp.GetWorkspaceSize(arguments);
    EXPECT_EQ(sizeWorkspace, USE_UB ? 0u : size_t(pb.m) * pb.n * sizeof(E));
    uint8_t* deviceWorkspace = nullptr;
    if (sizeWorkspace > 0)
        aclrtMalloc(reinterpret_cast<void**>(&deviceWorkspace), sizeWorkspace, ACL_MEM_MALLOC_HUGE_FIRST);
    EXPECT_EQ(matmulOp.Initialize(arguments, deviceWorkspace), Status::kSuccess);
    EXPECT_EQ(matmulOp(stream, pb.blockDim), Status::kSuccess);
    aclError e = aclrtSynchronizeStream(stream);
    EXPECT_EQ(e, ACL_SUCCESS);
    got = data.d();
    want = data.want();
    aclrtDestroyStream(stream);
    return evg::hw::device().last_report();
}

TEST(GemmEvg, BasicMatmulTlaVisitor_AtlasA2_half_DequalsABplusX_m70n100k50_CL1024) {
    std::vector<float> got, want;
    auto r = run_master<Arch::AtlasA2, half, false, 1024, 32, 64, 32, Gemm::Kernel::BasicMatmulTlaVisitor>(
        {70, 100, 50, 3}, got, want);
    EXPECT_TRUE(r.violations.empty()) << r.text();
    EXPECT_EQ(r.arch, "AtlasA2");
    EXPECT_EQ(got, want);
}

TEST(GemmEvg, BasicMatmulTlaVisitor_Ascend950_float_DequalsABplusX_m45n80k33_CL512_ManyBlocksPerCore) {
    std::vector<float> got, want;
    auto r = run_master<Arch::Ascend950, float, false, 512, 16, 16, 32, Gemm::Kernel::BasicMatmulTlaVisitor>(
        {45 * 4, 80, 33, 1}, got, want);  // 12 x 5 = 60 blocks on one core: four reverse hand-shakes
    EXPECT_TRUE(r.violations.empty()) << r.text();
    EXPECT_EQ(got, want);
}

TEST(GemmEvg, BasicMatmulTlaUbVisitor_Ascend950_float_DequalsABplusX_m67n100k40_CL2048) {
    std::vector<float> got, want;
    auto r =
        run_master<Arch::Ascend950, float, true, 2048, 32, 48, 32, Gemm::Kernel::BasicMatmulTlaUbVisitor>(
            {67, 100, 40, 2}, got, want);
    EXPECT_TRUE(r.violations.empty()) << r.text();
    EXPECT_EQ(r.arch, "Ascend950");
    EXPECT_EQ(got, want);
}

TEST(GemmEvg, BasicMatmulTlaUbVisitor_Ascend950_half_MoreCoresThanBlocks) {
    std::vector<float> got, want;
    auto r = run_master<Arch::Ascend950, half, true, 1024, 32, 64, 32, Gemm::Kernel::BasicMatmulTlaUbVisitor>(
        {40, 64, 64, 5}, got, want);  // 2 blocks on 5 AI cores
    EXPECT_TRUE(r.violations.empty()) << r.text();
    EXPECT_EQ(got, want);
}

// Seed 000 host code (L1 lineage, AtlasA2): MatmulVisitor, GemmType operands, EpilogueAtlasA2Visitor.
TEST(GemmEvg, MatmulVisitor_AtlasA2_half_Seed000HostCode_DequalsABplusX) {
    using LayoutC = layout::RowMajor;
    using AType = Gemm::GemmType<half, layout::RowMajor>;
    using BType = Gemm::GemmType<half, layout::RowMajor>;
    using CType = Gemm::GemmType<half, LayoutC>;
    using BlockMmad = Gemm::Block::BlockMmad<Gemm::MmadAtlasA2Pingpong<true>, GemmShape<32, 64, 64>,
                                             GemmShape<32, 64, 32>, AType, BType, CType>;
    constexpr uint32_t computeLength = 8192;
    using EVT = Epilogue::Fusion::TreeVisitor<
        Epilogue::Fusion::VisitorAuxStore<half, LayoutC>,
        Epilogue::Fusion::TreeVisitor<Epilogue::Fusion::VisitorCompute<Epilogue::Fusion::Add, half>,
                                      Epilogue::Fusion::VisitorAccLoad<half>,
                                      Epilogue::Fusion::VisitorAuxLoad<half, LayoutC>>>;
    using BlockEpilogue =
        Epilogue::Block::BlockEpilogue<Epilogue::EpilogueAtlasA2Visitor, CType, tla::Int<computeLength>, EVT>;
    using BlockScheduler = typename Gemm::Block::GemmIdentityBlockSwizzle<3, 0>;
    using MatmulKernel = Gemm::Kernel::MatmulVisitor<BlockMmad, BlockEpilogue, BlockScheduler>;

    evg::hw::reset_device();
    aclrtStream stream;
    aclrtCreateStream(&stream);
    GemmProblem pb{100, 130, 70, 4};
    DeviceData<half> data(pb);
    LayoutC layoutD(pb.m, pb.n);
    typename EVT::Arguments evt_args{{{}, {data.dX, layoutD}, {}}, {data.dD, layoutD}};
    typename MatmulKernel::Arguments arguments{GemmCoord(pb.m, pb.n, pb.k), data.dA, data.dB, evt_args};
    using MatmulAdapter = Gemm::Device::DeviceGemm<MatmulKernel>;
    MatmulAdapter matmulOp;
    size_t sizeWorkspace = matmulOp.GetWorkspaceSize(arguments);
    EXPECT_EQ(sizeWorkspace, size_t(pb.m) * pb.n * 2);
    uint8_t* deviceWorkspace{nullptr};
    if (sizeWorkspace > 0)
        aclrtMalloc(reinterpret_cast<void**>(&deviceWorkspace), sizeWorkspace, ACL_MEM_MALLOC_HUGE_FIRST);
    matmulOp.Initialize(arguments, deviceWorkspace);
    uint64_t fftsAddr = 0;
    matmulOp(stream, pb.blockDim, fftsAddr);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const auto& r = evg::hw::device().last_report();
    EXPECT_TRUE(r.violations.empty()) << r.text();
    EXPECT_EQ(data.d(), data.want());
    aclrtDestroyStream(stream);
}

// UB path, Store <- AccLoad<true>: the AIV's last MTE3 store of a block reads the C region the AIC's next
// Fixpipe overwrites. Correct by default (the kernel orders MTE3 before returning the credit); upstream's
// V-only signal (§11.2 item 3) is a race, reported when the hazard switch is on.
template <bool FAITHFUL>
evg::hw::Report store_acc_ub() {
    using E = float;
    using ArchTag = Arch::Ascend950;
    using BlockMmad = Gemm::Block::BlockMmad<Gemm::MmadPingpong<ArchTag>, GemmShape<16, 32, 32>,
                                             GemmShape<16, 32, 32>, E, E, E>;
    using EVG = Epilogue::Fusion::TreeVisitor<Epilogue::Fusion::VisitorAuxStore<E, tla::RowMajorLayout>,
                                              Epilogue::Fusion::VisitorAccLoad<E, true>>;
    using BlockEpilogue =
        Epilogue::Block::BlockEpilogue<Epilogue::EpilogueVisitor<true>, ArchTag, tla::Int<1024>, EVG, E>;
    using Kernel = Gemm::Kernel::BasicMatmulTlaUbVisitor<BlockMmad, BlockEpilogue,
                                                         Gemm::Block::GemmIdentityBlockSwizzle<1, 0>>;
    evg::hw::Config cfg;
    cfg.arch = ArchTag::EVG_ARCH;
    evg::hw::Device dev(cfg);
    const uint32_t m = 64, n = 32, k = 32;
    auto a = fill<E>(m, k, 1), b = fill<E>(k, n, 2);
    GM_ADDR dA = static_cast<GM_ADDR>(dev.malloc(a.size() * 4, "A"));
    GM_ADDR dB = static_cast<GM_ADDR>(dev.malloc(b.size() * 4, "B"));
    GM_ADDR dD = static_cast<GM_ADDR>(dev.malloc(size_t(m) * n * 4, "D"));
    dev.copy_to_device(dA, a.data(), a.size() * 4);
    dev.copy_to_device(dB, b.data(), b.size() * 4);
    auto layoutD = tla::MakeLayout<E, layout::RowMajor>(m, n);
    typename Kernel::Arguments args{GemmCoord(m, n, k),
                                    dA,
                                    tla::MakeLayout<E, layout::RowMajor>(m, k),
                                    dB,
                                    tla::MakeLayout<E, layout::RowMajor>(k, n),
                                    nullptr,
                                    {},
                                    nullptr,
                                    {{}, {dD, layoutD}}};
    auto params = Kernel::ToUnderlyingArguments(args, nullptr);
    Epilogue::Fusion::UpstreamHazards h;
    h.store_reads_load_unordered = FAITHFUL;
    Epilogue::Fusion::ScopedUpstreamHazards scoped(h);
    evg::hw::Report r = dev.launch(1, evg::hw::KernelType::mix_aic_1_2, [&] {
        Kernel kernel;
        kernel(params);
    });
    if (!FAITHFUL) {
        std::vector<float> d(size_t(m) * n);
        dev.copy_to_host(d.data(), dD, d.size() * 4);
        std::vector<float> want = host_d(a, b, std::vector<E>(size_t(m) * n, 0.0f), m, n, k);
        EXPECT_EQ(d, want);
    }
    return r;
}

TEST(GemmEvg, UbVisitor_StoreOfAccLoad_IsCleanByDefault) {
    auto r = store_acc_ub<false>();
    EXPECT_TRUE(r.violations.empty()) << r.text();
}

TEST(GemmEvg, UbVisitor_StoreOfAccLoad_UpstreamSignalRacesWithTheNextFixpipe) {
    auto r = store_acc_ub<true>();
    ASSERT_GE(r.count(ViolationKind::race), 1u) << r.text();
    bool named = false;
    for (const auto& v : r.violations)
        if (v.kind == ViolationKind::race && v.message.find("Fixpipe L0C->UB") != std::string::npos &&
            v.message.find("DataCopyPad UB->GM") != std::string::npos)
            named = true;
    EXPECT_TRUE(named) << r.text();
}

}  // namespace
