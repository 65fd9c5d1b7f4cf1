// The one place where evgcheck runs a problem on the model: evg::graph::run_on_model (DynamicVisitor through
// the real BlockEpilogue and kernels), when this build has it.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "evg/graph/graph.hpp"
#include "evg/hw/report.hpp"
#include "evg/oracle/evaluate.hpp"

namespace evgcheck {

struct ModelOptions {
    uint64_t scheduler_seed = 0;  // 0: in-order scheduler; otherwise the adversarial scheduler's seed
};

struct ModelRun {
    evg::hw::Report report;
    std::map<std::string, evg::oracle::HostTensor, std::less<>> outputs;  // whole buffers, by tensor name
    uint64_t trace_instructions = 0;
};

// Whether this build can run problems on the model.
bool model_available();
// Runs the problem on the model with these host buffers (A, B, every input, every output's initial contents).
ModelRun run_model(const evg::graph::Problem& problem, const evg::oracle::Inputs& inputs,
                   const ModelOptions& options);

}  // namespace evgcheck
