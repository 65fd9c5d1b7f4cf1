// The one rule for a tensor's device buffer (graph.hpp: buffer_elements, buffer_bytes), which the model's
// run, the case data, the upstream corpus and the run estimate all use.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "evg/graph/graph.hpp"

namespace evg::graph {
namespace {

Tensor tensor(int64_t rows, int64_t cols, int64_t row_stride, DType element = DType::f16) {
    Tensor t;
    t.name = "X";
    t.element = element;
    t.rows = rows;
    t.cols = cols;
    t.row_stride = row_stride;
    return t;
}

TEST(BufferSize, TheLastRowEndsTheBuffer) {
    EXPECT_EQ(buffer_elements(tensor(3, 5, 8)), 2u * 8 + 5);
    EXPECT_EQ(buffer_bytes(tensor(3, 5, 8, DType::f32)), (2u * 8 + 5) * 4);
    EXPECT_EQ(buffer_elements(tensor(1, 5, 64)), 5u) << "one row needs no stride";
}

TEST(BufferSize, AStrideBelowTheRowCountsAsDense) {
    EXPECT_EQ(buffer_elements(tensor(3, 5, 0)), 15u) << "stride 0: dense";
    EXPECT_EQ(buffer_elements(tensor(3, 5, 5)), 15u);
    EXPECT_EQ(buffer_elements(tensor(3, 5, 2)), 15u) << "rows never overlap";
}

TEST(BufferSize, AnEmptyTensorHasNoBuffer) {
    EXPECT_EQ(buffer_elements(tensor(0, 5, 8)), 0u);
    EXPECT_EQ(buffer_elements(tensor(3, 0, 8)), 0u);
    EXPECT_EQ(buffer_elements(tensor(-1, 5, 8)), 0u);
}

TEST(BufferSize, ASizePastTheLargestNumberSaturates) {
    constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
    const int64_t big = int64_t{1} << 40;
    EXPECT_EQ(buffer_elements(tensor(big, big, big)), kMax);
    EXPECT_EQ(buffer_bytes(tensor(big, big, big)), kMax);
    EXPECT_EQ(buffer_bytes(tensor(int64_t{1} << 31, int64_t{1} << 31, 0, DType::f32)), kMax);
}

}  // namespace
}  // namespace evg::graph
