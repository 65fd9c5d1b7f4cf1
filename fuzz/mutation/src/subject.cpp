#include "evg/fuzz/subject.hpp"

#include <fmt/format.h>

#include <memory>
#include <optional>

#include "evg/graph/run.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/verify/compare.hpp"
#include "evg/verify/data.hpp"

namespace evg::fuzz {

Subject graph_subject(std::string name, const graph::Problem& problem, uint64_t data_seed, uint32_t cores) {
    // Deterministic in (problem, data_seed); outputs start as the sentinel.
    auto data = std::make_shared<const verify::CaseData>(
        verify::make_case_data(problem, verify::DataMode::Exact, data_seed));
    auto inputs = std::make_shared<graph::RunInputs>();
    for (const auto& [tensor, t] : data->inputs) {
        const auto* b = reinterpret_cast<const uint8_t*>(t.bytes().data());
        inputs->tensors[tensor] = std::vector<uint8_t>(b, b + t.bytes().size());
    }
    Subject s;
    s.name = std::move(name);
    s.arch = problem.arch;
    s.type = hw::KernelType::mix_aic_1_2;
    s.block_dim = static_cast<int>(cores);
    s.path = std::string(graph::workspace_path_name(problem.path));
    s.run = [problem, inputs, cores](const hw::Config& config) {
        graph::RunOptions opt;
        opt.block_dim = cores;
        opt.config = config;
        opt.config.arch = problem.arch;
        graph::ModelRun r = graph::run_on_model(problem, *inputs, opt);
        return SubjectRun{std::move(r.report), std::move(r.trace), std::move(r.outputs)};
    };
    // Identical bytes agree; otherwise verify::compare_runs decides (the property suite's rule, and a
    // never-written element of either run is a difference), with the oracle evaluated once, on the first
    // difference.
    struct Golden {
        std::optional<oracle::OracleResult> result;
        bool exact = false;
    };
    auto golden = std::make_shared<Golden>();
    s.compare = [problem, golden, data](const SubjectRun& a, const SubjectRun& b) -> std::string {
        if (a.outputs == b.outputs) return "";
        graph::ModelRun ma, mb;
        ma.outputs = a.outputs;
        mb.outputs = b.outputs;
        for (const auto* m : {&ma, &mb})
            for (const graph::Tensor& t : problem.graph.tensors)
                if (t.role == graph::TensorRole::Output && !m->outputs.count(t.name))
                    return fmt::format("output {} is missing", t.name);
        if (!golden->result) {
            golden->result = oracle::evaluate(problem, data->inputs);
            golden->exact = verify::exact_friendly(data->exact_data, problem, *golden->result);
        }
        return verify::compare_runs(problem, ma, mb, *golden->result, golden->exact).text();
    };
    return s;
}

std::string compare_outputs(const Subject& s, const SubjectRun& a, const SubjectRun& b) {
    if (s.compare) return s.compare(a, b);
    for (const auto& [name, bytes] : a.outputs) {
        const auto it = b.outputs.find(name);
        if (it == b.outputs.end()) return fmt::format("output {} is missing", name);
        if (it->second != bytes) return fmt::format("output {} differs", name);
    }
    return a.outputs.size() == b.outputs.size() ? "" : "the output sets differ";
}

}  // namespace evg::fuzz
