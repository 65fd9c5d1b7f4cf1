// VisitorAccLoad<Element, USE_UB_WORKSPACE=false>: the GEMM C tile (docs/evg-semantics.md §2.1, MASTER).
// The canonical node: every Visitor* has the same parts in the same order (types, Arguments, Params, static
// host functions, constructors, get_callbacks, Callbacks).
//   GM path: LOAD copies the C tile (its clipped origin shape) from the GM workspace into `ubAcc`, row pitch
//            alignedCols, with one DataCopyPad GM->UB; COMPUTE/STORE issue nothing. UB: 1 buffer.
//   UB path: no instruction in any stage; `ubAcc` is re-pointed at the tile inside the UB C tensor. UB: 0.
// Returns `ubAcc` in every stage.
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
#include "catlass/tla/layout.hpp"
#include "catlass/tla/tensor.hpp"

namespace Catlass::Epilogue::Fusion {

template <class Element, bool USE_UB_WORKSPACE = false>
struct VisitorAccLoad : detail::NodeHostDefaults {
    using ElementOutput = Element;
    static constexpr std::array<UbAccounting::NodeBuffers, 1> UB_NODES = {UbAccounting::node_buffers(
        USE_UB_WORKSPACE ? UbAccounting::NodeClass::AccLoadUb : UbAccounting::NodeClass::AccLoadGm,
        sizeof(Element))};
    static constexpr uint32_t UB_BUFFERS = UB_NODES[0].buffers;
    struct Callbacks;

    struct Arguments {};
    using Params = Arguments;

    CATLASS_HOST_DEVICE VisitorAccLoad() = default;
    CATLASS_HOST_DEVICE explicit VisitorAccLoad(const Params& params_) : params(params_) {}

    Params params;

    template <class ArchTag>
    CATLASS_DEVICE Callbacks get_callbacks(Arch::Resource<ArchTag>& resource, uint32_t& ub_offset,
                                           uint32_t compute_length) {
        if constexpr (USE_UB_WORKSPACE) {
            return Callbacks({}, compute_length);
        } else {
            // CL elements of UB
            auto ubAcc = resource.ubBuf.template GetBufferByByte<Element>(ub_offset);
            ub_offset += compute_length * sizeof(Element);
            return Callbacks(ubAcc, compute_length);
        }
    }

    struct Callbacks : EmptyCallbacks {
        AscendC::LocalTensor<Element> ubAcc;
        uint32_t computeLength = 0;

        CATLASS_DEVICE Callbacks() = default;
        CATLASS_DEVICE Callbacks(const AscendC::LocalTensor<Element>& ubAcc_, uint32_t computeLength_)
            : ubAcc(ubAcc_), computeLength(computeLength_) {}

        template <VisitStage Stage, class ArchTag, class TensorTile, class... Inputs>
        CATLASS_DEVICE const AscendC::LocalTensor<ElementOutput>& visit(const TensorTile& tensorTile,
                                                                        const MatrixCoord& alignedTileShape,
                                                                        const MatrixCoord& globalOffset,
                                                                        const Inputs&... inputs) {
            static_assert(sizeof...(Inputs) == 0, "VisitorAccLoad is a leaf node: it takes no inputs");
            static_assert(
                std::is_same_v<typename TensorTile::Element, Element>,
                "VisitorAccLoad: Element must equal the accumulator (C) element type of the kernel");
            ((void)inputs, ...);
            (void)globalOffset;  // C is read with the tile's local coordinates (tensorTile), not global ones
            if constexpr (USE_UB_WORKSPACE) {
                // The tile already sits in UB: point at it (row pitch RoundUp<32>(nBlock) = alignedCols).
                ubAcc = tensorTile.data()[static_cast<uint32_t>(tensorTile.offset())];
            } else if constexpr (Stage == VisitStage::LOAD) {
                // (rows, cols) of the tile in UB, at row pitch alignedCols
                auto ubView = tla::MakeTensor(
                    ubAcc,
                    tla::MakeLayout<Element, layout::RowMajor>(
                        tensorTile.shape().row(), tensorTile.shape().column(), alignedTileShape.column()),
                    Arch::PositionUB{});
                Tile::CopyGm2UbTla<ArchTag, decltype(ubView), TensorTile>{}(ubView, tensorTile);
            }
            return ubAcc;
        }
    };
};

}  // namespace Catlass::Epilogue::Fusion
