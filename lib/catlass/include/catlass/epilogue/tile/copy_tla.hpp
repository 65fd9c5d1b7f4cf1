// CopyGm2UbTla / CopyUb2GmTla: one DataCopyPad per tile, with the parameters of docs/evg-semantics.md §5.6.
// GM side: rows of originCols elements, gap (gmRowStride - originCols) elements in bytes.
// UB side: rows at pitch ubRowStride elements (a multiple of 32 elements), gap in 32-byte blocks.
#pragma once
#include <cstdint>

#include "catlass/catlass.hpp"
#include "catlass/tla/tensor.hpp"

namespace Catlass::Epilogue::Tile {

template <class ArchTag, class TensorDst, class TensorSrc>
struct CopyGm2UbTla {
    using Element = typename TensorSrc::Element;
    // dst: a UB tensor (row pitch = its layout's row stride); src: a GM tile.
    CATLASS_DEVICE void operator()(const TensorDst& dst, const TensorSrc& src) const {
        uint32_t rows = src.originShape().row(), cols = src.originShape().column();
        if (rows == 0 || cols == 0) return;
        int64_t gm_stride = Catlass::detail::layout_row_stride(src.layout());
        int64_t ub_stride = Catlass::detail::layout_row_stride(dst.layout());
        constexpr uint32_t kPerBlock = BYTE_PER_BLK / sizeof(Element);
        AscendC::DataCopyExtParams p{static_cast<uint16_t>(rows),
                                     static_cast<uint32_t>(cols * sizeof(Element)),
                                     static_cast<uint32_t>((gm_stride - cols) * int64_t(sizeof(Element))),
                                     static_cast<uint32_t>((ub_stride - cols) / kPerBlock), 0};
        AscendC::DataCopyPad(dst.data()[static_cast<uint32_t>(dst.offset())], src.data()[src.offset()], p,
                             AscendC::DataCopyPadExtParams<Element>{false, 0, 0, Element{}});
    }
};

template <class ArchTag, class TensorDst, class TensorSrc>
struct CopyUb2GmTla {
    using Element = typename TensorSrc::Element;
    // dst: a GM tile; src: a UB tensor (row pitch = its layout's row stride).
    CATLASS_DEVICE void operator()(const TensorDst& dst, const TensorSrc& src) const {
        uint32_t rows = dst.originShape().row(), cols = dst.originShape().column();
        if (rows == 0 || cols == 0) return;
        int64_t gm_stride = Catlass::detail::layout_row_stride(dst.layout());
        int64_t ub_stride = Catlass::detail::layout_row_stride(src.layout());
        constexpr uint32_t kPerBlock = BYTE_PER_BLK / sizeof(Element);
        AscendC::DataCopyExtParams p{static_cast<uint16_t>(rows),
                                     static_cast<uint32_t>(cols * sizeof(Element)),
                                     static_cast<uint32_t>((ub_stride - cols) / kPerBlock),
                                     static_cast<uint32_t>((gm_stride - cols) * int64_t(sizeof(Element))), 0};
        AscendC::DataCopyPad(dst.data()[dst.offset()], src.data()[static_cast<uint32_t>(src.offset())], p);
    }
};

}  // namespace Catlass::Epilogue::Tile
