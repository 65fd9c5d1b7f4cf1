// BlockEpilogue (docs/evg-semantics.md §5): the tile loop covers every path (row groups with a tail,
// unaligned columns, M = 1 / N = 1, an AIV with no rows, the column split), the event sequence of a 3-tile
// run equals §5.3, the measured UB peak equals the UB accounting, the UB workspace path on Ascend950, the
// L1-lineage form, and the §11.2 item 3 hazard (faithful on demand, ordered by default).
//
// The graphs here are built from small stand-in nodes that follow the node concept (visitor_impl.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

#include "catlass/arch/arch.hpp"
#include "catlass/arch/resource.hpp"
#include "catlass/epilogue/block/block_epilogue.hpp"
#include "catlass/epilogue/fusion/operations.hpp"
#include "catlass/epilogue/fusion/tree_visitor.hpp"
#include "catlass/epilogue/fusion/ub_accounting.hpp"
#include "catlass/epilogue/fusion/upstream_hazards.hpp"
#include "catlass/epilogue/fusion/visitor_acc_load.hpp"
#include "catlass/epilogue/fusion/visitor_aux_load.hpp"
#include "catlass/epilogue/fusion/visitor_aux_store.hpp"
#include "catlass/epilogue/fusion/visitor_compute.hpp"
#include "catlass/epilogue/fusion/visitor_impl.hpp"
#include "catlass/epilogue/tile/copy_tla.hpp"
#include "catlass/layout/layout.hpp"
#include "catlass/tla/layout.hpp"
#include "catlass/tla/tensor.hpp"
#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace {

using namespace Catlass;
namespace Fusion = Catlass::Epilogue::Fusion;
using Fusion::VisitStage;
using Fusion::UbAccounting::node_buffers;
using Fusion::UbAccounting::NodeBuffers;
using Fusion::UbAccounting::NodeClass;

// ---------------------------------------------------------------------------------------------------------
// Stand-in nodes.

template <class ArchTag, class Element>
AscendC::LocalTensor<Element> carve(Arch::Resource<ArchTag>& resource, uint32_t& ub_offset, uint32_t cl) {
    auto t = resource.ubBuf.template GetBufferByByte<Element>(ub_offset);
    t.SetSize(cl);
    ub_offset += cl * static_cast<uint32_t>(sizeof(Element));
    return t;
}

template <class Element>
auto ub_view(const AscendC::LocalTensor<Element>& ub, const MatrixCoord& shape, uint32_t pitch) {
    return tla::MakeTensor(ub, tla::MakeLayout<Element, layout::RowMajor>(shape.row(), shape.column(), pitch),
                           Arch::PositionUB{});
}

struct NoArgs {};

// AccLoad: copies the C tile to UB in LOAD (GM path) or returns a view of the C tile in UB (UB path).
template <class Element, bool USE_UB = false>
struct StandInAccLoad : Fusion::VisitorImpl<> {
    using ElementOutput = Element;
    using Arguments = NoArgs;
    using Params = NoArgs;
    static constexpr std::array<NodeBuffers, 1> UB_NODES = {
        node_buffers(USE_UB ? NodeClass::AccLoadUb : NodeClass::AccLoadGm, sizeof(Element))};
    template <class S>
    static Params to_underlying_arguments(const S&, const Arguments& a, void*) {
        return a;
    }
    template <class S>
    static size_t get_workspace_size(const S&, const Arguments&) {
        return 0;
    }
    template <class S>
    static bool can_implement(const S&, const Arguments&) {
        return true;
    }
    StandInAccLoad() = default;
    explicit StandInAccLoad(const Params& p) : params(p) {}
    Params params;

    struct Callbacks : Fusion::EmptyCallbacks {
        AscendC::LocalTensor<Element> ubAcc;
        template <VisitStage Stage, class ArchTag, class TensorTile, class... Inputs>
        const AscendC::LocalTensor<Element>& visit(const TensorTile& tile, const MatrixCoord& aligned,
                                                   const MatrixCoord&, const Inputs&...) {
            if constexpr (USE_UB) {
                ubAcc = tile.data()[static_cast<uint32_t>(tile.offset())];
            } else if constexpr (Stage == VisitStage::LOAD) {
                auto dst = ub_view(ubAcc, tile.shape(), aligned.column());
                Epilogue::Tile::CopyGm2UbTla<ArchTag, decltype(dst), TensorTile>{}(dst, tile);
            }
            return ubAcc;
        }
    };
    template <class ArchTag>
    Callbacks get_callbacks(Arch::Resource<ArchTag>& resource, uint32_t& ub_offset, uint32_t cl) {
        Callbacks cb;
        if constexpr (!USE_UB) cb.ubAcc = carve<ArchTag, Element>(resource, ub_offset, cl);
        return cb;
    }
};

// Compute: out = in + K over the whole buffer, then PipeBarrier<PIPE_V>.
template <class Element, int K>
struct StandInAdds : Fusion::VisitorImpl<> {
    using ElementOutput = Element;
    using Arguments = NoArgs;
    using Params = NoArgs;
    static constexpr std::array<NodeBuffers, 1> UB_NODES = {
        node_buffers(NodeClass::Compute, sizeof(Element))};
    template <class S>
    static Params to_underlying_arguments(const S&, const Arguments& a, void*) {
        return a;
    }
    template <class S>
    static size_t get_workspace_size(const S&, const Arguments&) {
        return 0;
    }
    template <class S>
    static bool can_implement(const S&, const Arguments&) {
        return true;
    }
    StandInAdds() = default;
    explicit StandInAdds(const Params& p) : params(p) {}
    Params params;

    struct Callbacks : Fusion::EmptyCallbacks {
        AscendC::LocalTensor<Element> ubOut;
        uint32_t cl = 0;
        template <VisitStage Stage, class ArchTag, class TensorTile, class Input>
        const AscendC::LocalTensor<Element>& visit(const TensorTile&, const MatrixCoord&, const MatrixCoord&,
                                                   const AscendC::LocalTensor<Input>& in) {
            if constexpr (Stage == VisitStage::COMPUTE) {
                AscendC::Adds(ubOut, in, Element(float(K)), static_cast<int32_t>(cl));
                AscendC::PipeBarrier<AscendC::PIPE_V>();
            }
            return ubOut;
        }
    };
    template <class ArchTag>
    Callbacks get_callbacks(Arch::Resource<ArchTag>& resource, uint32_t& ub_offset, uint32_t cl) {
        Callbacks cb;
        cb.ubOut = carve<ArchTag, Element>(resource, ub_offset, cl);
        cb.cl = cl;
        return cb;
    }
};

// Store: copies its input tile to D at globalOffset in STORE; returns its input.
template <class Element>
struct StandInStore : Fusion::VisitorImpl<> {
    using ElementOutput = Element;
    struct Arguments {
        GM_ADDR ptr = nullptr;
        tla::RowMajorLayout layout{};
    };
    using Params = Arguments;
    static constexpr std::array<NodeBuffers, 1> UB_NODES = {
        node_buffers(NodeClass::AuxStore, sizeof(Element))};
    template <class S>
    static Params to_underlying_arguments(const S&, const Arguments& a, void*) {
        return a;
    }
    template <class S>
    static size_t get_workspace_size(const S&, const Arguments&) {
        return 0;
    }
    template <class S>
    static bool can_implement(const S&, const Arguments& a) {
        return a.ptr != nullptr;
    }
    StandInStore() = default;
    explicit StandInStore(const Params& p) : params(p) {}
    Params params;

    struct Callbacks : Fusion::EmptyCallbacks {
        const Params* params = nullptr;
        template <VisitStage Stage, class ArchTag, class TensorTile>
        const AscendC::LocalTensor<Element>& visit(const TensorTile& tile, const MatrixCoord& aligned,
                                                   const MatrixCoord& global,
                                                   const AscendC::LocalTensor<Element>& in) {
            if constexpr (Stage == VisitStage::STORE) {
                AscendC::GlobalTensor<Element> gm;
                gm.SetGlobalBuffer(reinterpret_cast<Element*>(params->ptr));
                auto dst = tla::GetTile(tla::MakeTensor(gm, params->layout), global, tile.shape());
                auto src = ub_view(in, tile.shape(), aligned.column());
                Epilogue::Tile::CopyUb2GmTla<ArchTag, decltype(dst), decltype(src)>{}(dst, src);
            }
            return in;
        }
    };
    template <class ArchTag>
    Callbacks get_callbacks(Arch::Resource<ArchTag>&, uint32_t&, uint32_t) {
        Callbacks cb;
        cb.params = &params;
        return cb;
    }
};

// Records every LOAD visit (core, the UB offset its callbacks set was carved at, tile geometry); passes its
// input through; carves nothing.
struct TileRecord {
    int core;         // GetBlockIdx()
    uint32_t set_at;  // ub_offset when this node's callbacks were built
    MatrixCoord tile_coord, tile_shape, aligned, global;
    bool operator==(const TileRecord&) const = default;
};
std::ostream& operator<<(std::ostream& os, const MatrixCoord& c) {
    return os << "(" << c.row() << "," << c.column() << ")";
}
void PrintTo(const TileRecord& t, std::ostream* os) {
    *os << "{core " << t.core << ", set_at " << t.set_at << ", coord " << t.tile_coord << ", shape "
        << t.tile_shape << ", aligned " << t.aligned << ", global " << t.global << "}";
}
std::mutex g_records_mutex;
std::vector<TileRecord> g_records;

template <class Element>
struct StandInRecorder : Fusion::VisitorImpl<> {
    using ElementOutput = Element;
    using Arguments = NoArgs;
    using Params = NoArgs;
    static constexpr std::array<NodeBuffers, 1> UB_NODES = {
        node_buffers(NodeClass::AuxStore, sizeof(Element))};
    template <class S>
    static Params to_underlying_arguments(const S&, const Arguments& a, void*) {
        return a;
    }
    template <class S>
    static size_t get_workspace_size(const S&, const Arguments&) {
        return 0;
    }
    template <class S>
    static bool can_implement(const S&, const Arguments&) {
        return true;
    }
    StandInRecorder() = default;
    explicit StandInRecorder(const Params& p) : params(p) {}
    Params params;

    struct Callbacks : Fusion::EmptyCallbacks {
        uint32_t set_at = 0;
        template <VisitStage Stage, class ArchTag, class TensorTile>
        const AscendC::LocalTensor<Element>& visit(const TensorTile& tile, const MatrixCoord& aligned,
                                                   const MatrixCoord& global,
                                                   const AscendC::LocalTensor<Element>& in) {
            if constexpr (Stage == VisitStage::LOAD) {
                std::lock_guard lock(g_records_mutex);
                g_records.push_back({static_cast<int>(AscendC::GetBlockIdx()), set_at, tile.coord(),
                                     tile.shape(), aligned, global});
            }
            return in;
        }
    };
    template <class ArchTag>
    Callbacks get_callbacks(Arch::Resource<ArchTag>&, uint32_t& ub_offset, uint32_t) {
        Callbacks cb;
        cb.set_at = ub_offset;
        return cb;
    }
};

// A chain op0 -> op1 -> ... -> root: op i > 0 receives op i-1's output. UB_NODES concatenated in op order.
template <class... Ops>
constexpr auto concat_ub_nodes() {
    std::array<NodeBuffers, (Ops::UB_NODES.size() + ... + 0)> out{};
    size_t i = 0;
    auto add = [&](const auto& nodes) {
        for (const NodeBuffers& n : nodes) out[i++] = n;
    };
    (add(Ops::UB_NODES), ...);
    return out;
}

template <class... Ops>
struct StandInChain : Fusion::VisitorImpl<Ops...> {
    using Impl = Fusion::VisitorImpl<Ops...>;
    using Params = typename Impl::Params;
    static constexpr size_t R = sizeof...(Ops);
    using ElementOutput = typename tla::tuple_element_t<R - 1, tla::tuple<Ops...>>::ElementOutput;
    static constexpr auto UB_NODES = concat_ub_nodes<Ops...>();

    StandInChain() = default;
    explicit StandInChain(const Params& p) : Impl(p) {}

    template <class Tuple>
    struct Callbacks : Fusion::EmptyCallbacks {
        Tuple callbacks_tuple;
        template <VisitStage Stage, class ArchTag, class TensorTile>
        const AscendC::LocalTensor<ElementOutput>& visit(const TensorTile& tile, const MatrixCoord& aligned,
                                                         const MatrixCoord& global) {
            return visit_from<Stage, ArchTag, 0>(tile, aligned, global);
        }
        template <VisitStage Stage, class ArchTag, size_t I, class TensorTile, class... In>
        const auto& visit_from(const TensorTile& tile, const MatrixCoord& aligned, const MatrixCoord& global,
                               const In&... in) {
            const auto& out =
                tla::get<I>(callbacks_tuple).template visit<Stage, ArchTag>(tile, aligned, global, in...);
            if constexpr (I + 1 == R)
                return out;
            else
                return visit_from<Stage, ArchTag, I + 1>(tile, aligned, global, out);
        }
    };
    template <class ArchTag>
    auto get_callbacks(Arch::Resource<ArchTag>& resource, uint32_t& ub_offset, uint32_t cl) {
        using Tuple = decltype(this->get_op_callbacks(resource, ub_offset, cl));
        Callbacks<Tuple> cb;
        cb.callbacks_tuple = this->get_op_callbacks(resource, ub_offset, cl);
        return cb;
    }
};

// D = C + 3, with a recorder after the load.
template <class E, bool USE_UB = false>
using AddGraph =
    StandInChain<StandInAccLoad<E, USE_UB>, StandInRecorder<E>, StandInAdds<E, 3>, StandInStore<E>>;
// D = C, the store reading the load buffer directly (§11.2 item 3).
template <class E>
using CopyGraph = StandInChain<StandInAccLoad<E>, StandInRecorder<E>, StandInStore<E>>;

template <class EVG>
typename EVG::Params graph_params(GM_ADDR d, uint32_t m, uint32_t n) {
    using E = typename EVG::ElementOutput;
    typename EVG::Params p{};
    constexpr size_t last = EVG::R - 1;
    tla::get<last>(p) = {d, tla::MakeLayout<E, layout::RowMajor>(m, n)};
    return p;
}

// ---------------------------------------------------------------------------------------------------------
// Host side: a C matrix in GM, a kernel that runs the epilogue over every L1 block, the result.

float c_value(uint32_t i, uint32_t j) {
    return float(int((i * 7 + j * 3) % 61) - 30);  // small integers: exact in half and float
}

struct Problem {
    uint32_t m, n;
    uint32_t l1m, l1n;
};

struct Result {
    evg::hw::Report report;
    std::vector<float> d;
    evg::hw::Trace trace;
};

// blockDim AICs (mix 1:2) or AIVs (aiv_only); block b handles L1 blocks b, b + blockDim, ...
template <class BlockEpilogue, bool L1_CALL = false, class MakeEvgParams>
Result run_gm(const Problem& pb, int blockDim, evg::hw::KernelType type, MakeEvgParams make_evg_params);

template <class BlockEpilogue, bool L1_CALL = false>
Result run_gm(const Problem& pb, int blockDim, evg::hw::KernelType type) {
    using EVG = typename BlockEpilogue::EVG;
    return run_gm<BlockEpilogue, L1_CALL>(
        pb, blockDim, type, [&](evg::hw::Device&, GM_ADDR d) { return graph_params<EVG>(d, pb.m, pb.n); });
}

template <class BlockEpilogue, bool L1_CALL, class MakeEvgParams>
Result run_gm(const Problem& pb, int blockDim, evg::hw::KernelType type, MakeEvgParams make_evg_params) {
    using E = typename BlockEpilogue::ElementC;
    using ArchTag = typename BlockEpilogue::ArchTag;
    std::vector<E> c(size_t(pb.m) * pb.n), d(size_t(pb.m) * pb.n, E(-1000.0f));
    for (uint32_t i = 0; i < pb.m; ++i)
        for (uint32_t j = 0; j < pb.n; ++j) c[size_t(i) * pb.n + j] = E(c_value(i, j));
    evg::hw::Config cfg;
    evg::hw::Device dev(cfg);
    const uint64_t bytes = c.size() * sizeof(E);
    void* pc = dev.malloc(bytes, "C");
    void* pd = dev.malloc(bytes, "D");
    dev.copy_to_device(pc, c.data(), bytes);
    dev.copy_to_device(pd, d.data(), bytes);
    typename BlockEpilogue::Params params{make_evg_params(dev, static_cast<GM_ADDR>(pd))};
    {
        std::lock_guard lock(g_records_mutex);
        g_records.clear();
    }
    const auto& report = dev.launch(
        blockDim, type,
        [&] {
            if ASCEND_IS_AIC {
                return;
            }
            Arch::Resource<ArchTag> resource;
            BlockEpilogue epilogue(resource, params);
            const uint32_t loopsM = CeilDiv(pb.m, pb.l1m), loopsN = CeilDiv(pb.n, pb.l1n);
            const uint32_t core = static_cast<uint32_t>(AscendC::GetBlockIdx() / AscendC::GetSubBlockNum());
            AscendC::GlobalTensor<E> gmC;
            gmC.SetGlobalBuffer(static_cast<E*>(pc), uint64_t(pb.m) * pb.n);
            auto tensorC = tla::MakeTensor(gmC, tla::MakeLayout<E, layout::RowMajor>(pb.m, pb.n));
            for (uint32_t loop = core; loop < loopsM * loopsN; loop += static_cast<uint32_t>(blockDim)) {
                GemmCoord blockCoord(loop / loopsN, loop % loopsN, 0);
                GemmCoord actual(Min(pb.l1m, pb.m - blockCoord.m() * pb.l1m),
                                 Min(pb.l1n, pb.n - blockCoord.n() * pb.l1n), 16);
                MatrixCoord offset(blockCoord.m() * pb.l1m, blockCoord.n() * pb.l1n);
                if constexpr (L1_CALL) {
                    layout::RowMajor layoutC(pb.m, pb.n);
                    epilogue(GemmCoord(pb.l1m, pb.l1n, 16), blockCoord, actual,
                             gmC[layoutC.GetOffset(offset)], layoutC.GetTileLayout(actual.GetCoordMN()));
                } else {
                    epilogue(GemmCoord(pb.l1m, pb.l1n, 16), blockCoord, actual,
                             tla::GetTile(tensorC, offset, actual.GetCoordMN()));
                }
            }
        },
        ArchTag::EVG_ARCH);
    Result r{report, {}, dev.take_last_trace()};
    dev.copy_to_host(d.data(), pd, bytes);
    for (const E& v : d) r.d.push_back(float(v));
    return r;
}

template <class Want>
void expect_d_fn(const Result& r, const Problem& pb, Want want_of) {
    size_t bad = 0;
    for (uint32_t i = 0; i < pb.m; ++i)
        for (uint32_t j = 0; j < pb.n; ++j) {
            const float want = want_of(i, j);
            const float got = r.d[size_t(i) * pb.n + j];
            if (got != want && bad++ < 5)
                ADD_FAILURE() << "D[" << i << "," << j << "] = " << got << ", want " << want;
        }
    EXPECT_EQ(bad, 0u);
}
void expect_d(const Result& r, const Problem& pb, float add, float mul = 1.0f) {
    expect_d_fn(r, pb, [&](uint32_t i, uint32_t j) { return c_value(i, j) * mul + add; });
}

std::vector<TileRecord> records_of(int core) {
    std::lock_guard lock(g_records_mutex);
    std::vector<TileRecord> out;
    for (const TileRecord& t : g_records)
        if (t.core == core) out.push_back(t);
    return out;
}

template <class E>
constexpr uint32_t set_bytes(uint32_t cl, uint32_t buffers) {
    return cl * buffers * uint32_t(sizeof(E));
}

using Epilogue::EpilogueVisitor;
using Epilogue::Block::BlockEpilogue;
using evg::hw::KernelType;
using evg::hw::ViolationKind;

// ---------------------------------------------------------------------------------------------------------
// The tile loop covers every path.

// 75 x 100, L1 (64, 128), CL 512 half: cols 100 -> pitch 128, 4 rows per tile. Block 0: 32 + 32 rows (8 tiles
// each); block 1: 11 rows -> AIV0 6 (4 + tail 2), AIV1 5 (4 + tail 1).
TEST(BlockEpilogue, AtlasA2_half_RowGroupsWithTail_cols100_CL512) {
    using BE = BlockEpilogue<EpilogueVisitor<false>, Arch::AtlasA2, tla::Int<512>, AddGraph<half>, half>;
    Problem pb{75, 100, 64, 128};
    Result r = run_gm<BE>(pb, 1, KernelType::mix_aic_1_2);
    EXPECT_TRUE(r.report.clean()) << r.report.text();
    expect_d(r, pb, 3.0f);
    // AIV1 of block 0 (core index 1 = GetBlockIdx()): 8 tiles of block 0, then block 1 rows 64+6.. : 4, 1.
    const uint32_t s0 = 512 * 2, s1 = s0 + set_bytes<half>(512, 2);
    std::vector<TileRecord> want;
    for (uint32_t t = 0; t < 8; ++t)
        want.push_back({1, t % 2 ? s1 : s0, MatrixCoord(32 + 4 * t, 0), MatrixCoord(4, 100),
                        MatrixCoord(4, 128), MatrixCoord(32 + 4 * t, 0)});
    want.push_back({1, s0, MatrixCoord(70, 0), MatrixCoord(4, 100), MatrixCoord(4, 128), MatrixCoord(70, 0)});
    want.push_back({1, s1, MatrixCoord(74, 0), MatrixCoord(1, 100), MatrixCoord(1, 128), MatrixCoord(74, 0)});
    EXPECT_EQ(records_of(1), want);
    auto aiv0 = records_of(0);
    ASSERT_EQ(aiv0.size(), 10u);
    EXPECT_EQ(aiv0[8], (TileRecord{0, s0, MatrixCoord(64, 0), MatrixCoord(4, 100), MatrixCoord(4, 128),
                                   MatrixCoord(64, 0)}));
    EXPECT_EQ(aiv0[9], (TileRecord{0, s1, MatrixCoord(68, 0), MatrixCoord(2, 100), MatrixCoord(2, 128),
                                   MatrixCoord(68, 0)}));
}

// Blocks in both directions: 2 x 3 L1 blocks of (16, 64) over 30 x 150 float, 2 AICs; the N tail is 22 cols.
TEST(BlockEpilogue, Ascend950_float_MultiBlock_tailN22_CL256) {
    using BE = BlockEpilogue<EpilogueVisitor<false>, Arch::Ascend950, tla::Int<256>, AddGraph<float>, float>;
    Problem pb{30, 150, 16, 64};
    Result r = run_gm<BE>(pb, 2, KernelType::mix_aic_1_2);
    EXPECT_TRUE(r.report.clean()) << r.report.text();
    expect_d(r, pb, 3.0f);
    // Block (1, 2) = loop 5, on AIC 1: rows 16..29 (14) -> AIV1 of AIC 1 (GetBlockIdx 3) rows 23..29, cols
    // 128..149: pitch 32, 8 rows per tile -> one tile of 7 rows.
    auto aiv3 = records_of(3);
    ASSERT_FALSE(aiv3.empty());
    EXPECT_EQ(aiv3.back(), (TileRecord{3, 256 * 4, MatrixCoord(23, 128), MatrixCoord(7, 22),
                                       MatrixCoord(7, 32), MatrixCoord(23, 128)}));
}

// M = 1, N = 1: AIV0 gets the single element, AIV1 gets 0 rows and issues no tile (only its ctor/dtor
// events).
TEST(BlockEpilogue, AtlasA2_half_M1_N1_Aiv1GetsNoRows) {
    using BE = BlockEpilogue<EpilogueVisitor<false>, Arch::AtlasA2, tla::Int<64>, AddGraph<half>, half>;
    Problem pb{1, 1, 128, 256};
    Result r = run_gm<BE>(pb, 1, KernelType::mix_aic_1_2);
    EXPECT_TRUE(r.report.clean()) << r.report.text();
    expect_d(r, pb, 3.0f);
    EXPECT_EQ(records_of(0), (std::vector<TileRecord>{{0, 128, MatrixCoord(0, 0), MatrixCoord(1, 1),
                                                       MatrixCoord(1, 32), MatrixCoord(0, 0)}}));
    EXPECT_TRUE(records_of(1).empty());
    size_t aiv1_data = 0, aiv1_flags = 0;
    for (const auto& t : r.trace) {
        if (t.core != 2) continue;  // core 0 = AIC, 1 = AIV0, 2 = AIV1
        if (t.kind == evg::hw::InstrKind::set_flag || t.kind == evg::hw::InstrKind::wait_flag)
            ++aiv1_flags;
        else
            ++aiv1_data;
    }
    EXPECT_EQ(aiv1_data, 0u);
    EXPECT_EQ(aiv1_flags, 12u);  // 2+2+2 sets in the ctor, 2+2+2 waits in the dtor (default: with MTE3_MTE2)
}

// M = 1 with a wide row (one tile per block), and N = 1 with many rows (CL / 32 rows per tile).
TEST(BlockEpilogue, AtlasA2_float_M1_N200_and_M50_N1) {
    using BE = BlockEpilogue<EpilogueVisitor<false>, Arch::AtlasA2, tla::Int<256>, AddGraph<float>, float>;
    Problem wide{1, 200, 64, 256};
    Result r = run_gm<BE>(wide, 1, KernelType::mix_aic_1_2);
    EXPECT_TRUE(r.report.clean()) << r.report.text();
    expect_d(r, wide, 3.0f);
    EXPECT_EQ(records_of(0), (std::vector<TileRecord>{{0, 1024, MatrixCoord(0, 0), MatrixCoord(1, 200),
                                                       MatrixCoord(1, 224), MatrixCoord(0, 0)}}));
    Problem tall{50, 1, 64, 256};
    Result t = run_gm<BE>(tall, 1, KernelType::mix_aic_1_2);
    EXPECT_TRUE(t.report.clean()) << t.report.text();
    expect_d(t, tall, 3.0f);
    // 25 rows per AIV, pitch 32, 8 rows per tile: 8, 8, 8, 1.
    auto aiv1 = records_of(1);
    ASSERT_EQ(aiv1.size(), 4u);
    EXPECT_EQ(aiv1[3], (TileRecord{1, 1024 + 2048, MatrixCoord(49, 0), MatrixCoord(1, 1), MatrixCoord(1, 32),
                                   MatrixCoord(49, 0)}));
}

// cols > CL: each row in chunks of CL columns, all chunks of a row in the same buffer set, sets alternating
// per row. 3 x 200 half on one AIV, CL 64: chunks 64, 64, 64, 8 (pitch 32).
TEST(BlockEpilogue, AtlasA2_half_ColumnSplit_N200_CL64) {
    using BE = BlockEpilogue<EpilogueVisitor<false>, Arch::AtlasA2, tla::Int<64>, AddGraph<half>, half>;
    Problem pb{3, 200, 64, 256};
    Result r = run_gm<BE>(pb, 1, KernelType::aiv_only);
    EXPECT_TRUE(r.report.clean()) << r.report.text();
    expect_d(r, pb, 3.0f);
    const uint32_t s0 = 128, s1 = 128 + 256;
    std::vector<TileRecord> want;
    for (uint32_t row = 0; row < 3; ++row) {
        const uint32_t s = row % 2 ? s1 : s0;
        for (uint32_t c = 0; c < 192; c += 64)
            want.push_back(
                {0, s, MatrixCoord(row, c), MatrixCoord(1, 64), MatrixCoord(1, 64), MatrixCoord(row, c)});
        want.push_back(
            {0, s, MatrixCoord(row, 192), MatrixCoord(1, 8), MatrixCoord(1, 32), MatrixCoord(row, 192)});
    }
    EXPECT_EQ(records_of(0), want);
}

// Column split on two AIVs and two blocks, the second block starting at column 256.
TEST(BlockEpilogue, Ascend950_float_ColumnSplit_TwoBlocks_N300_CL96) {
    using BE = BlockEpilogue<EpilogueVisitor<false>, Arch::Ascend950, tla::Int<96>, AddGraph<float>, float>;
    Problem pb{5, 300, 8, 256};
    Result r = run_gm<BE>(pb, 1, KernelType::mix_aic_1_2);
    EXPECT_TRUE(r.report.clean()) << r.report.text();
    expect_d(r, pb, 3.0f);
    auto aiv1 = records_of(1);  // rows 3, 4 of block 0 (cols 0..255: 96, 96, 64) then block 1 (44 cols)
    ASSERT_EQ(aiv1.size(), 2u * 3u + 2u);
    EXPECT_EQ(aiv1[2], (TileRecord{1, 384, MatrixCoord(3, 192), MatrixCoord(1, 64), MatrixCoord(1, 64),
                                   MatrixCoord(3, 192)}));
    EXPECT_EQ(aiv1[7], (TileRecord{1, 384 + 768, MatrixCoord(4, 256), MatrixCoord(1, 44), MatrixCoord(1, 64),
                                   MatrixCoord(4, 256)}));
}

// ---------------------------------------------------------------------------------------------------------
// The event sequence of a 3-tile run, compared with §5.3.

std::vector<std::string> flag_ops(const Result& r, int core) {
    std::vector<std::string> out;
    for (const auto& t : r.trace)
        if (t.core == core &&
            (t.kind == evg::hw::InstrKind::set_flag || t.kind == evg::hw::InstrKind::wait_flag))
            out.emplace_back(t.op());
    return out;
}

// §5.1 constructor, §5.3 per tile with id = ubListId (0, 1, 0), §5.1 destructor; written out from the spec.
const std::vector<std::string> kSpec3Tiles = {
    // constructor
    "SetFlag<V_MTE2>(0)", "SetFlag<V_MTE2>(1)", "SetFlag<MTE3_V>(0)", "SetFlag<MTE3_V>(1)",
    // tile 0, id 0
    "WaitFlag<V_MTE2>(0)", "SetFlag<MTE2_V>(0)", "WaitFlag<MTE2_V>(0)", "WaitFlag<MTE3_V>(0)",
    "SetFlag<V_MTE2>(0)", "SetFlag<V_MTE3>(0)", "WaitFlag<V_MTE3>(0)", "SetFlag<MTE3_V>(0)",
    // tile 1, id 1
    "WaitFlag<V_MTE2>(1)", "SetFlag<MTE2_V>(1)", "WaitFlag<MTE2_V>(1)", "WaitFlag<MTE3_V>(1)",
    "SetFlag<V_MTE2>(1)", "SetFlag<V_MTE3>(1)", "WaitFlag<V_MTE3>(1)", "SetFlag<MTE3_V>(1)",
    // tile 2, id 0
    "WaitFlag<V_MTE2>(0)", "SetFlag<MTE2_V>(0)", "WaitFlag<MTE2_V>(0)", "WaitFlag<MTE3_V>(0)",
    "SetFlag<V_MTE2>(0)", "SetFlag<V_MTE3>(0)", "WaitFlag<V_MTE3>(0)", "SetFlag<MTE3_V>(0)",
    // destructor
    "WaitFlag<V_MTE2>(0)", "WaitFlag<V_MTE2>(1)", "WaitFlag<MTE3_V>(0)", "WaitFlag<MTE3_V>(1)"};

// The default adds one MTE3_MTE2 pair per set: primed, waited before each LOAD, set after each STORE,
// drained.
const std::vector<std::string> kDefault3Tiles = {
    "SetFlag<V_MTE2>(0)",     "SetFlag<V_MTE2>(1)",     "SetFlag<MTE3_V>(0)",  "SetFlag<MTE3_V>(1)",
    "SetFlag<MTE3_MTE2>(0)",  "SetFlag<MTE3_MTE2>(1)",  "WaitFlag<V_MTE2>(0)", "WaitFlag<MTE3_MTE2>(0)",
    "SetFlag<MTE2_V>(0)",     "WaitFlag<MTE2_V>(0)",    "WaitFlag<MTE3_V>(0)", "SetFlag<V_MTE2>(0)",
    "SetFlag<V_MTE3>(0)",     "WaitFlag<V_MTE3>(0)",    "SetFlag<MTE3_V>(0)",  "SetFlag<MTE3_MTE2>(0)",
    "WaitFlag<V_MTE2>(1)",    "WaitFlag<MTE3_MTE2>(1)", "SetFlag<MTE2_V>(1)",  "WaitFlag<MTE2_V>(1)",
    "WaitFlag<MTE3_V>(1)",    "SetFlag<V_MTE2>(1)",     "SetFlag<V_MTE3>(1)",  "WaitFlag<V_MTE3>(1)",
    "SetFlag<MTE3_V>(1)",     "SetFlag<MTE3_MTE2>(1)",  "WaitFlag<V_MTE2>(0)", "WaitFlag<MTE3_MTE2>(0)",
    "SetFlag<MTE2_V>(0)",     "WaitFlag<MTE2_V>(0)",    "WaitFlag<MTE3_V>(0)", "SetFlag<V_MTE2>(0)",
    "SetFlag<V_MTE3>(0)",     "WaitFlag<V_MTE3>(0)",    "SetFlag<MTE3_V>(0)",  "SetFlag<MTE3_MTE2>(0)",
    "WaitFlag<V_MTE2>(0)",    "WaitFlag<V_MTE2>(1)",    "WaitFlag<MTE3_V>(0)", "WaitFlag<MTE3_V>(1)",
    "WaitFlag<MTE3_MTE2>(0)", "WaitFlag<MTE3_MTE2>(1)"};

// 12 x 32 half, CL 64: pitch 32, 2 rows per tile; each AIV has 6 rows = 3 tiles.
using ThreeTileBE = BlockEpilogue<EpilogueVisitor<false>, Arch::AtlasA2, tla::Int<64>, AddGraph<half>, half>;

TEST(BlockEpilogue, AtlasA2_EventSequence_3Tiles_Upstream_EqualsSpec) {
    Fusion::ScopedUpstreamHazards faithful({.store_reads_load_unordered = true});
    Problem pb{12, 32, 64, 64};
    Result r = run_gm<ThreeTileBE>(pb, 1, KernelType::mix_aic_1_2);
    EXPECT_TRUE(r.report.clean()) << r.report.text();
    expect_d(r, pb, 3.0f);
    EXPECT_EQ(flag_ops(r, 1), kSpec3Tiles);  // AIV0
    EXPECT_EQ(flag_ops(r, 2), kSpec3Tiles);  // AIV1
    EXPECT_EQ(records_of(0).size(), 3u);
}

TEST(BlockEpilogue, AtlasA2_EventSequence_3Tiles_Default_IsSpecPlusMte3Mte2) {
    Problem pb{12, 32, 64, 64};
    Result r = run_gm<ThreeTileBE>(pb, 1, KernelType::mix_aic_1_2);
    EXPECT_TRUE(r.report.clean()) << r.report.text();
    expect_d(r, pb, 3.0f);
    auto ops = flag_ops(r, 1);
    EXPECT_EQ(ops, kDefault3Tiles);
    std::erase_if(ops, [](const std::string& s) { return s.find("MTE3_MTE2") != std::string::npos; });
    EXPECT_EQ(ops, kSpec3Tiles);
}

// Between the events of one tile: LOAD is one DataCopyPad GM->UB, COMPUTE the Adds and its barrier, STORE one
// DataCopyPad UB->GM.
TEST(BlockEpilogue, AtlasA2_OneTile_StagesBetweenTheirEvents) {
    Fusion::ScopedUpstreamHazards faithful({.store_reads_load_unordered = true});
    Problem pb{1, 32, 64, 64};
    Result r = run_gm<ThreeTileBE>(pb, 1, KernelType::aiv_only);
    EXPECT_TRUE(r.report.clean()) << r.report.text();
    std::vector<std::string> ops;
    for (const auto& t : r.trace)
        if (t.core == 0) ops.emplace_back(t.op());
    const std::vector<std::string> want = {"SetFlag<V_MTE2>(0)",  "SetFlag<V_MTE2>(1)",
                                           "SetFlag<MTE3_V>(0)",  "SetFlag<MTE3_V>(1)",
                                           "WaitFlag<V_MTE2>(0)", "DataCopyPad GM->UB",
                                           "SetFlag<MTE2_V>(0)",  "WaitFlag<MTE2_V>(0)",
                                           "WaitFlag<MTE3_V>(0)", "Adds",
                                           "PipeBarrier<PIPE_V>", "SetFlag<V_MTE2>(0)",
                                           "SetFlag<V_MTE3>(0)",  "WaitFlag<V_MTE3>(0)",
                                           "DataCopyPad UB->GM",  "SetFlag<MTE3_V>(0)",
                                           "WaitFlag<V_MTE2>(0)", "WaitFlag<V_MTE2>(1)",
                                           "WaitFlag<MTE3_V>(0)", "WaitFlag<MTE3_V>(1)"};
    EXPECT_EQ(ops, want);
}

// ---------------------------------------------------------------------------------------------------------
// The measured UB peak equals the UB accounting, on both archs.

template <class BE>
void expect_ub_peak_equals_accounting(const Problem& pb) {
    Result r = run_gm<BE>(pb, 1, KernelType::mix_aic_1_2);
    EXPECT_TRUE(r.report.clean()) << r.report.text();
    expect_d(r, pb, 3.0f);
    using EVG = typename BE::EVG;
    const uint64_t end = Fusion::UbAccounting::ub_end(EVG::UB_NODES, BE::COMPUTE_LENGTH, 0);
    EXPECT_EQ(r.report.stats.ub_peak, end);
    EXPECT_EQ(BE::UB_END, end);
}

TEST(BlockEpilogue, AtlasA2_half_UbPeakEqualsAccounting_CL1024) {
    // 2 sets x (AccLoad + Adds) x 1024 x 2 B = 8192 B.
    using BE = BlockEpilogue<EpilogueVisitor<false>, Arch::AtlasA2, tla::Int<1024>, AddGraph<half>, half>;
    static_assert(BE::UB_END == 8192);
    expect_ub_peak_equals_accounting<BE>({40, 96, 64, 128});
}

TEST(BlockEpilogue, Ascend950_float_UbPeakEqualsAccounting_MaxCL) {
    // The largest CL for (AccLoad + Adds) float: RoundDown(253952 / 2 / 8, 32) = 15872; the peak is the UB.
    constexpr uint32_t kCL =
        Fusion::UbAccounting::max_compute_length(AddGraph<float>::UB_NODES, 0, Arch::Ascend950::UB_SIZE);
    static_assert(kCL == 15872);
    using BE = BlockEpilogue<EpilogueVisitor<false>, Arch::Ascend950, tla::Int<kCL>, AddGraph<float>, float>;
    static_assert(BE::UB_END == 253952);
    // 600 x 64 per AIV: pitch 64 -> 248 rows per tile -> 3 tiles (both sets used).
    expect_ub_peak_equals_accounting<BE>({1200, 64, 1200, 64});
}

// ---------------------------------------------------------------------------------------------------------
// UB workspace path on Ascend950: each AIV's UB holds its half of the C block at byte 0 (filled here by the
// AIV itself, standing in for the AIC's L0C->UB Fixpipe), the EVG buffers start at L0C_SIZE/2.

// Each AIV fills its half of the C block into UB byte 0 itself (pitch RoundUp<32>(n)), standing in for the
// AIC's L0C->UB Fixpipe, then runs the epilogue on GetMmadUbTensor. One AIC handles every L1 block.
template <class BE, class MakeEvgParams>
Result run_ub(const Problem& pb, MakeEvgParams make_evg_params) {
    using E = typename BE::ElementC;
    using ArchTag = typename BE::ArchTag;
    std::vector<E> c(size_t(pb.m) * pb.n), d(size_t(pb.m) * pb.n, E(-1000.0f));
    for (uint32_t i = 0; i < pb.m; ++i)
        for (uint32_t j = 0; j < pb.n; ++j) c[size_t(i) * pb.n + j] = E(c_value(i, j));
    evg::hw::Config cfg;
    evg::hw::Device dev(cfg);
    const uint64_t bytes = c.size() * sizeof(E);
    void* pc = dev.malloc(bytes, "C");
    void* pd = dev.malloc(bytes, "D");
    dev.copy_to_device(pc, c.data(), bytes);
    dev.copy_to_device(pd, d.data(), bytes);
    typename BE::Params params{make_evg_params(dev, static_cast<GM_ADDR>(pd))};
    {
        std::lock_guard lock(g_records_mutex);
        g_records.clear();
    }
    const auto& report = dev.launch(
        1, KernelType::mix_aic_1_2,
        [&] {
            if ASCEND_IS_AIC {
                return;
            }
            Arch::Resource<ArchTag> resource;
            BE epilogue(resource, params);
            AscendC::GlobalTensor<E> gmC;
            gmC.SetGlobalBuffer(static_cast<E*>(pc), uint64_t(pb.m) * pb.n);
            auto tensorC = tla::MakeTensor(gmC, tla::MakeLayout<E, layout::RowMajor>(pb.m, pb.n));
            const uint32_t sub = static_cast<uint32_t>(AscendC::GetSubBlockIdx());
            for (uint32_t bm = 0; bm < CeilDiv(pb.m, pb.l1m); ++bm)
                for (uint32_t bn = 0; bn < CeilDiv(pb.n, pb.l1n); ++bn) {
                    GemmCoord actual(Min(pb.l1m, pb.m - bm * pb.l1m), Min(pb.l1n, pb.n - bn * pb.l1n), 16);
                    const uint32_t half_rows = CeilDiv(actual.m(), 2u);
                    const uint32_t r0 = sub * half_rows;
                    const uint32_t my_rows = actual.m() > r0 ? Min(half_rows, actual.m() - r0) : 0;
                    auto ubC = BE::GetMmadUbTensor(actual);
                    auto dst = tla::GetTile(ubC, MatrixCoord(0, 0), MatrixCoord(my_rows, actual.n()));
                    auto src = tla::GetTile(tensorC, MatrixCoord(bm * pb.l1m + r0, bn * pb.l1n),
                                            MatrixCoord(my_rows, actual.n()));
                    AscendC::PipeBarrier<AscendC::PIPE_ALL>();  // the previous block is done with UB C
                    Epilogue::Tile::CopyGm2UbTla<ArchTag, decltype(dst), decltype(src)>{}(dst, src);
                    AscendC::PipeBarrier<AscendC::PIPE_ALL>();  // C is in UB before the epilogue reads it
                    epilogue(GemmCoord(pb.l1m, pb.l1n, 16), GemmCoord(bm, bn, 0), actual, ubC);
                }
        },
        ArchTag::EVG_ARCH);
    Result r{report, {}, dev.take_last_trace()};
    dev.copy_to_host(d.data(), pd, bytes);
    for (const E& v : d) r.d.push_back(float(v));
    return r;
}

TEST(BlockEpilogue, Ascend950_half_UbWorkspace_AddGraph_CL512) {
    using EVG = AddGraph<half, true>;
    using BE = BlockEpilogue<EpilogueVisitor<true>, Arch::Ascend950, tla::Int<512>, EVG, half>;
    static_assert(BE::UB_BASE_OFFSET == 131072);
    static_assert(BE::UB_END == 131072 + 2 * 512 * 2);  // AccLoad<UB> carves nothing; Adds one buffer per set
    // Blocks 32/13 rows x 64/36 cols; pitch 64 -> 8 rows per tile, so both sets are used.
    Problem pb{45, 100, 32, 64};
    Result r = run_ub<BE>(pb, [&](evg::hw::Device&, GM_ADDR d) { return graph_params<EVG>(d, pb.m, pb.n); });
    const auto& report = r.report;
    EXPECT_TRUE(report.clean()) << report.text();
    EXPECT_EQ(report.stats.ub_peak, BE::UB_END);
    expect_d(r, pb, 3.0f);
    // Block (1, 1) on AIV1: rows 32 + 7 .. 44, cols 64..99 -> local tile coord in UB (0, 0), global (39, 64).
    auto aiv1 = records_of(1);
    ASSERT_FALSE(aiv1.empty());
    EXPECT_EQ(aiv1.back(), (TileRecord{1, 131072, MatrixCoord(0, 0), MatrixCoord(6, 36), MatrixCoord(6, 64),
                                       MatrixCoord(39, 64)}));
}

// ---------------------------------------------------------------------------------------------------------
// §11.2 item 3: Store <- AccLoad. Upstream's events leave the next LOAD into a set unordered after the
// previous STORE from it; the default orders it.

template <class ArchTag>
void store_reads_load(bool faithful) {
    using BE = BlockEpilogue<EpilogueVisitor<false>, ArchTag, tla::Int<64>, CopyGraph<half>, half>;
    Fusion::ScopedUpstreamHazards h({.store_reads_load_unordered = faithful});
    Problem pb{12, 32, 64, 64};  // 3 tiles per AIV: tile 2 reloads set 0 while tile 0's store may read it
    Result r = run_gm<BE>(pb, 1, KernelType::mix_aic_1_2);
    expect_d(r, pb, 0.0f);
    if (faithful) {
        ASSERT_GE(r.report.count(ViolationKind::race), 1u) << r.report.text();
        EXPECT_EQ(r.report.violations.size(), r.report.count(ViolationKind::race)) << r.report.text();
        const auto* v = r.report.first(ViolationKind::race);
        EXPECT_NE(v->message.find("MTE3"), std::string::npos) << v->message;
        EXPECT_NE(v->message.find("MTE2"), std::string::npos) << v->message;
        EXPECT_EQ(flag_ops(r, 1), kSpec3Tiles);
    } else {
        EXPECT_TRUE(r.report.clean()) << r.report.text();
        EXPECT_EQ(flag_ops(r, 1), kDefault3Tiles);
    }
}

TEST(BlockEpilogue, AtlasA2_StoreReadsLoad_UpstreamRaces) {
    store_reads_load<Arch::AtlasA2>(true);
}
TEST(BlockEpilogue, AtlasA2_StoreReadsLoad_DefaultClean) {
    store_reads_load<Arch::AtlasA2>(false);
}
TEST(BlockEpilogue, Ascend950_StoreReadsLoad_UpstreamRaces) {
    store_reads_load<Arch::Ascend950>(true);
}
TEST(BlockEpilogue, Ascend950_StoreReadsLoad_DefaultClean) {
    store_reads_load<Arch::Ascend950>(false);
}

// ---------------------------------------------------------------------------------------------------------
// L1 lineage (seed 000): BlockEpilogue<EpilogueAtlasA2Visitor, GemmType<half, RowMajor>, Int<CL>, EVG>,
// called with (gmBlockC, layoutBlockC).

TEST(BlockEpilogue, L1_EpilogueAtlasA2Visitor_GemmTypeHalf_GmBlockCall) {
    using CType = Gemm::GemmType<half, layout::RowMajor>;
    using BE = BlockEpilogue<Epilogue::EpilogueAtlasA2Visitor, CType, tla::Int<512>, AddGraph<half>>;
    static_assert(std::is_same_v<BE::ArchTag, Arch::AtlasA2>);
    static_assert(std::is_same_v<BE::ElementC, half>);
    static_assert(std::is_same_v<BE::ElementD, half>);
    static_assert(std::is_same_v<BE::LayoutC, layout::RowMajor>);
    Problem pb{50, 90, 32, 64};
    Result r = run_gm<BE, true>(pb, 2, KernelType::mix_aic_1_2);
    EXPECT_TRUE(r.report.clean()) << r.report.text();
    expect_d(r, pb, 3.0f);
    // The MASTER call works on the L1 form too.
    Result m = run_gm<BE, false>(pb, 2, KernelType::mix_aic_1_2);
    EXPECT_TRUE(m.report.clean()) << m.report.text();
    expect_d(m, pb, 3.0f);
}

// ---------------------------------------------------------------------------------------------------------
// The real nodes (visitor_acc_load/compute/aux_store.hpp), chained by the stand-in composite, with their
// Arguments turned into Params by EVG::to_underlying_arguments.

using RealLayout = tla::RowMajorLayout;
template <class E>
using RealMulsGraph = StandInChain<Fusion::VisitorAccLoad<E>, Fusion::VisitorCompute<Fusion::Muls, E, E>,
                                   Fusion::VisitorAuxStore<E, RealLayout>>;
template <class E>
using RealCopyGraph = StandInChain<Fusion::VisitorAccLoad<E>, Fusion::VisitorAuxStore<E, RealLayout>>;

TEST(BlockEpilogue, RealNodes_AtlasA2_half_StoreOfMulsOfAccLoad_ColumnSplitAndRowGroups) {
    using EVG = RealMulsGraph<half>;
    using BE = BlockEpilogue<EpilogueVisitor<false>, Arch::AtlasA2, tla::Int<128>, EVG, half>;
    for (Problem pb : {Problem{37, 100, 32, 64}, Problem{9, 300, 16, 256}}) {
        Result r = run_gm<BE, false>(pb, 2, KernelType::mix_aic_1_2, [&](evg::hw::Device&, GM_ADDR d) {
            typename EVG::Arguments args{
                {}, {{half(2.0f)}}, {d, tla::MakeLayout<half, layout::RowMajor>(pb.m, pb.n)}};
            return EVG::to_underlying_arguments(GemmCoord(pb.m, pb.n, 16), args, nullptr);
        });
        EXPECT_TRUE(r.report.clean()) << r.report.text();
        expect_d(r, pb, 0.0f, 2.0f);
        EXPECT_EQ(r.report.stats.ub_peak, Fusion::UbAccounting::ub_end(EVG::UB_NODES, 128, 0));
    }
}

template <class ArchTag>
void real_store_reads_load(bool faithful) {
    using EVG = RealCopyGraph<float>;
    using BE = BlockEpilogue<EpilogueVisitor<false>, ArchTag, tla::Int<64>, EVG, float>;
    Fusion::ScopedUpstreamHazards h({.store_reads_load_unordered = faithful});
    Problem pb{12, 32, 64, 64};  // 3 tiles per AIV
    Result r = run_gm<BE, false>(pb, 1, KernelType::mix_aic_1_2, [&](evg::hw::Device&, GM_ADDR d) {
        typename EVG::Arguments args{{}, {d, tla::MakeLayout<float, layout::RowMajor>(pb.m, pb.n)}};
        return EVG::to_underlying_arguments(GemmCoord(pb.m, pb.n, 16), args, nullptr);
    });
    expect_d(r, pb, 0.0f);
    if (faithful) {
        ASSERT_GE(r.report.count(ViolationKind::race), 1u) << r.report.text();
        EXPECT_EQ(r.report.violations.size(), r.report.count(ViolationKind::race)) << r.report.text();
        const std::string& msg = r.report.first(ViolationKind::race)->message;
        EXPECT_NE(msg.find("MTE3"), std::string::npos) << msg;
        EXPECT_NE(msg.find("MTE2"), std::string::npos) << msg;
        EXPECT_EQ(flag_ops(r, 2), kSpec3Tiles);
    } else {
        EXPECT_TRUE(r.report.clean()) << r.report.text();
        EXPECT_EQ(flag_ops(r, 2), kDefault3Tiles);
    }
}

TEST(BlockEpilogue, RealNodes_AtlasA2_StoreOfAccLoad_UpstreamRaces) {
    real_store_reads_load<Arch::AtlasA2>(true);
}
TEST(BlockEpilogue, RealNodes_AtlasA2_StoreOfAccLoad_DefaultClean) {
    real_store_reads_load<Arch::AtlasA2>(false);
}
TEST(BlockEpilogue, RealNodes_Ascend950_StoreOfAccLoad_UpstreamRaces) {
    real_store_reads_load<Arch::Ascend950>(true);
}
TEST(BlockEpilogue, RealNodes_Ascend950_StoreOfAccLoad_DefaultClean) {
    real_store_reads_load<Arch::Ascend950>(false);
}

// ---------------------------------------------------------------------------------------------------------
// D = C + X with the real TreeVisitor (seed 003's example graph), on both chips and on the UB workspace path.

float x_value(uint32_t i, uint32_t j) {
    return float(int((i * 5 + j * 11) % 23) - 11);
}

template <class E, bool USE_UB = false>
using TreeAddGraph = Fusion::TreeVisitor<
    Fusion::VisitorAuxStore<E, RealLayout>,
    Fusion::TreeVisitor<Fusion::VisitorCompute<Fusion::Add, E>, Fusion::VisitorAccLoad<E, USE_UB>,
                        Fusion::VisitorAuxLoad<E, RealLayout>>>;

// X in GM, and the Arguments { { {}, {X, layout}, {} }, {D, layout} } turned into Params.
template <class EVG, class E>
auto tree_add_params(const Problem& pb) {
    return [&pb](evg::hw::Device& dev, GM_ADDR d) {
        std::vector<E> x(size_t(pb.m) * pb.n);
        for (uint32_t i = 0; i < pb.m; ++i)
            for (uint32_t j = 0; j < pb.n; ++j) x[size_t(i) * pb.n + j] = E(x_value(i, j));
        void* px = dev.malloc(x.size() * sizeof(E), "X");
        dev.copy_to_device(px, x.data(), x.size() * sizeof(E));
        const auto layout = tla::MakeLayout<E, layout::RowMajor>(pb.m, pb.n);
        typename EVG::Arguments args{{{}, {static_cast<GM_ADDR>(px), layout}, {}}, {d, layout}};
        EXPECT_TRUE(EVG::can_implement(GemmCoord(pb.m, pb.n, 16), args));
        return EVG::to_underlying_arguments(GemmCoord(pb.m, pb.n, 16), args, nullptr);
    };
}

template <class ArchTag, class E, uint32_t CL>
void tree_add_gm(const Problem& pb, int blockDim) {
    using EVG = TreeAddGraph<E>;
    using BE = BlockEpilogue<EpilogueVisitor<false>, ArchTag, tla::Int<CL>, EVG, E>;
    Result r = run_gm<BE, false>(pb, blockDim, KernelType::mix_aic_1_2, tree_add_params<EVG, E>(pb));
    EXPECT_TRUE(r.report.clean()) << r.report.text();
    expect_d_fn(r, pb, [](uint32_t i, uint32_t j) { return c_value(i, j) + x_value(i, j); });
    // AccLoad, AuxLoad and Add: 3 buffers per set.
    EXPECT_EQ(r.report.stats.ub_peak, 2u * 3u * CL * sizeof(E));
}

TEST(BlockEpilogue, RealTree_AtlasA2_half_DequalsCplusX_tails_CL256) {
    tree_add_gm<Arch::AtlasA2, half, 256>({75, 100, 32, 64}, 2);
}
TEST(BlockEpilogue, RealTree_AtlasA2_float_DequalsCplusX_ColumnSplit_CL64) {
    tree_add_gm<Arch::AtlasA2, float, 64>({7, 150, 16, 128}, 1);
}
TEST(BlockEpilogue, RealTree_Ascend950_float_DequalsCplusX_CL256) {
    tree_add_gm<Arch::Ascend950, float, 256>({40, 90, 32, 64}, 2);
}

TEST(BlockEpilogue, RealTree_Ascend950_half_UbWorkspace_DequalsCplusX_CL512) {
    using EVG = TreeAddGraph<half, true>;
    using BE = BlockEpilogue<EpilogueVisitor<true>, Arch::Ascend950, tla::Int<512>, EVG, half>;
    Problem pb{45, 100, 32, 64};
    Result r = run_ub<BE>(pb, tree_add_params<EVG, half>(pb));
    EXPECT_TRUE(r.report.clean()) << r.report.text();
    expect_d_fn(r, pb, [](uint32_t i, uint32_t j) { return c_value(i, j) + x_value(i, j); });
    // AccLoad<UB> carves nothing: AuxLoad and Add above L0C_SIZE/2.
    EXPECT_EQ(r.report.stats.ub_peak, 131072u + 2u * 2u * 512u * 2u);
    EXPECT_EQ(r.report.stats.ub_peak, BE::UB_END);
}

}  // namespace
