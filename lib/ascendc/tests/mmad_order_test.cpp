// Rule R3 (docs/hardware-model.md §1, §17): on Ascend950 the M pipe orders an Mmad that accumulates into the
// L0C region the previous Mmad wrote, with the same shape and at least 10 fractals, after that Mmad.
// Everything else keeps the PipeBarrier<PIPE_M> rule: smaller tiles, another region, an overwriting Mmad, and
// AtlasA2.
#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace {

using namespace AscendC;
using evg::hw::ArchId;
using evg::hw::ViolationKind;

constexpr uint32_t kFractal = 256;  // halves in one 16 x 16 fractal
constexpr uint16_t kK = 16;

// One Mmad of a sequence: its shape, the L0C byte offset of its C, whether it overwrites, and whether a
// PipeBarrier<PIPE_M> comes before it.
struct Step {
    uint16_t m, n;
    uint32_t c_off = 0;
    bool overwrite = false;
    bool barrier_before = false;
};

struct Outcome {
    evg::hw::Report report;
    evg::hw::Trace trace;
    std::vector<float> d;  // the first 64 x 64 floats of L0C, fixpiped to GM
};

// A all 0.5, B all 0.25 (every product 0.125; one Mmad of k = 16 adds 2 to each element), loaded a fractal at
// a time into L0A and L0B, so every shape reads written operands.
Outcome run(ArchId arch, std::initializer_list<Step> steps, evg::hw::SchedulerKind sched = {},
            uint64_t seed = 0) {
    evg::hw::Config cfg;
    cfg.arch = arch;
    cfg.keep_trace = true;
    cfg.trace_accesses = true;
    cfg.scheduler = sched;
    cfg.seed = seed;
    evg::hw::Device dev(cfg);
    constexpr uint16_t kMax = 144;  // the widest shape below: 9 fractals of A or B
    std::vector<half> ah(kFractal, half(0.5f)), bh(kFractal, half(0.25f));
    void* ga = dev.malloc(kFractal * 2, "A");
    void* gb = dev.malloc(kFractal * 2, "B");
    void* gd = dev.malloc(64 * 64 * 4, "D");
    dev.copy_to_device(ga, ah.data(), kFractal * 2);
    dev.copy_to_device(gb, bh.data(), kFractal * 2);
    std::vector<float> zeros(64 * 64, 0.0f);
    dev.copy_to_device(gd, zeros.data(), zeros.size() * 4);
    Outcome out;
    out.report = dev.launch(1, evg::hw::KernelType::aic_only, [&] {
        GlobalTensor<half> a, b;
        a.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(ga));
        b.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(gb));
        LocalTensor<half> l1a(TPosition::A1, 0, kFractal), l1b(TPosition::B1, kFractal * 2, kFractal);
        LocalTensor<half> l0a(TPosition::A2, 0, uint32_t{kMax} * kK),
            l0b(TPosition::B2, 0, uint32_t{kK} * kMax);
        Nd2NzParams nd;
        nd.nValue = 16;
        nd.dValue = 16;
        nd.srcDValue = 16;
        nd.dstNzC0Stride = 16;
        nd.dstNzNStride = 1;
        DataCopy(l1a, a, nd);
        DataCopy(l1b, b, nd);
        SetFlag<HardEvent::MTE2_MTE1>(0);
        WaitFlag<HardEvent::MTE2_MTE1>(0);
        LoadData2DParamsV2 la;
        la.mStep = 1;
        la.kStep = 1;
        la.srcStride = 1;
        la.dstStride = 1;
        LoadData2DParamsV2 lb = la;
        lb.ifTranspose = true;
        for (uint32_t f = 0; f < kMax / 16; ++f) {
            LoadData(l0a[f * kFractal], l1a, la);
            LoadData(l0b[f * kFractal], l1b, lb);
        }
        SetFlag<HardEvent::MTE1_M>(0);
        WaitFlag<HardEvent::MTE1_M>(0);
        for (const Step& s : steps) {
            if (s.barrier_before) PipeBarrier<PIPE_M>();
            LocalTensor<float> l0c(TPosition::CO1, s.c_off, uint32_t{s.m} * s.n);
            MmadParams p(s.m, s.n, kK);
            p.cmatrixInitVal = s.overwrite;
            Mmad(l0c, l0a, l0b, p);
        }
        SetFlag<HardEvent::M_FIX>(0);
        WaitFlag<HardEvent::M_FIX>(0);
        FixpipeParamsV220 fp;
        fp.mSize = 64;
        fp.nSize = 64;
        fp.srcStride = 64;
        fp.dstStride = 64;
        GlobalTensor<float> d;
        d.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gd));
        Fixpipe(d, LocalTensor<float>(TPosition::CO1, 0, 64 * 64), fp);
    });
    out.trace = dev.take_last_trace();
    out.d.resize(64 * 64);
    dev.copy_to_host(out.d.data(), gd, out.d.size() * 4);
    return out;
}

size_t m_races(const evg::hw::Report& r) {
    size_t n = 0;
    for (const auto& v : r.violations)
        n += v.kind == ViolationKind::race && v.message.find("no PipeBarrier<PIPE_M>") != std::string::npos;
    return n;
}

TEST(MmadOrder, AccumulationFromTenFractalsIsOrderedByTheM_PipeOnAscend950Only) {
    // 64 x 64: 16 fractals; 32 x 80: (32 / 16) * (80 / 16) = 10, the threshold itself.
    for (const auto& [m, n] : {std::pair<uint16_t, uint16_t>{64, 64}, {32, 80}}) {
        const std::initializer_list<Step> steps{{m, n, 0, true}, {m, n, 0, false}};
        const Outcome on950 = run(ArchId::Ascend950, steps);
        EXPECT_EQ(m_races(on950.report), 0u) << m << "x" << n << "\n" << on950.report.text();
        const Outcome onA2 = run(ArchId::AtlasA2, steps);
        EXPECT_EQ(m_races(onA2.report), 1u) << m << "x" << n << "\n" << onA2.report.text();
    }
}

TEST(MmadOrder, BelowTenFractalsTheBarrierIsNeededOnBothChips) {
    // 32 x 64: 8 fractals; 16 x 144: 9.
    for (const auto& [m, n] : {std::pair<uint16_t, uint16_t>{32, 64}, {16, 144}})
        for (const ArchId a : evg::hw::kAllArchs) {
            const Outcome o = run(a, {{m, n, 0, true}, {m, n, 0, false}});
            EXPECT_EQ(m_races(o.report), 1u) << m << "x" << n << "\n" << o.report.text();
        }
}

TEST(MmadOrder, AnotherRegionOrAnotherShapeKeepsTheBarrierRule) {
    // The second Mmad accumulates into a region that starts 8 KiB into the first's: not the same region.
    const Outcome moved = run(ArchId::Ascend950, {{64, 64, 0, true}, {64, 64, 8192, false}});
    EXPECT_EQ(m_races(moved.report), 1u) << moved.report.text();
    // The same bytes, another shape: 32 x 128 over the 16 KiB of a 64 x 64.
    const Outcome reshaped = run(ArchId::Ascend950, {{64, 64, 0, true}, {32, 128, 0, false}});
    EXPECT_EQ(m_races(reshaped.report), 1u) << reshaped.report.text();
}

TEST(MmadOrder, AnMmadWrittenOverSinceIsNotThePreviousWriter) {
    // The second Mmad overwrites half of the first's region after a barrier; the third accumulates into the
    // first's region, whose last writer is no longer one Mmad of its shape: unordered against the second.
    const Outcome o =
        run(ArchId::Ascend950, {{64, 64, 0, true}, {32, 64, 0, true, true}, {64, 64, 0, false}});
    EXPECT_EQ(m_races(o.report), 1u) << o.report.text();
}

TEST(MmadOrder, OverwritingTheRegionStillNeedsTheBarrier) {
    const Outcome o = run(ArchId::Ascend950, {{64, 64, 0, true}, {64, 64, 0, false}, {64, 64, 0, true}});
    EXPECT_EQ(m_races(o.report), 1u) << o.report.text();
    EXPECT_NE(o.report.text().find("WAW"), std::string::npos) << o.report.text();
}

TEST(MmadOrder, TheTraceNamesTheMmadItFollowsAndNoScheduleRunsItFirst) {
    const std::initializer_list<Step> steps{{64, 64, 0, true}, {64, 64, 0, false}, {64, 64, 0, false}};
    const Outcome o = run(ArchId::Ascend950, steps);
    std::vector<uint32_t> mmads, after;
    for (const auto& e : o.trace)
        if (e.op() == "Mmad") {
            mmads.push_back(e.id);
            after.push_back(e.after);
        }
    ASSERT_EQ(mmads.size(), 3u);
    EXPECT_EQ(after, (std::vector<uint32_t>{0, mmads[0], mmads[1]}));
    EXPECT_EQ(o.d, std::vector<float>(64 * 64, 6.0f));
    // The adversarial scheduler reorders unordered instructions of the M pipe; never these.
    for (uint64_t seed = 1; seed <= 24; ++seed) {
        const Outcome a = run(ArchId::Ascend950, steps, evg::hw::SchedulerKind::adversarial, seed);
        EXPECT_TRUE(a.report.violations.empty()) << "seed " << seed << "\n" << a.report.text();
        EXPECT_EQ(a.d, std::vector<float>(64 * 64, 6.0f)) << "seed " << seed;
    }
}

}  // namespace
