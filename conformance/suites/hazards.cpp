// Upstream hazards, two kinds of case, both judged by judge_hazard (pass = the expected checker fires):
// - graph cases: each faithful switch of UpstreamHazards (the upstream hazards the library reproduces on
// demand) on, around a graph that
//   exposes it. Ids: Hazard/<Arch>/<switch>/<path>/<shape>/CL<n>.
// - kernel cases: an upstream bug written as a stand-alone AscendC kernel (ascendc/samples/), run on the
//   model and compared with its C++ reference; its fixed form, and the bug on a chip where it cannot happen,
//   expect "clean". Ids: Hazard/<Arch>/<kernel>/kernel/<shape>.
// - checker controls (checker_controls.cpp): a kernel per kind of finding of the machine, and upstream's sync
//   faults (ascendc/samples/sync_hazards.hpp), judged by judge_exactly. Ids:
//   Hazard/<Arch>/<kernel>[_fixed]/kernel/sample.
#include <fmt/format.h>

#include "../src/catalogue.hpp"
#include "ascendc/samples/dequant_per_token_run.hpp"
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

constexpr const char* kRelu = R"(output D : float[64, 128]
%0 = AccLoad float ub
%1 = Compute Relu float (%0)
%2 = AuxStore float D (%1)
)";

constexpr UpstreamHazards kRowBcast{.row_broadcast_no_barrier = true};
constexpr UpstreamHazards kStoreLoad{.store_reads_load_unordered = true};
constexpr UpstreamHazards kPadding{.scalar_reduce_sums_padding = true};
constexpr UpstreamHazards kTopo{.topo_store_per_consumer = true};
constexpr UpstreamHazards kWholeCl{.compute_over_compute_length = true};

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
    {"compute_over_compute_length", "Compute", kWholeCl, graph::ArchId::Ascend950, kUbArchTile,
     "operand_overlap", kRelu},
};

// Upstream Catlass's per-token dequant epilogue for AtlasA2 before its April 2026 fix: no PipeBarrier<PIPE_V>
// between the Cast into the float buffer and the broadcast Mul reading it (NaNs in the output upstream).
struct KernelHazard {
    const char* name;
    bool missing_barrier;
    graph::ArchId arch;
    const char* expected;
};

const KernelHazard kKernelHazards[] = {
    {"dequant_per_token_missing_barrier", true, graph::ArchId::AtlasA2, "race"},
    {"dequant_per_token_missing_barrier", true, graph::ArchId::Ascend950, "clean"},  // V keeps order
    {"dequant_per_token", false, graph::ArchId::AtlasA2, "clean"},                   // the fix
};

// The first output element that differs from the reference (empty when none does).
std::string first_difference(const std::vector<uint16_t>& out, const std::vector<uint16_t>& expected,
                             uint32_t cols) {
    size_t bad = 0, first = out.size();
    for (size_t i = 0; i < out.size(); ++i)
        if (out[i] != expected[i]) {
            if (first == out.size()) first = i;
            ++bad;
        }
    if (bad == 0) return {};
    return fmt::format(
        "{} of {} elements of D differ from the reference; first D[{}][{}] = {:#06x}, expected {:#06x}", bad,
        out.size(), first / cols, first % cols, out[first], expected[first]);
}

void add_kernel_hazard_cases(std::vector<CaseSpec>& out) {
    for (const KernelHazard& h : kKernelHazards) {
        const AscendC::samples::DequantShape shape;
        CaseSpec s;
        s.id = fmt::format("Hazard/{}/{}/kernel/M{}N{}T{}", arch_str(h.arch), h.name, shape.rows, shape.cols,
                           shape.tile_rows);
        s.suite = "hazard";
        s.node_kind = "Kernel";
        s.dtype = "int32->half";
        s.arch = arch_str(h.arch);
        s.path = "gm";
        CaseSpec meta = s;
        s.run = [meta, h, shape]() {
            hw::Config cfg;
            cfg.arch = h.arch;
            const AscendC::samples::DequantRun run =
                AscendC::samples::run_dequant_per_token(cfg, h.missing_barrier, shape);
            return judge_hazard(measure_report(meta, run.report, run.trace,
                                               first_difference(run.out, run.expected, shape.cols)),
                                h.expected);
        };
        out.push_back(std::move(s));
    }
}

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
    add_kernel_hazard_cases(out);
    add_checker_controls(out);  // our own kernels and upstream's sync faults (checker_controls.cpp)
    add_judge_controls(out);    // the judge handed wrong results (judge_controls.cpp)
}

}  // namespace evg::conformance::detail
