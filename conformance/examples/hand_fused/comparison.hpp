// EVG against hand-fused, one seed example case at a time (conformance/examples/hand_fused/README.md).
//
// A case runs the example twice on the model, on the same data, chip, shape, computeLength, Catlass kernel
// and AIC matmul: once with the EVG's BlockEpilogue (the seed's graph, as in
// seed000/seed003_examples_test.cpp) and once with the hand-fused epilogue (hand_epilogues.hpp). Both
// launches keep their trace with accesses and go through the cycle model (evg/hw/timing.hpp). The case holds
// when
//   - both reports have no violation at all (warnings included) and lib/verify's judge_report on each report
//     and its trace finds nothing (flag balance included);
//   - the EVG run passes the examples' judge against the oracle (UB peak rule included), the hand run the
//   same
//     judge without the UB peak rule (its buffers are its own);
//   - every output of the hand run is bit-identical to the EVG run's.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace evg::hand_fused {

// The cycle model's figures for one launch.
struct Cycles {
    uint64_t total = 0;  // launch to last instruction (timing::Summary::total)
    uint64_t epilogue =
        0;  // the busiest AIV's time with MTE2, V or MTE3 busy (the union of their busy spans)
    uint64_t aiv_v_busy = 0;     // V busy, summed over the AIVs
    uint64_t aiv_mte2_busy = 0;  // MTE2 busy, summed over the AIVs
    uint64_t aiv_mte3_busy = 0;  // MTE3 busy, summed over the AIVs
    uint64_t v_barriers = 0;     // PipeBarrier<PIPE_V> issued by the AIVs
    uint64_t roofline = 0;       // the busiest (core, pipe)'s busy time
    std::string roofline_pipe;   // "AIV0.1 MTE2"
    uint64_t instructions = 0;   // trace entries
};

struct Comparison {
    std::string example;  // the gtest suite of the example: "Seed000_32_Add"
    std::string config;   // "AtlasA2_half_m65_n100_k40_CL256"
    uint32_t compute_length = 0;
    Cycles evg, hand;
    std::vector<std::string> problems;  // empty when every check held
    bool ok() const { return problems.empty(); }
    double evg_over_hand() const;      // evg.total / hand.total
    double evg_over_roofline() const;  // evg.total / evg.roofline
    double hand_over_roofline() const;
};

struct CaseSpec {
    std::string example, config;
    std::function<Comparison()> run;
};

// Every case, in a fixed order: the seed examples of conformance/examples over the examples' five shapes, and
// quantised matmul example 12 over four shapes with N = 128, K = 64 (its int8 BlockMmad fails on the
// examples' N tails, conformance/examples/README.md).
const std::vector<CaseSpec>& all_cases();

// "m65_n100_k40" shapes (example 12: "m65_n128_k64"), for the summary tables: the representative shape of
// each example at CL 256 and at the seed's own computeLength.
bool is_headline(const std::string& config);

}  // namespace evg::hand_fused
