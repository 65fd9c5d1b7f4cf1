// VisitorAuxLoad<Element, Layout>: an external M x N tensor, read tile by tile (docs/evg-semantics.md §2.2,
// MASTER). `layout` describes the whole tensor (a tla layout or a layout::RowMajor object, row-major only).
//   LOAD: GetTile(tensor, globalOffset, tile shape) clipped to the tensor, one DataCopyPad GM->UB into
//         `ubAux` at row pitch alignedCols. COMPUTE/STORE: nothing. UB: 1 buffer. Returns `ubAux`.
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
#include "catlass/epilogue/tile/copy_tla.hpp"
#include "catlass/layout/layout.hpp"
#include "catlass/tla/layout.hpp"
#include "catlass/tla/tensor.hpp"

namespace Catlass::Epilogue::Fusion {

template <class Element, class Layout = layout::RowMajor>
struct VisitorAuxLoad : detail::NodeHostDefaults {
    using ElementOutput = Element;
    static constexpr std::array<UbAccounting::NodeBuffers, 1> UB_NODES = {
        UbAccounting::node_buffers(UbAccounting::NodeClass::AuxLoad, sizeof(Element))};
    static constexpr uint32_t UB_BUFFERS = UB_NODES[0].buffers;
    struct Callbacks;

    struct Arguments {
        GM_ADDR ptr_aux = nullptr;
        Layout layout = {};
    };
    using Params = Arguments;

    template <class ProblemShape>
    static bool can_implement(const ProblemShape&, const Arguments& args) {
        return args.ptr_aux != nullptr;
    }

    CATLASS_HOST_DEVICE VisitorAuxLoad() = default;
    CATLASS_HOST_DEVICE explicit VisitorAuxLoad(const Params& params_) : params(params_) {}

    Params params;

    template <class ArchTag>
    CATLASS_DEVICE Callbacks get_callbacks(Arch::Resource<ArchTag>& resource, uint32_t& ub_offset,
                                           uint32_t compute_length) {
        // CL elements of UB
        auto ubAux = resource.ubBuf.template GetBufferByByte<Element>(ub_offset);
        ub_offset += compute_length * sizeof(Element);
        return Callbacks(ubAux, params);
    }

    struct Callbacks : EmptyCallbacks {
        AscendC::LocalTensor<Element> ubAux;
        Params params;

        CATLASS_DEVICE Callbacks() = default;
        CATLASS_DEVICE Callbacks(const AscendC::LocalTensor<Element>& ubAux_, const Params& params_)
            : ubAux(ubAux_), params(params_) {}

        template <VisitStage Stage, class ArchTag, class TensorTile, class... Inputs>
        CATLASS_DEVICE const AscendC::LocalTensor<ElementOutput>& visit(const TensorTile& tensorTile,
                                                                        const MatrixCoord& alignedTileShape,
                                                                        const MatrixCoord& globalOffset,
                                                                        const Inputs&... inputs) {
            static_assert(sizeof...(Inputs) == 0, "VisitorAuxLoad is a leaf node: it takes no inputs");
            ((void)inputs, ...);
            if constexpr (Stage == VisitStage::LOAD) {
                // (rows, cols) of the whole M x N tensor, at its row stride
                auto tensor = detail::MakeGmTensor<Element>(params.ptr_aux, params.layout);
                // (rows, cols) of the tile, at the tensor's row stride
                auto gmTile = tla::GetTile(tensor, globalOffset, tensorTile.shape());
                // (rows, cols) of the tile in UB, at row pitch alignedCols
                auto ubView = tla::MakeTensor(
                    ubAux,
                    tla::MakeLayout<Element, layout::RowMajor>(
                        tensorTile.shape().row(), tensorTile.shape().column(), alignedTileShape.column()),
                    Arch::PositionUB{});
                Tile::CopyGm2UbTla<ArchTag, decltype(ubView), decltype(gmTile)>{}(ubView, gmTile);
            }
            return ubAux;
        }
    };
};

}  // namespace Catlass::Epilogue::Fusion
