// The EVG nodes driven one by one on the machine, with BlockEpilogue's event sequence (docs/evg-semantics.md
// §5.3) written out by hand: what each node does in LOAD, COMPUTE and STORE (the exact instructions of each
// stage, from the trace), the UB it carves, and the GM results against values computed here on the host.
#include "node_harness.hpp"

namespace {
std::vector<float> iota_values(size_t n, float start, float step) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = start + step * static_cast<float>(i % 97);
    return v;
}

// ---- AccLoad + AuxStore ---------------------------------------------------------------------------

// C (3 x 33 floats) -> AccLoad -> AuxStore(D): D == C; one DataCopyPad per side, nothing else.
TEST(FusionNodes, AtlasA2_float_AccLoad_AuxStore_tailN33_CL128) {
    constexpr uint32_t M = 3, N = 33, CL = 128;
    Gm gm;
    auto hc = iota_values(M * N, -7.5f, 0.25f);
    auto c = gm.put(hc, "C");
    auto d = gm.put(std::vector<float>(M * N, 0.0f), "D");
    auto layoutD = tla::MakeLayout<float, Catlass::layout::RowMajor>(M, N);
    uint32_t offAfterAcc = 0, offAfterStore = 0;
    auto& rep = gm.run<AtlasA2>([&] {
        Catlass::Arch::Resource<AtlasA2> res;
        uint32_t off = 0;
        F::VisitorAccLoad<float> acc;
        F::VisitorAuxStore<float, decltype(layoutD)> store({d.ptr, layoutD});
        auto cbAcc = acc.get_callbacks(res, off, CL);
        offAfterAcc = off;
        auto cbStore = store.get_callbacks(res, off, CL);
        offAfterStore = off;
        auto tile = c_tile<float>(c.ptr, M, N, {0, 0}, {M, N});
        prologue();
        run_tile(0, [&]<VisitStage S>() {
            auto& x = cbAcc.template visit<S, AtlasA2>(tile, aligned({M, N}), MatrixCoord(0, 0));
            auto& y = cbStore.template visit<S, AtlasA2>(tile, aligned({M, N}), MatrixCoord(0, 0), x);
            EXPECT_EQ(y.GetPhyAddr(), x.GetPhyAddr());  // the store passes its input through
        });
        epilogue();
    });
    ASSERT_TRUE(rep.clean()) << rep.text();
    EXPECT_EQ(offAfterAcc, CL * sizeof(float));
    EXPECT_EQ(offAfterStore, CL * sizeof(float));  // AuxStore carves nothing
    EXPECT_EQ(gm.get(d), hc);
    auto tiles = stage_ops(gm.dev.last_trace());
    ASSERT_EQ(tiles.size(), 1u);
    EXPECT_EQ(tiles[0].load, (Ops{"DataCopyPad GM->UB"}));
    EXPECT_EQ(tiles[0].compute, Ops{});
    EXPECT_EQ(tiles[0].store, (Ops{"DataCopyPad UB->GM"}));
    EXPECT_EQ(F::VisitorAccLoad<float>::UB_NODES[0].buffers, 1u);
    EXPECT_EQ((F::VisitorAccLoad<float, true>::UB_NODES[0].buffers), 0u);
    EXPECT_EQ((F::VisitorAuxStore<float, decltype(layoutD)>::UB_NODES[0].buffers), 0u);
}

// UB workspace path: no instruction, no UB carved, the output is the tile inside the UB C tensor.
TEST(FusionNodes, Ascend950_float_AccLoadUb_PointsIntoTheCTile) {
    Gm gm;
    uint64_t addr[3] = {};
    uint32_t offAfter = 1;
    auto& rep = gm.run<Ascend950>([&] {
        Catlass::Arch::Resource<Ascend950> res;
        uint32_t off = 0;
        F::VisitorAccLoad<float, true> acc;
        auto cb = acc.get_callbacks(res, off, 256);
        offAfter = off;
        auto ubC = res.ubBuf.GetBufferByByte<float>(0);
        // C tile (8 x 40) in UB at row pitch 64; the tile starting at row 2.
        auto tensorC = tla::MakeTensor(ubC, tla::MakeLayout<float, Catlass::layout::RowMajor>(8, 40, 64),
                                       Catlass::Arch::PositionUB{});
        auto tile = tla::GetTile(tensorC, MatrixCoord(2, 0), MatrixCoord(3, 40));
        addr[0] =
            cb.visit<VisitStage::LOAD, Ascend950>(tile, aligned({3, 40}), MatrixCoord(2, 0)).GetPhyAddr();
        addr[1] =
            cb.visit<VisitStage::COMPUTE, Ascend950>(tile, aligned({3, 40}), MatrixCoord(2, 0)).GetPhyAddr();
        addr[2] =
            cb.visit<VisitStage::STORE, Ascend950>(tile, aligned({3, 40}), MatrixCoord(2, 0)).GetPhyAddr();
    });
    ASSERT_TRUE(rep.clean()) << rep.text();
    EXPECT_EQ(offAfter, 0u);
    for (uint64_t a : addr) EXPECT_EQ(a, 2u * 64u * sizeof(float));
    EXPECT_TRUE(gm.dev.last_trace().empty());
}

// ---- AuxLoad --------------------------------------------------------------------------------------

// X (5 x 70, half) read at global (2, 40) for a (3 x 38) tile: clipped to 30 columns; D gets exactly that
// window, the rest of D keeps its sentinel. A layout::RowMajor object works as the layout.
TEST(FusionNodes, AtlasA2_half_AuxLoad_ClippedTile_tailN30_CL256) {
    constexpr uint32_t M = 5, N = 70, CL = 256;
    Gm gm;
    std::vector<half> hx(M * N), hd(M * N, half(-1.0f));
    for (uint32_t i = 0; i < M * N; ++i) hx[i] = half(static_cast<float>(i % 50) - 20.0f);
    auto x = gm.put(hx, "X");
    auto d = gm.put(hd, "D");
    auto c = gm.put(std::vector<half>(M * N, half(0.0f)), "C");
    uint32_t offAfter = 0;
    auto& rep = gm.run<AtlasA2>([&] {
        Catlass::Arch::Resource<AtlasA2> res;
        uint32_t off = 0;
        F::VisitorAuxLoad<half, Catlass::layout::RowMajor> load({x.ptr, Catlass::layout::RowMajor(M, N)});
        F::VisitorAuxStore<half, Catlass::layout::RowMajor> store({d.ptr, Catlass::layout::RowMajor(M, N)});
        auto cbLoad = load.get_callbacks(res, off, CL);
        offAfter = off;
        auto cbStore = store.get_callbacks(res, off, CL);
        // The C tile only gives the shape: a (3 x 38) tile at (2, 40) of a (5 x 78) C.
        auto tile = c_tile<half>(c.ptr, M, 78, {2, 40}, {3, 38});
        prologue();
        run_tile(0, [&]<VisitStage S>() {
            auto& v = cbLoad.template visit<S, AtlasA2>(tile, aligned({3, 38}), MatrixCoord(2, 40));
            cbStore.template visit<S, AtlasA2>(tile, aligned({3, 38}), MatrixCoord(2, 40), v);
        });
        epilogue();
    });
    ASSERT_TRUE(rep.clean()) << rep.text();
    EXPECT_EQ(offAfter, CL * sizeof(half));
    auto out = gm.get(d);
    for (uint32_t r = 0; r < M; ++r)
        for (uint32_t col = 0; col < N; ++col) {
            bool inside = r >= 2 && col >= 40;
            EXPECT_EQ(static_cast<float>(out[r * N + col]),
                      inside ? static_cast<float>(hx[r * N + col]) : -1.0f)
                << r << "," << col;
        }
    auto tiles = stage_ops(gm.dev.last_trace());
    ASSERT_EQ(tiles.size(), 1u);
    EXPECT_EQ(tiles[0].load, (Ops{"DataCopyPad GM->UB"}));
    EXPECT_EQ(tiles[0].compute, Ops{});
    EXPECT_EQ(tiles[0].store, (Ops{"DataCopyPad UB->GM"}));
}

// ---- Cast -----------------------------------------------------------------------------------------

template <class ArchTag>
void cast_float_to_half() {
    constexpr uint32_t M = 2, N = 40, CL = 128;
    Gm gm;
    std::vector<float> hc(M * N);
    for (uint32_t i = 0; i < M * N; ++i) hc[i] = 1.0f + static_cast<float>(i) * 0.0001234f;  // needs rounding
    auto c = gm.put(hc, "C");
    auto d = gm.put(std::vector<half>(M * N, half(0.0f)), "D");
    uint32_t offAfter = 0;
    auto& rep = gm.run<ArchTag>([&] {
        Catlass::Arch::Resource<ArchTag> res;
        uint32_t off = 0;
        F::VisitorAccLoad<float> acc;
        F::VisitorCast<half, float> cast;
        F::VisitorAuxStore<half> store({d.ptr, Catlass::layout::RowMajor(M, N)});
        auto cbAcc = acc.get_callbacks(res, off, CL);
        auto cbCast = cast.get_callbacks(res, off, CL);
        auto cbStore = store.get_callbacks(res, off, CL);
        offAfter = off;
        auto tile = c_tile<float>(c.ptr, M, N, {0, 0}, {M, N});
        prologue();
        run_tile(0, [&]<VisitStage S>() {
            auto& a = cbAcc.template visit<S, ArchTag>(tile, aligned({M, N}), MatrixCoord(0, 0));
            auto& h = cbCast.template visit<S, ArchTag>(tile, aligned({M, N}), MatrixCoord(0, 0), a);
            cbStore.template visit<S, ArchTag>(tile, aligned({M, N}), MatrixCoord(0, 0), h);
        });
        epilogue();
    });
    ASSERT_TRUE(rep.clean()) << rep.text();
    EXPECT_EQ(offAfter, CL * sizeof(float) + CL * sizeof(half));
    auto out = gm.get(d);
    for (uint32_t i = 0; i < M * N; ++i) {
        // Round to nearest even, computed here from the float's bits: half has 10 fraction bits, and
        // these values lie in [1, 2) where a float has 23: drop 13 bits.
        uint32_t bits;
        std::memcpy(&bits, &hc[i], 4);
        uint32_t mant = bits & 0x7fffff, keep = mant >> 13, rest = mant & 0x1fff;
        if (rest > 0x1000 || (rest == 0x1000 && (keep & 1))) ++keep;
        uint16_t want = static_cast<uint16_t>(0x3c00 + keep);  // exponent of 1.0, no carry for these values
        EXPECT_EQ(out[i].bits, want) << i;
    }
    auto tiles = stage_ops(gm.dev.last_trace());
    ASSERT_EQ(tiles.size(), 1u);
    EXPECT_EQ(tiles[0].compute, (Ops{"Cast<half, float, CAST_NONE>", "PipeBarrier<PIPE_V>"}));
}
TEST(FusionNodes, AtlasA2_CastFloatToHalf_RoundsToNearestEven_BarrierAfter) {
    cast_float_to_half<AtlasA2>();
}
TEST(FusionNodes, Ascend950_CastFloatToHalf_RoundsToNearestEven_BarrierAfter) {
    cast_float_to_half<Ascend950>();
}

// ---- Compute: every functor -----------------------------------------------------------------------

constexpr uint32_t kM = 2, kN = 40, kCL = 128;  // one tile with a tail: alignedCols 64

struct ComputeResult {
    std::vector<float> out;
    Ops compute;
    uint32_t ub = 0;
    bool clean = false;
    std::string text;
};

// NIn AuxLoads of the given (kM x kN) inputs -> ComputeNode -> AuxStore(D).
template <class ArchTag, class Node, size_t NIn>
ComputeResult run_compute(const typename Node::Params& params,
                          const std::array<std::vector<float>, NIn>& in) {
    Gm gm;
    std::array<Buf<float>, NIn> bx;
    for (size_t i = 0; i < NIn; ++i) bx[i] = gm.put(in[i], "X");
    auto c = gm.put(std::vector<float>(kM * kN, 0.0f), "C");
    auto d = gm.put(std::vector<float>(kM * kN, 0.0f), "D");
    ComputeResult r;
    auto& rep = gm.run<ArchTag>([&] {
        Catlass::Arch::Resource<ArchTag> res;
        uint32_t off = 0;
        using Load = F::VisitorAuxLoad<float>;
        std::array<Load, NIn> loads;
        for (size_t i = 0; i < NIn; ++i) loads[i] = Load({bx[i].ptr, Catlass::layout::RowMajor(kM, kN)});
        Node node(params);
        F::VisitorAuxStore<float> store({d.ptr, Catlass::layout::RowMajor(kM, kN)});
        std::array<typename Load::Callbacks, NIn> cbLoads;
        for (size_t i = 0; i < NIn; ++i) cbLoads[i] = loads[i].get_callbacks(res, off, kCL);
        uint32_t before = off;
        auto cbNode = node.get_callbacks(res, off, kCL);
        r.ub = off - before;
        auto cbStore = store.get_callbacks(res, off, kCL);
        auto tile = c_tile<float>(c.ptr, kM, kN, {0, 0}, {kM, kN});
        prologue();
        run_tile(0, [&]<VisitStage S>() {
            [&]<size_t... I>(std::index_sequence<I...>) {
                std::array<AscendC::LocalTensor<float>, NIn> xs{
                    cbLoads[I].template visit<S, ArchTag>(tile, aligned({kM, kN}), MatrixCoord(0, 0))...};
                auto& y =
                    cbNode.template visit<S, ArchTag>(tile, aligned({kM, kN}), MatrixCoord(0, 0), xs[I]...);
                cbStore.template visit<S, ArchTag>(tile, aligned({kM, kN}), MatrixCoord(0, 0), y);
            }
            (std::make_index_sequence<NIn>{});
        });
        epilogue();
    });
    r.clean = rep.clean();
    r.text = rep.text();
    r.out = gm.get(d);
    auto tiles = stage_ops(gm.dev.last_trace());
    if (tiles.size() == 1) r.compute = tiles[0].compute;
    return r;
}

// Inputs with exact-friendly values, positive where a functor needs it.
std::vector<float> input(int k, bool positive = false) {
    std::vector<float> v(kM * kN);
    for (uint32_t i = 0; i < kM * kN; ++i) {
        float x =
            static_cast<float>(static_cast<int>((i * 7 + static_cast<uint32_t>(k) * 13) % 23) - 11) * 0.5f;
        v[i] = positive ? std::fabs(x) + 0.5f : x;
    }
    return v;
}

template <class ArchTag, class Node, size_t NIn, class Ref>
void expect_functor(const typename Node::Params& params, const std::array<std::vector<float>, NIn>& in,
                    Ref ref, const Ops& compute) {
    auto r = run_compute<ArchTag, Node, NIn>(params, in);
    ASSERT_TRUE(r.clean) << r.text;
    EXPECT_EQ(r.ub, kCL * sizeof(float));
    EXPECT_EQ(r.compute, compute);
    for (uint32_t i = 0; i < kM * kN; ++i) {
        float want;
        if constexpr (NIn == 1)
            want = ref(in[0][i]);
        else if constexpr (NIn == 2)
            want = ref(in[0][i], in[1][i]);
        else
            want = ref(in[0][i], in[1][i], in[2][i]);
        if (std::isnan(want))
            EXPECT_TRUE(std::isnan(r.out[i])) << i;
        else
            EXPECT_EQ(r.out[i], want) << i << " in " << in[0][i];
    }
}

TEST(FusionNodes, AtlasA2_float_Compute_UnaryFunctors) {
    using A = std::array<std::vector<float>, 1>;
    expect_functor<AtlasA2, F::VisitorCompute<F::Exp, float>, 1>(
        {}, A{input(0)}, [](float a) { return std::exp(a); }, {"Exp", kBar});
    expect_functor<AtlasA2, F::VisitorCompute<F::Relu, float>, 1>(
        {}, A{input(1)}, [](float a) { return a > 0.0f ? a : 0.0f; }, {"Relu", kBar});
    expect_functor<AtlasA2, F::VisitorCompute<F::Sqrt, float>, 1>(
        {}, A{input(2, true)}, [](float a) { return std::sqrt(a); }, {"Sqrt", kBar});
    expect_functor<AtlasA2, F::VisitorCompute<F::RsqrtFast, float>, 1>(
        {}, A{input(3, true)}, [](float a) { return 1.0f / std::sqrt(a); }, {"Rsqrt", kBar});
    expect_functor<AtlasA2, F::VisitorCompute<F::Silu, float>, 1>(
        {}, A{input(4)}, [](float a) { return a / (1.0f + std::exp(-a)); }, {"Silu", kBar});
}

TEST(FusionNodes, AtlasA2_float_Compute_ScalarFunctors) {
    using A = std::array<std::vector<float>, 1>;
    expect_functor<AtlasA2, F::VisitorCompute<F::LeakyRelu, float, float>, 1>(
        {{0.125f}}, A{input(0)}, [](float a) { return a >= 0.0f ? a : a * 0.125f; }, {"LeakyRelu", kBar});
    expect_functor<AtlasA2, F::VisitorCompute<F::Muls, float, float>, 1>(
        {{-2.5f}}, A{input(1)}, [](float a) { return a * -2.5f; }, {"Muls", kBar});
    expect_functor<AtlasA2, F::VisitorCompute<F::Adds, float, float>, 1>(
        {{3.25f}}, A{input(2)}, [](float a) { return a + 3.25f; }, {"Adds", kBar});
    expect_functor<AtlasA2, F::VisitorCompute<F::Maxs, float, float>, 1>(
        {{0.5f}}, A{input(3)}, [](float a) { return std::max(a, 0.5f); }, {"Maxs", kBar});
    expect_functor<AtlasA2, F::VisitorCompute<F::Mins, float, float>, 1>(
        {{-1.0f}}, A{input(4)}, [](float a) { return std::min(a, -1.0f); }, {"Mins", kBar});
}

// n-ary functors chain left to right with a barrier between steps: three inputs = two instructions.
TEST(FusionNodes, AtlasA2_float_Compute_NaryFunctors_ThreeInputs) {
    using A = std::array<std::vector<float>, 3>;
    A in{input(0), input(1), input(2)};
    A pos{input(0, true), input(1, true), input(2, true)};
    expect_functor<AtlasA2, F::VisitorCompute<F::Add, float>, 3>(
        {}, in, [](float a, float b, float c) { return (a + b) + c; }, {"Add", kBar, "Add", kBar});
    expect_functor<AtlasA2, F::VisitorCompute<F::Sub, float>, 3>(
        {}, in, [](float a, float b, float c) { return (a - b) - c; }, {"Sub", kBar, "Sub", kBar});
    expect_functor<AtlasA2, F::VisitorCompute<F::Mul3, float>, 3>(
        {}, in, [](float a, float b, float c) { return (a * b) * c; }, {"Mul", kBar, "Mul", kBar});
    expect_functor<AtlasA2, F::VisitorCompute<F::Div, float>, 3>(
        {}, pos, [](float a, float b, float c) { return (a / b) / c; }, {"Div", kBar, "Div", kBar});
    expect_functor<AtlasA2, F::VisitorCompute<F::Max, float>, 3>(
        {}, in, [](float a, float b, float c) { return std::max(std::max(a, b), c); },
        {"Max", kBar, "Max", kBar});
    expect_functor<AtlasA2, F::VisitorCompute<F::Min, float>, 3>(
        {}, in, [](float a, float b, float c) { return std::min(std::min(a, b), c); },
        {"Min", kBar, "Min", kBar});
}

TEST(FusionNodes, AtlasA2_float_Compute_BinaryFunctorsAndSeedAliases) {
    using A = std::array<std::vector<float>, 2>;
    A in{input(5), input(6)};
    expect_functor<AtlasA2, F::VisitorCompute<F::Plus, float>, 2>(
        {}, in, [](float a, float b) { return a + b; }, {"Add", kBar});
    expect_functor<AtlasA2, F::VisitorCompute<F::AddRelu, float>, 2>(
        {}, in, [](float a, float b) { return std::max(a + b, 0.0f); }, {"Add", kBar, "Relu", kBar});
    expect_functor<AtlasA2, F::VisitorCompute<F::PlusRelu, float>, 2>(
        {}, in, [](float a, float b) { return std::max(a + b, 0.0f); }, {"Add", kBar, "Relu", kBar});
    expect_functor<AtlasA2, F::VisitorCompute<F::Maximum, float>, 2>(
        {}, in, [](float a, float b) { return std::max(a, b); }, {"Max", kBar});
    expect_functor<AtlasA2, F::VisitorCompute<F::Minimum, float>, 2>(
        {}, in, [](float a, float b) { return std::min(a, b); }, {"Min", kBar});
    expect_functor<AtlasA2, F::VisitorCompute<F::SubOp, float>, 2>(
        {}, in, [](float a, float b) { return a - b; }, {"Sub", kBar});
}

TEST(FusionNodes, Ascend950_float_Compute_Ascend950OnlyFunctors) {
    using A1 = std::array<std::vector<float>, 1>;
    using A2in = std::array<std::vector<float>, 2>;
    expect_functor<Ascend950, F::VisitorCompute<F::Prelu, float>, 2>(
        {}, A2in{input(0), input(1)}, [](float a, float b) { return a >= 0.0f ? a : a * b; },
        {"Prelu", kBar});
    expect_functor<Ascend950, F::VisitorCompute<F::Reciprocal, float>, 1>(
        {}, A1{input(2, true)}, [](float a) { return 1.0f / a; }, {"Divs", kBar});
    expect_functor<Ascend950, F::VisitorCompute<F::Rsqrt, float>, 1>(
        {}, A1{input(3, true)}, [](float a) { return 1.0f / std::sqrt(a); }, {"Sqrt", kBar, "Divs", kBar});
    expect_functor<Ascend950, F::VisitorCompute<F::Sigmoid, float>, 1>(
        {}, A1{input(4)},
        [](float a) {
            float t = a * -1.0f;
            t = std::exp(t);
            t = t + 1.0f;
            return 1.0f / t;
        },
        {"Muls", kBar, "Exp", kBar, "Adds", kBar, "Divs", kBar});
}

// half arithmetic rounds once per instruction: (a + b) rounded, then + c rounded.
TEST(FusionNodes, AtlasA2_half_Compute_AddRoundsPerInstruction) {
    constexpr uint32_t CL = 128;
    Gm gm;
    std::vector<half> ha(kM * kN), hb(kM * kN);
    for (uint32_t i = 0; i < kM * kN; ++i) {
        ha[i] = half(1024.0f + static_cast<float>(i));  // spacing 1 in [1024, 2048)
        hb[i] = half(0.5f);                             // ties: round half to even
    }
    auto a = gm.put(ha, "A");
    auto b = gm.put(hb, "B");
    auto c = gm.put(std::vector<half>(kM * kN, half(0.0f)), "C");
    auto d = gm.put(std::vector<half>(kM * kN, half(0.0f)), "D");
    auto& rep = gm.run<AtlasA2>([&] {
        Catlass::Arch::Resource<AtlasA2> res;
        uint32_t off = 0;
        F::VisitorAuxLoad<half> la({a.ptr, Catlass::layout::RowMajor(kM, kN)});
        F::VisitorAuxLoad<half> lb({b.ptr, Catlass::layout::RowMajor(kM, kN)});
        F::VisitorCompute<F::Add, half> add;
        F::VisitorAuxStore<half> store({d.ptr, Catlass::layout::RowMajor(kM, kN)});
        auto ca = la.get_callbacks(res, off, CL);
        auto cb = lb.get_callbacks(res, off, CL);
        auto cadd = add.get_callbacks(res, off, CL);
        auto cs = store.get_callbacks(res, off, CL);
        auto tile = c_tile<half>(c.ptr, kM, kN, {0, 0}, {kM, kN});
        prologue();
        run_tile(0, [&]<VisitStage S>() {
            auto& x = ca.template visit<S, AtlasA2>(tile, aligned({kM, kN}), MatrixCoord(0, 0));
            auto& y = cb.template visit<S, AtlasA2>(tile, aligned({kM, kN}), MatrixCoord(0, 0));
            auto& z = cadd.template visit<S, AtlasA2>(tile, aligned({kM, kN}), MatrixCoord(0, 0), x, y, y);
            cs.template visit<S, AtlasA2>(tile, aligned({kM, kN}), MatrixCoord(0, 0), z);
        });
        epilogue();
    });
    ASSERT_TRUE(rep.clean()) << rep.text();
    auto out = gm.get(d);
    for (uint32_t i = 0; i < kM * kN; ++i) {
        // (n + 0.5) ties to the even integer, then + 0.5 ties again.
        uint32_t n = 1024 + i;
        uint32_t s1 = (n % 2 == 0) ? n : n + 1;
        uint32_t s2 = (s1 % 2 == 0) ? s1 : s1 + 1;
        EXPECT_EQ(static_cast<float>(out[i]), static_cast<float>(s2)) << i;
    }
}

// ---- RowBroadcast ---------------------------------------------------------------------------------

struct BroadcastRun {
    std::vector<float> out;
    std::vector<TileOps> tiles;
    size_t races = 0;
    bool clean = false;
    std::string text;
    uint32_t ub = 0;
};

// D = C + broadcast(row[globalCol ..]) for a (3 x 40) tile at global (4, 50) of a (8 x 100) problem.
template <class ArchTag>
BroadcastRun row_broadcast_add(bool upstreamNoBarrier) {
    constexpr uint32_t M = 8, N = 100, CL = 256;
    const MatrixCoord at(4, 50), shape(3, 40);
    Gm gm;
    auto hc = iota_values(M * N, -3.0f, 0.5f);
    auto hrow = iota_values(N, 10.0f, 1.0f);
    auto c = gm.put(hc, "C");
    auto row = gm.put(hrow, "row");
    auto d = gm.put(std::vector<float>(M * N, 0.0f), "D");
    BroadcastRun r;
    F::ScopedUpstreamHazards hz({.row_broadcast_no_barrier = upstreamNoBarrier});
    auto layoutRow = tla::MakeLayout<float, Catlass::layout::RowMajor>(1, N);
    auto& rep = gm.run<ArchTag>([&] {
        Catlass::Arch::Resource<ArchTag> res;
        uint32_t off = 0;
        F::VisitorAccLoad<float> acc;
        F::VisitorRowBroadcast<float, decltype(layoutRow)> bcast({row.ptr, layoutRow});
        F::VisitorCompute<F::Add, float> add;
        F::VisitorAuxStore<float> store({d.ptr, Catlass::layout::RowMajor(M, N)});
        auto ca = acc.get_callbacks(res, off, CL);
        uint32_t before = off;
        auto cr = bcast.get_callbacks(res, off, CL);
        r.ub = off - before;
        auto cadd = add.get_callbacks(res, off, CL);
        auto cs = store.get_callbacks(res, off, CL);
        auto tile = c_tile<float>(c.ptr, M, N, at, shape);
        prologue();
        run_tile(0, [&]<VisitStage S>() {
            auto& x = ca.template visit<S, ArchTag>(tile, aligned(shape), at);
            auto& y = cr.template visit<S, ArchTag>(tile, aligned(shape), at);
            auto& z = cadd.template visit<S, ArchTag>(tile, aligned(shape), at, x, y);
            cs.template visit<S, ArchTag>(tile, aligned(shape), at, z);
        });
        epilogue();
    });
    r.clean = rep.clean();
    r.races = rep.count(ViolationKind::race);
    r.text = rep.text();
    r.out = gm.get(d);
    r.tiles = stage_ops(gm.dev.last_trace());
    // Check the values where the tile lies.
    for (uint32_t i = 0; i < shape.row(); ++i)
        for (uint32_t j = 0; j < shape.column(); ++j) {
            uint32_t gi = at.row() + i, gj = at.column() + j;
            EXPECT_EQ(r.out[gi * N + gj], hc[gi * N + gj] + hrow[gj]) << gi << "," << gj;
        }
    return r;
}

TEST(FusionNodes, AtlasA2_float_RowBroadcast_BarrierBeforeConsumer_tailN40) {
    auto r = row_broadcast_add<AtlasA2>(false);
    ASSERT_TRUE(r.clean) << r.text;
    EXPECT_EQ(r.ub, 256u * sizeof(float));
    ASSERT_EQ(r.tiles.size(), 1u);
    EXPECT_EQ(r.tiles[0].load, (Ops{"DataCopyPad GM->UB", "DataCopyPad GM->UB"}));  // C, then the row
    EXPECT_EQ(r.tiles[0].compute, (Ops{"DataCopy UB->UB", "DataCopy UB->UB", kBar, "Add", kBar}));
    EXPECT_EQ(r.tiles[0].store, (Ops{"DataCopyPad UB->GM"}));
}

// §11.2 item 2 reproduced: without the barrier the Add reads rows the UB->UB copies are still writing.
TEST(FusionNodes, AtlasA2_float_RowBroadcast_UpstreamNoBarrier_Races) {
    auto r = row_broadcast_add<AtlasA2>(true);
    EXPECT_GE(r.races, 1u) << r.text;
    ASSERT_EQ(r.tiles.size(), 1u);
    EXPECT_EQ(r.tiles[0].compute, (Ops{"DataCopy UB->UB", "DataCopy UB->UB", "Add", kBar}));
}

// On Ascend950 PIPE_V keeps order: the upstream code is correct there.
TEST(FusionNodes, Ascend950_float_RowBroadcast_UpstreamNoBarrier_Clean) {
    auto r = row_broadcast_add<Ascend950>(true);
    EXPECT_TRUE(r.clean) << r.text;
    EXPECT_EQ(r.races, 0u);
    auto d = row_broadcast_add<Ascend950>(false);
    EXPECT_TRUE(d.clean) << d.text;
}

// ---- ColBroadcast / ScalarBroadcast --------------------------------------------------------------

// D = C + col[globalRow + r] for a (4 x 33) tile at global (3, 0) of a (7 x 33) problem.
template <class ArchTag>
void col_broadcast_add() {
    constexpr uint32_t M = 7, N = 33, CL = 256;
    const MatrixCoord at(3, 0), shape(4, 33);
    Gm gm;
    auto hc = iota_values(M * N, 1.0f, 0.25f);
    std::vector<float> hcol{100.f, 200.f, 300.f, 400.f, 500.f, 600.f, 700.f};
    auto c = gm.put(hc, "C");
    auto col = gm.put(hcol, "col");
    auto d = gm.put(std::vector<float>(M * N, 0.0f), "D");
    uint32_t ub = 0;
    auto& rep = gm.run<ArchTag>([&] {
        Catlass::Arch::Resource<ArchTag> res;
        uint32_t off = 0;
        F::VisitorAccLoad<float> acc;
        F::VisitorColBroadcast<float> bcast({col.ptr, Catlass::layout::RowMajor(M, 1)});
        F::VisitorCompute<F::Add, float> add;
        F::VisitorAuxStore<float> store({d.ptr, Catlass::layout::RowMajor(M, N)});
        auto ca = acc.get_callbacks(res, off, CL);
        uint32_t before = off;
        auto cc = bcast.get_callbacks(res, off, CL);
        ub = off - before;
        auto cadd = add.get_callbacks(res, off, CL);
        auto cs = store.get_callbacks(res, off, CL);
        auto tile = c_tile<float>(c.ptr, M, N, at, shape);
        prologue();
        run_tile(0, [&]<VisitStage S>() {
            auto& x = ca.template visit<S, ArchTag>(tile, aligned(shape), at);
            auto& y = cc.template visit<S, ArchTag>(tile, aligned(shape), at);
            auto& z = cadd.template visit<S, ArchTag>(tile, aligned(shape), at, x, y);
            cs.template visit<S, ArchTag>(tile, aligned(shape), at, z);
        });
        epilogue();
    });
    ASSERT_TRUE(rep.clean()) << rep.text();
    EXPECT_EQ(ub, CL * sizeof(float));
    auto out = gm.get(d);
    for (uint32_t i = 0; i < M; ++i)
        for (uint32_t j = 0; j < N; ++j)
            EXPECT_EQ(out[i * N + j], i >= 3 ? hc[i * N + j] + hcol[i] : 0.0f) << i << "," << j;
    auto tiles = stage_ops(gm.dev.last_trace());
    ASSERT_EQ(tiles.size(), 1u);
    EXPECT_EQ(tiles[0].load, (Ops{"DataCopyPad GM->UB", "DataCopyPad GM->UB"}));
    EXPECT_EQ(tiles[0].compute,
              (Ops{"SetFlag<V_S>(0)", "WaitFlag<V_S>(0)", "GetValue", "Duplicate", "GetValue", "Duplicate",
                   "GetValue", "Duplicate", "GetValue", "Duplicate", kBar, "Add", kBar}));
}
TEST(FusionNodes, AtlasA2_float_ColBroadcast_ReverseFill_tailN33) {
    col_broadcast_add<AtlasA2>();
}
TEST(FusionNodes, Ascend950_float_ColBroadcast_ReverseFill_tailN33) {
    col_broadcast_add<Ascend950>();
}

TEST(FusionNodes, AtlasA2_half_ScalarBroadcast_FillsTheTile_tailN50) {
    constexpr uint32_t M = 3, N = 50, CL = 256;
    Gm gm;
    auto s = gm.put(std::vector<half>{half(2.5f)}, "s");
    auto c = gm.put(std::vector<half>(M * N, half(0.0f)), "C");
    auto d = gm.put(std::vector<half>(M * N, half(0.0f)), "D");
    uint32_t ub = 0;
    auto& rep = gm.run<AtlasA2>([&] {
        Catlass::Arch::Resource<AtlasA2> res;
        uint32_t off = 0;
        F::VisitorScalarBroadcast<half> bcast({s.ptr, Catlass::layout::RowMajor(1, 1)});
        F::VisitorAuxStore<half> store({d.ptr, Catlass::layout::RowMajor(M, N)});
        auto cb = bcast.get_callbacks(res, off, CL);
        ub = off;
        auto cs = store.get_callbacks(res, off, CL);
        auto tile = c_tile<half>(c.ptr, M, N, {0, 0}, {M, N});
        prologue();
        run_tile(0, [&]<VisitStage S>() {
            auto& y = cb.template visit<S, AtlasA2>(tile, aligned({M, N}), MatrixCoord(0, 0));
            cs.template visit<S, AtlasA2>(tile, aligned({M, N}), MatrixCoord(0, 0), y);
        });
        epilogue();
    });
    ASSERT_TRUE(rep.clean()) << rep.text();
    EXPECT_EQ(ub, CL * sizeof(half));
    for (half v : gm.get(d)) EXPECT_EQ(static_cast<float>(v), 2.5f);
    auto tiles = stage_ops(gm.dev.last_trace());
    ASSERT_EQ(tiles.size(), 1u);
    EXPECT_EQ(tiles[0].load, (Ops{"DataCopyPad GM->UB"}));
    EXPECT_EQ(tiles[0].compute, (Ops{"SetFlag<V_S>(0)", "WaitFlag<V_S>(0)", "GetValue", "Duplicate",
                                     "Duplicate", "Duplicate", kBar}));
    EXPECT_EQ(tiles[0].store, (Ops{"DataCopyPad UB->GM"}));
}

}  // namespace
