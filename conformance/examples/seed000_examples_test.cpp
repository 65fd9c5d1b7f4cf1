// Seed 000 (L1 lineage, AtlasA2, half A/B/C): examples 32, 33, 34 and the three 35s, with the host code
// and EVT Arguments exactly as the seed writes them (MatmulVisitor, BlockEpilogue<EpilogueAtlasA2Visitor,
// GemmType<half, RowMajor>, Int<CL>, EVT>), on small-integer data (every sum exact), checked against the
// oracle's evaluation of the same graph written in the graph text format.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "host_code.hpp"

namespace {

using namespace Catlass;
using namespace evg::examples;
using LayoutC = layout::RowMajor;

// A and B: integers in [-5, 5] (K = 40: |C| <= 1000, exact in half and float, as the L1 examples' data).
struct Seed000Data {
    uint8_t *deviceA, *deviceB;
    Seed000Data(ExampleCase& ex, int64_t r = 5) {
        const Shape& s = ex.shape();
        deviceA = ex.input("A", integers(DType::f16, size_t(s.m) * s.k, -r, r, 1));
        deviceB = ex.input("B", integers(DType::f16, size_t(s.k) * s.n, -r, r, 2));
    }
};

std::string head(const Shape& s, uint32_t cl) {
    return problem_line("AtlasA2", s, "half", "half", cl, false);
}

// Example 32: D = C + X.
template <class ArchTag, uint32_t CL>
void Example32(const Shape& s) {
    static_assert(std::is_same_v<ArchTag, Arch::AtlasA2>, "seed 000 is AtlasA2 only");
    using EVT = Epilogue::Fusion::TreeVisitor<
        Epilogue::Fusion::VisitorAuxStore<half, LayoutC>,
        Epilogue::Fusion::TreeVisitor<Epilogue::Fusion::VisitorCompute<Epilogue::Fusion::Plus, half>,
                                      Epilogue::Fusion::VisitorAccLoad<half>,             // A*B
                                      Epilogue::Fusion::VisitorAuxLoad<half, LayoutC>>>;  // X
    constexpr uint32_t computeLength = kComputeLength<EVT, ArchTag, false, CL>;
    evg::hw::reset_device();
    ExampleCase ex(s);
    const uint32_t m = s.m, n = s.n, k = s.k;
    Seed000Data ab(ex);
    uint8_t* deviceX = ex.input("X", integers(DType::f16, size_t(m) * n, -5, 5, 3));
    uint8_t* deviceD = ex.output("D", DType::f16, m, n);
    LayoutC layoutD{m, n};

    typename EVT::Arguments evt_args{{{}, {deviceX, layoutD}, {}}, {deviceD, layoutD}};

    auto report = RunMatmulVisitor<EVT, computeLength, half, half>(GemmCoord{m, n, k}, ab.deviceA, ab.deviceB,
                                                                   evt_args);
    ex.check(report,
             head(s, computeLength) + fmt::format(R"(input X : half[{0}, {1}]
output D : half[{0}, {1}]
%0 = AccLoad half
%1 = AuxLoad half X
%2 = Compute Plus half (%0, %1)
%3 = AuxStore half D (%2)
)",
                                                  m, n),
             evg::graph::describe<EVT>(evt_args, ex.tensor_names()), {EVT::UB_NODES, computeLength, 0, false},
             true);
}
EVG_EXAMPLE_CASES(Seed000_32_Add, Example32, AtlasA2, half)

// Example 33: mixed-precision casts, D = half(float(C) + float(X)).
template <class ArchTag, uint32_t CL>
void Example33(const Shape& s) {
    using EVT_Inner = Epilogue::Fusion::TreeVisitor<
        Epilogue::Fusion::VisitorCompute<Epilogue::Fusion::Plus, float>,
        Epilogue::Fusion::TreeVisitor<
            Epilogue::Fusion::VisitorCast<float, half, AscendC::RoundMode::CAST_NONE>,
            Epilogue::Fusion::VisitorAccLoad<half>>,
        Epilogue::Fusion::TreeVisitor<
            Epilogue::Fusion::VisitorCast<float, half, AscendC::RoundMode::CAST_NONE>,
            Epilogue::Fusion::VisitorAuxLoad<half, LayoutC>>>;
    using EVT_CastOut = Epilogue::Fusion::VisitorCast<half, float, AscendC::RoundMode::CAST_NONE>;
    using EVT_Store = Epilogue::Fusion::VisitorAuxStore<half, LayoutC>;
    using EVT =
        Epilogue::Fusion::TreeVisitor<EVT_Store, Epilogue::Fusion::TreeVisitor<EVT_CastOut, EVT_Inner>>;
    constexpr uint32_t computeLength = kComputeLength<EVT, ArchTag, false, CL>;
    evg::hw::reset_device();
    ExampleCase ex(s);
    const uint32_t m = s.m, n = s.n, k = s.k;
    Seed000Data ab(ex);
    uint8_t* deviceX = ex.input("X", integers(DType::f16, size_t(m) * n, -5, 5, 3));
    uint8_t* deviceD = ex.output("D", DType::f16, m, n);
    LayoutC layoutD{m, n};

    typename EVT::Arguments evt_args{
        {
            {
                {
                    {},  // VisitorAccLoad::Arguments{}
                    {}   // VisitorCast::Arguments{}
                },
                {
                    {deviceX, layoutD},  // VisitorAuxLoad::Arguments{ptr_aux, layout}
                    {}                   // VisitorCast::Arguments{}
                },
                {}  // VisitorCompute::Arguments{}
            },
            {}  // VisitorCast::Arguments{}
        },
        {deviceD, layoutD}  // VisitorAuxStore::Arguments{ptr_aux, layout}
    };

    auto report = RunMatmulVisitor<EVT, computeLength, half, half>(GemmCoord{m, n, k}, ab.deviceA, ab.deviceB,
                                                                   evt_args);
    ex.check(report,
             head(s, computeLength) + fmt::format(R"(input X : half[{0}, {1}]
output D : half[{0}, {1}]
%0 = AccLoad half
%1 = Cast float <- half CAST_NONE (%0)
%2 = AuxLoad half X
%3 = Cast float <- half CAST_NONE (%2)
%4 = Compute Plus float (%1, %3)
%5 = Cast half <- float CAST_NONE (%4)
%6 = AuxStore half D (%5)
)",
                                                  m, n),
             evg::graph::describe<EVT>(evt_args, ex.tensor_names()), {EVT::UB_NODES, computeLength, 0, false},
             true);
}
EVG_EXAMPLE_CASES(Seed000_33_Cast, Example33, AtlasA2, half)

// Example 34: TopologicalVisitor reuse, D = (C + X) + (C + X).
template <class ArchTag, uint32_t CL>
void Example34(const Shape& s) {
    using Edges = tla::tuple<tla::seq<>,      // 0: AccLoad
                             tla::seq<>,      // 1: AuxLoad
                             tla::seq<0, 1>,  // 2: Compute1 = C + X
                             tla::seq<2, 2>,  // 3: Compute2 = (C+X) + (C+X)
                             tla::seq<3>      // 4: Store
                             >;
    using EVT =
        Epilogue::Fusion::TopologicalVisitor<Edges, Epilogue::Fusion::VisitorAccLoad<half>,
                                             Epilogue::Fusion::VisitorAuxLoad<half, LayoutC>,
                                             Epilogue::Fusion::VisitorCompute<Epilogue::Fusion::Plus, half>,
                                             Epilogue::Fusion::VisitorCompute<Epilogue::Fusion::Plus, half>,
                                             Epilogue::Fusion::VisitorAuxStore<half, LayoutC>>;
    constexpr uint32_t computeLength = kComputeLength<EVT, ArchTag, false, CL>;
    evg::hw::reset_device();
    ExampleCase ex(s);
    const uint32_t m = s.m, n = s.n, k = s.k;
    Seed000Data ab(ex);
    uint8_t* deviceX = ex.input("X", integers(DType::f16, size_t(m) * n, -5, 5, 3));
    uint8_t* deviceD = ex.output("D", DType::f16, m, n);
    LayoutC layoutD{m, n};

    typename EVT::Arguments evt_args{
        {},                  // 0: VisitorAccLoad::Arguments{}
        {deviceX, layoutD},  // 1: VisitorAuxLoad::Arguments{ptr_aux, layout}
        {},                  // 2: VisitorCompute::Arguments{}
        {},                  // 3: VisitorCompute::Arguments{}
        {deviceD, layoutD}   // 4: VisitorAuxStore::Arguments{ptr_aux, layout}
    };

    auto report = RunMatmulVisitor<EVT, computeLength, half, half>(GemmCoord{m, n, k}, ab.deviceA, ab.deviceB,
                                                                   evt_args);
    ex.check(report,
             head(s, computeLength) + fmt::format(R"(input X : half[{0}, {1}]
output D : half[{0}, {1}]
%0 = AccLoad half
%1 = AuxLoad half X
%2 = Compute Plus half (%0, %1)
%3 = Compute Plus half (%2, %2)
%4 = AuxStore half D (%3)
)",
                                                  m, n),
             evg::graph::describe<EVT>(evt_args, ex.tensor_names()), {EVT::UB_NODES, computeLength, 0, false},
             true);
}
EVG_EXAMPLE_CASES(Seed000_34_Topo, Example34, AtlasA2, half)

// Example 35 (row): D = C + row[j] stored, then rowOut[j] = sum_i float(D[i, j]) (atomic, rowOut memset 0).
template <class ArchTag, uint32_t CL>
void Example35Row(const Shape& s) {
    using EVT = Epilogue::Fusion::TreeVisitor<
        Epilogue::Fusion::VisitorRowReduce<Epilogue::Fusion::Plus, float, layout::RowMajor>,
        Epilogue::Fusion::TreeVisitor<
            Epilogue::Fusion::VisitorCast<float, half>,
            Epilogue::Fusion::TreeVisitor<
                Epilogue::Fusion::VisitorAuxStore<half, LayoutC>,
                Epilogue::Fusion::TreeVisitor<
                    Epilogue::Fusion::VisitorCompute<Epilogue::Fusion::Plus, half>,
                    Epilogue::Fusion::VisitorAccLoad<half>,
                    Epilogue::Fusion::VisitorRowBroadcast<half, layout::RowMajor>>>>>;
    constexpr uint32_t computeLength = kComputeLength<EVT, ArchTag, false, CL>;
    evg::hw::reset_device();
    ExampleCase ex(s);
    const uint32_t m = s.m, n = s.n, k = s.k;
    Seed000Data ab(ex);
    uint8_t* deviceRow = ex.input("row", integers(DType::f16, n, -5, 5, 3));
    uint8_t* deviceD = ex.output("D", DType::f16, m, n);
    const HostTensor zeros(DType::f32, n);
    uint8_t* deviceRowOut = ex.output("rowOut", DType::f32, 1, n, &zeros);
    EXPECT_EQ(aclrtMemset(deviceRowOut, n * sizeof(float), 0, n * sizeof(float)), ACL_SUCCESS);
    LayoutC layoutD{m, n};

    // The seed writes one more pair of braces around the whole list; the nesting below is the one
    // EVT::Arguments has (RowReduce tree = {Cast tree, RowReduce}).
    typename EVT::Arguments evt_args{
        {
            {
                {
                    {},                                   // VisitorAccLoad::Arguments{}
                    {deviceRow, layout::RowMajor{1, n}},  // VisitorRowBroadcast::Arguments{ptr_row, layout}
                    {}                                    // VisitorCompute::Arguments{}
                },
                {deviceD, layoutD}  // VisitorAuxStore::Arguments{ptr_aux, layout}
            },
            {}  // VisitorCast::Arguments{}
        },
        {deviceRowOut, layout::RowMajor{1, n},
         0.0f}  // VisitorRowReduce::Arguments{ptr_row_out, layout, identity}
    };

    auto report = RunMatmulVisitor<EVT, computeLength, half, half>(GemmCoord{m, n, k}, ab.deviceA, ab.deviceB,
                                                                   evt_args);
    ex.check(report,
             head(s, computeLength) + fmt::format(R"(input row : half[1, {1}]
output D : half[{0}, {1}]
output rowOut : float[1, {1}]
%0 = AccLoad half
%1 = RowBroadcast half row
%2 = Compute Plus half (%0, %1)
%3 = AuxStore half D (%2)
%4 = Cast float <- half CAST_NONE (%3)
%5 = RowReduce Plus float rowOut (%4)
)",
                                                  m, n),
             evg::graph::describe<EVT>(evt_args, ex.tensor_names()), {EVT::UB_NODES, computeLength, 0, true},
             true);
}
EVG_EXAMPLE_CASES(Seed000_35_RowBroadcastReduce, Example35Row, AtlasA2, half)

// Example 35 (col): D = C + col[i] stored, then colOut[i] = sum_j float(D[i, j]) (atomic, colOut memset 0).
template <class ArchTag, uint32_t CL>
void Example35Col(const Shape& s) {
    using EVT = Epilogue::Fusion::TreeVisitor<
        Epilogue::Fusion::VisitorColReduce<Epilogue::Fusion::Plus, float, layout::RowMajor>,
        Epilogue::Fusion::TreeVisitor<
            Epilogue::Fusion::VisitorCast<float, half>,
            Epilogue::Fusion::TreeVisitor<
                Epilogue::Fusion::VisitorAuxStore<half, LayoutC>,
                Epilogue::Fusion::TreeVisitor<
                    Epilogue::Fusion::VisitorCompute<Epilogue::Fusion::Plus, half>,
                    Epilogue::Fusion::VisitorAccLoad<half>,
                    Epilogue::Fusion::VisitorColBroadcast<half, layout::RowMajor>>>>>;
    constexpr uint32_t computeLength = kComputeLength<EVT, ArchTag, false, CL>;
    evg::hw::reset_device();
    ExampleCase ex(s);
    const uint32_t m = s.m, n = s.n, k = s.k;
    Seed000Data ab(ex);
    uint8_t* deviceCol = ex.input("col", integers(DType::f16, m, -5, 5, 3));
    uint8_t* deviceD = ex.output("D", DType::f16, m, n);
    const HostTensor zeros(DType::f32, m);
    uint8_t* deviceColOut = ex.output("colOut", DType::f32, m, 1, &zeros);
    EXPECT_EQ(aclrtMemset(deviceColOut, m * sizeof(float), 0, m * sizeof(float)), ACL_SUCCESS);
    LayoutC layoutD{m, n};

    typename EVT::Arguments evt_args{
        {
            {
                {
                    {},                                   // VisitorAccLoad::Arguments{}
                    {deviceCol, layout::RowMajor{m, 1}},  // VisitorColBroadcast::Arguments{ptr_col, layout}
                    {}                                    // VisitorCompute::Arguments{}
                },
                {deviceD, layoutD}  // VisitorAuxStore::Arguments{ptr_aux, layout}
            },
            {}  // VisitorCast::Arguments{}
        },
        {deviceColOut, layout::RowMajor{m, 1},
         0.0f}  // VisitorColReduce::Arguments{ptr_col_out, layout, identity}
    };

    auto report = RunMatmulVisitor<EVT, computeLength, half, half>(GemmCoord{m, n, k}, ab.deviceA, ab.deviceB,
                                                                   evt_args);
    ex.check(report,
             head(s, computeLength) + fmt::format(R"(input col : half[{0}, 1]
output D : half[{0}, {1}]
output colOut : float[{0}, 1]
%0 = AccLoad half
%1 = ColBroadcast half col
%2 = Compute Plus half (%0, %1)
%3 = AuxStore half D (%2)
%4 = Cast float <- half CAST_NONE (%3)
%5 = ColReduce Plus float colOut (%4)
)",
                                                  m, n),
             evg::graph::describe<EVT>(evt_args, ex.tensor_names()), {EVT::UB_NODES, computeLength, 0, true},
             true);
}
EVG_EXAMPLE_CASES(Seed000_35_ColBroadcastReduce, Example35Col, AtlasA2, half)

// Example 35 (scalar): D = C + s stored, then out = sum_ij float(D[i, j]) (atomic, out memset 0). Data in
// [-1, 1] as the seed's example.
template <class ArchTag, uint32_t CL>
void Example35Scalar(const Shape& s) {
    using EVT = Epilogue::Fusion::TreeVisitor<
        Epilogue::Fusion::VisitorScalarReduce<Epilogue::Fusion::Plus, float, layout::RowMajor>,
        Epilogue::Fusion::TreeVisitor<
            Epilogue::Fusion::VisitorCast<float, half>,
            Epilogue::Fusion::TreeVisitor<
                Epilogue::Fusion::VisitorAuxStore<half, LayoutC>,
                Epilogue::Fusion::TreeVisitor<
                    Epilogue::Fusion::VisitorCompute<Epilogue::Fusion::Plus, half>,
                    Epilogue::Fusion::VisitorAccLoad<half>,
                    Epilogue::Fusion::VisitorScalarBroadcast<half, layout::RowMajor>>>>>;
    constexpr uint32_t computeLength = kComputeLength<EVT, ArchTag, false, CL>;
    evg::hw::reset_device();
    ExampleCase ex(s);
    const uint32_t m = s.m, n = s.n, k = s.k;
    Seed000Data ab(ex, 1);
    uint8_t* deviceScalar = ex.input("scalar", integers(DType::f16, 1, -1, 1, 3));
    uint8_t* deviceD = ex.output("D", DType::f16, m, n);
    const HostTensor zeros(DType::f32, 1);
    uint8_t* deviceOut = ex.output("sumOut", DType::f32, 1, 1, &zeros);
    EXPECT_EQ(aclrtMemset(deviceOut, sizeof(float), 0, sizeof(float)), ACL_SUCCESS);
    LayoutC layoutD{m, n};

    typename EVT::Arguments evt_args{
        {
            {
                {
                    {},                                     // VisitorAccLoad::Arguments{}
                    {deviceScalar, layout::RowMajor{1, 1}}  // VisitorScalarBroadcast::Arguments{ptr, layout}
                    ,
                    {}  // VisitorCompute::Arguments{}
                },
                {deviceD, layoutD}  // VisitorAuxStore::Arguments{ptr_aux, layout}
            },
            {}  // VisitorCast::Arguments{}
        },
        {deviceOut, layout::RowMajor{1, 1}, 0.0f}  // VisitorScalarReduce::Arguments{ptr, layout, identity}
    };

    auto report = RunMatmulVisitor<EVT, computeLength, half, half>(GemmCoord{m, n, k}, ab.deviceA, ab.deviceB,
                                                                   evt_args);
    ex.check(report,
             head(s, computeLength) + fmt::format(R"(input scalar : half[1, 1]
output D : half[{0}, {1}]
output sumOut : float[1, 1]
%0 = AccLoad half
%1 = ScalarBroadcast half scalar
%2 = Compute Plus half (%0, %1)
%3 = AuxStore half D (%2)
%4 = Cast float <- half CAST_NONE (%3)
%5 = ScalarReduce Plus float sumOut (%4)
)",
                                                  m, n),
             evg::graph::describe<EVT>(evt_args, ex.tensor_names()), {EVT::UB_NODES, computeLength, 0, true},
             true);
}
EVG_EXAMPLE_CASES(Seed000_35_ScalarBroadcastReduce, Example35Scalar, AtlasA2, half)

}  // namespace
