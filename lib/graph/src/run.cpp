#include "evg/graph/run.hpp"

#include <fmt/format.h>

#include "evg/graph/error.hpp"
#include "evg/graph/ub_budget.hpp"
#include "evg/graph/validate.hpp"
#include "evg/hw/device.hpp"

namespace evg::graph {

namespace {

uint8_t* upload(hw::Device& dev, const std::string& name, uint64_t bytes, const RunInputs& in,
                bool required) {
    auto* p = static_cast<uint8_t*>(dev.malloc(bytes == 0 ? 1 : bytes, name));
    auto it = in.tensors.find(name);
    if (it == in.tensors.end()) {
        if (required) throw GraphError(fmt::format("run_on_model: no data for input tensor '{}'", name));
        return p;
    }
    if (it->second.size() != bytes)
        throw GraphError(fmt::format("run_on_model: tensor '{}' has {} bytes, the problem needs {}", name,
                                     it->second.size(), bytes));
    dev.copy_to_device(p, it->second.data(), bytes);
    return p;
}

}  // namespace

ModelRun run_on_model(const Problem& problem, const RunInputs& inputs, const RunOptions& options) {
    check(problem);
    hw::Config cfg = options.config;
    cfg.arch = problem.arch;
    // A run on the model is judged against the oracle (evg::verify::judge): a NaN or infinity the kernel made
    // is the graph's own math when the oracle computes it too, so the checker "fp" reports it as a warning
    // (a count with its place), and the comparison decides (`--fp error` makes it an error all the same).
    cfg.fp_policy = hw::kFpPolicyWithOracle;
    hw::Device& dev = hw::reset_device(cfg);

    detail::DeviceBuffers buffers;
    buffers.a = upload(dev, "A", uint64_t(problem.m) * problem.k * hw::dtype_size(problem.a), inputs, true);
    buffers.b = upload(dev, "B", uint64_t(problem.k) * problem.n * hw::dtype_size(problem.b), inputs, true);
    for (const Tensor& t : problem.graph.tensors)
        buffers.tensors.push_back(upload(dev, t.name, buffer_bytes(t), inputs, t.role == TensorRole::Input));

    if (problem.arch == ArchId::AtlasA2)
        detail::launch_atlas_a2(problem, buffers, options);
    else
        detail::launch_ascend950(problem, buffers, options);

    ModelRun run;
    run.report = dev.last_report();
    run.trace = dev.take_last_trace();  // moved: a long run's trace is never held twice
    run.predicted_ub_end = ub_budget(problem).end;
    for (size_t i = 0; i < problem.graph.tensors.size(); ++i) {
        const Tensor& t = problem.graph.tensors[i];
        if (t.role != TensorRole::Output) continue;
        std::vector<uint8_t> bytes(buffer_bytes(t));
        if (!bytes.empty()) dev.copy_to_host(bytes.data(), buffers.tensors[i], bytes.size());
        run.outputs.emplace(t.name, std::move(bytes));
    }
    return run;
}

}  // namespace evg::graph
