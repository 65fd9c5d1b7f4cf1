// VisitorColReduce<ReduceFn, Element, Layout=RowMajor, Strategy>: reduces its one input over the tile's
// columns into an M x 1 vector in GM, one value per row (docs/evg-semantics.md §2.9, L1 lineage, MASTER
// conventions). ReduceFn is Add, Max or Min. `layout` is the (M, 1) output layout.
//   COMPUTE: for every tile row r: ReduceSum/Max/Min of its tileCols valid elements into the 32-byte slot r
//            of `ubRowReduce` (element r * 32/sizeof(Element)), with `ubWork` as scratch; a
//            PipeBarrier<PIPE_V> between rows because they share the scratch. (Upstream writes row r's value
//            to ubRowReduce[r], an address that is not 32-byte aligned, and has no barriers, §11.2 item 6;
//            that is not reproduced.) One slot per row fits: tileRows <= CL / 32, so tileRows * 32 B <= CL B.
//   STORE:   SetAtomicAdd/Max/Min<Element>, one DataCopyPad UB->GM of tileRows blocks of one element (UB
//            pitch 32 B, GM pitch the layout's row stride) to out[globalOffset.row ..] (clipped),
//            SetAtomicNone. The GM output must be initialised by the user.
//   LOAD:    nothing. UB: 2 buffers. Returns its input (the pre-reduction tile).
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
#include "catlass/layout/layout.hpp"
#include "catlass/tla/layout.hpp"

namespace Catlass::Epilogue::Fusion {

template <template <class> class ReduceFn, class Element, class Layout = layout::RowMajor,
          ReduceStrategy Strategy = ReduceStrategy::ATOMIC_REDUCE>
struct VisitorColReduce : detail::NodeHostDefaults {
    using ElementOutput = Element;
    using Op = ReduceOp<ReduceFn, Element>;
    static_assert(Op::SUPPORTED,
                  "VisitorColReduce: the reduction functor must be Add, Max or Min (seed-000 names Plus, "
                  "Maximum, Minimum); GM atomics combine only these");
    static constexpr std::array<UbAccounting::NodeBuffers, 1> UB_NODES = {
        UbAccounting::node_buffers(UbAccounting::NodeClass::ColReduce, sizeof(Element))};
    static constexpr uint32_t UB_BUFFERS = UB_NODES[0].buffers;
    struct Callbacks;

    struct Arguments {
        GM_ADDR ptr_col_out = nullptr;
        Layout layout = {};
        Element identity = Element(0);  // unused, as upstream: the output's initial contents are the identity
    };
    using Params = Arguments;

    template <class ProblemShape>
    static bool can_implement(const ProblemShape&, const Arguments& args) {
        return args.ptr_col_out != nullptr;
    }

    CATLASS_HOST_DEVICE VisitorColReduce() = default;
    CATLASS_HOST_DEVICE explicit VisitorColReduce(const Params& params_) : params(params_) {}

    Params params;

    template <class ArchTag>
    CATLASS_DEVICE Callbacks get_callbacks(Arch::Resource<ArchTag>& resource, uint32_t& ub_offset,
                                           uint32_t compute_length) {
        // CL elements of UB
        auto ubRowReduce = resource.ubBuf.template GetBufferByByte<Element>(ub_offset);
        ub_offset += compute_length * sizeof(Element);
        // CL elements of UB
        auto ubWork = resource.ubBuf.template GetBufferByByte<Element>(ub_offset);
        ub_offset += compute_length * sizeof(Element);
        return Callbacks(ubRowReduce, ubWork, params);
    }

    struct Callbacks : EmptyCallbacks {
        static constexpr uint32_t ELEMENTS_PER_BLOCK = BYTE_PER_BLK / sizeof(Element);
        AscendC::LocalTensor<Element> ubRowReduce;  // row r's value at element r * ELEMENTS_PER_BLOCK
        AscendC::LocalTensor<Element> ubWork;       // reduce scratch
        AscendC::LocalTensor<Element> ubIn;         // the input handle, returned as this node's output
        Params params;

        CATLASS_DEVICE Callbacks() = default;
        CATLASS_DEVICE Callbacks(const AscendC::LocalTensor<Element>& ubRowReduce_,
                                 const AscendC::LocalTensor<Element>& ubWork_, const Params& params_)
            : ubRowReduce(ubRowReduce_), ubWork(ubWork_), params(params_) {}

        template <VisitStage Stage, class ArchTag, class TensorTile, class... Inputs>
        CATLASS_DEVICE const AscendC::LocalTensor<ElementOutput>& visit(const TensorTile& tensorTile,
                                                                        const MatrixCoord& alignedTileShape,
                                                                        const MatrixCoord& globalOffset,
                                                                        const Inputs&... inputs) {
            static_assert(sizeof...(Inputs) == 1, "VisitorColReduce takes exactly one input");
            static_assert(
                (std::is_same_v<Inputs, AscendC::LocalTensor<Element>> && ...),
                "VisitorColReduce: the input element type must equal the reduce's Element; insert a "
                "VisitorCast before the reduce");
            ((ubIn = inputs), ...);
            const uint32_t tileCols = tensorTile.shape().column();
            const uint32_t rows = validRows(tensorTile.shape().row(), globalOffset.row());
            if (rows == 0 || tileCols == 0) return ubIn;
            if constexpr (Stage == VisitStage::COMPUTE) {
                const uint32_t alignedCols = alignedTileShape.column();
                for (uint32_t r = 0; r < rows; ++r) {
                    if (r > 0) AscendC::PipeBarrier<AscendC::PIPE_V>();
                    Op::reduce(ubRowReduce[r * ELEMENTS_PER_BLOCK], ubIn[r * alignedCols], ubWork, tileCols);
                }
            } else if constexpr (Stage == VisitStage::STORE) {
                const int64_t stride = Catlass::detail::layout_row_stride(params.layout);
                AscendC::GlobalTensor<Element> gm;
                gm.SetGlobalBuffer(reinterpret_cast<__gm__ Element*>(params.ptr_col_out));
                AscendC::DataCopyExtParams p{
                    static_cast<uint16_t>(rows), static_cast<uint32_t>(sizeof(Element)), 0,
                    static_cast<uint32_t>((stride - 1) * int64_t(sizeof(Element))), 0};
                Op::set_atomic();
                AscendC::DataCopyPad(gm[int64_t(globalOffset.row()) * stride], ubRowReduce, p);
                Op::clear_atomic();
            }
            return ubIn;
        }

        // Tile rows that lie inside the output vector.
        CATLASS_DEVICE uint32_t validRows(uint32_t tileRows, uint32_t row0) const {
            const uint32_t m = Catlass::detail::layout_rows(params.layout);
            const uint32_t left = row0 < m ? m - row0 : 0;
            return tileRows < left ? tileRows : left;
        }
    };
};

}  // namespace Catlass::Epilogue::Fusion
