// VisitorColBroadcast<Element, Layout=RowMajor>: an M x 1 vector repeated across the tile's columns
// (docs/evg-semantics.md §2.8, L1 lineage, in the MASTER conventions). `layout` is the (M, 1) layout.
//   LOAD:    vector[globalOffset.row, +tileRows) (clipped) into `ubOut` with one DataCopyPad GM->UB: one
//            burst when the vector is contiguous (row stride 1), else one 32-byte block per element.
//   COMPUTE: SetFlag/WaitFlag<V_S>(0) (the scalar unit waits until PIPE_V, which waited for MTE2, is idle);
//            then for r = tileRows-1 down to 0: v = GetValue(element r); Duplicate(row r, v, tileCols).
//            The reverse order never overwrites a value not yet read. Then PipeBarrier<PIPE_V>, so on exit
//            the consumer's vector instruction reads complete rows (upstream has none; it would race on
//            AtlasA2).
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
#include "catlass/epilogue/fusion/visitor_impl.hpp"
#include "catlass/layout/layout.hpp"
#include "catlass/tla/layout.hpp"
#include "catlass/tla/tensor.hpp"

namespace Catlass::Epilogue::Fusion {

template <class Element, class Layout = layout::RowMajor>
struct VisitorColBroadcast : detail::NodeHostDefaults {
    using ElementOutput = Element;
    static_assert(
        std::is_same_v<Element, int16_t> || std::is_same_v<Element, half> ||
            std::is_same_v<Element, bfloat16_t> || std::is_same_v<Element, int32_t> ||
            std::is_same_v<Element, float>,
        "VisitorColBroadcast: rows are filled with Duplicate, which accepts int16, half, bfloat16, int32 and "
        "float only; broadcast a wider type and Cast");
    static constexpr std::array<UbAccounting::NodeBuffers, 1> UB_NODES = {
        UbAccounting::node_buffers(UbAccounting::NodeClass::ColBroadcast, sizeof(Element))};
    static constexpr uint32_t UB_BUFFERS = UB_NODES[0].buffers;
    struct Callbacks;

    struct Arguments {
        GM_ADDR ptr_col = nullptr;
        Layout layout = {};
    };
    using Params = Arguments;

    template <class ProblemShape>
    static bool can_implement(const ProblemShape&, const Arguments& args) {
        return args.ptr_col != nullptr;
    }

    CATLASS_HOST_DEVICE VisitorColBroadcast() = default;
    CATLASS_HOST_DEVICE explicit VisitorColBroadcast(const Params& params_) : params(params_) {}

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
        static constexpr uint32_t ELEMENTS_PER_BLOCK = BYTE_PER_BLK / sizeof(Element);
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
            static_assert(sizeof...(Inputs) == 0, "VisitorColBroadcast is a leaf node: it takes no inputs");
            ((void)inputs, ...);
            const int64_t stride = Catlass::detail::layout_row_stride(params.layout);
            // UB element index of vector element r: contiguous, or one 32-byte block each.
            const uint32_t pitch = stride == 1 ? 1 : ELEMENTS_PER_BLOCK;
            const uint32_t rows = validRows(tensorTile.shape().row(), globalOffset.row());
            if constexpr (Stage == VisitStage::LOAD) {
                if (rows == 0) return ubOut;
                AscendC::GlobalTensor<Element> gm;
                gm.SetGlobalBuffer(reinterpret_cast<__gm__ Element*>(params.ptr_col));
                const int64_t first = int64_t(globalOffset.row()) * stride;
                AscendC::DataCopyExtParams p =
                    stride == 1 ? AscendC::DataCopyExtParams{1, static_cast<uint32_t>(rows * sizeof(Element)),
                                                             0, 0, 0}
                                : AscendC::DataCopyExtParams{
                                      static_cast<uint16_t>(rows), static_cast<uint32_t>(sizeof(Element)),
                                      static_cast<uint32_t>((stride - 1) * int64_t(sizeof(Element))), 0, 0};
                AscendC::DataCopyPad(ubOut, gm[first], p,
                                     AscendC::DataCopyPadExtParams<Element>{false, 0, 0, Element{}});
            } else if constexpr (Stage == VisitStage::COMPUTE) {
                if (rows == 0) return ubOut;
                const uint32_t alignedCols = alignedTileShape.column();
                const uint32_t tileCols = tensorTile.shape().column();
                AscendC::SetFlag<AscendC::HardEvent::V_S>(0);
                AscendC::WaitFlag<AscendC::HardEvent::V_S>(0);
                for (uint32_t r = rows; r-- > 0;) {
                    Element v = ubOut.GetValue(r * pitch);
                    AscendC::Duplicate(ubOut[r * alignedCols], v, static_cast<int32_t>(tileCols));
                }
                AscendC::PipeBarrier<AscendC::PIPE_V>();
            }
            return ubOut;
        }

        // Tile rows that lie inside the vector (the rest of the tile is never stored).
        CATLASS_DEVICE uint32_t validRows(uint32_t tileRows, uint32_t row0) const {
            const uint32_t m = Catlass::detail::layout_rows(params.layout);
            const uint32_t left = row0 < m ? m - row0 : 0;
            return tileRows < left ? tileRows : left;
        }
    };
};

}  // namespace Catlass::Epilogue::Fusion
