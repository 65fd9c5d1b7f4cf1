// Upstream's seven EVG example graphs with upstream's kernels, in the host-code style of the example programs
// (aclrtMalloc / DeviceGemm / Initialize / launch / aclrtSynchronizeStream), on the model. Compiled against a
// Catlass checkout for Ascend950 (evg_use_upstream_catlass in upstream/CMakeLists.txt): every Catlass name here
// is upstream's own; only the launch inside DeviceGemm is evgcheck's stand-in.
#include <acl/acl.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include "catlass/arch/arch.hpp"
#include "catlass/catlass.hpp"
#include "catlass/epilogue/block/block_epilogue.hpp"
#include "catlass/epilogue/fusion/fusion.hpp"
#include "catlass/gemm/block/block_mmad.hpp"
#include "catlass/gemm/block/block_swizzle.hpp"
#include "catlass/gemm/device/device_gemm.hpp"
#include "catlass/gemm/dispatch_policy.hpp"
#include "catlass/gemm/gemm_type.hpp"
#include "catlass/gemm/kernel/basic_matmul_tla_ub_visitor.hpp"
#include "catlass/gemm/kernel/basic_matmul_tla_visitor.hpp"
#include "catlass/layout/layout.hpp"
#include "catlass/status.hpp"
#include "evg/hw/device.hpp"
#include "tla/layout.hpp"
#include "upstream_examples.hpp"

namespace evg::upstream {
namespace {

using namespace Catlass;
namespace Fusion = Catlass::Epilogue::Fusion;

using ArchTag = Arch::Ascend950;
using Element = float;
using LayoutTag = layout::RowMajor;
using L1Tile = tla::Shape<tla::Int<256>, tla::Int<256>, tla::Int<128>>;
using L0Tile = tla::Shape<tla::Int<256>, tla::Int<256>, tla::Int<32>>;
using MmadPolicy = Gemm::MmadPingpong<ArchTag, /*enableUnitFlag=*/true>;
using LayoutMN = decltype(tla::MakeLayout<Element, LayoutTag>(1u, 1u));

// The examples' computeLength: the UB (less the L0C hand-over half for add_ub) shared by the UB-holding nodes,
// double-buffered, rounded down to whole 32-byte blocks.
constexpr uint32_t compute_length_for(uint32_t ub_nodes, uint32_t ub_budget) {
    return RoundDown(ub_budget / ub_nodes / 2 / static_cast<uint32_t>(sizeof(Element)), BYTE_PER_C0);
}

void check(aclError e, const char* what) {
    if (e != ACL_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + aclGetRecentErrMsg());
}

uint8_t* upload(const std::vector<float>& host, size_t elements) {
    uint8_t* dev = nullptr;
    check(aclrtMalloc(reinterpret_cast<void**>(&dev), elements * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST),
          "aclrtMalloc");
    if (!host.empty()) {
        if (host.size() != elements) throw std::invalid_argument("upstream example: host buffer of wrong size");
        check(aclrtMemcpy(dev, elements * sizeof(float), host.data(), elements * sizeof(float),
                          ACL_MEMCPY_HOST_TO_DEVICE),
              "aclrtMemcpy");
    }
    return dev;
}

// Builds the matmul kernel around BlockEpilogue<Policy, ArchTag, computeLength, EVG> with the example's block
// scheduler (bands of three block rows when m > n, of three block columns otherwise) and launches it.
template <template <class, class, class> class KernelT, class TileCopy, class Policy, uint32_t CL, class EVG>
void launch(aclrtStream stream, GemmCoord shape, uint8_t* deviceA, uint8_t* deviceB,
            const typename EVG::Arguments& evg_args, uint32_t blockDim) {
    using BlockMmad = Gemm::Block::BlockMmadTla<MmadPolicy, L1Tile, L0Tile, Element, Element, Element, void, TileCopy>;
    using BlockEpilogue = Epilogue::Block::BlockEpilogue<Policy, ArchTag, tla::Int<CL>, EVG, Element>;
    auto layoutA = tla::MakeLayout<Element, LayoutTag>(shape.m(), shape.k());
    auto layoutB = tla::MakeLayout<Element, LayoutTag>(shape.k(), shape.n());
    auto run = [&]<class BlockScheduler>() {
        using Kernel = KernelT<BlockMmad, BlockEpilogue, BlockScheduler>;
        typename Kernel::Arguments arguments{shape, deviceA, layoutA, deviceB, layoutB, nullptr, {}, nullptr,
                                             evg_args};
        Gemm::Device::DeviceGemm<Kernel> op;
        size_t workspaceBytes = op.GetWorkspaceSize(arguments);
        uint8_t* workspace = nullptr;
        if (workspaceBytes > 0) {
            check(aclrtMalloc(reinterpret_cast<void**>(&workspace), workspaceBytes, ACL_MEM_MALLOC_HUGE_FIRST),
                  "aclrtMalloc (workspace)");
        }
        op.Initialize(arguments, workspace);
        op(stream, blockDim);
        // The report stays on the device (last_report); a finding makes this return an error, which the caller
        // reads from the report rather than from the return code.
        (void)aclrtSynchronizeStream(stream);
        if (workspace) check(aclrtFree(workspace), "aclrtFree (workspace)");
    };
    if (shape.m() > shape.n()) {
        run.template operator()<Gemm::Block::GemmIdentityBlockSwizzle<3, 0>>();
    } else {
        run.template operator()<Gemm::Block::GemmIdentityBlockSwizzle<3, 1>>();
    }
}

using TileCopyGm = Gemm::Tile::PackedTileCopyTla<ArchTag, Element, LayoutTag, Element, LayoutTag, Element, LayoutTag>;
using TileCopyUb = Gemm::Tile::PackedTileCopyTlaToUB<ArchTag, Element, LayoutTag, Element, LayoutTag, Element,
                                                     LayoutTag, void, Gemm::Tile::CopyL0CToUBMode::SPLIT_M>;
template <class B, class S, class T>
using GmKernel = Gemm::Kernel::BasicMatmulTlaVisitor<B, S, T>;
template <class B, class S, class T>
using UbKernel = Gemm::Kernel::BasicMatmulTlaUbVisitor<B, S, T>;

// D = Fn(C): leaky_relu, sigmoid, silu.
template <template <class> class Fn, class FnArgs>
uint32_t run_unary(aclrtStream stream, GemmCoord shape, uint8_t* a, uint8_t* b, uint8_t* d, FnArgs fn_args,
                   uint32_t blockDim) {
    auto layoutD = tla::MakeLayout<Element, LayoutTag>(shape.m(), shape.n());
    using Compute = std::conditional_t<std::is_same_v<FnArgs, std::tuple<>>, Fusion::VisitorCompute<Fn, Element>,
                                       Fusion::VisitorCompute<Fn, Element, Element>>;
    using EVG = Fusion::TreeVisitor<Fusion::VisitorAuxStore<Element, LayoutMN>,
                                    Fusion::TreeVisitor<Compute, Fusion::VisitorAccLoad<Element>>>;
    constexpr uint32_t CL = compute_length_for(2, ArchTag::UB_SIZE);
    typename EVG::Arguments args;
    if constexpr (std::is_same_v<FnArgs, std::tuple<>>) {
        args = typename EVG::Arguments{{{}, {}}, {d, layoutD}};
    } else {
        args = typename EVG::Arguments{{{}, {{std::get<0>(fn_args)}}}, {d, layoutD}};
    }
    launch<GmKernel, TileCopyGm, Epilogue::EpilogueVisitor<>, CL, EVG>(stream, shape, a, b, args, blockDim);
    return CL;
}

}  // namespace

std::string_view example_name(Example e) {
    switch (e) {
        case Example::add:
            return "add";
        case Example::add_ub:
            return "add_ub";
        case Example::bias:
            return "bias";
        case Example::leaky_relu:
            return "leaky_relu";
        case Example::sigmoid:
            return "sigmoid";
        case Example::silu:
            return "silu";
        case Example::tanh:
            return "tanh";
    }
    return "?";
}

ExampleRun run_example_950(Example e, const ExampleShape& s, const ExampleData& data, uint32_t blockDim,
                           const hw::Config& config) {
    hw::Config cfg = config;
    cfg.arch = hw::ArchId::Ascend950;
    hw::reset_device(cfg);
    const GemmCoord shape{s.m, s.n, s.k};
    const size_t mn = size_t(s.m) * s.n;

    aclrtStream stream = nullptr;
    check(aclrtCreateStream(&stream), "aclrtCreateStream");
    uint8_t* deviceA = upload(data.a, size_t(s.m) * s.k);
    uint8_t* deviceB = upload(data.b, size_t(s.k) * s.n);
    uint8_t* deviceD = upload(data.d, mn);
    uint8_t* deviceX = e == Example::bias ? upload(data.x, s.n) : nullptr;
    auto layoutD = tla::MakeLayout<Element, LayoutTag>(s.m, s.n);

    ExampleRun out;
    switch (e) {
        case Example::add:
        case Example::add_ub: {
            if (e == Example::add) {
                using EVG = Fusion::TreeVisitor<
                    Fusion::VisitorAuxStore<Element, LayoutMN>,
                    Fusion::TreeVisitor<Fusion::VisitorCompute<Fusion::Add, Element>, Fusion::VisitorAccLoad<Element>,
                                        Fusion::VisitorAuxLoad<Element, LayoutMN>>>;
                constexpr uint32_t CL = compute_length_for(3, ArchTag::UB_SIZE);
                typename EVG::Arguments args{{{}, {deviceD, layoutD}, {}}, {deviceD, layoutD}};
                launch<GmKernel, TileCopyGm, Epilogue::EpilogueVisitor<>, CL, EVG>(stream, shape, deviceA, deviceB,
                                                                                   args, blockDim);
                out.compute_length = CL;
            } else {
                using Policy = Epilogue::EpilogueVisitor<true>;
                using EVG = Fusion::TreeVisitor<
                    Fusion::VisitorAuxStore<Element, LayoutMN>,
                    Fusion::TreeVisitor<Fusion::VisitorCompute<Fusion::Add, Element>,
                                        Fusion::VisitorAccLoad<Element, Policy::USE_UB_WORKSPACE>,
                                        Fusion::VisitorAuxLoad<Element, LayoutMN>>>;
                constexpr uint32_t CL = compute_length_for(2, ArchTag::UB_SIZE - ArchTag::L0C_SIZE / 2);
                typename EVG::Arguments args{{{}, {deviceD, layoutD}, {}}, {deviceD, layoutD}};
                launch<UbKernel, TileCopyUb, Policy, CL, EVG>(stream, shape, deviceA, deviceB, args, blockDim);
                out.compute_length = CL;
            }
            break;
        }
        case Example::bias: {
            auto layoutX = tla::MakeLayout<Element, LayoutTag>(1u, s.n);
            using EVG = Fusion::TreeVisitor<
                Fusion::VisitorAuxStore<Element, LayoutMN>,
                Fusion::TreeVisitor<Fusion::VisitorCompute<Fusion::Add, Element>, Fusion::VisitorAccLoad<Element>,
                                    Fusion::VisitorRowBroadcast<Element, LayoutMN>>>;
            constexpr uint32_t CL = compute_length_for(3, ArchTag::UB_SIZE);
            typename EVG::Arguments args{{{}, {deviceX, layoutX}, {}}, {deviceD, layoutD}};
            launch<GmKernel, TileCopyGm, Epilogue::EpilogueVisitor<>, CL, EVG>(stream, shape, deviceA, deviceB, args,
                                                                               blockDim);
            out.compute_length = CL;
            break;
        }
        case Example::leaky_relu:
            out.compute_length = run_unary<Fusion::LeakyRelu>(stream, shape, deviceA, deviceB, deviceD,
                                                              std::tuple<float>{0.1f}, blockDim);
            break;
        case Example::sigmoid:
            out.compute_length =
                run_unary<Fusion::Sigmoid>(stream, shape, deviceA, deviceB, deviceD, std::tuple<>{}, blockDim);
            break;
        case Example::silu:
            out.compute_length =
                run_unary<Fusion::Silu>(stream, shape, deviceA, deviceB, deviceD, std::tuple<>{}, blockDim);
            break;
        case Example::tanh: {
            // tanh(c) = (e^2c - 1) / (e^2c + 1) over c clamped to [-8.8, 8.8] (so that e^2c stays finite):
            // 0 AccLoad, 1 Mins, 2 Maxs, 3 Muls 2, 4 Exp, 5 Adds -1, 6 Adds 1, 7 Div (5, 6), 8 AuxStore.
            using Edges = tla::tuple<tla::seq<>, tla::seq<0>, tla::seq<1>, tla::seq<2>, tla::seq<3>, tla::seq<4>,
                                     tla::seq<4>, tla::seq<5, 6>, tla::seq<7>>;
            using Scalar = Fusion::VisitorCompute<Fusion::Adds, Element, Element>;
            using EVG = Fusion::TopologicalVisitor<
                Edges, Fusion::VisitorAccLoad<Element>, Fusion::VisitorCompute<Fusion::Mins, Element, Element>,
                Fusion::VisitorCompute<Fusion::Maxs, Element, Element>,
                Fusion::VisitorCompute<Fusion::Muls, Element, Element>, Fusion::VisitorCompute<Fusion::Exp, Element>,
                Scalar, Scalar, Fusion::VisitorCompute<Fusion::Div, Element>, Fusion::VisitorAuxStore<Element, LayoutMN>>;
            constexpr uint32_t CL = compute_length_for(8, ArchTag::UB_SIZE);
            typename EVG::Arguments args{{},    {{8.8f}}, {{-8.8f}}, {{2.0f}}, {}, {{-1.0f}}, {{1.0f}},
                                         {},    {deviceD, layoutD}};
            launch<GmKernel, TileCopyGm, Epilogue::EpilogueVisitor<>, CL, EVG>(stream, shape, deviceA, deviceB, args,
                                                                               blockDim);
            out.compute_length = CL;
            break;
        }
    }

    out.report = hw::device().last_report();
    out.trace = hw::device().take_last_trace();
    out.d.resize(mn);
    check(aclrtMemcpy(out.d.data(), mn * sizeof(float), deviceD, mn * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST),
          "aclrtMemcpy (D)");
    out.block_dim = blockDim;
    out.tiles_m = (s.m + 255) / 256;
    out.tiles_n = (s.n + 255) / 256;
    for (uint8_t* p : {deviceA, deviceB, deviceD, deviceX})
        if (p) check(aclrtFree(p), "aclrtFree");
    check(aclrtDestroyStream(stream), "aclrtDestroyStream");
    return out;
}

}  // namespace evg::upstream
