// The quantised matmul of L1 example 12 (docs/evg-semantics.md §10.3), on the GM-workspace kernels: int8 A/B,
// int32 C, D = half(Mul3(float(C), float(scale[j]), float(perTokenScale[i]))). On AtlasA2 as seed 000 host
// code (MatmulVisitor, GemmType operands, EpilogueAtlasA2Visitor; upstream used
// MatmulMultiStageWorkspaceVisitor with the preload-async epilogue, which this library does not have); on
// Ascend950 through BasicMatmulTlaVisitor. Data: A, B integers in [-16, 16] (|C| <= 10240, exact in int32 and
// float), scales uniform(0, 1) in half; every step is one rounding on both sides, so D is compared bit for
// bit.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "host_code.hpp"

namespace {

using namespace Catlass;
using namespace evg::examples;

template <class LayoutC, class LayoutScale, class LayoutPerToken>
using QuantEvt = Epilogue::Fusion::TreeVisitor<
    Epilogue::Fusion::VisitorAuxStore<half, LayoutC>,
    Epilogue::Fusion::TreeVisitor<
        Epilogue::Fusion::VisitorCast<half, float>,
        Epilogue::Fusion::TreeVisitor<
            Epilogue::Fusion::VisitorCompute<Epilogue::Fusion::Mul3, float>,
            Epilogue::Fusion::TreeVisitor<Epilogue::Fusion::VisitorCast<float, int32_t>,
                                          Epilogue::Fusion::VisitorAccLoad<int32_t>>,
            Epilogue::Fusion::TreeVisitor<Epilogue::Fusion::VisitorCast<float, half>,
                                          Epilogue::Fusion::VisitorRowBroadcast<half, LayoutScale>>,
            Epilogue::Fusion::TreeVisitor<Epilogue::Fusion::VisitorCast<float, half>,
                                          Epilogue::Fusion::VisitorColBroadcast<half, LayoutPerToken>>>>>;

std::string quant_text(const char* arch, const Shape& s, uint32_t cl) {
    return problem_line(arch, s, "int8", "int32", cl, false) + fmt::format(R"(input scale : half[1, {1}]
input perTokenScale : half[{0}, 1]
output D : half[{0}, {1}]
%0 = AccLoad int32
%1 = Cast float <- int32 CAST_NONE (%0)
%2 = RowBroadcast half scale
%3 = Cast float <- half CAST_NONE (%2)
%4 = ColBroadcast half perTokenScale
%5 = Cast float <- half CAST_NONE (%4)
%6 = Compute Mul3 float (%1, %3, %5)
%7 = Cast half <- float CAST_NONE (%6)
%8 = AuxStore half D (%7)
)",
                                                                           s.m, s.n);
}

struct QuantData {
    uint8_t *deviceA, *deviceB, *deviceScale, *devicePerTokenScale, *deviceD;
    explicit QuantData(ExampleCase& ex) {
        const Shape& s = ex.shape();
        deviceA = ex.input("A", integers(DType::i8, size_t(s.m) * s.k, -16, 16, 1));
        deviceB = ex.input("B", integers(DType::i8, size_t(s.k) * s.n, -16, 16, 2));
        deviceScale = ex.input("scale", uniform(DType::f16, s.n, 0.0, 1.0, 3));
        devicePerTokenScale = ex.input("perTokenScale", uniform(DType::f16, s.m, 0.0, 1.0, 4));
        deviceD = ex.output("D", DType::f16, s.m, s.n);
    }
};

template <class ArchTag, uint32_t CL>
void ExampleQuant(const Shape& s) {
    evg::hw::reset_device();
    ExampleCase ex(s);
    const uint32_t m = s.m, n = s.n, k = s.k;
    QuantData data(ex);
    if constexpr (std::is_same_v<ArchTag, Arch::AtlasA2>) {
        // Seed 000 host code.
        using LayoutC = layout::RowMajor;
        using EVT = QuantEvt<LayoutC, layout::RowMajor, layout::RowMajor>;
        constexpr uint32_t computeLength = kComputeLength<EVT, ArchTag, false, CL>;
        LayoutC layoutD{m, n};
        typename EVT::Arguments evt_args{
            {
                {
                    {{}, {}},                                                  // Cast<float, int32>(AccLoad)
                    {{data.deviceScale, layout::RowMajor{1, n}}, {}},          // Cast(RowBroadcast(scale))
                    {{data.devicePerTokenScale, layout::RowMajor{m, 1}}, {}},  // Cast(ColBroadcast(perToken))
                    {}                                                         // Compute<Mul3>
                },
                {}  // Cast<half, float>
            },
            {data.deviceD, layoutD}  // AuxStore
        };
        auto report = RunMatmulVisitor<EVT, computeLength, int8_t, int32_t>(GemmCoord{m, n, k}, data.deviceA,
                                                                            data.deviceB, evt_args);
        ex.check(report, quant_text("AtlasA2", s, computeLength),
                 evg::graph::describe<EVT>(evt_args, ex.tensor_names()),
                 {EVT::UB_NODES, computeLength, 0, false}, true);
    } else {
        // Seed 003 host code.
        auto layoutScale = tla::MakeLayout<half, layout::RowMajor>(1, n);
        auto layoutPerToken = tla::MakeLayout<half, layout::RowMajor>(m, 1);
        auto layoutD = tla::MakeLayout<half, layout::RowMajor>(m, n);
        using EVG = QuantEvt<decltype(layoutD), decltype(layoutScale), decltype(layoutPerToken)>;
        constexpr uint32_t computeLength = kComputeLength<EVG, ArchTag, false, CL>;
        typename EVG::Arguments evg_args{{{{{}, {}},
                                           {{data.deviceScale, layoutScale}, {}},
                                           {{data.devicePerTokenScale, layoutPerToken}, {}},
                                           {}},
                                          {}},
                                         {data.deviceD, layoutD}};
        auto report = RunTlaVisitor<ArchTag, EVG, false, computeLength, int8_t, int32_t>(
            GemmCoord{m, n, k}, data.deviceA, data.deviceB, data.deviceD, evg_args);
        ex.check(report, quant_text("Ascend950", s, computeLength),
                 evg::graph::describe<EVG>(evg_args, ex.tensor_names()),
                 {EVG::UB_NODES, computeLength, 0, false}, true);
    }
}
EVG_EXAMPLE_CASES(QuantMatmul_12, ExampleQuant, AtlasA2, int8)
EVG_EXAMPLE_CASES(QuantMatmul_12, ExampleQuant, Ascend950, int8)

}  // namespace

namespace {
// N and K multiples of 32 int8 elements (one 32-byte block): isolates the tails of the shapes above.
TEST(QuantMatmul_12, AtlasA2_int8_m65_n128_k64_CL256) {
    ExampleQuant<Catlass::Arch::AtlasA2, 256>({65, 128, 64});
}
TEST(QuantMatmul_12, Ascend950_int8_m65_n128_k64_CL256) {
    ExampleQuant<Catlass::Arch::Ascend950, 256>({65, 128, 64});
}
}  // namespace
