// VisitorScalarBroadcast<Element, Layout=RowMajor>: one GM scalar repeated over the whole tile
// (docs/evg-semantics.md §2.10, L1 lineage, in the MASTER conventions). `layout` is the (1, 1) layout.
//   LOAD:    one DataCopyPad GM->UB of the element at layout offset (0, 0) into ubOut[0].
//   COMPUTE: SetFlag/WaitFlag<V_S>(0); v = GetValue(0); Duplicate(row r, v, tileCols) for every tile row;
//            then PipeBarrier<PIPE_V> so the consumer reads complete rows (upstream has none).
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

namespace Catlass::Epilogue::Fusion {

template <class Element, class Layout = layout::RowMajor>
struct VisitorScalarBroadcast : detail::NodeHostDefaults {
    using ElementOutput = Element;
    static_assert(std::is_same_v<Element, int16_t> || std::is_same_v<Element, half> ||
                      std::is_same_v<Element, bfloat16_t> || std::is_same_v<Element, int32_t> ||
                      std::is_same_v<Element, float>,
                  "VisitorScalarBroadcast: rows are filled with Duplicate, which accepts int16, half, "
                  "bfloat16, int32 and "
                  "float only; broadcast a wider type and Cast");
    static constexpr std::array<UbAccounting::NodeBuffers, 1> UB_NODES = {
        UbAccounting::node_buffers(UbAccounting::NodeClass::ScalarBroadcast, sizeof(Element))};
    static constexpr uint32_t UB_BUFFERS = UB_NODES[0].buffers;
    struct Callbacks;

    struct Arguments {
        GM_ADDR ptr_scalar = nullptr;
        Layout layout = {};
    };
    using Params = Arguments;

    template <class ProblemShape>
    static bool can_implement(const ProblemShape&, const Arguments& args) {
        return args.ptr_scalar != nullptr;
    }

    CATLASS_HOST_DEVICE VisitorScalarBroadcast() = default;
    CATLASS_HOST_DEVICE explicit VisitorScalarBroadcast(const Params& params_) : params(params_) {}

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
            static_assert(sizeof...(Inputs) == 0,
                          "VisitorScalarBroadcast is a leaf node: it takes no inputs");
            ((void)inputs, ...);
            (void)globalOffset;
            if constexpr (Stage == VisitStage::LOAD) {
                AscendC::GlobalTensor<Element> gm;
                gm.SetGlobalBuffer(reinterpret_cast<__gm__ Element*>(params.ptr_scalar));
                AscendC::DataCopyExtParams p{1, static_cast<uint32_t>(sizeof(Element)), 0, 0, 0};
                AscendC::DataCopyPad(ubOut, gm[params.layout.GetOffset(MatrixCoord(0, 0))], p,
                                     AscendC::DataCopyPadExtParams<Element>{false, 0, 0, Element{}});
            } else if constexpr (Stage == VisitStage::COMPUTE) {
                const uint32_t tileRows = tensorTile.shape().row();
                const uint32_t tileCols = tensorTile.shape().column();
                AscendC::SetFlag<AscendC::HardEvent::V_S>(0);
                AscendC::WaitFlag<AscendC::HardEvent::V_S>(0);
                const Element v = ubOut.GetValue(0);
                for (uint32_t r = 0; r < tileRows; ++r)
                    AscendC::Duplicate(ubOut[r * alignedTileShape.column()], v,
                                       static_cast<int32_t>(tileCols));
                AscendC::PipeBarrier<AscendC::PIPE_V>();
            }
            return ubOut;
        }
    };
};

}  // namespace Catlass::Epilogue::Fusion
