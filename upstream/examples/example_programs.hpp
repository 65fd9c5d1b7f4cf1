// The host code of upstream's seven EVG example programs (examples/64_ascend950_matmul_evg), written once
// against the Catlass API: the EVG of each graph, its Arguments braces, the tile shapes, the block scheduler
// choice and the computeLength rule, then aclrtMalloc / DeviceGemm / Initialize / launch /
// aclrtSynchronizeStream.
//
// Included after a Catlass library's headers by one translation unit per library: upstream's
// (upstream_examples_950.cpp, against a checkout) and evgcheck's own copy (ours_examples_950.cpp, against
// lib/catlass), so that both run the same programs for the differential test. `Lib` supplies what the two
// spell differently: the BlockMmad of a tile copy kind (GM or UB hand-over).
#pragma once
#include <acl/acl.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>

#include "evg/hw/device.hpp"
#include "evg/hw/trace.hpp"
#include "upstream_examples.hpp"

namespace evg::upstream::programs {

using namespace Catlass;
namespace Fusion = Catlass::Epilogue::Fusion;

using ArchTag = Arch::Ascend950;
using Element = float;
using LayoutTag = layout::RowMajor;
using L1Tile = tla::Shape<tla::Int<256>, tla::Int<256>, tla::Int<128>>;  // (M, N, K) of an L1 block
using L0Tile = tla::Shape<tla::Int<256>, tla::Int<256>, tla::Int<32>>;   // (M, N, K) of an L0 step
using MmadPolicy = Gemm::MmadPingpong<ArchTag, /*enableUnitFlag=*/true>;
using LayoutMN = decltype(tla::MakeLayout<Element, LayoutTag>(1u, 1u));  // a row-major m x n tensor

// The examples' computeLength: the UB (less the L0C hand-over half on the UB path) shared by the nodes that
// hold UB, double-buffered, rounded down to whole 32-byte blocks.
constexpr uint32_t compute_length_for(uint32_t ub_nodes, uint32_t ub_budget) {
    return RoundDown(ub_budget / ub_nodes / 2 / static_cast<uint32_t>(sizeof(Element)), BYTE_PER_C0);
}

inline void check(aclError e, const char* what) {
    if (e != ACL_SUCCESS) throw std::runtime_error(std::string(what) + " failed: " + aclGetRecentErrMsg());
}

inline uint8_t* upload(const std::vector<float>& host, size_t elements) {
    uint8_t* dev = nullptr;
    check(aclrtMalloc(reinterpret_cast<void**>(&dev), elements * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST),
          "aclrtMalloc");
    if (!host.empty()) {
        if (host.size() != elements)
            throw std::invalid_argument("example program: host buffer of the wrong size");
        check(aclrtMemcpy(dev, elements * sizeof(float), host.data(), elements * sizeof(float),
                          ACL_MEMCPY_HOST_TO_DEVICE),
              "aclrtMemcpy");
    }
    return dev;
}

// The kernel around BlockEpilogue<Policy, ArchTag, computeLength, EVG>, with the example's block scheduler
// (bands of three block rows when m > n, of three block columns otherwise), launched on blockDim AI cores.
template <class Lib, bool UB_PATH, class Policy, uint32_t CL, class EVG>
void launch(aclrtStream stream, GemmCoord shape, uint8_t* deviceA, uint8_t* deviceB,
            const typename EVG::Arguments& evg_args, uint32_t blockDim) {
    using BlockMmad = typename Lib::template BlockMmad<UB_PATH>;
    using BlockEpilogue = Epilogue::Block::BlockEpilogue<Policy, ArchTag, tla::Int<CL>, EVG, Element>;
    auto layoutA = tla::MakeLayout<Element, LayoutTag>(shape.m(), shape.k());
    auto layoutB = tla::MakeLayout<Element, LayoutTag>(shape.k(), shape.n());
    auto run = [&]<class BlockScheduler>() {
        using Kernel = std::conditional_t<
            UB_PATH, Gemm::Kernel::BasicMatmulTlaUbVisitor<BlockMmad, BlockEpilogue, BlockScheduler>,
            Gemm::Kernel::BasicMatmulTlaVisitor<BlockMmad, BlockEpilogue, BlockScheduler>>;
        typename Kernel::Arguments arguments{shape,   deviceA, layoutA, deviceB, layoutB,
                                             nullptr, {},      nullptr, evg_args};
        Gemm::Device::DeviceGemm<Kernel> op;
        size_t workspaceBytes = op.GetWorkspaceSize(arguments);
        uint8_t* workspace = nullptr;
        if (workspaceBytes > 0) {
            check(
                aclrtMalloc(reinterpret_cast<void**>(&workspace), workspaceBytes, ACL_MEM_MALLOC_HUGE_FIRST),
                "aclrtMalloc (workspace)");
        }
        op.Initialize(arguments, workspace);
        op(stream, blockDim);
        // A finding makes this return an error; the caller reads the report itself (device().last_report()).
        (void)aclrtSynchronizeStream(stream);
        if (workspace) check(aclrtFree(workspace), "aclrtFree (workspace)");
    };
    if (shape.m() > shape.n()) {
        run.template operator()<Gemm::Block::GemmIdentityBlockSwizzle<3, 0>>();
    } else {
        run.template operator()<Gemm::Block::GemmIdentityBlockSwizzle<3, 1>>();
    }
}

// D = Fn(C): leaky_relu (one scalar), sigmoid, silu.
template <class Lib, template <class> class Fn, class... Scalar>
uint32_t run_unary(aclrtStream stream, GemmCoord shape, uint8_t* a, uint8_t* b, uint8_t* d, uint32_t blockDim,
                   Scalar... scalar) {
    auto layoutD = tla::MakeLayout<Element, LayoutTag>(shape.m(), shape.n());
    using Compute = Fusion::VisitorCompute<Fn, Element, Scalar...>;
    using EVG = Fusion::TreeVisitor<Fusion::VisitorAuxStore<Element, LayoutMN>,
                                    Fusion::TreeVisitor<Compute, Fusion::VisitorAccLoad<Element>>>;
    constexpr uint32_t CL = compute_length_for(2, ArchTag::UB_SIZE);
    if constexpr (sizeof...(Scalar) == 0) {
        typename EVG::Arguments args{{{}, {}}, {d, layoutD}};
        launch<Lib, false, Epilogue::EpilogueVisitor<>, CL, EVG>(stream, shape, a, b, args, blockDim);
    } else {
        typename EVG::Arguments args{{{}, {{scalar...}}}, {d, layoutD}};
        launch<Lib, false, Epilogue::EpilogueVisitor<>, CL, EVG>(stream, shape, a, b, args, blockDim);
    }
    return CL;
}

// Runs example `e` as its program does, on an Ascend950 model reset with `config`.
template <class Lib>
ExampleRun run_example(Example e, const ExampleShape& s, const ExampleData& data, uint32_t blockDim,
                       const hw::Config& config) {
    hw::Config cfg = config;
    cfg.arch = hw::ArchId::Ascend950;
    hw::reset_device(cfg);
    const GemmCoord shape{s.m, s.n, s.k};
    const size_t mn = size_t(s.m) * s.n;
    const uint32_t tiles_m = (s.m + 255) / 256, tiles_n = (s.n + 255) / 256;

    aclrtStream stream = nullptr;
    check(aclrtCreateStream(&stream), "aclrtCreateStream");
    uint8_t* deviceA = upload(data.a, size_t(s.m) * s.k);
    uint8_t* deviceB = upload(data.b, size_t(s.k) * s.n);
    uint8_t* deviceD = upload(data.d, mn);
    uint8_t* deviceX = e == Example::bias ? upload(data.x, s.n) : nullptr;
    auto layoutD = tla::MakeLayout<Element, LayoutTag>(s.m, s.n);

    ExampleRun out;
    out.block_dim = blockDim;
    switch (e) {
        case Example::add: {
            using EVG = Fusion::TreeVisitor<Fusion::VisitorAuxStore<Element, LayoutMN>,
                                            Fusion::TreeVisitor<Fusion::VisitorCompute<Fusion::Add, Element>,
                                                                Fusion::VisitorAccLoad<Element>,
                                                                Fusion::VisitorAuxLoad<Element, LayoutMN>>>;
            constexpr uint32_t CL = compute_length_for(3, ArchTag::UB_SIZE);
            typename EVG::Arguments args{{{}, {deviceD, layoutD}, {}}, {deviceD, layoutD}};  // X read from D
            launch<Lib, false, Epilogue::EpilogueVisitor<>, CL, EVG>(stream, shape, deviceA, deviceB, args,
                                                                     blockDim);
            out.compute_length = CL;
            break;
        }
        case Example::add_ub: {
            // The UB path launches min(cores, blocks): a core with no block would only wait.
            out.block_dim = std::min(blockDim, tiles_m * tiles_n);
            using Policy = Epilogue::EpilogueVisitor<true>;
            using EVG = Fusion::TreeVisitor<
                Fusion::VisitorAuxStore<Element, LayoutMN>,
                Fusion::TreeVisitor<Fusion::VisitorCompute<Fusion::Add, Element>,
                                    Fusion::VisitorAccLoad<Element, Policy::USE_UB_WORKSPACE>,
                                    Fusion::VisitorAuxLoad<Element, LayoutMN>>>;
            constexpr uint32_t CL = compute_length_for(2, ArchTag::UB_SIZE - ArchTag::L0C_SIZE / 2);
            typename EVG::Arguments args{{{}, {deviceD, layoutD}, {}}, {deviceD, layoutD}};
            launch<Lib, true, Policy, CL, EVG>(stream, shape, deviceA, deviceB, args, out.block_dim);
            out.compute_length = CL;
            break;
        }
        case Example::bias: {
            auto layoutX = tla::MakeLayout<Element, LayoutTag>(1u, s.n);  // (1, n): the row every row gets
            using EVG =
                Fusion::TreeVisitor<Fusion::VisitorAuxStore<Element, LayoutMN>,
                                    Fusion::TreeVisitor<Fusion::VisitorCompute<Fusion::Add, Element>,
                                                        Fusion::VisitorAccLoad<Element>,
                                                        Fusion::VisitorRowBroadcast<Element, LayoutMN>>>;
            constexpr uint32_t CL = compute_length_for(3, ArchTag::UB_SIZE);
            typename EVG::Arguments args{{{}, {deviceX, layoutX}, {}}, {deviceD, layoutD}};
            launch<Lib, false, Epilogue::EpilogueVisitor<>, CL, EVG>(stream, shape, deviceA, deviceB, args,
                                                                     blockDim);
            out.compute_length = CL;
            break;
        }
        case Example::leaky_relu:
            out.compute_length =
                run_unary<Lib, Fusion::LeakyRelu>(stream, shape, deviceA, deviceB, deviceD, blockDim, 0.1f);
            break;
        case Example::sigmoid:
            out.compute_length =
                run_unary<Lib, Fusion::Sigmoid>(stream, shape, deviceA, deviceB, deviceD, blockDim);
            break;
        case Example::silu:
            out.compute_length =
                run_unary<Lib, Fusion::Silu>(stream, shape, deviceA, deviceB, deviceD, blockDim);
            break;
        case Example::tanh: {
            // tanh(c) = (e^2c - 1) / (e^2c + 1) over c clamped to [-8.8, 8.8] (so that e^2c stays finite):
            // 0 AccLoad, 1 Mins, 2 Maxs, 3 Muls 2, 4 Exp, 5 Adds -1, 6 Adds 1, 7 Div (5, 6), 8 AuxStore.
            using Edges = tla::tuple<tla::seq<>, tla::seq<0>, tla::seq<1>, tla::seq<2>, tla::seq<3>,
                                     tla::seq<4>, tla::seq<4>, tla::seq<5, 6>, tla::seq<7>>;
            using AddScalar = Fusion::VisitorCompute<Fusion::Adds, Element, Element>;
            using EVG = Fusion::TopologicalVisitor<Edges, Fusion::VisitorAccLoad<Element>,
                                                   Fusion::VisitorCompute<Fusion::Mins, Element, Element>,
                                                   Fusion::VisitorCompute<Fusion::Maxs, Element, Element>,
                                                   Fusion::VisitorCompute<Fusion::Muls, Element, Element>,
                                                   Fusion::VisitorCompute<Fusion::Exp, Element>, AddScalar,
                                                   AddScalar, Fusion::VisitorCompute<Fusion::Div, Element>,
                                                   Fusion::VisitorAuxStore<Element, LayoutMN>>;
            constexpr uint32_t CL = compute_length_for(8, ArchTag::UB_SIZE);
            typename EVG::Arguments args{{},        {{8.8f}}, {{-8.8f}}, {{2.0f}},          {},
                                         {{-1.0f}}, {{1.0f}}, {},        {deviceD, layoutD}};
            launch<Lib, false, Epilogue::EpilogueVisitor<>, CL, EVG>(stream, shape, deviceA, deviceB, args,
                                                                     blockDim);
            out.compute_length = CL;
            break;
        }
    }

    out.report = hw::device().last_report();
    out.sync = sync_sequences(hw::device().last_trace());
    out.d.resize(mn);
    check(
        aclrtMemcpy(out.d.data(), mn * sizeof(float), deviceD, mn * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST),
        "aclrtMemcpy (D)");
    out.tiles_m = tiles_m;
    out.tiles_n = tiles_n;
    for (uint8_t* p : {deviceA, deviceB, deviceD, deviceX})
        if (p) check(aclrtFree(p), "aclrtFree");
    check(aclrtDestroyStream(stream), "aclrtDestroyStream");
    return out;
}

}  // namespace evg::upstream::programs
