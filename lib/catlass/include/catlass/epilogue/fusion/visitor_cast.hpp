// VisitorCast<ElementTo, ElementFrom, RoundStyle=CAST_NONE>: converts its one input (docs/evg-semantics.md
// §2.4).
//   COMPUTE: Cast over the tile's lanes (its rows times its aligned columns; upstream casts the whole CL,
//   which
//            upstream_hazards().compute_over_compute_length reproduces) into `ubOut`, then
//            PipeBarrier<PIPE_V> (MASTER), so on exit the converted tile may be read by the next vector
//            instruction. LOAD/STORE: nothing.
//   UB: 1 buffer of ElementTo. Returns `ubOut`.
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

namespace Catlass::Epilogue::Fusion {

template <class ElementTo, class ElementFrom, AscendC::RoundMode RoundStyle = AscendC::RoundMode::CAST_NONE>
struct VisitorCast : detail::NodeHostDefaults {
    using ElementOutput = ElementTo;
    static constexpr std::array<UbAccounting::NodeBuffers, 1> UB_NODES = {
        UbAccounting::node_buffers(UbAccounting::NodeClass::Cast, sizeof(ElementTo))};
    static constexpr uint32_t UB_BUFFERS = UB_NODES[0].buffers;
    struct Callbacks;

    struct Arguments {};
    using Params = Arguments;

    CATLASS_HOST_DEVICE VisitorCast() = default;
    CATLASS_HOST_DEVICE explicit VisitorCast(const Params& params_) : params(params_) {}

    Params params;

    template <class ArchTag>
    CATLASS_DEVICE Callbacks get_callbacks(Arch::Resource<ArchTag>& resource, uint32_t& ub_offset,
                                           uint32_t compute_length) {
        // CL elements of UB
        auto ubOut = resource.ubBuf.template GetBufferByByte<ElementTo>(ub_offset);
        ub_offset += compute_length * sizeof(ElementTo);
        return Callbacks(ubOut, compute_length);
    }

    struct Callbacks : EmptyCallbacks {
        AscendC::LocalTensor<ElementTo> ubOut;
        uint32_t computeLength = 0;

        CATLASS_DEVICE Callbacks() = default;
        CATLASS_DEVICE Callbacks(const AscendC::LocalTensor<ElementTo>& ubOut_, uint32_t computeLength_)
            : ubOut(ubOut_), computeLength(computeLength_) {}

        template <VisitStage Stage, class ArchTag, class TensorTile, class... Inputs>
        CATLASS_DEVICE const AscendC::LocalTensor<ElementOutput>& visit(const TensorTile& tensorTile,
                                                                        const MatrixCoord& alignedTileShape,
                                                                        const MatrixCoord& globalOffset,
                                                                        const Inputs&... inputs) {
            static_assert(sizeof...(Inputs) == 1, "VisitorCast takes exactly one input");
            static_assert((std::is_same_v<Inputs, AscendC::LocalTensor<ElementFrom>> && ...),
                          "VisitorCast: the input element type must equal ElementFrom");
            static_assert(!std::is_same_v<ElementTo, ElementFrom>,
                          "VisitorCast: ElementTo equals ElementFrom; no cast is needed, remove the node");
            (void)tensorTile;
            (void)globalOffset;
            if constexpr (Stage == VisitStage::COMPUTE) {
                const uint32_t lanes =
                    compute_lanes(alignedTileShape.row(), alignedTileShape.column(), computeLength);
                (Cast<ElementTo, ElementFrom, RoundStyle>{}.template operator()<ArchTag>(ubOut, lanes,
                                                                                         inputs),
                 ...);
                AscendC::PipeBarrier<AscendC::PIPE_V>();
            } else {
                ((void)inputs, ...);
            }
            return ubOut;
        }
    };
};

}  // namespace Catlass::Epilogue::Fusion
