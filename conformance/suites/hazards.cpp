// Upstream hazards: each faithful switch of UpstreamHazards (evg-semantics §11.2) on, around a graph that
// exposes it, expecting the checker that must catch it. Pass = that checker fires. Ids:
// Hazard/<Arch>/<switch>/<path>/<shape>/CL<n>.
#include <fmt/format.h>

#include "../src/catalogue.hpp"
#include "evg/graph/text.hpp"

namespace evg::conformance::detail {
namespace {

using Catlass::Epilogue::Fusion::UpstreamHazards;

struct Hazard {
    const char* name;
    const char* node_kind;
    UpstreamHazards switches;
    graph::ArchId arch;
    Config cfg;
    const char* expected;  // the checker(s): violation kind names or "wrong-value", '|'-separated
    const char* text;
};

constexpr const char* kBias = R"(input bias : float[1, 128]
output D : float[64, 128]
%0 = AccLoad float
%1 = RowBroadcast float bias
%2 = Compute Add float (%0, %1)
%3 = AuxStore float D (%2)
)";
constexpr const char* kCopy = R"(input X : float[64, 128]
output D : float[64, 128]
%0 = AuxLoad float X
%1 = AuxStore float D (%0)
)";
constexpr const char* kScalarSum = R"(input X : float[64, 128]
output S : float[1, 1]
%0 = AuxLoad float X
%1 = ScalarReduce Add float S (%0)
)";
constexpr const char* kSharedReduce = R"(output S : float[1, 1]
output D : float[64, 128]
%0 = AccLoad float
%1 = ScalarReduce Add float S (%0)
%2 = Compute Adds float [1] (%1)
%3 = Compute Muls float [2] (%1)
%4 = Compute Add float (%2, %3)
%5 = AuxStore float D (%4)
)";

constexpr UpstreamHazards kRowBcast{true, false, false, false};
constexpr UpstreamHazards kStoreLoad{false, true, false, false};
constexpr UpstreamHazards kPadding{false, false, true, false};
constexpr UpstreamHazards kTopo{false, false, false, true};

const Hazard kHazards[] = {
    {"row_broadcast_no_barrier", "RowBroadcast", kRowBcast, graph::ArchId::AtlasA2, kFull, "race", kBias},
    {"row_broadcast_no_barrier", "RowBroadcast", kRowBcast, graph::ArchId::AtlasA2, kTailMN, "race", kBias},
    {"store_reads_load_unordered", "AuxStore", kStoreLoad, graph::ArchId::AtlasA2, kTailN, "race", kCopy},
    {"store_reads_load_unordered", "AuxStore", kStoreLoad, graph::ArchId::Ascend950, kTailN, "race", kCopy},
    {"scalar_reduce_sums_padding", "ScalarReduce", kPadding, graph::ArchId::AtlasA2, kTailMN,
     "uninit_to_gm|wrong-value", kScalarSum},
    {"scalar_reduce_sums_padding", "ScalarReduce", kPadding, graph::ArchId::Ascend950, kTailMN,
     "uninit_to_gm|wrong-value", kScalarSum},
    {"topo_store_per_consumer", "Composition", kTopo, graph::ArchId::AtlasA2, kTailMN, "wrong-value",
     kSharedReduce},
    {"topo_store_per_consumer", "Composition", kTopo, graph::ArchId::Ascend950, kUbTail, "wrong-value",
     kSharedReduce},
};

}  // namespace

void add_hazard_cases(std::vector<CaseSpec>& out) {
    for (const Hazard& h : kHazards) {
        graph::Problem p;
        p.graph = graph::parse_graph(h.text);
        p.a = p.b = graph::DType::f16;
        p.c = graph::DType::f32;
        const std::string tail = configure(p, h.arch, h.cfg);
        ModelCase c;
        c.problem = std::move(p);
        c.hazards = h.switches;
        c.data_seed = 81;
        CaseSpec s;
        s.id = fmt::format("Hazard/{}/{}/{}", arch_str(h.arch), h.name, tail);
        s.suite = "hazard";
        s.node_kind = h.node_kind;
        s.dtype = "float";
        s.arch = arch_str(h.arch);
        s.path = c.problem.path == graph::WorkspacePath::UB ? "ub" : "gm";
        CaseSpec meta = s;
        s.run = [meta, c, expected = std::string(h.expected)]() {
            return judge_hazard(measure(meta, c), expected);
        };
        out.push_back(std::move(s));
    }
}

}  // namespace evg::conformance::detail
