// VisitorRowBroadcast<Element, Layout>: a 1 x N vector repeated down the tile's rows (docs/evg-semantics.md
// §2.6). `layout` is the 2-D (1, N) layout of the vector (tla or layout::RowMajor object).
//   LOAD:    one DataCopyPad GM->UB of vector[globalOffset.col, +tileCols) into row 0 of `ubOut`.
//   COMPUTE: DataCopy UB->UB (PIPE_V) of row 0 into rows 1 .. tileRows-1, alignedCols elements each; then
//            PipeBarrier<PIPE_V> so that the consumer's vector instruction reads complete rows (correct by
//            default: upstream has no barrier here, §11.2 item 2; upstream_hazards().row_broadcast_no_barrier
//            reproduces that, which races on AtlasA2 and is ordered on Ascend950). With one row there is
//            nothing to copy and no barrier.
//   STORE:   nothing. UB: 1 buffer. Returns `ubOut`.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "catlass/arch/resource.hpp"
#include "catlass/catlass.hpp"
#include "catlass/coord.hpp"
#include "catlass/epilogue/fusion/node_defaults.hpp"
#include "catlass/epilogue/fusion/ub_accounting.hpp"
#include "catlass/epilogue/fusion/upstream_hazards.hpp"
#include "catlass/epilogue/fusion/visitor_impl.hpp"
#include "catlass/epilogue/tile/copy_tla.hpp"
#include "catlass/layout/layout.hpp"
#include "catlass/tla/layout.hpp"
#include "catlass/tla/tensor.hpp"

namespace Catlass::Epilogue::Fusion {

template <class Element, class Layout = layout::RowMajor>
struct VisitorRowBroadcast : detail::NodeHostDefaults {
    using ElementOutput = Element;
    static constexpr std::array<UbAccounting::NodeBuffers, 1> UB_NODES = {
        UbAccounting::node_buffers(UbAccounting::NodeClass::RowBroadcast, sizeof(Element))};
    static constexpr uint32_t UB_BUFFERS = UB_NODES[0].buffers;
    struct Callbacks;

    struct Arguments {
        GM_ADDR ptr_row = nullptr;
        Layout layout = {};
    };
    using Params = Arguments;

    template <class ProblemShape>
    static bool can_implement(const ProblemShape&, const Arguments& args) {
        return args.ptr_row != nullptr;
    }

    CATLASS_HOST_DEVICE VisitorRowBroadcast() = default;
    CATLASS_HOST_DEVICE explicit VisitorRowBroadcast(const Params& params_) : params(params_) {}

    Params params;

    template <class ArchTag>
    CATLASS_DEVICE Callbacks get_callbacks(Arch::Resource<ArchTag>& resource, uint32_t& ub_offset,
                                           uint32_t compute_length) {
        // CL elements of UB
        auto ubOut = resource.ubBuf.template GetBufferByByte<Element>(ub_offset);
        ub_offset += compute_length * sizeof(Element);
        return Callbacks(ubOut, params);
    }

    struct Callbacks : EmptyCallbacks {
        AscendC::LocalTensor<Element> ubOut;
        Params params;

        CATLASS_DEVICE Callbacks() = default;
        CATLASS_DEVICE Callbacks(const AscendC::LocalTensor<Element>& ubOut_, const Params& params_)
            : ubOut(ubOut_), params(params_) {}

        template <VisitStage Stage, class ArchTag, class TensorTile, class... Inputs>
        CATLASS_DEVICE const AscendC::LocalTensor<ElementOutput>& visit(const TensorTile& tensorTile,
                                                                        const MatrixCoord& alignedTileShape,
                                                                        const MatrixCoord& globalOffset,
                                                                        const Inputs&... inputs) {
            static_assert(sizeof...(Inputs) == 0, "VisitorRowBroadcast is a leaf node: it takes no inputs");
            ((void)inputs, ...);
            const uint32_t tileRows = tensorTile.shape().row();
            const uint32_t tileCols = tensorTile.shape().column();
            const uint32_t alignedCols = alignedTileShape.column();
            if constexpr (Stage == VisitStage::LOAD) {
                // (1, N): the whole row vector, at its row stride
                auto vector = detail::MakeGmTensor<Element>(params.ptr_row, params.layout);
                // (1, cols): the tile's columns of the vector
                auto gmTile =
                    tla::GetTile(vector, MatrixCoord(0, globalOffset.column()), MatrixCoord(1, tileCols));
                // (1, cols) of the tile in UB
                auto ubView = tla::MakeTensor(
                    ubOut, tla::MakeLayout<Element, layout::RowMajor>(1, tileCols, alignedCols),
                    Arch::PositionUB{});
                Tile::CopyGm2UbTla<ArchTag, decltype(ubView), decltype(gmTile)>{}(ubView, gmTile);
            } else if constexpr (Stage == VisitStage::COMPUTE) {
                for (uint32_t r = 1; r < tileRows; ++r)
                    AscendC::DataCopy(ubOut[r * alignedCols], ubOut, alignedCols);
                if (tileRows > 1 && !upstream_hazards().row_broadcast_no_barrier)
                    AscendC::PipeBarrier<AscendC::PIPE_V>();
            }
            return ubOut;
        }
    };
};

}  // namespace Catlass::Epilogue::Fusion
