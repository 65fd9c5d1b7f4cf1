// The rules that decide whether one run of a problem on the model conforms, shared by the property suite
// (props/tests/model_props_test.cpp) and the conformance catalogue (conformance/src/model_case.cpp):
//   * the outputs against the oracle (exact-friendly data bit-exact, order-dependent Add reductions held to
//     the summation bound, outputs after an overflowing Silu/Sigmoid not compared, otherwise
//     oracle::plan_comparison), and two runs of one problem against each other;
//   * SetFlag/WaitFlag balance per (core, HardEvent, id) in the trace;
//   * the exact UB peak of a run (props/README.md, "The UB peak rule").
// Everything takes the problem, the oracle's result on the run's inputs and the run itself; nothing here
// depends on how the case was generated.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "evg/graph/graph.hpp"
#include "evg/graph/run.hpp"
#include "evg/hw/instruction.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/props/spec.hpp"

namespace evg::props {

// ---- outputs against the oracle (property 1) ----

// Exact-friendly means every sum is exact in any order: the data are small integers (DataMode::Exact) and
// every evaluated Add reduction's inputs are integers whose absolute sum the element type holds exactly.
bool exact_friendly(DataMode data, const graph::Problem& p, const oracle::OracleResult& golden);

// The node that writes output tensor `tensor` and is evaluated (reachable from the root), or -1.
int writer_of(const graph::Problem& p, const oracle::OracleResult& golden, const std::string& tensor);

// The output tensors some evaluated node writes, in graph.tensors order.
std::vector<const graph::Tensor*> written_outputs(const graph::Problem& p,
                                                  const oracle::OracleResult& golden);

// An Add reduction of data that is not exact-friendly: its result depends on the order in which the tiles'
// partial sums meet (in UB, then by GM atomics in any order), so the oracle's one order is not the device's.
bool order_dependent(const graph::Problem& p, int writer, bool exact);

// The summation-order bound for the order-dependent Add reduction `writer` that writes `t`, element by
// element; the findings (at most 8 lines), empty when every element is within it. With S the sum of the
// absolute values of an element's n terms (the initial value included), any order of rounded additions lands
// within n*u*S of the exact sum (u: the unit roundoff of the element type), so two orders differ by at most
// 2*n*u*S; the terms themselves may differ from the oracle's by Catlass's rtol (they can come from
// transcendental functors), which adds rtol*S. NaN-aware: a NaN among the terms, or both infinities, must
// give NaN; one infinity must give that infinity; when the finite terms could overflow (S > max finite) in
// some order, every result is possible and the element is not held to a value. The initial value is the
// output's content before the run: the identity 0 (props::make_inputs and the catalogue leave it so).
std::string check_sum_bound(const graph::Problem& p, const oracle::OracleResult& golden, int writer,
                            const graph::Tensor& t, const graph::ModelRun& run);

// The Silu and Sigmoid nodes that see an input below -ln(max finite) of their ElementCompute: e^-x overflows
// there, and the library routine's x / (1 + inf) = -0 or 1 / (1 + inf) = 0 is a correct device result, while
// the oracle rounds the exact, tiny (often subnormal) value. tolerance.hpp states the bound's domain ("valid
// while e^-x does not overflow ElementCompute"); outside it the two differ absolutely by less than the
// smallest normal, but a later Sqrt, Div or Reciprocal turns that into NaN against -0 or -inf against a
// finite value. The oracle does not model the routine there, so outputs that depend on such a node are not
// compared (the case still runs every checker).
std::vector<bool> overflow_domain_nodes(const graph::Problem& p, const oracle::OracleResult& golden);

// Whether `node` or any node it reads (transitively) is in `set` (one flag per node).
bool depends_on(const graph::Graph& g, int node, const std::vector<bool>& set);

struct OutputComparison {
    std::string mismatch;  // the findings, one or more lines per output; empty when every output conforms
    int not_compared = 0;  // outputs after an overflowing Silu/Sigmoid (overflow_domain_nodes)
    double worst_ulp = 0;  // the largest ULP distance oracle::compare measured
};

// Every written output of `run` against the oracle: an output missing from the run is a mismatch; one that
// depends on an overflow-domain node is not compared; an order-dependent Add reduction is held to
// check_sum_bound; every other output to oracle::plan_comparison(p, name, exact).
OutputComparison compare_outputs(const graph::Problem& p, const graph::ModelRun& run,
                                 const oracle::OracleResult& golden, bool exact);

// Two runs of one problem (properties 6 and 7) agree bit for bit on every written output outside
// order-dependent Add reductions, and those stay within the summation bound of the oracle. The findings.
std::string compare_runs(const graph::Problem& p, const graph::ModelRun& a, const graph::ModelRun& b,
                         const oracle::OracleResult& golden, bool exact);

// ---- flags (property 3) ----

// SetFlag/WaitFlag counts per "core<N> <EVENT>(id)" from the trace; one line per unbalanced triple.
std::string unbalanced_flags(const std::vector<hw::TraceEntry>& trace);

// ---- the UB peak (property 2) ----

// What the UB peak must be, exactly. The peak is the highest UB byte any AIV touches (every instruction's
// operand extent). BlockEpilogue carves two callbacks sets back to back from the base, each node's buffers in
// carve order (post-order for a tree, node order for a DAG); an AIV's tile loop alternates the sets per outer
// iteration, restarting at set 0 for every L1 block, so set 1 is touched only when some AIV runs at least two
// outer iterations in one block. Within a used set, per tile (R rows, C columns, pitch A = RoundUp(C, 32)
// elements of e bytes), from the nodes' code and the instructions' extents:
//   Compute, Cast      every vector instruction runs over computeLength: the buffer's end, CL*e;
//   RowReduce          DataCopy + combine over A elements: A*e;
//   ColReduce          its second buffer (ubWork) serves as ReduceSum's 32-byte scratch: CL*e + 32;
//   ScalarReduce       ubWork[0] receives the result, ubWork[32 B..64 B) is the scratch: CL*e + 64;
//   AuxLoad, AccLoad   DataCopyPad of R blocks at pitch A*e: (R-1)*A*e + RoundUp(C*e, 32);
//   RowBroadcast       one row, then R-1 DataCopies of A elements: R*A*e (R > 1), RoundUp(C*e, 32) (R = 1);
//   Col/ScalarBroadcast  the load (RoundUp(R*e, 32), 32) and a Duplicate of C per row: (R-1)*A*e + C*e;
// plus what consumers read: a Compute or Cast reads its inputs over CL (the buffer's end), a RowReduce R*A*e,
// a ScalarReduce R*A*e (R > 1) or C*e, a ColReduce (R-1)*A*e + C*e, of the buffer that holds the value
// (AuxStores and reduces pass their input's tile on). Nodes never visited touch nothing. On the UB workspace
// path the C tile sits below the base at each AIV's UB byte 0 with pitch RoundUp(cols, 32): Fixpipe writes
// (rows-1)*pitch*e + cols*e, and AccLoad(UB)'s consumers read from a tile's first element as above.
// The result is a bracket lo <= peak <= hi, left for a node the rule would not cover; today the rule covers
// every node kind and lo == hi always (both users require exact()).
struct UbExpectation {
    uint64_t lo = 0, hi = 0;  // lo <= peak <= hi; exact when lo == hi
    bool exact() const { return lo == hi; }
};

UbExpectation ub_expectation(const graph::Problem& p, const oracle::OracleResult& golden);

}  // namespace evg::props
