// The cycle model (evg/hw/timing.hpp) on small kernels whose times are worked out by hand from the AtlasA2
// cost table (docs/cycle-model.md): GM->UB 58.56 B/cycle with a 32-cycle start, UB->GM 109.38 B/cycle with a
// 32-cycle start, Adds on half 6 + 1 per 256-byte repeat, Muls 7 + 1, set / wait 1 cycle, a PIPE_V barrier
// after vector work 16, one instruction issued per cycle.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "evg/hw/cost_table.hpp"
#include "evg/hw/numeric/vector_rules.hpp"
#include "evg/hw/timing.hpp"
#include "test_kernels.hpp"

namespace evg::hw::testing {
namespace {

using namespace AscendC;

struct Timed {
    Report report;
    Trace trace;
    timing::Timeline timeline;
};

Timed run_timed(const std::function<void(GM_ADDR, GM_ADDR)>& k, uint32_t bytes = 8192) {
    Config c;
    c.arch = ArchId::AtlasA2;
    c.trace_accesses = true;
    Device dev(c);
    void* x = dev.malloc(bytes, "X");
    void* y = dev.malloc(bytes, "Y");
    dev.copy_to_device(x, std::vector<uint8_t>(bytes, 0).data(), bytes);
    auto xp = static_cast<GM_ADDR>(x), yp = static_cast<GM_ADDR>(y);
    Timed r;
    r.report = dev.launch(1, KernelType::aiv_only, [&] { k(xp, yp); });
    r.trace = dev.take_last_trace();
    r.timeline = timing::simulate(r.trace, {ArchId::AtlasA2, 1, KernelType::aiv_only});
    return r;
}

struct Ub {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    LocalTensor<half> ub;
    GlobalTensor<half> gx, gy;
    Ub(GM_ADDR x, GM_ADDR y, uint32_t halves) {
        pipe.InitBuffer(buf, halves * 2);
        ub = buf.Get<half>();
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x));
        gy.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y));
    }
};

TEST(CycleModel, OneCopy) {
    // 4096 bytes GM->UB: 32 + 4096 / 58.56 = 32 + 69.9 -> 102 cycles, issued at cycle 0.
    const Timed r = run_timed([](GM_ADDR x, GM_ADDR y) {
        Ub u(x, y, 2048);
        DataCopy(u.ub, u.gx, 2048);
    });
    ASSERT_TRUE(r.report.clean()) << r.report.text();
    ASSERT_EQ(r.trace.size(), 1u);
    const timing::Slice& s = r.timeline.slices[0];
    EXPECT_EQ(s.issue, 0u);
    EXPECT_EQ(s.start, 0u);
    EXPECT_EQ(s.end, 102u);
    EXPECT_EQ(s.bytes, 4096u);
    EXPECT_EQ(r.timeline.summary.total, 102u);
    EXPECT_TRUE(r.timeline.complete);
    EXPECT_FALSE(r.timeline.missing_accesses);
}

TEST(CycleModel, OneVectorOp) {
    // Adds on 2048 halves = 4096 bytes = 16 repeats of 256 bytes: 6 + 16 x 1 = 22 cycles.
    const Timed r = run_timed([](GM_ADDR x, GM_ADDR y) {
        Ub u(x, y, 2048);
        Duplicate(u.ub, half(1.0f), 2048);   // 1 + 16 x 1 = 17 cycles, issued at 0
        PipeBarrier<PIPE_V>();               // issued at 1, starts at 17: 16 cycles of drain -> 33
        Adds(u.ub, u.ub, half(1.0f), 2048);  // issued at 2, starts at 33: -> 55
    });
    ASSERT_TRUE(r.report.clean()) << r.report.text();
    ASSERT_EQ(r.trace.size(), 3u);
    EXPECT_EQ(r.timeline.slices[0].end, 17u);
    EXPECT_EQ(r.timeline.slices[0].repeats, 16u);
    EXPECT_EQ(r.timeline.slices[1].start, 17u);
    EXPECT_EQ(r.timeline.slices[1].end, 33u);
    EXPECT_EQ(r.timeline.slices[2].start, 33u);
    EXPECT_EQ(r.timeline.slices[2].end, 55u);
    EXPECT_EQ(r.timeline.slices[2].bound, timing::Bound::pipe);
    EXPECT_EQ(r.timeline.summary.total, 55u);
}

TEST(CycleModel, SetWaitPair) {
    // copy 0..102 on MTE2; SetFlag<MTE2_V> issued at 1, runs 102..103; WaitFlag<MTE2_V> issued at 2 on V,
    // stalls 2..103 and takes its cycle: 103..104; Adds (issued at 3) 104..126.
    const Timed r = run_timed([](GM_ADDR x, GM_ADDR y) {
        Ub u(x, y, 2048);
        DataCopy(u.ub, u.gx, 2048);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        Adds(u.ub, u.ub, half(1.0f), 2048);
    });
    ASSERT_TRUE(r.report.clean()) << r.report.text();
    ASSERT_EQ(r.trace.size(), 4u);
    const auto& sl = r.timeline.slices;
    EXPECT_EQ(sl[1].start, 102u);
    EXPECT_EQ(sl[1].end, 103u);
    EXPECT_EQ(sl[2].issue, 2u);
    EXPECT_EQ(sl[2].start, 2u);
    EXPECT_EQ(sl[2].stall, 101u);
    EXPECT_EQ(sl[2].end, 104u);
    EXPECT_EQ(sl[2].bound, timing::Bound::flag);
    EXPECT_EQ(sl[2].after, 2u);  // the set, entry id 2
    EXPECT_EQ(sl[3].start, 104u);
    EXPECT_EQ(sl[3].end, 126u);
    EXPECT_EQ(r.timeline.summary.total, 126u);
    ASSERT_EQ(r.timeline.flows.size(), 1u);
    EXPECT_EQ(r.timeline.flows[0].set, 2u);
    EXPECT_EQ(r.timeline.flows[0].wait, 3u);
    // The stall is charged to the flag.
    ASSERT_FALSE(r.timeline.summary.flag_stalls.empty());
    EXPECT_EQ(r.timeline.summary.flag_stalls[0].flag, "WaitFlag<MTE2_V>(0)");
    EXPECT_EQ(r.timeline.summary.flag_stalls[0].stall, 101u);
    // The critical path runs copy -> set -> wait -> Adds: 102 + 1 + 1 + 22 = 126 cycles, all of it executing.
    EXPECT_EQ(r.timeline.summary.critical_path, (std::vector<uint32_t>{1, 2, 3, 4}));
    EXPECT_EQ(r.timeline.summary.critical_busy[pipe_slot(Pipe::MTE2)], 103u);
    EXPECT_EQ(r.timeline.summary.critical_busy[pipe_slot(Pipe::V)], 23u);
    EXPECT_EQ(r.timeline.summary.critical_issue, 0u);
    // UB: the copy's 4096 bytes are live from its end (102) to the end of Adds' read (126).
    const auto& ub = r.timeline.ub[0];
    ASSERT_GE(ub.size(), 3u);
    EXPECT_EQ(ub[1].time, 102u);
    EXPECT_EQ(ub[1].bytes, 4096u);
}

uint64_t busy(const timing::Summary& s, Pipe p) {
    uint64_t b = 0;
    for (const auto& t : s.pipes)
        if (t.pipe == p) b += t.busy;
    return b;
}

// The double-buffered sample against its serialised twin: the same work with every tile fenced by
// PipeBarrier<PIPE_ALL>, so MTE2, V and MTE3 never run at once.
void serialised_kernel(GM_ADDR x, GM_ADDR y, uint32_t total, uint32_t tile) {
    Ub u(x, y, 2 * tile);
    LocalTensor<half> in = u.ub[0], out = u.ub[tile];
    for (uint32_t t = 0; t * tile < total; ++t) {
        DataCopy(in, u.gx[t * tile], tile);
        PipeBarrier<PIPE_ALL>();
        Muls(out, in, half(2.0f), static_cast<int32_t>(tile));
        PipeBarrier<PIPE_V>();
        Adds(out, out, half(1.0f), static_cast<int32_t>(tile));
        PipeBarrier<PIPE_ALL>();
        DataCopy(u.gy[t * tile], out, tile);
        PipeBarrier<PIPE_ALL>();
    }
}

TEST(CycleModel, DoubleBufferOverlapsAndItsSerialisedTwinDoesNot) {
    constexpr uint32_t total = 16 * 1024, tile = 1024;
    Config c;
    c.trace_accesses = true;
    const auto db = AscendC::samples::run_double_buffered_sample(c, total, tile);
    ASSERT_TRUE(db.report.clean()) << db.report.text();
    const timing::Timeline tdb = timing::simulate(db.trace, {ArchId::AtlasA2, 1, KernelType::aiv_only});
    const Timed se =
        run_timed([&](GM_ADDR x, GM_ADDR y) { serialised_kernel(x, y, total, tile); }, total * 2);
    ASSERT_TRUE(se.report.clean()) << se.report.text();
    const timing::Summary& a = tdb.summary;
    const timing::Summary& b = se.timeline.summary;
    const uint64_t sum_a = busy(a, Pipe::MTE2) + busy(a, Pipe::V) + busy(a, Pipe::MTE3);
    const uint64_t sum_b = busy(b, Pipe::MTE2) + busy(b, Pipe::V) + busy(b, Pipe::MTE3);
    EXPECT_LT(a.total, sum_a) << "double-buffered: " << a.total << " cycles, MTE2+V+MTE3 busy " << sum_a;
    EXPECT_GE(b.total, sum_b) << "serialised: " << b.total << " cycles, MTE2+V+MTE3 busy " << sum_b;
    EXPECT_GT(a.overlap, 1.3);
    EXPECT_DOUBLE_EQ(b.overlap, 1.0);
    EXPECT_EQ(b.mte_v_two_or_more, 0u);
    EXPECT_LT(a.total, b.total);
    // The same 16 copies each way on both sides: 2048 bytes GM->UB are 32 + 2048 / 58.56 -> 67 cycles, UB->GM
    // 32 + 2048 / 109.38 -> 51 cycles; the double-buffered kernel's MTE pipes also run its SetFlag /
    // WaitFlag, one cycle each.
    auto syncs_on = [&](Pipe p) {
        return static_cast<uint64_t>(
            std::count_if(db.trace.begin(), db.trace.end(), [&](const TraceEntry& e) {
                return e.pipe == p && (e.kind == InstrKind::set_flag || e.kind == InstrKind::wait_flag);
            }));
    };
    EXPECT_EQ(busy(b, Pipe::MTE2), 16u * 67u);
    EXPECT_EQ(busy(b, Pipe::MTE3), 16u * 51u);
    EXPECT_EQ(busy(a, Pipe::MTE2), 16u * 67u + syncs_on(Pipe::MTE2));
    EXPECT_EQ(busy(a, Pipe::MTE3), 16u * 51u + syncs_on(Pipe::MTE3));
    // The critical path's parts add up to the total.
    for (const timing::Summary* x : {&a, &b}) {
        uint64_t parts = x->critical_latency + x->critical_issue;
        for (uint64_t c : x->critical_busy) parts += c;
        EXPECT_EQ(parts, x->total);
    }
    // Roofline: the busiest pipe, and the launch is no faster than it.
    EXPECT_GE(a.total, a.roofline);
    EXPECT_GE(a.roofline_ratio, 1.0);
}

TEST(CycleModel, TimingChangesNoResultAndNoTrace) {
    constexpr uint32_t total = 4096, tile = 512;
    Config c;
    c.trace_accesses = true;
    const auto r = AscendC::samples::run_double_buffered_sample(c, total, tile);
    const auto again = AscendC::samples::run_double_buffered_sample(c, total, tile);
    const timing::Timeline t1 = timing::simulate(r.trace, {ArchId::AtlasA2, 1, KernelType::aiv_only});
    const timing::Timeline t2 = timing::simulate(again.trace, {ArchId::AtlasA2, 1, KernelType::aiv_only});
    EXPECT_EQ(r.out, again.out);
    EXPECT_EQ(t1.summary.total, t2.summary.total);  // deterministic
    ASSERT_EQ(t1.slices.size(), t2.slices.size());
    for (size_t i = 0; i < t1.slices.size(); ++i) {
        EXPECT_EQ(t1.slices[i].start, t2.slices[i].start);
        EXPECT_EQ(t1.slices[i].end, t2.slices[i].end);
    }
    // Slices of one pipe never overlap (a timeline viewer nests them).
    std::map<std::pair<int, int>, uint64_t> last_end;
    for (size_t i = 0; i < r.trace.size(); ++i) {
        const TraceEntry& e = r.trace[i];
        const int slot = (e.blocking || e.pipe == Pipe::S) ? 0 : pipe_slot(e.pipe);
        uint64_t& le = last_end[{e.core, slot}];
        EXPECT_GE(t1.slices[i].start, le) << "entry " << e.id << " " << e.op();
        le = t1.slices[i].end;
    }
}

TEST(CycleModel, ADeadlockLeavesTheRestUntimed) {
    const Timed r = run_timed([](GM_ADDR x, GM_ADDR y) {
        Ub u(x, y, 2048);
        WaitFlag<HardEvent::MTE2_V>(0);  // never set
        Adds(u.ub, u.ub, half(1.0f), 2048);
    });
    EXPECT_FALSE(r.report.clean());
    EXPECT_FALSE(r.timeline.complete);
}

TEST(CycleModel, EveryCostHasASource) {
    for (const ArchId a : kAllArchs) {
        const CostTable& t = cost_table(a);
        EXPECT_GT(t.clock_ghz.value, 0);
        EXPECT_FALSE(t.clock_ghz.source.empty());
        for (int p = 0; p < kDataPaths; ++p) {
            EXPECT_GT(t.paths[p].bytes_per_cycle.value, 0) << data_path_name(static_cast<DataPath>(p));
            EXPECT_FALSE(t.paths[p].bytes_per_cycle.source.empty());
            EXPECT_FALSE(t.paths[p].start_latency.source.empty());
        }
        for (const VectorCost& v : t.vector) EXPECT_FALSE(v.source.empty()) << v.op;
        // Every vector instruction of the vocabulary (the one table of lib/vocab) has an entry, and so do
        // the names issued besides (the tensor-tensor Compare, ruled as CompareScalar).
        for (const VectorOp op : all_vector_ops())
            EXPECT_NE(t.vector_cost(vector_op_name(op)), nullptr) << vector_op_name(op);
        EXPECT_NE(t.vector_cost("Compare"), nullptr);
    }
    // The AtlasA2 figures the issue names.
    const CostTable& a2 = cost_table(ArchId::AtlasA2);
    EXPECT_NEAR(a2.path(DataPath::gm_to_ub).bytes_per_cycle.value, 58.6, 0.1);
    EXPECT_NEAR(a2.path(DataPath::ub_to_gm).bytes_per_cycle.value, 109.4, 0.1);
    EXPECT_NEAR(a2.path(DataPath::ub_to_ub).bytes_per_cycle.value, 594, 1);
    EXPECT_EQ(a2.barrier_v.value, 16);
}

}  // namespace
}  // namespace evg::hw::testing
