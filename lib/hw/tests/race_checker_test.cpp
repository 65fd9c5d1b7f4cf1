// The race checker fires on a missing WaitFlag or PipeBarrier and stays quiet on the fixed kernel.
#include <gtest/gtest.h>

#include "test_kernels.hpp"

namespace evg::hw::testing {
namespace {

Config arch_cfg(ArchId a) {
    Config c;
    c.arch = a;
    return c;
}

TEST(RaceChecker, DoubleBufferedKernelIsCleanOnBothArchs) {
    for (ArchId a : kAllArchs) {
        auto r = run_double_buffered(arch_cfg(a), 8 * 256, 256);
        EXPECT_TRUE(r.report.clean()) << r.report.text();
        EXPECT_EQ(r.report.violations.size(), 0u) << r.report.text();
        // y = x * 2 + 1, exact for these quarter-integer inputs.
        for (uint32_t i = 0; i < r.out.size(); ++i) {
            float x = static_cast<float>(static_cast<int>(i % 97) - 48) / 4.0f;
            ASSERT_EQ(r.out[i], half(x * 2.0f + 1.0f).bits) << "element " << i;
        }
    }
}

TEST(RaceChecker, MissingWaitMte2VIsARaceNamingBothInstructions) {
    DbFaults f;
    f.drop_wait_mte2_v = true;
    auto r = run_double_buffered(arch_cfg(ArchId::AtlasA2), 4 * 256, 256, f);
    const Violation* v = r.report.first(ViolationKind::race);
    ASSERT_NE(v, nullptr) << r.report.text();
    EXPECT_NE(v->message.find("no WaitFlag<MTE2_V> orders MTE2 write #"), std::string::npos) << v->message;
    EXPECT_NE(v->message.find("before V read #"), std::string::npos) << v->message;
    ASSERT_EQ(v->locations.size(), 2u);
    EXPECT_EQ(v->locations[0].pipe, "MTE2");
    EXPECT_EQ(v->locations[0].access, "write");
    EXPECT_EQ(v->locations[0].op, "DataCopy GM->UB");
    EXPECT_EQ(v->locations[1].pipe, "V");
    EXPECT_EQ(v->locations[1].access, "read");
    EXPECT_EQ(v->locations[1].op, "Muls");
    EXPECT_EQ(v->locations[0].memory, "UB[AIV 0]");
    EXPECT_NE(v->locations[0].site.find("double_buffered.hpp:"), std::string::npos);
    EXPECT_GT(v->locations[1].instr, v->locations[0].instr);
}

TEST(RaceChecker, MissingWaitVMte3IsARace) {
    DbFaults f;
    f.drop_wait_v_mte3 = true;
    auto r = run_double_buffered(arch_cfg(ArchId::Ascend950), 4 * 256, 256, f);
    const Violation* v = r.report.first(ViolationKind::race);
    ASSERT_NE(v, nullptr) << r.report.text();
    EXPECT_NE(v->message.find("no WaitFlag<V_MTE3> orders V write #"), std::string::npos) << v->message;
}

TEST(RaceChecker, MissingPipeBarrierVIsARaceOnAtlasA2Only) {
    DbFaults f;
    f.drop_barrier_v = true;
    auto a2 = run_double_buffered(arch_cfg(ArchId::AtlasA2), 4 * 256, 256, f);
    const Violation* v = a2.report.first(ViolationKind::race);
    ASSERT_NE(v, nullptr) << a2.report.text();
    EXPECT_NE(v->message.find("no PipeBarrier<PIPE_V> orders V write #"), std::string::npos) << v->message;
    EXPECT_EQ(v->locations[0].op, "Muls");
    EXPECT_EQ(v->locations[1].op, "Adds");
    auto a950 = run_double_buffered(arch_cfg(ArchId::Ascend950), 4 * 256, 256, f);
    EXPECT_TRUE(a950.report.clean()) << a950.report.text();
    EXPECT_EQ(a950.report.count(ViolationKind::race), 0u);
}

TEST(RaceChecker, CanBeSwitchedOff) {
    DbFaults f;
    f.drop_barrier_v = true;
    Config c = arch_cfg(ArchId::AtlasA2);
    c.checks.race = false;
    auto r = run_double_buffered(c, 4 * 256, 256, f);
    EXPECT_EQ(r.report.count(ViolationKind::race), 0u) << r.report.text();
}

TEST(RaceChecker, ReportPrintsAsTextAndJson) {
    DbFaults f;
    f.drop_wait_mte2_v = true;
    auto r = run_double_buffered(arch_cfg(ArchId::AtlasA2), 2 * 256, 256, f);
    std::string text = r.report.text();
    EXPECT_NE(text.find("error [race]"), std::string::npos) << text;
    std::string json = r.report.json();
    EXPECT_NE(json.find("\"kind\": \"race\""), std::string::npos) << json;
    EXPECT_NE(json.find("\"clean\": false"), std::string::npos);
}

// Two cores writing the same GM bytes with no cross-core flag between them race.
TEST(RaceChecker, CrossCoreGmWritesRace) {
    Device dev(arch_cfg(ArchId::AtlasA2));
    void* g = dev.malloc(256, "G");
    auto gp = static_cast<GM_ADDR>(g);
    auto& rep = dev.launch(2, KernelType::aiv_only, [&] {
        using namespace AscendC;
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 256);
        LocalTensor<float> t = buf.Get<float>();
        Duplicate(t, 1.0f, 64);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        GlobalTensor<float> gt;
        gt.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gp));
        DataCopy(gt, t, 64);
    });
    const Violation* v = rep.first(ViolationKind::race);
    ASSERT_NE(v, nullptr) << rep.text();
    EXPECT_NE(v->message.find("no cross-core flag orders"), std::string::npos) << v->message;
}

}  // namespace
}  // namespace evg::hw::testing

namespace evg::hw::testing {
namespace {

// An in-place vector instruction (it reads and writes the same bytes) after an earlier V read of those bytes:
// on AtlasA2 two V instructions are unordered without a barrier, so the in-place write races with the earlier
// read (WAR). The instruction's own read of the bytes must not hide the earlier one.
Report run_read_then_in_place(ArchId arch, bool barrier) {
    Config cfg;
    cfg.arch = arch;
    Device dev(cfg);
    void* x = dev.malloc(256, "X");
    dev.copy_to_device(x, std::vector<float>(64, 1.0f).data(), 256);
    auto xp = static_cast<GM_ADDR>(x);
    return dev.launch(1, KernelType::aiv_only, [&] {
        using namespace AscendC;
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 2 * 256);
        LocalTensor<float> a = buf.Get<float>(), b = a[64];
        GlobalTensor<float> gx;
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(xp));
        DataCopy(a, gx, 64);
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        Adds(b, a, 1.0f, 64);  // V read a
        if (barrier) PipeBarrier<PIPE_V>();
        Adds(a, a, 2.0f, 64);  // V read and write a
        PipeBarrier<PIPE_V>();
        Adds(b, b, 0.0f, 64);
    });
}

TEST(RaceChecker, InPlaceWriteRacesWithAnEarlierUnorderedReadOfTheSamePipe) {
    Report r = run_read_then_in_place(ArchId::AtlasA2, false);
    const Violation* v = r.first(ViolationKind::race);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(v->message.find("WAR race on UB[AIV 0]"), std::string::npos) << v->message;
    EXPECT_NE(v->message.find("no PipeBarrier<PIPE_V> orders V read #"), std::string::npos) << v->message;
    Report fixed = run_read_then_in_place(ArchId::AtlasA2, true);
    EXPECT_TRUE(fixed.violations.empty()) << fixed.text();
    Report a950 = run_read_then_in_place(ArchId::Ascend950, false);  // V keeps order there
    EXPECT_TRUE(a950.violations.empty()) << a950.text();
}

}  // namespace
}  // namespace evg::hw::testing
