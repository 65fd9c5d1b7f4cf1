// tla::Layout: a 2-D shape and stride. tla::MakeLayout<E, layout::RowMajor>(rows, cols) is what EVG
// Arguments take for AuxLoad, AuxStore and the broadcast/reduce vectors.
#pragma once
#include <cstdint>

#include "catlass/coord.hpp"
#include "catlass/layout/layout.hpp"
#include "catlass/tla/tuple.hpp"

namespace tla {

using Shape2 = tuple<uint32_t, uint32_t>;
using Stride2 = tuple<int64_t, int64_t>;

template <class Shape = Shape2, class Stride = Stride2>
struct Layout {
    Shape shape_{};
    Stride stride_{};
    constexpr Layout() = default;
    constexpr Layout(const Shape& s, const Stride& d) : shape_(s), stride_(d) {}
    constexpr const Shape& shape() const { return shape_; }
    constexpr const Stride& stride() const { return stride_; }
    constexpr uint32_t rows() const { return get<0>(shape_); }
    constexpr uint32_t cols() const { return get<1>(shape_); }
    // Element offset of (row, col).
    constexpr int64_t operator()(uint32_t row, uint32_t col) const {
        return int64_t(row) * get<0>(stride_) + int64_t(col) * get<1>(stride_);
    }
    constexpr int64_t GetOffset(const Catlass::MatrixCoord& c) const { return (*this)(c.row(), c.column()); }
};

using RowMajorLayout = Layout<Shape2, Stride2>;

// Row-major (rows x cols) with leading dimension `ld` (defaults to cols).
template <class Element, class LayoutTag>
constexpr RowMajorLayout MakeLayout(uint32_t rows, uint32_t cols) {
    static_assert(
        std::is_same_v<LayoutTag, Catlass::layout::RowMajor>,
        "tla::MakeLayout: the model supports row-major GM layouts only (as Catlass's EVG copies do)");
    return RowMajorLayout(Shape2(rows, cols), Stride2(int64_t(cols), 1));
}
template <class Element, class LayoutTag>
constexpr RowMajorLayout MakeLayout(uint32_t rows, uint32_t cols, int64_t ld) {
    static_assert(
        std::is_same_v<LayoutTag, Catlass::layout::RowMajor>,
        "tla::MakeLayout: the model supports row-major GM layouts only (as Catlass's EVG copies do)");
    return RowMajorLayout(Shape2(rows, cols), Stride2(ld, 1));
}

}  // namespace tla

namespace Catlass::detail {
// Uniform access to rows, columns and row stride of either layout family.
template <class L>
constexpr uint32_t layout_rows(const L& l) {
    return l.rows();
}
template <class L>
constexpr uint32_t layout_cols(const L& l) {
    return l.cols();
}
template <class L>
constexpr int64_t layout_row_stride(const L& l) {
    if constexpr (requires { l.stride_; }) {
        if constexpr (std::is_same_v<std::decay_t<decltype(l.stride_)>, tla::Stride2>)
            return tla::get<0>(l.stride_);
        else
            return l.ld_;
    } else {
        return l.stride(0);
    }
}
}  // namespace Catlass::detail
