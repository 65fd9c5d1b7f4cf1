// Composition suite: TreeVisitor and TopologicalVisitor shapes (chains, diamonds, wide fan-in and fan-out,
// nested trees, shared stores and reduces), on both archs and both workspace paths.
// Ids: Composition/<Arch>/<name>/<path>/<shape>/CL<n>[/stride+p].
#include <fmt/format.h>

#include "../src/catalogue.hpp"
#include "evg/graph/text.hpp"

namespace evg::conformance::detail {
namespace {

struct Shape {
    const char* name;
    const char* text;
};

// Tensors at the template size [64, 128]; the GEMM result C is float.
const Shape kShapes[] = {
    {"chain5", R"(output D : half[64, 128]
%0 = AccLoad float
%1 = Compute Adds float [1] (%0)
%2 = Compute Muls float [2] (%1)
%3 = Compute Relu float (%2)
%4 = Compute Maxs float [-3] (%3)
%5 = Cast half <- float CAST_RINT (%4)
%6 = AuxStore half D (%5)
)"},
    {"diamond", R"(output D : float[64, 128]
%0 = AccLoad float
%1 = Compute Adds float [1] (%0)
%2 = Compute Muls float [2] (%0)
%3 = Compute Sub float (%1, %2)
%4 = AuxStore float D (%3)
)"},
    {"fanin7", R"(input X0 : float[64, 128]
input X1 : half[64, 128]
input X2 : float[64, 128]
input bias : float[1, 128]
input col : float[64, 1]
input s : float[1, 1]
output D : float[64, 128]
%0 = AccLoad float
%1 = AuxLoad float X0
%2 = AuxLoad half X1
%3 = Cast float <- half CAST_NONE (%2)
%4 = AuxLoad float X2
%5 = RowBroadcast float bias
%6 = ColBroadcast float col
%7 = ScalarBroadcast float s
%8 = Compute Add float (%0, %1, %3, %4, %5, %6, %7)
%9 = AuxStore float D (%8)
)"},
    {"fanout5", R"(output D0 : float[64, 128]
output D1 : half[64, 128]
output rowOut : float[1, 128]
output colOut : float[64, 1]
output D : float[64, 128]
%0 = AccLoad float
%1 = AuxStore float D0 (%0)
%2 = Cast half <- float CAST_RINT (%0)
%3 = AuxStore half D1 (%2)
%4 = RowReduce Max float rowOut (%0)
%5 = ColReduce Min float colOut (%0)
%6 = Cast float <- half CAST_NONE (%3)
%7 = Compute Add float (%1, %6, %4, %5)
%8 = AuxStore float D (%7)
)"},
    {"nested", R"(input X : float[64, 128]
input Y : float[64, 128]
input Z : float[64, 128]
output D : float[64, 128]
%0 = AuxLoad float X
%1 = AuxLoad float Y
%2 = Compute Mul float (%0, %1)
%3 = AccLoad float
%4 = AuxLoad float Z
%5 = Compute Sub float (%3, %4)
%6 = Compute Max float (%2, %5)
%7 = Compute Relu float (%6)
%8 = AuxStore float D (%7)
)"},
    {"sharedStore", R"(input X : float[64, 128]
output E : float[64, 128]
output D : float[64, 128]
%0 = AccLoad float
%1 = AuxLoad float X
%2 = Compute Add float (%0, %1)
%3 = AuxStore float E (%2)
%4 = Compute Adds float [1] (%3)
%5 = Compute Muls float [3] (%3)
%6 = Compute Mul float (%4, %5)
%7 = AuxStore float D (%6)
)"},
    {"sharedReduce", R"(output S : float[1, 1]
output D : float[64, 128]
%0 = AccLoad float
%1 = ScalarReduce Add float S (%0)
%2 = Compute Adds float [1] (%1)
%3 = Compute Muls float [2] (%1)
%4 = Compute Add float (%2, %3)
%5 = AuxStore float D (%4)
)"},
    {"biasReluStoreReduce", R"(input bias : half[1, 128]
output D : half[64, 128]
output S : float[1, 1]
%0 = AccLoad float
%1 = RowBroadcast half bias
%2 = Cast float <- half CAST_NONE (%1)
%3 = Compute AddRelu float (%0, %2)
%4 = Cast half <- float CAST_RINT (%3)
%5 = AuxStore half D (%4)
%6 = Cast float <- half CAST_NONE (%5)
%7 = ScalarReduce Add float S (%6)
)"},
};

}  // namespace

void add_composition_cases(std::vector<CaseSpec>& out) {
    const std::pair<graph::ArchId, Config> runs[] = {
        {graph::ArchId::AtlasA2, kTailMN},   {graph::ArchId::AtlasA2, kTailM},
        {graph::ArchId::AtlasA2, kFull},     {graph::ArchId::Ascend950, kTailMN},
        {graph::ArchId::Ascend950, kUbTail}, {graph::ArchId::Ascend950, kUbFull}};
    for (const Shape& s : kShapes)
        for (const auto& [arch, cfg] : runs) {
            graph::Problem p;
            p.graph = graph::parse_graph(s.text);
            p.a = p.b = graph::DType::f16;
            p.c = graph::DType::f32;
            const std::string tail = configure(p, arch, cfg);
            ModelCase c;
            c.problem = std::move(p);
            c.data_seed = 61;
            out.push_back(model_case(fmt::format("Composition/{}/{}/{}", arch_str(arch), s.name, tail),
                                     "composition", "Composition", "float", std::move(c), {}));
        }
}

}  // namespace evg::conformance::detail
