// rapidcheck generators of Specs (spec.hpp) with domain-aware shrinks, and the case data.
//
// Shrinking is entirely ours (shrinkRecur over shrink_candidates): the domain shrinks first (bypass a node,
// collapse a node's subgraph into an AuxLoad, every dtype to float, halve M/N/K, snap M/N/K to tile
// multiples, every round mode to RINT, one core, in-order scheduler), then deletion of gene chunks, then
// each field of each gene towards 0. Every candidate strictly simplifies, so shrinking terminates.
#pragma once
#include <rapidcheck.h>

#include <vector>

#include "evg/oracle/evaluate.hpp"
#include "evg/props/spec.hpp"

namespace evg::props {

struct GenConfig {
    int max_genes = 8;        // node genes per graph (the decoded graph adds casts and the root store)
    bool both_archs = true;   // else AtlasA2 only
    bool arch_tiles = false;  // also the arch's big L1 tile (slow: long runs only)
    int max_tiles = 2;        // shapes reach about max_tiles tiles per dimension
    int float_share = 35;     // percent of cases on Float data
};

rc::Gen<Spec> spec_gen(const GenConfig& cfg = {});
rc::Gen<Case> case_gen(const GenConfig& cfg = {});

// The simpler Specs rapidcheck tries, most aggressive first.
std::vector<Spec> shrink_candidates(const Spec& s);

// Domain shrinks on their own (also used by tests).
Spec bypass_gene(const Spec& s, std::size_t i);    // consumers of gene i read its first input instead
Spec collapse_gene(const Spec& s, std::size_t i);  // gene i becomes an AuxLoad of its decoded type

// Host data of a case: "A" (m x k), "B" (k x n), every input tensor of the graph ((rows - 1) x
// row_stride + cols elements), and the initial contents of every output (0 for Add reductions, lowest for
// Max, largest for Min, zero bytes for stores). Exact: A and B integers within exact_gemm_range (so C is
// exact), tensors small integers in [-4, 4]. Float: A and B as above (C stays exact, so differences come from
// the epilogue), tensors from fill_special plus, for float tensors, values that overflow half or bfloat16 on
// a down-cast.
oracle::Inputs make_inputs(const Case& c);

}  // namespace evg::props
