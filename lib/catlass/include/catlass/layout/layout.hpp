// Non-TLA layouts: layout::RowMajor{rows, cols[, ld]} objects, also used as tags for tla::MakeLayout.
#pragma once
#include <cstdint>

#include "catlass/coord.hpp"

namespace Catlass::layout {

struct RowMajor {
    uint32_t rows_ = 0, cols_ = 0;
    int64_t ld_ = 0;  // elements between the starts of two rows
    constexpr RowMajor() = default;
    constexpr RowMajor(uint32_t rows, uint32_t cols) : rows_(rows), cols_(cols), ld_(cols) {}
    constexpr RowMajor(uint32_t rows, uint32_t cols, int64_t ld) : rows_(rows), cols_(cols), ld_(ld) {}
    constexpr uint32_t rows() const { return rows_; }
    constexpr uint32_t cols() const { return cols_; }
    constexpr uint32_t shape(int i) const { return i == 0 ? rows_ : cols_; }
    constexpr int64_t stride(int i) const { return i == 0 ? ld_ : 1; }
    constexpr int64_t GetOffset(const MatrixCoord& c) const { return int64_t(c.row()) * ld_ + c.column(); }
    constexpr RowMajor GetTileLayout(const MatrixCoord& shape) const {
        return RowMajor(shape.row(), shape.column(), ld_);
    }
};

struct ColumnMajor {
    uint32_t rows_ = 0, cols_ = 0;
    int64_t ld_ = 0;
    constexpr ColumnMajor() = default;
    constexpr ColumnMajor(uint32_t rows, uint32_t cols) : rows_(rows), cols_(cols), ld_(rows) {}
    constexpr ColumnMajor(uint32_t rows, uint32_t cols, int64_t ld) : rows_(rows), cols_(cols), ld_(ld) {}
    constexpr uint32_t rows() const { return rows_; }
    constexpr uint32_t cols() const { return cols_; }
    constexpr int64_t GetOffset(const MatrixCoord& c) const { return int64_t(c.column()) * ld_ + c.row(); }
};

}  // namespace Catlass::layout

namespace Catlass::Gemm {
// L1-lineage element/layout pair (seed 000 `GemmType<half, layout::RowMajor>`).
template <class Element_, class Layout_>
struct GemmType {
    using Element = Element_;
    using Layout = Layout_;
};
}  // namespace Catlass::Gemm
