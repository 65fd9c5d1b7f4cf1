// The GEMM + DynamicVisitor kernels of run_on_model, templated on (arch, path, A/B type, C type, L1 tile) and
// instantiated per arch in run_a2.cpp / run_950.cpp.
#pragma once
#include <fmt/format.h>

#include <type_traits>
#include <vector>

#include "acl/acl.h"
#include "catlass/epilogue/block/block_epilogue.hpp"
#include "catlass/gemm/gemm.hpp"
#include "evg/graph/dynamic_visitor.hpp"
#include "evg/graph/error.hpp"
#include "evg/graph/run.hpp"
#include "evg/hw/device.hpp"

namespace evg::graph::detail {

template <class ArchTag, bool USE_UB, class EAB, class EC, uint32_t L1M, uint32_t L1N, uint32_t L1K,
          uint32_t SwizzleOffset = 3, uint32_t SwizzleDirection = 0>
void launch_kernel(const Problem& p, const DeviceBuffers& b, const RunOptions& options) {
    using namespace Catlass;
    using L1TileShape = tla::tuple<tla::Int<L1M>, tla::Int<L1N>, tla::Int<L1K>>;
    using L0TileShape = tla::tuple<tla::Int<L1M>, tla::Int<L1N>, tla::Int<32>>;
    using BlockMmad =
        Gemm::Block::BlockMmadTla<Gemm::MmadPingpong<ArchTag, true>, L1TileShape, L0TileShape, EAB, EAB, EC>;
    using EVG = DynamicVisitor<ArchTag, EC, USE_UB>;
    using BlockEpilogue =
        Epilogue::Block::BlockEpilogue<Epilogue::EpilogueVisitor<USE_UB>, ArchTag, tla::Int<0>, EVG, EC>;
    using BlockScheduler = Gemm::Block::GemmIdentityBlockSwizzle<SwizzleOffset, SwizzleDirection>;
    using Kernel =
        std::conditional_t<USE_UB,
                           Gemm::Kernel::BasicMatmulTlaUbVisitor<BlockMmad, BlockEpilogue, BlockScheduler>,
                           Gemm::Kernel::BasicMatmulTlaVisitor<BlockMmad, BlockEpilogue, BlockScheduler>>;

    const auto m = static_cast<uint32_t>(p.m), n = static_cast<uint32_t>(p.n), k = static_cast<uint32_t>(p.k);
    typename EVG::Arguments evg_args{&p.graph, std::vector<GM_ADDR>(b.tensors.begin(), b.tensors.end()),
                                     p.compute_length, options.source};
    typename Kernel::Arguments args{GemmCoord(m, n, k),
                                    b.a,
                                    tla::MakeLayout<EAB, layout::RowMajor>(m, k),
                                    b.b,
                                    tla::MakeLayout<EAB, layout::RowMajor>(k, n),
                                    nullptr,
                                    tla::MakeLayout<EC, layout::RowMajor>(m, n),
                                    nullptr,
                                    evg_args};
    Gemm::Device::DeviceGemm<Kernel> op;
    if (op.CanImplement(args) != Status::kSuccess)
        throw GraphError(
            "run_on_model: the kernel cannot implement the problem (a tensor pointer is missing)");
    const size_t workspace_bytes = op.GetWorkspaceSize(args);
    uint8_t* workspace = nullptr;
    if (workspace_bytes > 0)
        workspace = static_cast<uint8_t*>(hw::device().malloc(workspace_bytes, "workspace"));
    if (op.Initialize(args, workspace) != Status::kSuccess)
        throw GraphError("run_on_model: DeviceGemm::Initialize failed");
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    op(stream, options.block_dim);
    aclrtDestroyStream(stream);
}

// The (A/B, C) element types and L1 tiles run_on_model instantiates.
template <class ArchTag, bool USE_UB>
void launch_path(const Problem& p, const DeviceBuffers& b, const RunOptions& options) {
    const auto with_types = [&]<class EAB, class EC>() {
        const TileShape t = p.tile;
        constexpr TileShape d = default_tile(ArchTag::EVG_ARCH);
        if (options.swizzle == Swizzle::Cols1) {
            if (t == TileShape{32, 64, 64})
                return launch_kernel<ArchTag, USE_UB, EAB, EC, 32, 64, 64, 1, 1>(p, b, options);
            throw GraphError("run_on_model: the column swizzle has a kernel only for the 32x64x64 tile");
        }
        if (t == d) return launch_kernel<ArchTag, USE_UB, EAB, EC, d.m, d.n, d.k>(p, b, options);
        if (t == TileShape{32, 64, 64})
            return launch_kernel<ArchTag, USE_UB, EAB, EC, 32, 64, 64>(p, b, options);
        throw GraphError(
            fmt::format("run_on_model: no kernel for the L1 tile {}x{}x{} on {} (supported: {}x{}x{} "
                        "and 32x64x64)",
                        t.m, t.n, t.k, hw::arch_name(ArchTag::EVG_ARCH), d.m, d.n, d.k));
    };
    if (p.a != p.b) throw GraphError("run_on_model: A and B must have the same element type");
    using D = DType;
    if (p.a == D::f16 && p.c == D::f32) return with_types.template operator()<half, float>();
    if (p.a == D::f16 && p.c == D::f16) return with_types.template operator()<half, half>();
    if (p.a == D::bf16 && p.c == D::f32) return with_types.template operator()<bfloat16_t, float>();
    if (p.a == D::f32 && p.c == D::f32) return with_types.template operator()<float, float>();
    if (p.a == D::i8 && p.c == D::i32) return with_types.template operator()<int8_t, int32_t>();
    throw GraphError(
        fmt::format("run_on_model: no kernel for A/B {} and C {} (supported: half/float, half/half, "
                    "bfloat16/float, float/float, int8/int32)",
                    hw::dtype_name(p.a), hw::dtype_name(p.c)));
}

}  // namespace evg::graph::detail
