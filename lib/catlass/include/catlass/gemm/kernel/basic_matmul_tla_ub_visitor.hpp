// BasicMatmulTlaUbVisitor<BlockMmad, BlockEpilogue, BlockScheduler> (MASTER, Ascend950 only, UB workspace
// path, docs/evg-semantics.md §6.2, §5.4).
//
// The AIC writes each block of C straight into the AIVs' UBs (Fixpipe L0C->UB, SPLIT_M: rows [0, ceil(m/2))
// to AIV0, the rest to AIV1, both at UB offset 0 with row stride RoundUp<32>(n)); the EVG then starts at UB
// offset L0C_SIZE/2. There is one C region per AIV, so the AIC and the AIVs hand it back and forth with plain
// mode-4 flags (AIC ids 0-15 pair with AIV0's 0-15, AIC ids 16-31 with AIV1's):
//   AIV_FINISH: AIV side id 1 (set on PIPE_V), AIC side ids 1 and 17 (waited on PIPE_FIX): "C region free".
//   AIC_FINISH: AIC side ids 0 and 16 (set on PIPE_FIX), AIV side id 0 (waited on PIPE_V): "C block ready".
// Each AIV gives one initial credit; per block the AIC waits both credits, runs BlockMmad into the UBs and
// sets both ready flags; each AIV waits ready, runs the epilogue and returns the credit. After its loop the
// AIC consumes the last credits, so the counters end at zero on every core, even one with no block.
//
// Before returning the credit the AIV orders its pending MTE3 stores (which may read the C region when a
// store consumes VisitorAccLoad<E, true> directly) before PIPE_V with MTE3_V event 2, then V_MTE3 event 2
// back so that the pair can be reused next block; upstream signals on PIPE_V only (§11.2 item 3), reproduced
// when UpstreamHazards::store_reads_load_unordered is on.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "catlass/arch/arch.hpp"
#include "catlass/arch/cross_core_sync.hpp"
#include "catlass/arch/resource.hpp"
#include "catlass/catlass.hpp"
#include "catlass/coord.hpp"
#include "catlass/epilogue/fusion/upstream_hazards.hpp"
#include "catlass/gemm/kernel/basic_matmul_tla_visitor.hpp"
#include "catlass/tla/layout.hpp"
#include "catlass/tla/tensor.hpp"

namespace Catlass::Gemm::Kernel {

template <class BlockMmad_, class BlockEpilogue_, class BlockScheduler_>
class BasicMatmulTlaUbVisitor {
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

    static_assert(
        std::is_same_v<ArchTag, Arch::Ascend950>,
        "BasicMatmulTlaUbVisitor: the L0C->UB path exists on Ascend950 only; use BasicMatmulTlaVisitor "
        "on AtlasA2");
    static_assert(BlockEpilogue::USE_UB_WORKSPACE,
                  "BasicMatmulTlaUbVisitor: the UB workspace kernel needs a BlockEpilogue with "
                  "EpilogueVisitor<true>");
    static_assert(std::is_same_v<typename BlockEpilogue::ArchTag, ArchTag>,
                  "BasicMatmulTlaUbVisitor: BlockMmad and BlockEpilogue must target the same ArchTag");
    static_assert(std::is_same_v<typename BlockEpilogue::ElementC, ElementC>,
                  "BasicMatmulTlaUbVisitor: the BlockEpilogue's ElementC must be the BlockMmad's ElementC");
    static_assert(
        RoundUp<BYTE_PER_C0>(BlockMmad::L1N) * CeilDiv(BlockMmad::L1M, 2u) * sizeof(ElementC) <=
            ArchTag::L0C_SIZE / 2,
        "BasicMatmulTlaUbVisitor: half a C block (ceil(L1M/2) x RoundUp<32>(L1N)) must fit the UB C "
        "region [0, L0C_SIZE/2)");

    struct Arguments {
        GemmCoord problemShape;
        GM_ADDR ptrA;
        LayoutA layoutA;
        GM_ADDR ptrB;
        LayoutB layoutB;
        GM_ADDR ptrC;     // accepted and ignored
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
        EpilogueParams epilogueParams;
    };

    static bool CanImplement(const Arguments& args) {
        return args.ptrBias == nullptr && args.problemShape.k() > 0 &&
               EVG::can_implement(args.problemShape, args.evg_args);
    }

    // The EVG's workspace only: C never leaves the chip.
    static size_t GetWorkspaceSize(const Arguments& args) {
        return EVG::get_workspace_size(args.problemShape, args.evg_args);
    }

    static Params ToUnderlyingArguments(const Arguments& args, uint8_t* workspace) {
        EVG::initialize_workspace(args.problemShape, args.evg_args, workspace);
        return Params{
            args.problemShape,
            args.ptrA,
            args.layoutA,
            args.ptrB,
            args.layoutB,
            args.ptrBias,
            EpilogueParams{EVG::to_underlying_arguments(args.problemShape, args.evg_args, workspace)}};
    }

    CATLASS_DEVICE BasicMatmulTlaUbVisitor() = default;

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
    static constexpr uint16_t FLAG_AIC_FINISH = 0;  // AIV side; AIC side 0 (AIV0) and 16 (AIV1)
    static constexpr uint16_t FLAG_AIV_FINISH = 1;  // AIV side; AIC side 1 (AIV0) and 17 (AIV1)
    static constexpr uint16_t AIV1_OFFSET = 16;

    CATLASS_DEVICE void RunAic(const Params& params) {
        BlockScheduler scheduler(params.problemShape, MatrixCoord(L1M, L1N));
        const uint32_t coreLoops = scheduler.GetCoreLoops();
        auto gmA = detail::MakeGm<ElementA>(params.ptrA);
        auto gmB = detail::MakeGm<ElementB>(params.ptrB);
        auto tensorA = tla::MakeTensor(gmA, detail::ToTlaLayout<ElementA>(params.layoutA));
        auto tensorB = tla::MakeTensor(gmB, detail::ToTlaLayout<ElementB>(params.layoutB));
        {
            BlockMmad blockMmad(resource);
            for (uint32_t loopIdx = uint32_t(AscendC::GetBlockIdx()); loopIdx < coreLoops;
                 loopIdx += uint32_t(AscendC::GetBlockNum())) {
                GemmCoord blockCoord = scheduler.GetBlockCoord(loopIdx);
                GemmCoord actual = scheduler.GetActualBlockShape(blockCoord);
                auto tensorBlockA =
                    tla::GetTile(tensorA, MatrixCoord(blockCoord.m() * L1M, 0), actual.GetCoordMK());
                auto tensorBlockB =
                    tla::GetTile(tensorB, MatrixCoord(0, blockCoord.n() * L1N), actual.GetCoordKN());
                AscendC::CrossCoreWaitFlag<0x4, AscendC::PIPE_FIX>(FLAG_AIV_FINISH);
                AscendC::CrossCoreWaitFlag<0x4, AscendC::PIPE_FIX>(FLAG_AIV_FINISH + AIV1_OFFSET);
                auto tensorBlockC = BlockEpilogue::GetMmadUbTensor(actual);
                blockMmad(tensorBlockA, tensorBlockB, tensorBlockC, actual);
                AscendC::CrossCoreSetFlag<0x4, AscendC::PIPE_FIX>(FLAG_AIC_FINISH);
                AscendC::CrossCoreSetFlag<0x4, AscendC::PIPE_FIX>(FLAG_AIC_FINISH + AIV1_OFFSET);
            }
            AscendC::CrossCoreWaitFlag<0x4, AscendC::PIPE_FIX>(FLAG_AIV_FINISH);
            AscendC::CrossCoreWaitFlag<0x4, AscendC::PIPE_FIX>(FLAG_AIV_FINISH + AIV1_OFFSET);
            AscendC::PipeBarrier<AscendC::PIPE_ALL>();
        }
    }

    CATLASS_DEVICE void RunAiv(const Params& params) {
        BlockScheduler scheduler(params.problemShape, MatrixCoord(L1M, L1N));
        const uint32_t coreLoops = scheduler.GetCoreLoops();
        const uint32_t aicoreIndex = uint32_t(AscendC::GetBlockIdx() / AscendC::GetSubBlockNum());
        const GemmCoord blockShape(L1M, L1N, BlockMmad::L1K);
        const bool faithful = Epilogue::Fusion::upstream_hazards().store_reads_load_unordered;
        {
            BlockEpilogue blockEpilogue(resource, params.epilogueParams);
            AscendC::CrossCoreSetFlag<0x4, AscendC::PIPE_V>(FLAG_AIV_FINISH);  // initial credit
            for (uint32_t loopIdx = aicoreIndex; loopIdx < coreLoops;
                 loopIdx += uint32_t(AscendC::GetBlockNum())) {
                GemmCoord blockCoord = scheduler.GetBlockCoord(loopIdx);
                GemmCoord actual = scheduler.GetActualBlockShape(blockCoord);
                auto tensorBlockC = BlockEpilogue::GetMmadUbTensor(actual);
                AscendC::CrossCoreWaitFlag<0x4, AscendC::PIPE_V>(FLAG_AIC_FINISH);
                blockEpilogue(blockShape, blockCoord, actual, tensorBlockC);
                if (!faithful) {
                    AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(EVENT_STORES_DONE);
                    AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_STORES_DONE);
                    // ...and back, so the next block's set on MTE3 comes after this wait on V even when this
                    // AIV had no rows (no tile's V_MTE3 event orders V before MTE3 then).
                    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_STORES_DONE);
                    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_STORES_DONE);
                }
                AscendC::CrossCoreSetFlag<0x4, AscendC::PIPE_V>(FLAG_AIV_FINISH);
            }
            AscendC::PipeBarrier<AscendC::PIPE_ALL>();
        }
    }

    static constexpr int32_t EVENT_STORES_DONE = 2;  // BlockEpilogue uses ids 0 and 1

    Arch::Resource<ArchTag> resource;
};

}  // namespace Catlass::Gemm::Kernel
