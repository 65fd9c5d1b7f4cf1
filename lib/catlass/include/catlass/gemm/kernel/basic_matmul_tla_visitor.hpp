// BasicMatmulTlaVisitor<BlockMmad, BlockEpilogue, BlockScheduler> (MASTER, GM workspace path,
// docs/evg-semantics.md §6.1).
//
// The AIC computes each (L1M x L1N) block of C into a full-size GM workspace (ElementC, row-major, ld = n)
// and signals the block with a reverse-depth-15 cross-core flag (mode 2, set on PIPE_FIX after the Fixpipe);
// each AIV waits for it on PIPE_MTE2 and runs the block epilogue on its half of the block's rows. Blocks are
// dealt round-robin: AI core i takes loop indices i, i + blockNum, ...; its two AIVs take the same indices.
// Workspace: [C: m x n ElementC][EVG workspaces, each rounded to 32 B].
//
// Deliberate differences from upstream: CanImplement also rejects a non-null ptrBias (the model's BlockMmad
// has no bias) and K == 0 (there would be no product to hand over); EVG::initialize_workspace really
// recurses.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "catlass/arch/cross_core_sync.hpp"
#include "catlass/arch/resource.hpp"
#include "catlass/catlass.hpp"
#include "catlass/coord.hpp"
#include "catlass/tla/layout.hpp"
#include "catlass/tla/tensor.hpp"

namespace Catlass::Gemm::Kernel {

namespace detail {
// A tla row-major layout with the rows, columns and row stride of any layout object.
template <class Element, class Layout>
CATLASS_DEVICE tla::RowMajorLayout ToTlaLayout(const Layout& l) {
    return tla::MakeLayout<Element, layout::RowMajor>(Catlass::detail::layout_rows(l),
                                                      Catlass::detail::layout_cols(l),
                                                      Catlass::detail::layout_row_stride(l));
}
template <class Element>
CATLASS_DEVICE AscendC::GlobalTensor<Element> MakeGm(GM_ADDR p) {
    AscendC::GlobalTensor<Element> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ Element*>(p));
    return g;
}
}  // namespace detail

template <class BlockMmad_, class BlockEpilogue_, class BlockScheduler_>
class BasicMatmulTlaVisitor {
  public:
    using BlockMmad = BlockMmad_;
    using ArchTag = typename BlockMmad::ArchTag;
    using L1TileShape = typename BlockMmad::L1TileShape;
    using ElementA = typename BlockMmad::ElementA;
    using LayoutA = typename BlockMmad::LayoutA;
    using ElementB = typename BlockMmad::ElementB;
    using LayoutB = typename BlockMmad::LayoutB;
    using ElementC = typename BlockMmad::ElementC;
    using LayoutC = typename BlockMmad::LayoutC;
    using BlockEpilogue = BlockEpilogue_;
    using EVG = typename BlockEpilogue::EVG;
    using EpilogueParams = typename BlockEpilogue::Params;
    using BlockScheduler = BlockScheduler_;

    static_assert(!BlockEpilogue::USE_UB_WORKSPACE,
                  "BasicMatmulTlaVisitor: the GM workspace kernel needs a BlockEpilogue with "
                  "EpilogueVisitor<false>; use BasicMatmulTlaUbVisitor for EpilogueVisitor<true>");
    static_assert(std::is_same_v<typename BlockEpilogue::ArchTag, ArchTag>,
                  "BasicMatmulTlaVisitor: BlockMmad and BlockEpilogue must target the same ArchTag");
    static_assert(
        std::is_same_v<typename BlockEpilogue::ElementC, ElementC>,
        "BasicMatmulTlaVisitor: the BlockEpilogue's ElementC must be the BlockMmad's ElementC (the C "
        "workspace type)");

    struct Arguments {
        GemmCoord problemShape;
        GM_ADDR ptrA;
        LayoutA layoutA;
        GM_ADDR ptrB;
        LayoutB layoutB;
        GM_ADDR ptrC;     // accepted and ignored: the output is written by the EVG's VisitorAuxStore
        LayoutC layoutC;  // accepted and ignored
        GM_ADDR ptrBias{nullptr};
        typename EVG::Arguments evg_args;
    };

    struct Params {
        GemmCoord problemShape;
        GM_ADDR ptrA;
        LayoutA layoutA;
        GM_ADDR ptrB;
        LayoutB layoutB;
        GM_ADDR ptrBias;
        GM_ADDR ptrWorkspace;
        EpilogueParams epilogueParams;
    };

    static size_t GetCWorkspaceSize(const GemmCoord& shape) {
        return sizeof(ElementC) * size_t(shape.m()) * size_t(shape.n());
    }

    static bool CanImplement(const Arguments& args) {
        return args.ptrBias == nullptr && args.problemShape.k() > 0 &&
               EVG::can_implement(args.problemShape, args.evg_args);
    }

    static size_t GetWorkspaceSize(const Arguments& args) {
        return GetCWorkspaceSize(args.problemShape) +
               EVG::get_workspace_size(args.problemShape, args.evg_args);
    }

    // Host side. workspace: GetWorkspaceSize(args) bytes of device memory.
    static Params ToUnderlyingArguments(const Arguments& args, uint8_t* workspace) {
        uint8_t* evgWorkspace = workspace ? workspace + GetCWorkspaceSize(args.problemShape) : nullptr;
        EVG::initialize_workspace(args.problemShape, args.evg_args, evgWorkspace);
        return Params{
            args.problemShape,
            args.ptrA,
            args.layoutA,
            args.ptrB,
            args.layoutB,
            args.ptrBias,
            workspace,
            EpilogueParams{EVG::to_underlying_arguments(args.problemShape, args.evg_args, evgWorkspace)}};
    }

    CATLASS_DEVICE BasicMatmulTlaVisitor() = default;

    CATLASS_DEVICE void operator()(const Params& params) {
        if ASCEND_IS_AIC {
            RunAic(params);
        } else {
            RunAiv(params);
        }
    }

  protected:
    static constexpr uint32_t L1M = BlockMmad::L1M;
    static constexpr uint32_t L1N = BlockMmad::L1N;

    CATLASS_DEVICE BlockScheduler MakeScheduler(const Params& params) const {
        return BlockScheduler(params.problemShape, MatrixCoord(L1M, L1N));
    }

    // The C workspace as a tla tensor: m x n, ld = n.
    CATLASS_DEVICE auto MakeTensorC(const Params& params) const {
        const GemmCoord& s = params.problemShape;
        return tla::MakeTensor(detail::MakeGm<ElementC>(params.ptrWorkspace),
                               tla::MakeLayout<ElementC, layout::RowMajor>(s.m(), s.n()));
    }

    CATLASS_DEVICE void RunAic(const Params& params) {
        BlockScheduler scheduler = MakeScheduler(params);
        const uint32_t coreLoops = scheduler.GetCoreLoops();
        auto gmA = detail::MakeGm<ElementA>(params.ptrA);
        auto gmB = detail::MakeGm<ElementB>(params.ptrB);
        // L2 hint as upstream: a matrix read by only one block row/column need not stay in the cache.
        if (scheduler.loopsMN.row() == 1) gmB.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
        if (scheduler.loopsMN.column() == 1) gmA.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
        auto tensorA = tla::MakeTensor(gmA, detail::ToTlaLayout<ElementA>(params.layoutA));
        auto tensorB = tla::MakeTensor(gmB, detail::ToTlaLayout<ElementB>(params.layoutB));
        auto tensorC = MakeTensorC(params);
        Arch::CrossCoreFlagWithReverse<> flagAicFinishStore{FLAG_AIC_FINISH_STORE,
                                                            FLAG_AIC_FINISH_STORE_REVERSE};
        {
            BlockMmad blockMmad(resource);
            for (uint32_t loopIdx = uint32_t(AscendC::GetBlockIdx()); loopIdx < coreLoops;
                 loopIdx += uint32_t(AscendC::GetBlockNum())) {
                GemmCoord blockCoord = scheduler.GetBlockCoord(loopIdx);
                GemmCoord actual = scheduler.GetActualBlockShape(blockCoord);
                MatrixCoord offsetC(blockCoord.m() * L1M, blockCoord.n() * L1N);
                auto tensorBlockA = tla::GetTile(tensorA, MatrixCoord(offsetC.row(), 0), actual.GetCoordMK());
                auto tensorBlockB =
                    tla::GetTile(tensorB, MatrixCoord(0, offsetC.column()), actual.GetCoordKN());
                auto tensorBlockC = tla::GetTile(tensorC, offsetC, actual.GetCoordMN());
                blockMmad(tensorBlockA, tensorBlockB, tensorBlockC, actual);
                Arch::CrossCoreSetFlagWithReverse<0x2, AscendC::PIPE_FIX>(flagAicFinishStore);
            }
            AscendC::PipeBarrier<AscendC::PIPE_ALL>();
        }
    }

    CATLASS_DEVICE void RunAiv(const Params& params) {
        BlockScheduler scheduler = MakeScheduler(params);
        const uint32_t coreLoops = scheduler.GetCoreLoops();
        const uint32_t aicoreIndex = uint32_t(AscendC::GetBlockIdx() / AscendC::GetSubBlockNum());
        auto tensorC = MakeTensorC(params);
        const GemmCoord blockShape(L1M, L1N, BlockMmad::L1K);
        Arch::CrossCoreFlagWithReverse<> flagAicFinishStore{FLAG_AIC_FINISH_STORE,
                                                            FLAG_AIC_FINISH_STORE_REVERSE};
        {
            BlockEpilogue blockEpilogue(resource, params.epilogueParams);
            for (uint32_t loopIdx = aicoreIndex; loopIdx < coreLoops;
                 loopIdx += uint32_t(AscendC::GetBlockNum())) {
                GemmCoord blockCoord = scheduler.GetBlockCoord(loopIdx);
                GemmCoord actual = scheduler.GetActualBlockShape(blockCoord);
                auto tensorBlockC = tla::GetTile(
                    tensorC, MatrixCoord(blockCoord.m() * L1M, blockCoord.n() * L1N), actual.GetCoordMN());
                Arch::CrossCoreWaitFlagWithReverse<0x2, AscendC::PIPE_MTE2>(flagAicFinishStore);
                blockEpilogue(blockShape, blockCoord, actual, tensorBlockC);
            }
            AscendC::PipeBarrier<AscendC::PIPE_ALL>();
        }
    }

    static constexpr uint16_t FLAG_AIC_FINISH_STORE = 0;
    static constexpr uint16_t FLAG_AIC_FINISH_STORE_REVERSE = 1;

    Arch::Resource<ArchTag> resource;
};

}  // namespace Catlass::Gemm::Kernel
