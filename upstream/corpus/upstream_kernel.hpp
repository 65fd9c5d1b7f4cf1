// The GEMM + EVG kernel of the upstream corpus, in upstream Catlass's names, for Ascend950: the kernel
// run_on_model builds with evgcheck's copy, so that the two are differential partners on the same problem.
// BlockMmadTla with the instance's kernel configuration (a `MmadConfig` the emitter writes from
// graph::KernelConfig: the dispatch policy MmadPingpong or MmadPingpongMutex with its parameters, L0 K, the
// layouts of A and B) and L1 tile, upstream's tile copy of the path (PackedTileCopyTla for the GM hand-over,
// PackedTileCopyTlaToUB split by rows for the UB path, as upstream's examples choose),
// GemmIdentityBlockSwizzle<3, 0>, BlockEpilogue<EpilogueVisitor<USE_UB>, ArchTag, tla::Int<CL>, EVG, EC>,
// BasicMatmulTlaVisitor or BasicMatmulTlaUbVisitor, DeviceGemm.
//
// The corpus's harness (upstream_harness.hpp) includes this file; `evgcheck check --catlass-root` writes its
// text into every reproducer program it prints (corpus_emit.hpp), so that the program stands alone.
#pragma once
#include <cstdint>
#include <type_traits>

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
#include "tla/layout.hpp"

namespace evg_upstream_corpus {

// A kernel configuration: `template <class ArchTag> using DispatchPolicy`, `LayoutA`, `LayoutB` and `L0K`.
// The corpus's instances and reproducer programs each write theirs (corpus_emit.cpp).
template <bool USE_UB, class EAB, class EC, uint32_t L1M, uint32_t L1N, uint32_t L1K, uint32_t CL, class EVG,
          class MmadConfig>
struct UpstreamGemm {
    using ArchTag = Catlass::Arch::Ascend950;
    using LayoutTag = Catlass::layout::RowMajor;  // C's and the EVG's
    using LayoutA = typename MmadConfig::LayoutA;
    using LayoutB = typename MmadConfig::LayoutB;
    using L1TileShape = tla::Shape<tla::Int<L1M>, tla::Int<L1N>, tla::Int<L1K>>;
    using L0TileShape = tla::Shape<tla::Int<L1M>, tla::Int<L1N>, tla::Int<MmadConfig::L0K>>;
    using TileCopyGm =
        Catlass::Gemm::Tile::PackedTileCopyTla<ArchTag, EAB, LayoutA, EAB, LayoutB, EC, LayoutTag>;
    using TileCopyUb =
        Catlass::Gemm::Tile::PackedTileCopyTlaToUB<ArchTag, EAB, LayoutA, EAB, LayoutB, EC, LayoutTag, void,
                                                   Catlass::Gemm::Tile::CopyL0CToUBMode::SPLIT_M>;
    using BlockMmad =
        Catlass::Gemm::Block::BlockMmadTla<typename MmadConfig::template DispatchPolicy<ArchTag>, L1TileShape,
                                           L0TileShape, EAB, EAB, EC, void,
                                           std::conditional_t<USE_UB, TileCopyUb, TileCopyGm>>;
    using BlockEpilogue = Catlass::Epilogue::Block::BlockEpilogue<Catlass::Epilogue::EpilogueVisitor<USE_UB>,
                                                                  ArchTag, tla::Int<CL>, EVG, EC>;
    using Sched = Catlass::Gemm::Block::GemmIdentityBlockSwizzle<3, 0>;
    using Kernel =
        std::conditional_t<USE_UB,
                           Catlass::Gemm::Kernel::BasicMatmulTlaUbVisitor<BlockMmad, BlockEpilogue, Sched>,
                           Catlass::Gemm::Kernel::BasicMatmulTlaVisitor<BlockMmad, BlockEpilogue, Sched>>;
    using Op = Catlass::Gemm::Device::DeviceGemm<Kernel>;

    // The kernel's arguments: an m x k A and a k x n B in the configuration's layouts, and the EVG's.
    static typename Kernel::Arguments arguments(uint32_t m, uint32_t n, uint32_t k, GM_ADDR a, GM_ADDR b,
                                                const typename EVG::Arguments& evg) {
        return typename Kernel::Arguments{Catlass::GemmCoord{m, n, k},
                                          a,
                                          tla::MakeLayout<EAB, LayoutA>(m, k),
                                          b,
                                          tla::MakeLayout<EAB, LayoutB>(k, n),
                                          nullptr,
                                          {},
                                          nullptr,
                                          evg};
    }
};

}  // namespace evg_upstream_corpus
