// Block and sub-block queries answer as on hardware for every kernel type.
#include <gtest/gtest.h>

#include <mutex>
#include <set>
#include <tuple>

#include "evg/hw/error.hpp"
#include "test_kernels.hpp"

namespace evg::hw::testing {
namespace {

using Seen = std::set<std::tuple<bool, int64_t, int64_t, int64_t, int64_t>>;

Seen collect(int blocks, KernelType t) {
    Device dev;
    Seen seen;
    std::mutex mu;
    dev.launch(blocks, t, [&] {
        std::lock_guard lk(mu);
        seen.insert({ASCEND_IS_AIC, AscendC::GetBlockIdx(), AscendC::GetBlockNum(), AscendC::GetSubBlockIdx(),
                     AscendC::GetSubBlockNum()});
    });
    return seen;
}

TEST(CoreIdentity, MixKernelHasTwoAivsPerAic) {
    Seen s = collect(3, KernelType::mix_aic_1_2);
    Seen want;
    for (int b = 0; b < 3; ++b) {
        want.insert({true, b, 3, 0, 1});
        for (int sub = 0; sub < 2; ++sub) want.insert({false, b * 2 + sub, 3, sub, 2});
    }
    EXPECT_EQ(s, want);
}

TEST(CoreIdentity, VectorOnlyKernel) {
    Seen s = collect(4, KernelType::aiv_only);
    Seen want;
    for (int b = 0; b < 4; ++b) want.insert({false, b, 4, 0, 1});
    EXPECT_EQ(s, want);
}

TEST(CoreIdentity, KernelCallOutsideALaunchIsAnError) {
    EXPECT_THROW(AscendC::GetBlockIdx(), evg::Error);
}

TEST(CoreIdentity, BadBlockDimIsAnError) {
    Device dev;
    EXPECT_THROW(dev.launch(0, KernelType::aiv_only, [] {}), evg::Error);
}

TEST(CoreIdentity, KernelExceptionBecomesAViolation) {
    Device dev;
    auto& r = dev.launch(1, KernelType::aiv_only, [] { throw std::runtime_error("boom"); });
    const Violation* v = r.first(ViolationKind::kernel_exception);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(v->message.find("boom"), std::string::npos);
}

}  // namespace
}  // namespace evg::hw::testing
