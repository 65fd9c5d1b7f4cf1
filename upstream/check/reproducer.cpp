#include "reproducer.hpp"

#include <fmt/format.h>

#include <vector>

#include "acl/catlass_checkout.hpp"
#include "corpus_check.hpp"
#include "corpus_emit.hpp"
#include "engine.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/props/regression.hpp"
#include "evg/verify/data.hpp"

namespace evg::upstream::check {

using namespace detail;
using namespace evg::upstream::corpus;

namespace {

// The outputs the reproducer program compares with: the oracle's when the data makes every result exact
// (the judge then compares bit for bit too), else evgcheck's copy's on the same schedule (the property's
// bit-for-bit partner).
std::vector<std::vector<uint8_t>> expected_outputs(const props::Case& c, const verify::CaseData& data,
                                                   std::string* source) {
    const graph::Problem& p = c.problem;
    std::vector<std::vector<uint8_t>> out(p.graph.tensors.size());
    if (data.exact_data) {
        *source = "the oracle's outputs (exact data)";
        const oracle::OracleResult r = oracle::evaluate(p, data.inputs);
        for (std::size_t i = 0; i < p.graph.tensors.size(); ++i)
            if (p.graph.tensors[i].role == graph::TensorRole::Output)
                out[i] = bytes_of(r.output(p.graph.tensors[i].name));
        return out;
    }
    *source = "the outputs of evgcheck's own Catlass copy on the same schedule";
    const props::CaseRun ours = props::run_case(corpus::evgcheck_copy(c), c.cores, c.sched_seed);
    for (std::size_t i = 0; i < p.graph.tensors.size(); ++i)
        if (p.graph.tensors[i].role == graph::TensorRole::Output)
            out[i] = ours.model.outputs.at(p.graph.tensors[i].name);
    return out;
}

}  // namespace

FailureFiles write_failure_files(const UpstreamCheckOptions& o, const props::Case& c,
                                 const std::string& first_line) {
    const std::string case_text = props::to_text(c, "UpstreamCheck/minimal");
    const fs::path dir = o.work_dir / ("failure-" + content_hash(o.root + '\n' + case_text));
    fs::create_directories(dir);
    write_file(dir / "case.txt", case_text);
    const verify::CaseData data = verify::make_case_data(c.problem, c.data, c.data_seed, c.sign);
    std::string expected_from;
    const auto expected = expected_outputs(c, data, &expected_from);
    const std::string scheduler = c.sched_seed
                                      ? fmt::format("--scheduler adversarial --seed {}", c.sched_seed)
                                      : "--scheduler in_order";
    const std::string program_header = fmt::format(
        "// A failure of `evgcheck check --catlass-root {}`, shrunk: {}\n"
        "// Catlass {}\n"
        "// {}\n"
        "// The kernel as evgcheck's upstream corpus builds it, the case's data, and {} to compare with.\n"
        "// Build: the CMakeLists.txt beside this file (evgcheck_add_program). Run: evgcheck run-program {} "
        "--known "
        "{} --expect \"Compare success.\" ./repro\n\n",
        o.root, props::summary(c), evg::acl::identify_catlass_checkout(o.root).describe(),
        first_line.substr(0, first_line.find('\n')), expected_from, scheduler, o.known);
    write_file(dir / "repro.cpp", reproducer_program(c, data, expected, program_header));
    write_file(
        dir / "CMakeLists.txt",
        fmt::format("# The reproducer of a failure of evgcheck check --catlass-root, as a Catlass program "
                    "run on the model.\n"
                    "cmake_minimum_required(VERSION 3.25)\n"
                    "project(evgcheck_repro CXX)\n"
                    "find_package(evgcheck CONFIG REQUIRED)\n"
                    "evgcheck_add_program(repro SOURCES repro.cpp CATLASS_ROOT \"{}\" ARCH Ascend950)\n"
                    "target_compile_options(repro PRIVATE -Wno-error)\n",
                    o.root));

    FailureFiles f;
    f.dir = dir;
    f.case_file = dir / "case.txt";
    f.program = dir / "repro.cpp";
    f.cmake_lists = dir / "CMakeLists.txt";
    f.case_text = case_text;
    f.scheduler = scheduler;
    return f;
}

}  // namespace evg::upstream::check
