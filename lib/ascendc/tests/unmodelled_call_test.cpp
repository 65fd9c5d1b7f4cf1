// Declared-only AscendC calls on the model: the call stops its core with one unmodelled_call violation that
// names the call and the caller's file:line, the launch ends (no hang, no abort), and every entry of the
// declared-only table is documented in docs/ascendc-api.md.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "ascendc/unmodelled_calls.hpp"
#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace {

using evg::hw::KernelType;
using evg::hw::ViolationKind;

std::string here(uint32_t line) {
    return "unmodelled_call_test.cpp:" + std::to_string(line);
}

TEST(UnmodelledCall, RegisterCallStopsTheCoreNamingCallAndLine) {
    evg::hw::Device dev;
    uint32_t line = 0;
    const auto& r = dev.launch(1, KernelType::aiv_only, [&] {
        AscendC::MicroAPI::RegTensor<float> reg;
        float* ub = nullptr;
        // clang-format off
        line = __LINE__; AscendC::MicroAPI::LoadAlign<float, AscendC::MicroAPI::LoadDist::DIST_NORM>(reg, ub);
        // clang-format on
        // Never reached: a flag left set at kernel end would be reported.
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    });
    ASSERT_EQ(r.count(ViolationKind::unmodelled_call), 1u) << r.text();
    EXPECT_EQ(r.count(ViolationKind::flag_left_set), 0u) << r.text();
    EXPECT_EQ(r.count(ViolationKind::kernel_exception), 0u) << r.text();
    const auto* v = r.first(ViolationKind::unmodelled_call);
    EXPECT_NE(v->message.find("MicroAPI::LoadAlign"), std::string::npos) << v->message;
    EXPECT_NE(v->message.find(here(line)), std::string::npos) << v->message;
    EXPECT_NE(r.text().find("unmodelled_call"), std::string::npos);
}

TEST(UnmodelledCall, EachFamilyNamesItself) {
    struct Case {
        const char* name;
        void (*call)(uint32_t& line);
    };
    const Case cases[] = {
        {"MicroAPI::CreateMask",
         [](uint32_t& line) {
             // clang-format off
             line = __LINE__; (void)AscendC::Reg::CreateMask<float, AscendC::Reg::MaskPattern::ALL>();
             // clang-format on
         }},
        {"SyncAll<false>",
         [](uint32_t& line) {
             // clang-format off
             line = __LINE__; AscendC::SyncAll<false>();
             // clang-format on
         }},
        {"Mutex::Lock",
         [](uint32_t& line) {
             // clang-format off
             line = __LINE__; AscendC::Mutex::Lock<PIPE_MTE2>(0);
             // clang-format on
         }},
        {"SetLoadDataRepeatWithStride",
         [](uint32_t& line) {
             // clang-format off
             line = __LINE__; AscendC::SetLoadDataRepeatWithStride({0, 1, 0, 4});
             // clang-format on
         }},
        {"vstas",
         [](uint32_t& line) {
             AscendC::Reg::UnalignRegForStore u;
             float* p = nullptr;
             // clang-format off
             line = __LINE__; vstas(u, p, 0, POST_UPDATE);
             // clang-format on
         }},
    };
    for (const auto& c : cases) {
        evg::hw::Device dev;
        uint32_t line = 0;
        const auto& r = dev.launch(1, KernelType::aiv_only, [&] { c.call(line); });
        ASSERT_EQ(r.count(ViolationKind::unmodelled_call), 1u) << c.name << "\n" << r.text();
        const auto* v = r.first(ViolationKind::unmodelled_call);
        EXPECT_NE(v->message.find(c.name), std::string::npos) << v->message;
        EXPECT_NE(v->message.find(here(line)), std::string::npos) << v->message;
    }
}

// The AIC stops before it sets the flag its AIVs wait for: the launch ends with the stop and the deadlock it
// leaves, never a hang.
TEST(UnmodelledCall, PartnerWaitingOnTheStoppedCoreEndsTheLaunch) {
    evg::hw::Device dev;
    const auto& r = dev.launch(1, KernelType::mix_aic_1_2, [&] {
        if ASCEND_IS_AIC {
            AscendC::SyncAll<false>();
            AscendC::CrossCoreSetFlag<2, PIPE_FIX>(1);
        } else {
            AscendC::CrossCoreWaitFlag(1);
        }
    });
    EXPECT_EQ(r.count(ViolationKind::unmodelled_call), 1u) << r.text();
    EXPECT_FALSE(r.clean());
}

TEST(UnmodelledCall, TableIsDocumented) {
    std::string src = __FILE__;
    std::string root = src.substr(0, src.rfind("lib/ascendc/tests/"));
    std::ifstream in(root + "docs/ascendc-api.md");
    ASSERT_TRUE(in) << root + "docs/ascendc-api.md";
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string doc = ss.str();
    for (const auto& c : AscendC::detail::kUnmodelledCalls) {
        std::string name = c.name;
        if (name.rfind("MicroAPI::", 0) == 0) name = name.substr(10);
        EXPECT_NE(doc.find("`" + name + "`"), std::string::npos)
            << c.name << " is not in docs/ascendc-api.md";
    }
}

}  // namespace
