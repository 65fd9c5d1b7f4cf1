// The rules that compare a run's outputs with the oracle's, and two runs with each other:
//   * exact-friendly data bit-exact; order-dependent Add reductions held to the summation bound; outputs
//   after
//     an overflowing Silu/Sigmoid not compared; otherwise oracle::plan_comparison;
//   * the sentinel (data.hpp): which elements of an AuxStore's output the kernel never wrote, and which
//   padding
//     elements it wrote.
// judge() (judge.hpp) applies them; they are public for the property suite's run-vs-run properties and tests.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "evg/graph/graph.hpp"
#include "evg/graph/run.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/verify/verdict.hpp"

namespace evg::verify {

// Exact-friendly means every sum is exact in any order: the data are small integers (`exact_data`, from
// CaseData) and every evaluated Add reduction's inputs are integers whose absolute sum the element type holds
// exactly.
bool exact_friendly(bool exact_data, const graph::Problem& p, const oracle::OracleResult& golden);

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
// output's content before the run: the identity 0 (make_case_data leaves it so).
std::string check_sum_bound(const graph::Problem& p, const oracle::OracleResult& golden, int writer,
                            const graph::Tensor& t, const std::vector<uint8_t>& got);

// The Silu and Sigmoid nodes that see an input below -ln(max finite) of their ElementCompute: e^-x overflows
// there, and the library routine's x / (1 + inf) = -0 or 1 / (1 + inf) = 0 is a correct device result, while
// the oracle rounds the exact, tiny (often subnormal) value. tolerance.hpp states the bound's domain ("valid
// while e^-x does not overflow ElementCompute"); outside it the two differ absolutely by less than the
// smallest normal, but a later Sqrt, Div or Reciprocal turns that into NaN against -0 or -inf against a
// finite value. The oracle does not model the routine there, so outputs that depend on such a node are not
// compared (the case still runs every checker).
std::vector<bool> overflow_domain_nodes(const graph::Problem& p, const oracle::OracleResult& golden);

// The nodes whose oracle values the judge reads besides the outputs: the input of every Add reduction
// (exact_friendly, check_sum_bound) and the inputs of every Silu and Sigmoid (overflow_domain_nodes). Pass it
// to oracle::evaluate as keep_values so that a long graph's oracle holds a few matrices, not one per node;
// those functions throw evg::Error if a value they need was released.
std::vector<bool> values_the_judge_reads(const graph::Problem& p);

// Whether `node` or any node it reads (transitively) is in `set` (one flag per node).
bool depends_on(const graph::Graph& g, int node, const std::vector<bool>& set);

// Elements [col_begin, col_end) of rows [row_begin, row_end) of a tensor.
struct ElementRange {
    int64_t row_begin = 0, row_end = 0, col_begin = 0, col_end = 0;
    friend bool operator==(const ElementRange&, const ElementRange&) = default;
};

// The elements of `t`'s written region (rows x cols at its row stride) that still hold
// sentinel_bits(t.element) in `got` while `want` (the oracle) holds something else: never written.
// Consecutive rows with the same column ranges are merged.
std::vector<ElementRange> unwritten_elements(const graph::Tensor& t, const std::vector<uint8_t>& got,
                                             const oracle::HostTensor& want);
// The padding elements (columns cols..row_stride-1 of every row but the last) that no longer hold the
// sentinel.
std::vector<ElementRange> written_padding(const graph::Tensor& t, const std::vector<uint8_t>& got);

// "D[3, 17..31] was never written" per range (`what`: "was never written"), at most `max_lines` lines, then
// "(N more ranges; E elements in all)".
std::string describe_ranges(const std::string& tensor, const std::vector<ElementRange>& ranges,
                            const std::string& what, std::size_t max_lines = 4);

// Every written output of `run` against the oracle, into `out` (the Tags missing_output, unwritten_output,
// padding_written, output_mismatch; worst_ulp and not_compared): an output missing from the run is
// missing_output; with `sentinel` (the outputs started as make_case_data leaves them) the never-written
// elements of an AuxStore's output are unwritten_output and are then compared as if written right (so that
// output_mismatch lists only wrong written values), and padding that lost the sentinel is padding_written; an
// output that depends on an overflow-domain node is not compared; an order-dependent Add reduction is held to
// check_sum_bound; every other output to oracle::plan_comparison(p, name, exact). An output of
// `not_judged` (JudgeOptions::values_not_judged) is checked for being written and not compared.
void compare_outputs(const graph::Problem& p, const graph::ModelRun& run, const oracle::OracleResult& golden,
                     bool exact, bool sentinel, Verdict& out,
                     const std::map<std::string, std::string>& not_judged = {});

// Two runs of one problem (the property suite's invariance and metamorphic properties) agree bit for bit on
// every written output outside order-dependent Add reductions, and those stay within the summation bound of
// the oracle. The findings (Tag runs_differ; output_mismatch for a reduction outside the bound).
Verdict compare_runs(const graph::Problem& p, const graph::ModelRun& a, const graph::ModelRun& b,
                     const oracle::OracleResult& golden, bool exact);

}  // namespace evg::verify
