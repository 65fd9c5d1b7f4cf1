// The two engines agree: the happens-before graph of ONE recorded schedule decides what the exhaustive
// exploration of every schedule finds, for every small random program whose matching is not ambiguous.
//
// Agreement means identical findings (kind, instructions, flag), except after a possible set-twice: a set
// landing on a set flag is lost in some schedules, which changes what the later waits take, so there only the
// set-twice findings are compared (engine a's are a subset of engine b's, and both have one).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <vector>

#include "evg/explore/builder.hpp"
#include "evg/explore/model.hpp"
#include "verdict_util.hpp"

namespace evg::explore {
namespace {

using enum Pipe;

class Bytes {
  public:
    explicit Bytes(const std::vector<uint8_t>& b) : b_(b) {}
    int pick(int n) { return pos_ < b_.size() ? b_[pos_++] % n : 0; }
    bool more() const { return pos_ < b_.size(); }

  private:
    const std::vector<uint8_t>& b_;
    size_t pos_ = 0;
};

// A small program: each core gets up to 5 ops drawn from its core type's ops, two 32-byte halves per memory.
Program random_program(const std::vector<uint8_t>& bytes) {
    Bytes in(bytes);
    Chip chip = in.pick(2) ? Chip::Ascend950 : Chip::AtlasA2;
    bool mix = in.pick(2);
    ProgramBuilder b(chip, mix, mix ? 1 : 1 + in.pick(2));
    const Topology& t = b.program().topo;
    int gm[2] = {b.gm(64, "G0"), b.gm(64, "G1")};
    std::vector<int> local;
    for (size_t c = 0; c < t.cores.size(); ++c) local.push_back(b.local(static_cast<int>(c), 64));
    auto half = [&](int mem) {
        uint32_t h = 32u * static_cast<uint32_t>(in.pick(2));
        return Range{mem, h, h + 32};
    };
    auto word = [&](int mem) {
        uint32_t h = 32u * static_cast<uint32_t>(in.pick(2));
        return Range{mem, h, h + 4};
    };
    static constexpr Event kAivEvents[] = {{MTE2, V},    {V, MTE2}, {V, MTE3}, {MTE3, V},
                                           {MTE3, MTE2}, {S, V},    {V, S}};
    static constexpr Event kAicEvents[] = {{MTE2, FIX}, {FIX, MTE2}, {MTE2, MTE1}, {S, MTE2}, {MTE2, S}};
    for (size_t ci = 0; ci < t.cores.size(); ++ci) {
        const int c = static_cast<int>(ci);
        const bool aiv = t.cores[ci].type == CoreType::AIV;
        int n = in.pick(6);
        for (int k = 0; k < n && in.more(); ++k) {
            switch (in.pick(mix ? 9 : 7)) {
                case 0:
                    b.copy_in(c, half(local[ci]), half(gm[in.pick(2)]));
                    break;
                case 1:
                    if (aiv)
                        b.copy_out(c, half(gm[in.pick(2)]), half(local[ci]));
                    else
                        b.scalar_read(c, word(gm[in.pick(2)]));
                    break;
                case 2:
                    if (aiv)
                        b.vec(c, half(local[ci]), half(local[ci]));
                    else
                        b.scalar_write(c, word(gm[in.pick(2)]));
                    break;
                case 3:
                    if (in.pick(2))
                        b.scalar_write(c, word(in.pick(2) ? gm[in.pick(2)] : local[ci]));
                    else
                        b.scalar_read(c, word(in.pick(2) ? gm[in.pick(2)] : local[ci]));
                    break;
                case 4:
                case 5: {
                    Event e = aiv ? kAivEvents[in.pick(7)] : kAicEvents[in.pick(5)];
                    int id = in.pick(2);
                    if (in.pick(2))
                        b.set(c, e.src, e.dst, id);
                    else
                        b.wait(c, e.src, e.dst, id);
                    break;
                }
                case 6: {
                    static constexpr Pipe kAiv[] = {V, MTE2, MTE3, ALL};
                    static constexpr Pipe kAic[] = {MTE2, FIX, ALL};
                    b.barrier(c, aiv ? kAiv[in.pick(4)] : kAic[in.pick(3)]);
                    break;
                }
                default: {
                    static constexpr int kAivModes[] = {0, 1, 2, 4};
                    static constexpr int kAicModes[] = {0, 2, 4};
                    const bool a950 = chip == Chip::Ascend950;
                    int mode = aiv ? kAivModes[in.pick(a950 ? 4 : 3)] : kAicModes[in.pick(a950 ? 3 : 2)];
                    static constexpr Pipe kAiv[] = {V, MTE2, MTE3};
                    static constexpr Pipe kAic[] = {MTE2, FIX};
                    Pipe p = aiv ? kAiv[in.pick(3)] : kAic[in.pick(2)];
                    int flag = in.pick(2);
                    if (in.pick(2))
                        b.cross_set(c, mode, p, flag);
                    else
                        b.cross_wait(c, mode, p, flag);
                }
            }
        }
    }
    return b.program();
}

// A chain of data ops, each ordered before the next one, except one link in eight, left out: programs that
// are mostly race-free and read what they wrote, which `random_program` seldom draws. Three chains in four on
// Ascend950 run on an AIC and an AIV of one AI core, sharing GM. A link within a core is
// PipeBarrier<PIPE_ALL>, or a flag from the op's pipe to each other pipe the core's ops use and a barrier of
// its own pipe (nothing after a scalar op, which runs in issue order); a link to the other core is a mode-4
// CrossCoreSetFlag on the op's pipe and a CrossCoreWaitFlag on S, which holds back the waiting core's scalar
// unit (each link its own flag id).
Program chained_program(const std::vector<uint8_t>& bytes) {
    Bytes in(bytes);
    const Chip chip = in.pick(2) ? Chip::Ascend950 : Chip::AtlasA2;
    const bool two_cores = chip == Chip::Ascend950 && in.pick(4) != 0;
    ProgramBuilder b(chip, two_cores, 1);
    const Topology& t = b.program().topo;
    const int gm = b.gm(64, "G");
    std::vector<int> local;
    for (size_t c = 0; c < t.cores.size(); ++c) local.push_back(b.local(static_cast<int>(c), 64));
    auto half = [&](int mem) {
        const uint32_t h = 32u * static_cast<uint32_t>(in.pick(2));
        return Range{mem, h, h + 32};
    };
    const int aiv = two_cores ? t.aiv(0, 0) : 0;
    const int n = 2 + in.pick(two_cores ? 7 : 5);
    int prev_core = -1, links = 0;
    Pipe prev_pipe = S;
    for (int k = 0; k < n && in.more(); ++k) {
        const int c = two_cores && in.pick(2) ? t.aic(0) : aiv;
        const bool is_aiv = c == aiv;
        const int ub = local[static_cast<size_t>(c)];
        // The link from the previous op to this one.
        if (prev_core >= 0 && in.pick(8) != 0) {
            if (prev_core != c) {
                b.cross_set(prev_core, 4, prev_pipe, links);
                b.cross_wait(c, 4, S, links);
                ++links;
            } else if (prev_pipe != S) {
                if (in.pick(2)) {
                    b.barrier(c, ALL);
                } else {
                    const std::vector<Pipe> used =
                        is_aiv ? std::vector<Pipe>{S, V, MTE2, MTE3} : std::vector<Pipe>{S, MTE2};
                    for (Pipe q : used)
                        if (q != prev_pipe) {
                            b.set(c, prev_pipe, q, 0);
                            b.wait(c, prev_pipe, q, 0);
                        }
                    b.barrier(c, prev_pipe);
                }
            }
        }
        Pipe p = S;
        switch (in.pick(is_aiv ? 4 : 2)) {
            case 0:
                p = MTE2;
                b.copy_in(c, half(ub), half(gm));
                break;
            case 2:
                p = MTE3;
                b.copy_out(c, half(gm), half(ub));
                break;
            case 3:
                p = V;
                b.vec(c, half(ub), half(ub), in.pick(2) ? half(ub) : Range{});
                break;
            default: {
                const uint32_t w = 4u * static_cast<uint32_t>(in.pick(16));
                const Range word{in.pick(2) ? gm : ub, w, w + 4};
                if (in.pick(2))
                    b.scalar_read(c, word);
                else
                    b.scalar_write(c, word);
            }
        }
        prev_core = c;
        prev_pipe = p;
    }
    return b.program();
}

std::set<int> set_twice(const Verdict& v) {
    return ids(v, FindingKind::set_twice);
}

RC_GTEST_PROP(EnginesAgree, OneRecordedScheduleDecidesEverySchedule, ()) {
    const auto bytes =
        *rc::gen::container<std::vector<uint8_t>>(rc::gen::cast<uint8_t>(rc::gen::inRange(0, 256)));
    const auto seed = *rc::gen::inRange<uint64_t>(1, 1u << 20);
    const Program p = *rc::gen::arbitrary<bool>() ? chained_program(bytes) : random_program(bytes);
    const Verdict e = explore(p, {20000});
    if (!e.complete) {
        RC_TAG("exploration incomplete");
        return;
    }
    const Verdict a = decide(record(p, seed));
    if (a.has(FindingKind::ambiguous)) {
        RC_TAG("ambiguous");
        return;
    }
    if (a.has(FindingKind::set_twice) || e.has(FindingKind::set_twice)) {
        RC_TAG("set twice");
        const auto sa = set_twice(a), se = set_twice(e);
        RC_ASSERT(!sa.empty());
        RC_ASSERT(!se.empty());
        RC_ASSERT(std::includes(se.begin(), se.end(), sa.begin(), sa.end()));
        return;
    }
    RC_TAG(e.findings.empty() ? "clean" : "findings");
    if (!same_findings(a, e)) RC_FAIL("decide:\n" + a.text() + "explore:\n" + e.text());
}

// Where the reads take their bytes from: for a race-free program, what the happens-before graph of one
// recorded schedule says equals what two schedules (that one and another) read as they executed.
RC_GTEST_PROP(EnginesAgree, OneRecordedScheduleTellsWhereEveryScheduleReads, ()) {
    const auto bytes =
        *rc::gen::container<std::vector<uint8_t>>(rc::gen::cast<uint8_t>(rc::gen::inRange(0, 256)));
    const auto seed = *rc::gen::inRange<uint64_t>(1, 1u << 20);
    const Program p = *rc::gen::arbitrary<bool>() ? chained_program(bytes) : random_program(bytes);
    std::vector<ReadFrom> seen, seen_other;
    const Verdict a = decide(record(p, seed, &seen));
    record(p, seed + 1, &seen_other);
    if (!a.findings.empty() || !a.complete) {
        RC_TAG("findings");
        RC_ASSERT(!a.reads_known);
        return;
    }
    const bool reads_a_write = std::any_of(a.reads_from.begin(), a.reads_from.end(),
                                           [](const ReadFrom& r) { return !r.writers.empty(); });
    RC_TAG(reads_a_write ? "reads a write" : "reads only initial bytes");
    const bool across = std::any_of(a.reads_from.begin(), a.reads_from.end(), [&](const ReadFrom& r) {
        return std::any_of(r.writers.begin(), r.writers.end(),
                           [&](int w) { return p.op_at(w).first != p.op_at(r.reader).first; });
    });
    if (across) RC_TAG("reads a write of another core");
    RC_ASSERT(a.reads_known);
    RC_ASSERT(a.reads_from == seen);
    RC_ASSERT(a.reads_from == seen_other);
}

}  // namespace
}  // namespace evg::explore
