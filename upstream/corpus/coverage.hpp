// The cells of upstream Catlass's configuration space that a corpus run or `check --catlass-root` covers
// (docs/upstream-coverage.md), and the covering schedule of the kernel configuration:
// - kernel x mmad family: BasicMatmulTlaVisitor (gm) or BasicMatmulTlaUbVisitor (ub), times each family of
//   block-mmad configurations (MmadPingpong with the unit flag; without it on one or two L0C stages; each
//   with and without L1 residency; MmadPingpongMutex; HF32 mode);
// - layouts: row- or column-major A, times B;
// - dtypes: A/B -> C;
// - node kinds, functor x arity (1 to kMaxArityCell inputs, the last standing for "that many or more"),
//   and the visitor (TreeVisitor; TopologicalVisitor, which every tree instance of two nodes or more also
//   runs as).
// A cell evgcheck's model cannot reach carries the reason (graph::kernel_config_unmodelled, or a type the
// draws do not make) and is listed as such, never counted as covered.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "evg/graph/graph.hpp"
#include "evg/props/spec.hpp"

namespace evg::upstream::corpus {

inline constexpr int kMaxArityCell = 4;

struct Cell {
    std::string dimension;  // "kernel x mmad", "layouts", "dtypes", "node kind", "functor x arity", "visitor"
    std::string name;       // "ub / pingpong uf res", "A:col B:row", "Div x 3", ...
    std::string unreachable;  // why the model cannot run it ("" when it can)
};

// Every cell, reachable or not, in a fixed order.
const std::vector<Cell>& all_cells();

// The cells a case (its problem, kernel configuration and graph) falls in; with `twin`, the case also runs
// as a TopologicalVisitor.
std::set<std::string> cells_of(const props::Case& c, bool twin);
// "dimension: name", the key of a cell in cells_of and in Coverage.
std::string cell_key(const Cell& cell);

// The kernel configuration of the d-th instance a run draws: the instances take the reachable kernel x mmad
// family cells and the layout pairs in turn (instance d: cell d mod F, layout pair (d + d / F) mod 4), so
// that any F consecutive instances cover every kernel x family cell and any 4 every layout pair. The
// kernel (GM or UB path) is the spec's before it is decoded (scheduled_ub_path); schedule_kernel sets the
// family, with stage counts and L0 K drawn at random (seeded by d) within graph::kernel_rules(). A family
// that breaks a rule for the problem (the unit flag on int8, two L0C stages of the large tile) is replaced by
// the next that does not.
bool scheduled_ub_path(uint64_t d);
// The spec of instance d before it is decoded: its kernel (scheduled_ub_path), what its family needs (no int8
// under the unit flag, the small tile under two L0C stages), and in every F instances one with int8 A and B
// (d mod F = 2, the first no-unit-flag cell) and one with half C (d mod F = 3), early so that a short run's
// cover graphs do not take their places.
void schedule_spec(props::Spec& spec, uint64_t d);
void schedule_kernel(props::Case& c, uint64_t d);
// The number of reachable kernel x mmad family cells (F above).
int kernel_family_cells();

// The block-mmad configuration families the model runs (the "kernel x mmad" cells without the kernel): each
// with a short name for case ids ("uf", "uf+res", "l0c1", "l0c1+res", "l0c2", "l0c2+res") and its
// configuration at the family's default stage counts and L0 K. The first is the default configuration.
struct MmadFamily {
    std::string name;  // "pingpong uf res", as the kernel x mmad cells name it
    std::string id;    // "uf+res"
    graph::KernelConfig config;
};
std::vector<MmadFamily> reachable_mmad_families();

// Cover cases: graphs that complete the functor x arity cells `drawn` leaves out (chance rarely draws a
// 4-input Mul or a 3-input Div). Each is a tree, a chain over C: %k = Compute F (%k-1, X, ...) with X loaded
// once per input, every cell one Compute, at most `per_graph` of them a graph, stored to D; float, Special
// data (NaN, infinities and values that overflow reach every functor). The first also takes a RowBroadcast
// and a Cast when the draws have none, and there is one when the draws have no tree. Instance numbers
// `first`, `first` + 1, ... take their kernel configurations from the covering schedule (schedule_kernel).
struct CoverCell {
    graph::Functor fn;
    int arity;
};
struct CoverGraph {
    props::Case c;
    std::vector<CoverCell> cells;  // the functor x arity cells its chain covers, in order
};
std::vector<CoverGraph> cover_cases(const std::vector<props::Case>& drawn, uint64_t first, int per_graph);
// The chain of `cells` (on the UB path with `ub`; with a Cast before the store, a RowBroadcast added in),
// Special data, two cores; its kernel configuration and seeds are the caller's. The shrink of a failing cover
// graph tries its cells one by one through it.
props::Case cover_case(const std::vector<CoverCell>& cells, bool ub, bool cast, bool row_broadcast);
inline constexpr int kCoverComputesPerGraph = 6;

// What a run covered: cases per cell.
class Coverage {
  public:
    void add(const props::Case& c, bool twin, int cases = 1);
    // Adds `cases` to each of the cells `keys` (cell_key), as add does for cells_of a case.
    void add_cells(const std::set<std::string>& keys, int cases);
    void merge(const Coverage& other);
    int cases(const std::string& key) const;
    // The summary: per dimension, the cells covered with their cases, those left out (reachable ones the
    // run did not draw) and those the model cannot reach, with why.
    std::string summary() const;
    // Reachable cells the run left out.
    std::vector<std::string> left_out() const;

  private:
    std::map<std::string, int> cases_;
};

}  // namespace evg::upstream::corpus
