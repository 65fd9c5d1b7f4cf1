// The Catlass foundation: tla tuples brace-initialise as EVG Arguments do, GetTile clips at the matrix edge,
// layouts give offsets, the integer helpers round as Catlass's do.
#include <gtest/gtest.h>

#include "catlass/arch/arch.hpp"
#include "catlass/arch/resource.hpp"
#include "catlass/catlass.hpp"
#include "catlass/coord.hpp"
#include "catlass/epilogue/dispatch_policy.hpp"
#include "catlass/epilogue/fusion/upstream_hazards.hpp"
#include "catlass/epilogue/fusion/visitor_impl.hpp"
#include "catlass/epilogue/tile/copy_tla.hpp"
#include "catlass/layout/layout.hpp"
#include "catlass/tla/layout.hpp"
#include "catlass/tla/tensor.hpp"
#include "catlass/tla/tuple.hpp"

namespace {

using namespace Catlass;

struct PtrLayout {
    GM_ADDR ptr = nullptr;
    tla::RowMajorLayout layout{};
};
struct Empty {};
struct Scalars {
    tla::tuple<float> scalars;
};

TEST(Tla, NestedBracesFillTupleElementsInOrder) {
    uint8_t x = 0, d = 0;
    auto lx = tla::MakeLayout<half, layout::RowMajor>(4, 8);
    using Inner = tla::tuple<Empty, PtrLayout, Empty>;
    tla::tuple<Inner, PtrLayout> args{{{}, {&x, lx}, {}}, {&d, lx}};
    EXPECT_EQ(tla::get<1>(tla::get<0>(args)).ptr, &x);
    EXPECT_EQ(tla::get<1>(args).ptr, &d);
    EXPECT_EQ(tla::get<1>(args).layout.cols(), 8u);
    tla::tuple<Empty, Scalars, Scalars> flat{{}, {{2.0f}}, {{-1.0f}}};
    EXPECT_EQ(tla::get<0>(tla::get<1>(flat).scalars), 2.0f);
    EXPECT_EQ(tla::get<0>(tla::get<2>(flat).scalars), -1.0f);
    EXPECT_EQ(tla::tuple_size_v<decltype(flat)>, 3u);
    EXPECT_EQ((tla::seq_get<1>(tla::seq<4, 7, 9>{})), 7u);
}

TEST(Tla, GetTileClipsToTheOriginShape) {
    AscendC::GlobalTensor<float> g;
    auto t = tla::MakeTensor(g, tla::MakeLayout<float, layout::RowMajor>(100, 70));
    auto tile = tla::GetTile(t, MatrixCoord(96, 64), MatrixCoord(8, 16));
    EXPECT_EQ(tile.shape(), MatrixCoord(4, 6));
    EXPECT_EQ(tile.offset(), 96 * 70 + 64);
    auto sub = tla::GetTile(tile, MatrixCoord(2, 0), MatrixCoord(8, 16));
    EXPECT_EQ(sub.shape(), MatrixCoord(2, 6));
    EXPECT_EQ(sub.coord(), MatrixCoord(98, 64));
    auto empty = tla::GetTile(tile, MatrixCoord(5, 0), MatrixCoord(8, 16));
    EXPECT_EQ(empty.shape(), MatrixCoord(0, 6));
}

TEST(Layout, OffsetsAndStrides) {
    layout::RowMajor rm(3, 5, 8);
    EXPECT_EQ(rm.GetOffset(MatrixCoord(2, 3)), 19);
    EXPECT_EQ(Catlass::detail::layout_row_stride(rm), 8);
    auto l = tla::MakeLayout<half, layout::RowMajor>(3, 5, 40);
    EXPECT_EQ(Catlass::detail::layout_row_stride(l), 40);
    EXPECT_EQ(l(2, 3), 83);
}

TEST(Helpers, RoundingAsCatlass) {
    EXPECT_EQ(RoundUp<32>(33u), 64u);
    EXPECT_EQ(RoundDown<32>(63u), 32u);
    EXPECT_EQ(CeilDiv<2>(5u), 3u);
    EXPECT_EQ(CeilDiv(7u, 0u), 0u);
    EXPECT_EQ(Arch::AtlasA2::UB_SIZE, 196608u);
    EXPECT_EQ(Arch::Ascend950::UB_SIZE, 253952u);
    EXPECT_EQ(Arch::Ascend950::L0C_SIZE, 262144u);
}

}  // namespace
