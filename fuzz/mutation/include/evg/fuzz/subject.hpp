// A mutation subject: one kernel launch that can be re-run under any hw::Config (mutations, scheduler,
// trace_accesses), either a graph problem through the real library (evg::graph::run_on_model) or a seed
// kernel. Every run of a subject uses the same inputs, so outputs of two runs compare byte for byte.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "evg/graph/graph.hpp"
#include "evg/hw/arch.hpp"
#include "evg/hw/config.hpp"
#include "evg/hw/instruction.hpp"
#include "evg/hw/report.hpp"

namespace evg::fuzz {

struct SubjectRun {
    hw::Report report;
    hw::Trace trace;
    std::map<std::string, std::vector<uint8_t>> outputs;  // every output, by name
};

struct Subject {
    std::string
        name;  // "Example/AtlasA2/seed003_add/gm/...", "random#3 AtlasA2 gm m=33 ...", a kernel's name
    std::string kernel;  // a seed kernel's name without arch and shape ("epilogue_protocol"): the node kind
                         // of its own sync calls; empty for graphs
    hw::ArchId arch = hw::ArchId::AtlasA2;
    hw::KernelType type = hw::KernelType::mix_aic_1_2;
    int block_dim = 1;
    std::string path = "-";  // workspace path of a graph problem: "gm" or "ub"
    // Runs the launch under `config` (the subject sets config.arch). Throws evg errors as the launch does.
    std::function<SubjectRun(const hw::Config&)> run;
    // Whether two runs' outputs agree: "" when they do, else the findings. Unset: byte equality. A graph
    // problem uses verify::compare_runs (bit equality, order-dependent Add reductions held to the summation
    // bound, never-written elements).
    std::function<std::string(const SubjectRun&, const SubjectRun&)> compare;
};

// `compare` of the subject, or byte equality of every output.
std::string compare_outputs(const Subject& s, const SubjectRun& a, const SubjectRun& b);

// A graph problem on `cores` AI cores, on the inputs verify::make_case_data gives (DataMode::Exact: every
// reduction is exact in any order, so any two clean runs give identical bytes).
Subject graph_subject(std::string name, const graph::Problem& problem, uint64_t data_seed, uint32_t cores);

}  // namespace evg::fuzz
