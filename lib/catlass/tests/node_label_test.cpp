// Findings name the node of a static EVG: TreeVisitor and TopologicalVisitor run each node's callbacks inside
// an evg::ascendc::NodeScope labelled with the node's C++ type, shortened (node_label.hpp). Planted fault:
// upstream's missing PipeBarrier<PIPE_V> after RowBroadcast (AtlasA2), through the real GEMM kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "catlass/epilogue/block/block_epilogue.hpp"
#include "catlass/epilogue/fusion/fusion.hpp"
#include "catlass/epilogue/fusion/node_label.hpp"
#include "catlass/gemm/gemm.hpp"
#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace {

using namespace Catlass;
namespace F = Catlass::Epilogue::Fusion;
using evg::hw::ViolationKind;

bool has(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

using RowLayout = tla::RowMajorLayout;

// D = C + broadcast(bias), as a tree and as a DAG (AccLoad, RowBroadcast, Add, AuxStore).
using TreeEvg = F::TreeVisitor<F::VisitorAuxStore<float, RowLayout>,
                               F::TreeVisitor<F::VisitorCompute<F::Add, float>, F::VisitorAccLoad<float>,
                                              F::VisitorRowBroadcast<float, RowLayout>>>;
using DagEvg = F::TopologicalVisitor<tla::tuple<tla::seq<>, tla::seq<>, tla::seq<0, 1>, tla::seq<2>>,
                                     F::VisitorAccLoad<float>, F::VisitorRowBroadcast<float, RowLayout>,
                                     F::VisitorCompute<F::Add, float>, F::VisitorAuxStore<float, RowLayout>>;

template <class EVG, class EvgArgs>
evg::hw::Report run_bias(bool hazard, EvgArgs make_args) {
    constexpr uint32_t m = 32, n = 64, k = 32;
    using L1TileShape = tla::tuple<tla::Int<32>, tla::Int<64>, tla::Int<64>>;
    using L0TileShape = tla::tuple<tla::Int<32>, tla::Int<64>, tla::Int<32>>;
    using BlockMmad = Gemm::Block::BlockMmadTla<Gemm::MmadPingpong<Arch::AtlasA2, true>, L1TileShape,
                                                L0TileShape, half, half, float>;
    using BlockEpilogue = Epilogue::Block::BlockEpilogue<Epilogue::EpilogueVisitor<false>, Arch::AtlasA2,
                                                         tla::Int<1024>, EVG, float>;
    using Kernel = Gemm::Kernel::BasicMatmulTlaVisitor<BlockMmad, BlockEpilogue,
                                                       Gemm::Block::GemmIdentityBlockSwizzle<3, 0>>;
    evg::hw::reset_device();
    const F::ScopedUpstreamHazards h({.row_broadcast_no_barrier = hazard});
    auto alloc = [](size_t bytes) {
        uint8_t* p = nullptr;
        aclrtMalloc(reinterpret_cast<void**>(&p), bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        std::vector<uint8_t> zero(bytes, 0);
        aclrtMemcpy(p, bytes, zero.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
        return p;
    };
    uint8_t* dA = alloc(size_t(m) * k * 2);
    uint8_t* dB = alloc(size_t(k) * n * 2);
    uint8_t* dBias = alloc(size_t(n) * 4);
    uint8_t* dD = alloc(size_t(m) * n * 4);
    const auto layoutD = tla::MakeLayout<float, layout::RowMajor>(m, n);
    const auto layoutBias = tla::MakeLayout<float, layout::RowMajor>(1u, n);
    typename Kernel::Arguments args{GemmCoord(m, n, k),
                                    dA,
                                    tla::MakeLayout<half, layout::RowMajor>(m, k),
                                    dB,
                                    tla::MakeLayout<half, layout::RowMajor>(k, n),
                                    nullptr,
                                    layoutD,
                                    nullptr,
                                    make_args(dBias, layoutBias, dD, layoutD)};
    Gemm::Device::DeviceGemm<Kernel> op;
    EXPECT_EQ(op.CanImplement(args), Status::kSuccess);
    uint8_t* workspace = alloc(op.GetWorkspaceSize(args));
    EXPECT_EQ(op.Initialize(args, workspace), Status::kSuccess);
    aclrtStream stream;
    aclrtCreateStream(&stream);
    op(stream, 1);
    aclrtDestroyStream(stream);
    return evg::hw::device().last_report();
}

evg::hw::Report run_tree(bool hazard) {
    return run_bias<TreeEvg>(hazard, [](GM_ADDR bias, auto lb, GM_ADDR d, auto ld) {
        return typename TreeEvg::Arguments{{{}, {bias, lb}, {}}, {d, ld}};
    });
}

evg::hw::Report run_dag(bool hazard) {
    return run_bias<DagEvg>(hazard, [](GM_ADDR bias, auto lb, GM_ADDR d, auto ld) {
        return typename DagEvg::Arguments{{}, {bias, lb}, {}, {d, ld}};
    });
}

// The race between RowBroadcast's V copy and Add's V read names both node types, in the sentence and in
// each location; BlockEpilogue's own instructions name no node.
void expect_nodes_named(const evg::hw::Report& r) {
    const evg::hw::Violation* v = r.first(ViolationKind::race);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_TRUE(has(v->message, ", node VisitorRowBroadcast<float, ...>)")) << v->message;
    EXPECT_TRUE(has(v->message, ", node VisitorCompute<Add, float>)")) << v->message;
    ASSERT_EQ(v->locations.size(), 2u);
    EXPECT_EQ(v->locations[0].node, "VisitorRowBroadcast<float, ...>") << r.text();
    EXPECT_EQ(v->locations[1].node, "VisitorCompute<Add, float>") << r.text();
    EXPECT_TRUE(has(r.text(), "issued at visitor_row_broadcast.hpp:")) << r.text();
    EXPECT_TRUE(has(r.text(), " by node VisitorRowBroadcast<float, ...>\n")) << r.text();
    // Every node of the graph issued something, and nothing else is a node. (Whether a defaulted template
    // argument is printed, VisitorAccLoad<float> or VisitorAccLoad<float, false>, is the compiler's choice.)
    ASSERT_EQ(r.node_labels.size(), 4u) << r.text();
    for (const char* want : {"VisitorAccLoad<float", "VisitorAuxStore<float, ...>",
                             "VisitorCompute<Add, float>", "VisitorRowBroadcast<float, ...>"})
        EXPECT_EQ(std::count_if(r.node_labels.begin(), r.node_labels.end(),
                                [&](const std::string& l) { return l.starts_with(want); }),
                  1)
            << want;
}

TEST(NodeLabel, AtlasA2_float_TreeVisitor_RowBroadcastNoBarrier_RaceNamesTheNodeTypes) {
    expect_nodes_named(run_tree(true));
    EXPECT_TRUE(run_tree(false).clean());
}

TEST(NodeLabel, AtlasA2_float_TopologicalVisitor_RowBroadcastNoBarrier_RaceNamesTheNodeTypes) {
    expect_nodes_named(run_dag(true));
    EXPECT_TRUE(run_dag(false).clean());
}

// The shortening: namespaces dropped, template arguments that are templates elided, the rest kept.
TEST(NodeLabel, TypeNamesAreShortAndTheSameOnEveryCompiler) {
    using F::detail::node_label;
    EXPECT_EQ((node_label<F::VisitorAuxStore<half, RowLayout>>()), "VisitorAuxStore<half, ...>");
    EXPECT_EQ((node_label<F::VisitorCompute<F::Add, float>>()), "VisitorCompute<Add, float>");
    EXPECT_EQ((node_label<F::VisitorCast<half, float, AscendC::RoundMode::CAST_RINT>>()),
              "VisitorCast<half, float, CAST_RINT>");
    EXPECT_EQ((node_label<F::VisitorAccLoad<float, true>>()), "VisitorAccLoad<float, true>");
    EXPECT_EQ(F::detail::short_type_name("f() [with T = a::b::X<c::Y<int> >; U = d]"), "X<...>");
    EXPECT_EQ(F::detail::short_type_name("f() [T = (anonymous namespace)::Z<int, q::W<1>>]"), "Z<int, ...>");
}

}  // namespace
