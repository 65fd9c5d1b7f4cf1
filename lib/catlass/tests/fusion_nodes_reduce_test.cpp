// The reduce nodes (docs/evg-semantics.md §2.7, §2.9, §2.11) driven with BlockEpilogue's event sequence by
// hand: per-stage instructions, UB carved, atomic accumulation into pre-initialised GM outputs over two tiles
// (both buffer sets), and the ScalarReduce hazard switch. The harness is node_harness.hpp.
#include "node_harness.hpp"

namespace {

// ---- the reduce harness: C -> AccLoad -> Reduce, two tiles (sets 0 and 1) of a (6 x 33) problem ----------

constexpr uint32_t RM = 6, RN = 33, RCL = 256;

struct ReduceRun {
    std::vector<float> out;
    std::vector<TileOps> tiles;
    uint32_t ub = 0;
    bool passThrough = true;
    const evg::hw::Report* report = nullptr;
    std::string text;
    size_t uninit = 0;
    bool clean = false;
};

// Tiles: rows [0, 3) with set 0 and rows [3, 6) with set 1. `dirtyPadding` fills the AccLoad buffers with
// 1000 before the first load, so padding columns hold stale data instead of never-written bytes.
template <class ArchTag, class Node, class Args>
ReduceRun run_reduce(const std::vector<float>& hc, const std::vector<float>& init, Args makeArgs,
                     bool dirtyPadding = false, uint32_t n = RN) {
    Gm gm;
    auto c = gm.put(hc, "C");
    auto o = gm.put(init, "Out");
    ReduceRun r;
    typename Node::Params params = makeArgs(o.ptr);
    auto& rep = gm.run<ArchTag>([&] {
        Catlass::Arch::Resource<ArchTag> res;
        uint32_t off = 0;
        F::VisitorAccLoad<float> acc;
        Node node(params);
        typename F::VisitorAccLoad<float>::Callbacks ca[2];
        typename Node::Callbacks cn[2];
        for (int s = 0; s < 2; ++s) {
            ca[s] = acc.get_callbacks(res, off, RCL);
            uint32_t before = off;
            cn[s] = node.get_callbacks(res, off, RCL);
            r.ub = off - before;
        }
        if (dirtyPadding) {
            AscendC::Duplicate(ca[0].ubAcc, 1000.0f, static_cast<int32_t>(RCL));
            AscendC::Duplicate(ca[1].ubAcc, 1000.0f, static_cast<int32_t>(RCL));
        }
        prologue();
        for (uint32_t t = 0; t < 2; ++t) {
            const MatrixCoord at(3 * t, 0), shape(3, n);
            auto tile = c_tile<float>(c.ptr, RM, n, at, shape);
            run_tile(static_cast<int>(t), [&]<VisitStage S>() {
                auto& x = ca[t].template visit<S, ArchTag>(tile, aligned(shape), at);
                auto& y = cn[t].template visit<S, ArchTag>(tile, aligned(shape), at, x);
                r.passThrough = r.passThrough && y.GetPhyAddr() == x.GetPhyAddr();
            });
        }
        epilogue();
    });
    r.clean = rep.clean();
    r.text = rep.text();
    r.uninit = rep.count(ViolationKind::uninit_to_gm);
    r.out = gm.get(o);
    r.tiles = stage_ops(gm.dev.last_trace());
    return r;
}

std::vector<float> reduce_input(uint32_t n = RN) {
    std::vector<float> v(RM * n);
    for (uint32_t i = 0; i < RM * n; ++i) v[i] = static_cast<float>(static_cast<int>((i * 5) % 19) - 9);
    return v;
}
float lowest() {
    return std::numeric_limits<float>::lowest();
}

// ---- RowReduce ------------------------------------------------------------------------------------

TEST(FusionReduceNodes, AtlasA2_float_RowReduceAdd_TwoTilesAccumulate_tailN33) {
    using Node = F::VisitorRowReduce<F::Plus, float>;
    auto hc = reduce_input();
    // Output (1 x 40): columns 0..32 get init + column sums; 33..39 keep their value. A fractional init
    // catches an accumulation that rounds to an integer.
    std::vector<float> init(40, 1.5f);
    auto r = run_reduce<AtlasA2, Node>(hc, init, [](GM_ADDR p) {
        return typename Node::Params{p, Catlass::layout::RowMajor(1, 40), 0.0f};
    });
    ASSERT_TRUE(r.clean) << r.text;
    EXPECT_TRUE(r.passThrough);
    EXPECT_EQ(r.ub, RCL * sizeof(float));
    for (uint32_t j = 0; j < 40; ++j) {
        float want = 1.5f;
        if (j < RN) {
            float t0 = hc[0 * RN + j] + hc[1 * RN + j] + hc[2 * RN + j];
            float t1 = hc[3 * RN + j] + hc[4 * RN + j] + hc[5 * RN + j];
            want = (1.5f + t0) + t1;
        }
        EXPECT_EQ(r.out[j], want) << j;
    }
    ASSERT_EQ(r.tiles.size(), 2u);
    for (const auto& t : r.tiles) {
        EXPECT_EQ(t.load, (Ops{"DataCopyPad GM->UB"}));  // AccLoad's; the reduce loads nothing
        EXPECT_EQ(t.compute, (Ops{"DataCopy UB->UB", kBar, "Add", kBar, "Add"}));
        EXPECT_EQ(t.store, (Ops{"DataCopyPad UB->GM"}));
    }
}

TEST(FusionReduceNodes, Ascend950_float_RowReduceMaxAndMin_tailN33) {
    auto hc = reduce_input();
    using MaxNode = F::VisitorRowReduce<F::Maximum, float>;
    auto rmax = run_reduce<Ascend950, MaxNode>(hc, std::vector<float>(RN, lowest()), [](GM_ADDR p) {
        return typename MaxNode::Params{p, Catlass::layout::RowMajor(1, RN), lowest()};
    });
    ASSERT_TRUE(rmax.clean) << rmax.text;
    using MinNode = F::VisitorRowReduce<F::Min, float>;
    auto rmin = run_reduce<Ascend950, MinNode>(hc, std::vector<float>(RN, 0.25f), [](GM_ADDR p) {
        return typename MinNode::Params{p, Catlass::layout::RowMajor(1, RN), 0.25f};
    });
    ASSERT_TRUE(rmin.clean) << rmin.text;
    for (uint32_t j = 0; j < RN; ++j) {
        float mx = lowest(), mn = 0.25f;
        for (uint32_t i = 0; i < RM; ++i) {
            mx = std::max(mx, hc[i * RN + j]);
            mn = std::min(mn, hc[i * RN + j]);
        }
        EXPECT_EQ(rmax.out[j], mx) << j;
        EXPECT_EQ(rmin.out[j], mn) << j;
    }
    EXPECT_EQ(rmax.tiles.at(0).compute, (Ops{"DataCopy UB->UB", kBar, "Max", kBar, "Max"}));
    EXPECT_EQ(rmin.tiles.at(1).compute, (Ops{"DataCopy UB->UB", kBar, "Min", kBar, "Min"}));
}

// ---- ColReduce ------------------------------------------------------------------------------------

TEST(FusionReduceNodes, AtlasA2_float_ColReduceAdd_AlignedSlots_tailN33) {
    using Node = F::VisitorColReduce<F::Add, float>;
    auto hc = reduce_input();
    std::vector<float> init(8, -2.0f);  // (8 x 1): rows 6, 7 untouched
    auto r = run_reduce<AtlasA2, Node>(hc, init, [](GM_ADDR p) {
        return typename Node::Params{p, Catlass::layout::RowMajor(8, 1), 0.0f};
    });
    ASSERT_TRUE(r.clean) << r.text;
    EXPECT_TRUE(r.passThrough);
    EXPECT_EQ(r.ub, 2 * RCL * sizeof(float));
    for (uint32_t i = 0; i < 8; ++i) {
        float s = 0.0f;
        if (i < RM)
            for (uint32_t j = 0; j < RN; ++j) s += hc[i * RN + j];
        EXPECT_EQ(r.out[i], i < RM ? -2.0f + s : -2.0f) << i;
    }
    ASSERT_EQ(r.tiles.size(), 2u);
    EXPECT_EQ(r.tiles[0].compute, (Ops{"ReduceSum", kBar, "ReduceSum", kBar, "ReduceSum"}));
    EXPECT_EQ(r.tiles[0].store, (Ops{"DataCopyPad UB->GM"}));
}

TEST(FusionReduceNodes, AtlasA2_float_ColReduceMax_TlaLayout_RowMax_tailN33) {
    using Node = F::VisitorColReduce<F::Maximum, float, tla::RowMajorLayout>;
    auto hc = reduce_input();
    auto r = run_reduce<AtlasA2, Node>(hc, std::vector<float>(RM, lowest()), [](GM_ADDR p) {
        return typename Node::Params{p, tla::MakeLayout<float, Catlass::layout::RowMajor>(RM, 1), lowest()};
    });
    ASSERT_TRUE(r.clean) << r.text;
    for (uint32_t i = 0; i < RM; ++i)
        EXPECT_EQ(r.out[i], *std::max_element(hc.begin() + i * RN, hc.begin() + (i + 1) * RN)) << i;
    EXPECT_EQ(r.tiles.at(1).compute, (Ops{"ReduceMax", kBar, "ReduceMax", kBar, "ReduceMax"}));
}

// ---- ScalarReduce ---------------------------------------------------------------------------------

TEST(FusionReduceNodes, AtlasA2_float_ScalarReduceAdd_ValidColumnsOnly_tailN33) {
    using Node = F::VisitorScalarReduce<F::Add, float>;
    auto hc = reduce_input();
    auto r = run_reduce<AtlasA2, Node>(hc, {10.0f}, [](GM_ADDR p) {
        return typename Node::Params{p, Catlass::layout::RowMajor(1, 1), 0.0f};
    });
    ASSERT_TRUE(r.clean) << r.text;
    EXPECT_TRUE(r.passThrough);
    EXPECT_EQ(r.ub, 2 * RCL * sizeof(float));
    float total = 10.0f;
    for (uint32_t t = 0; t < 2; ++t) {
        // Per tile: column partials over its 3 rows, then the sum of the 33 valid columns.
        float s = 0.0f;
        for (uint32_t j = 0; j < RN; ++j)
            s += (hc[(3 * t) * RN + j] + hc[(3 * t + 1) * RN + j]) + hc[(3 * t + 2) * RN + j];
        total += s;
    }
    EXPECT_EQ(r.out[0], total);
    ASSERT_EQ(r.tiles.size(), 2u);
    EXPECT_EQ(r.tiles[0].compute, (Ops{"DataCopy UB->UB", kBar, "Add", kBar, "Add", kBar, "ReduceSum"}));
    EXPECT_EQ(r.tiles[0].store, (Ops{"DataCopyPad UB->GM"}));
}

// §11.2 item 5 reproduced on a fresh UB: the final reduce covers alignedCols = 64 columns, 31 of them padding
// that no copy ever wrote, and the result reaches GM: an uninit_to_gm.
TEST(FusionReduceNodes, AtlasA2_float_ScalarReduce_UpstreamSumsPadding_UninitToGm) {
    using Node = F::VisitorScalarReduce<F::Add, float>;
    F::ScopedUpstreamHazards hz({.scalar_reduce_sums_padding = true});
    auto r = run_reduce<AtlasA2, Node>(reduce_input(), {0.0f}, [](GM_ADDR p) {
        return typename Node::Params{p, Catlass::layout::RowMajor(1, 1), 0.0f};
    });
    EXPECT_GE(r.uninit, 1u) << r.text;
}

// With 40 columns (160 B per row: whole 32-byte blocks, so the copy leaves no undefined bytes) and stale
// data in the padding columns 40..63 (1000 in every lane before the loads), no checker fires: the value is
// wrong by 2 tiles x 3 rows x 24 padding columns x 1000.
TEST(FusionReduceNodes, AtlasA2_float_ScalarReduce_UpstreamSumsPadding_WrongValue_N40) {
    using Node = F::VisitorScalarReduce<F::Add, float>;
    auto hc = reduce_input(40);
    auto args = [](GM_ADDR p) { return typename Node::Params{p, Catlass::layout::RowMajor(1, 1), 0.0f}; };
    auto good = run_reduce<AtlasA2, Node>(hc, {0.0f}, args, true, 40);
    ASSERT_TRUE(good.clean) << good.text;
    float want = 0.0f;
    for (float v : hc) want += v;
    EXPECT_EQ(good.out[0], want);
    F::ScopedUpstreamHazards hz({.scalar_reduce_sums_padding = true});
    auto bad = run_reduce<AtlasA2, Node>(hc, {0.0f}, args, true, 40);
    ASSERT_TRUE(bad.clean) << bad.text;
    EXPECT_EQ(bad.out[0] - good.out[0], 2.0f * 3.0f * 24.0f * 1000.0f);
}

}  // namespace
