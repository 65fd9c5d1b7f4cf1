// A fault in a kernel's code becomes a finding naming the core and its last instruction before the process
// ends by the signal; a stop prints where each core is (fault_watch.hpp). Death tests: each runs its launch
// in a child process, which the signal ends.
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdint>

#include "test_kernels.hpp"

namespace evg::hw::testing {
namespace {

using namespace AscendC;

// An address no mapping holds, which the compiler cannot see is bad (a null constant would be turned into a
// trap instruction).
volatile uintptr_t g_bad_address = 16;

Report run_on_one_aiv(const std::function<void()>& kernel) {
    Config c;
    c.arch = ArchId::AtlasA2;
    Device dev(c);
    return dev.launch(1, KernelType::aiv_only, kernel);
}

void scale_then(const std::function<void()>& after) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 1.0f, 64);
    PipeBarrier<PIPE_V>();
    Muls(t[64], t, 2.0f, 64);  // the last instruction before the fault
    after();
}

TEST(FaultWatchDeathTest, SegfaultInTheKernelNamesTheCoreAndItsLastInstruction) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(run_on_one_aiv([] {
                     scale_then([] {
                         auto* p = reinterpret_cast<volatile float*>(g_bad_address);  // NOLINT
                         *p = 1.0f;
                     });
                 }),
                 "AIV 0 crashed in the kernel's code: SIGSEGV \\(address 0x10 is not "
                 "mapped\\) after its last instruction, #3 Muls at fault_watch_test.cpp:34");
}

// The division the CPU faults on; UBSan's check would stop the sanitizer build's run before the fault.
__attribute__((no_sanitize("undefined"))) int divide(int a, int b) {
    return a / b;
}

TEST(FaultWatchDeathTest, IntegerDivisionByZeroIsNamed) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(run_on_one_aiv([] {
                     scale_then([] {
                         volatile int zero = 0;
                         volatile int q = divide(7, zero);
                         (void)q;
                     });
                 }),
                 "crashed in the kernel's code: SIGFPE \\(an integer division by zero\\) after its last "
                 "instruction, #3 Muls");
}

int overflow_depth(volatile char* above, int n) {
    volatile char frame[4096];
    frame[0] = static_cast<char>(n);
    frame[4095] = above ? above[0] : 0;
    return n > 1'000'000 ? frame[0] : overflow_depth(frame, n + 1) + frame[4095];
}

TEST(FaultWatchDeathTest, StackOverflowIsNamed) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(run_on_one_aiv([] { scale_then([] { (void)overflow_depth(nullptr, 0); }); }),
                 "crashed in the kernel's code: SIGSEGV \\(its stack overflowed");
}

TEST(FaultWatchDeathTest, StopPrintsWhereEachCoreIs) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(run_on_one_aiv([] {
                     scale_then([] {
                         raise(SIGTERM);  // as run-program's --timeout would, while the core spins
                     });
                 }),
                 "SIGTERM while a kernel ran \\(AtlasA2, blockDim 1\\)(.|\n)*AIV 0: running "
                 "its scalar code, issuing nothing more since its last instruction #3 Muls at "
                 "fault_watch_test.cpp:34");
}

// Outside a launch the handlers change nothing: a clean launch before and after, and the report is clean.
TEST(FaultWatch, CleanLaunchesAreUntouched) {
    for (int i = 0; i < 2; ++i) {
        const Report r = run_on_one_aiv([] { scale_then([] {}); });
        EXPECT_TRUE(r.clean()) << r.text();
        EXPECT_EQ(r.count(ViolationKind::kernel_exception), 0u);
    }
}

}  // namespace
}  // namespace evg::hw::testing
