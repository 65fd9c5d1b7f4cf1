// run_on_model: a Problem (graph, shapes, element types, arch, computeLength, path) through the real GEMM
// kernel and the real EVG library on the model, with the graph as a DynamicVisitor:
//   path=gm: BasicMatmulTlaVisitor (AtlasA2 or Ascend950), path=ub: BasicMatmulTlaUbVisitor (Ascend950);
//   BlockMmadTla<MmadPingpong<ArchTag>> with the problem's L1 tile (L0 K = 32), GemmIdentityBlockSwizzle<3,
//   0>, BlockEpilogue<EpilogueVisitor<USE_UB>, ArchTag, tla::Int<0> (run-time computeLength), DynamicVisitor,
//   ElementC>, launched through DeviceGemm on the process-wide device, reset with the run's Config.
// Supported instantiations: (A = B, C) in {(half, float), (half, half), (bfloat16, float), (float, float),
// (int8, int32)} and the L1 tiles in kRunTiles. Anything else throws GraphError naming what is missing.
#pragma once
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "evg/graph/graph.hpp"
#include "evg/hw/config.hpp"
#include "evg/hw/instruction.hpp"
#include "evg/hw/report.hpp"

namespace evg::graph {

// L1 tiles run_on_model has kernels for: each arch's default_tile and the small 32x64x64 of the examples.
inline constexpr TileShape kRunTiles[] = {default_tile(ArchId::AtlasA2), default_tile(ArchId::Ascend950),
                                          TileShape{32, 64, 64}};

struct RunInputs {
    // Bytes per tensor name: "A" (m x k, row-major, dense), "B" (k x n) and every graph input tensor ((rows -
    // 1) x row_stride + cols elements: the last row ends at its last column). Output tensors may be given
    // too: their initial contents (reductions accumulate into them); an output not given starts
    // never-written.
    std::map<std::string, std::vector<uint8_t>> tensors;
};

// The GEMM block scheduler: GemmIdentityBlockSwizzle<3, 0> (bands of three block rows, the default) or
// GemmIdentityBlockSwizzle<1, 1> (bands of one block column; only with the 32x64x64 tile).
enum class Swizzle : uint8_t { Rows3, Cols1 };

struct RunOptions {
    uint32_t block_dim = 2;  // AI cores; each runs one AIC and two AIVs
    Swizzle swizzle = Swizzle::Rows3;
    // Arch is taken from the problem. Checkers, scheduler, seed and keep_trace from here.
    hw::Config config;
    // The name of the text the graph was parsed from (a file path): the model's findings name a node as
    // "%1 RowBroadcast float bias (<source>:6:1)"; empty: "(line 6:1)".
    std::string source;
};

struct ModelRun {
    hw::Report report;
    // Every output tensor, (rows - 1) x row_stride + cols elements.
    std::map<std::string, std::vector<uint8_t>> outputs;
    hw::Trace trace;  // every issued instruction (when keep_trace)
    // UbAccounting's ub_end (both buffer sets): an upper bound of report.stats.ub_peak, reached when some AIV
    // runs two outer tile iterations in one block and the last node carved touches its whole buffer (the
    // exact rule: evg::props::ub_expectation in props/include/evg/props/checks.hpp).
    uint64_t predicted_ub_end = 0;
};

// Validates the problem (throws ValidationError), then runs it. Throws GraphError for a missing input or an
// unsupported instantiation.
ModelRun run_on_model(const Problem& problem, const RunInputs& inputs, const RunOptions& options = {});

namespace detail {
// One launch, per arch (run_a2.cpp, run_950.cpp); `tensors` and A, B are device pointers.
struct DeviceBuffers {
    uint8_t* a = nullptr;
    uint8_t* b = nullptr;
    std::vector<uint8_t*> tensors;  // graph.tensors order
};
// From `options`: block_dim, swizzle and source.
void launch_atlas_a2(const Problem& p, const DeviceBuffers& buffers, const RunOptions& options);
void launch_ascend950(const Problem& p, const DeviceBuffers& buffers, const RunOptions& options);
}  // namespace detail

}  // namespace evg::graph
