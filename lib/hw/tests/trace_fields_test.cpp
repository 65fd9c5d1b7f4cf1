// Trace entries carry their sync fields, epochs, stream positions, sync indices, blocking and accesses; the
// expected values are worked out by hand from the kernels below.
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>

#include "test_kernels.hpp"

namespace evg::hw::testing {
namespace {

using namespace AscendC;

struct Traced {
    Report report;
    Trace trace;
    uint32_t x_uid = 0;
};

Traced run(std::function<void(GM_ADDR)> k, KernelType t, int blocks, ArchId arch, bool accesses) {
    Config c;
    c.arch = arch;
    c.trace_accesses = accesses;
    Device dev(c);
    void* x = dev.malloc(256, "X");
    dev.copy_to_device(x, std::vector<uint8_t>(256, 0).data(), 256);
    Traced r;
    r.x_uid = dev.find(x)->mem->uid();
    auto xp = static_cast<GM_ADDR>(x);
    r.report = dev.launch(blocks, t, [&] { k(xp); });
    r.trace = dev.take_last_trace();
    return r;
}

// One AIV: every kind of sync call, a copy, a vector op, a scalar read and PIPE_ALL.
void small_kernel(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    LocalTensor<half> ub = buf.Get<half>();
    GlobalTensor<half> gx;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x));
    SetFlag<HardEvent::V_MTE2>(0);   // 1
    WaitFlag<HardEvent::V_MTE2>(0);  // 2
    DataCopy(ub, gx, 16);            // 3
    SetFlag<HardEvent::MTE2_V>(1);   // 4
    WaitFlag<HardEvent::MTE2_V>(1);  // 5
    Adds(ub, ub, half(1.0f), 16);    // 6
    PipeBarrier<PIPE_V>();           // 7
    SetFlag<HardEvent::V_S>(0);      // 8
    WaitFlag<HardEvent::V_S>(0);     // 9
    (void)ub.GetValue(0);            // 10
    PipeBarrier<PIPE_ALL>();         // 11
}

struct Want {
    Pipe pipe;
    InstrKind kind;
    uint32_t epoch;
    int32_t sync;
    bool blocking;
};

TEST(TraceFields, SmallKernelByHand) {
    Traced r = run(small_kernel, KernelType::aiv_only, 1, ArchId::AtlasA2, true);
    ASSERT_TRUE(r.report.clean()) << r.report.text();
    EXPECT_EQ(r.report.kernel_type, KernelType::aiv_only);
    // Epochs count per pipe: V 1 (set), MTE2 1 (wait) 2 (copy) 3 (set), V 2 (wait) 3 (Adds) 4 (barrier) 5
    // (set), S 1 (wait) 2 (GetValue) 3 (PIPE_ALL). Sync indices count the sync calls only.
    const Want want[] = {
        {Pipe::V, InstrKind::set_flag, 1, 0, false},  {Pipe::MTE2, InstrKind::wait_flag, 1, 1, false},
        {Pipe::MTE2, InstrKind::plain, 2, -1, false}, {Pipe::MTE2, InstrKind::set_flag, 3, 2, false},
        {Pipe::V, InstrKind::wait_flag, 2, 3, false}, {Pipe::V, InstrKind::plain, 3, -1, false},
        {Pipe::V, InstrKind::barrier, 4, 4, false},   {Pipe::V, InstrKind::set_flag, 5, 5, false},
        {Pipe::S, InstrKind::wait_flag, 1, 6, true},  {Pipe::S, InstrKind::plain, 2, -1, false},
        {Pipe::S, InstrKind::barrier, 3, 7, true},
    };
    ASSERT_EQ(r.trace.size(), std::size(want));
    for (size_t i = 0; i < std::size(want); ++i) {
        const TraceEntry& t = r.trace[i];
        SCOPED_TRACE(::testing::Message() << "entry " << i + 1 << " " << t.op());
        EXPECT_EQ(t.id, i + 1);
        EXPECT_EQ(t.core, 0);
        EXPECT_EQ(t.pipe, want[i].pipe);
        EXPECT_EQ(t.kind, want[i].kind);
        EXPECT_EQ(t.epoch, want[i].epoch);
        EXPECT_EQ(t.stream, i + 1);
        EXPECT_EQ(t.sync_index, want[i].sync);
        EXPECT_EQ(t.blocking, want[i].blocking);
    }
    EXPECT_EQ(r.trace[0].event, HardEvent::V_MTE2);
    EXPECT_EQ(r.trace[0].event_id, 0);
    EXPECT_EQ(r.trace[3].event, HardEvent::MTE2_V);
    EXPECT_EQ(r.trace[3].event_id, 1);
    EXPECT_EQ(r.trace[8].event, HardEvent::V_S);
    EXPECT_EQ(r.trace[2].event_id, -1);  // not a flag instruction
    EXPECT_EQ(r.trace[6].barrier_pipe, Pipe::V);
    EXPECT_EQ(r.trace[10].barrier_pipe, Pipe::ALL);
    EXPECT_EQ(r.trace[10].op(), "PipeBarrier<PIPE_ALL>");
    // The copy reads 32 bytes of X and writes 32 bytes of the UB; Adds reads and writes the same UB bytes.
    ASSERT_EQ(r.trace.accesses(2).size(), 2u);
    const TraceAccess* gm = nullptr;
    const TraceAccess* ub = nullptr;
    for (const auto& a : r.trace.accesses(2)) (a.mem == r.x_uid ? gm : ub) = &a;
    ASSERT_NE(gm, nullptr);
    ASSERT_NE(ub, nullptr);
    EXPECT_FALSE(gm->write);
    EXPECT_EQ(gm->begin, 0u);
    EXPECT_EQ(gm->end, 32u);
    EXPECT_TRUE(ub->write);
    EXPECT_EQ(ub->begin, 0u);
    EXPECT_EQ(ub->end, 32u);
    EXPECT_FALSE(ub->atomic);
    bool adds_writes_ub = false;
    for (const auto& a : r.trace.accesses(5)) adds_writes_ub |= a.mem == ub->mem && a.write && a.end == 32;
    EXPECT_TRUE(adds_writes_ub);
    ASSERT_EQ(r.trace.accesses(9).size(), 1u);  // GetValue(0): two bytes of the UB, read
    EXPECT_EQ(r.trace.accesses(9)[0].mem, ub->mem);
    EXPECT_EQ(r.trace.accesses(9)[0].end, 2u);
    EXPECT_FALSE(r.trace.accesses(9)[0].write);
    for (const auto& t : r.trace)
        EXPECT_TRUE(t.kind == InstrKind::plain || r.trace.accesses_of(t).empty()) << t.op();
}

TEST(TraceFields, AccessesOnlyWhenAsked) {
    Traced r = run(small_kernel, KernelType::aiv_only, 1, ArchId::AtlasA2, false);
    ASSERT_EQ(r.trace.size(), 11u);
    for (const auto& t : r.trace) EXPECT_TRUE(r.trace.accesses_of(t).empty()) << t.op();
}

void cross_kernel(GM_ADDR) {
    if ASCEND_IS_AIC {
        CrossCoreSetFlag<2, PIPE_FIX>(3);
    } else {
        CrossCoreWaitFlag<2, PIPE_V>(3);
    }
}

TEST(TraceFields, CrossCoreFieldsAndBlockingPerChip) {
    for (ArchId a : kAllArchs) {
        Traced r = run(cross_kernel, KernelType::mix_aic_1_2, 1, a, false);
        ASSERT_TRUE(r.report.clean()) << r.report.text();
        EXPECT_EQ(r.report.kernel_type, KernelType::mix_aic_1_2);
        ASSERT_EQ(r.trace.size(), 3u);
        for (const auto& t : r.trace) {
            EXPECT_EQ(t.cross_mode, 2);
            EXPECT_EQ(t.cross_flag, 3);
            EXPECT_EQ(t.stream, 1u);
            EXPECT_EQ(t.sync_index, 0);
            EXPECT_EQ(t.epoch, 1u);
            if (t.core == 0) {
                EXPECT_EQ(t.kind, InstrKind::cross_set);
                EXPECT_EQ(t.pipe, Pipe::FIX);
                EXPECT_FALSE(t.blocking);
            } else {
                // AtlasA2: the wait stalls the scalar unit; Ascend950: it waits in the V queue.
                EXPECT_EQ(t.kind, InstrKind::cross_wait);
                EXPECT_EQ(t.pipe, a == ArchId::AtlasA2 ? Pipe::S : Pipe::V);
                EXPECT_EQ(t.blocking, a == ArchId::AtlasA2);
            }
        }
    }
}

TEST(TraceFields, DoubleBufferedStreamAndSyncNumbering) {
    // Per tile: 13 calls of which 9 are sync calls, after 4 initial sets; tile t's DataCopy GM->UB is at
    // stream 4 + 13t + 2 and its WaitFlag<MTE2_V> at sync index 4 + 9t + 2.
    Config c;
    auto r = run_double_buffered(c, 4 * 256, 256);
    ASSERT_TRUE(r.report.clean()) << r.report.text();
    ASSERT_EQ(r.trace.size(), 4u + 4 * 13 + 4);
    for (uint32_t t = 0; t < 4; ++t) {
        const TraceEntry& copy = r.trace[4 + 13 * t + 1];
        EXPECT_EQ(copy.stream, 4 + 13 * t + 2);
        EXPECT_EQ(copy.op(), "DataCopy GM->UB");
        EXPECT_EQ(copy.sync_index, -1);
        const TraceEntry& wait = r.trace[4 + 13 * t + 3];
        EXPECT_EQ(wait.kind, InstrKind::wait_flag);
        EXPECT_EQ(wait.event, HardEvent::MTE2_V);
        EXPECT_EQ(wait.event_id, static_cast<int>(t % 2));
        EXPECT_EQ(wait.sync_index, static_cast<int32_t>(4 + 9 * t + 2));
    }
    EXPECT_EQ(r.trace.back().sync_index, 4 + 4 * 9 + 3);
}

TEST(CoreShortName, PerLaunchShape) {
    EXPECT_EQ(core_short_name(KernelType::mix_aic_1_2, 2, 0), "AIC0");
    EXPECT_EQ(core_short_name(KernelType::mix_aic_1_2, 2, 1), "AIC1");
    EXPECT_EQ(core_short_name(KernelType::mix_aic_1_2, 2, 2), "AIV0.0");
    EXPECT_EQ(core_short_name(KernelType::mix_aic_1_2, 2, 5), "AIV1.1");
    EXPECT_EQ(core_short_name(KernelType::aiv_only, 3, 2), "AIV2");
    EXPECT_EQ(core_short_name(KernelType::aic_only, 3, 1), "AIC1");
    std::vector<std::string> names;
    Device dev;
    std::mutex mu;
    dev.launch(1, KernelType::mix_aic_1_2, [&] {
        std::lock_guard lk(mu);
        names.push_back(current_core().short_name());
    });
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"AIC0", "AIV0.0", "AIV0.1"}));
}

// core_name of a launch-wide index is the name the launched core has (what every Location names), for each
// launch shape.
TEST(CoreName, IsTheNameOfTheLaunchedCore) {
    for (const auto& [type, block_dim] :
         {std::pair{KernelType::mix_aic_1_2, 2}, std::pair{KernelType::aiv_only, 3},
          std::pair{KernelType::aic_only, 2}}) {
        std::vector<std::pair<int, std::string>> seen;
        std::mutex mu;
        Device dev;
        dev.launch(block_dim, type, [&] {
            std::lock_guard lk(mu);
            seen.emplace_back(current_core().index(), current_core().name());
        });
        ASSERT_FALSE(seen.empty());
        for (const auto& [index, name] : seen) EXPECT_EQ(core_name(type, block_dim, index), name) << index;
    }
    EXPECT_EQ(core_name(KernelType::mix_aic_1_2, 2, 5), "AIV 3 (block 1, sub 1)");
}

}  // namespace
}  // namespace evg::hw::testing
