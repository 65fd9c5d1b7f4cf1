// The CANN host API beside ACL that Catlass's example programs use: op::fp16_t and op::bfloat16 (bit-exact,
// the machine's own conversions), the platform query (core counts from the arch table), the environment
// switches of the ACL shim (schedule, strict exit).
#include <gtest/gtest.h>

#include <opdev/bfloat16.h>
#include <opdev/fp16_t.h>
#include <tiling/platform/platform_ascendc.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "acl/acl.h"
#include "evg/hw/device.hpp"
#include "evg/hw/numeric/convert.hpp"
#include "kernel_operator.h"

namespace {

using namespace AscendC;

// Every 16-bit pattern survives fp16_t -> float -> fp16_t, and the float is the machine's reading of it.
TEST(CannHost, Fp16RoundTripsEveryPatternThroughTheMachinesConversion) {
    for (uint32_t b = 0; b < 65536; ++b) {
        const op::fp16_t h = op::fp16_t::from_bits(static_cast<uint16_t>(b));
        const float f = h;
        const float machine = evg::hw::half::from_bits(static_cast<uint16_t>(b));
        ASSERT_EQ(std::bit_cast<uint32_t>(f), std::bit_cast<uint32_t>(machine)) << b;
        if (!std::isnan(f)) {
            ASSERT_EQ(op::fp16_t(f).val, b) << b;
        }
    }
}

// float -> fp16_t rounds to nearest, ties to even: checked on the midpoints between neighbouring halves,
// whose correct result is known without any conversion code (the even neighbour).
TEST(CannHost, Fp16RoundsMidpointsToEven) {
    for (uint32_t b = 0x0400; b < 0x7BFF; b += 97) {  // normal positive halves
        const float lo = evg::hw::half::from_bits(static_cast<uint16_t>(b));
        const float hi = evg::hw::half::from_bits(static_cast<uint16_t>(b + 1));
        const float mid = lo + (hi - lo) / 2;  // exact in float
        const uint16_t even = (b % 2 == 0) ? static_cast<uint16_t>(b) : static_cast<uint16_t>(b + 1);
        EXPECT_EQ(op::fp16_t(mid).val, even) << std::hex << b;
        EXPECT_EQ(op::fp16_t(std::nextafter(mid, hi)).val, b + 1) << std::hex << b;
        EXPECT_EQ(op::fp16_t(std::nextafter(mid, lo)).val, b) << std::hex << b;
    }
    EXPECT_EQ(op::fp16_t(65520.0f).val, 0x7C00);  // rounds past the largest half: infinity
    EXPECT_EQ((op::fp16_t(1.5f) + op::fp16_t(2.25f)).val, op::fp16_t(3.75f).val);
}

TEST(CannHost, Bfloat16IsTheUpperHalfOfAFloatRoundedToEven) {
    for (uint32_t b = 0; b < 65536; b += 7) {
        const op::bfloat16 v = op::bfloat16::from_bits(static_cast<uint16_t>(b));
        const float f = v;
        ASSERT_EQ(std::bit_cast<uint32_t>(f), b << 16) << b;
        if (!std::isnan(f)) {
            ASSERT_EQ(op::bfloat16(f).value, b) << b;
        }
    }
    // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to the even one, 1.
    EXPECT_EQ(op::bfloat16(1.0f + 1.0f / 256).value, 0x3F80);
    EXPECT_EQ(op::bfloat16(1.0f + 3.0f / 256).value, 0x3F82);  // halfway, the odd neighbour below: up
}

TEST(CannHost, PlatformCoreCountsComeFromTheArchTable) {
    auto* p = platform_ascendc::PlatformAscendCManager::GetInstance();
    for (evg::hw::ArchId arch : evg::hw::kAllArchs) {
        evg::hw::Config cfg;
        cfg.arch = arch;
        evg::hw::reset_device(cfg);
        const auto& spec = evg::hw::arch_spec(arch);
        EXPECT_EQ(p->GetCoreNumAic(), static_cast<uint32_t>(spec.aic_cores));
        EXPECT_EQ(p->GetCoreNumAiv(), static_cast<uint32_t>(spec.aiv_cores));
        EXPECT_EQ(p->GetCoreNumAiv(), 2 * p->GetCoreNumAic());
        uint64_t ub = 0;
        p->GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
        EXPECT_EQ(ub, spec.ub_size);
    }
    evg::hw::reset_device();
}

void racy_kernel(GM_ADDR x, GM_ADDR y) {  // reads UB before the GM->UB copy is known to be done
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512);
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
    DataCopy(t, gx, 64);
    Muls(t[64], t, 2.0f, 64);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(gy, t[64], 64);
}

// Runs racy_kernel (or a clean copy) once through the ACL shim; returns the launch's error, or else what
// aclrtSynchronizeStream said.
aclError run_racy(bool racy) {
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    void *dx = nullptr, *dy = nullptr;
    aclrtMalloc(&dx, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dy, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    std::vector<float> hx(64, 1.0f);
    aclrtMemcpy(dx, 256, hx.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE);
    auto x = static_cast<GM_ADDR>(dx), y = static_cast<GM_ADDR>(dy);
    const aclError launched = evg::acl::launch(stream, 1, evg::hw::KernelType::aiv_only, [&] {
        if (racy) {
            racy_kernel(x, y);
        } else {
            TPipe pipe;
            TBuf<TPosition::VECCALC> buf;
            pipe.InitBuffer(buf, 512);
            GlobalTensor<float> gx;
            gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
            DataCopy(buf.Get<float>(), gx, 64);
        }
    });
    const aclError e = launched != ACL_SUCCESS ? launched : aclrtSynchronizeStream(stream);
    aclrtDestroyStream(stream);
    return e;
}

TEST(CannHost, StrictModeExitsNonZeroWhenALaunchReportedAFinding) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            setenv("EVG_STRICT", "1", 1);
            evg::hw::reset_device();
            aclInit(nullptr);
            run_racy(true);
            std::exit(0);  // the program's own status; strict mode overrides it
        },
        ::testing::ExitedWithCode(1),
        "EVG_STRICT: 1 of 1 kernel launches and 0 host call\\(s\\) reported findings");
    // Without a finding, strict mode leaves the program's status alone.
    EXPECT_EXIT(
        {
            setenv("EVG_STRICT", "1", 1);
            evg::hw::reset_device();
            aclInit(nullptr);
            run_racy(false);
            std::exit(0);
        },
        ::testing::ExitedWithCode(0), "");
}

TEST(CannHost, EnvironmentSelectsTheScheduleAndRejectsBadValues) {
    evg::hw::reset_device();
    setenv("EVG_SCHEDULER", "adversarial", 1);
    setenv("EVG_SEED", "42", 1);
    EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_EQ(evg::hw::device().config().scheduler, evg::hw::SchedulerKind::adversarial);
    EXPECT_EQ(evg::hw::device().config().seed, 42u);
    setenv("EVG_SEED", "4x2", 1);
    EXPECT_EQ(aclInit(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("EVG_SEED='4x2'"), std::string::npos)
        << aclGetRecentErrMsg();
    setenv("EVG_SEED", "1", 1);
    setenv("EVG_SCHEDULER", "random", 1);
    EXPECT_EQ(aclInit(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("expected in_order or adversarial"), std::string::npos);
    // A launch re-reads the environment: a bad value fails the launch with the same message.
    EXPECT_EQ(run_racy(false), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("kernel launch: EVG_SCHEDULER='random'"),
              std::string::npos);
    unsetenv("EVG_SCHEDULER");
    unsetenv("EVG_SEED");
    evg::hw::reset_device();
    EXPECT_EQ(run_racy(true), ACL_ERROR_RT_KERNEL_CHECK);
}

TEST(CannHost, EvgCheckSwitchesOnOptInCheckersAndRejectsUnknownNames) {
    evg::hw::reset_device();
    setenv("EVG_CHECK", "redundant-waits", 1);
    EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_TRUE(evg::hw::device().config().checks.redundant_waits);
    setenv("EVG_CHECK", "redundant-waits,dcache", 1);
    EXPECT_EQ(aclInit(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(
        std::string(aclGetRecentErrMsg())
            .find("EVG_CHECK='redundant-waits,dcache': unknown checker 'dcache': the checkers switched on by "
                  "name are redundant-waits"),
        std::string::npos)
        << aclGetRecentErrMsg();
    unsetenv("EVG_CHECK");
    evg::hw::reset_device();
    EXPECT_FALSE(evg::hw::device().config().checks.redundant_waits);
}

}  // namespace
