// The compiler-predefined device environment (docs/ascendc-device-environment.md): the global pipe and event
// enums with the hardware's numbering, g_coreType, the run-time ASCEND_IS_AIC / ASCEND_IS_AIV, and a device
// `assert` that the model reports instead of aborting.
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <type_traits>

#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace {

using namespace AscendC;

static_assert(std::is_same_v<::pipe_t, AscendC::pipe_t> &&
              std::is_same_v<decltype(::EVENT_ID0), AscendC::event_t>);
static_assert(PIPE_S == 0 && PIPE_V == 1 && PIPE_M == 2 && PIPE_MTE1 == 3 && PIPE_MTE2 == 4 &&
              PIPE_MTE3 == 5 && PIPE_ALL == 6 && PIPE_FIX == 10);
static_assert(EVENT_ID0 == 0 && EVENT_ID7 == 7 && AscendC::EVENT_ID3 == 3);
// Without __DAV_CUBE__ / __DAV_VEC__ the model compiles one kernel for every core type.
static_assert(g_coreType == AscendC::MIX);

TEST(DeviceEnv, AscendIsAicAndAivAreDecidedPerCore) {
    evg::hw::Device dev;
    int aic = 0, aiv = 0;
    std::mutex m;
    const auto& r = dev.launch(2, evg::hw::KernelType::mix_aic_1_2, [&] {
        std::lock_guard<std::mutex> lock(m);
        if ASCEND_IS_AIC {
            ++aic;
        }
        if ASCEND_IS_AIV {
            ++aiv;
        }
    });
    EXPECT_TRUE(r.clean()) << r.text();
    EXPECT_EQ(aic, 2);
    EXPECT_EQ(aiv, 4);
}

TEST(DeviceEnv, AFailedDeviceAssertIsReportedWithItsExpressionAndLine) {
    evg::hw::Device dev;
    const unsigned line = __LINE__ + 4;
    const auto& r = dev.launch(1, evg::hw::KernelType::aiv_only, [&] {
        uint32_t ub_offset = 300000;
        uint32_t ub_size = 253952;
        assert(ub_offset <= ub_size);
        ADD_FAILURE() << "the core went on after a failed assertion";
    });
    ASSERT_EQ(r.count(evg::hw::ViolationKind::kernel_exception), 1u) << r.text();
    const std::string text = r.text();
    EXPECT_NE(
        text.find("assertion `ub_offset <= ub_size` failed at device_env_test.cpp:" + std::to_string(line)),
        std::string::npos)
        << text;
    // A passing assertion changes nothing.
    const auto& ok = dev.launch(1, evg::hw::KernelType::aiv_only, [&] { assert(1 + 1 == 2); });
    EXPECT_TRUE(ok.clean()) << ok.text();
}

}  // namespace
