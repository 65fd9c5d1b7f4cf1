// GemmIdentityBlockSwizzle<SwizzleOffset, SwizzleDirection>: the order in which (L1M x L1N) blocks of C are
// handed to loop indices (docs/evg-semantics.md §6.4).
//
// loopsMN = CeilDiv((M, N), (L1M, L1N)); coreLoops = loopsM * loopsN.
// Direction 0 ("Zn"): bands of SwizzleOffset block rows; inside a band the M index runs fastest; odd bands
// walk N backwards. Direction 1 ("Nz"): the same with M and N swapped (bands of block columns, N fastest,
// odd bands walk M backwards). The last band holds the remaining rows (columns).
#pragma once
#include <cstdint>

#include "catlass/catlass.hpp"
#include "catlass/coord.hpp"

namespace Catlass::Gemm::Block {

template <uint32_t SwizzleOffset = 1, uint32_t SwizzleDirection = 0>
struct GemmIdentityBlockSwizzle {
    static_assert(SwizzleOffset >= 1, "GemmIdentityBlockSwizzle: SwizzleOffset must be at least 1");
    static_assert(
        SwizzleDirection == 0 || SwizzleDirection == 1,
        "GemmIdentityBlockSwizzle: SwizzleDirection is 0 (bands of block rows) or 1 (bands of block "
        "columns)");

    GemmCoord problemShape{};
    MatrixCoord tileMN{};
    MatrixCoord loopsMN{};

    CATLASS_DEVICE GemmIdentityBlockSwizzle() = default;

    // tileMN = (L1M, L1N).
    CATLASS_DEVICE GemmIdentityBlockSwizzle(const GemmCoord& problemShape_, const MatrixCoord& tileMN_)
        : problemShape(problemShape_),
          tileMN(tileMN_),
          loopsMN(CeilDiv(problemShape_.m(), tileMN_.row()), CeilDiv(problemShape_.n(), tileMN_.column())) {}

    CATLASS_DEVICE GemmIdentityBlockSwizzle(const GemmCoord& problemShape_, const MatrixCoord& tileMN_,
                                            const MatrixCoord& loopsMN_)
        : problemShape(problemShape_), tileMN(tileMN_), loopsMN(loopsMN_) {}

    // Number of blocks: loopsM * loopsN.
    CATLASS_DEVICE uint32_t GetCoreLoops() const { return loopsMN.row() * loopsMN.column(); }

    // The (m, n) block coordinate of loop index `taskIdx` (k = 0). Indices past coreLoops wrap (batch).
    CATLASS_DEVICE GemmCoord GetBlockCoord(uint32_t taskIdx) const {
        uint32_t loops = GetCoreLoops();
        if (loops == 0) return GemmCoord(0, 0, 0);
        uint32_t inner = taskIdx % loops;
        const uint32_t loopsM = loopsMN.row(), loopsN = loopsMN.column();
        if constexpr (SwizzleDirection == 0) {
            uint32_t bandSize = SwizzleOffset * loopsN;
            uint32_t band = inner / bandSize, inBand = inner % bandSize;
            uint32_t bands = CeilDiv(loopsM, SwizzleOffset);
            uint32_t nRow = band + 1 == bands ? loopsM - SwizzleOffset * band : SwizzleOffset;
            uint32_t mIdx = band * SwizzleOffset + inBand % nRow;
            uint32_t nIdx = inBand / nRow;
            if (band % 2 == 1) nIdx = loopsN - 1 - nIdx;
            return GemmCoord(mIdx, nIdx, 0);
        } else {
            uint32_t bandSize = SwizzleOffset * loopsM;
            uint32_t band = inner / bandSize, inBand = inner % bandSize;
            uint32_t bands = CeilDiv(loopsN, SwizzleOffset);
            uint32_t nCol = band + 1 == bands ? loopsN - SwizzleOffset * band : SwizzleOffset;
            uint32_t nIdx = band * SwizzleOffset + inBand % nCol;
            uint32_t mIdx = inBand / nCol;
            if (band % 2 == 1) mIdx = loopsM - 1 - mIdx;
            return GemmCoord(mIdx, nIdx, 0);
        }
    }

    // (rows, cols, K) of the block at blockCoord: full tiles except the last block row / column.
    CATLASS_DEVICE GemmCoord GetActualBlockShape(const GemmCoord& blockCoord) const {
        uint32_t m = blockCoord.m() + 1 == loopsMN.row() ? problemShape.m() - blockCoord.m() * tileMN.row()
                                                         : tileMN.row();
        uint32_t n = blockCoord.n() + 1 == loopsMN.column()
                         ? problemShape.n() - blockCoord.n() * tileMN.column()
                         : tileMN.column();
        return GemmCoord(m, n, problemShape.k());
    }
};

}  // namespace Catlass::Gemm::Block
