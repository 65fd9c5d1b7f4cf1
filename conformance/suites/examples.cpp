// Example suite: the seed examples of conformance/examples (seed 000 L1 lineage, seed 003 MASTER) expressed
// as graphs (the same graph text those gtests check describe<EVG> against) and run through run_on_model on
// the examples' awkward shapes. Differences: seed 003's in-place "add" reads an input X instead of the D
// buffer (a graph may not read an output tensor). Ids: Example/<Arch>/<seed>_<name>/<path>/<shape>/CL<n>.
#include <fmt/format.h>

#include "../src/catalogue.hpp"
#include "evg/conformance/examples.hpp"
#include "evg/graph/text.hpp"

namespace evg::conformance::detail {
namespace {

struct Example {
    const char* name;
    bool seed000;  // half A/B/C on AtlasA2 (seed 000), else float A/B/C (seed 003)
    bool ascend950_only;
    const char* text;
};

const Example kExamples[] = {
    {"seed000_32_Add", true, false, R"(input X : half[64, 128]
output D : half[64, 128]
%0 = AccLoad half
%1 = AuxLoad half X
%2 = Compute Plus half (%0, %1)
%3 = AuxStore half D (%2)
)"},
    {"seed000_33_CastAdd", true, false, R"(input X : half[64, 128]
output D : half[64, 128]
%0 = AccLoad half
%1 = Cast float <- half CAST_NONE (%0)
%2 = AuxLoad half X
%3 = Cast float <- half CAST_NONE (%2)
%4 = Compute Plus float (%1, %3)
%5 = Cast half <- float CAST_NONE (%4)
%6 = AuxStore half D (%5)
)"},
    {"seed000_34_TopoAdd", true, false, R"(input X : half[64, 128]
output D : half[64, 128]
%0 = AccLoad half
%1 = AuxLoad half X
%2 = Compute Plus half (%0, %1)
%3 = Compute Plus half (%2, %2)
%4 = AuxStore half D (%3)
)"},
    {"seed000_35_RowBroadcastRowReduce", true, false, R"(input row : half[1, 128]
output D : half[64, 128]
output rowOut : float[1, 128]
%0 = AccLoad half
%1 = RowBroadcast half row
%2 = Compute Plus half (%0, %1)
%3 = AuxStore half D (%2)
%4 = Cast float <- half CAST_NONE (%3)
%5 = RowReduce Plus float rowOut (%4)
)"},
    {"seed000_36_ColBroadcastColReduce", true, false, R"(input col : half[64, 1]
output D : half[64, 128]
output colOut : float[64, 1]
%0 = AccLoad half
%1 = ColBroadcast half col
%2 = Compute Plus half (%0, %1)
%3 = AuxStore half D (%2)
%4 = Cast float <- half CAST_NONE (%3)
%5 = ColReduce Plus float colOut (%4)
)"},
    {"seed000_37_ScalarBroadcastScalarReduce", true, false, R"(input scalar : half[1, 1]
output D : half[64, 128]
output sumOut : float[1, 1]
%0 = AccLoad half
%1 = ScalarBroadcast half scalar
%2 = Compute Plus half (%0, %1)
%3 = AuxStore half D (%2)
%4 = Cast float <- half CAST_NONE (%3)
%5 = ScalarReduce Plus float sumOut (%4)
)"},
    {"seed003_add", false, false, R"(input X : float[64, 128]
output D : float[64, 128]
%0 = AccLoad float
%1 = AuxLoad float X
%2 = Compute Add float (%0, %1)
%3 = AuxStore float D (%2)
)"},
    {"seed003_leaky_relu", false, false, R"(output D : float[64, 128]
%0 = AccLoad float
%1 = Compute LeakyRelu float [0.1] (%0)
%2 = AuxStore float D (%1)
)"},
    {"seed003_sigmoid", false, true, R"(output D : float[64, 128]
%0 = AccLoad float
%1 = Compute Sigmoid float (%0)
%2 = AuxStore float D (%1)
)"},
    {"seed003_silu", false, false, R"(output D : float[64, 128]
%0 = AccLoad float
%1 = Compute Silu float (%0)
%2 = AuxStore float D (%1)
)"},
    {"seed003_tanh_topo", false, false, R"(output D : float[64, 128]
%0 = AccLoad float
%1 = Compute Mins float [8.8] (%0)
%2 = Compute Maxs float [-8.8] (%1)
%3 = Compute Muls float [2] (%2)
%4 = Compute Exp float (%3)
%5 = Compute Adds float [-1] (%4)
%6 = Compute Adds float [1] (%4)
%7 = Compute Div float (%5, %6)
%8 = AuxStore float D (%7)
)"},
    {"seed003_bias", false, false, R"(input bias : float[1, 128]
output D : float[64, 128]
%0 = AccLoad float
%1 = RowBroadcast float bias
%2 = Compute Add float (%0, %1)
%3 = AuxStore float D (%2)
)"},
};

// The examples' awkward shapes on the 32x64x64 tile.
constexpr Config kShapeA{"m65n100k40", 65, 100, 40, 256, false, 0};
constexpr Config kShapeB{"m33n200k72", 33, 200, 72, 96, false, 0};

}  // namespace

}  // namespace evg::conformance::detail

namespace evg::conformance {

std::vector<ExampleProblem> example_problems(bool small) {
    using namespace detail;
    constexpr Config kSmall{"m32n64k32", 32, 64, 32, 0, false, 0};
    std::vector<ExampleProblem> out;
    for (const Example& e : kExamples) {
        std::vector<std::pair<graph::ArchId, Config>> runs;
        const Config first = small ? kSmall : kShapeA;
        if (e.seed000) {
            runs.push_back({graph::ArchId::AtlasA2, first});
            if (!small) runs.push_back({graph::ArchId::AtlasA2, kShapeB});
        } else {
            Config ub = first;
            ub.ub = true;
            if (!e.ascend950_only) runs.push_back({graph::ArchId::AtlasA2, first});
            runs.push_back({graph::ArchId::Ascend950, first});
            if (!small) runs.push_back({graph::ArchId::Ascend950, kShapeB});
            runs.push_back({graph::ArchId::Ascend950, ub});
        }
        for (const auto& [arch, cfg] : runs) {
            ExampleProblem ex;
            ex.name = e.name;
            ex.dtype = e.seed000 ? "half" : "float";
            graph::Problem& p = ex.problem;
            p.graph = graph::parse_graph(e.text);
            p.a = p.b = e.seed000 ? graph::DType::f16 : graph::DType::f32;
            p.c = e.seed000 ? graph::DType::f16 : graph::DType::f32;
            const std::string tail = configure(p, arch, cfg);
            ex.id = fmt::format("Example/{}/{}/{}", arch_str(arch), e.name, tail);
            out.push_back(std::move(ex));
        }
    }
    return out;
}

}  // namespace evg::conformance

namespace evg::conformance::detail {

void add_example_cases(std::vector<CaseSpec>& out) {
    for (ExampleProblem& ex : example_problems()) {
        ModelCase c;
        c.problem = std::move(ex.problem);
        c.data_seed = ex.data_seed;
        out.push_back(model_case(ex.id, "example", "Example", ex.dtype, std::move(c), {}));
    }
}

}  // namespace evg::conformance::detail
