// DynamicVisitor against the static EVG that emit_cpp prints for the same graph, through the same kernel
// (BlockMmadTla, GemmIdentityBlockSwizzle<3, 0>, DeviceGemm): identical outputs, identical instruction traces
// (core, pipe, kind, op, in order) and identical UB peaks, which are UbAccounting's prediction.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "catlass/epilogue/block/block_epilogue.hpp"
#include "catlass/epilogue/fusion/fusion.hpp"
#include "catlass/gemm/gemm.hpp"
#include "evg/graph/dynamic_visitor.hpp"
#include "evg/graph/emit_cpp.hpp"
#include "evg/graph/error.hpp"
#include "evg/graph/run.hpp"
#include "evg/graph/ub_budget.hpp"
#include "evg/hw/device.hpp"

namespace {

using namespace Catlass;
namespace F = Catlass::Epilogue::Fusion;
using evg::graph::DType;
using evg::graph::Functor;
using evg::graph::Node;
using evg::graph::NodeKind;
using evg::graph::Problem;
using evg::graph::Tensor;
using evg::graph::TensorRole;

Tensor tensor(std::string name, TensorRole role, DType t, int64_t rows, int64_t cols, int64_t stride = 0) {
    Tensor x;
    x.name = std::move(name);
    x.role = role;
    x.element = t;
    x.rows = rows;
    x.cols = cols;
    x.row_stride = stride ? stride : cols;
    return x;
}
Node node(NodeKind k, DType t, std::vector<int> inputs, std::string tensor_name = {}) {
    Node n;
    n.kind = k;
    n.element = t;
    n.inputs = std::move(inputs);
    n.tensor = std::move(tensor_name);
    return n;
}
Node compute(Functor fn, DType t, std::vector<int> inputs, std::vector<double> scalars = {}) {
    Node n = node(NodeKind::Compute, t, std::move(inputs));
    n.fn = fn;
    n.scalars = std::move(scalars);
    return n;
}

template <class T>
std::vector<uint8_t> bytes_of(const std::vector<T>& v) {
    std::vector<uint8_t> b(v.size() * sizeof(T));
    std::memcpy(b.data(), v.data(), b.size());
    return b;
}
// Small integers: every product and sum below is exact, so any difference is a real difference.
template <class T>
std::vector<uint8_t> ramp(size_t count, int mod, int offset) {
    std::vector<T> v(count);
    for (size_t i = 0; i < count; ++i)
        v[i] = T(static_cast<float>(static_cast<int>((i * 7 + 3) % mod) - offset));
    return bytes_of(v);
}

uint64_t tensor_bytes(const Tensor& t) {
    return static_cast<uint64_t>((t.rows - 1) * t.row_stride + t.cols) * evg::hw::dtype_size(t.element);
}

struct StaticRun {
    evg::hw::Report report;
    evg::hw::Trace trace;
    std::vector<std::vector<uint8_t>> outputs;  // graph.tensors order (empty for inputs)
};

// The static EVG through the same kernel run_on_model builds, with the same allocations in the same order.
template <class ArchTag, bool USE_UB, class EAB, class EC, uint32_t L1M, uint32_t L1N, uint32_t L1K,
          uint32_t CL, class EVG, class MakeArgs>
StaticRun run_static(const Problem& p, const evg::graph::RunInputs& in, uint32_t block_dim,
                     MakeArgs make_args) {
    evg::hw::Config cfg;
    cfg.arch = p.arch;
    evg::hw::Device& dev = evg::hw::reset_device(cfg);
    auto upload = [&](const std::string& name, uint64_t bytes) {
        auto* ptr = static_cast<uint8_t*>(dev.malloc(bytes, name));
        auto it = in.tensors.find(name);
        if (it != in.tensors.end()) dev.copy_to_device(ptr, it->second.data(), bytes);
        return ptr;
    };
    uint8_t* a = upload("A", uint64_t(p.m) * p.k * sizeof(EAB));
    uint8_t* b = upload("B", uint64_t(p.k) * p.n * sizeof(EAB));
    std::vector<uint8_t*> ptrs;
    for (const Tensor& t : p.graph.tensors) ptrs.push_back(upload(t.name, tensor_bytes(t)));

    using L1TileShape = tla::tuple<tla::Int<L1M>, tla::Int<L1N>, tla::Int<L1K>>;
    using L0TileShape = tla::tuple<tla::Int<L1M>, tla::Int<L1N>, tla::Int<32>>;
    using BlockMmad =
        Gemm::Block::BlockMmadTla<Gemm::MmadPingpong<ArchTag, true>, L1TileShape, L0TileShape, EAB, EAB, EC>;
    using BlockEpilogue =
        Epilogue::Block::BlockEpilogue<Epilogue::EpilogueVisitor<USE_UB>, ArchTag, tla::Int<CL>, EVG, EC>;
    using Sched = Gemm::Block::GemmIdentityBlockSwizzle<3, 0>;
    using Kernel =
        std::conditional_t<USE_UB, Gemm::Kernel::BasicMatmulTlaUbVisitor<BlockMmad, BlockEpilogue, Sched>,
                           Gemm::Kernel::BasicMatmulTlaVisitor<BlockMmad, BlockEpilogue, Sched>>;
    const auto m = uint32_t(p.m), n = uint32_t(p.n), k = uint32_t(p.k);
    typename Kernel::Arguments args{GemmCoord(m, n, k),
                                    a,
                                    tla::MakeLayout<EAB, layout::RowMajor>(m, k),
                                    b,
                                    tla::MakeLayout<EAB, layout::RowMajor>(k, n),
                                    nullptr,
                                    tla::MakeLayout<EC, layout::RowMajor>(m, n),
                                    nullptr,
                                    make_args(ptrs)};
    Gemm::Device::DeviceGemm<Kernel> op;
    EXPECT_EQ(op.CanImplement(args), Status::kSuccess);
    const size_t ws = op.GetWorkspaceSize(args);
    uint8_t* workspace = ws ? static_cast<uint8_t*>(dev.malloc(ws, "workspace")) : nullptr;
    EXPECT_EQ(op.Initialize(args, workspace), Status::kSuccess);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    op(stream, block_dim);
    aclrtDestroyStream(stream);

    StaticRun r;
    r.report = dev.last_report();
    r.trace = dev.take_last_trace();
    for (size_t i = 0; i < p.graph.tensors.size(); ++i) {
        std::vector<uint8_t> out;
        if (p.graph.tensors[i].role == TensorRole::Output) {
            out.resize(tensor_bytes(p.graph.tensors[i]));
            dev.copy_to_host(out.data(), ptrs[i], out.size());
        }
        r.outputs.push_back(std::move(out));
    }
    return r;
}

std::string describe(const evg::hw::TraceEntry& e) {
    return "core " + std::to_string(e.core) + " pipe " + std::to_string(int(e.pipe)) + " kind " +
           std::to_string(int(e.kind)) + " " + std::string(e.op());
}

// The static EVG and the DynamicVisitor attribute instructions to nodes alike: the instructions of no node
// (BlockEpilogue's, the kernel's) are the same, and the instructions of one graph node carry one static label
// (the node's C++ type). The labels themselves differ by design and are not compared.
void expect_same_nodes(const StaticRun& s, const evg::graph::ModelRun& d) {
    std::map<int32_t, int32_t> to_static;
    for (size_t i = 0; i < s.trace.size(); ++i) {
        const int32_t a = s.trace[i].node, b = d.trace[i].node;
        ASSERT_EQ(a < 0, b < 0) << "instruction " << i << " (" << describe(s.trace[i]) << ")";
        if (a < 0) continue;
        // A static label is a type: two graph nodes of one type share it, so only dynamic -> static is a
        // function.
        ASSERT_EQ(to_static.emplace(b, a).first->second, a) << "instruction " << i;
    }
}

// Static and dynamic runs agree instruction for instruction, byte for byte, and on the UB peak.
void expect_same(const Problem& p, const StaticRun& s, const evg::graph::ModelRun& d) {
    EXPECT_TRUE(s.report.clean()) << s.report.text();
    EXPECT_TRUE(d.report.clean()) << d.report.text();
    ASSERT_EQ(s.trace.size(), d.trace.size());
    ASSERT_GT(d.trace.size(), 0u);
    for (size_t i = 0; i < s.trace.size(); ++i)
        ASSERT_EQ(describe(s.trace[i]), describe(d.trace[i])) << "instruction " << i;
    expect_same_nodes(s, d);
    EXPECT_EQ(s.report.stats.ub_peak, d.report.stats.ub_peak);
    // UbAccounting's end is reached only when the last node carved touches its whole buffer (a Compute or
    // Cast touches a tile's lanes); the exact peak is lib/verify's rule, which the property suite checks.
    EXPECT_LE(uint64_t(d.report.stats.ub_peak), d.predicted_ub_end);
    for (size_t i = 0; i < p.graph.tensors.size(); ++i) {
        if (p.graph.tensors[i].role != TensorRole::Output) continue;
        EXPECT_EQ(s.outputs[i], d.outputs.at(p.graph.tensors[i].name)) << p.graph.tensors[i].name;
    }
}

// %0 AccLoad f32, %1 AuxLoad f32 X, %2 Add(%0, %1), %3 AuxStore f32 D: a tree, on AtlasA2.
TEST(DynamicVisitor, AtlasA2_tree_Add_m65_n100_k40_tile32x64x64_CL256) {
    Problem p;
    p.arch = evg::hw::ArchId::AtlasA2;
    p.m = 65, p.n = 100, p.k = 40;
    p.a = p.b = DType::f16;
    p.c = DType::f32;
    p.tile = {32, 64, 64};
    p.compute_length = 256;
    p.graph.tensors = {tensor("X", TensorRole::Input, DType::f32, 65, 100),
                       tensor("D", TensorRole::Output, DType::f32, 65, 100)};
    p.graph.nodes = {node(NodeKind::AccLoad, DType::f32, {}), node(NodeKind::AuxLoad, DType::f32, {}, "X"),
                     compute(Functor::Add, DType::f32, {0, 1}),
                     node(NodeKind::AuxStore, DType::f32, {2}, "D")};
    ASSERT_TRUE(evg::graph::is_tree(p.graph));
    evg::graph::RunInputs in;
    in.tensors["A"] = ramp<half>(65 * 40, 5, 2);
    in.tensors["B"] = ramp<half>(40 * 100, 3, 1);
    in.tensors["X"] = ramp<float>(65 * 100, 9, 4);

    auto layoutX = tla::MakeLayout<float, layout::RowMajor>(65, 100);
    auto layoutD = tla::MakeLayout<float, layout::RowMajor>(65, 100);
    using EVG =
        F::TreeVisitor<F::VisitorAuxStore<float, decltype(layoutD)>,
                       F::TreeVisitor<F::VisitorCompute<F::Add, float>, F::VisitorAccLoad<float, false>,
                                      F::VisitorAuxLoad<float, decltype(layoutX)>>>;
    const StaticRun s = run_static<Arch::AtlasA2, false, half, float, 32, 64, 64, 256, EVG>(
        p, in, 2, [&](const std::vector<uint8_t*>& ptr) {
            return typename EVG::Arguments{{{}, {ptr[0], layoutX}, {}}, {ptr[1], layoutD}};
        });
    evg::graph::RunOptions opt;
    opt.block_dim = 2;
    const evg::graph::ModelRun d = evg::graph::run_on_model(p, in, opt);
    expect_same(p, s, d);
    // The numbers themselves: D = A.B + X, exact in float for these small integers.
    std::vector<float> D(65 * 100);
    std::memcpy(D.data(), d.outputs.at("D").data(), D.size() * sizeof(float));
    const auto* A = reinterpret_cast<const half*>(in.tensors["A"].data());
    const auto* B = reinterpret_cast<const half*>(in.tensors["B"].data());
    const auto* X = reinterpret_cast<const float*>(in.tensors["X"].data());
    for (int i = 0; i < 65; i += 16)
        for (int j = 0; j < 100; j += 11) {
            float acc = 0;
            for (int q = 0; q < 40; ++q) acc += float(A[i * 40 + q]) * float(B[q * 100 + j]);
            EXPECT_EQ(D[i * 100 + j], acc + X[i * 100 + j]) << i << "," << j;
        }
}

// A DAG (X feeds two nodes) with a RowReduce and a narrowing Cast, on Ascend950's GM path, with a
// computeLength (96) that is none of the examples' and forces several row groups and the column split.
//   %0 AccLoad f32, %1 AuxLoad f32 X, %2 Add(%0, %1), %3 RowReduce Add f32 R (%2), %4 Mul(%3, %1),
//   %5 Cast f16 <- f32 RINT (%4), %6 AuxStore f16 D (%5)
TEST(DynamicVisitor, Ascend950_topological_RowReduce_Cast_m65_n100_k40_CL96) {
    Problem p;
    p.arch = evg::hw::ArchId::Ascend950;
    p.m = 65, p.n = 100, p.k = 40;
    p.a = p.b = DType::f16;
    p.c = DType::f32;
    p.tile = {32, 64, 64};
    p.compute_length = 96;
    p.graph.tensors = {tensor("X", TensorRole::Input, DType::f32, 65, 100),
                       tensor("R", TensorRole::Output, DType::f32, 1, 100),
                       tensor("D", TensorRole::Output, DType::f16, 65, 100)};
    Node cast = node(NodeKind::Cast, DType::f16, {4});
    cast.from = DType::f32;
    cast.round = evg::hw::RoundMode::CAST_RINT;
    Node reduce = node(NodeKind::RowReduce, DType::f32, {2}, "R");
    reduce.fn = Functor::Add;
    p.graph.nodes = {
        node(NodeKind::AccLoad, DType::f32, {}),       node(NodeKind::AuxLoad, DType::f32, {}, "X"),
        compute(Functor::Add, DType::f32, {0, 1}),     reduce,
        compute(Functor::Mul, DType::f32, {3, 1}),     cast,
        node(NodeKind::AuxStore, DType::f16, {5}, "D")};
    ASSERT_FALSE(evg::graph::is_tree(p.graph));
    evg::graph::RunInputs in;
    in.tensors["A"] = ramp<half>(65 * 40, 5, 2);
    in.tensors["B"] = ramp<half>(40 * 100, 3, 1);
    in.tensors["X"] = ramp<float>(65 * 100, 9, 4);
    in.tensors["R"] = bytes_of(std::vector<float>(100, 0.0f));

    auto layoutX = tla::MakeLayout<float, layout::RowMajor>(65, 100);
    auto layoutR = tla::MakeLayout<float, layout::RowMajor>(1, 100);
    auto layoutD = tla::MakeLayout<half, layout::RowMajor>(65, 100);
    using EVG = F::TopologicalVisitor<
        tla::tuple<tla::seq<>, tla::seq<>, tla::seq<0, 1>, tla::seq<2>, tla::seq<3, 1>, tla::seq<4>,
                   tla::seq<5>>,
        F::VisitorAccLoad<float, false>, F::VisitorAuxLoad<float, decltype(layoutX)>,
        F::VisitorCompute<F::Add, float>, F::VisitorRowReduce<F::Add, float, decltype(layoutR)>,
        F::VisitorCompute<F::Mul, float>, F::VisitorCast<half, float, AscendC::RoundMode::CAST_RINT>,
        F::VisitorAuxStore<half, decltype(layoutD)>>;
    const StaticRun s = run_static<Arch::Ascend950, false, half, float, 32, 64, 64, 96, EVG>(
        p, in, 2, [&](const std::vector<uint8_t*>& ptr) {
            return typename EVG::Arguments{{}, {ptr[0], layoutX}, {}, {ptr[1], layoutR}, {},
                                           {}, {ptr[2], layoutD}};
        });
    const evg::graph::ModelRun d = evg::graph::run_on_model(p, in, {});
    expect_same(p, s, d);
}

// The UB workspace path on Ascend950, a 3-input Add (visited as a chain) with a ColBroadcast and a scalar
// Adds: %0 AccLoad<true> f32, %1 ColBroadcast f32 c, %2 AuxLoad f32 X, %3 Adds 2 (%2), %4 Add(%0, %1, %3),
// %5 AuxStore f32 D (%4).
TEST(DynamicVisitor, Ascend950_ub_tree_Add3_ColBroadcast_Adds_m40_n100_k40_CL32) {
    Problem p;
    p.arch = evg::hw::ArchId::Ascend950;
    p.path = evg::graph::WorkspacePath::UB;
    p.m = 40, p.n = 100, p.k = 40;
    p.a = p.b = DType::f16;
    p.c = DType::f32;
    p.tile = {32, 64, 64};
    p.compute_length = 32;
    p.graph.tensors = {tensor("c", TensorRole::Input, DType::f32, 40, 1),
                       tensor("X", TensorRole::Input, DType::f32, 40, 100, 104),
                       tensor("D", TensorRole::Output, DType::f32, 40, 100)};
    Node acc = node(NodeKind::AccLoad, DType::f32, {});
    acc.use_ub = true;
    p.graph.nodes = {acc,
                     node(NodeKind::ColBroadcast, DType::f32, {}, "c"),
                     node(NodeKind::AuxLoad, DType::f32, {}, "X"),
                     compute(Functor::Adds, DType::f32, {2}, {2.0}),
                     compute(Functor::Add, DType::f32, {0, 1, 3}),
                     node(NodeKind::AuxStore, DType::f32, {4}, "D")};
    ASSERT_TRUE(evg::graph::is_tree(p.graph));
    evg::graph::RunInputs in;
    in.tensors["A"] = ramp<half>(40 * 40, 5, 2);
    in.tensors["B"] = ramp<half>(40 * 100, 3, 1);
    in.tensors["c"] = ramp<float>(40, 7, 3);
    in.tensors["X"] = ramp<float>(39 * 104 + 100, 9, 4);

    auto layoutC = tla::MakeLayout<float, layout::RowMajor>(40, 1);
    auto layoutX = tla::MakeLayout<float, layout::RowMajor>(40, 100, 104);
    auto layoutD = tla::MakeLayout<float, layout::RowMajor>(40, 100);
    using EVG =
        F::TreeVisitor<F::VisitorAuxStore<float, decltype(layoutD)>,
                       F::TreeVisitor<F::VisitorCompute<F::Add, float>, F::VisitorAccLoad<float, true>,
                                      F::VisitorColBroadcast<float, decltype(layoutC)>,
                                      F::TreeVisitor<F::VisitorCompute<F::Adds, float, float>,
                                                     F::VisitorAuxLoad<float, decltype(layoutX)>>>>;
    const StaticRun s = run_static<Arch::Ascend950, true, half, float, 32, 64, 64, 32, EVG>(
        p, in, 2, [&](const std::vector<uint8_t*>& ptr) {
            return typename EVG::Arguments{{{}, {ptr[0], layoutC}, {{ptr[1], layoutX}, {{2.0f}}}, {}},
                                           {ptr[2], layoutD}};
        });
    const evg::graph::ModelRun d = evg::graph::run_on_model(p, in, {});
    expect_same(p, s, d);
}

// The run-time computeLength is checked with the same rule as the static one.
TEST(DynamicVisitor, RuntimeComputeLengthNotMultipleOf32IsRejected) {
    Problem p;
    p.arch = evg::hw::ArchId::AtlasA2;
    p.m = 8, p.n = 8, p.k = 8;
    p.tile = {32, 64, 64};
    p.compute_length = 48;
    p.graph.tensors = {tensor("D", TensorRole::Output, DType::f32, 8, 8)};
    p.graph.nodes = {node(NodeKind::AccLoad, DType::f32, {}), node(NodeKind::AuxStore, DType::f32, {0}, "D")};
    evg::graph::RunInputs in;
    in.tensors["A"] = ramp<half>(64, 5, 2);
    in.tensors["B"] = ramp<half>(64, 3, 1);
    EXPECT_THROW(evg::graph::run_on_model(p, in, {}), evg::Error);
}

}  // namespace

namespace {

// Per-case cost of a small problem (the property suite's shapes): prints cases per second; asserts every run
// is clean and equal to the first.
TEST(DynamicVisitor, SmallProblemThroughput_AtlasA2_m33_n40_k24_1block) {
    Problem p;
    p.arch = evg::hw::ArchId::AtlasA2;
    p.m = 33, p.n = 40, p.k = 24;
    p.a = p.b = DType::f16;
    p.c = DType::f32;
    p.tile = {32, 64, 64};
    p.compute_length = 64;
    p.graph.tensors = {tensor("X", TensorRole::Input, DType::f32, 33, 40),
                       tensor("D", TensorRole::Output, DType::f32, 33, 40)};
    p.graph.nodes = {node(NodeKind::AccLoad, DType::f32, {}), node(NodeKind::AuxLoad, DType::f32, {}, "X"),
                     compute(Functor::Add, DType::f32, {0, 1}), compute(Functor::Relu, DType::f32, {2}),
                     node(NodeKind::AuxStore, DType::f32, {3}, "D")};
    evg::graph::RunInputs in;
    in.tensors["A"] = ramp<half>(33 * 24, 5, 2);
    in.tensors["B"] = ramp<half>(24 * 40, 3, 1);
    in.tensors["X"] = ramp<float>(33 * 40, 9, 4);
    evg::graph::RunOptions opt;
    opt.block_dim = 1;
    opt.config.keep_trace = false;
    const auto first = evg::graph::run_on_model(p, in, opt);
    ASSERT_TRUE(first.report.clean()) << first.report.text();
    constexpr int kRuns = 100;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kRuns; ++i) {
        const auto r = evg::graph::run_on_model(p, in, opt);
        ASSERT_TRUE(r.report.clean());
        ASSERT_EQ(r.outputs.at("D"), first.outputs.at("D"));
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("run_on_model: %.3f ms per case, %.0f cases/s\n", 1e3 * s / kRuns, kRuns / s);
}

}  // namespace
