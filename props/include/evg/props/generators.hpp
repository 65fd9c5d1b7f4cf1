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
    // Percent of cases whose genes are traversal_genes(): a tree whose multi-input Computes are
    // non-commutative and take distinct subtrees, a third of them made a DAG (the static corpus).
    int traversal_share = 0;
};

rc::Gen<Spec> spec_gen(const GenConfig& cfg = {});
rc::Gen<Case> case_gen(const GenConfig& cfg = {});

// Genes that test a visitor's traversal (argument order, one visit per node): a random tree of up to three
// multi-input Computes, each a non-commutative functor (Sub, Div, Prelu on Ascend950) or Max / Min, with two
// or three inputs (Prelu two) that are distinct subtrees: leaves (AccLoad, AuxLoad, Row/Col/ScalarBroadcast),
// some under a scalar Compute (Muls, Adds, Maxs, Mins), or further multi-input Computes. All in float or all
// in half. With `dag`, a last Sub(root, S) reads the root's first input S again, in the other argument
// position, so that the graph is a DAG whose shared node feeds two non-commutative consumers. Draws with
// `*gen`, so it runs inside a generator (rc::gen::exec).
std::vector<Gene> traversal_genes(ArchId arch, bool dag);

// The simpler Specs rapidcheck tries, most aggressive first.
std::vector<Spec> shrink_candidates(const Spec& s);

// Domain shrinks on their own (also used by tests).
Spec bypass_gene(const Spec& s, std::size_t i);    // consumers of gene i read its first input instead
Spec collapse_gene(const Spec& s, std::size_t i);  // gene i becomes an AuxLoad of its decoded type

// The host data of a case: the inputs of verify::make_case_data(c.problem, c.data, c.data_seed, c.sign)
// (outputs start as the sentinel, reduce outputs as the reduce's identity).
inline oracle::Inputs make_inputs(const Case& c) {
    return verify::make_case_data(c.problem, c.data, c.data_seed, c.sign).inputs;
}

}  // namespace evg::props
