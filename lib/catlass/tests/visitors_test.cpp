// TreeVisitor and TopologicalVisitor: the order of Arguments, of UB carving and of visits; the per-stage
// cache of TopologicalVisitor (each op once per stage call; with topo_store_per_consumer, a shared
// STORE-stage op once per consumer path); and max_compute_length against the numbers of docs/evg-semantics.md
// §10.2 / §10.3.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "catlass/arch/arch.hpp"
#include "catlass/arch/resource.hpp"
#include "catlass/epilogue/fusion/compute_length.hpp"
#include "catlass/epilogue/fusion/fusion.hpp"
#include "catlass/epilogue/fusion/static_checks.hpp"
#include "catlass/epilogue/fusion/topological_visitor.hpp"
#include "catlass/epilogue/fusion/tree_visitor.hpp"
#include "catlass/epilogue/fusion/upstream_hazards.hpp"
#include "catlass/tla/tensor.hpp"
#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace {

using namespace Catlass;
using namespace Catlass::Epilogue::Fusion;
namespace UA = Catlass::Epilogue::Fusion::UbAccounting;

// ---------------------------------------------------------------------------------------------------------
// Stand-in nodes that record every visit: (id, stage, UB addresses of the inputs, own output address).
struct Visit {
    int id;
    VisitStage stage;
    std::vector<uint64_t> inputs;
    uint64_t output;
};
std::vector<Visit>& visits() {
    static std::vector<Visit> v;
    return v;
}

struct IdArgs {
    int id = -1;
};

template <class Self>
struct RecordingHost {
    using Arguments = IdArgs;
    using Params = IdArgs;
    template <class Shape>
    static Params to_underlying_arguments(const Shape&, const Arguments& a, void*) {
        return a;
    }
    template <class Shape>
    static size_t get_workspace_size(const Shape&, const Arguments&) {
        return 0;
    }
    template <class Shape>
    static bool can_implement(const Shape&, const Arguments& a) {
        return a.id >= 0;
    }
};

// A node with one UB buffer of E that records its visits. ISSUE: in COMPUTE it also issues one Duplicate and
// a PipeBarrier<PIPE_V> (so a launch shows how often it computed).
template <class E, bool ISSUE = false>
struct Rec : VisitorImpl<>, RecordingHost<Rec<E, ISSUE>> {
    using ElementOutput = E;
    using typename RecordingHost<Rec>::Arguments;
    using typename RecordingHost<Rec>::Params;
    using RecordingHost<Rec>::to_underlying_arguments;
    using RecordingHost<Rec>::get_workspace_size;
    using RecordingHost<Rec>::can_implement;
    static constexpr std::array<UA::NodeBuffers, 1> UB_NODES = {
        UA::node_buffers(UA::NodeClass::Compute, sizeof(E))};
    Params params;
    Rec() = default;
    explicit Rec(const Params& p) : params(p) {}

    struct Callbacks : EmptyCallbacks {
        int id = -1;
        uint32_t cl = 0;
        AscendC::LocalTensor<E> out;
        template <VisitStage Stage, class ArchTag, class TensorTile, class... Inputs>
        CATLASS_DEVICE const AscendC::LocalTensor<E>& visit(const TensorTile&, const MatrixCoord&,
                                                            const MatrixCoord&, const Inputs&... inputs) {
            visits().push_back({id, Stage, {inputs.GetPhyAddr()...}, out.GetPhyAddr()});
            if constexpr (ISSUE && Stage == VisitStage::COMPUTE) {
                AscendC::Duplicate(out, E(id), static_cast<int32_t>(cl));
                AscendC::PipeBarrier<AscendC::PIPE_V>();
            }
            return out;
        }
    };
    template <class ArchTag>
    CATLASS_DEVICE Callbacks get_callbacks(Arch::Resource<ArchTag>& resource, uint32_t& ub_offset,
                                           uint32_t compute_length) {
        Callbacks cb;
        cb.id = params.id;
        cb.cl = compute_length;
        cb.out = resource.ubBuf.template GetBufferByByte<E>(ub_offset);
        ub_offset += compute_length * sizeof(E);
        return cb;
    }
};

// A pass-through STORE-stage node (no UB): returns its one input, like VisitorAuxStore.
template <class E>
struct RecStore : VisitorImpl<>, RecordingHost<RecStore<E>> {
    using ElementOutput = E;
    using typename RecordingHost<RecStore>::Arguments;
    using typename RecordingHost<RecStore>::Params;
    using RecordingHost<RecStore>::to_underlying_arguments;
    using RecordingHost<RecStore>::get_workspace_size;
    using RecordingHost<RecStore>::can_implement;
    static constexpr VisitStage OUTPUT_STAGE = VisitStage::STORE;
    static constexpr InputRole INPUT_ROLE = InputRole::Store;
    using ElementInput = E;
    static constexpr std::array<UA::NodeBuffers, 1> UB_NODES = {
        UA::node_buffers(UA::NodeClass::AuxStore, sizeof(E))};
    Params params;
    RecStore() = default;
    explicit RecStore(const Params& p) : params(p) {}

    struct Callbacks : EmptyCallbacks {
        int id = -1;
        template <VisitStage Stage, class ArchTag, class TensorTile>
        CATLASS_DEVICE const AscendC::LocalTensor<E>& visit(const TensorTile&, const MatrixCoord&,
                                                            const MatrixCoord&,
                                                            const AscendC::LocalTensor<E>& in) {
            visits().push_back({id, Stage, {in.GetPhyAddr()}, in.GetPhyAddr()});
            return in;
        }
    };
    template <class ArchTag>
    CATLASS_DEVICE Callbacks get_callbacks(Arch::Resource<ArchTag>&, uint32_t&, uint32_t) {
        Callbacks cb;
        cb.id = params.id;
        return cb;
    }
};

using Tile = tla::Tensor<AscendC::GlobalTensor<float>, tla::RowMajorLayout>;

// Runs the three stages on one tile of EVG built from args; returns the visits and the UB end offset.
template <class EVG>
std::vector<Visit> run_stages(const typename EVG::Arguments& args, uint32_t cl, uint32_t& ub_offset) {
    visits().clear();
    GemmCoord shape(64, 64, 64);
    EVG evg(EVG::to_underlying_arguments(shape, args, nullptr));
    Arch::Resource<Arch::AtlasA2> resource;
    auto cbs = evg.get_callbacks(resource, ub_offset, cl);
    Tile tile;
    MatrixCoord aligned(2, 32), offset(0, 0);
    cbs.template visit<VisitStage::LOAD, Arch::AtlasA2>(tile, aligned, offset);
    cbs.template visit<VisitStage::COMPUTE, Arch::AtlasA2>(tile, aligned, offset);
    cbs.template visit<VisitStage::STORE, Arch::AtlasA2>(tile, aligned, offset);
    return visits();
}

std::vector<int> ids_in_stage(const std::vector<Visit>& v, VisitStage s) {
    std::vector<int> ids;
    for (const Visit& x : v)
        if (x.stage == s) ids.push_back(x.id);
    return ids;
}

// ---------------------------------------------------------------------------------------------------------
// TreeVisitor

// D = Store(Compute(Load0, Load1)): Store<-Tree(Compute; Load0, Load1).
using RecF = Rec<float>;
using Tree2 = TreeVisitor<RecStore<float>, TreeVisitor<RecF, RecF, RecF>>;

TEST(TreeVisitor, ArgumentsAreChildrenFirstParentLastNestedPerLevel) {
    // Arguments type: { {Load0, Load1, Compute}, Store }.
    static_assert(std::is_same_v<Tree2::Arguments, tla::tuple<tla::tuple<IdArgs, IdArgs, IdArgs>, IdArgs>>);
    static_assert(std::is_same_v<Tree2::ElementOutput, float>);
    Tree2::Arguments args{{{10}, {11}, {12}}, {13}};
    auto params = Tree2::to_underlying_arguments(GemmCoord(8, 8, 8), args, nullptr);
    EXPECT_EQ(tla::get<0>(tla::get<0>(params)).id, 10);
    EXPECT_EQ(tla::get<1>(tla::get<0>(params)).id, 11);
    EXPECT_EQ(tla::get<2>(tla::get<0>(params)).id, 12);
    EXPECT_EQ(tla::get<1>(params).id, 13);
    EXPECT_TRUE(Tree2::can_implement(GemmCoord(8, 8, 8), args));
    Tree2::Arguments bad{{{10}, {-1}, {12}}, {13}};
    EXPECT_FALSE(Tree2::can_implement(GemmCoord(8, 8, 8), bad));
}

TEST(TreeVisitor, VisitsChildrenInOrderThenParentWithTheirOutputsEveryStage) {
    constexpr uint32_t kCl = 1024;
    uint32_t ub = 0;
    auto v = run_stages<Tree2>({{{10}, {11}, {12}}, {13}}, kCl, ub);
    // UB carved in post-order: 10 at 0, 11 at 4 KiB, 12 at 8 KiB; the store carves nothing.
    EXPECT_EQ(ub, 3u * kCl * 4);
    ASSERT_EQ(v.size(), 12u);
    for (VisitStage s : {VisitStage::LOAD, VisitStage::COMPUTE, VisitStage::STORE})
        EXPECT_EQ(ids_in_stage(v, s), (std::vector<int>{10, 11, 12, 13}));
    EXPECT_EQ(v[0].output, 0u);
    EXPECT_TRUE(v[0].inputs.empty());
    EXPECT_EQ(v[1].output, kCl * 4u);
    EXPECT_EQ(v[2].inputs, (std::vector<uint64_t>{0, kCl * 4u}));  // the compute sees Load0, Load1 in order
    EXPECT_EQ(v[2].output, 2u * kCl * 4);
    EXPECT_EQ(v[3].inputs, (std::vector<uint64_t>{2u * kCl * 4}));  // the store sees the compute's buffer
    // The stage order is LOAD, COMPUTE, STORE.
    EXPECT_EQ(v[0].stage, VisitStage::LOAD);
    EXPECT_EQ(v[4].stage, VisitStage::COMPUTE);
    EXPECT_EQ(v[8].stage, VisitStage::STORE);
}

TEST(TreeVisitor, UbNodesConcatenateInCarvingOrder) {
    using T = TreeVisitor<RecStore<half>, TreeVisitor<Rec<half>, Rec<float>, Rec<half>>>;
    static_assert(T::UB_NODES.size() == 4);
    EXPECT_EQ(T::UB_NODES[0].element_bytes, 4u);  // Rec<float>, the first child
    EXPECT_EQ(T::UB_NODES[1].element_bytes, 2u);
    EXPECT_EQ(T::UB_NODES[2].element_bytes, 2u);  // the inner parent
    EXPECT_EQ(T::UB_NODES[3].buffers, 0u);        // the store
    uint32_t ub = 64;
    run_stages<T>({{{1}, {2}, {3}}, {4}}, 256, ub);
    EXPECT_EQ(ub, 64u + 256u * (4 + 2 + 2));
}

TEST(TreeVisitor, ExtraInputsGoToTheChildrenNotToTheParent) {
    // A tree used as an op of a TopologicalVisitor receives its inputs and forwards them to each child.
    using Inner = TreeVisitor<Rec<float>, Rec<float>, Rec<float>>;
    using Topo = TopologicalVisitor<tla::tuple<tla::seq<>, tla::seq<0>>, Rec<float>, Inner>;
    uint32_t ub = 0;
    auto v = run_stages<Topo>({{1}, {{2}, {3}, {4}}}, 32, ub);
    ASSERT_EQ(v.size(), 12u);
    EXPECT_EQ(v[1].id, 2);
    EXPECT_EQ(v[1].inputs, (std::vector<uint64_t>{0}));
    EXPECT_EQ(v[2].id, 3);
    EXPECT_EQ(v[2].inputs, (std::vector<uint64_t>{0}));
    EXPECT_EQ(v[3].id, 4);
    EXPECT_EQ(v[3].inputs, (std::vector<uint64_t>{32 * 4, 2 * 32 * 4}));
}

// Catlass's EVG<...> is TreeVisitor<...> itself, not a look-alike: checked by the compiler, so a change that
// breaks it fails the build of this test binary.
static_assert(std::is_same_v<EVG<RecStore<float>, RecF>, TreeVisitor<RecStore<float>, RecF>>,
              "EVG<Node, Children...> must be TreeVisitor<Node, Children...>");

// ---------------------------------------------------------------------------------------------------------
// TopologicalVisitor

// 0 Load; 1 A<-0; 2 B<-0; 3 C<-(1,2); 4 Store<-3; op 5 unreachable is not last... root is the last op.
using Diamond = TopologicalVisitor<
    tla::tuple<tla::seq<>, tla::seq<0>, tla::seq<0>, tla::seq<1, 2>, tla::seq<0>, tla::seq<3>>, RecF, RecF,
    RecF, RecF, RecF, RecStore<float>>;

TEST(TopologicalVisitor, ArgumentsAreFlatInOpOrder) {
    static_assert(
        std::is_same_v<Diamond::Arguments, tla::tuple<IdArgs, IdArgs, IdArgs, IdArgs, IdArgs, IdArgs>>);
    static_assert(std::is_same_v<Diamond::ElementOutput, float>);
    static_assert(Diamond::UB_NODES.size() == 6);
    auto p = Diamond::to_underlying_arguments(GemmCoord(8, 8, 8), {{0}, {1}, {2}, {3}, {4}, {5}}, nullptr);
    EXPECT_EQ(tla::get<3>(p).id, 3);
    EXPECT_EQ(tla::get<5>(p).id, 5);
}

TEST(TopologicalVisitor, EveryReachableOpOncePerStageInEdgeOrderAndUnreachableNever) {
    constexpr uint32_t kCl = 64;
    uint32_t ub = 0;
    auto v = run_stages<Diamond>({{0}, {1}, {2}, {3}, {4}, {5}}, kCl, ub);
    EXPECT_EQ(ub, 5u * kCl * 4);  // every op carves, reachable or not (op 4 is unreachable)
    for (VisitStage s : {VisitStage::LOAD, VisitStage::COMPUTE, VisitStage::STORE})
        EXPECT_EQ(ids_in_stage(v, s), (std::vector<int>{0, 1, 2, 3, 5}));
    ASSERT_EQ(v.size(), 15u);
    EXPECT_EQ(v[1].inputs, (std::vector<uint64_t>{0}));
    EXPECT_EQ(v[2].inputs, (std::vector<uint64_t>{0}));
    EXPECT_EQ(v[3].inputs, (std::vector<uint64_t>{kCl * 4, 2 * kCl * 4}));
    EXPECT_EQ(v[4].inputs, (std::vector<uint64_t>{3 * kCl * 4}));
}

TEST(TopologicalVisitor, DuplicateEdgeFeedsTheSameValueTwiceAndVisitsOnce) {
    // Example 34: 0 AccLoad, 1 AuxLoad, 2 Plus<-(0,1), 3 Plus<-(2,2), 4 Store<-3.
    using T =
        TopologicalVisitor<tla::tuple<tla::seq<>, tla::seq<>, tla::seq<0, 1>, tla::seq<2, 2>, tla::seq<3>>,
                           RecF, RecF, RecF, RecF, RecStore<float>>;
    uint32_t ub = 0;
    auto v = run_stages<T>({{0}, {1}, {2}, {3}, {4}}, 32, ub);
    EXPECT_EQ(ids_in_stage(v, VisitStage::COMPUTE), (std::vector<int>{0, 1, 2, 3, 4}));
    EXPECT_EQ(v[3].inputs, (std::vector<uint64_t>{2 * 32 * 4, 2 * 32 * 4}));
}

// 0 Load; 1 Store<-0 (shared); 2 A<-1; 3 B<-1; 4 C<-(2,3) root.
using SharedStore =
    TopologicalVisitor<tla::tuple<tla::seq<>, tla::seq<0>, tla::seq<1>, tla::seq<1>, tla::seq<2, 3>>, RecF,
                       RecStore<float>, RecF, RecF, RecF>;

TEST(TopologicalVisitor, SharedStoreRunsOncePerStageByDefault) {
    uint32_t ub = 0;
    auto v = run_stages<SharedStore>({{0}, {1}, {2}, {3}, {4}}, 32, ub);
    for (VisitStage s : {VisitStage::LOAD, VisitStage::COMPUTE, VisitStage::STORE})
        EXPECT_EQ(ids_in_stage(v, s), (std::vector<int>{0, 1, 2, 3, 4}));
}

TEST(TopologicalVisitor, SharedStoreRunsOncePerConsumerWithTheL1Switch) {
    ScopedUpstreamHazards hazards(UpstreamHazards{.topo_store_per_consumer = true});
    uint32_t ub = 0;
    auto v = run_stages<SharedStore>({{0}, {1}, {2}, {3}, {4}}, 32, ub);
    // The store is not cached: it runs for consumer 2 and again for consumer 3; the load stays cached.
    for (VisitStage s : {VisitStage::LOAD, VisitStage::COMPUTE, VisitStage::STORE})
        EXPECT_EQ(ids_in_stage(v, s), (std::vector<int>{0, 1, 2, 1, 3, 4}));
}

TEST(TopologicalVisitor, NestsAsAnOpOfATree) {
    using Topo = TopologicalVisitor<tla::tuple<tla::seq<>, tla::seq<0, 0>>, RecF, RecF>;
    using T = TreeVisitor<RecStore<float>, Topo>;
    static_assert(std::is_same_v<T::ElementOutput, float>);
    uint32_t ub = 0;
    auto v = run_stages<T>({{{0}, {1}}, {2}}, 32, ub);
    EXPECT_EQ(ids_in_stage(v, VisitStage::STORE), (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(v[2].inputs, (std::vector<uint64_t>{32 * 4}));
}

// The cache on the machine: a diamond whose ops each issue one Duplicate per COMPUTE. On AtlasA2 every op's
// Duplicate is separated from the next by a PipeBarrier, so the run is clean and the V pipe shows each op
// once per tile.
template <class EVG>
size_t count_v_ops(const evg::hw::Device& dev, const std::string& op) {
    size_t n = 0;
    for (const auto& e : dev.last_trace())
        if (e.pipe == evg::hw::Pipe::V && e.op() == op) ++n;
    return n;
}

template <class EVG>
const evg::hw::Report& launch_stages(evg::hw::Device& dev, const typename EVG::Arguments& args, int tiles) {
    return dev.launch(
        1, evg::hw::KernelType::aiv_only,
        [&] {
            EVG evg(EVG::to_underlying_arguments(GemmCoord(8, 8, 8), args, nullptr));
            Arch::Resource<Arch::AtlasA2> resource;
            uint32_t ub = 0;
            auto cbs = evg.get_callbacks(resource, ub, 256);
            Tile tile;
            for (int t = 0; t < tiles; ++t) {
                cbs.template visit<VisitStage::LOAD, Arch::AtlasA2>(tile, MatrixCoord(1, 32),
                                                                    MatrixCoord(0, 0));
                cbs.template visit<VisitStage::COMPUTE, Arch::AtlasA2>(tile, MatrixCoord(1, 32),
                                                                       MatrixCoord(0, 0));
                cbs.template visit<VisitStage::STORE, Arch::AtlasA2>(tile, MatrixCoord(1, 32),
                                                                     MatrixCoord(0, 0));
            }
        },
        Arch::AtlasA2::EVG_ARCH);
}

TEST(TopologicalVisitor, AtlasA2_DiamondComputesEachOpOncePerTile_VPipeCount) {
    using G = Rec<float, true>;
    // 0 Load; 1 A<-0; 2 B<-0; 3 C<-(1,2); 4 D<-(3,1,2,0) root.
    using T = TopologicalVisitor<
        tla::tuple<tla::seq<>, tla::seq<0>, tla::seq<0>, tla::seq<1, 2>, tla::seq<3, 1, 2, 0>>, G, G, G, G,
        G>;
    evg::hw::Config cfg;
    evg::hw::Device dev(cfg);
    const auto& report = launch_stages<T>(dev, {{0}, {1}, {2}, {3}, {4}}, 3);
    EXPECT_TRUE(report.clean()) << report.text();
    EXPECT_EQ(count_v_ops<T>(dev, "Duplicate"), 5u * 3);  // 5 ops x 3 tiles, not one per consumer path
}

// The same with the library's nodes: one tile (2 x 32 floats, CL 64) through LOAD, COMPUTE, STORE with the
// block epilogue's MTE2_V and V_MTE3 events in between.
using XLayout = tla::RowMajorLayout;
using AuxF = VisitorAuxLoad<float, XLayout>;
using StoreF = VisitorAuxStore<float, XLayout>;
using AddsF = VisitorCompute<Adds, float, float>;
using MulsF = VisitorCompute<Muls, float, float>;
using AddF = VisitorCompute<Add, float>;
using RowSumF = VisitorRowReduce<Add, float, XLayout>;

template <class EVG>
const evg::hw::Report& launch_one_tile(evg::hw::Device& dev, const typename EVG::Arguments& args) {
    return dev.launch(
        1, evg::hw::KernelType::aiv_only,
        [&] {
            EVG evg(EVG::to_underlying_arguments(GemmCoord(2, 32, 8), args, nullptr));
            Arch::Resource<Arch::AtlasA2> resource;
            uint32_t ub = 0;
            auto cbs = evg.get_callbacks(resource, ub, 64);
            AscendC::GlobalTensor<float> c;
            auto tile = tla::MakeTensor(c, tla::MakeLayout<float, layout::RowMajor>(2, 32));
            const MatrixCoord aligned(2, 32), offset(0, 0);
            cbs.template visit<VisitStage::LOAD, Arch::AtlasA2>(tile, aligned, offset);
            AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
            cbs.template visit<VisitStage::COMPUTE, Arch::AtlasA2>(tile, aligned, offset);
            AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
            AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
            cbs.template visit<VisitStage::STORE, Arch::AtlasA2>(tile, aligned, offset);
        },
        Arch::AtlasA2::EVG_ARCH);
}

size_t count_ops(const evg::hw::Device& dev, evg::hw::Pipe pipe, const std::string& prefix) {
    size_t n = 0;
    for (const auto& e : dev.last_trace())
        if (e.pipe == pipe && e.op().rfind(prefix, 0) == 0) ++n;
    return n;
}

struct TwoByThirtyTwo {
    std::vector<float> x = std::vector<float>(64);
    TwoByThirtyTwo() {
        for (int i = 0; i < 64; ++i) x[i] = float(i % 7) - 3.0f;  // small integers: exact in float
    }
};

TEST(TopologicalVisitor, AtlasA2_float_RealNodeDiamond_EachComputeOnce_VPipeCountAndValues) {
    // 0 X; 1 Adds(1)<-0; 2 Muls(2)<-0; 3 Add<-(1,2); 4 Store D<-3: D = (x + 1) + 2x.
    using T =
        TopologicalVisitor<tla::tuple<tla::seq<>, tla::seq<0>, tla::seq<0>, tla::seq<1, 2>, tla::seq<3>>,
                           AuxF, AddsF, MulsF, AddF, StoreF>;
    TwoByThirtyTwo in;
    evg::hw::Config cfg;
    evg::hw::Device dev(cfg);
    void* x = dev.malloc(64 * 4, "X");
    void* d = dev.malloc(64 * 4, "D");
    dev.copy_to_device(x, in.x.data(), 64 * 4);
    auto l = tla::MakeLayout<float, layout::RowMajor>(2, 32);
    const auto& report = launch_one_tile<T>(
        dev, {{reinterpret_cast<GM_ADDR>(x), l}, {{1.0f}}, {{2.0f}}, {}, {reinterpret_cast<GM_ADDR>(d), l}});
    EXPECT_TRUE(report.clean()) << report.text();
    EXPECT_EQ(count_ops(dev, evg::hw::Pipe::MTE2, "DataCopyPad"), 1u);  // X loaded once, shared by two ops
    EXPECT_EQ(count_ops(dev, evg::hw::Pipe::V, "Adds"), 1u);
    EXPECT_EQ(count_ops(dev, evg::hw::Pipe::V, "Muls"), 1u);
    EXPECT_EQ(count_ops(dev, evg::hw::Pipe::V, "Add"), 2u);  // "Add" prefixes "Adds": one Add + one Adds
    EXPECT_EQ(count_ops(dev, evg::hw::Pipe::MTE3, "DataCopyPad"), 1u);
    std::vector<float> out(64);
    dev.copy_to_host(out.data(), d, 64 * 4);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(out[i], (in.x[i] + 1.0f) + 2.0f * in.x[i]) << i;
}

// 0 X; 1 RowReduce<Add>(R)<-0 shared by 2 and 3; 2 Adds(1)<-1; 3 Muls(2)<-1; 4 Add<-(2,3); 5 Store D<-4.
using SharedReduce = TopologicalVisitor<
    tla::tuple<tla::seq<>, tla::seq<0>, tla::seq<1>, tla::seq<1>, tla::seq<2, 3>, tla::seq<4>>, AuxF, RowSumF,
    AddsF, MulsF, AddF, StoreF>;

std::vector<float> run_shared_reduce(bool l1_switch, size_t& reduce_stores) {
    ScopedUpstreamHazards hazards(UpstreamHazards{.topo_store_per_consumer = l1_switch});
    TwoByThirtyTwo in;
    evg::hw::Config cfg;
    evg::hw::Device dev(cfg);
    void* x = dev.malloc(64 * 4, "X");
    void* d = dev.malloc(64 * 4, "D");
    void* r = dev.malloc(32 * 4, "R");
    dev.copy_to_device(x, in.x.data(), 64 * 4);
    std::vector<float> zeros(32, 0.0f);
    dev.copy_to_device(r, zeros.data(), 32 * 4);
    auto l = tla::MakeLayout<float, layout::RowMajor>(2, 32);
    auto lr = tla::MakeLayout<float, layout::RowMajor>(1, 32);
    const auto& report = launch_one_tile<SharedReduce>(dev, {{reinterpret_cast<GM_ADDR>(x), l},
                                                             {reinterpret_cast<GM_ADDR>(r), lr, 0.0f},
                                                             {{1.0f}},
                                                             {{2.0f}},
                                                             {},
                                                             {reinterpret_cast<GM_ADDR>(d), l}});
    EXPECT_TRUE(report.clean()) << report.text();
    reduce_stores = count_ops(dev, evg::hw::Pipe::MTE3, "DataCopyPad") - 1;  // minus the store of D
    std::vector<float> out(32);
    dev.copy_to_host(out.data(), r, 32 * 4);
    return out;
}

TEST(TopologicalVisitor, AtlasA2_float_SharedRowReduceAccumulatesOnce) {
    TwoByThirtyTwo in;
    size_t stores = 0;
    auto out = run_shared_reduce(false, stores);
    EXPECT_EQ(stores, 1u);
    for (int j = 0; j < 32; ++j) ASSERT_EQ(out[j], in.x[j] + in.x[32 + j]) << j;
}

TEST(TopologicalVisitor, AtlasA2_float_SharedRowReduceAccumulatesTwiceWithTheL1Switch) {
    // docs/evg-semantics.md §11.2 item 7: the L1 cache re-runs a shared reduce per consumer; the atomic add
    // doubles.
    TwoByThirtyTwo in;
    size_t stores = 0;
    auto out = run_shared_reduce(true, stores);
    EXPECT_EQ(stores, 2u);
    for (int j = 0; j < 32; ++j) ASSERT_EQ(out[j], 2.0f * (in.x[j] + in.x[32 + j])) << j;
}

// ---------------------------------------------------------------------------------------------------------
// max_compute_length: docs/evg-semantics.md §10.2 (Ascend950, fp32) and §10.3 (AtlasA2, fp16).

template <UA::NodeClass C, class E>
struct UbOnly {
    using ElementOutput = E;
    static constexpr std::array<UA::NodeBuffers, 1> UB_NODES = {UA::node_buffers(C, sizeof(E))};
};
template <class E>
using AccGm = UbOnly<UA::NodeClass::AccLoadGm, E>;
template <class E>
using AccUb = UbOnly<UA::NodeClass::AccLoadUb, E>;
template <class E>
using Aux = UbOnly<UA::NodeClass::AuxLoad, E>;
template <class E>
using Cmp = UbOnly<UA::NodeClass::Compute, E>;
template <class E>
using Store = UbOnly<UA::NodeClass::AuxStore, E>;
template <class E>
using CastTo = UbOnly<UA::NodeClass::Cast, E>;

template <class... Ops>
struct UbList {
    static constexpr auto UB_NODES = concat_ub_nodes<Ops...>();
};

TEST(MaxComputeLength, Ascend950_fp32_StoreAddAccLoadAuxLoad_10560) {
    using G = UbList<AccGm<float>, Aux<float>, Cmp<float>, Store<float>>;
    constexpr uint32_t cl = max_compute_length<G, Arch::Ascend950, false>();
    static_assert(cl == 10560);
    EXPECT_EQ(cl, 10560u);
    EXPECT_EQ((ub_end<G, Arch::Ascend950>(cl)), 2ull * 3 * 4 * 10560);
}

TEST(MaxComputeLength, Ascend950_fp32_UnaryTrees_15872) {
    using G = UbList<AccGm<float>, Cmp<float>, Store<float>>;
    EXPECT_EQ((max_compute_length<G, Arch::Ascend950>()), 15872u);
}

TEST(MaxComputeLength, Ascend950_fp32_Tanh9Ops_3968) {
    using G = UbList<AccGm<float>, Cmp<float>, Cmp<float>, Cmp<float>, Cmp<float>, Cmp<float>, Cmp<float>,
                     Cmp<float>, Store<float>>;
    EXPECT_EQ((max_compute_length<G, Arch::Ascend950>()), 3968u);
}

TEST(MaxComputeLength, Ascend950_fp32_UbPathAdd_7680) {
    using G = UbList<AccUb<float>, Aux<float>, Cmp<float>, Store<float>>;
    EXPECT_EQ((max_compute_length<G, Arch::Ascend950, true>()), 7680u);
    EXPECT_EQ((ub_end<G, Arch::Ascend950, true>(7680)), 131072ull + 2 * 2 * 4 * 7680);
}

TEST(MaxComputeLength, AtlasA2_half_ThreeNodes_16384) {
    using G = UbList<AccGm<half>, Aux<half>, Cmp<half>, Store<half>>;
    EXPECT_EQ((max_compute_length<G, Arch::AtlasA2>()), 16384u);
}

TEST(MaxComputeLength, AtlasA2_MixedCastGraph_RoundsDownTo32) {
    // Example 33: Cast<float>(AccLoad half), Cast<float>(AuxLoad half), Compute float, Cast<half>, Store:
    // per element 2 + 2 + 4 + 4 + 4 + 2 = 18 bytes; 196608 / 2 / 18 = 5461.3 -> 5440.
    using G =
        UbList<AccGm<half>, CastTo<float>, Aux<half>, CastTo<float>, Cmp<float>, CastTo<half>, Store<half>>;
    EXPECT_EQ((max_compute_length<G, Arch::AtlasA2>()), 5440u);
    EXPECT_TRUE((check_compute_length<G, Arch::AtlasA2, 5440>()));
}

TEST(MaxComputeLength, TreeAndTopologicalAgreeOnTheSameNodes) {
    using Tree = TreeVisitor<RecStore<float>, TreeVisitor<RecF, RecF, RecF>>;
    using Topo = TopologicalVisitor<tla::tuple<tla::seq<>, tla::seq<>, tla::seq<0, 1>, tla::seq<2>>, RecF,
                                    RecF, RecF, RecStore<float>>;
    EXPECT_EQ((max_compute_length<Tree, Arch::Ascend950>()), 10560u);
    EXPECT_EQ((max_compute_length<Topo, Arch::Ascend950>()), 10560u);
}

}  // namespace
