// Evaluates a problem on whole matrices: the GEMM (gemm.hpp), then every node reachable from the root over
// the full M x N, each node's value rounded to its element type after every instruction the hardware issues
// (functors.hpp). What each node computes (docs/evg-semantics.md §2):
//
//   AccLoad          C (already rounded to ElementC)
//   AuxLoad          X[i, j] of the named M x N tensor (element (i, j) at i * row_stride + j)
//   AuxStore         writes its input to the named tensor (only the M x N region); value = its input
//   Cast             round_to(ElementTo, x, mode)       (numeric.hpp; CAST_NONE = RINT when inexact)
//   Compute          apply_functor(fn, ElementCompute, inputs, scalars)
//   RowBroadcast     v[0, j]  of a (1, N) tensor        ColBroadcast   v[i, 0] of an (M, 1) tensor
//   ScalarBroadcast  v[0, 0]  of a (1, 1) tensor
//   RowReduce        out[0, j] = init[0, j] (+) (x[0,j] (+) x[1,j] (+) ... (+) x[M-1,j])
//   ColReduce        out[i, 0] = init[i, 0] (+) (x[i,0] (+) x[i,1] (+) ... (+) x[i,N-1])
//   ScalarReduce     out[0, 0] = init[0, 0] (+) (x[0,0] (+) x[0,1] (+) ... (+) x[M-1,N-1])  (row-major)
//                    value of every reduce = its input (the node passes its tile on)
//
// (+) is the reduce functor: Add rounded to the element type after every step, Max or Min (values.hpp). The
// order shown is one tile's in-UB reduction followed by the GM atomic into the user-initialised output.
// On the device the atomics of several tiles land in any order, so an Add reduction is bit-exact only for
// exact-friendly data; Max and Min are order-free.
//
// Output tensors start from the caller's buffer of the same name when Inputs has one (the user's
// initialisation: 0 for sums, lowest() for max), else from zero bytes; everything outside the written region
// (padding columns of a strided tensor) keeps those contents. A load or broadcast of an output tensor reads
// those initial contents (per tile, LOAD runs before STORE and tiles do not overlap). Several writers of one
// tensor apply in evaluation order (inputs of a node before the node, in input order, each node once).
#pragma once
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "evg/graph/graph.hpp"
#include "evg/oracle/host_tensor.hpp"
#include "evg/oracle/values.hpp"

namespace evg::oracle {

// Host buffers by name: "A" (m x k, row-major), "B" (k x n, row-major), every input tensor of the graph, and
// optionally the initial contents of output tensors.
using Inputs = std::map<std::string, HostTensor, std::less<>>;

struct NodeValue {
    DType dtype = DType::f32;
    Values values;           // M x N, each entry a value of dtype (0 x 0 when released)
    bool evaluated = false;  // false for nodes the root does not reach (the visitor never runs them)
    bool released = false;   // evaluated, but its values were let go after its last consumer (keep_values)
};

struct OracleResult {
    std::map<std::string, HostTensor, std::less<>> outputs;  // every output tensor of the graph, whole buffer
    NodeValue c;                                             // the GEMM result, of ElementC
    std::vector<NodeValue> nodes;                            // per graph node, in graph order
    std::size_t live_values_peak = 0;  // the most node values held at once (all computed ones without keep)

    // The output tensor `name`; throws evg::Error naming the outputs when there is none. On a temporary
    // result (`evaluate(p, in).output("D")`) it returns a copy, so the tensor cannot dangle.
    const HostTensor& output(std::string_view name) const&;
    HostTensor output(std::string_view name) && {
        return static_cast<const OracleResult&>(*this).output(name);
    }
};

// Throws evg::Error (with the node index and kind) when the problem cannot be evaluated: a missing or too
// small buffer, a tensor of the wrong shape or type, a node whose inputs do not have the element type it
// expects, a cycle, a functor without an integer instruction on integer data. It does not enforce the arch
// rules of lib/graph's validate() (e.g. bf16 arithmetic on AtlasA2 is computed as on Ascend950).
//
// `keep_values` (one flag per graph node, or empty for all): the values of a node not flagged are released
// once every node that reads it has been computed, so a long chain holds a few M x N matrices at a time
// instead of one per node (a 700-node chain at 256 x 512 held 1.4 GB of long doubles). Outputs, the GEMM
// result and every `evaluated` flag are the same either way.
OracleResult evaluate(const graph::Problem& problem, const Inputs& inputs,
                      const std::vector<bool>& keep_values = {});

// OracleResult::live_values_peak of evaluate(problem, ..., keep_values), without evaluating: for an estimate
// of the oracle's memory before a run. A malformed graph counts every node.
std::size_t peak_live_values(const graph::Problem& problem, const std::vector<bool>& keep_values);

}  // namespace evg::oracle
