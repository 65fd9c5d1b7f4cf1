// How strictly a result can be held to the oracle: the ULP bounds of the functors whose device result is
// not defined to the bit, and the comparison a given output tensor of a problem deserves.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "evg/graph/graph.hpp"
#include "evg/oracle/compare.hpp"

namespace evg::oracle {

// The functors computed with transcendental functions or with instructions whose precision is unpublished
// (docs/hardware-model.md §6.3): Exp, Silu, Sigmoid, Rsqrt, RsqrtFast, Sqrt, Reciprocal, Div.
bool is_transcendental(graph::Functor fn);

// The largest distance, in ULPs of ElementCompute, that a correct model may be from the oracle for one
// Compute node of this functor with `inputs` inputs whose inputs match the oracle bit for bit. 0 for the
// exact functors. The reasoning (README.md has the table):
//   Exp, Sqrt, Reciprocal: one instruction. A model computing in float within 1 float ULP of the exact
//     result, then rounding once to ElementCompute, can land one value away from the oracle's correctly
//     rounded result only when the exact result is that close to a rounding boundary: 1.
//   Div: 1 per division; a difference of b ULPs in the dividend of the next division becomes at most 2b
//     (the ULP's relative size varies 2x within a binade), plus that division's own 1: 2^(inputs-1) - 1.
//   RsqrtFast: one instruction of unpublished precision; a model doing sqrt then divide rounds twice: 2.
//   Rsqrt (Sqrt, then 1/x): 1 from Sqrt, doubled through the reciprocal, plus the reciprocal's own 1: 3.
//   Sigmoid (Muls -1, Exp, Adds +1, Divs 1/x): Muls is exact; Exp 1; Adds keeps it at 1 (1 + e^-x is at
//     least e^-x, so its ULP is at least as large); 1/x doubles it and adds its own 1: 3.
//   Silu (library routine, oracle rounds x/(1+e^-x) once): the Sigmoid chain's 3 plus the final multiply
//     or divide by x: 4. Valid while e^-x does not overflow ElementCompute (x > -11 for half).
std::uint64_t functor_ulp_bound(graph::Functor fn, int inputs);

struct ComparePlan {
    CompareOptions options;
    std::string reason;  // one sentence: why this mode
};

// The strictest comparison the oracle can defend for output tensor `output` of the problem:
//  * bit-exact when no transcendental functor feeds the output and nothing order-dependent does either (a
//    GEMM with k > 1 or an Add reduction), unless `exact_friendly_data` makes every sum exact (data.hpp);
//  * within the functor's ULP bound when exactly one transcendental node feeds the output, its own inputs
//    qualify for bit-exact, and it reaches the writer (an AuxStore, or a Max/Min reduction) through nothing
//    but Casts to a float type no wider than its own and pass-through nodes;
//  * Catlass's rule (rtol by K) otherwise.
// Throws evg::Error when the graph has no such output.
ComparePlan plan_comparison(const graph::Problem& problem, std::string_view output, bool exact_friendly_data);

}  // namespace evg::oracle
