// VisitorRowReduce<ReduceFn, Element, Layout=RowMajor, Strategy>: reduces its one input over the tile's rows
// into a 1 x N vector in GM, one value per column (docs/evg-semantics.md §2.7, L1 lineage, MASTER
// conventions). ReduceFn is Add, Max or Min (seed-000 Plus, Maximum, Minimum). `layout` is the (1, N) output
// layout.
//   COMPUTE: DataCopy UB->UB of row 0 into `ubReduce`, then for r = 1 .. tileRows-1: PipeBarrier<PIPE_V>,
//            ubReduce = op(ubReduce, row r), alignedCols elements each. (Upstream first fills `ubReduce` with
//            `identity` and overwrites it at once; that adds nothing but a race on AtlasA2, so it is left
//            out: the first row starts the partial.)
//   STORE:   SetAtomicAdd/Max/Min<Element>, one DataCopyPad UB->GM of tileCols elements to
//            out[globalOffset.col ..] (clipped), SetAtomicNone. The GM output must be initialised by the user
//            (0 for sums, lowest() for max, max() for min): every tile adds its partial atomically.
//   LOAD:    nothing. UB: 1 buffer. Returns its input (the pre-reduction tile).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "catlass/arch/resource.hpp"
#include "catlass/catlass.hpp"
#include "catlass/coord.hpp"
#include "catlass/epilogue/fusion/node_defaults.hpp"
#include "catlass/epilogue/fusion/operations.hpp"
#include "catlass/epilogue/fusion/ub_accounting.hpp"
#include "catlass/epilogue/fusion/visitor_impl.hpp"
#include "catlass/epilogue/tile/copy_tla.hpp"
#include "catlass/layout/layout.hpp"
#include "catlass/tla/layout.hpp"
#include "catlass/tla/tensor.hpp"

namespace Catlass::Epilogue::Fusion {

template <template <class> class ReduceFn, class Element, class Layout = layout::RowMajor,
          ReduceStrategy Strategy = ReduceStrategy::ATOMIC_REDUCE>
struct VisitorRowReduce : detail::NodeHostDefaults {
    using ElementOutput = Element;
    using Op = ReduceOp<ReduceFn, Element>;
    static_assert(Op::SUPPORTED,
                  "VisitorRowReduce: the reduction functor must be Add, Max or Min (seed-000 names Plus, "
                  "Maximum, Minimum); GM atomics combine only these");
    static constexpr std::array<UbAccounting::NodeBuffers, 1> UB_NODES = {
        UbAccounting::node_buffers(UbAccounting::NodeClass::RowReduce, sizeof(Element))};
    static constexpr uint32_t UB_BUFFERS = UB_NODES[0].buffers;
    struct Callbacks;

    struct Arguments {
        GM_ADDR ptr_row_out = nullptr;
        Layout layout = {};
        Element identity = Element(0);
    };
    using Params = Arguments;

    template <class ProblemShape>
    static bool can_implement(const ProblemShape&, const Arguments& args) {
        return args.ptr_row_out != nullptr;
    }

    CATLASS_HOST_DEVICE VisitorRowReduce() = default;
    CATLASS_HOST_DEVICE explicit VisitorRowReduce(const Params& params_) : params(params_) {}

    Params params;

    template <class ArchTag>
    CATLASS_DEVICE Callbacks get_callbacks(Arch::Resource<ArchTag>& resource, uint32_t& ub_offset,
                                           uint32_t compute_length) {
        // CL elements of UB
        auto ubReduce = resource.ubBuf.template GetBufferByByte<Element>(ub_offset);
        ub_offset += compute_length * sizeof(Element);
        return Callbacks(ubReduce, params);
    }

    struct Callbacks : EmptyCallbacks {
        AscendC::LocalTensor<Element> ubReduce;  // per-column partial of the tile, alignedCols elements
        AscendC::LocalTensor<Element> ubIn;      // the input handle, returned as this node's output
        Params params;

        CATLASS_DEVICE Callbacks() = default;
        CATLASS_DEVICE Callbacks(const AscendC::LocalTensor<Element>& ubReduce_, const Params& params_)
            : ubReduce(ubReduce_), params(params_) {}

        template <VisitStage Stage, class ArchTag, class TensorTile, class... Inputs>
        CATLASS_DEVICE const AscendC::LocalTensor<ElementOutput>& visit(const TensorTile& tensorTile,
                                                                        const MatrixCoord& alignedTileShape,
                                                                        const MatrixCoord& globalOffset,
                                                                        const Inputs&... inputs) {
            static_assert(sizeof...(Inputs) == 1, "VisitorRowReduce takes exactly one input");
            static_assert(
                (std::is_same_v<Inputs, AscendC::LocalTensor<Element>> && ...),
                "VisitorRowReduce: the input element type must equal the reduce's Element; insert a "
                "VisitorCast before the reduce");
            ((ubIn = inputs), ...);
            const uint32_t tileRows = tensorTile.shape().row();
            const uint32_t tileCols = tensorTile.shape().column();
            const uint32_t alignedCols = alignedTileShape.column();
            if (tileRows == 0 || tileCols == 0) return ubIn;
            if constexpr (Stage == VisitStage::COMPUTE) {
                AscendC::DataCopy(ubReduce, ubIn, alignedCols);
                for (uint32_t r = 1; r < tileRows; ++r) {
                    AscendC::PipeBarrier<AscendC::PIPE_V>();
                    Op::combine(ubReduce, ubReduce, ubIn[r * alignedCols], alignedCols);
                }
            } else if constexpr (Stage == VisitStage::STORE) {
                // (1, N): the whole output row, at its row stride
                auto vector = detail::MakeGmTensor<Element>(params.ptr_row_out, params.layout);
                // (1, cols): the tile's columns of the vector
                auto gmTile =
                    tla::GetTile(vector, MatrixCoord(0, globalOffset.column()), MatrixCoord(1, tileCols));
                // (1, cols) of the tile in UB
                auto ubView = tla::MakeTensor(
                    ubReduce, tla::MakeLayout<Element, layout::RowMajor>(1, tileCols, alignedCols),
                    Arch::PositionUB{});
                Op::set_atomic();
                Tile::CopyUb2GmTla<ArchTag, decltype(gmTile), decltype(ubView)>{}(gmTile, ubView);
                Op::clear_atomic();
            }
            return ubIn;
        }
    };
};

}  // namespace Catlass::Epilogue::Fusion
