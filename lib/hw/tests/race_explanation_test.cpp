// Race messages that explain the synchronisation that exists but does not help: a WaitFlag that consumed a
// set issued before the write it should cover; a cross-core flag set on the wrong pipe; a missing reverse
// flag (WAR).
#include <gtest/gtest.h>

#include "test_kernels.hpp"

namespace evg::hw::testing {
namespace {

using namespace AscendC;

bool has(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

// The SetFlag<MTE2_V> is issued before the copy it should announce (`early`), so the wait consumes it and the
// V read is not ordered after the copy.
Report run_early_set(bool early) {
    Device dev(Config{});
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
        if (early) SetFlag<HardEvent::MTE2_V>(0);  // #1
        DataCopy(a, gx, 64);                       // #2: MTE2 write a
        if (!early) SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);  // #3
        Adds(b, a, 1.0f, 64);            // #4: V read a
    });
}

TEST(RaceExplanation, WaitThatConsumedAnEarlierSetIsNamed) {
    Report r = run_early_set(true);
    const Violation* v = r.first(ViolationKind::race);
    ASSERT_NE(v, nullptr) << r.text();
    const std::string& m = v->message;
    EXPECT_TRUE(has(m, "RAW race on UB[AIV 0]")) << m;
    EXPECT_TRUE(has(m, "no WaitFlag<MTE2_V> orders MTE2 write #2 before V read #4")) << m;
    EXPECT_TRUE(has(
        m, "WaitFlag<MTE2_V>(0) #3 consumed SetFlag<MTE2_V>(0) #1, which was issued before MTE2 write #2"))
        << m;
    EXPECT_TRUE(run_early_set(false).violations.empty()) << run_early_set(false).text();
}

// One SetFlag<MTE2_V> too many before the loop: every wait consumes the set of the tile before.
TEST(RaceExplanation, OneSetTooManyBeforeTheLoopIsNamed) {
    Device dev(Config{});
    void* x = dev.malloc(512, "X");
    dev.copy_to_device(x, std::vector<float>(128, 1.0f).data(), 512);
    auto xp = static_cast<GM_ADDR>(x);
    Report r = dev.launch(1, KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 4 * 256);
        LocalTensor<float> a = buf.Get<float>(), b = a[128];
        GlobalTensor<float> gx;
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(xp));
        SetFlag<HardEvent::MTE2_V>(0);  // #1
        for (int t = 0; t < 2; ++t) {
            DataCopy(a[64 * t], gx[64 * t], 64);   // #2, #6
            SetFlag<HardEvent::MTE2_V>(0);         // #3, #7
            WaitFlag<HardEvent::MTE2_V>(0);        // #4, #8
            Adds(b[64 * t], a[64 * t], 1.0f, 64);  // #5, #9
        }
        WaitFlag<HardEvent::MTE2_V>(0);
    });
    EXPECT_GE(r.count(ViolationKind::flag_set_twice), 1u) << r.text();
    // Both tiles race from the same sites: one violation, two occurrences, named by the first.
    ASSERT_EQ(r.count(ViolationKind::race), 1u) << r.text();
    const Violation* v = r.first(ViolationKind::race);
    EXPECT_EQ(v->occurrences, 2u);
    EXPECT_TRUE(
        has(v->message,
            "WaitFlag<MTE2_V>(0) #4 consumed SetFlag<MTE2_V>(0) #1, which was issued before MTE2 write #2"))
        << v->message;
}

// Two tiles; the second tile's WaitFlag<MTE2_V> is dropped. The first tile's wait ran before the second
// tile's copy was issued: it was never meant to order it, and the message does not blame it.
TEST(RaceExplanation, AWaitIssuedBeforeTheWriteIsNotBlamed) {
    Device dev(Config{});
    void* x = dev.malloc(512, "X");
    dev.copy_to_device(x, std::vector<float>(128, 1.0f).data(), 512);
    auto xp = static_cast<GM_ADDR>(x);
    Report r = dev.launch(1, KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 4 * 256);
        LocalTensor<float> a = buf.Get<float>(), b = a[128];
        GlobalTensor<float> gx;
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(xp));
        for (int t = 0; t < 2; ++t) {
            DataCopy(a[64 * t], gx[64 * t], 64);
            SetFlag<HardEvent::MTE2_V>(t);
            if (t == 0) WaitFlag<HardEvent::MTE2_V>(t);
            Adds(b[64 * t], a[64 * t], 1.0f, 64);
        }
        WaitFlag<HardEvent::MTE2_V>(1);  // keeps the flags balanced so that only the race remains
    });
    ASSERT_EQ(r.count(ViolationKind::race), 1u) << r.text();
    const std::string& m = r.first(ViolationKind::race)->message;
    EXPECT_TRUE(has(m, "no WaitFlag<MTE2_V> orders MTE2 write #5 before V read #7")) << m;
    EXPECT_FALSE(has(m, "consumed")) << m;
}

TEST(RaceExplanation, MissingWaitStillSaysOnlyThatNoWaitOrdersThePair) {
    DbFaults f;
    f.drop_wait_mte2_v = true;
    Config c;
    auto r = run_double_buffered(c, 6 * 256, 256, f);
    const Violation* v = r.report.first(ViolationKind::race);
    ASSERT_NE(v, nullptr) << r.report.text();
    EXPECT_TRUE(has(v->message, "no WaitFlag<MTE2_V> orders")) << v->message;
}

// Each AIV stores its half of X on MTE3 and tells the AIC with a mode-2 flag set on `set_pipe`; the AIC reads
// X.
Report run_cross_core_signal(bool on_v) {
    Device dev(Config{});
    void* x = dev.malloc(512, "X");
    auto xp = static_cast<GM_ADDR>(x);
    return dev.launch(1, KernelType::mix_aic_1_2, [&] {
        GlobalTensor<float> gx;
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(xp));
        if ASCEND_IS_AIC {
            LocalTensor<float> l1(TPosition::A1, 0, 128);
            CrossCoreWaitFlag<2, PIPE_MTE2>(0);
            DataCopy(l1, gx, 128);  // MTE2 read X
        } else {
            TPipe pipe;
            TBuf<TPosition::VECCALC> buf;
            pipe.InitBuffer(buf, 256);
            LocalTensor<float> a = buf.Get<float>();
            Duplicate(a, 1.0f, 64);
            SetFlag<HardEvent::V_MTE3>(0);
            WaitFlag<HardEvent::V_MTE3>(0);
            DataCopy(gx[64 * GetSubBlockIdx()], a, 64);  // MTE3 write X
            if (on_v)
                CrossCoreSetFlag<2, PIPE_V>(0);
            else
                CrossCoreSetFlag<2, PIPE_MTE3>(0);
        }
    });
}

TEST(RaceExplanation, CrossCoreFlagOnTheWrongPipeIsNamed) {
    Report r = run_cross_core_signal(true);
    const Violation* v = r.first(ViolationKind::race);
    ASSERT_NE(v, nullptr) << r.text();
    const std::string& m = v->message;
    EXPECT_TRUE(has(m, "RAW race on X")) << m;
    EXPECT_TRUE(has(m, "no cross-core flag orders MTE3 write #")) << m;
    EXPECT_TRUE(has(m, "CrossCoreSetFlag<2, PIPE_V>(0) #")) << m;
    EXPECT_TRUE(has(m, "reaches AIC 0 but is set on V, so it does not wait for MTE3 write #")) << m;
    EXPECT_TRUE(has(m, "set it on PIPE_MTE3")) << m;
    EXPECT_TRUE(has(m, "the missing edge is a flag from AIV")) << m;
    EXPECT_FALSE(has(m, "reverse")) << m;
    Report fixed = run_cross_core_signal(false);
    EXPECT_TRUE(fixed.violations.empty()) << fixed.text();
}

// The AIC reads X, then the AIVs overwrite it. The only flag goes from the AIVs to the AIC: the AIVs never
// learn that the AIC has finished reading (a missing reverse flag, a WAR).
Report run_reverse(bool with_reverse) {
    Device dev(Config{});
    void* x = dev.malloc(512, "X");
    auto xp = static_cast<GM_ADDR>(x);
    return dev.launch(1, KernelType::mix_aic_1_2, [&] {
        GlobalTensor<float> gx;
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(xp));
        if ASCEND_IS_AIC {
            LocalTensor<float> l1(TPosition::A1, 0, 128);
            DataCopy(l1, gx, 128);  // MTE2 read X
            if (with_reverse) CrossCoreSetFlag<2, PIPE_MTE2>(1);
            CrossCoreWaitFlag<2, PIPE_MTE2>(0);
        } else {
            TPipe pipe;
            TBuf<TPosition::VECCALC> buf;
            pipe.InitBuffer(buf, 256);
            LocalTensor<float> a = buf.Get<float>();
            CrossCoreSetFlag<2, PIPE_MTE3>(0);
            if (with_reverse) CrossCoreWaitFlag<2, PIPE_MTE3>(1);
            Duplicate(a, 1.0f, 64);
            SetFlag<HardEvent::V_MTE3>(0);
            WaitFlag<HardEvent::V_MTE3>(0);
            DataCopy(gx[64 * GetSubBlockIdx()], a, 64);  // MTE3 write X
        }
    });
}

TEST(RaceExplanation, MissingReverseFlagIsAWarNamedAsSuch) {
    Report r = run_reverse(false);
    const Violation* v = r.first(ViolationKind::race);
    ASSERT_NE(v, nullptr) << r.text();
    const std::string& m = v->message;
    EXPECT_TRUE(has(m, "WAR race on X")) << m;
    EXPECT_TRUE(has(m, "no cross-core flag orders MTE2 read #1 of AIC 0 before MTE3 write #")) << m;
    EXPECT_TRUE(has(
        m, "this is a WAR: the missing edge is a reverse flag from AIC 0 (after its read #1) back to AIV"))
        << m;
    EXPECT_TRUE(has(m, "the cross-core flags between them go only from AIV")) << m;
    EXPECT_FALSE(has(m, "RAW")) << m;
    Report fixed = run_reverse(true);
    EXPECT_TRUE(fixed.violations.empty()) << fixed.text();
}

}  // namespace
}  // namespace evg::hw::testing
