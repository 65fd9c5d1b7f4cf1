// The per-token dequant epilogue (ascendc/samples/dequant_per_token.hpp): the upstream AtlasA2 bug (no
// PipeBarrier<PIPE_V> between the Cast into the float buffer and the broadcast Mul reading it) is a V/V race
// on AtlasA2 naming the missing barrier, and nothing on Ascend950, whose vector pipe keeps order; the fixed
// kernel is clean on both and matches the C++ reference.
#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "ascendc/samples/dequant_per_token_run.hpp"

namespace evg::fuzz {
namespace {

using AscendC::samples::DequantRun;
using AscendC::samples::run_dequant_per_token;
using hw::ArchId;

hw::Config on(ArchId arch) {
    hw::Config c;
    c.arch = arch;
    return c;
}

TEST(DequantPerToken, MissingBarrierIsAVWriteVReadRaceOnAtlasA2NamingPipeBarrierV) {
    const DequantRun r = run_dequant_per_token(on(ArchId::AtlasA2), true);
    const hw::Violation* v = r.report.first(hw::ViolationKind::race);
    ASSERT_NE(v, nullptr) << r.report.text();
    EXPECT_NE(v->message.find("no PipeBarrier<PIPE_V> orders V write #"), std::string::npos) << v->message;
    ASSERT_EQ(v->locations.size(), 2u);
    EXPECT_EQ(v->locations[0].op, "Cast<float, int32, CAST_NONE>");
    EXPECT_EQ(v->locations[0].pipe, "V");
    EXPECT_EQ(v->locations[0].access, "write");
    EXPECT_EQ(v->locations[1].op, "Mul");
    EXPECT_EQ(v->locations[1].pipe, "V");
    EXPECT_EQ(v->locations[1].access, "read");
    // Only races, and only Cast -> Mul ones: the rest of the protocol is right.
    for (const hw::Violation& w : r.report.violations) {
        EXPECT_EQ(w.kind, hw::ViolationKind::race) << w.message;
        EXPECT_EQ(w.locations.at(0).op, "Cast<float, int32, CAST_NONE>") << w.message;
        EXPECT_EQ(w.locations.at(1).op, "Mul") << w.message;
    }
}

TEST(DequantPerToken, MissingBarrierIsCleanOnAscend950WhereVKeepsOrder) {
    const DequantRun r = run_dequant_per_token(on(ArchId::Ascend950), true);
    EXPECT_TRUE(r.report.violations.empty()) << r.report.text();
    EXPECT_EQ(r.out, r.expected);
}

TEST(DequantPerToken, FixedIsCleanOnBothChipsAndMatchesTheReference) {
    for (ArchId arch : hw::kAllArchs) {
        const DequantRun r = run_dequant_per_token(on(arch), false);
        EXPECT_TRUE(r.report.violations.empty()) << hw::arch_name(arch) << "\n" << r.report.text();
        EXPECT_EQ(r.out, r.expected) << hw::arch_name(arch);
    }
}

// The reference itself, on values worked by hand: C = 5, channel scale 2/64, token scale 0.75 -> 0.1171875.
TEST(DequantPerToken, ReferenceOnAHandWorkedElement) {
    AscendC::samples::DequantShape s;
    s.rows = 1;
    s.cols = 16;
    AscendC::samples::DequantInputs in;
    in.c.assign(16, 5);
    in.scale_channel.assign(16, 2.0f / 64.0f);
    in.scale_token.assign(1, 0.75f);
    EXPECT_EQ(AscendC::samples::dequant_reference(s, in)[3], half(0.1171875f).bits);
}

// What the race does to the data, under the adversarial scheduler (seeded, replayable): when a broadcast Mul
// of a row runs before the Cast, it scales stale bytes that the Cast then overwrites, so the row loses its
// per-channel scale and holds half(C * scale_token). Upstream reported NaNs; the model executes each
// instruction whole, and the wrong values it produces are these finite ones.
// The checker's verdict does not depend on the schedule: every run reports the same race; the fixed kernel
// is clean and exact under every seed.
TEST(DequantPerToken, UnderAdversarialSchedulesTheBugLosesTheChannelScaleAndTheFixIsExact) {
    const AscendC::samples::DequantShape s;
    const AscendC::samples::DequantInputs in = AscendC::samples::dequant_inputs(s);
    int seeds_with_wrong_values = 0;
    for (uint64_t seed = 1; seed <= 16; ++seed) {
        hw::Config c = on(ArchId::AtlasA2);
        c.scheduler = hw::SchedulerKind::adversarial;
        c.seed = seed;
        const DequantRun bug = run_dequant_per_token(c, true, s);
        EXPECT_EQ(bug.report.count(hw::ViolationKind::race), 1u) << "seed " << seed << "\n"
                                                                 << bug.report.text();
        EXPECT_EQ(bug.report.violations.size(), 1u) << "seed " << seed;
        bool wrong = false;
        for (size_t i = 0; i < bug.out.size(); ++i) {
            if (bug.out[i] == bug.expected[i]) continue;
            wrong = true;
            const float unscaled = static_cast<float>(in.c[i]) * in.scale_token[i / s.cols];
            ASSERT_EQ(bug.out[i], half(unscaled).bits) << "seed " << seed << " element " << i;
        }
        seeds_with_wrong_values += wrong ? 1 : 0;

        const DequantRun fixed = run_dequant_per_token(c, false, s);
        EXPECT_TRUE(fixed.report.violations.empty()) << "seed " << seed << "\n" << fixed.report.text();
        EXPECT_EQ(fixed.out, fixed.expected) << "seed " << seed;
    }
    EXPECT_GT(seeds_with_wrong_values, 0);
    std::cout << seeds_with_wrong_values << " of 16 adversarial schedules left wrong values in D\n";
}

}  // namespace
}  // namespace evg::fuzz
