// What a launch writes to a core's local memory does not reach the next launch, whichever call wrote it: the
// storage is recycled (lib/hw/src/memory.cpp, BlockPool), and the pool clears the pages each write noted and
// no other. A SetValue is the scalar unit's write: it raises no UB peak, and its page must be noted all the
// same.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace {

using namespace AscendC;
using evg::hw::ViolationKind;

constexpr uint32_t kUbUsed = 160 * 1024;  // a buffer that reaches pages no other access of the test touches
constexpr uint32_t kFar = kUbUsed / sizeof(float) - 1;  // its last float: 159 KiB past the buffer's start

TEST(StorageReuse, ASetValueFarFromEveryOtherWriteIsGoneInTheNextLaunch) {
    evg::hw::Device dev;
    for (int launch = 0; launch < 3; ++launch) {
        std::vector<float> seen;
        const auto& r = dev.launch(1, evg::hw::KernelType::aiv_only, [&] {
            TPipe pipe;
            TBuf<TPosition::VECCALC> buf;
            pipe.InitBuffer(buf, kUbUsed);
            LocalTensor<float> t = buf.Get<float>();
            seen.push_back(t.GetValue(kFar));  // never written in this launch: reads 0, and is reported
            t.SetValue(kFar, 42.0f);
            seen.push_back(t.GetValue(kFar));
        });
        ASSERT_EQ(seen.size(), 2u);
        EXPECT_EQ(seen[0], 0.0f) << "launch " << launch << " read the last launch's SetValue";
        EXPECT_EQ(seen[1], 42.0f);
        EXPECT_EQ(r.count(ViolationKind::uninit_read), 1u) << r.text();
        EXPECT_EQ(r.stats.ub_peak, 0u) << "a scalar access raises no UB peak";
    }
}

}  // namespace
