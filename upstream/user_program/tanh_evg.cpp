// A user's own EVG program: a float matmul whose epilogue is D = tanh(C), written as (e^2C - 1) / (e^2C + 1)
// in a TopologicalVisitor, with the user's own functor for e^2C (two vector steps). Built with
// evgcheck_add_program against a Catlass checkout; the subject of fp.sh.
//   tanh_evg [clamped|unclamped] [m n k]
// unclamped: e^2C overflows float where C is above 44.4, inf / inf is NaN, and the program's compare (written
// as many are: |got - want| > tolerance is false for NaN) still says "Compare success."; the checker fp names
// the Exp of the functor and the NaN that reached D. clamped: C is clamped to [-8.8, 8.8] first, as
// upstream's tanh example does since its fix.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "catlass/arch/arch.hpp"
#include "catlass/catlass.hpp"
#include "catlass/epilogue/block/block_epilogue.hpp"
#include "catlass/epilogue/fusion/fusion.hpp"
#include "catlass/gemm/block/block_mmad.hpp"
#include "catlass/gemm/block/block_swizzle.hpp"
#include "catlass/gemm/device/device_gemm.hpp"
#include "catlass/gemm/dispatch_policy.hpp"
#include "catlass/gemm/gemm_type.hpp"
#include "catlass/gemm/kernel/basic_matmul_tla_visitor.hpp"
#include "catlass/layout/layout.hpp"
#include "tiling/platform/platform_ascendc.h"
#include "tla/layout.hpp"

using namespace Catlass;
using namespace tla;
namespace Fusion = Catlass::Epilogue::Fusion;

namespace {

// e^(2x): the user's functor.
template <typename T>
struct ExpOfTwice {
    CATLASS_DEVICE void operator()(AscendC::LocalTensor<T>& dst, uint32_t len,
                                   AscendC::LocalTensor<T> const& x) const {
        AscendC::Muls(dst, x, static_cast<T>(2), len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Exp(dst, dst, len);  // e^2x (fp.sh)
    }
};

#define CHECK_ACL(call)                                                                            \
    do {                                                                                           \
        if (aclError e = (call); e != ACL_SUCCESS)                                                 \
            std::fprintf(stderr, "%s:%d: %s failed: aclError %d\n", __FILE__, __LINE__, #call, e); \
    } while (0)

using Element = float;
using ArchTag = Arch::Ascend950;

// The graph of `clamped` (the clamp's two nodes first) or not; `Nodes` of them hold UB.
template <bool Clamped, class LayoutD>
struct TanhGraph;
template <class LayoutD>
struct TanhGraph<false, LayoutD> {
    static constexpr uint32_t ubNodes = 5;  // AccLoad and four Computes (the Store holds none)
    // 0 AccLoad, 1 e^2C, 2 e^2C - 1, 3 e^2C + 1, 4 (2) / (3), 5 Store
    using Edges = tla::tuple<tla::seq<>, tla::seq<0>, tla::seq<1>, tla::seq<1>, tla::seq<2, 3>, tla::seq<4>>;
    using Type = Fusion::TopologicalVisitor<
        Edges, Fusion::VisitorAccLoad<Element>, Fusion::VisitorCompute<ExpOfTwice, Element>,
        Fusion::VisitorCompute<Fusion::Adds, Element, Element>,
        Fusion::VisitorCompute<Fusion::Adds, Element, Element>, Fusion::VisitorCompute<Fusion::Div, Element>,
        Fusion::VisitorAuxStore<Element, LayoutD>>;
    static typename Type::Arguments arguments(uint8_t* d, LayoutD layout) {
        return {{}, {}, {{-1.0f}}, {{1.0f}}, {}, {d, layout}};
    }
};
template <class LayoutD>
struct TanhGraph<true, LayoutD> {
    static constexpr uint32_t ubNodes = 7;
    // 0 AccLoad, 1 min(C, 8.8), 2 max(.., -8.8), 3 e^2x, 4 e^2x - 1, 5 e^2x + 1, 6 (4) / (5), 7 Store
    using Edges = tla::tuple<tla::seq<>, tla::seq<0>, tla::seq<1>, tla::seq<2>, tla::seq<3>, tla::seq<3>,
                             tla::seq<4, 5>, tla::seq<6>>;
    using Type = Fusion::TopologicalVisitor<
        Edges, Fusion::VisitorAccLoad<Element>, Fusion::VisitorCompute<Fusion::Mins, Element, Element>,
        Fusion::VisitorCompute<Fusion::Maxs, Element, Element>, Fusion::VisitorCompute<ExpOfTwice, Element>,
        Fusion::VisitorCompute<Fusion::Adds, Element, Element>,
        Fusion::VisitorCompute<Fusion::Adds, Element, Element>, Fusion::VisitorCompute<Fusion::Div, Element>,
        Fusion::VisitorAuxStore<Element, LayoutD>>;
    static typename Type::Arguments arguments(uint8_t* d, LayoutD layout) {
        return {{}, {{8.8f}}, {{-8.8f}}, {}, {{-1.0f}}, {{1.0f}}, {}, {d, layout}};
    }
};

template <bool Clamped>
void run(uint32_t m, uint32_t n, uint32_t k, aclrtStream stream) {
    using Tag = layout::RowMajor;
    std::vector<Element> a(size_t{m} * k), b(size_t{k} * n), d(size_t{m} * n);
    // Integers in [-5, 5] whose rows of A and columns of B are alike where i = j (mod 11): C reaches a few
    // hundred there, and e^2C overflows float where C is above 44.4.
    for (uint32_t i = 0; i < m; ++i)
        for (uint32_t p = 0; p < k; ++p)
            a[size_t{i} * k + p] = static_cast<Element>(static_cast<int>((i + p) % 11) - 5);
    for (uint32_t p = 0; p < k; ++p)
        for (uint32_t j = 0; j < n; ++j)
            b[size_t{p} * n + j] = static_cast<Element>(static_cast<int>((p + j) % 11) - 5);
    const size_t bytesA = a.size() * sizeof(Element), bytesB = b.size() * sizeof(Element);
    const size_t bytesD = d.size() * sizeof(Element);
    uint8_t *deviceA = nullptr, *deviceB = nullptr, *deviceD = nullptr;
    CHECK_ACL(aclrtMalloc(reinterpret_cast<void**>(&deviceA), bytesA, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(reinterpret_cast<void**>(&deviceB), bytesB, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(reinterpret_cast<void**>(&deviceD), bytesD, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(deviceA, bytesA, a.data(), bytesA, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(deviceB, bytesB, b.data(), bytesB, ACL_MEMCPY_HOST_TO_DEVICE));

    using Dispatch = Gemm::MmadPingpong<ArchTag, true>;
    using L1Tile = Shape<Int<128>, Int<256>, Int<64>>;
    using L0Tile = Shape<Int<128>, Int<256>, Int<32>>;
    auto layoutA = MakeLayout<Element, Tag>(m, k);
    auto layoutB = MakeLayout<Element, Tag>(k, n);
    auto layoutD = MakeLayout<Element, Tag>(m, n);
    using TileCopy = Gemm::Tile::PackedTileCopyTla<ArchTag, Element, Tag, Element, Tag, Element, Tag>;
    using BlockMmad =
        Gemm::Block::BlockMmadTla<Dispatch, L1Tile, L0Tile, Element, Element, Element, void, TileCopy>;
    using Graph = TanhGraph<Clamped, decltype(layoutD)>;
    constexpr uint32_t computeLength =
        RoundDown(ArchTag::UB_SIZE / Graph::ubNodes / 2 / sizeof(Element), BYTE_PER_C0);
    using BlockEpilogue = Epilogue::Block::BlockEpilogue<Epilogue::EpilogueVisitor<>, ArchTag,
                                                         Int<computeLength>, typename Graph::Type, Element>;
    using Swizzle = Gemm::Block::GemmIdentityBlockSwizzle<3, 0>;
    using Kernel = Gemm::Kernel::BasicMatmulTlaVisitor<BlockMmad, BlockEpilogue, Swizzle>;
    typename Kernel::Arguments args{GemmCoord{m, n, k},
                                    deviceA,
                                    layoutA,
                                    deviceB,
                                    layoutB,
                                    nullptr,
                                    {},
                                    nullptr,
                                    Graph::arguments(deviceD, layoutD)};
    Gemm::Device::DeviceGemm<Kernel> gemm;
    const size_t workspaceBytes = gemm.GetWorkspaceSize(args);
    uint8_t* workspace = nullptr;
    if (workspaceBytes > 0)
        CHECK_ACL(
            aclrtMalloc(reinterpret_cast<void**>(&workspace), workspaceBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    gemm.Initialize(args, workspace);
    const uint32_t cores = platform_ascendc::PlatformAscendCManager::GetInstance()->GetCoreNumAic();
    gemm(stream, cores);  // the kernel launch
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtMemcpy(d.data(), bytesD, deviceD, bytesD, ACL_MEMCPY_DEVICE_TO_HOST));

    // The compare as it is often written: a NaN makes the difference NaN, and NaN > tolerance is false.
    size_t wrong = 0;
    for (uint32_t i = 0; i < m; ++i)
        for (uint32_t j = 0; j < n; ++j) {
            double acc = 0;
            for (uint32_t p = 0; p < k; ++p)
                acc += double{a[size_t{i} * k + p]} * double{b[size_t{p} * n + j]};
            const double want = std::tanh(acc);
            wrong += std::fabs(d[size_t{i} * n + j] - want) > 1e-4 ? 1 : 0;
        }
    if (wrong == 0)
        std::puts("Compare success.");
    else
        std::printf("Compare failed: %zu of %zu elements differ.\n", wrong, d.size());
    if (workspace) CHECK_ACL(aclrtFree(workspace));
    for (uint8_t* p : {deviceA, deviceB, deviceD}) CHECK_ACL(aclrtFree(p));
}

}  // namespace

int main(int argc, char** argv) {
    const bool clamped = !(argc > 1 && std::strcmp(argv[1], "unclamped") == 0);
    const uint32_t m = argc > 4 ? static_cast<uint32_t>(std::atoi(argv[2])) : 128;
    const uint32_t n = argc > 4 ? static_cast<uint32_t>(std::atoi(argv[3])) : 256;
    const uint32_t k = argc > 4 ? static_cast<uint32_t>(std::atoi(argv[4])) : 64;
    aclrtStream stream = nullptr;
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    CHECK_ACL(aclrtCreateStream(&stream));
    if (clamped)
        run<true>(m, n, k, stream);
    else
        run<false>(m, n, k, stream);
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclFinalize());
    return 0;
}
