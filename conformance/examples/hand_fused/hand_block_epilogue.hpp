// The tile loop every hand-fused epilogue shares (conformance/examples/hand_fused/README.md): what a careful
// AscendC programmer writes once and reuses, so that the per-example code (hand_epilogues.hpp) is only the
// loads, the arithmetic and the stores of one tile.
//
// It plugs into the same Catlass kernels as the EVG's BlockEpilogue (MatmulVisitor, BasicMatmulTlaVisitor,
// BasicMatmulTlaUbVisitor), so the AIC's matmul, the C hand-over and the cross-core flags are the EVG run's;
// only the AIV's epilogue differs. The kernels look up a few names on their BlockEpilogue (ArchTag, ElementC,
// USE_UB_WORKSPACE, Params, the parameter bundle EVG, GetMmadUbTensor): those keep the kernels' spelling.
//
// What it does differently from the EVG's BlockEpilogue, on purpose:
//   - one buffer set per tile holds the loaded C tile and is computed in place and stored from, so a set
//   needs
//     three events instead of five: MTE2_V (loaded), V_MTE3 (computed), MTE3_MTE2 (stored: the set is free);
//   - vector instructions cover the tile (rows x pitch), not the whole computeLength buffer;
//   - the row pitch is the tile's columns rounded to 32 bytes (the DMA block), not to 32 elements, so a tile
//     packs more rows within the same computeLength;
//   - the two sets alternate on every tile, also across the column chunks of one row and across blocks.
// The tiling otherwise follows the EVG's: each AIV takes its half of the block's rows; rows are grouped so
// that a tile holds at most computeLength elements; a row wider than computeLength is cut into chunks.
#pragma once
#include <cstdint>

#include "catlass/arch/arch.hpp"
#include "catlass/arch/resource.hpp"
#include "catlass/catlass.hpp"
#include "catlass/coord.hpp"
#include "catlass/epilogue/fusion/ub_accounting.hpp"
#include "catlass/layout/layout.hpp"
#include "catlass/tla/layout.hpp"
#include "catlass/tla/tensor.hpp"
#include "kernel_operator.h"

namespace evg::hand_fused {

// PIPE_V keeps order on Ascend950 (docs/hardware-model.md): a dependent vector instruction needs no barrier
// there. On AtlasA2 it does.
template <class ArchTag>
inline constexpr bool kVectorInOrder = hw::arch_spec(ArchTag::EVG_ARCH).v_pipe_ordered;

template <class ArchTag>
inline void vector_barrier() {
    if constexpr (!kVectorInOrder<ArchTag>) AscendC::PipeBarrier<AscendC::PIPE_V>();
}

// Elements of E in one 32-byte DMA block.
template <class E>
inline constexpr uint32_t kBlockElems = 32 / static_cast<uint32_t>(sizeof(E));

// One tile of this AIV's part of a block.
struct Tile {
    uint32_t rows = 0, cols = 0;  // valid rows and columns
    uint32_t pitch = 0;           // UB row pitch in elements (of the C type)
    uint32_t row0 = 0, col0 = 0;  // the tile's first element in the m x n output
    uint32_t set = 0;             // buffer set 0 or 1
    uint32_t elems() const { return rows * pitch; }
};

// Where a tile's C values are: a GM view (GM workspace path) or a UB view (UB workspace path, the AIC wrote
// the block into this AIV's UB at byte 0).
template <class ElementC>
struct CTile {
    bool in_ub = false;
    AscendC::GlobalTensor<ElementC> gm;  // first element of the tile
    int64_t gm_stride = 0;               // elements between rows
    AscendC::LocalTensor<ElementC> ub;   // first element of the tile
};

// Copies `rows` x `cols` elements from GM (row stride gm_stride) into UB (row pitch `pitch`).
template <class E>
inline void load_rows(const AscendC::LocalTensor<E>& dst, const AscendC::GlobalTensor<E>& src, uint32_t rows,
                      uint32_t cols, int64_t gm_stride, uint32_t pitch) {
    AscendC::DataCopyExtParams p{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(E)),
                                 static_cast<uint32_t>((gm_stride - cols) * int64_t(sizeof(E))),
                                 (pitch - cols) / kBlockElems<E>, 0};
    AscendC::DataCopyPad(dst, src, p, AscendC::DataCopyPadExtParams<E>{false, 0, 0, E{}});
}

// The reverse: UB (row pitch `pitch`) to GM (row stride gm_stride).
template <class E>
inline void store_rows(const AscendC::GlobalTensor<E>& dst, const AscendC::LocalTensor<E>& src, uint32_t rows,
                       uint32_t cols, int64_t gm_stride, uint32_t pitch) {
    AscendC::DataCopyExtParams p{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(E)),
                                 (pitch - cols) / kBlockElems<E>,
                                 static_cast<uint32_t>((gm_stride - cols) * int64_t(sizeof(E))), 0};
    AscendC::DataCopyPad(dst, src, p);
}

template <class E>
inline AscendC::GlobalTensor<E> gm_of(GM_ADDR p) {
    AscendC::GlobalTensor<E> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ E*>(p));
    return g;
}

// A body (hand_epilogues.hpp) provides:
//   Arguments, Params and the static host functions the kernels call on an EVG (can_implement,
//   get_workspace_size, initialize_workspace, to_underlying_arguments);
//   explicit Body(const Params&);
//   template <class ArchTag> void carve(uint32_t ub_offset, uint32_t compute_length): its two buffer sets;
//   template <class ArchTag> void load(const CTile<ElementC>&, const Tile&)     MTE2 only
//   template <class ArchTag> void compute(const CTile<ElementC>&, const Tile&)  V (and S)
//   template <class ArchTag> void store(const Tile&)                            MTE3 only
//   static constexpr uint32_t kPitchElems: the pitch unit in C elements (the block of its widest UB type).
template <class ArchTag_, class ElementC_, bool USE_UB, uint32_t COMPUTE_LENGTH, class Body>
class HandBlockEpilogue {
  public:
    using ArchTag = ArchTag_;
    using ElementC = ElementC_;
    using EVG = Body;  // the kernels take the epilogue's host arguments from its `EVG`
    static constexpr bool USE_UB_WORKSPACE = USE_UB;
    static constexpr uint32_t UB_BASE = static_cast<uint32_t>(
        Catlass::Epilogue::Fusion::UbAccounting::base_offset(USE_UB, ArchTag::L0C_SIZE));
    static_assert(COMPUTE_LENGTH > 0 && COMPUTE_LENGTH % 32 == 0,
                  "HandBlockEpilogue: the tile budget is a positive multiple of 32 elements");

    struct Params {
        typename Body::Params evg_params;
    };

    HandBlockEpilogue(Catlass::Arch::Resource<ArchTag>& /*resource*/, const Params& params)
        : body_(params.evg_params) {
        if ASCEND_IS_AIV {
            body_.template carve<ArchTag>(UB_BASE, COMPUTE_LENGTH);
            AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(0);
            AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(1);
        }
    }
    ~HandBlockEpilogue() {
        if ASCEND_IS_AIV {
            AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(0);
            AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(1);
        }
    }
    HandBlockEpilogue(const HandBlockEpilogue&) = delete;
    HandBlockEpilogue& operator=(const HandBlockEpilogue&) = delete;

    // UB path: where the AIC puts this AIV's half of the block (the kernel's contract, the same as the EVG's
    // BlockEpilogue: UB byte 0, row pitch RoundUp<32>(n) elements).
    static auto GetMmadUbTensor(const Catlass::GemmCoord& actual) {
        Catlass::Arch::LocalTensorBuffer<ArchTag, AscendC::TPosition::VECCALC, ArchTag::UB_SIZE> ub{};
        auto c = ub.template GetBufferByByte<ElementC>(0);
        c.SetSize(UB_BASE / static_cast<uint32_t>(sizeof(ElementC)));
        auto layout = tla::MakeLayout<ElementC, Catlass::layout::RowMajor>(
            actual.m(), actual.n(), static_cast<int64_t>(Catlass::RoundUp<Catlass::BYTE_PER_C0>(actual.n())));
        return tla::MakeTensor(c, layout, Catlass::Arch::PositionUB{});
    }

    template <class TensorBlockC>
    void operator()(const Catlass::GemmCoord& blockShape, const Catlass::GemmCoord& blockCoord,
                    const Catlass::GemmCoord& actual, const TensorBlockC& tensorBlockC) {
        const uint32_t sub_num = static_cast<uint32_t>(AscendC::GetSubBlockNum());
        const uint32_t sub_idx = static_cast<uint32_t>(AscendC::GetSubBlockIdx());
        const uint32_t half_rows = (actual.m() + sub_num - 1) / sub_num;
        const uint32_t first = sub_idx * half_rows;
        const uint32_t rows = actual.m() > first ? Catlass::Min(half_rows, actual.m() - first) : 0;
        const uint32_t cols = actual.n();
        if (rows == 0 || cols == 0) return;
        const uint32_t block_row0 = blockCoord.m() * blockShape.m() + first;
        const uint32_t block_col0 = blockCoord.n() * blockShape.n();
        const int64_t c_stride = Catlass::detail::layout_row_stride(tensorBlockC.layout());

        // C of the tile whose first element is (r, c) of this AIV's part.
        auto c_tile = [&](uint32_t r, uint32_t c) {
            CTile<ElementC> t;
            if constexpr (USE_UB) {
                // This AIV's UB holds only its rows, from row 0.
                t.in_ub = true;
                t.ub = tensorBlockC.data()[static_cast<uint32_t>(r * c_stride + c)];
            } else {
                t.gm_stride = c_stride;
                t.gm = tensorBlockC.data()[tensorBlockC.offset() + int64_t(first + r) * c_stride + c];
            }
            return t;
        };
        auto run = [&](const Tile& t, const CTile<ElementC>& c) {
            using AscendC::HardEvent;
            AscendC::WaitFlag<HardEvent::MTE3_MTE2>(static_cast<int32_t>(t.set));
            body_.template load<ArchTag>(c, t);
            AscendC::SetFlag<HardEvent::MTE2_V>(static_cast<int32_t>(t.set));
            AscendC::WaitFlag<HardEvent::MTE2_V>(static_cast<int32_t>(t.set));
            body_.template compute<ArchTag>(c, t);
            AscendC::SetFlag<HardEvent::V_MTE3>(static_cast<int32_t>(t.set));
            AscendC::WaitFlag<HardEvent::V_MTE3>(static_cast<int32_t>(t.set));
            body_.template store<ArchTag>(t);
            AscendC::SetFlag<HardEvent::MTE3_MTE2>(static_cast<int32_t>(t.set));
            set_ = 1 - set_;
        };

        if (cols <= COMPUTE_LENGTH) {
            // The UB path computes straight from the AIC's C, so the tile keeps C's pitch there.
            const uint32_t pitch =
                USE_UB ? static_cast<uint32_t>(c_stride) : Catlass::RoundUp(cols, Body::kPitchElems);
            const uint32_t per_tile = Catlass::Max(1u, COMPUTE_LENGTH / pitch);
            for (uint32_t r = 0; r < rows;) {
                Tile t;
                t.rows = Catlass::Min(rows - r, per_tile);
                t.cols = cols;
                t.pitch = pitch;
                t.row0 = block_row0 + r;
                t.col0 = block_col0;
                t.set = set_;
                run(t, c_tile(r, 0));
                r += t.rows;
            }
        } else {
            for (uint32_t r = 0; r < rows; ++r) {
                for (uint32_t c = 0; c < cols; c += COMPUTE_LENGTH) {
                    Tile t;
                    t.rows = 1;
                    t.cols = Catlass::Min(cols - c, COMPUTE_LENGTH);
                    t.pitch = Catlass::RoundUp(t.cols, Body::kPitchElems);
                    t.row0 = block_row0 + r;
                    t.col0 = block_col0 + c;
                    t.set = set_;
                    run(t, c_tile(r, c));
                }
            }
        }
    }

  private:
    Body body_;
    uint32_t set_ = 0;
};

}  // namespace evg::hand_fused
