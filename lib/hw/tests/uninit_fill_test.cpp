// Values never initialised (evg/hw/uninit_fill.hpp, docs/checkers.md "Values never initialised"): what counts
// as a fill, the core's stack filled at launch and refilled after an AscendC call, the argument of a call
// read from its line, and `uninit_value` reported with the variable and the id the hardware would use.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "../src/fiber.hpp"
#include "evg/hw/device.hpp"
#include "evg/hw/site.hpp"
#include "evg/hw/uninit_fill.hpp"
#include "kernel_operator.h"

namespace evg::hw::testing {
namespace {

// Every byte one fill, two bytes or more.
static_assert(is_uninit_fill(uint16_t{0xFEFE}));
static_assert(is_uninit_fill(static_cast<int32_t>(0xFEFEFEFEu)));
static_assert(is_uninit_fill(uint64_t{0xAAAAAAAAAAAAAAAAull}));
static_assert(!is_uninit_fill(uint8_t{0xFE}));          // one byte says nothing: 254 is a legal repeat
static_assert(!is_uninit_fill(uint32_t{0xFEAAFEAAu}));  // two fills mixed are neither
static_assert(!is_uninit_fill(uint32_t{0xFEFEFEFFu}));  // one byte off
static_assert(!is_uninit_fill(int32_t{0}));
static_assert(!is_uninit_fill(uint32_t{0x0000FEFEu}));  // a 16-bit fill widened is not a 32-bit one

// One frame, the same layout each call: either dirties its buffer or returns a word of it as the stack left
// it. The asm takes the buffer out of the compiler's sight, so that it is neither optimised away nor assumed
// uninitialised.
[[gnu::noinline]] uint64_t frame(bool dirty) {
    alignas(8) unsigned char buf[2048];
    asm volatile("" : : "r"(buf) : "memory");
    if (dirty) {
        std::memset(buf, 0x11, sizeof buf);
        asm volatile("" : : "r"(buf) : "memory");
        return 0;
    }
    uint64_t word = 0;
    std::memcpy(&word, buf + 1024, sizeof word);
    return word;
}

TEST(UninitFill, AFreshCoreStackHoldsTheFill) {
    uint64_t seen = 0;
    detail::Fiber f([&] { seen = frame(false); });
    f.resume();
    ASSERT_TRUE(f.finished());
    EXPECT_TRUE(is_uninit_fill(seen)) << std::hex << seen;
}

TEST(UninitFill, AStackIsFilledAgainWhenItsFiberEnds) {
    // The first fiber dirties its stack and ends; the second one gets the same stack from the pool (the pool
    // gives back the last stack it took in) and finds the fill there, not the first one's bytes.
    uint64_t residue = 0, next_launch = 0;
    {
        detail::Fiber first([&] {
            frame(true);
            residue = frame(false);  // the frame sees what the same frame wrote before: the test can tell
            frame(true);
        });
        first.resume();
        ASSERT_TRUE(first.finished());
    }
    detail::Fiber second([&] { next_launch = frame(false); });
    second.resume();
    ASSERT_TRUE(second.finished());
    EXPECT_EQ(residue, 0x1111111111111111ull);
    EXPECT_TRUE(is_uninit_fill(next_launch)) << std::hex << next_launch;
}

// A fiber whose launch does not read the fill (its uninit checker is off) leaves its stack as its kernel left
// it, and says so to the pool; the next fiber that reads the fill refills that stack before its body runs,
// and one that does not read it gets the bytes as they were (the fill's cost is paid only where it is read).
TEST(UninitFill, AStackLeftUnfilledIsFilledBeforeAFiberThatReadsTheFill) {
    {
        detail::Fiber unchecked([&] { frame(true); }, /*fill=*/false);
        unchecked.resume();
        ASSERT_TRUE(unchecked.finished());
    }
    uint64_t unchecked_again = 0;
    {
        detail::Fiber again([&] { unchecked_again = frame(false); }, /*fill=*/false);
        again.resume();
        ASSERT_TRUE(again.finished());
    }
    EXPECT_EQ(unchecked_again, 0x1111111111111111ull);  // not refilled: the same stack, as the first left it
    uint64_t checked = 0;
    detail::Fiber reads([&] { checked = frame(false); });
    reads.resume();
    ASSERT_TRUE(reads.finished());
    EXPECT_TRUE(is_uninit_fill(checked)) << std::hex << checked;
}

// A frame with a buffer it never touches above a call (an epilogue's callbacks of many nodes do that): with
// `dirty` the callee dirties the stack below the buffer, else it reads a word there.
[[gnu::noinline]] uint64_t below_untouched(bool dirty) {
    alignas(8) unsigned char gap[16384];
    asm volatile("" : : "r"(gap) : "memory");
    const uint64_t word = frame(dirty);
    asm volatile("" : : "r"(gap) : "memory");
    return word;
}

TEST(UninitFill, WhatLiesBelowAnUntouchedBufferIsFilledAgainToo) {
    // The first launch leaves the stack filled down to its deepest frame; the second finds the fill in its
    // untouched buffer, dirties below it and ends: the refill must go on past the buffer's 16 KiB of fill, or
    // the third launch reads the second one's bytes where it expects the fill.
    for (int launch = 0; launch < 2; ++launch) {
        detail::Fiber f([&] { below_untouched(true); });
        f.resume();
        ASSERT_TRUE(f.finished());
    }
    uint64_t next_launch = 0;
    detail::Fiber third([&] { next_launch = below_untouched(false); });
    third.resume();
    ASSERT_TRUE(third.finished());
    EXPECT_TRUE(is_uninit_fill(next_launch)) << std::hex << next_launch;
}

TEST(UninitFill, OffACoreStackNothingIsFilled) {
    // On the thread's own stack (host code, a test's main) a refill writes nothing: it knows no bounds there.
    // (Counted, not read back from the stack: under AddressSanitizer a frame's bytes need not stay where the
    // next call finds them.) On a core's stack, below a frame that dirtied it, the same call does write.
    frame(true);
    EXPECT_EQ(detail::refill_dead_stack(size_t{16} << 10, size_t{1} << 10), 0u);
    size_t on_core = 0;
    detail::Fiber f([&] {
        frame(true);
        on_core = detail::refill_dead_stack(size_t{16} << 10, size_t{1} << 10);
    });
    f.resume();
    ASSERT_TRUE(f.finished());
    EXPECT_GT(on_core, 0u);
}

TEST(CallArgumentText, ArgumentsAreReadFromTheCallOnTheLine) {
    // A file of its own: source_text reads a file once per process.
    const auto path = std::filesystem::temp_directory_path() / "evg_uninit_fill_test_lines.hpp";
    std::ofstream(path) << "    AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(l0CEventList[l0CListId]);\n"
                        << "CrossCoreSetFlag<2, PIPE_MTE3>(ids[0]); DataCopy(dst[off(1, 2)], src, n.len);\n"
                        << "DataCopy(dst, src,\n";
    const std::string name = path.string();
    const Site one{name.c_str(), 1}, two{name.c_str(), 2}, three{name.c_str(), 3};
    EXPECT_EQ(call_argument_text(one, "SetFlag", 0), "l0CEventList[l0CListId]");
    EXPECT_EQ(call_argument_text(one, "SetFlag", 1), "");
    EXPECT_EQ(call_argument_text(one, "WaitFlag", 0), "");
    EXPECT_EQ(call_argument_text(one, "", 0), "");
    EXPECT_EQ(call_argument_text(two, "SetFlag", 0), "") << "SetFlag is not CrossCoreSetFlag";
    EXPECT_EQ(call_argument_text(two, "CrossCoreSetFlag", 0), "ids[0]");
    EXPECT_EQ(call_argument_text(two, "DataCopy", 0), "dst[off(1, 2)]");
    EXPECT_EQ(call_argument_text(two, "DataCopy", 2), "n.len");
    EXPECT_EQ(call_argument_text(three, "DataCopy", 2), "") << "the call goes on past its line";
    std::filesystem::remove(path);
}

// An event id read from a variable never assigned: reported as such, naming the variable, and run with the id
// the hardware takes from it (bits [2:0]), so that the set and the wait of that variable still pair.
TEST(UninitValue, AnEventIdHoldingTheFillIsReportedWithItsVariable) {
    for (const int32_t stage_id : {static_cast<int32_t>(0xFEFEFEFEu), static_cast<int32_t>(0xAAAAAAAAu), 1}) {
        Device dev;
        const Report r = dev.launch(1, KernelType::aiv_only, [stage_id] {
            volatile int32_t stageEventId = stage_id;
            AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(stageEventId);
            AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(stageEventId);
        });
        if (stage_id == 1) {
            EXPECT_TRUE(r.violations.empty()) << r.text();
            continue;
        }
        ASSERT_EQ(r.count(ViolationKind::uninit_value), 2u) << r.text();
        EXPECT_EQ(r.violations.size(), 2u) << "the pair still matches: no deadlock, no flag left\n"
                                           << r.text();
        const Violation* v = r.first(ViolationKind::uninit_value);
        EXPECT_NE(
            v->message.find(fmt::format("the event id of SetFlag<MTE2_V> is {:#x}", uint32_t(stage_id))),
            std::string::npos)
            << v->message;
        EXPECT_NE(v->message.find("`stageEventId` was never assigned"), std::string::npos) << v->message;
        ASSERT_FALSE(v->locations.empty());
        EXPECT_NE(v->locations[0].source.find("SetFlag<AscendC::HardEvent::MTE2_V>(stageEventId)"),
                  std::string::npos);
    }
}

TEST(UninitValue, TheCheckIsPartOfTheUninitSwitch) {
    Config c;
    c.checks.uninit = false;
    Device dev(c);
    const Report r = dev.launch(1, KernelType::aiv_only, [] {
        volatile auto id = static_cast<int32_t>(0xFEFEFEFEu);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(id);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(id);
    });
    EXPECT_EQ(r.count(ViolationKind::uninit_value), 0u) << r.text();
    // The id is then out of range, as any other id would be.
    EXPECT_GT(r.count(ViolationKind::illegal_event), 0u) << r.text();
}

// A DataCopy whose count or block parameters hold the fill: reported as such (the count naming its argument),
// and the copy is not issued (it would be out of bounds as a length).
TEST(UninitValue, DataCopyLengthsHoldingTheFillAreReported) {
    Device dev;
    void* gm = dev.malloc(4096);
    dev.copy_to_device(gm, std::vector<uint8_t>(4096, 0).data(), 4096);
    const Report r = dev.launch(1, KernelType::aiv_only, [gm] {
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 4096);
        AscendC::LocalTensor<float> ub = buf.Get<float>();
        AscendC::GlobalTensor<float> src;
        src.SetGlobalBuffer(static_cast<__gm__ float*>(gm));
        volatile auto tileLength = static_cast<uint32_t>(0xFEFEFEFEu);
        AscendC::DataCopy(ub, src, tileLength);
        AscendC::DataCopyParams params;
        params.blockLen = static_cast<uint16_t>(0xAAAA);
        AscendC::DataCopy(ub, src, params);
    });
    ASSERT_EQ(r.count(ViolationKind::uninit_value), 2u) << r.text();
    EXPECT_EQ(r.violations.size(), 2u) << "nothing issued with those lengths\n" << r.text();
    EXPECT_NE(r.text().find("the count of DataCopy GM->UB is 0xfefefefe, the fill of memory the kernel never "
                            "initialised: `tileLength` was never assigned"),
              std::string::npos)
        << r.text();
    EXPECT_NE(r.text().find("the blockLen of DataCopy GM->UB is 0xaaaa"), std::string::npos) << r.text();
}

}  // namespace
}  // namespace evg::hw::testing
