// tla::Tensor: memory (a GlobalTensor or LocalTensor at the tensor's base), a layout, the coordinate of this
// view inside that layout, and its origin shape: the part of the requested shape that lies inside the parent.
// GetTile clips against the origin shape, so a tile hanging over the matrix edge copies only its valid part.
#pragma once
#include <cstdint>

#include "catlass/arch/arch.hpp"
#include "catlass/coord.hpp"
#include "catlass/tla/layout.hpp"

namespace tla {

template <class Engine, class LayoutT, class Position = Catlass::Arch::PositionGM>
struct Tensor {
    using Element = typename Engine::PrimType;
    using Layout = LayoutT;
    Engine data_{};
    LayoutT layout_{};
    Catlass::MatrixCoord coord_{};         // top-left of this view in the layout
    Catlass::MatrixCoord origin_shape_{};  // valid rows/cols of this view

    constexpr const Engine& data() const { return data_; }
    constexpr const LayoutT& layout() const { return layout_; }
    constexpr Catlass::MatrixCoord coord() const { return coord_; }
    // The valid (clipped) shape: what copies move.
    constexpr Catlass::MatrixCoord shape() const { return origin_shape_; }
    constexpr Catlass::MatrixCoord originShape() const { return origin_shape_; }
    // Element offset of this view's first element from the base of data_.
    constexpr int64_t offset() const { return layout_(coord_.row(), coord_.column()); }
};

template <class Engine, class LayoutT, class Position = Catlass::Arch::PositionGM>
constexpr Tensor<Engine, LayoutT, Position> MakeTensor(const Engine& data, const LayoutT& layout,
                                                       Position = {}) {
    Tensor<Engine, LayoutT, Position> t;
    t.data_ = data;
    t.layout_ = layout;
    t.origin_shape_ = Catlass::MatrixCoord(layout.rows(), layout.cols());
    return t;
}

// The view of `shape` at `coord` (relative to `t`), clipped to t's valid region.
template <class Engine, class LayoutT, class Position>
constexpr Tensor<Engine, LayoutT, Position> GetTile(const Tensor<Engine, LayoutT, Position>& t,
                                                    const Catlass::MatrixCoord& coord,
                                                    const Catlass::MatrixCoord& shape) {
    Tensor<Engine, LayoutT, Position> r = t;
    r.coord_ = t.coord_ + coord;
    uint32_t vr = coord.row() < t.origin_shape_.row() ? t.origin_shape_.row() - coord.row() : 0;
    uint32_t vc = coord.column() < t.origin_shape_.column() ? t.origin_shape_.column() - coord.column() : 0;
    r.origin_shape_ =
        Catlass::MatrixCoord(shape.row() < vr ? shape.row() : vr, shape.column() < vc ? shape.column() : vc);
    return r;
}

}  // namespace tla
