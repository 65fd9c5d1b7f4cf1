// VisitorCompute<ComputeFn, ElementCompute, Scalars...>: an element-wise functor of operations.hpp over its
// inputs (docs/evg-semantics.md §2.5, MASTER). Arguments = { tla::tuple<Scalars...> scalars; } ({} for none,
// {{0.1f}} for one); the functor is aggregate-initialised as ComputeFn<ElementCompute>{scalars...}.
//   COMPUTE: fn.template operator()<ArchTag>(ubOut, lanes, inputs...) over the tile's lanes (its rows times
//   its
//            aligned columns; upstream works over the whole CL, which
//            upstream_hazards().compute_over_compute_length reproduces: docs/hazards.md), then
//            PipeBarrier<PIPE_V> (MASTER): on exit the result may be read by the next vector instruction.
//   LOAD/STORE: nothing. UB: 1 buffer of ElementCompute. Returns `ubOut`.
// A user functor without the ArchTag template parameter is called as fn(ubOut, lanes, inputs...).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "catlass/arch/arch.hpp"
#include "catlass/arch/resource.hpp"
#include "catlass/catlass.hpp"
#include "catlass/coord.hpp"
#include "catlass/epilogue/fusion/node_defaults.hpp"
#include "catlass/epilogue/fusion/operations.hpp"
#include "catlass/epilogue/fusion/ub_accounting.hpp"
#include "catlass/epilogue/fusion/upstream_hazards.hpp"
#include "catlass/epilogue/fusion/visitor_impl.hpp"
#include "catlass/tla/tuple.hpp"

namespace Catlass::Epilogue::Fusion {

template <template <class> class ComputeFn, class ElementCompute, typename... Scalars>
struct VisitorCompute : detail::NodeHostDefaults {
    using ElementOutput = ElementCompute;
    static constexpr std::array<UbAccounting::NodeBuffers, 1> UB_NODES = {
        UbAccounting::node_buffers(UbAccounting::NodeClass::Compute, sizeof(ElementCompute))};
    static constexpr uint32_t UB_BUFFERS = UB_NODES[0].buffers;
    struct Callbacks;

    struct Arguments {
        tla::tuple<Scalars...> scalars;
    };
    using Params = Arguments;

    CATLASS_HOST_DEVICE VisitorCompute() = default;
    CATLASS_HOST_DEVICE explicit VisitorCompute(const Params& params_) : params(params_) {}

    Params params;

    template <class ArchTag>
    CATLASS_DEVICE Callbacks get_callbacks(Arch::Resource<ArchTag>& resource, uint32_t& ub_offset,
                                           uint32_t compute_length) {
        // CL elements of UB
        auto ubOut = resource.ubBuf.template GetBufferByByte<ElementCompute>(ub_offset);
        ub_offset += compute_length * sizeof(ElementCompute);
        return Callbacks(ubOut, compute_length, params.scalars);
    }

    struct Callbacks : EmptyCallbacks {
        AscendC::LocalTensor<ElementCompute> ubOut;
        uint32_t computeLength = 0;
        tla::tuple<Scalars...> scalars;

        CATLASS_DEVICE Callbacks() = default;
        CATLASS_DEVICE Callbacks(const AscendC::LocalTensor<ElementCompute>& ubOut_, uint32_t computeLength_,
                                 const tla::tuple<Scalars...>& scalars_)
            : ubOut(ubOut_), computeLength(computeLength_), scalars(scalars_) {}

        template <VisitStage Stage, class ArchTag, class TensorTile, class... Inputs>
        CATLASS_DEVICE const AscendC::LocalTensor<ElementOutput>& visit(const TensorTile& tensorTile,
                                                                        const MatrixCoord& alignedTileShape,
                                                                        const MatrixCoord& globalOffset,
                                                                        const Inputs&... inputs) {
            static_assert(sizeof...(Inputs) >= 1, "VisitorCompute needs at least one input");
            static_assert((std::is_same_v<Inputs, AscendC::LocalTensor<ElementCompute>> && ...),
                          "VisitorCompute: every input element type must equal ElementCompute; insert a "
                          "VisitorCast before the compute node");
            static_assert(
                !(std::is_same_v<ArchTag, Arch::AtlasA2> && std::is_same_v<ElementCompute, bfloat16_t>),
                "VisitorCompute: bfloat16 arithmetic is not supported on AtlasA2; cast to float "
                "first");
            (void)tensorTile;
            (void)globalOffset;
            if constexpr (Stage == VisitStage::COMPUTE) {
                const uint32_t lanes =
                    compute_lanes(alignedTileShape.row(), alignedTileShape.column(), computeLength);
                const auto fn = [&]<size_t... I>(std::index_sequence<I...>) {
                    return ComputeFn<ElementCompute>{tla::get<I>(scalars)...};
                }
                (std::index_sequence_for<Scalars...>{});
                if constexpr (requires { fn.template operator()<ArchTag>(ubOut, lanes, inputs...); }) {
                    fn.template operator()<ArchTag>(ubOut, lanes, inputs...);
                } else {
                    static_assert(
                        requires { fn(ubOut, lanes, inputs...); },
                        "VisitorCompute: the functor cannot take these inputs; check the number of "
                        "inputs the ComputeFn expects");
                    fn(ubOut, lanes, inputs...);
                }
                AscendC::PipeBarrier<AscendC::PIPE_V>();
            } else {
                ((void)inputs, ...);
            }
            return ubOut;
        }
    };
};

}  // namespace Catlass::Epilogue::Fusion
