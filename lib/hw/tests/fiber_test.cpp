// The cores of a launch run as fibers on the launching thread: resume/yield hand control back and forth in
// order, a body's exceptions stay inside it, stacks are deep enough for real kernel code, and a launch of the
// largest blockDim runs every core to its end. A switch keeps each side's floating-point rounding mode, and a
// stack walk from inside a body ends at the fiber's start.
#include <gtest/gtest.h>
#include <unwind.h>

#include <cfenv>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "../src/fiber.hpp"
#include "evg/hw/error.hpp"
#include "test_kernels.hpp"

namespace evg::hw::testing {
namespace {

using evg::hw::detail::Fiber;

TEST(Fiber, ResumeAndYieldAlternate) {
    std::vector<std::string> log;
    Fiber* self = nullptr;
    Fiber f([&] {
        log.push_back("a1");
        self->yield();
        log.push_back("a2");
        self->yield();
        log.push_back("a3");
    });
    self = &f;
    EXPECT_FALSE(f.suspended());
    f.resume();
    log.push_back("main1");
    EXPECT_TRUE(f.suspended());
    f.resume();
    log.push_back("main2");
    f.resume();
    EXPECT_TRUE(f.finished());
    EXPECT_FALSE(f.suspended());
    EXPECT_EQ(log, (std::vector<std::string>{"a1", "main1", "a2", "main2", "a3"}));
}

TEST(Fiber, ExceptionsThrownAndCaughtInsideABodyAcrossYields) {
    Fiber* self = nullptr;
    int caught = 0;
    Fiber f([&] {
        for (int i = 0; i < 3; ++i) {
            try {
                self->yield();
                throw std::runtime_error("inside");
            } catch (const std::runtime_error&) {
                ++caught;
            }
        }
    });
    self = &f;
    while (!f.finished()) f.resume();
    EXPECT_EQ(caught, 3);
}

// A frame chain of about 256 KiB: well beyond what the AscendC layer uses, well within the fiber's stack.
int deep(int n, Fiber& f) {
    volatile int pad[256];
    pad[0] = n;
    if (n == 0) {
        f.yield();
        return pad[0];
    }
    return deep(n - 1, f) + pad[0];
}

TEST(Fiber, DeepRecursionSurvivesAYieldAtTheBottom) {
    Fiber* self = nullptr;
    int result = -1;
    Fiber f([&] { result = deep(256, *self); });
    self = &f;
    f.resume();
    EXPECT_EQ(result, -1);
    f.resume();
    EXPECT_EQ(result, 256 * 257 / 2);
}

// The rounding mode is part of what a switch saves: a kernel body that sets its own (the model's conversions
// set one per call) finds it again after a yield, and the caller never sees it.
TEST(Fiber, EachSideKeepsItsOwnRoundingModeAcrossSwitches) {
    Fiber* self = nullptr;
    std::vector<int> seen;
    Fiber f([&] {
        std::fesetround(FE_UPWARD);
        self->yield();
        seen.push_back(std::fegetround());
        std::fesetround(FE_TOWARDZERO);
        self->yield();
        seen.push_back(std::fegetround());
    });
    self = &f;
    ASSERT_EQ(std::fegetround(), FE_TONEAREST);
    f.resume();
    EXPECT_EQ(std::fegetround(), FE_TONEAREST);
    std::fesetround(FE_DOWNWARD);
    f.resume();
    EXPECT_EQ(std::fegetround(), FE_DOWNWARD);
    std::fesetround(FE_TONEAREST);
    f.resume();
    EXPECT_EQ(std::fegetround(), FE_TONEAREST);
    EXPECT_TRUE(f.finished());
    EXPECT_EQ(seen, (std::vector<int>{FE_UPWARD, FE_TOWARDZERO}));
}

// What a finding's call chain does (call_chain.cpp): the unwinder walks a body's stack up to the fiber's
// start and stops there, with a handful of frames, never into the memory above the stack.
TEST(Fiber, AStackWalkFromABodyEndsAtTheFibersStart) {
    struct Walk {
        int frames = 0;
    } walk;
    _Unwind_Reason_Code end = _URC_NO_REASON;
    Fiber f([&] {
        end = _Unwind_Backtrace(
            // Any answer but _URC_NO_REASON makes _Unwind_Backtrace fail: a walk that does not end by
            // itself within 64 frames fails the test.
            [](_Unwind_Context*, void* arg) {
                return ++static_cast<Walk*>(arg)->frames < 64 ? _URC_NO_REASON : _URC_NORMAL_STOP;
            },
            &walk);
    });
    f.resume();
    EXPECT_TRUE(f.finished());
    EXPECT_EQ(end, _URC_END_OF_STACK);
    EXPECT_GE(walk.frames, 2);
    EXPECT_LT(walk.frames, 16);
}

TEST(Fiber, FibersOnTwoThreadsAreIndependent) {
    auto work = [](int n) {
        int count = 0;
        std::vector<std::unique_ptr<Fiber>> fs;
        std::vector<Fiber*> self(4);
        for (int i = 0; i < 4; ++i) {
            fs.push_back(std::make_unique<Fiber>([&, i] {
                for (int k = 0; k < n; ++k) {
                    ++count;
                    self[static_cast<size_t>(i)]->yield();
                }
            }));
            self[static_cast<size_t>(i)] = fs.back().get();
        }
        for (bool any = true; any;) {
            any = false;
            for (auto& f : fs)
                if (!f->finished()) {
                    f->resume();
                    any = true;
                }
        }
        return count;
    };
    int a = 0, b = 0;
    std::thread t([&] { a = work(1000); });
    b = work(500);
    t.join();
    EXPECT_EQ(a, 4000);
    EXPECT_EQ(b, 2000);
}

TEST(FiberLaunch, ManyCoresEachRunToTheirEnd) {
    Device dev;
    int aic = 0, aiv = 0;  // one thread: no lock needed
    auto& r = dev.launch(256, KernelType::mix_aic_1_2, [&] { (ASCEND_IS_AIC ? aic : aiv)++; });
    EXPECT_TRUE(r.clean()) << r.text();
    EXPECT_EQ(aic, 256);
    EXPECT_EQ(aiv, 512);
}

TEST(FiberLaunch, ALaunchTooLargeForTheClocksIsRefusedWithItsSize) {
    Device dev;
    try {
        dev.launch(4096, KernelType::mix_aic_1_2, [] {});
        FAIL() << "a launch of 12288 cores ran";
    } catch (const evg::Error& e) {
        EXPECT_NE(std::string(e.what()).find("12288 cores"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("GiB"), std::string::npos) << e.what();
    }
}

TEST(FiberLaunch, LaunchesRunOnTheCallingThread) {
    Device dev;
    std::thread::id seen;
    dev.launch(1, KernelType::aiv_only, [&] { seen = std::this_thread::get_id(); });
    EXPECT_EQ(seen, std::this_thread::get_id());
}

}  // namespace
}  // namespace evg::hw::testing
