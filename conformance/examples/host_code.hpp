// The host side of the seed examples, written as the seeds write it: ACL stream, DeviceGemm adapter,
// GetWorkspaceSize / aclrtMalloc / Initialize / launch / aclrtSynchronizeStream / aclrtFree.
//   RunMatmulVisitor  seed 000 (L1 lineage, AtlasA2): BlockMmad over GemmType operands, BlockEpilogue<
//                     EpilogueAtlasA2Visitor, CType, Int<CL>, EVT>, MatmulVisitor, Arguments
//                     {problemShape, deviceA, deviceB, evt_args}, launched as matmulOp(stream, aicCoreNum,
//                     fftsAddr).
//   RunTlaVisitor     seed 003 (MASTER): BlockMmadTla, BlockEpilogue<EpilogueVisitor<USE_UB>, ArchTag,
//                     Int<CL>, EVG, ElementC>, BasicMatmulTlaVisitor (GM workspace) or
//                     BasicMatmulTlaUbVisitor (UB workspace), Arguments {problemShape, deviceA, layoutA,
//                     deviceB, layoutB, deviceD, layoutD, nullptr, evg_args}.
// Both return the machine's report of the launch (evg::hw::device().last_report()).
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "acl/acl.h"
#include "catlass/epilogue/block/block_epilogue.hpp"
#include "catlass/epilogue/fusion/compute_length.hpp"
#include "catlass/epilogue/fusion/fusion.hpp"
#include "catlass/gemm/gemm.hpp"
#include "evg/hw/device.hpp"
#include "example_case.hpp"
#include "kernel_operator.h"

namespace evg::examples {

using namespace Catlass;

// CL_ = 0 selects the seed's choice: the largest computeLength that fits (max_compute_length, §9).
template <class EVG, class ArchTag, bool USE_UB, uint32_t CL_>
inline constexpr uint32_t kComputeLength = CL_ != 0
                                               ? CL_
                                               : Epilogue::Fusion::max_compute_length<EVG, ArchTag, USE_UB>();

template <class EVT, uint32_t computeLength, class ElementAB, class ElementC>
hw::Report RunMatmulVisitor(GemmCoord problemShape, uint8_t* deviceA, uint8_t* deviceB,
                            const typename EVT::Arguments& evt_args) {
    using LayoutC = layout::RowMajor;
    using AType = Gemm::GemmType<ElementAB, layout::RowMajor>;
    using BType = Gemm::GemmType<ElementAB, layout::RowMajor>;
    using CType = Gemm::GemmType<ElementC, LayoutC>;
    using BlockMmad = Gemm::Block::BlockMmad<Gemm::MmadAtlasA2Pingpong<true>, GemmShape<kL1M, kL1N, kL1K>,
                                             GemmShape<kL1M, kL1N, kL0K>, AType, BType, CType>;
    using BlockEpilogue =
        Epilogue::Block::BlockEpilogue<Epilogue::EpilogueAtlasA2Visitor, CType, tla::Int<computeLength>, EVT>;
    using BlockScheduler = typename Gemm::Block::GemmIdentityBlockSwizzle<3, 0>;
    using MatmulKernel = Gemm::Kernel::MatmulVisitor<BlockMmad, BlockEpilogue, BlockScheduler>;

    aclrtStream stream;
    EXPECT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    typename MatmulKernel::Arguments arguments{problemShape, deviceA, deviceB, evt_args};
    using MatmulAdapter = Gemm::Device::DeviceGemm<MatmulKernel>;
    MatmulAdapter matmulOp;
    EXPECT_EQ(matmulOp.CanImplement(arguments), Status::kSuccess);
    size_t sizeWorkspace = matmulOp.GetWorkspaceSize(arguments);
    EXPECT_EQ(sizeWorkspace, size_t(problemShape.m()) * problemShape.n() * sizeof(ElementC));
    uint8_t* deviceWorkspace{nullptr};
    if (sizeWorkspace > 0) {
        EXPECT_EQ(
            aclrtMalloc(reinterpret_cast<void**>(&deviceWorkspace), sizeWorkspace, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
    }
    EXPECT_EQ(matmulOp.Initialize(arguments, deviceWorkspace), Status::kSuccess);
    uint64_t fftsAddr = 0;
    uint32_t aicCoreNum = kBlockDim;
    EXPECT_EQ(matmulOp(stream, aicCoreNum, fftsAddr), Status::kSuccess);
    aclrtSynchronizeStream(stream);  // the report is checked by the caller, kind by kind
    hw::Report report = hw::device().last_report();
    if (sizeWorkspace > 0) {
        EXPECT_EQ(aclrtFree(deviceWorkspace), ACL_SUCCESS);
    }
    aclrtDestroyStream(stream);
    return report;
}

template <class ArchTag, class EVG, bool USE_UB, uint32_t computeLength, class ElementAB, class ElementC>
hw::Report RunTlaVisitor(GemmCoord problemShape, uint8_t* deviceA, uint8_t* deviceB, uint8_t* deviceD,
                         const typename EVG::Arguments& evg_args) {
    using L1TileShape = tla::tuple<tla::Int<kL1M>, tla::Int<kL1N>, tla::Int<kL1K>>;
    using L0TileShape = tla::tuple<tla::Int<kL1M>, tla::Int<kL1N>, tla::Int<kL0K>>;
    using DispatchPolicy = Gemm::MmadPingpong<ArchTag, true>;
    using BlockMmad =
        Gemm::Block::BlockMmadTla<DispatchPolicy, L1TileShape, L0TileShape, ElementAB, ElementAB, ElementC>;
    using EpilogueDispatchPolicy = Epilogue::EpilogueVisitor<USE_UB>;
    using BlockEpilogue = Epilogue::Block::BlockEpilogue<EpilogueDispatchPolicy, ArchTag,
                                                         tla::Int<computeLength>, EVG, ElementC>;
    using BlockScheduler = typename Gemm::Block::GemmIdentityBlockSwizzle<3, 0>;
    using MatmulKernel =
        std::conditional_t<USE_UB,
                           Gemm::Kernel::BasicMatmulTlaUbVisitor<BlockMmad, BlockEpilogue, BlockScheduler>,
                           Gemm::Kernel::BasicMatmulTlaVisitor<BlockMmad, BlockEpilogue, BlockScheduler>>;

    const uint32_t m = problemShape.m(), n = problemShape.n(), k = problemShape.k();
    auto layoutA = tla::MakeLayout<ElementAB, layout::RowMajor>(m, k);
    auto layoutB = tla::MakeLayout<ElementAB, layout::RowMajor>(k, n);
    auto layoutD = tla::MakeLayout<ElementC, layout::RowMajor>(m, n);

    aclrtStream stream;
    EXPECT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    typename MatmulKernel::Arguments arguments{problemShape, deviceA, layoutA, deviceB, layoutB,
                                               deviceD,      layoutD, nullptr, evg_args};
    Gemm::Device::DeviceGemm<MatmulKernel> matmulOp;
    EXPECT_EQ(matmulOp.CanImplement(arguments), Status::kSuccess);
    size_t sizeWorkspace = matmulOp.GetWorkspaceSize(arguments);
    EXPECT_EQ(sizeWorkspace, USE_UB ? 0u : size_t(m) * n * sizeof(ElementC));
    uint8_t* deviceWorkspace{nullptr};
    if (sizeWorkspace > 0) {
        EXPECT_EQ(
            aclrtMalloc(reinterpret_cast<void**>(&deviceWorkspace), sizeWorkspace, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
    }
    EXPECT_EQ(matmulOp.Initialize(arguments, deviceWorkspace), Status::kSuccess);
    // The UB-path example launches min(aicCoreNum, tasks) blocks (§6.2).
    const uint32_t tasks = CeilDiv(m, kL1M) * CeilDiv(n, kL1N);
    const uint32_t blockDim = USE_UB ? std::min(kBlockDim, tasks) : kBlockDim;
    EXPECT_EQ(matmulOp(stream, blockDim), Status::kSuccess);
    aclrtSynchronizeStream(stream);  // the report is checked by the caller, kind by kind
    hw::Report report = hw::device().last_report();
    if (sizeWorkspace > 0) {
        EXPECT_EQ(aclrtFree(deviceWorkspace), ACL_SUCCESS);
    }
    aclrtDestroyStream(stream);
    return report;
}

// The chip's name in a problem line.
template <class ArchTag>
constexpr const char* arch_name() {
    return std::is_same_v<ArchTag, Catlass::Arch::Ascend950> ? "Ascend950" : "AtlasA2";
}

}  // namespace evg::examples

// The shapes every example runs (gtest names spell them out). `Fn<ArchTag, CL>(shape)` runs one case; CL 0 is
// the seed's own choice (max_compute_length).
//   m65_n100_k40 CL 256   M, N, K not multiples of the 32x64x64 tile, N not a multiple of 32 elements, a 3x2
//   grid
//                         on 4 cores, several row groups per AIV (both callbacks sets)
//   m1_n100_k40  CL 256   M = 1: AIV 1 of every block gets 0 rows
//   m65_n1_k40   CL 256   N = 1
//   m40_n100_k40 CL 32    cols 64 and 36 > CL: the column-split path
//   m65_n100_k40 CL max   the seed's computeLength: one row group per AIV and block
// NOLINTBEGIN(bugprone-macro-parentheses): the arguments are test names and template arguments
#define EVG_EXAMPLE_CASES(Suite, Fn, Chip, Dtype)      \
    TEST(Suite, Chip##_##Dtype##_m65_n100_k40_CL256) { \
        Fn<Catlass::Arch::Chip, 256>({65, 100, 40});   \
    }                                                  \
    TEST(Suite, Chip##_##Dtype##_m1_n100_k40_CL256) {  \
        Fn<Catlass::Arch::Chip, 256>({1, 100, 40});    \
    }                                                  \
    TEST(Suite, Chip##_##Dtype##_m65_n1_k40_CL256) {   \
        Fn<Catlass::Arch::Chip, 256>({65, 1, 40});     \
    }                                                  \
    TEST(Suite, Chip##_##Dtype##_m40_n100_k40_CL32) {  \
        Fn<Catlass::Arch::Chip, 32>({40, 100, 40});    \
    }                                                  \
    TEST(Suite, Chip##_##Dtype##_m65_n100_k40_CLmax) { \
        Fn<Catlass::Arch::Chip, 0>({65, 100, 40});     \
    }
// NOLINTEND(bugprone-macro-parentheses)
