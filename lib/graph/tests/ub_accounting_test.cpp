// The UB accounting function against the computeLengths of the shipped examples (docs/evg-semantics.md §10.2,
// §10.3), both at compile time (as a static visitor type list would use it) and through a runtime graph.
#include <gtest/gtest.h>

#include <array>

#include "catlass/epilogue/fusion/ub_accounting.hpp"
#include "evg/graph/builder.hpp"
#include "evg/graph/ub_budget.hpp"

namespace ub = Catlass::Epilogue::Fusion::UbAccounting;
using ub::NodeClass;

namespace {

constexpr uint32_t kA2Ub = 196608, kA2L0c = 131072;
constexpr uint32_t k950Ub = 253952, k950L0c = 262144;

// Ascend950 _add: AccLoad<float>, AuxLoad<float>, Compute<Add, float>, AuxStore<float>: 3 UB nodes.
constexpr std::array<ub::NodeBuffers, 4> kAdd950 = {
    ub::node_buffers(NodeClass::AccLoadGm, 4), ub::node_buffers(NodeClass::AuxLoad, 4),
    ub::node_buffers(NodeClass::Compute, 4), ub::node_buffers(NodeClass::AuxStore, 4)};
static_assert(ub::bytes_per_element(kAdd950) == 12);
static_assert(ub::max_compute_length(kAdd950, 0, k950Ub) == 10560);
static_assert(ub::fits(kAdd950, 10560, 0, k950Ub));
static_assert(!ub::fits(kAdd950, 10592, 0, k950Ub));

// _add_ub: AccLoad<float, true> (0 buffers), AuxLoad, Compute, AuxStore; base = L0C_SIZE/2.
constexpr std::array<ub::NodeBuffers, 4> kAddUb950 = {
    ub::node_buffers(NodeClass::AccLoadUb, 4), ub::node_buffers(NodeClass::AuxLoad, 4),
    ub::node_buffers(NodeClass::Compute, 4), ub::node_buffers(NodeClass::AuxStore, 4)};
static_assert(ub::base_offset(true, k950L0c) == 131072);
static_assert(ub::max_compute_length(kAddUb950, ub::base_offset(true, k950L0c), k950Ub) == 7680);
static_assert(ub::ub_end(kAddUb950, 7680, 131072) == 131072 + 2 * 8 * 7680);

}  // namespace

TEST(UbAccounting, BufferCountsPerNodeClass) {
    EXPECT_EQ(ub::buffer_count(NodeClass::AccLoadGm), 1u);
    EXPECT_EQ(ub::buffer_count(NodeClass::AccLoadUb), 0u);
    EXPECT_EQ(ub::buffer_count(NodeClass::AuxLoad), 1u);
    EXPECT_EQ(ub::buffer_count(NodeClass::AuxStore), 0u);
    EXPECT_EQ(ub::buffer_count(NodeClass::Cast), 1u);
    EXPECT_EQ(ub::buffer_count(NodeClass::Compute), 1u);
    EXPECT_EQ(ub::buffer_count(NodeClass::RowBroadcast), 1u);
    EXPECT_EQ(ub::buffer_count(NodeClass::RowReduce), 1u);
    EXPECT_EQ(ub::buffer_count(NodeClass::ColBroadcast), 1u);
    EXPECT_EQ(ub::buffer_count(NodeClass::ColReduce), 2u);
    EXPECT_EQ(ub::buffer_count(NodeClass::ScalarBroadcast), 1u);
    EXPECT_EQ(ub::buffer_count(NodeClass::ScalarReduce), 2u);
}

TEST(UbAccounting, Ascend950_float_Add_3UbNodes_CL10560) {
    EXPECT_EQ(ub::max_compute_length(kAdd950, 0, k950Ub), 10560u);
    EXPECT_EQ(ub::bytes_per_set(kAdd950, 10560), 126720u);
    EXPECT_EQ(ub::ub_end(kAdd950, 10560, 0), 253440u);
}

TEST(UbAccounting, Ascend950_float_LeakyRelu_2UbNodes_CL15872) {
    constexpr std::array<ub::NodeBuffers, 3> nodes = {ub::node_buffers(NodeClass::AccLoadGm, 4),
                                                      ub::node_buffers(NodeClass::Compute, 4),
                                                      ub::node_buffers(NodeClass::AuxStore, 4)};
    EXPECT_EQ(ub::max_compute_length(nodes, 0, k950Ub), 15872u);
    EXPECT_EQ(ub::ub_end(nodes, 15872, 0), 253952u);  // exactly full
    EXPECT_TRUE(ub::fits(nodes, 15872, 0, k950Ub));
    EXPECT_FALSE(ub::fits(nodes, 15904, 0, k950Ub));
}

TEST(UbAccounting, Ascend950_float_Tanh_8UbNodes_CL3968) {
    std::array<ub::NodeBuffers, 9> nodes{};
    nodes[0] = ub::node_buffers(NodeClass::AccLoadGm, 4);
    for (int i = 1; i <= 7; ++i) nodes[i] = ub::node_buffers(NodeClass::Compute, 4);
    nodes[8] = ub::node_buffers(NodeClass::AuxStore, 4);
    EXPECT_EQ(ub::max_compute_length(nodes, 0, k950Ub), 3968u);
}

TEST(UbAccounting, Ascend950_float_AddUb_2UbNodes_UbPath_CL7680) {
    EXPECT_EQ(ub::max_compute_length(kAddUb950, ub::base_offset(true, k950L0c), k950Ub), 7680u);
}

TEST(UbAccounting, AtlasA2_half_Add_3UbNodes_CL16384) {
    constexpr std::array<ub::NodeBuffers, 4> nodes = {
        ub::node_buffers(NodeClass::AccLoadGm, 2), ub::node_buffers(NodeClass::AuxLoad, 2),
        ub::node_buffers(NodeClass::Compute, 2), ub::node_buffers(NodeClass::AuxStore, 2)};
    EXPECT_EQ(ub::max_compute_length(nodes, 0, kA2Ub), 16384u);
    EXPECT_EQ(ub::ub_end(nodes, 16384, 0), 196608u);
    EXPECT_EQ(ub::base_offset(false, kA2L0c), 0u);
}

TEST(UbAccounting, MixedElementTypesSumBytesNotNodes) {
    // AtlasA2 example 33: AccLoad<half>, AuxLoad<half>, 2x Cast<float, half>, Compute<Add, float>,
    // Cast<half, float>, AuxStore<half>: 2+2+4+4+4+2 = 18 B per element per set.
    constexpr std::array<ub::NodeBuffers, 7> nodes = {
        ub::node_buffers(NodeClass::AccLoadGm, 2), ub::node_buffers(NodeClass::AuxLoad, 2),
        ub::node_buffers(NodeClass::Cast, 4),      ub::node_buffers(NodeClass::Cast, 4),
        ub::node_buffers(NodeClass::Compute, 4),   ub::node_buffers(NodeClass::Cast, 2),
        ub::node_buffers(NodeClass::AuxStore, 2)};
    EXPECT_EQ(ub::bytes_per_element(nodes), 18u);
    EXPECT_TRUE(ub::fits(nodes, 4096, 0, kA2Ub));               // the example's CL
    EXPECT_EQ(ub::max_compute_length(nodes, 0, kA2Ub), 5440u);  // 196608 / 36 = 5461.3 -> 5440
}

TEST(UbAccounting, NothingFitsReturnsZero) {
    constexpr std::array<ub::NodeBuffers, 1> nodes = {ub::NodeBuffers{2, 4}};
    EXPECT_EQ(ub::max_compute_length(nodes, 0, 255), 0u);
    EXPECT_EQ(ub::max_compute_length(nodes, 300, 255), 0u);  // base past the UB
}

// The same numbers through a runtime graph (the lib/graph wrapper).
TEST(UbBudget, Graph_Ascend950_float_Add_CL10560) {
    using namespace evg::graph;
    GraphBuilder b;
    b.input("X", DType::f32, 256, 512);
    b.output("D", DType::f32, 256, 512);
    const int acc = b.acc_load(DType::f32);
    const int x = b.aux_load(DType::f32, "X");
    const int add = b.compute(Functor::Add, DType::f32, {acc, x});
    b.aux_store(DType::f32, "D", add);
    const Graph g = b.graph();
    EXPECT_EQ(max_compute_length(g, ArchId::Ascend950, WorkspacePath::GM), 10560u);
    const UbBudget fit = ub_budget(g, ArchId::Ascend950, WorkspacePath::GM, 10560);
    EXPECT_TRUE(fit.fits());
    EXPECT_EQ(fit.bytes_per_set, 126720u);
    const UbBudget over = ub_budget(g, ArchId::Ascend950, WorkspacePath::GM, 10592);
    EXPECT_FALSE(over.fits());
    EXPECT_EQ(ub_overflow_message(over, ArchId::Ascend950, WorkspacePath::GM),
              "computeLength 10592 needs 127,104 B of UB per buffer set x 2 sets = 254,208 B; Ascend950 has "
              "253,952 B (the largest computeLength that fits is 10560)");
}

TEST(UbBudget, Graph_Ascend950_float_AddUb_CL7680) {
    using namespace evg::graph;
    GraphBuilder b;
    b.input("X", DType::f32, 256, 512);
    b.output("D", DType::f32, 256, 512);
    const int acc = b.acc_load(DType::f32, /*use_ub=*/true);
    const int x = b.aux_load(DType::f32, "X");
    const int add = b.compute(Functor::Add, DType::f32, {acc, x});
    b.aux_store(DType::f32, "D", add);
    EXPECT_EQ(max_compute_length(b.graph(), ArchId::Ascend950, WorkspacePath::UB), 7680u);
}

TEST(UbBudget, Graph_AtlasA2_half_Add_CL16384_andTheStyleGuideMessage) {
    using namespace evg::graph;
    GraphBuilder b;
    b.input("X", DType::f16, 256, 512);
    b.output("D", DType::f16, 256, 512);
    const int acc = b.acc_load(DType::f16);
    const int x = b.aux_load(DType::f16, "X");
    const int add = b.compute(Functor::Add, DType::f16, {acc, x});
    b.aux_store(DType::f16, "D", add);
    EXPECT_EQ(max_compute_length(b.graph(), ArchId::AtlasA2, WorkspacePath::GM), 16384u);
    // 6 buffers of half per set: CL 32768 needs 196,608 B per set.
    const UbBudget over = ub_budget(b.graph(), ArchId::AtlasA2, WorkspacePath::GM, 32768);
    EXPECT_EQ(ub_overflow_message(over, ArchId::AtlasA2, WorkspacePath::GM),
              "computeLength 32768 needs 196,608 B of UB per buffer set x 2 sets = 393,216 B; AtlasA2 has "
              "196,608 B "
              "(the largest computeLength that fits is 16384)");
}

TEST(UbBudget, Thousands) {
    EXPECT_EQ(evg::graph::thousands(0), "0");
    EXPECT_EQ(evg::graph::thousands(999), "999");
    EXPECT_EQ(evg::graph::thousands(1000), "1,000");
    EXPECT_EQ(evg::graph::thousands(196608), "196,608");
    EXPECT_EQ(evg::graph::thousands(1234567), "1,234,567");
}
