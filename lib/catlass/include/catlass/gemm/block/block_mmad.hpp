// BlockMmad: one (L1M x L1N) block of C = A . B on the AIC, K looped in L1 tiles, accumulated in L0C (float,
// or int32 for int8), written to a GM tensor or, on Ascend950, split between the two AIVs' UBs.
//
// Template (both lineages):
//   Gemm::Block::BlockMmad<DispatchPolicy, L1TileShape, L0TileShape, AType, BType, CType[, BiasType = void]>
//   * DispatchPolicy: Gemm::MmadAtlasA2Pingpong<bool>, Gemm::MmadPingpong<ArchTag, bool>, ...
//   * L1TileShape / L0TileShape: Catlass::GemmShape<M, N, K> (L1 spelling) or
//     tla::tuple<tla::Int<M>, tla::Int<N>, tla::Int<K>> (MASTER spelling). L0 M and N equal L1 M and N; the
//     L0 K (panel width) divides the L1 K.
//   * AType / BType / CType: Gemm::GemmType<Element, layout::RowMajor> (L1 spelling) or a bare element type
//     (MASTER spelling; row-major, the layout object is a tla layout). BlockMmadTla is the same template.
//
// Calls:
//   blockMmad(tensorA, tensorB, tensorC, actualBlockShape)                          // tla tensors (MASTER)
//   blockMmad(gmA, layoutA, gmB, layoutB, gmC, layoutC, actualBlockShape)          // GlobalTensors (L1)
// tensorA is the (m x K) tile of A, tensorB the (K x n) tile of B, tensorC the (m x n) tile of C in GM, or a
// UB tensor (Ascend950): then rows [0, ceil(m/2)) go to AIV0 and the rest to AIV1, each at the tensor's UB
// offset with the tensor's row stride (the SPLIT_M rule, docs/evg-semantics.md §5.4).
//
// Data flow in the hardware's layouts (ascendc/cube.hpp, docs/hardware-model.md §16), as upstream's
// BlockMmad:
//   GM --DataCopy Nd2Nz (MTE2)--> L1: A (m x kc) and B (kc x n) in zN, with the true m, kc and n (the copy
//                                 zero-fills the last 32-byte block of each row);
//   L1 --LoadData (MTE1)-------> L0A: zN (Ascend950, Load2D v2) or zZ (AtlasA2, Load2D), one L0K panel at a
//   time;
//                                L0B: nZ, transposing (Load2D v2; AtlasA2 16-bit types: Load2D transpose);
//   Mmad (M) into L0C (NZ, RoundUp(m, 16) x nPad); Fixpipe (FIX) NZ -> ND of the m x n valid part, to GM or
//   split by rows between the AIVs' UBs (dualDstCtl 1).
// Padding is never read as a value: Mmad sums exactly k elements, and the rows and columns past m and n are
// computed from never-written (or stale) L1 bytes but never stored.
// Events (ids): MTE2_MTE1(0) L1 filled; MTE1_MTE2(0) L1 free; MTE1_M(buf) L0 buffer filled; M_MTE1(buf) L0
// buffer free; M_FIX(0) L0C complete; FIX_M(0) L0C free. The constructor sets the "free" flags once, the
// destructor waits for them, so on exit every flag is consumed. Accumulating Mmads are separated by
// PipeBarrier<PIPE_M> (the M pipe does not keep order). Construct and call it on the AIC only.
#pragma once
#include <cstdint>
#include <type_traits>

#include "catlass/arch/resource.hpp"
#include "catlass/catlass.hpp"
#include "catlass/coord.hpp"
#include "catlass/gemm/dispatch_policy.hpp"
#include "catlass/layout/layout.hpp"
#include "catlass/tla/layout.hpp"
#include "catlass/tla/tensor.hpp"
#include "catlass/tla/tuple.hpp"

namespace Catlass {

// A compile-time (M, N, K) tile shape (the L1 lineage's spelling).
template <uint32_t M_ = 1, uint32_t N_ = 1, uint32_t K_ = 1>
struct GemmShape {
    static constexpr uint32_t M = M_;
    static constexpr uint32_t N = N_;
    static constexpr uint32_t K = K_;
    static constexpr uint64_t MN = uint64_t(M) * N;
    static constexpr uint64_t MK = uint64_t(M) * K;
    static constexpr uint64_t KN = uint64_t(K) * N;
    static constexpr GemmCoord ToCoord() { return GemmCoord(M, N, K); }
};

}  // namespace Catlass

namespace Catlass::Gemm::detail {

// (M, N, K) of a GemmShape or of a tla::tuple<Int<M>, Int<N>, Int<K>>.
template <class Shape>
struct TileShapeTraits {
    static constexpr uint32_t M = Shape::M, N = Shape::N, K = Shape::K;
};
template <int M_, int N_, int K_>
struct TileShapeTraits<tla::tuple<tla::Int<M_>, tla::Int<N_>, tla::Int<K_>>> {
    static constexpr uint32_t M = M_, N = N_, K = K_;
};

// Element and layout of a GemmType<E, L> or of a bare element type (row-major, tla layout object).
template <class T>
struct OperandTraits {
    using Element = T;
    using Layout = tla::RowMajorLayout;
};
template <class E, class L>
struct OperandTraits<GemmType<E, L>> {
    using Element = E;
    using Layout = L;
};

template <class E>
struct AccumulatorOf {
    using type = float;
};
template <>
struct AccumulatorOf<int8_t> {
    using type = int32_t;
};

template <class Engine>
inline constexpr bool IS_LOCAL_ENGINE = false;
template <class E>
inline constexpr bool IS_LOCAL_ENGINE<AscendC::LocalTensor<E>> = true;

}  // namespace Catlass::Gemm::detail

namespace Catlass::Gemm::Block {

template <class DispatchPolicy_, class L1TileShape_, class L0TileShape_, class AType_, class BType_,
          class CType_, class BiasType_ = void>
class BlockMmad {
  public:
    using DispatchPolicy = DispatchPolicy_;
    using ArchTag = typename DispatchPolicy::ArchTag;
    using L1TileShape = L1TileShape_;
    using L0TileShape = L0TileShape_;
    using AType = AType_;
    using BType = BType_;
    using CType = CType_;
    using ElementA = typename detail::OperandTraits<AType>::Element;
    using LayoutA = typename detail::OperandTraits<AType>::Layout;
    using ElementB = typename detail::OperandTraits<BType>::Element;
    using LayoutB = typename detail::OperandTraits<BType>::Layout;
    using ElementC = typename detail::OperandTraits<CType>::Element;
    using LayoutC = typename detail::OperandTraits<CType>::Layout;
    using ElementAccumulator = typename detail::AccumulatorOf<ElementA>::type;

    static constexpr uint32_t L1M = detail::TileShapeTraits<L1TileShape>::M;
    static constexpr uint32_t L1N = detail::TileShapeTraits<L1TileShape>::N;
    static constexpr uint32_t L1K = detail::TileShapeTraits<L1TileShape>::K;
    static constexpr uint32_t L0M = detail::TileShapeTraits<L0TileShape>::M;
    static constexpr uint32_t L0N = detail::TileShapeTraits<L0TileShape>::N;
    static constexpr uint32_t L0K = detail::TileShapeTraits<L0TileShape>::K;
    static constexpr uint32_t STAGES = 2;  // L0A/L0B ping-pong

    static_assert(std::is_void_v<BiasType_>,
                  "BlockMmad: bias is not supported on the model; add the bias in the epilogue graph "
                  "(VisitorRowBroadcast + Add)");
    static_assert(std::is_same_v<ElementA, ElementB>, "BlockMmad: A and B must have the same element type");
    static_assert(sizeof(ElementA) == 2 || sizeof(ElementA) == 4 || std::is_same_v<ElementA, int8_t>,
                  "BlockMmad: A/B must be half, bfloat16_t, float or int8_t");
    static_assert(L1M > 0 && L1N > 0 && L1K > 0 && L0K > 0, "BlockMmad: tile shapes must not be empty");
    static_assert(
        L0M == L1M && L0N == L1N,
        "BlockMmad: the L0 tile must have the L1 tile's M and N (only K is split between L1 and L0)");
    static_assert(L1M % 16 == 0 && L1N % 16 == 0 && L0K % 32 == 0,
                  "BlockMmad: L1 M and N must be multiples of 16 and L0 K a multiple of 32 (cube granules)");
    static_assert(L1K % L0K == 0, "BlockMmad: the L1 K must be a multiple of the L0 K");

    // Elements of A/B per 32-byte block (C0): the column unit of zN.
    static constexpr uint32_t K_ALIGN = 32 / sizeof(ElementA);
    // Columns of B and of L0C are padded to N_ALIGN: 16 (a fractal), and 32 for int8 (one C0 block of B).
    static constexpr uint32_t N_ALIGN = 32 / sizeof(ElementB) > 16 ? 32 / sizeof(ElementB) : 16;
    // Rows of B in L1: padded to 32, so an int8 transposing load (pairs of 16-row fractals) stays inside.
    static constexpr uint32_t L1B_ROWS = RoundUp<32>(L1K);
    static constexpr uint32_t L1A_BYTES = L1M * RoundUp<K_ALIGN>(L1K) * sizeof(ElementA);
    static constexpr uint32_t L1B_BYTES = L1B_ROWS * RoundUp<N_ALIGN>(L1N) * sizeof(ElementB);
    static constexpr uint32_t L0A_PING_BYTES = L1M * L0K * sizeof(ElementA);
    static constexpr uint32_t L0B_PING_BYTES = L0K * RoundUp<N_ALIGN>(L1N) * sizeof(ElementB);
    static constexpr uint32_t L0C_BYTES = L1M * RoundUp<N_ALIGN>(L1N) * sizeof(ElementAccumulator);
    static constexpr bool IS_ATLAS_A2 = std::is_same_v<ArchTag, Arch::AtlasA2>;

    static_assert(L1A_BYTES + L1B_BYTES <= ArchTag::L1_SIZE,
                  "BlockMmad: the L1 tiles of A (L1M x L1K) and B (L1K x L1N) do not fit the L1 buffer");
    static_assert(STAGES * L0A_PING_BYTES <= ArchTag::L0A_SIZE,
                  "BlockMmad: two L0A buffers of L1M x L0K do not fit L0A; lower L0K");
    static_assert(STAGES * L0B_PING_BYTES <= ArchTag::L0B_SIZE,
                  "BlockMmad: two L0B buffers of L0K x L1N do not fit L0B; lower L0K");
    static_assert(L0C_BYTES <= ArchTag::L0C_SIZE,
                  "BlockMmad: the L1M x L1N accumulator does not fit L0C; lower L1M or L1N");

    CATLASS_DEVICE explicit BlockMmad(Arch::Resource<ArchTag>& resource, uint32_t l1BufAddrStart = 0) {
        l1A = resource.l1Buf.template GetBufferByByte<ElementA>(l1BufAddrStart);
        l1B = resource.l1Buf.template GetBufferByByte<ElementB>(l1BufAddrStart + L1A_BYTES);
        for (uint32_t i = 0; i < STAGES; ++i) {
            l0A[i] = resource.l0ABuf.template GetBufferByByte<ElementA>(i * L0A_PING_BYTES);
            l0B[i] = resource.l0BBuf.template GetBufferByByte<ElementB>(i * L0B_PING_BYTES);
        }
        l0C = resource.l0CBuf.template GetBufferByByte<ElementAccumulator>(0);
        if ASCEND_IS_AIC {
            AscendC::SetFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_L1);
            for (uint32_t i = 0; i < STAGES; ++i) AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(int32_t(i));
            AscendC::SetFlag<AscendC::HardEvent::FIX_M>(EVENT_L0C);
        }
    }

    // On exit every event this block set has been waited for.
    CATLASS_DEVICE ~BlockMmad() {
        if ASCEND_IS_AIC {
            AscendC::WaitFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_L1);
            for (uint32_t i = 0; i < STAGES; ++i) AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(int32_t(i));
            AscendC::WaitFlag<AscendC::HardEvent::FIX_M>(EVENT_L0C);
        }
    }

    BlockMmad(const BlockMmad&) = delete;
    BlockMmad& operator=(const BlockMmad&) = delete;

    // MASTER form: tla tensors. tensorC is a GM tile, or a UB tensor (Ascend950, SPLIT_M between the AIVs).
    template <class TensorA, class TensorB, class TensorC>
    CATLASS_DEVICE void operator()(const TensorA& tensorA, const TensorB& tensorB, const TensorC& tensorC,
                                   const GemmCoord& actualShape) {
        static_assert(std::is_same_v<typename TensorA::Element, ElementA> &&
                          std::is_same_v<typename TensorB::Element, ElementB> &&
                          std::is_same_v<typename TensorC::Element, ElementC>,
                      "BlockMmad: the tensors' element types must be the BlockMmad's ElementA/B/C");
        auto gmA = tensorA.data()[uint64_t(tensorA.offset())];
        auto gmB = tensorB.data()[uint64_t(tensorB.offset())];
        int64_t ldA = Catlass::detail::layout_row_stride(tensorA.layout());
        int64_t ldB = Catlass::detail::layout_row_stride(tensorB.layout());
        int64_t ldC = Catlass::detail::layout_row_stride(tensorC.layout());
        if constexpr (detail::IS_LOCAL_ENGINE<std::decay_t<decltype(tensorC.data())>>) {
            compute(gmA, ldA, gmB, ldB, actualShape);
            copy_to_ub(tensorC.data()[static_cast<uint32_t>(tensorC.offset())], ldC, actualShape);
        } else {
            compute(gmA, ldA, gmB, ldB, actualShape);
            copy_to_gm(tensorC.data()[uint64_t(tensorC.offset())], ldC, actualShape);
        }
    }

    // L1 form: GlobalTensors at the block's first element and the whole matrices' layouts (for the strides).
    template <class LA, class LB, class LC>
    CATLASS_DEVICE void operator()(const AscendC::GlobalTensor<ElementA>& gmA, const LA& layoutA,
                                   const AscendC::GlobalTensor<ElementB>& gmB, const LB& layoutB,
                                   const AscendC::GlobalTensor<ElementC>& gmC, const LC& layoutC,
                                   const GemmCoord& actualShape) {
        compute(gmA, Catlass::detail::layout_row_stride(layoutA), gmB,
                Catlass::detail::layout_row_stride(layoutB), actualShape);
        copy_to_gm(gmC, Catlass::detail::layout_row_stride(layoutC), actualShape);
    }

  private:
    static constexpr int32_t EVENT_L1 = 0;
    static constexpr int32_t EVENT_L0C = 0;

    // On exit L0C holds the RoundUp(m, 16) x nPad product of this block (NZ) and M_FIX(0) has been set
    // (Fixpipe must wait it).
    CATLASS_DEVICE void compute(const AscendC::GlobalTensor<ElementA>& gmA, int64_t ldA,
                                const AscendC::GlobalTensor<ElementB>& gmB, int64_t ldB,
                                const GemmCoord& shape) {
        const uint32_t m = shape.m(), n = shape.n(), k = shape.k();
        const uint32_t mPad = RoundUp<16>(m), nPad = RoundUp<N_ALIGN>(n);
        bool first = true;
        for (uint32_t kStart = 0; kStart < k; kStart += L1K) {
            const uint32_t kc = Min(L1K, k - kStart);
            const uint32_t panels = CeilDiv(kc, L0K);

            // GM -> L1 (zN), once the previous chunk's LoadData is done.
            AscendC::WaitFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_L1);
            AscendC::Nd2NzParams na;
            na.ndNum = 1;
            na.nValue = m;
            na.dValue = kc;
            na.srcDValue = static_cast<uint32_t>(ldA);
            na.dstNzC0Stride = mPad;
            na.dstNzNStride = 1;
            AscendC::DataCopy(l1A, gmA[uint64_t(kStart)], na);
            AscendC::Nd2NzParams nb;
            nb.ndNum = 1;
            nb.nValue = kc;
            nb.dValue = n;  // the true N: the copy zero-fills the tail of the last 32-byte block
            nb.srcDValue = static_cast<uint32_t>(ldB);
            nb.dstNzC0Stride = L1B_ROWS;
            nb.dstNzNStride = 1;
            AscendC::DataCopy(l1B, gmB[uint64_t(kStart) * uint64_t(ldB)], nb);
            AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_L1);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_L1);

            for (uint32_t p = 0; p < panels; ++p) {
                const uint32_t kw = p + 1 == panels ? kc - p * L0K : L0K;
                const int32_t buf = static_cast<int32_t>(l0Id);
                AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(buf);
                load_a(l0A[l0Id], mPad, p * L0K, kw);
                load_b(l0B[l0Id], nPad, p * L0K, kw);
                AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(buf);
                AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(buf);
                if (first) {
                    AscendC::WaitFlag<AscendC::HardEvent::FIX_M>(EVENT_L0C);  // the previous block's Fixpipe
                } else {
                    AscendC::PipeBarrier<AscendC::PIPE_M>();  // accumulate after the previous Mmad
                }
                AscendC::MmadParams mp;
                mp.m = static_cast<uint16_t>(m);
                mp.n = static_cast<uint16_t>(nPad);
                mp.k = static_cast<uint16_t>(kw);
                mp.cmatrixInitVal = first;
                mp.disableGemv = true;
                AscendC::Mmad(l0C, l0A[l0Id], l0B[l0Id], mp);
                first = false;
                AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(buf);
                l0Id = (l0Id + 1) % STAGES;
            }
            AscendC::SetFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_L1);
        }
        if (first)
            AscendC::WaitFlag<AscendC::HardEvent::FIX_M>(EVENT_L0C);  // K == 0: keep the events balanced
        AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_L0C);
    }

    // L1 A (zN, mPad rows) columns [k0, k0 + kw) -> L0A: zN on Ascend950, zZ on AtlasA2.
    CATLASS_DEVICE void load_a(const AscendC::LocalTensor<ElementA>& dst, uint32_t mPad, uint32_t k0,
                               uint32_t kw) {
        const uint32_t mFrac = mPad / 16, kFrac = CeilDiv(kw, K_ALIGN);
        if constexpr (IS_ATLAS_A2) {
            for (uint32_t r = 0; r < mFrac; ++r) {
                AscendC::LoadData2DParams lp;
                lp.startIndex = static_cast<uint16_t>((k0 / K_ALIGN) * mFrac + r);
                lp.repeatTimes = static_cast<uint8_t>(kFrac);
                lp.srcStride = static_cast<uint16_t>(mFrac);
                lp.dstGap = 0;
                AscendC::LoadData(dst[r * kFrac * K_ALIGN * 16], l1A, lp);
            }
        } else {
            AscendC::LoadData2DParamsV2 lp;
            lp.mStartPosition = 0;
            lp.kStartPosition = k0 / K_ALIGN;
            lp.mStep = static_cast<uint16_t>(mFrac);
            lp.kStep = static_cast<uint16_t>(kFrac);
            lp.srcStride = static_cast<int32_t>(mFrac);
            lp.dstStride = static_cast<uint16_t>(mFrac);
            AscendC::LoadData(dst, l1A, lp);
        }
    }

    // L1 B (zN, L1B_ROWS rows) rows [k0, k0 + kw) -> L0B in nZ (kw x nPad), transposing.
    CATLASS_DEVICE void load_b(const AscendC::LocalTensor<ElementB>& dst, uint32_t nPad, uint32_t k0,
                               uint32_t kw) {
        constexpr uint32_t C0 = 32 / sizeof(ElementB);
        if constexpr (IS_ATLAS_A2 && sizeof(ElementB) == 2) {
            for (uint32_t kb = 0; kb < CeilDiv(kw, 16u); ++kb) {
                AscendC::LoadData2DParams lp;
                lp.startIndex = static_cast<uint16_t>(k0 / 16 + kb);
                lp.repeatTimes = static_cast<uint8_t>(nPad / 16);
                lp.srcStride = static_cast<uint16_t>(L1B_ROWS / 16);
                lp.dstGap = 0;
                lp.ifTranspose = true;
                AscendC::LoadData(dst[kb * nPad * 16], l1B, lp);
            }
        } else {
            AscendC::LoadData2DParamsV2 lp;
            lp.mStartPosition = k0 / 16;
            lp.kStartPosition = 0;
            lp.mStep = static_cast<uint16_t>(RoundUp(kw, C0 > 16 ? C0 : 16u) / 16);
            lp.kStep = static_cast<uint16_t>(nPad / C0);
            lp.srcStride = static_cast<int32_t>(L1B_ROWS / 16);
            lp.dstStride = static_cast<uint16_t>(nPad / 16);
            lp.ifTranspose = true;
            AscendC::LoadData(dst, l1B, lp);
        }
    }

    // On exit the Fixpipe of C is issued and FIX_M(0) is set.
    CATLASS_DEVICE void copy_to_gm(const AscendC::GlobalTensor<ElementC>& gmC, int64_t ldC,
                                   const GemmCoord& shape) {
        AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_L0C);
        AscendC::FixpipeParamsV220 fp;
        fp.nSize = static_cast<uint16_t>(shape.n());
        fp.mSize = static_cast<uint16_t>(shape.m());
        fp.srcStride = static_cast<uint16_t>(RoundUp<16>(shape.m()));
        fp.dstStride = static_cast<uint32_t>(ldC);
        fp.quantPre = quant_pre();
        AscendC::Fixpipe<ElementC, ElementAccumulator, AscendC::CFG_ROW_MAJOR>(gmC, l0C, fp);
        AscendC::SetFlag<AscendC::HardEvent::FIX_M>(EVENT_L0C);
    }

    // SPLIT_M: rows [0, ceil(m/2)) to AIV0's UB, the rest to AIV1's, both at ubC with row stride ldC (one
    // Fixpipe with dualDstCtl 1 over RoundUp(m, 2) rows).
    CATLASS_DEVICE void copy_to_ub(const AscendC::LocalTensor<ElementC>& ubC, int64_t ldC,
                                   const GemmCoord& shape) {
        AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_L0C);
        if (shape.m() > 0) {
            AscendC::FixpipeParamsC310<AscendC::CO2Layout::ROW_MAJOR> fp;
            fp.nSize = static_cast<uint16_t>(shape.n());
            fp.mSize = static_cast<uint16_t>(RoundUp<2>(shape.m()));
            fp.srcStride = RoundUp<16>(shape.m());
            fp.dstStride = static_cast<uint32_t>(ldC);
            fp.quantPre = quant_pre();
            fp.dualDstCtl = 1;
            AscendC::Fixpipe<ElementC, ElementAccumulator, AscendC::CFG_ROW_MAJOR>(ubC, l0C, fp);
        }
        AscendC::SetFlag<AscendC::HardEvent::FIX_M>(EVENT_L0C);
    }

    static constexpr QuantMode_t quant_pre() {
        if constexpr (std::is_same_v<ElementC, half>) return QuantMode_t::F322F16;
        if constexpr (std::is_same_v<ElementC, bfloat16_t>) return QuantMode_t::F322BF16;
        return QuantMode_t::NoQuant;
    }

    AscendC::LocalTensor<ElementA> l1A;
    AscendC::LocalTensor<ElementB> l1B;
    AscendC::LocalTensor<ElementA> l0A[STAGES];
    AscendC::LocalTensor<ElementB> l0B[STAGES];
    AscendC::LocalTensor<ElementAccumulator> l0C;
    uint32_t l0Id = 0;
};

// MASTER's name for the tla-tensor form: the same template.
template <class DispatchPolicy, class L1TileShape, class L0TileShape, class AType, class BType, class CType,
          class BiasType = void>
using BlockMmadTla = BlockMmad<DispatchPolicy, L1TileShape, L0TileShape, AType, BType, CType, BiasType>;

}  // namespace Catlass::Gemm::Block
