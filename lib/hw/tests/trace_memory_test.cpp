// Bounded memory per instruction: a trace record is fixed-size; without the trace, a long kernel
// keeps a bounded number of instruction descriptions; and the report is the same whether the trace is kept
// or not, and however often the machine drops descriptions its checkers no longer name.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "evg/hw/error.hpp"
#include "test_kernels.hpp"

namespace evg::hw::testing {
namespace {

using namespace AscendC;

TEST(TraceMemory, ARecordIsAtMost48Bytes) {
    EXPECT_LE(sizeof(TraceEntry), 48u);
}

TEST(TraceMemory, OpAndSiteRoundTripThroughTheInternTable) {
    const Site here = Site::here();
    TraceEntry e;
    e.set_op("DataCopy GM->UB", here);
    EXPECT_EQ(e.op(), "DataCopy GM->UB");
    EXPECT_EQ(e.site().str(), here.str());
    EXPECT_EQ(e.site().line, here.line);
    TraceEntry f;
    f.set_op(std::string("DataCopy GM->UB"), here);  // another string with the same text: the same id
    EXPECT_EQ(f.op_site, e.op_site);
    TraceEntry g;
    EXPECT_EQ(g.op(), "");
    EXPECT_EQ(std::string_view(g.site().file), "");
}

TEST(TraceMemory, ATraceSpanningChunksKeepsOrderAndAccesses) {
    Trace t;
    const size_t n = 2 * Trace::kChunk + 5;
    for (size_t i = 0; i < n; ++i) {
        TraceEntry e;
        e.id = static_cast<uint32_t>(i + 1);
        if (i % 3 == 0) {
            const TraceAccess a{7, MemKind::UB, i, i + 1, true, false};
            t.push_back(e, std::span<const TraceAccess>(&a, 1));
        } else {
            t.push_back(e);
        }
    }
    ASSERT_EQ(t.size(), n);
    size_t i = 0;
    for (const TraceEntry& e : t) {
        ASSERT_EQ(e.id, i + 1);
        const auto acc = t.accesses_of(e);
        ASSERT_EQ(acc.size(), i % 3 == 0 ? 1u : 0u) << i;
        if (!acc.empty()) {
            EXPECT_EQ(acc[0].begin, i);
        }
        ++i;
    }
    EXPECT_EQ(t.back().id, n);
    EXPECT_EQ(std::prev(t.end())->id, n);
    Trace moved = std::move(t);
    EXPECT_EQ(moved.size(), n);
    EXPECT_TRUE(t.empty());  // NOLINT(bugprone-use-after-move): a moved-from trace is empty by contract
}

TEST(TraceMemory, AKeptTraceRefusesMoreThan32BitInstructionIds) {
    Config cfg;
    cfg.max_instructions = uint64_t{1} << 32;
    Device dev(cfg);
    EXPECT_THROW(dev.launch(1, KernelType::aiv_only, [] {}), HostError);
    dev.config().keep_trace = false;
    EXPECT_TRUE(dev.launch(1, KernelType::aiv_only, [] {}).clean());
}

// A kernel whose loop does not end is stopped at Config::max_instructions, with a finding that says where
// each core was: the one issuing, and the others (here, in order, the second core has not started).
TEST(TraceMemory, AKernelPastTheInstructionCapIsStoppedSayingWhereEachCoreWas) {
    Config cfg;
    cfg.arch = ArchId::AtlasA2;
    cfg.max_instructions = 1000;
    Device dev(cfg);
    const Report& r = dev.launch(2, KernelType::aiv_only, [] {
        if (AscendC::GetBlockIdx() != 0) return;
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 64);
        LocalTensor<float> a = buf.Get<float>();
        Duplicate(a, 0.0f, 16);
        for (;;) {  // a tile loop whose bound never comes
            PipeBarrier<PIPE_V>();
            Adds(a, a, 1.0f, 16);
        }
    });
    const Violation* v = r.first(ViolationKind::kernel_exception);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(v->message.find("the kernel issued more than 1000 instructions (a loop that does not end?)"),
              std::string::npos)
        << v->message;
    EXPECT_NE(v->message.find("Where each core was: AIV 0"), std::string::npos) << v->message;
    EXPECT_NE(v->message.find(": issuing "), std::string::npos) << v->message;
    EXPECT_NE(v->message.find("trace_memory_test.cpp:"), std::string::npos) << v->message;
    EXPECT_NE(v->message.find("AIV 1"), std::string::npos) << v->message;
    EXPECT_NE(v->message.find("ready to go on after its start"), std::string::npos) << v->message;
}

// A long kernel of cheap vector instructions on a few UB bytes: without the trace, the descriptions the
// machine holds stay bounded (the race history names only the last writer and readers of those bytes).
TEST(TraceMemory, WithoutTheTraceALongKernelKeepsBoundedRecords) {
    constexpr uint64_t kInstructions = 2'000'000;
    Config cfg;
    cfg.keep_trace = false;
    Device dev(cfg);
    const Report& r = dev.launch(1, KernelType::aiv_only, [] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 64);
        LocalTensor<float> a = buf.Get<float>();
        Duplicate(a, 0.0f, 16);
        PipeBarrier<PIPE_V>();
        for (uint64_t i = 2; i < kInstructions; i += 2) {
            Adds(a, a, 1.0f, 16);
            PipeBarrier<PIPE_V>();
        }
    });
    EXPECT_TRUE(r.clean()) << r.text();
    EXPECT_EQ(r.stats.instructions, kInstructions);
    EXPECT_EQ(r.stats.per_pipe.at("V"), kInstructions);
    EXPECT_LE(r.stats.records_peak, 2 * cfg.record_floor) << "records grew with the instruction count";
    EXPECT_EQ(dev.last_records_peak(), r.stats.records_peak);
    EXPECT_TRUE(dev.last_trace().empty());
}

// ---- the same report with and without the trace ----

// Runs `launch` with the trace kept, without it, and without it dropping descriptions as often as it can
// (record_floor 1), and expects the same text and JSON from each.
template <class Launch>
void expect_same_reports(const Config& base, Launch launch, const std::string& what) {
    Config kept = base;
    kept.keep_trace = true;
    Config dropped = base;
    dropped.keep_trace = false;
    Config churned = dropped;
    churned.record_floor = 1;
    const Report a = launch(kept);
    const Report b = launch(dropped);
    const Report c = launch(churned);
    EXPECT_FALSE(a.violations.empty()) << what << ": a planted fault should be found";
    EXPECT_EQ(a.text(), b.text()) << what;
    EXPECT_EQ(a.json(), b.json()) << what;
    EXPECT_EQ(a.text(), c.text()) << what;
    EXPECT_EQ(a.json(), c.json()) << what;
    EXPECT_EQ(a.stats.records_peak, a.stats.instructions) << what;
    EXPECT_LT(c.stats.records_peak, a.stats.instructions) << what << ": nothing was ever dropped";
}

std::vector<Config> schedules() {
    std::vector<Config> out(1);
    for (uint64_t seed : {1, 2, 3, 17}) {
        Config c;
        c.scheduler = SchedulerKind::adversarial;
        c.seed = seed;
        out.push_back(c);
    }
    return out;
}

TEST(TraceMemory, DoubleBufferedFaultsReportTheSameWithoutTheTrace) {
    for (int bits = 1; bits < 16; ++bits) {
        DbFaults f;
        f.drop_wait_mte2_v = bits & 1;
        f.drop_wait_v_mte3 = bits & 2;
        f.drop_barrier_v = bits & 4;
        f.leave_mte3_v = bits & 8;
        for (const Config& s : schedules())
            expect_same_reports(
                s, [&](const Config& c) { return run_double_buffered(c, 2048, 64, f).report; },
                "faults " + std::to_string(bits) + " seed " + std::to_string(s.seed));
    }
}

// Races explained by a wait that consumed a set issued before the write (explain_same_core), many times over,
// and a set left pending at the end.
TEST(TraceMemory, EarlySetsReportTheSameWithoutTheTrace) {
    for (const Config& s : schedules())
        expect_same_reports(
            s,
            [](const Config& c) {
                Device dev(c);
                void* x = dev.malloc(256, "X");
                dev.copy_to_device(x, std::vector<float>(64, 1.0f).data(), 256);
                auto xp = static_cast<GM_ADDR>(x);
                return dev.launch(1, KernelType::aiv_only, [&] {
                    TPipe pipe;
                    TBuf<TPosition::VECCALC> buf;
                    pipe.InitBuffer(buf, 2 * 256);
                    LocalTensor<float> a = buf.Get<float>(), b = a[64];
                    GlobalTensor<float> gx;
                    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(xp));
                    for (int i = 0; i < 40; ++i) {
                        SetFlag<HardEvent::MTE2_V>(0);
                        DataCopy(a, gx, 64);
                        WaitFlag<HardEvent::MTE2_V>(0);
                        Adds(b, a, 1.0f, 64);
                        SetFlag<HardEvent::V_MTE2>(1);
                        WaitFlag<HardEvent::V_MTE2>(1);
                    }
                    SetFlag<HardEvent::MTE2_V>(2);
                });
            },
            "early sets seed " + std::to_string(s.seed));
}

// Cross-core: a missing reverse flag (a WAR across cores, explain_cross_core), a counter left non-zero, and
// a dirty data-cache line read by the other AIV.
TEST(TraceMemory, CrossCoreAndDataCacheFaultsReportTheSameWithoutTheTrace) {
    for (const Config& s : schedules())
        expect_same_reports(
            s,
            [](const Config& c) {
                Device dev(c);
                void* x = dev.malloc(1024, "X");
                dev.copy_to_device(x, std::vector<float>(256, 1.0f).data(), 1024);
                auto xp = static_cast<GM_ADDR>(x);
                return dev.launch(1, KernelType::mix_aic_1_2, [&] {
                    GlobalTensor<float> gx;
                    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(xp));
                    if ASCEND_IS_AIC {
                        LocalTensor<float> l1(TPosition::A1, 0, 128);
                        for (int i = 0; i < 10; ++i) {
                            DataCopy(l1, gx, 128);  // MTE2 read X
                            CrossCoreWaitFlag<2, PIPE_MTE2>(0);
                        }
                        CrossCoreSetFlag<2, PIPE_MTE2>(3);  // never waited for
                    } else {
                        TPipe pipe;
                        TBuf<TPosition::VECCALC> buf;
                        pipe.InitBuffer(buf, 256);
                        LocalTensor<float> a = buf.Get<float>();
                        if (GetSubBlockIdx() == 0) gx[192].SetValue(0, 5.0f);  // left dirty
                        for (int i = 0; i < 10; ++i) {
                            CrossCoreSetFlag<2, PIPE_MTE3>(0);
                            Duplicate(a, 1.0f, 64);
                            SetFlag<HardEvent::V_MTE3>(0);
                            WaitFlag<HardEvent::V_MTE3>(0);
                            DataCopy(gx[64 * GetSubBlockIdx()], a, 64);  // MTE3 write X
                            SetFlag<HardEvent::MTE3_V>(0);
                            WaitFlag<HardEvent::MTE3_V>(0);
                        }
                        CrossCoreSetFlag<1, PIPE_MTE3>(2);
                        CrossCoreWaitFlag<1, PIPE_MTE2>(2);
                        if (GetSubBlockIdx() == 1)
                            DataCopy(a, gx[192], 8);  // reads the other AIV's dirty line
                    }
                });
            },
            "cross-core seed " + std::to_string(s.seed));
}

// Two unordered waiters on one counter (cross_core_ambiguous, and a deadlock under some schedules whose
// message names the waits that consumed the increments).
TEST(TraceMemory, AmbiguousWaitersReportTheSameWithoutTheTrace) {
    for (Config s : schedules()) {
        s.arch = ArchId::Ascend950;
        expect_same_reports(
            s,
            [](const Config& c) {
                Device dev(c);
                return dev.launch(1, KernelType::mix_aic_1_2, [&] {
                    if ASCEND_IS_AIC {
                        for (int i = 0; i < 12; ++i) {
                            CrossCoreSetFlag<4, PIPE_FIX>(0);
                            CrossCoreWaitFlag<4, PIPE_FIX>(1);
                        }
                        CrossCoreSetFlag<4, PIPE_FIX>(0);
                    } else if (GetSubBlockIdx() == 0) {
                        for (int i = 0; i < 12; ++i) {
                            CrossCoreWaitFlag<4, PIPE_V>(0);
                            CrossCoreSetFlag<4, PIPE_V>(1);
                        }
                        CrossCoreWaitFlag<4, PIPE_MTE2>(0);
                    }
                });
            },
            "waiters seed " + std::to_string(s.seed));
    }
}

}  // namespace
}  // namespace evg::hw::testing
