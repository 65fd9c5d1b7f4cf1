// The data-cache coherence rule: GM bytes a scalar SetValue wrote stay in the core's data cache until
// DataCacheCleanAndInvalid writes them back; a DMA (of this core or another) or another core's scalar read of
// them before that reads stale GM.
#include <gtest/gtest.h>

#include "test_kernels.hpp"

namespace evg::hw::testing {
namespace {

using namespace AscendC;

enum class Clean { none, line, entire, wrong_line, reserved_dst };

// One AIV: x[1] = 3 by SetValue, then a DMA copies x[0..8) into the UB.
Report same_core(Clean clean) {
    Device dev;
    void* x = dev.malloc(256, "X");
    dev.copy_to_device(x, std::vector<float>(64, 1.0f).data(), 256);
    auto xp = static_cast<GM_ADDR>(x);
    return dev.launch(1, KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 256);
        LocalTensor<float> ub = buf.Get<float>();
        GlobalTensor<float> gx;
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(xp));
        gx.SetValue(1, 3.0f);
        switch (clean) {
            case Clean::none:
                break;
            case Clean::line:
                DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(gx);
                break;
            case Clean::entire:
                DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE>(gx[40]);
                break;
            case Clean::wrong_line:  // x[16] starts the next 64-byte line
                DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(gx[16]);
                break;
            case Clean::reserved_dst:
                DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_UB>(gx);
                break;
        }
        DataCopy(ub, gx, 8);
    });
}

TEST(DcacheChecker, DmaReadOfAnUncleanedScalarWriteFires) {
    Report r = same_core(Clean::none);
    ASSERT_EQ(r.count(ViolationKind::dcache_not_clean), 1u) << r.text();
    const Violation* v = r.first(ViolationKind::dcache_not_clean);
    EXPECT_NE(v->message.find("DataCopy GM->UB (pipe MTE2 read #2 at dcache_test.cpp:"), std::string::npos)
        << v->message;
    EXPECT_NE(v->message.find("reads GM bytes [4, 8) of X that SetValue #1 at dcache_test.cpp:"),
              std::string::npos)
        << v->message;
    EXPECT_NE(v->message.find(
                  "call DataCacheCleanAndInvalid<T, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>"),
              std::string::npos)
        << v->message;
    ASSERT_EQ(v->locations.size(), 2u);
    EXPECT_EQ(v->locations[0].op, "SetValue");
    EXPECT_EQ(v->locations[0].pipe, "S");
    EXPECT_EQ(v->locations[1].pipe, "MTE2");
    EXPECT_EQ(v->locations[1].access, "read");
}

TEST(DcacheChecker, QuietAfterACleanOfTheLineOrTheWholeCache) {
    for (Clean c : {Clean::line, Clean::entire}) {
        Report r = same_core(c);
        EXPECT_TRUE(r.violations.empty()) << r.text();
    }
}

TEST(DcacheChecker, CleanOfAnotherLineOrAReservedTargetDoesNotHelp) {
    Report wrong = same_core(Clean::wrong_line);
    EXPECT_EQ(wrong.count(ViolationKind::dcache_not_clean), 1u) << wrong.text();
    Report reserved = same_core(Clean::reserved_dst);
    EXPECT_EQ(reserved.count(ViolationKind::dcache_not_clean), 1u) << reserved.text();
    const Violation* w = reserved.first(ViolationKind::bad_param);
    ASSERT_NE(w, nullptr) << reserved.text();
    EXPECT_EQ(w->severity, Severity::warning);
    EXPECT_NE(w->message.find("DcciDst::CACHELINE_UB is a reserved"), std::string::npos) << w->message;
}

// AIV 0.0 writes x[0] by SetValue, then both AIVs meet on a mode-1 cross-core flag and AIV 0.1 copies x in
// (or reads x[0] with its own scalar unit).
Report other_core(bool clean, ArchId arch, bool scalar_read = false) {
    Config cfg;
    cfg.arch = arch;
    Device dev(cfg);
    void* x = dev.malloc(256, "X");
    dev.copy_to_device(x, std::vector<float>(64, 1.0f).data(), 256);
    auto xp = static_cast<GM_ADDR>(x);
    return dev.launch(1, KernelType::mix_aic_1_2, [&] {
        if ASCEND_IS_AIC
            return;
        GlobalTensor<float> gx;
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(xp));
        if (GetSubBlockIdx() == 0) {
            gx.SetValue(0, 5.0f);
            if (clean)
                DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(gx);
        }
        CrossCoreSetFlag<1, PIPE_MTE3>(2);
        CrossCoreWaitFlag<1, PIPE_MTE2>(2);
        if (GetSubBlockIdx() == 1 && scalar_read) {
            (void)gx.GetValue(0);
        } else if (GetSubBlockIdx() == 1) {
            TPipe pipe;
            TBuf<TPosition::VECCALC> buf;
            pipe.InitBuffer(buf, 256);
            DataCopy(buf.Get<float>(), gx, 8);
        }
    });
}

TEST(DcacheChecker, AnotherCoresDmaReadFiresWhenItExecutes) {
    for (ArchId a : kAllArchs) {
        Report bad = other_core(false, a);
        ASSERT_EQ(bad.count(ViolationKind::dcache_not_clean), 1u) << bad.text();
        const Violation* v = bad.first(ViolationKind::dcache_not_clean);
        EXPECT_NE(v->message.find("AIV 1 (block 0, sub 1)) reads GM bytes [0, 4) of X that SetValue"),
                  std::string::npos)
            << v->message;
        EXPECT_EQ(v->locations[0].core_name, "AIV 0 (block 0, sub 0)");
        Report good = other_core(true, a);
        EXPECT_TRUE(good.violations.empty()) << good.text();
    }
}

TEST(DcacheChecker, AnotherCoresScalarReadFires) {
    Report bad = other_core(false, ArchId::AtlasA2, true);
    ASSERT_EQ(bad.count(ViolationKind::dcache_not_clean), 1u) << bad.text();
    EXPECT_NE(bad.first(ViolationKind::dcache_not_clean)->message.find("GetValue (pipe S read #"),
              std::string::npos)
        << bad.text();
    Report good = other_core(true, ArchId::AtlasA2, true);
    EXPECT_TRUE(good.violations.empty()) << good.text();
}

TEST(DcacheChecker, ScalarReadOnTheWritingCoreIsFine) {
    Device dev;
    void* x = dev.malloc(64, "X");
    auto xp = static_cast<GM_ADDR>(x);
    float got = 0;
    Report r = dev.launch(1, KernelType::aiv_only, [&] {
        GlobalTensor<float> gx;
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(xp));
        gx.SetValue(2, 7.0f);
        got = gx.GetValue(2);
    });
    EXPECT_TRUE(r.violations.empty()) << r.text();
    EXPECT_EQ(got, 7.0f);
}

}  // namespace
}  // namespace evg::hw::testing
