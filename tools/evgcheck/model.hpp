// The one place where evgcheck runs a problem on the model: evg::graph::run_on_model (the graph as a
// DynamicVisitor through the real BlockEpilogue, GEMM kernel and DeviceGemm), with the oracle's host tensors.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include "catlass/epilogue/fusion/upstream_hazards.hpp"

#include "evg/graph/graph.hpp"
#include "evg/graph/run.hpp"
#include "evg/hw/report.hpp"
#include "evg/hw/sync_mutation.hpp"
#include "evg/oracle/evaluate.hpp"

namespace evgcheck {

struct ModelOptions {
    uint32_t block_dim = 2;       // AI cores launched
    uint64_t scheduler_seed = 0;  // 0: the in-order scheduler; otherwise the adversarial scheduler's seed
    std::vector<evg::hw::SyncMutation> mutations;  // sync calls rewritten as they are issued
    bool list_mutation_points = false;             // keep the trace and list every mutation point
    std::string checks;     // opt-in checkers switched on, by name (evg::hw::enable_checks)
    bool timeline = false;  // keep the trace with its accesses, for the cycle model (--timeline)
    Catlass::Epilogue::Fusion::UpstreamHazards hazards;  // upstream behaviours switched on for the run
    std::string source;  // the graph file: findings name nodes as "%1 ... (<source>:6:1)"
};

struct ModelRun {
    evg::graph::ModelRun
        run;  // report, output bytes, trace (with list_mutation_points or timeline), UbAccounting
    std::vector<evg::hw::SyncMutation> mutation_points;  // with ModelOptions::list_mutation_points
};

// Runs the problem with these host buffers (A, B, every input, the initial contents of outputs).
ModelRun run_model(const evg::graph::Problem& problem, const evg::oracle::Inputs& inputs,
                   const ModelOptions& options);

}  // namespace evgcheck
