// Upstream Catlass's seven EVG example graphs (examples/64_ascend950_matmul_evg of a Catlass checkout), run
// with upstream's own kernels on the model. This header is the boundary between the two sides. It names no
// Catlass type, and what crosses it is plain data (the report, the outputs, the synchronisation as text),
// because the two sides must not share a program image: upstream's Catlass and evgcheck's own copy (which the
// judge links, for DynamicVisitor) define templates of the same names, and one executable holding both would
// break the one-definition rule. Upstream's side is therefore a shared library that keeps every symbol to
// itself, with its own copy of the model (upstream/CMakeLists.txt); only run_example_950 is exported.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../sync_sequences.hpp"
#include "evg/hw/config.hpp"
#include "evg/hw/instruction.hpp"
#include "evg/hw/report.hpp"

namespace evg::upstream {

// The graphs, as the example programs define them (all float):
//   add        D = C + X             BasicMatmulTlaVisitor, X read from the D buffer (in place)
//   add_ub     D = C + X             BasicMatmulTlaUbVisitor (C handed from L0C to the AIVs' UB)
//   bias       D = C + X[1, n]       row broadcast
//   leaky_relu D = LeakyRelu(C, 0.1)
//   sigmoid    D = Sigmoid(C)
//   silu       D = Silu(C)
//   tanh       D = (e^2c - 1) / (e^2c + 1), c = clamp(C, -8.8, 8.8): nine nodes in a TopologicalVisitor
enum class Example : uint8_t { add, add_ub, bias, leaky_relu, sigmoid, silu, tanh };
inline constexpr std::array kExamples = {Example::add,        Example::add_ub,  Example::bias,
                                         Example::leaky_relu, Example::sigmoid, Example::silu,
                                         Example::tanh};
inline std::string_view example_name(Example e) {
    switch (e) {
        case Example::add:
            return "add";
        case Example::add_ub:
            return "add_ub";
        case Example::bias:
            return "bias";
        case Example::leaky_relu:
            return "leaky_relu";
        case Example::sigmoid:
            return "sigmoid";
        case Example::silu:
            return "silu";
        case Example::tanh:
            return "tanh";
    }
    return "?";
}

struct ExampleShape {
    uint32_t m = 0, n = 0, k = 0;
};

// Row-major host data: a (m x k), b (k x n), x the bias example's n-element row (empty for the others), and
// d the m x n contents of D before the launch (add and add_ub read X from there, in place, as the example
// programs do; for the others it is the judge's never-written sentinel).
struct ExampleData {
    std::vector<float> a, b, x, d;
};

struct ExampleRun {
    hw::Report report;
    SyncSequences sync;         // when config.keep_trace
    std::vector<float> d;       // m x n, read back after the launch
    uint32_t compute_length;    // the example's computeLength (elements per UB slot)
    uint32_t block_dim;         // AI cores launched
    uint32_t tiles_m, tiles_n;  // L1 blocks of the grid (256 x 256)
};

// Runs upstream's kernel of `e` as the example program does (its tile shapes, block scheduler choice,
// computeLength rule and EVG Arguments), on `block_dim` AI cores of an Ascend950 model reset with `config`.
[[gnu::visibility("default")]] ExampleRun run_example_950(Example e, const ExampleShape& s,
                                                          const ExampleData& data, uint32_t block_dim,
                                                          const hw::Config& config);

// Whether the library's kernel code was built by a compiler that evaluates arguments left to right, as
// Bisheng does (acl/kernel_compiler.hpp): where upstream's EVG places its UB buffers depends on it.
[[gnu::visibility("default")]] bool examples_950_left_to_right();

}  // namespace evg::upstream
