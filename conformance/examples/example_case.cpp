#include "example_case.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>

#include <fmt/format.h>

#include "acl/acl.h"
#include "evg/graph/text.hpp"
#include "evg/oracle/compare.hpp"
#include "evg/oracle/data.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/oracle/tolerance.hpp"
#include "evg/verify/data.hpp"
#include "evg/verify/judge.hpp"
#include "report_table.hpp"

namespace evg::examples {

std::string shape_name(const Shape& s) {
    return fmt::format("m{}_n{}_k{}", s.m, s.n, s.k);
}

HostTensor integers(DType dtype, size_t count, int64_t lo, int64_t hi, uint64_t seed) {
    HostTensor t(dtype, count);
    oracle::fill_integers(t, lo, hi, seed);
    return t;
}

HostTensor dyadic(DType dtype, size_t count, int64_t k_lo, int64_t k_hi, int j, uint64_t seed) {
    HostTensor t(dtype, count);
    oracle::fill_dyadic(t, k_lo, k_hi, j, seed);
    return t;
}

HostTensor uniform(DType dtype, size_t count, double lo, double hi, uint64_t seed) {
    HostTensor t(dtype, count);
    oracle::fill_uniform(t, lo, hi, seed);
    return t;
}

ExampleCase::ExampleCase(const Shape& shape) : shape_(shape) {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    example_ = info ? info->test_suite_name() : "?";
    config_ = info ? info->name() : "?";
}

std::string problem_line(const char* arch, const Shape& s, const char* ab, const char* c, uint32_t cl,
                         bool ub) {
    return fmt::format("problem arch={} m={} n={} k={} a={} b={} c={} cl={} path={} tile={}x{}x{}\n", arch,
                       s.m, s.n, s.k, ab, ab, c, cl, ub ? "ub" : "gm", kL1M, kL1N, kL1K);
}

ExampleCase::~ExampleCase() {
    for (Buffer& b : buffers_)
        if (b.device) aclrtFree(b.device);
}

GM_ADDR ExampleCase::input(const std::string& name, const HostTensor& host) {
    Buffer b;
    b.name = name;
    b.host = host;
    const size_t bytes = host.bytes().size();
    EXPECT_EQ(aclrtMalloc(&b.device, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(b.device, bytes, host.bytes().data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    buffers_.push_back(std::move(b));
    return static_cast<GM_ADDR>(buffers_.back().device);
}

GM_ADDR ExampleCase::output(const std::string& name, DType dtype, uint32_t rows, uint32_t cols,
                            const HostTensor* initial) {
    Buffer b;
    b.name = name;
    b.rows = rows;
    b.cols = cols;
    b.is_output = true;
    b.initialised = initial != nullptr;
    b.host = initial ? *initial : HostTensor(dtype, size_t(rows) * cols);
    // An output the host code leaves unwritten starts as the sentinel (evg/verify/data.hpp), so that an
    // element the kernel never writes is found (unwritten_output) instead of comparing a stale zero.
    if (!initial)
        for (size_t i = 0; i < b.host.size(); ++i) b.host.set_bits(i, verify::sentinel_bits(dtype));
    EXPECT_EQ(b.host.size(), size_t(rows) * cols) << name;
    EXPECT_EQ(aclrtMalloc(&b.device, b.host.bytes().size(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(b.device, b.host.bytes().size(), b.host.bytes().data(), b.host.bytes().size(),
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    buffers_.push_back(std::move(b));
    return static_cast<GM_ADDR>(buffers_.back().device);
}

namespace {

std::string violation_summary(const hw::Report& report) {
    if (report.violations.empty()) return "none";
    std::map<std::string, uint64_t> kinds;
    for (const hw::Violation& v : report.violations)
        kinds[std::string(hw::violation_kind_name(v.kind))] += v.occurrences;
    std::string s;
    for (const auto& [k, n] : kinds) s += fmt::format("{}{} x{}", s.empty() ? "" : ", ", k, n);
    return s;
}

}  // namespace

std::vector<graph::TensorName> ExampleCase::tensor_names() const {
    std::vector<graph::TensorName> names;
    for (const Buffer& b : buffers_)
        if (b.name != "A" && b.name != "B") names.push_back({b.device, b.name});
    return names;
}

void ExampleCase::check(const hw::Report& report, const std::string& problem_text,
                        const graph::Graph& described, const UbExpectation& ub, bool exact_friendly) {
    // 1. Not even a warning (the judge below requires no error).
    EXPECT_TRUE(report.violations.empty()) << report.text();

    // 2. The judge of lib/verify on the outputs read back: no violation, the UB peak equal to
    //    verify::ub_expectation, every output element written and equal to the oracle. (The host code's
    //    launch keeps no trace, so flag balance is left to the flag checker's flag_left_set here.)
    graph::Problem problem = graph::parse_problem(problem_text);
    EXPECT_EQ(graph::print(described), graph::print(problem.graph))
        << "describe<EVG> and the spec's graph differ";
    EXPECT_TRUE(described == problem.graph);
    problem.graph = described;
    oracle::Inputs inputs;
    graph::ModelRun run;
    run.report = report;
    for (const Buffer& b : buffers_) {
        inputs.emplace(b.name, b.host);
        if (!b.is_output) continue;
        std::vector<uint8_t>& got = run.outputs[b.name];
        got.resize(b.host.bytes().size());
        EXPECT_EQ(aclrtMemcpy(got.data(), got.size(), b.device, got.size(), ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS);
    }
    run_ = run;
    exact_friendly_ = exact_friendly;
    const oracle::OracleResult golden = oracle::evaluate(problem, inputs);
    verify::JudgeOptions options;
    options.exact_data = exact_friendly;
    const verify::Verdict verdict = verify::judge(problem, run, golden, options);
    EXPECT_TRUE(verdict.clean()) << verdict.text() << problem_text;
    std::string comparison;
    for (const verify::OutputCheck& c : verdict.outputs)
        comparison += fmt::format("{}{} {}{}{}", comparison.empty() ? "" : "; ", c.tensor, c.mode,
                                  c.mismatches ? fmt::format(" ({} differ)", c.mismatches) : "",
                                  c.unwritten ? fmt::format(" ({} never written)", c.unwritten) : "");

    reports::ExampleRow row;
    row.example = example_;
    row.config = config_;
    row.pass = !::testing::Test::HasFailure();
    row.compute_length = ub.compute_length;
    row.ub_peak = report.stats.ub_peak;
    row.ub_expected = verdict.ub_predicted;
    row.instructions = report.stats.instructions;
    row.violations = violation_summary(report);
    row.comparison = comparison;
    record_row(row);
}

void ExampleCase::expect_data_tells(const std::string& mutant_text, const std::string& what) {
    const graph::Problem mutant = graph::parse_problem(mutant_text);
    oracle::Inputs inputs;
    for (const Buffer& b : buffers_) inputs.emplace(b.name, b.host);
    verify::JudgeOptions options;
    options.exact_data = exact_friendly_;
    const verify::Verdict verdict = verify::judge(mutant, run_, oracle::evaluate(mutant, inputs), options);
    std::size_t mismatches = 0;
    for (const verify::OutputCheck& c : verdict.outputs) mismatches += c.mismatches;
    EXPECT_GT(mismatches, 0u) << "the data cannot tell the example's graph from " << what << ":\n"
                              << mutant_text;
}

}  // namespace evg::examples
