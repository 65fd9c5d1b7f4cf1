// libFuzzer target epilogue_mutation (fuzz/README.md): the input chooses a valid problem through the property
// generators (small shapes, both chips, both workspace paths) and one or two sync mutations among the
// mutation points of its real BlockEpilogue / kernel run. Invariant: the checkers' verdict agrees with the
// explorer's happens-before graph on the mutated trace (its hazards, and where each read takes its bytes from
// against the unmutated trace: a race-free reordering must show in the outputs or another checker), and a
// mutation the explorer proves harmless runs clean with the unmutated outputs under adversarial schedules. On
// a violation it prints
//   EVG-FINDING: <verdict>:<kinds> <node kind> <operator> <first divergent instruction>
// and aborts.
//
// Input layout (missing bytes read as 0): bytes 0-7 the rapidcheck Random seed (little endian), byte 8 the
// generator size (mod 64), byte 9 flags (bit 0 Ascend950, bit 1 UB path on Ascend950, bit 2 a second
// mutation), bytes 10-13 and 14-17 the indices (mod the number of points) of the first and second mutation.
// The libFuzzer binary's custom mutator redraws the mutation bytes three times in four and keeps the problem,
// whose generation and unmutated run are cached (the last 8 problems).
//
// Every decided input's patterns (fuzz::mutation_patterns: which operator in which component, the verdict,
// which checkers against which explorer findings) are counted; with EVG_FUZZ_PATTERNS=FILE the pattern table
// is written to FILE at exit and before a finding aborts. In the libFuzzer binary each pattern also sets one
// of libFuzzer's extra counters, so that an input reaching a new pattern is kept.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <list>
#include <string>

#include "evg/fuzz/mutation.hpp"
#include "evg/fuzz/sync_table.hpp"
#include "finding.hpp"
#include "pattern_table.hpp"

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
    fuzz::count_disagreement();
    fuzz::write_pattern_table_if_asked();
    fuzz::evg_fuzz_finding(signature,
                           "problem: " + s.name + "\nmutation: " + hw::to_string(plan) + "\n" + detail);
}

// The problems of the last inputs and their unmutated runs, by the bytes that choose the problem (0-9, flag
// bits 0-1): an input that changes only its mutations (what the custom mutator below does three times in
// four) reuses the generation and the reference run, half of an input's time. Both are deterministic in those
// bytes, so a cached entry is exactly what recomputing would give.
struct Problem {
    uint64_t seed = 0;
    int gen_size = 0;
    uint64_t arch_bits = 0;
    fuzz::Subject subject;
    fuzz::Reference ref;
};
constexpr size_t kCachedProblems = 8;

const Problem& problem_of(uint64_t seed, int gen_size, uint64_t arch_bits) {
    static std::list<Problem> cache;  // most recently used first
    for (auto it = cache.begin(); it != cache.end(); ++it)
        if (it->seed == seed && it->gen_size == gen_size && it->arch_bits == arch_bits) {
            cache.splice(cache.begin(), cache, it);
            return cache.front();
        }
    const hw::ArchId arch = arch_bits & 1 ? hw::ArchId::Ascend950 : hw::ArchId::AtlasA2;
    Problem p{seed,
              gen_size,
              arch_bits,
              fuzz::generated_subject(seed, gen_size, arch, (arch_bits & 2) != 0, true, ""),
              {}};
    p.ref = fuzz::reference_run(p.subject);
    cache.push_front(std::move(p));
    if (cache.size() > kCachedProblems) cache.pop_back();
    return cache.front();
}

}  // namespace

#ifdef EVG_LIBFUZZER
extern "C" {
size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed);
}
// Three times in four: keep the problem (bytes 0-9 and flag bits 0-1) and draw new mutations (the two indices
// and whether there is a second one); otherwise libFuzzer's own byte mutations, which change the problem too.
size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
    // Bytes past the layout mean nothing: inputs stay at most kLayout long.
    constexpr size_t kLayout = 18;
    if (seed % 4 == 0 || max_size < kLayout) return LLVMFuzzerMutate(data, size, std::min(max_size, kLayout));
    if (size < kLayout) std::memset(data + size, 0, kLayout - size);
    size = kLayout;
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    auto next = [&x] {
        x ^= x >> 29;
        x *= 0xBF58476D1CE4E5B9ull;
        x ^= x >> 32;
        return x;
    };
    switch (next() % 3) {
        case 0:  // a new first mutation
            for (size_t i = 10; i < 14; ++i) data[i] = static_cast<uint8_t>(next());
            break;
        case 1:  // a new second mutation, present
            data[9] |= 4;
            for (size_t i = 14; i < 18; ++i) data[i] = static_cast<uint8_t>(next());
            break;
        default:  // the second mutation on or off
            data[9] ^= 4;
            break;
    }
    return size;
}
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const uint64_t seed = read_le(data, size, 0, 8);
    const int gen_size = static_cast<int>(read_le(data, size, 8, 1) % 64);
    const uint64_t flags = read_le(data, size, 9, 1);
    const Problem& problem = problem_of(seed, gen_size, flags & 3);
    const fuzz::Subject& s = problem.subject;
    const fuzz::Reference& ref = problem.ref;
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
    // An undecided input has no verdict, so no pattern: it is not kept either (below).
    const std::vector<std::string> patterns = c.verdict == reports::SyncVerdict::undecided
                                                  ? std::vector<std::string>{}
                                                  : fuzz::mutation_patterns(s, ref, plan, c);
    const fuzz::InputPatterns reached(patterns);
    switch (c.verdict) {
        case reports::SyncVerdict::caught:
        case reports::SyncVerdict::reordered:  // race-free, reads changed, and the uninit checker or the
        case reports::SyncVerdict::harmless:   // outputs show it
            return 0;
        case reports::SyncVerdict::undecided:  // the explorer gave up: no verdict to compare with, and an
                                               // input
            return -1;                         // libFuzzer does not keep (mutations start from decided ones)
        case reports::SyncVerdict::unapplied:
            // A single point that mutation_points listed must apply; with two, the first may remove the
            // second's call.
            if (plan.size() == 1) finding("unapplied " + where, s, plan, c.detail);
            return 0;
        case reports::SyncVerdict::output_only:
            finding("output-only:" + kinds(c.explorer) + " " + where, s, plan, c.detail);
        case reports::SyncVerdict::missed:
            finding("missed:" +
                        (c.explorer.empty() && !c.changed_read.empty() ? "reordered" : kinds(c.explorer)) +
                        " " + where,
                    s, plan, c.detail);
        case reports::SyncVerdict::false_alarm:
            finding("false-alarm:" + kinds(c.checkers) + " " + where, s, plan, c.detail);
        case reports::SyncVerdict::divergent:
            finding("divergent " + where, s, plan, c.detail);
    }
    return 0;
}
