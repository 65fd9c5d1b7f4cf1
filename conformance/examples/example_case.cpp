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
#include "report_table.hpp"

namespace evg::examples {

namespace UbAccounting = Catlass::Epilogue::Fusion::UbAccounting;

uint32_t buffer_sets_used(const Shape& s, uint32_t cl) {
    uint32_t most = 0;
    for (uint32_t r0 = 0; r0 < s.m; r0 += kL1M) {
        for (uint32_t c0 = 0; c0 < s.n; c0 += kL1N) {
            const uint32_t rows = std::min(kL1M, s.m - r0);
            const uint32_t cols = std::min(kL1N, s.n - c0);
            const uint32_t sub0 = (rows + 1) / 2;
            for (uint32_t sub : {sub0, rows - sub0}) {
                uint32_t iterations = sub;  // column split: one outer iteration per row
                if (cols <= cl) {
                    const uint32_t aligned = (cols + 31) / 32 * 32;
                    const uint32_t per_tile = std::max(1u, cl / aligned);
                    iterations = (sub + per_tile - 1) / per_tile;
                }
                most = std::max(most, iterations);
            }
        }
    }
    return most >= 2 ? 2 : 1;
}

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
    EXPECT_EQ(b.host.size(), size_t(rows) * cols) << name;
    EXPECT_EQ(aclrtMalloc(&b.device, b.host.bytes().size(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
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

std::string mode_text(const oracle::CompareOptions& o) {
    switch (o.mode) {
        case oracle::CompareMode::BitExact:
            return "bit-exact";
        case oracle::CompareMode::Ulp:
            return fmt::format("ulp<={}", o.max_ulp);
        case oracle::CompareMode::Catlass:
            return fmt::format("catlass rtol={}", o.rtol);
    }
    return "?";
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
    // 1. Every checker: nothing at all.
    EXPECT_TRUE(report.clean()) << report.text();
    EXPECT_TRUE(report.violations.empty()) << report.text();

    // 2. The outputs against the oracle.
    std::string comparison;
    graph::Problem problem = graph::parse_problem(problem_text);
    EXPECT_EQ(graph::print(described), graph::print(problem.graph))
        << "describe<EVG> and the spec's graph differ";
    EXPECT_TRUE(described == problem.graph);
    problem.graph = described;
    oracle::Inputs inputs;
    for (const Buffer& b : buffers_)
        if (!b.is_output || b.initialised) inputs.emplace(b.name, b.host);
    const oracle::OracleResult golden = oracle::evaluate(problem, inputs);
    for (const Buffer& b : buffers_) {
        if (!b.is_output) continue;
        HostTensor got(b.host.dtype(), b.host.size());
        const size_t bytes = got.bytes().size();
        EXPECT_EQ(aclrtMemcpy(got.bytes().data(), bytes, b.device, bytes, ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_SUCCESS);
        const oracle::ComparePlan plan = oracle::plan_comparison(problem, b.name, exact_friendly);
        const oracle::CompareResult r = oracle::compare(b.name, got, golden.output(b.name),
                                                        oracle::Region::dense(b.rows, b.cols), plan.options);
        EXPECT_TRUE(r.ok()) << r.to_string(plan.options.mode) << "\n(" << plan.reason << ")\n"
                            << problem_text;
        comparison +=
            fmt::format("{}{} {}{}", comparison.empty() ? "" : "; ", b.name, mode_text(plan.options),
                        r.ok() ? "" : fmt::format(" ({} differ)", r.mismatches));
    }

    // 3. The UB peak: where UbAccounting puts the end of the last callbacks set the tile loop uses.
    const uint32_t sets = buffer_sets_used(shape_, ub.compute_length);
    const uint64_t per_set = UbAccounting::bytes_per_set(ub.nodes, ub.compute_length);
    const uint64_t expected =
        sets == 2 ? UbAccounting::ub_end(ub.nodes, ub.compute_length, ub.base) : ub.base + per_set;
    if (!ub.last_node_partial) {
        EXPECT_EQ(report.stats.ub_peak, expected) << "sets used: " << sets;
    } else {
        const auto& last = ub.nodes.back();
        const uint64_t last_bytes = uint64_t(last.buffers) * last.element_bytes * ub.compute_length;
        EXPECT_LE(report.stats.ub_peak, expected);
        EXPECT_GT(report.stats.ub_peak, expected - last_bytes) << "sets used: " << sets;
    }

    ReportRow row;
    row.example = example_;
    row.config = config_;
    row.pass = !::testing::Test::HasFailure();
    row.compute_length = ub.compute_length;
    row.ub_peak = report.stats.ub_peak;
    row.ub_expected = expected;
    row.instructions = report.stats.instructions;
    row.violations = violation_summary(report);
    row.comparison = comparison;
    record_row(row);
}

}  // namespace evg::examples
