// The node suite's cells that upstream Catlass has (evg/graph/implementation.hpp: its node kinds and
// functors, Ascend950 only), each as one graph: the upstream corpus compiles it against a checkout
// (upstream/corpus/corpus_gen.cpp, instance "conformance/<name>"), and `evgcheck conformance --catlass-root
// DIR` runs it at the suite's shapes of its path through upstream's kernel (upstream/conformance/). A node
// kind x dtype cell of the suite that upstream lacks has no entry: the report says "not in this Catlass".
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "evg/graph/graph.hpp"
#include "evg/verify/data.hpp"

namespace evg::conformance {

struct UpstreamShape {
    const char* name;  // as the node suite names it: "full", "tailN33", "tailM7", "tailM7N33"
    int64_t m, n, k;
};

struct UpstreamCell {
    std::string name;  // "AuxLoad/float/gm"
    std::vector<std::string>
        node_kinds;          // the matrix rows it tests ("AuxLoad" and "AuxStore" for load -> store)
    std::string dtype;       // the matrix column (a Cast's source type)
    graph::Problem problem;  // at [64, 128], on the 32x64x64 tile, computeLength kUpstreamCellCl
    verify::DataMode data = verify::DataMode::Exact;
    uint64_t data_seed = 1;
    std::vector<UpstreamShape>
        shapes;  // the suite's shapes of its path, each run at the compiled computeLength
};

// One computeLength for every cell: upstream takes it as a template argument, so each value is an instance
// more to compile; 96 splits a 97- or 128-column row into pieces and fits every cell's buffers.
inline constexpr uint32_t kUpstreamCellCl = 96;

// Every cell, in the node suite's order: AccLoad (GM and UB paths), AuxLoad/AuxStore, Cast (one graph per
// source type, every legal destination and mode), Compute (one graph per type, every functor upstream has),
// RowBroadcast. A visitor runs only what its root reaches, so a cell with many outputs sums its stores into
// one stored root (a Cast cell through each destination's sum cast to float): every output is written and
// judged.
std::vector<UpstreamCell> upstream_cells();

}  // namespace evg::conformance
