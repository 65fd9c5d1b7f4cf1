// The seed examples (seed 000 L1 lineage, seed 003 MASTER) as graph problems: the problems the example suite
// of the catalogue runs, for other consumers (the sync mutation table of fuzz/mutation).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "evg/graph/graph.hpp"

namespace evg::conformance {

struct ExampleProblem {
    std::string id;     // the catalogue id: "Example/<Arch>/<seed>_<name>/<path>/<shape>/CL<n>"
    std::string name;   // "seed003_bias"
    std::string dtype;  // "half" (seed 000) or "float" (seed 003)
    graph::Problem problem;
    uint64_t data_seed = 71;
};

// Every (example, arch, shape, workspace path) the example suite runs. With `small`, one small shape instead
// of the examples' awkward ones (m=32 n=64 k=32: one tile of the 32x64x64 L1 tile), on every arch and path
// the example has.
std::vector<ExampleProblem> example_problems(bool small = false);

}  // namespace evg::conformance
