// libFuzzer target epilogue_mutation (fuzz/README.md): the input chooses a valid problem through the property
// generators (small shapes, both chips, both workspace paths) and one or two sync mutations among the
// mutation points of its real BlockEpilogue / kernel run. Invariant: the checkers' verdict agrees with the
// explorer's happens-before graph on the mutated trace, and a mutation the explorer proves harmless runs
// clean with the unmutated outputs under adversarial schedules. On a violation it prints
//   EVG-FINDING: <verdict>:<kinds> <node kind> <operator> <first divergent instruction>
// and aborts.
//
// Input layout (missing bytes read as 0): bytes 0-7 the rapidcheck Random seed (little endian), byte 8 the
// generator size (mod 64), byte 9 flags (bit 0 Ascend950, bit 1 UB path on Ascend950, bit 2 a second
// mutation), bytes 10-13 and 14-17 the indices (mod the number of points) of the first and second mutation.
#include <cstdint>
#include <string>

#include "evg/fuzz/mutation.hpp"
#include "evg/fuzz/sync_table.hpp"
#include "finding.hpp"

namespace {

using namespace evg;

uint64_t read_le(const uint8_t* data, size_t size, size_t at, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= static_cast<uint64_t>(at + i < size ? data[at + i] : 0) << (8 * i);
    return v;
}

std::string kinds(const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& k : v) s += (s.empty() ? "" : ",") + k;
    return s.empty() ? "none" : s;
}

[[noreturn]] void finding(const std::string& signature, const fuzz::Subject& s,
                          const std::vector<hw::SyncMutation>& plan, const std::string& detail) {
    fuzz::evg_fuzz_finding(signature,
                           "problem: " + s.name + "\nmutation: " + hw::to_string(plan) + "\n" + detail);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const uint64_t seed = read_le(data, size, 0, 8);
    const int gen_size = static_cast<int>(read_le(data, size, 8, 1) % 64);
    const uint64_t flags = read_le(data, size, 9, 1);
    const hw::ArchId arch = flags & 1 ? hw::ArchId::Ascend950 : hw::ArchId::AtlasA2;
    const bool ub = (flags & 2) != 0;
    const fuzz::Subject s = fuzz::generated_subject(seed, gen_size, arch, ub, true, "");
    const fuzz::Reference ref = fuzz::reference_run(s);
    // The generators only give valid problems, which the library runs clean.
    if (!ref.clean) finding("unmutated-not-clean", s, {}, ref.problem);
    if (ref.points.empty()) return 0;
    std::vector<hw::SyncMutation> plan = {ref.points[read_le(data, size, 10, 4) % ref.points.size()]};
    if (flags & 4) {
        const hw::SyncMutation& second = ref.points[read_le(data, size, 14, 4) % ref.points.size()];
        // Two rewrites of one sync call do not compose; the plan keeps the first.
        if (second.core != plan[0].core || second.n != plan[0].n) plan.push_back(second);
    }
    fuzz::ClassifyOptions opt;
    opt.adversarial = 2;
    opt.schedule_seed = seed | 1;
    const fuzz::Classification c = fuzz::classify(s, ref, plan, opt);
    const std::string where = fuzz::node_kind(s, ref, plan[0]) + " " + fuzz::plan_operator(plan) + " " +
                              (c.divergent_instr.empty() ? std::string("-") : c.divergent_instr);
    switch (c.verdict) {
        case reports::SyncVerdict::caught:
        case reports::SyncVerdict::harmless:
        case reports::SyncVerdict::undecided:  // the explorer gave up: no verdict to compare with
            return 0;
        case reports::SyncVerdict::unapplied:
            // A single point that mutation_points listed must apply; with two, the first may remove the
            // second's call.
            if (plan.size() == 1) finding("unapplied " + where, s, plan, c.detail);
            return 0;
        case reports::SyncVerdict::output_only:
            finding("output-only:" + kinds(c.explorer) + " " + where, s, plan, c.detail);
        case reports::SyncVerdict::missed:
            finding("missed:" + kinds(c.explorer) + " " + where, s, plan, c.detail);
        case reports::SyncVerdict::false_alarm:
            finding("false-alarm:" + kinds(c.checkers) + " " + where, s, plan, c.detail);
        case reports::SyncVerdict::divergent:
            finding("divergent " + where, s, plan, c.detail);
    }
    return 0;
}
