// VisitorScalarReduce<ReduceFn, Element, Layout=RowMajor, Strategy>: reduces its one input over the whole
// tile into one GM scalar (docs/evg-semantics.md §2.11, L1 lineage, MASTER conventions). ReduceFn is Add, Max
// or Min. `layout` is the (1, 1) output layout.
//   COMPUTE: with several rows, the per-column partial as in VisitorRowReduce (DataCopy of row 0, then
//            PipeBarrier<PIPE_V> + op per further row) into `ubScalar`, then PipeBarrier<PIPE_V>; then one
//            ReduceSum/Max/Min of the tileCols VALID columns (of the one row directly) into ubWork[0], with
//            ubWork[32 B ..] as scratch. Upstream reduces alignedCols columns, padding included (§11.2 item
//            5); upstream_hazards().scalar_reduce_sums_padding reproduces that: the padding lanes, never
//            written by a copy, then reach GM (uninit_to_gm), or add garbage when they hold stale data.
//   STORE:   SetAtomicAdd/Max/Min<Element>, one DataCopyPad UB->GM of the one element, SetAtomicNone. The GM
//            output must be initialised by the user.
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
#include "catlass/epilogue/fusion/upstream_hazards.hpp"
#include "catlass/epilogue/fusion/visitor_impl.hpp"
#include "catlass/layout/layout.hpp"

namespace Catlass::Epilogue::Fusion {

template <template <class> class ReduceFn, class Element, class Layout = layout::RowMajor,
          ReduceStrategy Strategy = ReduceStrategy::ATOMIC_REDUCE>
struct VisitorScalarReduce : detail::NodeHostDefaults {
    using ElementOutput = Element;
    using Op = ReduceOp<ReduceFn, Element>;
    static_assert(Op::SUPPORTED,
                  "VisitorScalarReduce: the reduction functor must be Add, Max or Min (seed-000 names Plus, "
                  "Maximum, Minimum); GM atomics combine only these");
    static constexpr std::array<UbAccounting::NodeBuffers, 1> UB_NODES = {
        UbAccounting::node_buffers(UbAccounting::NodeClass::ScalarReduce, sizeof(Element))};
    static constexpr uint32_t UB_BUFFERS = UB_NODES[0].buffers;
    struct Callbacks;

    struct Arguments {
        GM_ADDR ptr_scalar_out = nullptr;
        Layout layout = {};
        Element identity = Element(0);  // unused: the output's initial contents are the identity
    };
    using Params = Arguments;

    template <class ProblemShape>
    static bool can_implement(const ProblemShape&, const Arguments& args) {
        return args.ptr_scalar_out != nullptr;
    }

    CATLASS_HOST_DEVICE VisitorScalarReduce() = default;
    CATLASS_HOST_DEVICE explicit VisitorScalarReduce(const Params& params_) : params(params_) {}

    Params params;

    template <class ArchTag>
    CATLASS_DEVICE Callbacks get_callbacks(Arch::Resource<ArchTag>& resource, uint32_t& ub_offset,
                                           uint32_t compute_length) {
        // CL elements of UB
        auto ubScalar = resource.ubBuf.template GetBufferByByte<Element>(ub_offset);
        ub_offset += compute_length * sizeof(Element);
        // CL elements of UB
        auto ubWork = resource.ubBuf.template GetBufferByByte<Element>(ub_offset);
        ub_offset += compute_length * sizeof(Element);
        return Callbacks(ubScalar, ubWork, params);
    }

    struct Callbacks : EmptyCallbacks {
        static constexpr uint32_t ELEMENTS_PER_BLOCK = BYTE_PER_BLK / sizeof(Element);
        AscendC::LocalTensor<Element> ubScalar;  // per-column partial, alignedCols elements
        AscendC::LocalTensor<Element> ubWork;    // [0]: the tile's result; from element 32 B on: scratch
        AscendC::LocalTensor<Element> ubIn;      // the input handle, returned as this node's output
        Params params;

        CATLASS_DEVICE Callbacks() = default;
        CATLASS_DEVICE Callbacks(const AscendC::LocalTensor<Element>& ubScalar_,
                                 const AscendC::LocalTensor<Element>& ubWork_, const Params& params_)
            : ubScalar(ubScalar_), ubWork(ubWork_), params(params_) {}

        template <VisitStage Stage, class ArchTag, class TensorTile, class... Inputs>
        CATLASS_DEVICE const AscendC::LocalTensor<ElementOutput>& visit(const TensorTile& tensorTile,
                                                                        const MatrixCoord& alignedTileShape,
                                                                        const MatrixCoord& globalOffset,
                                                                        const Inputs&... inputs) {
            static_assert(sizeof...(Inputs) == 1, "VisitorScalarReduce takes exactly one input");
            static_assert(
                (std::is_same_v<Inputs, AscendC::LocalTensor<Element>> && ...),
                "VisitorScalarReduce: the input element type must equal the reduce's Element; insert "
                "a VisitorCast before the reduce");
            ((ubIn = inputs), ...);
            (void)globalOffset;
            const uint32_t tileRows = tensorTile.shape().row();
            const uint32_t tileCols = tensorTile.shape().column();
            const uint32_t alignedCols = alignedTileShape.column();
            if (tileRows == 0 || tileCols == 0) return ubIn;
            if constexpr (Stage == VisitStage::COMPUTE) {
                AscendC::LocalTensor<Element> partial = ubIn;
                if (tileRows > 1) {
                    AscendC::DataCopy(ubScalar, ubIn, alignedCols);
                    for (uint32_t r = 1; r < tileRows; ++r) {
                        AscendC::PipeBarrier<AscendC::PIPE_V>();
                        Op::combine(ubScalar, ubScalar, ubIn[r * alignedCols], alignedCols);
                    }
                    AscendC::PipeBarrier<AscendC::PIPE_V>();
                    partial = ubScalar;
                }
                const uint32_t count = upstream_hazards().scalar_reduce_sums_padding ? alignedCols : tileCols;
                Op::reduce(ubWork, partial, ubWork[ELEMENTS_PER_BLOCK], count);
            } else if constexpr (Stage == VisitStage::STORE) {
                AscendC::GlobalTensor<Element> gm;
                gm.SetGlobalBuffer(reinterpret_cast<__gm__ Element*>(params.ptr_scalar_out));
                AscendC::DataCopyExtParams p{1, static_cast<uint32_t>(sizeof(Element)), 0, 0, 0};
                Op::set_atomic();
                AscendC::DataCopyPad(gm[params.layout.GetOffset(MatrixCoord(0, 0))], ubWork, p);
                Op::clear_atomic();
            }
            return ubIn;
        }
    };
};

}  // namespace Catlass::Epilogue::Fusion
