// One run of a seed example on the model, checked (conformance/examples/README.md):
//   1. the machine's report has no violation of any kind, warnings included;
//   2. lib/verify's judge (the one every entry point uses) finds nothing: no checker error, the UB peak equal
//      to verify::ub_expectation, every output element written (outputs the host code leaves unwritten start
//      as the sentinel), every output equal to the oracle's evaluation of the example's graph as strictly as
//      oracle::plan_comparison allows.
// Each case adds one row to examples-report.md (report_table.hpp).
//
// The example's own code stays seed host code (ACL shim, DeviceGemm, brace-initialised Arguments); this class
// only owns the data: it fills host tensors, uploads them with aclrtMalloc/aclrtMemcpy, reads the outputs
// back and runs the checks.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "catlass/epilogue/fusion/ub_accounting.hpp"
#include "evg/graph/describe.hpp"
#include "evg/graph/graph.hpp"
#include "evg/graph/run.hpp"
#include "evg/hw/report.hpp"
#include "evg/oracle/host_tensor.hpp"
#include "kernel_operator.h"

namespace evg::examples {

using oracle::DType;
using oracle::HostTensor;

struct Shape {
    uint32_t m = 0, n = 0, k = 0;
};

// The L1 tile every example uses (L0: 32 x 64 x 32): small, so that the shapes make grids of several blocks.
inline constexpr uint32_t kL1M = 32;
inline constexpr uint32_t kL1N = 64;
inline constexpr uint32_t kL1K = 64;
inline constexpr uint32_t kL0K = 32;
// AI cores launched: fewer than the blocks of the larger shapes, so cores loop over blocks.
inline constexpr uint32_t kBlockDim = 4;

// The EVG's UB nodes and computeLength as the example states them. check() reads compute_length for the
// report row; the UB peak itself is judged by verify::ub_expectation (the one UB rule), so `nodes`, `base`
// and `last_node_partial` only document the example's UbAccounting view.
struct UbExpectation {
    std::span<const Catlass::Epilogue::Fusion::UbAccounting::NodeBuffers> nodes;
    uint32_t compute_length = 0;
    uint64_t base = 0;
    bool last_node_partial = false;
};

class ExampleCase {
  public:
    // The example and configuration names are the running gtest's suite and test names, e.g.
    // "Seed000_32_Add" and "AtlasA2_half_m65_n100_k40_CL256".
    explicit ExampleCase(const Shape& shape);
    ~ExampleCase();
    ExampleCase(const ExampleCase&) = delete;
    ExampleCase& operator=(const ExampleCase&) = delete;

    const Shape& shape() const { return shape_; }

    // A device copy of `host`, also handed to the oracle as tensor `name` ("A", "B", "X", ...).
    GM_ADDR input(const std::string& name, const HostTensor& host);
    // A device buffer of `rows` x `cols` elements, read back after the run and compared as output `name`.
    // `initial`: what the example's host code puts there before the launch (the oracle starts the output from
    // it; reduce outputs); nullptr when the host code leaves it unwritten.
    GM_ADDR output(const std::string& name, DType dtype, uint32_t rows, uint32_t cols,
                   const HostTensor* initial = nullptr);

    // The example's external tensors by device pointer, for describe<EVG>(evg_args, names): every buffer
    // but A and B, under the name the oracle knows it by.
    std::vector<graph::TensorName> tensor_names() const;

    // Checks the report, the outputs and the UB peak; records the row.
    //   `described`: describe<EVG>(evg_args, tensor_names()), the graph the oracle evaluates, in the problem
    //   given by the `problem` line of `problem_text`;
    //   `problem_text`: the same graph written by hand from the spec (graph text format, evg/graph/text.hpp);
    //   it must equal `described` node for node, which checks describe and the example's EVG at once.
    //   `exact_friendly`: the data make every sum exact (oracle::plan_comparison).
    void check(const hw::Report& report, const std::string& problem_text, const graph::Graph& described,
               const UbExpectation& ub, bool exact_friendly);

    // After check(): the data can tell `mutant_text` from the example's graph. The judge of this run against
    // the oracle's evaluation of the mutant (the same problem with, e.g., two arguments of a non-commutative
    // node swapped) must find an output_mismatch, so a library that computed the mutant fails check().
    void expect_data_tells(const std::string& mutant_text, const std::string& what);

  private:
    struct Buffer {
        std::string name;
        HostTensor host;  // input: its contents; output: its initial contents (the sentinel when none)
        void* device = nullptr;
        uint32_t rows = 0, cols = 0;
        bool is_output = false;
        bool initialised = false;
    };
    std::string example_, config_;
    Shape shape_;
    std::vector<Buffer> buffers_;
    graph::ModelRun run_;  // what check() judged: the report and the outputs read back
    bool exact_friendly_ = false;
};

// Seeded data: the same case gets the same bytes in every run.
HostTensor integers(DType dtype, size_t count, int64_t lo, int64_t hi, uint64_t seed);
HostTensor dyadic(DType dtype, size_t count, int64_t k_lo, int64_t k_hi, int j, uint64_t seed);
HostTensor uniform(DType dtype, size_t count, double lo, double hi, uint64_t seed);

// The `problem` line of a case's graph text (tile 32x64x64; path gm or ub).
std::string problem_line(const char* arch, const Shape& s, const char* ab, const char* c, uint32_t cl,
                         bool ub);

// "m65_n100_k40".
std::string shape_name(const Shape& s);

}  // namespace evg::examples
