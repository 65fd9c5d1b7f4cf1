// A user's own EVG program, written as a Catlass developer writes one against upstream's API: a float matmul
// whose epilogue graph is D = relu(C + X) * 0.5, with a functor of the user's own (three vector instructions)
// in a Compute node between the accumulator and an auxiliary input X, and D stored. Built with
// evgcheck_add_program against a Catlass checkout; the subject of node_slots.sh.
//   relu_half_evg [clean|overrun] [m n k]
// clean: correct; overrun: the functor's last step is given twice its tile's length, so it writes past its
// node's UB slot into its neighbour's (the checker node-slots names both nodes; no other checker sees it).
// Which neighbour depends on the compiler's order of evaluation (docs/hardware-model.md §18): the test builds
// it with GCC, where the neighbour is X's slot; under Bisheng's order the overrun meets a live buffer and
// every run sees it.
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

namespace {

bool g_overrun = false;  // set by main from the mode, read by the functor on the model's cores

// relu(c + x) * 0.5, one vector step after another.
template <typename T>
struct AddReluHalf {
    CATLASS_DEVICE void operator()(AscendC::LocalTensor<T>& dst, uint32_t len,
                                   AscendC::LocalTensor<T> const& c, AscendC::LocalTensor<T> const& x) const {
        AscendC::Add(dst, c, x, len);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Relu(dst, dst, len);
        AscendC::PipeBarrier<PIPE_V>();
        const uint32_t last = g_overrun ? 2 * len : len;
        AscendC::Muls(dst, dst, static_cast<T>(0.5), last);  // the last step (node_slots.sh)
    }
};

// Says what failed and goes on, as upstream's examples do (a launch with findings fails its synchronise).
#define CHECK_ACL(call)                                                                            \
    do {                                                                                           \
        if (aclError e = (call); e != ACL_SUCCESS)                                                 \
            std::fprintf(stderr, "%s:%d: %s failed: aclError %d\n", __FILE__, __LINE__, #call, e); \
    } while (0)

}  // namespace

int main(int argc, char** argv) {
    g_overrun = argc > 1 && std::strcmp(argv[1], "overrun") == 0;
    const uint32_t m = argc > 4 ? static_cast<uint32_t>(std::atoi(argv[2])) : 128;
    const uint32_t n = argc > 4 ? static_cast<uint32_t>(std::atoi(argv[3])) : 256;
    const uint32_t k = argc > 4 ? static_cast<uint32_t>(std::atoi(argv[4])) : 64;

    aclrtStream stream = nullptr;
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    CHECK_ACL(aclrtCreateStream(&stream));

    using Element = float;
    using Tag = layout::RowMajor;
    std::vector<Element> a(size_t{m} * k), b(size_t{k} * n), x(size_t{m} * n), d(size_t{m} * n);
    for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<Element>(static_cast<int>(i % 7) - 3) * 0.25f;
    for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<Element>(static_cast<int>(i % 5) - 2) * 0.5f;
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<Element>(static_cast<int>(i % 11) - 5);
    const size_t bytesA = a.size() * sizeof(Element), bytesB = b.size() * sizeof(Element);
    const size_t bytesD = d.size() * sizeof(Element);

    uint8_t *deviceA = nullptr, *deviceB = nullptr, *deviceX = nullptr, *deviceD = nullptr;
    CHECK_ACL(aclrtMalloc(reinterpret_cast<void**>(&deviceA), bytesA, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(reinterpret_cast<void**>(&deviceB), bytesB, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(reinterpret_cast<void**>(&deviceX), bytesD, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(reinterpret_cast<void**>(&deviceD), bytesD, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(deviceA, bytesA, a.data(), bytesA, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(deviceB, bytesB, b.data(), bytesB, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(deviceX, bytesD, x.data(), bytesD, ACL_MEMCPY_HOST_TO_DEVICE));

    using ArchTag = Arch::Ascend950;
    using Dispatch = Gemm::MmadPingpong<ArchTag, true>;
    using L1Tile = Shape<Int<128>, Int<256>, Int<64>>;
    using L0Tile = Shape<Int<128>, Int<256>, Int<32>>;
    auto layoutA = MakeLayout<Element, Tag>(m, k);
    auto layoutB = MakeLayout<Element, Tag>(k, n);
    auto layoutD = MakeLayout<Element, Tag>(m, n);
    using TileCopy = Gemm::Tile::PackedTileCopyTla<ArchTag, Element, Tag, Element, Tag, Element, Tag>;
    using BlockMmad =
        Gemm::Block::BlockMmadTla<Dispatch, L1Tile, L0Tile, Element, Element, Element, void, TileCopy>;

    // Three nodes hold UB (the accumulator's load, X's load, the functor's result), each double-buffered.
    constexpr uint32_t slotElements = RoundDown(ArchTag::UB_SIZE / 3 / 2 / sizeof(Element), BYTE_PER_C0);
    using LayoutD = decltype(layoutD);
    using Graph = Epilogue::Fusion::TreeVisitor<
        Epilogue::Fusion::VisitorAuxStore<Element, LayoutD>,
        Epilogue::Fusion::TreeVisitor<Epilogue::Fusion::VisitorCompute<AddReluHalf, Element>,
                                      Epilogue::Fusion::VisitorAccLoad<Element>,
                                      Epilogue::Fusion::VisitorAuxLoad<Element, LayoutD>>>;
    using BlockEpilogue = Epilogue::Block::BlockEpilogue<Epilogue::EpilogueVisitor<>, ArchTag,
                                                         Int<slotElements>, Graph, Element>;
    typename Graph::Arguments graphArgs{{{}, {deviceX, layoutD}, {}}, {deviceD, layoutD}};

    using Swizzle = Gemm::Block::GemmIdentityBlockSwizzle<3, 0>;
    using Kernel = Gemm::Kernel::BasicMatmulTlaVisitor<BlockMmad, BlockEpilogue, Swizzle>;
    typename Kernel::Arguments args{
        GemmCoord{m, n, k}, deviceA, layoutA, deviceB, layoutB, nullptr, {}, nullptr, graphArgs};
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

    size_t wrong = 0;
    for (uint32_t i = 0; i < m; ++i)
        for (uint32_t j = 0; j < n; ++j) {
            double acc = 0;
            for (uint32_t p = 0; p < k; ++p)
                acc += double{a[size_t{i} * k + p]} * double{b[size_t{p} * n + j]};
            const double want = std::max(acc + x[size_t{i} * n + j], 0.0) * 0.5;
            const double got = d[size_t{i} * n + j];
            wrong += std::fabs(got - want) > 1e-4 * std::max(1.0, std::fabs(want));
        }
    if (wrong == 0)
        std::puts("Compare success.");
    else
        std::printf("Compare failed: %zu of %zu elements differ.\n", wrong, d.size());
    if (workspace) CHECK_ACL(aclrtFree(workspace));
    for (uint8_t* p : {deviceA, deviceB, deviceX, deviceD}) CHECK_ACL(aclrtFree(p));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclFinalize());
    return 0;
}
