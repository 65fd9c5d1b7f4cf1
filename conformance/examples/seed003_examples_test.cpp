// Seed 003 / MASTER (examples/64_ascend950_matmul_evg, docs/evg-semantics.md §10.2): float A/B/C,
// BlockMmadTla, BlockEpilogue<EpilogueVisitor<USE_UB>, ArchTag, Int<CL>, EVG, ElementC>,
// BasicMatmulTlaVisitor (GM workspace) or BasicMatmulTlaUbVisitor (UB workspace, Ascend950 only), host code
// and Arguments as seed 003 writes them. add, leaky_relu, sigmoid, silu, the 9-op topological tanh, bias and
// add_ub on Ascend950; add, leaky_relu, silu and bias also on AtlasA2 (Sigmoid is an Ascend950-only functor).
// Data: integers for the exact examples, dyadic values k/8 for the others (the GEMM stays exact, so only the
// transcendental functors are compared within their ULP bounds).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "host_code.hpp"

namespace {

using namespace Catlass;
using namespace evg::examples;
using ElementC = float;

// A and B as device buffers: integers in [-5, 5], or dyadic values k/8 with k in [-8, 8].
struct Operands {
    uint8_t *deviceA, *deviceB;
    Operands(ExampleCase& ex, bool dyadic_data) {
        const Shape& s = ex.shape();
        const size_t a = size_t(s.m) * s.k, b = size_t(s.k) * s.n;
        deviceA = ex.input(
            "A", dyadic_data ? dyadic(DType::f32, a, -8, 8, 3, 1) : integers(DType::f32, a, -5, 5, 1));
        deviceB = ex.input(
            "B", dyadic_data ? dyadic(DType::f32, b, -8, 8, 3, 2) : integers(DType::f32, b, -5, 5, 2));
    }
};

template <class ArchTag>
std::string head(const Shape& s, uint32_t cl, bool ub = false) {  // the problem line
    return problem_line(arch_name<ArchTag>(), s, "float", "float", cl, ub);
}

// _add / _add_ub: D = C + X, X pre-copied into the D buffer (in place) as the example does.
template <class ArchTag, uint32_t CL, bool USE_UB>
void RunAdd(const Shape& s) {
    evg::hw::reset_device();
    ExampleCase ex(s);
    const uint32_t m = s.m, n = s.n, k = s.k;
    Operands ab(ex, false);
    const HostTensor x = integers(DType::f32, size_t(m) * n, -5, 5, 3);
    uint8_t* deviceD = ex.output("D", DType::f32, m, n, &x);
    EXPECT_EQ(
        aclrtMemcpy(deviceD, x.bytes().size(), x.bytes().data(), x.bytes().size(), ACL_MEMCPY_HOST_TO_DEVICE),
        ACL_SUCCESS);
    uint8_t* deviceX = deviceD;
    auto layoutX = tla::MakeLayout<ElementC, layout::RowMajor>(m, n);
    using LayoutX = decltype(layoutX);
    auto layoutD = tla::MakeLayout<ElementC, layout::RowMajor>(m, n);
    using LayoutD = decltype(layoutD);

    using EpilogueDispatchPolicy = Epilogue::EpilogueVisitor<USE_UB>;
    using AccLoad = Epilogue::Fusion::VisitorAccLoad<ElementC, EpilogueDispatchPolicy::USE_UB_WORKSPACE>;
    using EVG = Epilogue::Fusion::TreeVisitor<
        Epilogue::Fusion::VisitorAuxStore<ElementC, LayoutD>,
        Epilogue::Fusion::TreeVisitor<Epilogue::Fusion::VisitorCompute<Epilogue::Fusion::Add, ElementC>,
                                      AccLoad, Epilogue::Fusion::VisitorAuxLoad<ElementC, LayoutX>>>;
    constexpr uint32_t computeLength = kComputeLength<EVG, ArchTag, USE_UB, CL>;

    typename EVG::Arguments evg_args{{{}, {deviceX, layoutX}, {}}, {deviceD, layoutD}};

    auto report = RunTlaVisitor<ArchTag, EVG, USE_UB, computeLength, float, ElementC>(
        GemmCoord{m, n, k}, ab.deviceA, ab.deviceB, deviceD, evg_args);
    ex.check(report,
             head<ArchTag>(s, computeLength, USE_UB) + fmt::format(R"(output D : float[{1}, {2}]
%0 = AccLoad float{0}
%1 = AuxLoad float D
%2 = Compute Add float (%0, %1)
%3 = AuxStore float D (%2)
)",
                                                                   USE_UB ? " ub" : "", m, n),
             evg::graph::describe<EVG>(evg_args, ex.tensor_names()),
             {EVG::UB_NODES, computeLength, Epilogue::Fusion::UB_BASE_OFFSET<ArchTag, USE_UB>, false}, true);
}

template <class ArchTag, uint32_t CL>
void ExampleAdd(const Shape& s) {
    RunAdd<ArchTag, CL, false>(s);
}
EVG_EXAMPLE_CASES(Seed003_Add, ExampleAdd, Ascend950, float)
EVG_EXAMPLE_CASES(Seed003_Add, ExampleAdd, AtlasA2, float)

template <class ArchTag, uint32_t CL>
void ExampleAddUb(const Shape& s) {
    RunAdd<ArchTag, CL, true>(s);
}
EVG_EXAMPLE_CASES(Seed003_AddUb, ExampleAddUb, Ascend950, float)

// _leaky_relu / _sigmoid / _silu: D = Fn(C) (LeakyRelu with slope 0.1).
template <class ArchTag, uint32_t CL, template <class> class Fn, class... Scalars>
void RunUnary(
    const Shape& s, const char* fn_text,
    const typename Epilogue::Fusion::VisitorCompute<Fn, ElementC, Scalars...>::Arguments& compute_args) {
    evg::hw::reset_device();
    ExampleCase ex(s);
    const uint32_t m = s.m, n = s.n, k = s.k;
    Operands ab(ex, true);
    uint8_t* deviceD = ex.output("D", DType::f32, m, n);
    auto layoutD = tla::MakeLayout<ElementC, layout::RowMajor>(m, n);
    using LayoutD = decltype(layoutD);
    using EVG = Epilogue::Fusion::TreeVisitor<
        Epilogue::Fusion::VisitorAuxStore<ElementC, LayoutD>,
        Epilogue::Fusion::TreeVisitor<Epilogue::Fusion::VisitorCompute<Fn, ElementC, Scalars...>,
                                      Epilogue::Fusion::VisitorAccLoad<ElementC>>>;
    constexpr uint32_t computeLength = kComputeLength<EVG, ArchTag, false, CL>;

    typename EVG::Arguments evg_args{{{}, compute_args}, {deviceD, layoutD}};

    auto report = RunTlaVisitor<ArchTag, EVG, false, computeLength, float, ElementC>(
        GemmCoord{m, n, k}, ab.deviceA, ab.deviceB, deviceD, evg_args);
    ex.check(report,
             head<ArchTag>(s, computeLength) + fmt::format(R"(output D : float[{1}, {2}]
%0 = AccLoad float
%1 = Compute {0} (%0)
%2 = AuxStore float D (%1)
)",
                                                           fn_text, m, n),
             evg::graph::describe<EVG>(evg_args, ex.tensor_names()), {EVG::UB_NODES, computeLength, 0, false},
             true);
}

template <class ArchTag, uint32_t CL>
void ExampleLeakyRelu(const Shape& s) {
    RunUnary<ArchTag, CL, Epilogue::Fusion::LeakyRelu, ElementC>(s, "LeakyRelu float [0.1]", {{0.1f}});
}
EVG_EXAMPLE_CASES(Seed003_LeakyRelu, ExampleLeakyRelu, Ascend950, float)
EVG_EXAMPLE_CASES(Seed003_LeakyRelu, ExampleLeakyRelu, AtlasA2, float)

template <class ArchTag, uint32_t CL>
void ExampleSigmoid(const Shape& s) {
    RunUnary<ArchTag, CL, Epilogue::Fusion::Sigmoid>(s, "Sigmoid float", {});
}
EVG_EXAMPLE_CASES(Seed003_Sigmoid, ExampleSigmoid, Ascend950, float)

template <class ArchTag, uint32_t CL>
void ExampleSilu(const Shape& s) {
    RunUnary<ArchTag, CL, Epilogue::Fusion::Silu>(s, "Silu float", {});
}
EVG_EXAMPLE_CASES(Seed003_Silu, ExampleSilu, Ascend950, float)
EVG_EXAMPLE_CASES(Seed003_Silu, ExampleSilu, AtlasA2, float)

// _tanh: the 9-op TopologicalVisitor, tanh(x) = (e^2x - 1) / (e^2x + 1) with x clipped to [-8.8, 8.8].
template <class ArchTag, uint32_t CL>
void ExampleTanh(const Shape& s) {
    evg::hw::reset_device();
    ExampleCase ex(s);
    const uint32_t m = s.m, n = s.n, k = s.k;
    Operands ab(ex, true);
    uint8_t* deviceD = ex.output("D", DType::f32, m, n);
    auto layoutD = tla::MakeLayout<ElementC, layout::RowMajor>(m, n);
    using LayoutD = decltype(layoutD);
    using Edges = tla::tuple<tla::seq<>,      // 0: AccLoad
                             tla::seq<0>,     // 1: Mins(8.8)
                             tla::seq<1>,     // 2: Maxs(-8.8)
                             tla::seq<2>,     // 3: Muls(2)
                             tla::seq<3>,     // 4: Exp
                             tla::seq<4>,     // 5: Adds(-1)
                             tla::seq<4>,     // 6: Adds(+1)
                             tla::seq<5, 6>,  // 7: Div
                             tla::seq<7>>;    // 8: Store
    using EVG = Epilogue::Fusion::TopologicalVisitor<
        Edges, Epilogue::Fusion::VisitorAccLoad<ElementC>,
        Epilogue::Fusion::VisitorCompute<Epilogue::Fusion::Mins, ElementC, ElementC>,
        Epilogue::Fusion::VisitorCompute<Epilogue::Fusion::Maxs, ElementC, ElementC>,
        Epilogue::Fusion::VisitorCompute<Epilogue::Fusion::Muls, ElementC, ElementC>,
        Epilogue::Fusion::VisitorCompute<Epilogue::Fusion::Exp, ElementC>,
        Epilogue::Fusion::VisitorCompute<Epilogue::Fusion::Adds, ElementC, ElementC>,
        Epilogue::Fusion::VisitorCompute<Epilogue::Fusion::Adds, ElementC, ElementC>,
        Epilogue::Fusion::VisitorCompute<Epilogue::Fusion::Div, ElementC>,
        Epilogue::Fusion::VisitorAuxStore<ElementC, LayoutD>>;
    constexpr uint32_t computeLength = kComputeLength<EVG, ArchTag, false, CL>;

    typename EVG::Arguments evg_args{{},        {{8.8f}}, {{-8.8f}}, {{2.0f}},          {},
                                     {{-1.0f}}, {{1.0f}}, {},        {deviceD, layoutD}};

    auto report = RunTlaVisitor<ArchTag, EVG, false, computeLength, float, ElementC>(
        GemmCoord{m, n, k}, ab.deviceA, ab.deviceB, deviceD, evg_args);
    ex.check(report,
             head<ArchTag>(s, computeLength) + fmt::format("output D : float[{}, {}]\n", m, n) +
                 R"(%0 = AccLoad float
%1 = Compute Mins float [8.8] (%0)
%2 = Compute Maxs float [-8.8] (%1)
%3 = Compute Muls float [2] (%2)
%4 = Compute Exp float (%3)
%5 = Compute Adds float [-1] (%4)
%6 = Compute Adds float [1] (%4)
%7 = Compute Div float (%5, %6)
%8 = AuxStore float D (%7)
)",
             evg::graph::describe<EVG>(evg_args, ex.tensor_names()), {EVG::UB_NODES, computeLength, 0, false},
             true);
}
EVG_EXAMPLE_CASES(Seed003_Tanh, ExampleTanh, Ascend950, float)

// _bias: D = C + bias[j] through RowBroadcast with a (1, n) layout.
template <class ArchTag, uint32_t CL>
void ExampleBias(const Shape& s) {
    evg::hw::reset_device();
    ExampleCase ex(s);
    const uint32_t m = s.m, n = s.n, k = s.k;
    Operands ab(ex, false);
    uint8_t* deviceBias = ex.input("bias", integers(DType::f32, n, -5, 5, 3));
    uint8_t* deviceD = ex.output("D", DType::f32, m, n);
    auto layoutBias = tla::MakeLayout<ElementC, layout::RowMajor>(1, n);
    using LayoutBias = decltype(layoutBias);
    auto layoutD = tla::MakeLayout<ElementC, layout::RowMajor>(m, n);
    using LayoutD = decltype(layoutD);
    using BiasLoad = Epilogue::Fusion::VisitorRowBroadcast<ElementC, LayoutBias>;
    using EVG = Epilogue::Fusion::TreeVisitor<
        Epilogue::Fusion::VisitorAuxStore<ElementC, LayoutD>,
        Epilogue::Fusion::TreeVisitor<Epilogue::Fusion::VisitorCompute<Epilogue::Fusion::Add, ElementC>,
                                      Epilogue::Fusion::VisitorAccLoad<ElementC>, BiasLoad>>;
    constexpr uint32_t computeLength = kComputeLength<EVG, ArchTag, false, CL>;

    typename EVG::Arguments evg_args{{{}, {deviceBias, layoutBias}, {}}, {deviceD, layoutD}};

    auto report = RunTlaVisitor<ArchTag, EVG, false, computeLength, float, ElementC>(
        GemmCoord{m, n, k}, ab.deviceA, ab.deviceB, deviceD, evg_args);
    ex.check(report,
             head<ArchTag>(s, computeLength) + fmt::format(R"(input bias : float[1, {1}]
output D : float[{0}, {1}]
%0 = AccLoad float
%1 = RowBroadcast float bias
%2 = Compute Add float (%0, %1)
%3 = AuxStore float D (%2)
)",
                                                           m, n),
             evg::graph::describe<EVG>(evg_args, ex.tensor_names()), {EVG::UB_NODES, computeLength, 0, false},
             true);
}
EVG_EXAMPLE_CASES(Seed003_Bias, ExampleBias, Ascend950, float)
EVG_EXAMPLE_CASES(Seed003_Bias, ExampleBias, AtlasA2, float)

}  // namespace
