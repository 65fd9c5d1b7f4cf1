// The GEMM side of the Catlass layer: block swizzle order, cross-core flags with reverse, BlockMmad numerics,
// the three visitor kernels (workspace sizes, flag balance for cores with 0, 1 and many blocks) and
// DeviceGemm. The block epilogues here are stand-ins with the BlockEpilogue interface that copy the C block
// to an output with plain AscendC calls, so the kernels are tested on their own.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "catlass/gemm/gemm.hpp"
#include "catlass/layout/layout.hpp"
#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace {

using namespace Catlass;
using evg::hw::ViolationKind;

// ---------------------------------------------------------------------------------------------------------
// Block swizzle (docs/evg-semantics.md §6.4), tables written by hand for loopsMN = 5 x 4 and SwizzleOffset 3.

std::vector<std::pair<uint32_t, uint32_t>> swizzle_order(uint32_t dir) {
    // Problem 5 x 4 tiles of 16 x 16, the last row and column partial.
    GemmCoord problem(4 * 16 + 5, 3 * 16 + 9, 7);
    std::vector<std::pair<uint32_t, uint32_t>> out;
    auto collect = [&](const auto& s) {
        EXPECT_EQ(s.GetCoreLoops(), 20u);
        for (uint32_t t = 0; t < s.GetCoreLoops(); ++t) {
            GemmCoord c = s.GetBlockCoord(t);
            EXPECT_EQ(c.k(), 0u);
            out.emplace_back(c.m(), c.n());
        }
    };
    if (dir == 0)
        collect(Gemm::Block::GemmIdentityBlockSwizzle<3, 0>(problem, MatrixCoord(16, 16)));
    else
        collect(Gemm::Block::GemmIdentityBlockSwizzle<3, 1>(problem, MatrixCoord(16, 16)));
    return out;
}

TEST(GemmIdentityBlockSwizzle, Direction0_Offset3_Loops5x4_FollowsTheBandOrder) {
    // Band 0: rows 0-2, M fastest, N ascending. Band 1 (last, 2 rows): rows 3-4, N descending.
    const std::vector<std::pair<uint32_t, uint32_t>> want = {
        {0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}, {0, 2}, {1, 2}, {2, 2}, {0, 3},
        {1, 3}, {2, 3}, {3, 3}, {4, 3}, {3, 2}, {4, 2}, {3, 1}, {4, 1}, {3, 0}, {4, 0}};
    EXPECT_EQ(swizzle_order(0), want);
}

TEST(GemmIdentityBlockSwizzle, Direction1_Offset3_Loops5x4_FollowsTheBandOrder) {
    // Band 0: columns 0-2, N fastest, M ascending. Band 1 (last, 1 column): column 3, M descending.
    const std::vector<std::pair<uint32_t, uint32_t>> want = {
        {0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}, {2, 0}, {2, 1}, {2, 2}, {3, 0},
        {3, 1}, {3, 2}, {4, 0}, {4, 1}, {4, 2}, {4, 3}, {3, 3}, {2, 3}, {1, 3}, {0, 3}};
    EXPECT_EQ(swizzle_order(1), want);
}

template <uint32_t OFF, uint32_t DIR>
void expect_permutation(uint32_t m, uint32_t n, uint32_t tm, uint32_t tn) {
    Gemm::Block::GemmIdentityBlockSwizzle<OFF, DIR> s(GemmCoord(m, n, 1), MatrixCoord(tm, tn));
    uint32_t lm = (m + tm - 1) / tm, ln = (n + tn - 1) / tn;
    ASSERT_EQ(s.GetCoreLoops(), lm * ln);
    std::set<std::pair<uint32_t, uint32_t>> seen;
    for (uint32_t t = 0; t < s.GetCoreLoops(); ++t) {
        GemmCoord c = s.GetBlockCoord(t);
        ASSERT_LT(c.m(), lm);
        ASSERT_LT(c.n(), ln);
        seen.insert({c.m(), c.n()});
    }
    EXPECT_EQ(seen.size(), size_t(lm) * ln)
        << "offset " << OFF << " direction " << DIR << " loops " << lm << "x" << ln;
}

TEST(GemmIdentityBlockSwizzle, EveryBlockAppearsExactlyOnce) {
    expect_permutation<1, 0>(100, 37, 16, 16);
    expect_permutation<3, 0>(200, 90, 16, 32);
    expect_permutation<3, 1>(200, 90, 16, 32);
    expect_permutation<4, 1>(33, 700, 32, 16);
    expect_permutation<2, 0>(16, 16, 16, 16);
    expect_permutation<5, 1>(999, 17, 16, 16);
}

TEST(GemmIdentityBlockSwizzle, ActualBlockShapeClipsTheLastRowAndColumn) {
    Gemm::Block::GemmIdentityBlockSwizzle<3, 0> s(GemmCoord(69, 57, 7), MatrixCoord(16, 16));
    EXPECT_EQ(s.GetActualBlockShape(GemmCoord(0, 0, 0)), GemmCoord(16, 16, 7));
    EXPECT_EQ(s.GetActualBlockShape(GemmCoord(4, 0, 0)), GemmCoord(5, 16, 7));
    EXPECT_EQ(s.GetActualBlockShape(GemmCoord(1, 3, 0)), GemmCoord(16, 9, 7));
    EXPECT_EQ(s.GetActualBlockShape(GemmCoord(4, 3, 0)), GemmCoord(5, 9, 7));
}

// ---------------------------------------------------------------------------------------------------------
// Cross-core flags with reverse (§6.1): exact sequences and balance.

// The cross-core instructions of one core, in issue order.
std::vector<std::string> cross_ops(const evg::hw::Trace& trace, int core) {
    std::vector<std::string> ops;
    for (const auto& e : trace)
        if (e.core == core && e.op().rfind("CrossCore", 0) == 0) ops.emplace_back(e.op());
    return ops;
}

evg::hw::Config config(evg::hw::ArchId arch) {
    evg::hw::Config cfg;
    cfg.arch = arch;
    return cfg;
}

class CrossCoreBothArchs : public ::testing::TestWithParam<evg::hw::ArchId> {};

TEST_P(CrossCoreBothArchs, ReverseFlagKeepsCountersBalancedFor0_1_15_16_And40Sets) {
    for (uint32_t n : {0u, 1u, 15u, 16u, 40u}) {
        evg::hw::Device dev(config(GetParam()));
        const auto& r = dev.launch(1, evg::hw::KernelType::mix_aic_1_2, [&] {
            Arch::CrossCoreFlagWithReverse<> flag{0, 1};
            for (uint32_t i = 0; i < n; ++i) {
                if ASCEND_IS_AIC {
                    Arch::CrossCoreSetFlagWithReverse<0x2, AscendC::PIPE_FIX>(flag);
                } else {
                    Arch::CrossCoreWaitFlagWithReverse<0x2, AscendC::PIPE_MTE2>(flag);
                }
            }
        });
        EXPECT_TRUE(r.violations.empty()) << n << " sets\n" << r.text();
        // AIC: n sets of id 0, a wait on id 1 after every 15th; each AIV: n waits, a set of id 1 after every
        // 15th.
        std::vector<std::string> aic, aiv;
        for (uint32_t i = 1; i <= n; ++i) {
            aic.push_back("CrossCoreSetFlag<2, PIPE_FIX>(0)");
            aiv.push_back("CrossCoreWaitFlag<2, PIPE_MTE2>(0)");
            if (i % 15 == 0) {
                aic.push_back("CrossCoreWaitFlag<2, PIPE_FIX>(1)");
                aiv.push_back("CrossCoreSetFlag<2, PIPE_MTE2>(1)");
            }
        }
        EXPECT_EQ(cross_ops(dev.last_trace(), 0), aic) << n;
        EXPECT_EQ(cross_ops(dev.last_trace(), 1), aiv) << n;
        EXPECT_EQ(cross_ops(dev.last_trace(), 2), aiv) << n;
    }
}

TEST_P(CrossCoreBothArchs, WithoutTheReverseFlag16SetsOverflowTheCounter) {
    evg::hw::Device dev(config(GetParam()));
    const auto& r = dev.launch(1, evg::hw::KernelType::mix_aic_1_2, [&] {
        Arch::CrossCoreFlag flag{0};
        for (int i = 0; i < 16; ++i) {
            if ASCEND_IS_AIC {
                Arch::CrossCoreSetFlag<0x2, AscendC::PIPE_FIX>(flag);
            } else {
                Arch::CrossCoreWaitFlag<0x2, AscendC::PIPE_MTE2>(flag);
            }
        }
    });
    EXPECT_GE(r.count(ViolationKind::counter_overflow), 1u) << r.text();
}

TEST_P(CrossCoreBothArchs, CrossCoreBarrierMode0And1AreBalanced) {
    evg::hw::Device dev(config(GetParam()));
    const auto& r = dev.launch(3, evg::hw::KernelType::mix_aic_1_2, [&] {
        if ASCEND_IS_AIV {
            Arch::CrossCoreBarrier<0x0, AscendC::PIPE_MTE3>();
            Arch::CrossCoreBarrier<0x1, AscendC::PIPE_MTE3>();
        } else {
            Arch::CrossCoreBarrier<0x0, AscendC::PIPE_FIX>();
        }
    });
    EXPECT_TRUE(r.violations.empty()) << r.text();
    EXPECT_EQ(
        cross_ops(dev.last_trace(), 0),
        (std::vector<std::string>{"CrossCoreSetFlag<0, PIPE_FIX>(9)", "CrossCoreWaitFlag<0, PIPE_FIX>(9)"}));
    EXPECT_EQ(cross_ops(dev.last_trace(), 3),
              (std::vector<std::string>{
                  "CrossCoreSetFlag<0, PIPE_MTE3>(8)", "CrossCoreWaitFlag<0, PIPE_MTE3>(8)",
                  "CrossCoreSetFlag<1, PIPE_MTE3>(10)", "CrossCoreWaitFlag<1, PIPE_MTE3>(10)"}));
}

INSTANTIATE_TEST_SUITE_P(Arch, CrossCoreBothArchs,
                         ::testing::Values(evg::hw::ArchId::AtlasA2, evg::hw::ArchId::Ascend950),
                         [](const auto& info) { return std::string(evg::hw::arch_name(info.param)); });

// ---------------------------------------------------------------------------------------------------------
// Stand-in EVG and block epilogues with the BlockEpilogue interface.

// An EVG that only carries the output pointer and asks for `ws_bytes` of workspace; it records what the
// kernel's host functions did with it.
struct StandInEvg {
    struct Arguments {
        GM_ADDR ptrOut = nullptr;
        uint32_t wsBytes = 0;
    };
    struct Params {
        GM_ADDR ptrOut = nullptr;
        void* workspace = nullptr;
    };
    static inline int initializeCalls = 0;
    static inline void* initializedWorkspace = nullptr;
    static bool can_implement(const GemmCoord&, const Arguments& a) { return a.ptrOut != nullptr; }
    static size_t get_workspace_size(const GemmCoord&, const Arguments& a) { return a.wsBytes; }
    static Status initialize_workspace(const GemmCoord&, const Arguments&, void* ws) {
        ++initializeCalls;
        initializedWorkspace = ws;
        return Status::kSuccess;
    }
    static Params to_underlying_arguments(const GemmCoord&, const Arguments& a, void* ws) {
        return {a.ptrOut, ws};
    }
};

template <class ElementC_>
AscendC::GlobalTensor<ElementC_> gm_of(GM_ADDR p) {
    AscendC::GlobalTensor<ElementC_> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ ElementC_*>(p));
    return g;
}

// The rows of a block that AIV `sub` owns: [first, first + count).
std::pair<uint32_t, uint32_t> subblock_rows(uint32_t m) {
    uint32_t half = (m + 1) / 2;
    uint32_t sub = uint32_t(AscendC::GetSubBlockIdx());
    return sub == 0 ? std::make_pair(0u, half) : std::make_pair(half, m - half);
}

// GM workspace path: each AIV copies its half of the C block GM -> UB -> output (same position), one UB
// buffer guarded by MTE3_MTE2(0) (set in the constructor, waited in the destructor) and MTE2_MTE3(0).
template <class ArchTag_, class ElementC_, uint32_t L1M, uint32_t L1N>
struct GmCopyEpilogue {
    using ArchTag = ArchTag_;
    using ElementC = ElementC_;
    using EVG = StandInEvg;
    static constexpr bool USE_UB_WORKSPACE = false;
    struct Params {
        typename EVG::Params evg_params;
    };
    static constexpr uint32_t PITCH = RoundUp<32>(L1N);

    GmCopyEpilogue(Arch::Resource<ArchTag>& resource, const Params& p) : params(p) {
        ub = resource.ubBuf.template GetBufferByByte<ElementC>(0);
        if ASCEND_IS_AIV {
            AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(0);
        }
    }
    ~GmCopyEpilogue() {
        if ASCEND_IS_AIV {
            AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(0);
        }
    }

    // MASTER interface: a tla tile of the C workspace.
    template <class TensorBlockC>
    void operator()(const GemmCoord&, const GemmCoord& blockCoord, const GemmCoord& actual,
                    const TensorBlockC& tensorBlockC) {
        EXPECT_EQ(tensorBlockC.shape(), actual.GetCoordMN());
        auto src = tensorBlockC.data()[uint64_t(tensorBlockC.offset())];
        copy(blockCoord, actual, src, Catlass::detail::layout_row_stride(tensorBlockC.layout()));
    }

    void copy(const GemmCoord& blockCoord, const GemmCoord& actual,
              const AscendC::GlobalTensor<ElementC>& src, int64_t ld) {
        auto [first, rows] = subblock_rows(actual.m());
        if (rows == 0) return;
        const uint32_t n = actual.n(), es = sizeof(ElementC);
        auto out = gm_of<ElementC>(params.evg_params.ptrOut);
        uint64_t outOffset = uint64_t(blockCoord.m() * L1M + first) * ld + blockCoord.n() * L1N;
        AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(0);
        AscendC::DataCopyPad(ub, src[uint64_t(first) * ld],
                             AscendC::DataCopyExtParams{uint16_t(rows), n * es, uint32_t((ld - n) * es),
                                                        (PITCH * es - RoundUp<32>(n * es)) / 32, 0},
                             AscendC::DataCopyPadExtParams<ElementC>{false, 0, 0, ElementC{}});
        AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(0);
        AscendC::DataCopyPad(
            out[outOffset], ub,
            AscendC::DataCopyExtParams{uint16_t(rows), n * es, (PITCH * es - RoundUp<32>(n * es)) / 32,
                                       uint32_t((ld - n) * es), 0});
        AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(0);
    }

    Params params;
    AscendC::LocalTensor<ElementC> ub;
};

// The L1 form: (GM block, its layout).
template <class ArchTag_, class ElementC_, uint32_t L1M, uint32_t L1N>
struct GmCopyEpilogueL1 : GmCopyEpilogue<ArchTag_, ElementC_, L1M, L1N> {
    using Base = GmCopyEpilogue<ArchTag_, ElementC_, L1M, L1N>;
    using Base::Base;
    static inline int l1Calls = 0;
    void operator()(const GemmCoord&, const GemmCoord& blockCoord, const GemmCoord& actual,
                    const AscendC::GlobalTensor<ElementC_>& gmBlockC, const layout::RowMajor& layoutBlockC) {
        ++l1Calls;
        EXPECT_EQ(layoutBlockC.rows(), actual.m());
        EXPECT_EQ(layoutBlockC.cols(), actual.n());
        this->copy(blockCoord, actual, gmBlockC, layoutBlockC.stride(0));
    }
};

// UB workspace path (Ascend950): C arrives in this AIV's UB at offset 0 with row stride RoundUp<32>(n); copy
// it to the output after V -> MTE3 (the kernel's cross-core wait is on PIPE_V).
template <class ElementC_, uint32_t L1M, uint32_t L1N>
struct UbCopyEpilogue {
    using ArchTag = Arch::Ascend950;
    using ElementC = ElementC_;
    using EVG = StandInEvg;
    static constexpr bool USE_UB_WORKSPACE = true;
    struct Params {
        typename EVG::Params evg_params;
    };
    UbCopyEpilogue(Arch::Resource<ArchTag>&, const Params& p) : params(p) {}

    static auto GetMmadUbTensor(const GemmCoord& actual) {
        AscendC::LocalTensor<ElementC> ub(AscendC::TPosition::VECCALC, 0,
                                          ArchTag::L0C_SIZE / 2 / sizeof(ElementC));
        auto layout =
            tla::MakeLayout<ElementC, layout::RowMajor>(actual.m(), actual.n(), RoundUp<32>(actual.n()));
        return tla::MakeTensor(ub, layout, Arch::PositionUB{});
    }

    template <class TensorBlockC>
    void operator()(const GemmCoord&, const GemmCoord& blockCoord, const GemmCoord& actual,
                    const TensorBlockC& tensorBlockC) {
        auto [first, rows] = subblock_rows(actual.m());
        if (rows == 0) return;
        const uint32_t n = actual.n(), es = sizeof(ElementC), ldOut = outCols;
        const uint32_t pitch = uint32_t(Catlass::detail::layout_row_stride(tensorBlockC.layout()));
        auto out = gm_of<ElementC>(params.evg_params.ptrOut);
        uint64_t outOffset = uint64_t(blockCoord.m() * L1M + first) * ldOut + blockCoord.n() * L1N;
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
        AscendC::DataCopyPad(
            out[outOffset], tensorBlockC.data(),
            AscendC::DataCopyExtParams{uint16_t(rows), n * es, (pitch * es - RoundUp<32>(n * es)) / 32,
                                       (ldOut - n) * es, 0});
    }

    static inline uint32_t outCols = 0;  // the output's row stride (the problem's n)
    Params params;
};

// ---------------------------------------------------------------------------------------------------------
// Host data: small integers, so every product and sum is exact in float (and in half up to 2048).

template <class E>
std::vector<E> host_matrix(uint32_t rows, uint32_t cols, uint32_t salt) {
    std::vector<E> v(size_t(rows) * cols);
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t j = 0; j < cols; ++j)
            v[size_t(i) * cols + j] = E(float(int((i * 7 + j * 3 + salt) % 5) - 2));
    return v;
}

template <class E>
float as_float(E x) {
    if constexpr (std::is_same_v<E, float>)
        return x;
    else
        return evg::hw::to_float(x);
}

template <class E>
std::vector<float> host_product(const std::vector<E>& a, const std::vector<E>& b, uint32_t m, uint32_t n,
                                uint32_t k) {
    std::vector<float> c(size_t(m) * n, 0.0f);
    for (uint32_t i = 0; i < m; ++i)
        for (uint32_t j = 0; j < n; ++j) {
            float s = 0.0f;
            for (uint32_t kk = 0; kk < k; ++kk)
                s += as_float(a[size_t(i) * k + kk]) * as_float(b[size_t(kk) * n + j]);
            c[size_t(i) * n + j] = s;
        }
    return c;
}

template <class E>
std::vector<float> read_back(evg::hw::Device& dev, GM_ADDR p, size_t count) {
    std::vector<E> h(count);
    dev.copy_to_host(h.data(), p, count * sizeof(E));
    std::vector<float> v;
    v.reserve(h.size());
    for (auto x : h) v.push_back(as_float(x));
    return v;
}

// Counts of the kernel's cross-core instructions in the trace.
size_t count_op(const evg::hw::Trace& trace, const std::string& op, int core = -1) {
    return size_t(std::count_if(trace.begin(), trace.end(),
                                [&](const auto& e) { return e.op() == op && (core < 0 || e.core == core); }));
}

// ---------------------------------------------------------------------------------------------------------
// BasicMatmulTlaVisitor (GM workspace)

template <class ArchTag, class ElementAB, class ElementC_, uint32_t L1M, uint32_t L1N, uint32_t L1K,
          uint32_t L0K>
struct GmSetup {
    using DispatchPolicy = Gemm::MmadPingpong<ArchTag, true>;
    using L1TileShape = tla::tuple<tla::Int<L1M>, tla::Int<L1N>, tla::Int<L1K>>;
    using L0TileShape = tla::tuple<tla::Int<L1M>, tla::Int<L1N>, tla::Int<L0K>>;
    using BlockMmad =
        Gemm::Block::BlockMmadTla<DispatchPolicy, L1TileShape, L0TileShape, ElementAB, ElementAB, ElementC_>;
    using BlockEpilogue = GmCopyEpilogue<ArchTag, ElementC_, L1M, L1N>;
    using Kernel = Gemm::Kernel::BasicMatmulTlaVisitor<BlockMmad, BlockEpilogue,
                                                       Gemm::Block::GemmIdentityBlockSwizzle<3, 0>>;
};

struct GemmRun {
    evg::hw::Report report;
    std::vector<float> c;    // the C workspace
    std::vector<float> out;  // what the epilogue copied out
    std::vector<float> want;
    evg::hw::Trace trace;
};

template <class Setup, class ElementAB, class ElementC_>
GemmRun run_gm_kernel(evg::hw::ArchId arch, uint32_t m, uint32_t n, uint32_t k, uint32_t blockDim) {
    using Kernel = typename Setup::Kernel;
    evg::hw::Device dev(config(arch));
    auto a = host_matrix<ElementAB>(m, k, 1), b = host_matrix<ElementAB>(k, n, 2);
    GM_ADDR dA = static_cast<GM_ADDR>(dev.malloc(a.size() * sizeof(ElementAB), "A"));
    GM_ADDR dB = static_cast<GM_ADDR>(dev.malloc(b.size() * sizeof(ElementAB), "B"));
    GM_ADDR dOut = static_cast<GM_ADDR>(dev.malloc(size_t(m) * n * sizeof(ElementC_), "Out"));
    dev.copy_to_device(dA, a.data(), a.size() * sizeof(ElementAB));
    dev.copy_to_device(dB, b.data(), b.size() * sizeof(ElementAB));
    typename Kernel::Arguments args{GemmCoord(m, n, k),
                                    dA,
                                    tla::MakeLayout<ElementAB, layout::RowMajor>(m, k),
                                    dB,
                                    tla::MakeLayout<ElementAB, layout::RowMajor>(k, n),
                                    nullptr,
                                    {},
                                    nullptr,
                                    {dOut, 0}};
    EXPECT_TRUE(Kernel::CanImplement(args));
    size_t ws = Kernel::GetWorkspaceSize(args);
    EXPECT_EQ(ws, size_t(m) * n * sizeof(ElementC_));
    GM_ADDR dWs = static_cast<GM_ADDR>(dev.malloc(ws, "Workspace"));
    auto params = Kernel::ToUnderlyingArguments(args, dWs);
    GemmRun run;
    run.report = dev.launch(
        int(blockDim), evg::hw::KernelType::mix_aic_1_2,
        [&] {
            Kernel kernel;
            kernel(params);
        },
        Kernel::ArchTag::EVG_ARCH);
    run.c = read_back<ElementC_>(dev, dWs, size_t(m) * n);
    run.out = read_back<ElementC_>(dev, dOut, size_t(m) * n);
    run.want = host_product(a, b, m, n, k);
    run.trace = dev.take_last_trace();
    return run;
}

class GmKernelBothArchs : public ::testing::TestWithParam<evg::hw::ArchId> {};

// m = 50, n = 70, k = 40: tail blocks in M (18 rows) and N (22 columns), a K panel of 8 (padded to 16).
TEST_P(GmKernelBothArchs, Half_L1_32x48x64_L0K32_m50n70k40_CIsTheExactProduct) {
    using S = GmSetup<Arch::AtlasA2, half, float, 32, 48, 64, 32>;
    if (GetParam() == evg::hw::ArchId::AtlasA2) {
        auto r = run_gm_kernel<S, half, float>(GetParam(), 50, 70, 40, 2);
        EXPECT_TRUE(r.report.violations.empty()) << r.report.text();
        EXPECT_EQ(r.c, r.want);
        EXPECT_EQ(r.out, r.want);
    } else {
        using S9 = GmSetup<Arch::Ascend950, half, float, 32, 48, 64, 32>;
        auto r = run_gm_kernel<S9, half, float>(GetParam(), 50, 70, 40, 2);
        EXPECT_TRUE(r.report.violations.empty()) << r.report.text();
        EXPECT_EQ(r.c, r.want);
        EXPECT_EQ(r.out, r.want);
    }
}

// k = 150 spans three L1 chunks (64, 64, 22) and six L0 panels; C in half.
TEST_P(GmKernelBothArchs, Half_L1_32x32x64_L0K32_m40n33k150_HalfC_MultiChunkK) {
    auto check = [](const GemmRun& r) {
        EXPECT_TRUE(r.report.violations.empty()) << r.report.text();
        EXPECT_EQ(r.c, r.want);
        EXPECT_EQ(r.out, r.want);
    };
    if (GetParam() == evg::hw::ArchId::AtlasA2)
        check(run_gm_kernel<GmSetup<Arch::AtlasA2, half, half, 32, 32, 64, 32>, half, half>(GetParam(), 40,
                                                                                            33, 150, 3));
    else
        check(run_gm_kernel<GmSetup<Arch::Ascend950, half, half, 32, 32, 64, 32>, half, half>(GetParam(), 40,
                                                                                              33, 150, 3));
}

// float A/B/C (the MASTER examples' types): k = 45 leaves a panel of 13, padded to 16.
TEST_P(GmKernelBothArchs, Float_L1_16x32x64_L0K32_m37n50k45) {
    auto check = [](const GemmRun& r) {
        EXPECT_TRUE(r.report.violations.empty()) << r.report.text();
        EXPECT_EQ(r.c, r.want);
    };
    if (GetParam() == evg::hw::ArchId::AtlasA2)
        check(run_gm_kernel<GmSetup<Arch::AtlasA2, float, float, 16, 32, 64, 32>, float, float>(
            GetParam(), 37, 50, 45, 2));
    else
        check(run_gm_kernel<GmSetup<Arch::Ascend950, float, float, 16, 32, 64, 32>, float, float>(
            GetParam(), 37, 50, 45, 2));
}

// Flag balance: 4 blocks on 7 AI cores (3 cores with none), 1 block on 1 core, 40 blocks on 1 core (two
// reverse hand-shakes), 40 blocks on 3 cores (14, 13, 13 blocks).
struct BalanceCase {
    uint32_t m, n, blockDim;
};

TEST_P(GmKernelBothArchs, FlagsBalanceForCoresWith0_1_AndMoreThan15Blocks) {
    for (BalanceCase bc : {BalanceCase{32, 32, 7}, BalanceCase{16, 16, 1}, BalanceCase{16 * 8, 16 * 5, 1},
                           BalanceCase{16 * 8, 16 * 5, 3}}) {
        GemmRun r = GetParam() == evg::hw::ArchId::AtlasA2
                        ? run_gm_kernel<GmSetup<Arch::AtlasA2, half, float, 16, 16, 32, 32>, half, float>(
                              GetParam(), bc.m, bc.n, 20, bc.blockDim)
                        : run_gm_kernel<GmSetup<Arch::Ascend950, half, float, 16, 16, 32, 32>, half, float>(
                              GetParam(), bc.m, bc.n, 20, bc.blockDim);
        std::string tag =
            std::to_string(bc.m) + "x" + std::to_string(bc.n) + " on " + std::to_string(bc.blockDim);
        EXPECT_TRUE(r.report.violations.empty()) << tag << "\n" << r.report.text();
        EXPECT_EQ(r.report.count(ViolationKind::counter_left_nonzero), 0u) << tag;
        EXPECT_EQ(r.c, r.want) << tag;
        EXPECT_EQ(r.out, r.want) << tag;
        const uint32_t blocks = (bc.m / 16) * (bc.n / 16);
        for (uint32_t core = 0; core < bc.blockDim; ++core) {
            uint32_t mine = blocks > core ? (blocks - core + bc.blockDim - 1) / bc.blockDim : 0;
            EXPECT_EQ(count_op(r.trace, "CrossCoreSetFlag<2, PIPE_FIX>(0)", int(core)), mine)
                << tag << " core " << core;
            EXPECT_EQ(count_op(r.trace, "CrossCoreWaitFlag<2, PIPE_FIX>(1)", int(core)), mine / 15) << tag;
            for (uint32_t sub = 0; sub < 2; ++sub) {
                int aiv = int(bc.blockDim + 2 * core + sub);
                EXPECT_EQ(count_op(r.trace, "CrossCoreWaitFlag<2, PIPE_MTE2>(0)", aiv), mine) << tag;
                EXPECT_EQ(count_op(r.trace, "CrossCoreSetFlag<2, PIPE_MTE2>(1)", aiv), mine / 15) << tag;
            }
            EXPECT_EQ(count_op(r.trace, "Mmad", int(core)), mine) << tag;  // k = 20: one panel per block
            EXPECT_EQ(count_op(r.trace, "Fixpipe L0C->GM", int(core)), mine) << tag;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Arch, GmKernelBothArchs,
                         ::testing::Values(evg::hw::ArchId::AtlasA2, evg::hw::ArchId::Ascend950),
                         [](const auto& info) { return std::string(evg::hw::arch_name(info.param)); });

TEST(BasicMatmulTlaVisitor, WorkspaceIsCThenTheEvgWorkspace) {
    using K = GmSetup<Arch::AtlasA2, half, float, 32, 48, 64, 32>::Kernel;
    uint8_t out = 0;
    typename K::Arguments args{
        GemmCoord(50, 70, 40), nullptr, {}, nullptr, {}, nullptr, {}, nullptr, {&out, 40}};
    EXPECT_EQ(K::GetWorkspaceSize(args), 50u * 70u * 4u + 40u);
    std::vector<uint8_t> ws(K::GetWorkspaceSize(args));
    StandInEvg::initializeCalls = 0;
    auto params = K::ToUnderlyingArguments(args, ws.data());
    EXPECT_EQ(StandInEvg::initializeCalls, 1);
    EXPECT_EQ(StandInEvg::initializedWorkspace, ws.data() + 50 * 70 * 4);
    EXPECT_EQ(params.ptrWorkspace, ws.data());
    EXPECT_EQ(params.epilogueParams.evg_params.workspace, ws.data() + 50 * 70 * 4);
    EXPECT_EQ(params.epilogueParams.evg_params.ptrOut, &out);
    EXPECT_EQ(params.problemShape, GemmCoord(50, 70, 40));

    using KH = GmSetup<Arch::AtlasA2, half, half, 32, 32, 64, 32>::Kernel;
    typename KH::Arguments argsH{GemmCoord(3, 5, 7), nullptr, {}, nullptr, {}, nullptr, {}, nullptr,
                                 {&out, 0}};
    EXPECT_EQ(KH::GetWorkspaceSize(argsH), 3u * 5u * 2u);
}

TEST(BasicMatmulTlaVisitor, CanImplementAsksTheEvgAndRejectsBiasAndEmptyK) {
    using K = GmSetup<Arch::AtlasA2, half, float, 32, 48, 64, 32>::Kernel;
    uint8_t byte = 0;
    typename K::Arguments ok{GemmCoord(4, 4, 4), nullptr, {}, nullptr, {}, nullptr, {}, nullptr, {&byte, 0}};
    EXPECT_TRUE(K::CanImplement(ok));
    auto noOut = ok;
    noOut.evg_args.ptrOut = nullptr;
    EXPECT_FALSE(K::CanImplement(noOut));
    auto bias = ok;
    bias.ptrBias = &byte;
    EXPECT_FALSE(K::CanImplement(bias));
    auto noK = ok;
    noK.problemShape = GemmCoord(4, 4, 0);
    EXPECT_FALSE(K::CanImplement(noK));
}

// The AIV forgets CrossCoreWaitFlagWithReverse: its MTE2 read of the C workspace is unordered with the AIC's
// Fixpipe that writes it.
template <class Base>
struct ForgetfulKernel : Base {
    void operator()(const typename Base::Params& params) {
        if ASCEND_IS_AIC {
            this->RunAic(params);
            return;
        }
        typename Base::BlockScheduler scheduler(params.problemShape, MatrixCoord(Base::L1M, Base::L1N));
        auto tensorC = this->MakeTensorC(params);
        typename Base::BlockEpilogue epilogue(this->resource, params.epilogueParams);
        for (uint32_t loopIdx = uint32_t(AscendC::GetBlockIdx() / AscendC::GetSubBlockNum());
             loopIdx < scheduler.GetCoreLoops(); loopIdx += uint32_t(AscendC::GetBlockNum())) {
            GemmCoord bc = scheduler.GetBlockCoord(loopIdx), actual = scheduler.GetActualBlockShape(bc);
            epilogue(GemmCoord(Base::L1M, Base::L1N, 0), bc, actual,
                     tla::GetTile(tensorC, MatrixCoord(bc.m() * Base::L1M, bc.n() * Base::L1N),
                                  actual.GetCoordMN()));
        }
        AscendC::PipeBarrier<AscendC::PIPE_ALL>();
    }
};

TEST(BasicMatmulTlaVisitor, AivThatForgetsToWaitRacesWithTheFixpipeOnTheWorkspace) {
    using S = GmSetup<Arch::Ascend950, half, float, 16, 16, 32, 32>;
    using Kernel = ForgetfulKernel<S::Kernel>;
    evg::hw::Device dev(config(evg::hw::ArchId::Ascend950));
    const uint32_t m = 32, n = 16, k = 32;
    auto a = host_matrix<half>(m, k, 1), b = host_matrix<half>(k, n, 2);
    GM_ADDR dA = static_cast<GM_ADDR>(dev.malloc(a.size() * 2, "A"));
    GM_ADDR dB = static_cast<GM_ADDR>(dev.malloc(b.size() * 2, "B"));
    GM_ADDR dOut = static_cast<GM_ADDR>(dev.malloc(m * n * 4, "Out"));
    dev.copy_to_device(dA, a.data(), a.size() * 2);
    dev.copy_to_device(dB, b.data(), b.size() * 2);
    typename Kernel::Arguments args{GemmCoord(m, n, k),
                                    dA,
                                    tla::MakeLayout<half, layout::RowMajor>(m, k),
                                    dB,
                                    tla::MakeLayout<half, layout::RowMajor>(k, n),
                                    nullptr,
                                    {},
                                    nullptr,
                                    {dOut, 0}};
    GM_ADDR dWs = static_cast<GM_ADDR>(dev.malloc(Kernel::GetWorkspaceSize(args), "Workspace"));
    auto params = Kernel::ToUnderlyingArguments(args, dWs);
    const auto& r = dev.launch(1, evg::hw::KernelType::mix_aic_1_2, [&] {
        Kernel kernel;
        kernel(params);
    });
    ASSERT_GE(r.count(ViolationKind::race), 1u) << r.text();
    bool named = false;
    for (const auto& v : r.violations)
        if (v.kind == ViolationKind::race && v.message.find("Fixpipe") != std::string::npos &&
            v.message.find("DataCopyPad GM->UB") != std::string::npos &&
            v.message.find("Workspace") != std::string::npos)
            named = true;
    EXPECT_TRUE(named) << r.text();
    // The AIC's sets are never consumed.
    EXPECT_GE(r.count(ViolationKind::counter_left_nonzero), 1u) << r.text();
}

// ---------------------------------------------------------------------------------------------------------
// BasicMatmulTlaUbVisitor (Ascend950, C handed over in the AIVs' UBs)

template <uint32_t L1M, uint32_t L1N, uint32_t L1K, uint32_t L0K>
struct UbSetup {
    using ArchTag = Arch::Ascend950;
    using BlockMmad = Gemm::Block::BlockMmad<Gemm::MmadPingpong<ArchTag, true>, GemmShape<L1M, L1N, L1K>,
                                             GemmShape<L1M, L1N, L0K>, float, float, float>;
    using BlockEpilogue = UbCopyEpilogue<float, L1M, L1N>;
    using Kernel = Gemm::Kernel::BasicMatmulTlaUbVisitor<BlockMmad, BlockEpilogue,
                                                         Gemm::Block::GemmIdentityBlockSwizzle<3, 1>>;
};

GemmRun run_ub_kernel(uint32_t m, uint32_t n, uint32_t k, uint32_t blockDim) {
    using Kernel = UbSetup<32, 48, 64, 32>::Kernel;
    evg::hw::Device dev(config(evg::hw::ArchId::Ascend950));
    auto a = host_matrix<float>(m, k, 1), b = host_matrix<float>(k, n, 2);
    GM_ADDR dA = static_cast<GM_ADDR>(dev.malloc(a.size() * 4, "A"));
    GM_ADDR dB = static_cast<GM_ADDR>(dev.malloc(b.size() * 4, "B"));
    GM_ADDR dOut = static_cast<GM_ADDR>(dev.malloc(size_t(m) * n * 4, "Out"));
    dev.copy_to_device(dA, a.data(), a.size() * 4);
    dev.copy_to_device(dB, b.data(), b.size() * 4);
    typename Kernel::Arguments args{GemmCoord(m, n, k),
                                    dA,
                                    tla::MakeLayout<float, layout::RowMajor>(m, k),
                                    dB,
                                    tla::MakeLayout<float, layout::RowMajor>(k, n),
                                    nullptr,
                                    {},
                                    nullptr,
                                    {dOut, 0}};
    EXPECT_EQ(Kernel::GetWorkspaceSize(args), 0u);  // C never leaves the chip
    UbCopyEpilogue<float, 32, 48>::outCols = n;
    auto params = Kernel::ToUnderlyingArguments(args, nullptr);
    GemmRun run;
    run.report = dev.launch(int(blockDim), evg::hw::KernelType::mix_aic_1_2, [&] {
        Kernel kernel;
        kernel(params);
    });
    run.out = read_back<float>(dev, dOut, size_t(m) * n);
    run.want = host_product(a, b, m, n, k);
    run.trace = dev.take_last_trace();
    return run;
}

TEST(BasicMatmulTlaUbVisitor, Ascend950_Float_m67n100k45_SplitMHandsEachAivItsRows) {
    auto r = run_ub_kernel(67, 100, 45, 2);
    EXPECT_TRUE(r.report.violations.empty()) << r.report.text();
    EXPECT_EQ(r.out, r.want);
    // 9 blocks, each one Fixpipe that sends its two halves to the two AIVs (dualDstCtl 1)
    EXPECT_EQ(count_op(r.trace, "Fixpipe L0C->UB (dual, split M)"), 3u * 3u);
}

TEST(BasicMatmulTlaUbVisitor, Ascend950_Mode4FlagsBalanceForCoresWith0_1_AndManyBlocks) {
    struct Case {
        uint32_t m, n, blockDim;
    };
    for (Case c : {Case{32, 48, 3}, Case{20, 10, 1}, Case{32 * 5, 48 * 4, 1}, Case{32 * 5, 48 * 4, 6}}) {
        auto r = run_ub_kernel(c.m, c.n, 40, c.blockDim);
        std::string tag =
            std::to_string(c.m) + "x" + std::to_string(c.n) + " on " + std::to_string(c.blockDim);
        EXPECT_TRUE(r.report.violations.empty()) << tag << "\n" << r.report.text();
        EXPECT_EQ(r.out, r.want) << tag;
        const uint32_t blocks = ((c.m + 31) / 32) * ((c.n + 47) / 48);
        for (uint32_t core = 0; core < c.blockDim; ++core) {
            uint32_t mine = blocks > core ? (blocks - core + c.blockDim - 1) / c.blockDim : 0;
            std::vector<std::string> aic;
            for (uint32_t i = 0; i < mine; ++i)
                for (const char* op :
                     {"CrossCoreWaitFlag<4, PIPE_FIX>(1)", "CrossCoreWaitFlag<4, PIPE_FIX>(17)",
                      "CrossCoreSetFlag<4, PIPE_FIX>(0)", "CrossCoreSetFlag<4, PIPE_FIX>(16)"})
                    aic.push_back(op);
            aic.push_back("CrossCoreWaitFlag<4, PIPE_FIX>(1)");
            aic.push_back("CrossCoreWaitFlag<4, PIPE_FIX>(17)");
            EXPECT_EQ(cross_ops(r.trace, int(core)), aic) << tag << " core " << core;
            std::vector<std::string> aiv{"CrossCoreSetFlag<4, PIPE_V>(1)"};
            for (uint32_t i = 0; i < mine; ++i) {
                aiv.push_back("CrossCoreWaitFlag<4, PIPE_V>(0)");
                aiv.push_back("CrossCoreSetFlag<4, PIPE_V>(1)");
            }
            EXPECT_EQ(cross_ops(r.trace, int(c.blockDim + 2 * core)), aiv) << tag;
            EXPECT_EQ(cross_ops(r.trace, int(c.blockDim + 2 * core + 1)), aiv) << tag;
        }
    }
}

// ---------------------------------------------------------------------------------------------------------
// MatmulVisitor (L1 lineage, AtlasA2) through DeviceGemm and the ACL shim, as seed 000's host code.

TEST(MatmulVisitor, AtlasA2_Half_GemmTypeSpelling_ThroughDeviceGemm) {
    using ArchTag = Arch::AtlasA2;
    using AType = Gemm::GemmType<half, layout::RowMajor>;
    using CType = Gemm::GemmType<half, layout::RowMajor>;
    using BlockMmad = Gemm::Block::BlockMmad<Gemm::MmadAtlasA2Pingpong<true>, GemmShape<32, 64, 64>,
                                             GemmShape<32, 64, 32>, AType, AType, CType>;
    using BlockEpilogue = GmCopyEpilogueL1<ArchTag, half, 32, 64>;
    using MatmulKernel =
        Gemm::Kernel::MatmulVisitor<BlockMmad, BlockEpilogue, Gemm::Block::GemmIdentityBlockSwizzle<3, 0>>;
    using MatmulAdapter = Gemm::Device::DeviceGemm<MatmulKernel>;

    evg::hw::reset_device(config(ArchTag::EVG_ARCH));
    const uint32_t m = 100, n = 130, k = 70;
    auto a = host_matrix<half>(m, k, 3), b = host_matrix<half>(k, n, 4);
    aclrtStream stream;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    uint8_t *dA, *dB, *dD;
    ASSERT_EQ(aclrtMalloc(reinterpret_cast<void**>(&dA), a.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(reinterpret_cast<void**>(&dB), b.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(reinterpret_cast<void**>(&dD), size_t(m) * n * 2, ACL_MEM_MALLOC_HUGE_FIRST),
              ACL_SUCCESS);
    aclrtMemcpy(dA, a.size() * 2, a.data(), a.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dB, b.size() * 2, b.data(), b.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE);

    typename MatmulKernel::Arguments arguments{GemmCoord(m, n, k), dA, dB, {dD, 0}};
    MatmulAdapter matmulOp;
    EXPECT_EQ(matmulOp.CanImplement(arguments), Status::kSuccess);
    size_t sizeWorkspace = matmulOp.GetWorkspaceSize(arguments);
    EXPECT_EQ(sizeWorkspace, size_t(m) * n * 2);
    uint8_t* dWs = nullptr;
    ASSERT_EQ(aclrtMalloc(reinterpret_cast<void**>(&dWs), sizeWorkspace, ACL_MEM_MALLOC_HUGE_FIRST),
              ACL_SUCCESS);
    EXPECT_EQ(matmulOp.Initialize(arguments, dWs), Status::kSuccess);
    EXPECT_EQ(matmulOp.GetParams().layoutA.rows(), m);
    EXPECT_EQ(matmulOp.GetParams().layoutA.cols(), k);
    EXPECT_EQ(matmulOp.GetParams().layoutB.stride(0), int64_t(n));
    BlockEpilogue::l1Calls = 0;
    EXPECT_EQ(matmulOp(stream, 4, 0), Status::kSuccess);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << evg::hw::device().last_report().text();
    EXPECT_TRUE(evg::hw::device().last_report().violations.empty()) << evg::hw::device().last_report().text();
    EXPECT_EQ(BlockEpilogue::l1Calls, 2 * 4 * 3);  // 12 blocks, two AIVs each: the L1 (GM, layout) form

    std::vector<half> d(size_t(m) * n);
    aclrtMemcpy(d.data(), d.size() * 2, dD, d.size() * 2, ACL_MEMCPY_DEVICE_TO_HOST);
    std::vector<float> got;
    got.reserve(d.size());
    for (auto x : d) got.push_back(evg::hw::to_float(x));
    EXPECT_EQ(got, host_product(a, b, m, n, k));
    // L1 lineage: the AIV waits on PIPE_MTE3.
    EXPECT_EQ(count_op(evg::hw::device().last_trace(), "CrossCoreWaitFlag<2, PIPE_MTE3>(0)"), 2u * 12u);
    aclrtFree(dA);
    aclrtFree(dB);
    aclrtFree(dD);
    aclrtFree(dWs);
    aclrtDestroyStream(stream);
}

TEST(DeviceGemm, RunsOnTheKernelsArchWhateverTheDeviceDefault) {
    using S = GmSetup<Arch::Ascend950, half, float, 16, 16, 32, 32>;
    using Adapter = Gemm::Device::DeviceGemm<S::Kernel>;
    evg::hw::reset_device(config(evg::hw::ArchId::AtlasA2));
    aclrtStream stream;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    const uint32_t m = 16, n = 16, k = 16;
    auto a = host_matrix<half>(m, k, 0), b = host_matrix<half>(k, n, 1);
    uint8_t *dA, *dB, *dD, *dWs;
    aclrtMalloc(reinterpret_cast<void**>(&dA), a.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(reinterpret_cast<void**>(&dB), b.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(reinterpret_cast<void**>(&dD), m * n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dA, a.size() * 2, a.data(), a.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dB, b.size() * 2, b.data(), b.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE);
    typename S::Kernel::Arguments args{GemmCoord(m, n, k),
                                       dA,
                                       tla::MakeLayout<half, layout::RowMajor>(m, k),
                                       dB,
                                       tla::MakeLayout<half, layout::RowMajor>(k, n),
                                       nullptr,
                                       {},
                                       nullptr,
                                       {dD, 0}};
    Adapter op;
    EXPECT_EQ(op(stream, 1), Status::kInvalid);  // not initialised yet
    EXPECT_EQ(op.Initialize(args, nullptr), Status::kErrorWorkspaceNull);
    aclrtMalloc(reinterpret_cast<void**>(&dWs), Adapter::GetWorkspaceSize(args), ACL_MEM_MALLOC_HUGE_FIRST);
    EXPECT_EQ(op.Initialize(args, dWs), Status::kSuccess);
    EXPECT_EQ(op(stream, 1), Status::kSuccess);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << evg::hw::device().last_report().text();
    EXPECT_EQ(evg::hw::device().last_report().arch, "Ascend950");
    std::vector<float> d(m * n);
    aclrtMemcpy(d.data(), d.size() * 4, dD, d.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST);
    EXPECT_EQ(d, host_product(a, b, m, n, k));
    aclrtDestroyStream(stream);
}

}  // namespace
