// MatmulVisitor<BlockMmad, BlockEpilogue, BlockScheduler> (L1 lineage, seed 000, docs/evg-semantics.md §6.3).
//
// The same GM workspace protocol as BasicMatmulTlaVisitor, in the L1 spelling: Arguments are
// {problemShape, ptrA, ptrB, evg_args}; A and B are dense row-major (RowMajor{m, k}, RowMajor{k, n}); the
// BlockMmad is the GemmType form and the BlockEpilogue the L1 form
// BlockEpilogue<EpilogueAtlasA2Visitor, CType, Int<CL>, EVG>. The AIC sets the reverse-depth-15 mode-2 flag
// on PIPE_FIX after each block; the AIV waits on PIPE_MTE3 (the L1 choice; the reverse flag is set on MTE3
// too). Workspace: [C: m x n ElementC, ld = n][EVG workspaces].
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "catlass/arch/cross_core_sync.hpp"
#include "catlass/arch/resource.hpp"
#include "catlass/catlass.hpp"
#include "catlass/coord.hpp"
#include "catlass/gemm/kernel/basic_matmul_tla_visitor.hpp"
#include "catlass/layout/layout.hpp"
#include "catlass/tla/layout.hpp"
#include "catlass/tla/tensor.hpp"

namespace Catlass::Gemm::Kernel {

template <class BlockMmad_, class BlockEpilogue_, class BlockScheduler_>
class MatmulVisitor {
  public:
    using BlockMmad = BlockMmad_;
    using ArchTag = typename BlockMmad::ArchTag;
    using L1TileShape = typename BlockMmad::L1TileShape;
    using ElementA = typename BlockMmad::ElementA;
    using ElementB = typename BlockMmad::ElementB;
    using ElementC = typename BlockMmad::ElementC;
    using LayoutA = layout::RowMajor;
    using LayoutB = layout::RowMajor;
    using LayoutC = layout::RowMajor;
    using BlockEpilogue = BlockEpilogue_;
    using EVG = typename BlockEpilogue::EVG;
    using EpilogueParams = typename BlockEpilogue::Params;
    using BlockScheduler = BlockScheduler_;

    static_assert(!BlockEpilogue::USE_UB_WORKSPACE,
                  "MatmulVisitor: the L1 kernel hands C over through the GM workspace; use a GM-workspace "
                  "BlockEpilogue (EpilogueAtlasA2Visitor)");
    static_assert(std::is_same_v<typename BlockEpilogue::ArchTag, ArchTag>,
                  "MatmulVisitor: BlockMmad and BlockEpilogue must target the same ArchTag");
    static_assert(std::is_same_v<typename BlockEpilogue::ElementC, ElementC>,
                  "MatmulVisitor: the BlockEpilogue's ElementC must be the BlockMmad's ElementC");

    struct Arguments {
        GemmCoord problemShape;
        GM_ADDR ptrA;
        GM_ADDR ptrB;
        typename EVG::Arguments evg_args;
    };

    struct Params {
        GemmCoord problemShape;
        GM_ADDR ptrA;
        LayoutA layoutA;
        GM_ADDR ptrB;
        LayoutB layoutB;
        GM_ADDR ptrWorkspace;
        EpilogueParams epilogueParams;
    };

    static size_t GetCWorkspaceSize(const GemmCoord& shape) {
        return sizeof(ElementC) * size_t(shape.m()) * size_t(shape.n());
    }

    static bool CanImplement(const Arguments& args) {
        return args.problemShape.k() > 0 && EVG::can_implement(args.problemShape, args.evg_args);
    }

    static size_t GetWorkspaceSize(const Arguments& args) {
        return GetCWorkspaceSize(args.problemShape) +
               EVG::get_workspace_size(args.problemShape, args.evg_args);
    }

    static Params ToUnderlyingArguments(const Arguments& args, uint8_t* workspace) {
        const GemmCoord& s = args.problemShape;
        uint8_t* evgWorkspace = workspace ? workspace + GetCWorkspaceSize(s) : nullptr;
        EVG::initialize_workspace(s, args.evg_args, evgWorkspace);
        return Params{s,
                      args.ptrA,
                      LayoutA(s.m(), s.k()),
                      args.ptrB,
                      LayoutB(s.k(), s.n()),
                      workspace,
                      EpilogueParams{EVG::to_underlying_arguments(s, args.evg_args, evgWorkspace)}};
    }

    CATLASS_DEVICE MatmulVisitor() = default;

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
    static constexpr uint16_t FLAG_AIC_FINISH_STORE = 0;
    static constexpr uint16_t FLAG_AIC_FINISH_STORE_REVERSE = 1;

    CATLASS_DEVICE void RunAic(const Params& params) {
        BlockScheduler scheduler(params.problemShape, MatrixCoord(L1M, L1N));
        const uint32_t coreLoops = scheduler.GetCoreLoops();
        auto gmA = detail::MakeGm<ElementA>(params.ptrA);
        auto gmB = detail::MakeGm<ElementB>(params.ptrB);
        auto gmC = detail::MakeGm<ElementC>(params.ptrWorkspace);
        const LayoutC layoutC(params.problemShape.m(), params.problemShape.n());
        Arch::CrossCoreFlagWithReverse<> flagAicFinishStore{FLAG_AIC_FINISH_STORE,
                                                            FLAG_AIC_FINISH_STORE_REVERSE};
        {
            BlockMmad blockMmad(resource);
            for (uint32_t loopIdx = uint32_t(AscendC::GetBlockIdx()); loopIdx < coreLoops;
                 loopIdx += uint32_t(AscendC::GetBlockNum())) {
                GemmCoord blockCoord = scheduler.GetBlockCoord(loopIdx);
                GemmCoord actual = scheduler.GetActualBlockShape(blockCoord);
                MatrixCoord offsetA(blockCoord.m() * L1M, 0), offsetB(0, blockCoord.n() * L1N);
                MatrixCoord offsetC(blockCoord.m() * L1M, blockCoord.n() * L1N);
                blockMmad(gmA[uint64_t(params.layoutA.GetOffset(offsetA))], params.layoutA,
                          gmB[uint64_t(params.layoutB.GetOffset(offsetB))], params.layoutB,
                          gmC[uint64_t(layoutC.GetOffset(offsetC))], layoutC, actual);
                Arch::CrossCoreSetFlagWithReverse<0x2, AscendC::PIPE_FIX>(flagAicFinishStore);
            }
            AscendC::PipeBarrier<AscendC::PIPE_ALL>();
        }
    }

    CATLASS_DEVICE void RunAiv(const Params& params) {
        BlockScheduler scheduler(params.problemShape, MatrixCoord(L1M, L1N));
        const uint32_t coreLoops = scheduler.GetCoreLoops();
        const uint32_t aicoreIndex = uint32_t(AscendC::GetBlockIdx() / AscendC::GetSubBlockNum());
        auto gmC = detail::MakeGm<ElementC>(params.ptrWorkspace);
        const LayoutC layoutC(params.problemShape.m(), params.problemShape.n());
        auto tensorC =
            tla::MakeTensor(gmC, tla::MakeLayout<ElementC, layout::RowMajor>(layoutC.rows(), layoutC.cols()));
        const GemmCoord blockShape(L1M, L1N, BlockMmad::L1K);
        Arch::CrossCoreFlagWithReverse<> flagAicFinishStore{FLAG_AIC_FINISH_STORE,
                                                            FLAG_AIC_FINISH_STORE_REVERSE};
        {
            BlockEpilogue blockEpilogue(resource, params.epilogueParams);
            for (uint32_t loopIdx = aicoreIndex; loopIdx < coreLoops;
                 loopIdx += uint32_t(AscendC::GetBlockNum())) {
                GemmCoord blockCoord = scheduler.GetBlockCoord(loopIdx);
                GemmCoord actual = scheduler.GetActualBlockShape(blockCoord);
                MatrixCoord offsetC(blockCoord.m() * L1M, blockCoord.n() * L1N);
                Arch::CrossCoreWaitFlagWithReverse<0x2, AscendC::PIPE_MTE3>(flagAicFinishStore);
                auto gmBlockC = gmC[uint64_t(layoutC.GetOffset(offsetC))];
                auto layoutBlockC = layoutC.GetTileLayout(actual.GetCoordMN());
                // The L1 BlockEpilogue takes (GM block, its layout); a MASTER-style one takes a tla tile.
                if constexpr (requires {
                                  blockEpilogue(blockShape, blockCoord, actual, gmBlockC, layoutBlockC);
                              }) {
                    blockEpilogue(blockShape, blockCoord, actual, gmBlockC, layoutBlockC);
                } else {
                    blockEpilogue(blockShape, blockCoord, actual,
                                  tla::GetTile(tensorC, offsetC, actual.GetCoordMN()));
                }
            }
            AscendC::PipeBarrier<AscendC::PIPE_ALL>();
        }
    }

    Arch::Resource<ArchTag> resource;
};

}  // namespace Catlass::Gemm::Kernel
