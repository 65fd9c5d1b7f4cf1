// MatrixCoord and GemmCoord: small coordinate vectors with element-wise arithmetic.
#pragma once
#include <cstdint>

#include "catlass/catlass.hpp"

namespace Catlass {

struct MatrixCoord {
    using Index = uint32_t;
    Index r = 0, c = 0;
    constexpr MatrixCoord() = default;
    constexpr MatrixCoord(Index row, Index column) : r(row), c(column) {}
    constexpr Index row() const { return r; }
    constexpr Index column() const { return c; }
    constexpr Index& row() { return r; }
    constexpr Index& column() { return c; }
    constexpr MatrixCoord operator+(const MatrixCoord& o) const { return {r + o.r, c + o.c}; }
    constexpr MatrixCoord operator-(const MatrixCoord& o) const { return {r - o.r, c - o.c}; }
    constexpr MatrixCoord operator*(const MatrixCoord& o) const { return {r * o.r, c * o.c}; }
    constexpr MatrixCoord operator/(const MatrixCoord& o) const { return {r / o.r, c / o.c}; }
    constexpr bool operator==(const MatrixCoord& o) const { return r == o.r && c == o.c; }
    // Component-wise minimum.
    static constexpr MatrixCoord Min(const MatrixCoord& a, const MatrixCoord& b) {
        return {a.r < b.r ? a.r : b.r, a.c < b.c ? a.c : b.c};
    }
};

struct GemmCoord {
    using Index = uint32_t;
    Index m_ = 0, n_ = 0, k_ = 0;
    constexpr GemmCoord() = default;
    constexpr GemmCoord(Index m, Index n, Index k) : m_(m), n_(n), k_(k) {}
    constexpr Index m() const { return m_; }
    constexpr Index n() const { return n_; }
    constexpr Index k() const { return k_; }
    constexpr Index& m() { return m_; }
    constexpr Index& n() { return n_; }
    constexpr Index& k() { return k_; }
    constexpr MatrixCoord GetCoordMN() const { return {m_, n_}; }
    constexpr MatrixCoord GetCoordMK() const { return {m_, k_}; }
    constexpr MatrixCoord GetCoordKN() const { return {k_, n_}; }
    constexpr bool operator==(const GemmCoord& o) const { return m_ == o.m_ && n_ == o.n_ && k_ == o.k_; }
};

}  // namespace Catlass
