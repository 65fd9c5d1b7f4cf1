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
#include "evg/verify/data.hpp"

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

// The host data of a case: the inputs of verify::make_case_data(c.problem, c.data, c.data_seed) (outputs
// start as the sentinel, reduce outputs as the reduce's identity).
inline oracle::Inputs make_inputs(const Case& c) {
    return verify::make_case_data(c.problem, c.data, c.data_seed).inputs;
}

}  // namespace evg::props
