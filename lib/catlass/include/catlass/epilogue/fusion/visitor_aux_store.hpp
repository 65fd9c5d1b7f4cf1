// VisitorAuxStore<Element, Layout>: writes its one input to an external M x N tensor (docs/evg-semantics.md
// §2.3).
//   STORE: if ptr_aux != nullptr, one DataCopyPad UB->GM of the tile (clipped to the tensor) from the input
//          buffer at row pitch alignedCols. LOAD/COMPUTE: nothing. Never atomic. UB: none.
// Returns its input (a pass-through), so it can feed further nodes (L1 examples 35).
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
struct VisitorAuxStore : detail::NodeHostDefaults {
    using ElementOutput = Element;
    static constexpr std::array<UbAccounting::NodeBuffers, 1> UB_NODES = {
        UbAccounting::node_buffers(UbAccounting::NodeClass::AuxStore, sizeof(Element))};
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

    CATLASS_HOST_DEVICE VisitorAuxStore() = default;
    CATLASS_HOST_DEVICE explicit VisitorAuxStore(const Params& params_) : params(params_) {}

    Params params;

    template <class ArchTag>
    CATLASS_DEVICE Callbacks get_callbacks(Arch::Resource<ArchTag>&, uint32_t&, uint32_t) {
        return Callbacks(params);
    }

    struct Callbacks : EmptyCallbacks {
        Params params;
        AscendC::LocalTensor<Element> ubIn;  // the input handle, returned as this node's output

        CATLASS_DEVICE Callbacks() = default;
        CATLASS_DEVICE explicit Callbacks(const Params& params_) : params(params_) {}

        template <VisitStage Stage, class ArchTag, class TensorTile, class... Inputs>
        CATLASS_DEVICE const AscendC::LocalTensor<ElementOutput>& visit(const TensorTile& tensorTile,
                                                                        const MatrixCoord& alignedTileShape,
                                                                        const MatrixCoord& globalOffset,
                                                                        const Inputs&... inputs) {
            static_assert(sizeof...(Inputs) == 1, "VisitorAuxStore takes exactly one input");
            static_assert((std::is_same_v<Inputs, AscendC::LocalTensor<Element>> && ...),
                          "VisitorAuxStore: the input element type must equal the store's Element; insert a "
                          "VisitorCast before the store");
            ((ubIn = inputs), ...);
            if constexpr (Stage == VisitStage::STORE) {
                if (params.ptr_aux != nullptr) {
                    // (rows, cols) of the whole M x N tensor, at its row stride
                    auto tensor = detail::MakeGmTensor<Element>(params.ptr_aux, params.layout);
                    // (rows, cols) of the tile, at the tensor's row stride
                    auto gmTile = tla::GetTile(tensor, globalOffset, tensorTile.shape());
                    // (rows, cols) of the tile in UB, at row pitch alignedCols
                    auto ubView = tla::MakeTensor(
                        ubIn,
                        tla::MakeLayout<Element, layout::RowMajor>(
                            tensorTile.shape().row(), tensorTile.shape().column(), alignedTileShape.column()),
                        Arch::PositionUB{});
                    Tile::CopyUb2GmTla<ArchTag, decltype(gmTile), decltype(ubView)>{}(gmTile, ubView);
                }
            }
            return ubIn;
        }
    };
};

}  // namespace Catlass::Epilogue::Fusion
