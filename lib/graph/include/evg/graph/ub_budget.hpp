// How much UB a runtime graph needs: maps a Graph onto the one UB accounting function
// (catlass/epilogue/fusion/ub_accounting.hpp) that the EVG library also uses.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "catlass/epilogue/fusion/ub_accounting.hpp"
#include "evg/graph/graph.hpp"
#include "evg/thousands.hpp"

namespace evg::graph {

using UbNodeBuffers = Catlass::Epilogue::Fusion::UbAccounting::NodeBuffers;

// One entry per node, in node order (unreachable nodes included: they still carve UB).
std::vector<UbNodeBuffers> ub_node_buffers(const Graph& g);

struct UbBudget {
    uint32_t compute_length = 0;
    uint64_t bytes_per_element = 0;   // per set, per element of computeLength
    uint64_t bytes_per_set = 0;       // one callbacks set
    uint64_t base = 0;                // offset of the first set: 0 (GM path) or L0C_SIZE/2 (UB path)
    uint64_t end = 0;                 // base + 2 * bytes_per_set
    uint32_t ub_size = 0;             // the arch's UB_SIZE
    uint32_t max_compute_length = 0;  // largest multiple of 32 that fits
    bool fits() const { return end <= ub_size; }
};

UbBudget ub_budget(const Graph& g, ArchId arch, WorkspacePath path, uint32_t compute_length);
inline UbBudget ub_budget(const Problem& p) {
    return ub_budget(p.graph, p.arch, p.path, p.compute_length);
}

// The largest computeLength (a multiple of 32) with which the graph fits the arch's UB; 0 if none.
uint32_t max_compute_length(const Graph& g, ArchId arch, WorkspacePath path);

// "computeLength 16384 needs 196,608 B of UB per buffer set x 2 sets = 393,216 B; AtlasA2 has 196,608 B
//  (the largest computeLength that fits is 8192)"
std::string ub_overflow_message(const UbBudget& b, ArchId arch, WorkspacePath path);

using evg::thousands;  // 196608 -> "196,608"

}  // namespace evg::graph
