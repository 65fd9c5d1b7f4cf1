// The exact UB peak of a run (props/README.md, "The UB peak rule"); judge() requires the measured peak to
// equal it.
#pragma once
#include <cstdint>

#include "evg/graph/graph.hpp"
#include "evg/oracle/evaluate.hpp"

namespace evg::verify {

// What the UB peak must be, exactly. The peak is the highest UB byte any AIV touches (every instruction's
// operand extent). BlockEpilogue carves two callbacks sets back to back from the base, each node's buffers in
// carve order (post-order for a tree, node order for a DAG); an AIV's tile loop alternates the sets per outer
// iteration, restarting at set 0 for every L1 block, so set 1 is touched only when some AIV runs at least two
// outer iterations in one block. Within a used set, per tile (R rows, C columns, pitch A = RoundUp(C, 32)
// elements of e bytes), from the nodes' code and the instructions' extents:
//   Compute, Cast      every vector instruction runs over the tile's lanes, min(R*A, CL)*e (over
//   computeLength,
//                      CL*e, with `whole_cl`: upstream's behaviour,
//                      UpstreamHazards::compute_over_compute_length);
//   RowReduce          DataCopy + combine over A elements: A*e;
//   ColReduce          its second buffer (ubWork) serves as ReduceSum's 32-byte scratch: CL*e + 32;
//   ScalarReduce       ubWork[0] receives the result, ubWork[32 B..64 B) is the scratch: CL*e + 64;
//   AuxLoad, AccLoad   DataCopyPad of R blocks at pitch A*e: (R-1)*A*e + RoundUp(C*e, 32);
//   RowBroadcast       one row, then R-1 DataCopies of A elements: R*A*e (R > 1), RoundUp(C*e, 32) (R = 1);
//   Col/ScalarBroadcast  the load (RoundUp(R*e, 32), 32) and a Duplicate of C per row: (R-1)*A*e + C*e;
// plus what consumers read: a Compute or Cast reads its inputs over its lanes, a RowReduce R*A*e,
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

UbExpectation ub_expectation(const graph::Problem& p, const oracle::OracleResult& golden,
                             bool whole_cl = false);

}  // namespace evg::verify
