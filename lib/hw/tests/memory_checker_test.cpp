// The memory and uninitialised-data checkers, and API misuse that must be reported, never crash.
#include <gtest/gtest.h>

#include <cmath>

#include "test_kernels.hpp"

namespace evg::hw::testing {
namespace {

using namespace AscendC;

struct Gm {
    Device dev;
    explicit Gm(ArchId a = ArchId::AtlasA2) : dev(make(a)) {}
    static Config make(ArchId a) {
        Config c;
        c.arch = a;
        return c;
    }
    GM_ADDR alloc(uint64_t bytes, bool init = true) {
        void* p = dev.malloc(bytes);
        if (init) dev.copy_to_device(p, std::vector<uint8_t>(bytes, 0).data(), bytes);
        return static_cast<GM_ADDR>(p);
    }
    Report run(const std::function<void()>& k) { return dev.launch(1, KernelType::aiv_only, k); }
};

template <class T>
LocalTensor<T> ub_tensor(uint32_t bytes = 196608) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, bytes);
    return buf.Get<T>();
}

TEST(MemoryChecker, VectorOpBeyondUbIsOutOfBounds) {
    Gm g;
    Report r = g.run([] {
        auto t = ub_tensor<float>();
        Duplicate(t[49000], 1.0f, 1024);  // [196000, 200096) passes the 196608 B of AtlasA2's UB
    });
    const Violation* v = r.first(ViolationKind::out_of_bounds);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(
        v->message.find("Duplicate dst touches UB bytes [196000, 200096), beyond the 196608 B of UB[AIV 0]"),
        std::string::npos)
        << v->message;
    Report ok = g.run([] {
        auto t = ub_tensor<float>();
        Duplicate(t[48000], 1.0f, 1024);
    });
    EXPECT_TRUE(ok.clean()) << ok.text();
}

TEST(MemoryChecker, MisalignedDataCopy) {
    Gm g;
    GM_ADDR x = g.alloc(1024);
    Report r = g.run([x] {
        auto t = ub_tensor<half>();
        GlobalTensor<half> gx;
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x));
        DataCopy(t[8], gx, 64);  // UB byte 16: not 32-byte aligned
        PipeBarrier<PIPE_ALL>();
    });
    const Violation* v = r.first(ViolationKind::misaligned);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(v->message.find("address 16 in UB[AIV 0] is not 32-byte aligned"), std::string::npos)
        << v->message;
    Report ok = g.run([x] {
        auto t = ub_tensor<half>();
        GlobalTensor<half> gx;
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x));
        DataCopy(t[16], gx, 64);
        PipeBarrier<PIPE_ALL>();
    });
    EXPECT_TRUE(ok.clean()) << ok.text();
}

TEST(MemoryChecker, DataCopyLengthNotAMultipleOf32BytesIsTruncated) {
    Gm g;
    GM_ADDR x = g.alloc(1024);
    Report r = g.run([x] {
        auto t = ub_tensor<half>();
        GlobalTensor<half> gx;
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x));
        DataCopy(t, gx, 20);  // 40 bytes
        PipeBarrier<PIPE_ALL>();
    });
    const Violation* v = r.first(ViolationKind::copy_truncated);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(v->message.find("40 B is not a multiple of 32 B: the hardware silently copies only 32 B"),
              std::string::npos)
        << v->message;
}

TEST(MemoryChecker, GmAccessBeyondTheAllocation) {
    Gm g;
    GM_ADDR x = g.alloc(256);
    Report r = g.run([x] {
        auto t = ub_tensor<float>();
        GlobalTensor<float> gx;
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
        DataCopy(t, gx, 128);  // 512 bytes from a 256-byte allocation
        PipeBarrier<PIPE_ALL>();
    });
    const Violation* v = r.first(ViolationKind::out_of_bounds);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(v->message.find("touches GM bytes [0, 512) of GM#1, which has 256 B"), std::string::npos)
        << v->message;
}

TEST(MemoryChecker, NullGmPointerIsReportedNotACrash) {
    Gm g;
    Report r = g.run([] {
        auto t = ub_tensor<float>();
        GlobalTensor<float> gx;
        DataCopy(t, gx, 64);
        PipeBarrier<PIPE_ALL>();
    });
    const Violation* v = r.first(ViolationKind::null_pointer);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(v->message.find("uses a null GM pointer"), std::string::npos);
    EXPECT_NE(v->locations.at(0).site.find("memory_checker_test.cpp:"), std::string::npos);
}

TEST(MemoryChecker, UbCarvingBeyondCapacity) {
    Gm g(ArchId::AtlasA2);
    Report r = g.run([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 200000);
    });
    const Violation* v = r.first(ViolationKind::ub_overflow);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(
        v->message.find("TPipe::InitBuffer carves 200000 bytes at offset 0 of UB, ending at 200000; AtlasA2 "
                        "has 196608 B"),
        std::string::npos)
        << v->message;
    Gm g950(ArchId::Ascend950);
    Report ok = g950.run([] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 200000);
    });
    EXPECT_TRUE(ok.clean()) << ok.text();
}

TEST(MemoryChecker, DataCopyPadParameterRanges) {
    Gm g;
    GM_ADDR x = g.alloc(4096);
    Report r = g.run([x] {
        auto t = ub_tensor<half>();
        GlobalTensor<half> gx;
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x));
        DataCopyPad(t, gx, DataCopyExtParams{1, 3, 0, 0, 0},
                    DataCopyPadExtParams<half>{});  // 3 bytes of half
        PipeBarrier<PIPE_ALL>();
    });
    const Violation* v = r.first(ViolationKind::bad_param);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(v->message.find("blockLen 3 B is not a multiple of the element size 2 B"), std::string::npos);
}

TEST(MemoryChecker, DataCopyPadRoundTripsRowsWithGaps) {
    // 3 rows of 5 halves from a GM matrix with row stride 7, into UB rows of 16 halves, and back.
    Gm g;
    std::vector<uint16_t> host(21);
    for (int i = 0; i < 21; ++i) host[static_cast<size_t>(i)] = half(static_cast<float>(i)).bits;
    GM_ADDR x = g.alloc(42, false);
    GM_ADDR y = g.alloc(42);
    g.dev.copy_to_device(x, host.data(), 42);
    Report r = g.run([x, y] {
        auto t = ub_tensor<half>();
        GlobalTensor<half> gx, gy;
        gx.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x));
        gy.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y));
        // GM gap 2 elements = 4 bytes; UB gap (16 - 5) / 16 = 0 blocks (rows are rounded up to 32 B).
        DataCopyPad(t, gx, DataCopyExtParams{3, 10, 4, 0, 0}, DataCopyPadExtParams<half>{});
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
        DataCopyPad(gy, t, DataCopyExtParams{3, 10, 0, 4, 0});
    });
    EXPECT_TRUE(r.clean()) << r.text();
    std::vector<uint16_t> out(21);
    g.dev.copy_to_host(out.data(), y, 42);
    for (int row = 0; row < 3; ++row)
        for (int col = 0; col < 7; ++col) {
            uint16_t want = col < 5 ? host[static_cast<size_t>(row) * 7 + static_cast<size_t>(col)] : 0;
            EXPECT_EQ(out[static_cast<size_t>(row) * 7 + static_cast<size_t>(col)], want)
                << row << "," << col;
        }
}

TEST(UninitChecker, NeverWrittenBytesReachingGm) {
    Gm g;
    GM_ADDR y = g.alloc(256);
    Report r = g.run([y] {
        auto t = ub_tensor<float>();
        Muls(t[64], t, 2.0f, 64);  // computes over never-written lanes: legal
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        GlobalTensor<float> gy;
        gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
        DataCopy(gy, t[64], 64);  // ...but storing them is reported
    });
    ASSERT_EQ(r.count(ViolationKind::uninit_to_gm), 1u) << r.text();
    EXPECT_NE(r.first(ViolationKind::uninit_to_gm)->message.find("stores never-written bytes to GM"),
              std::string::npos);
    Report ok = g.run([y] {
        auto t = ub_tensor<float>();
        Duplicate(t, 3.0f, 64);
        PipeBarrier<PIPE_V>();
        Muls(t[64], t, 2.0f, 64);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        GlobalTensor<float> gy;
        gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
        DataCopy(gy, t[64], 64);
    });
    EXPECT_TRUE(ok.clean()) << ok.text();
}

TEST(UninitChecker, ComputeOverGarbageLanesIsLegalWhenOnlyValidLanesAreStored) {
    Gm g;
    GM_ADDR y = g.alloc(128);
    Report r = g.run([y] {
        auto t = ub_tensor<float>();
        Duplicate(t, 1.0f, 16);  // only 16 lanes written
        PipeBarrier<PIPE_V>();
        Adds(t[64], t, 1.0f, 64);  // whole-buffer compute, as Catlass does
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        GlobalTensor<float> gy;
        gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
        DataCopyPad(gy, t[64], DataCopyExtParams{1, 64, 0, 0, 0});  // stores the 16 valid lanes only
    });
    EXPECT_TRUE(r.clean()) << r.text();
}

TEST(UninitChecker, ScalarReadOfNeverWrittenUb) {
    Gm g;
    Report r = g.run([] {
        auto t = ub_tensor<float>();
        float v = t.GetValue(3);
        (void)v;
    });
    ASSERT_EQ(r.count(ViolationKind::uninit_read), 1u) << r.text();
}

TEST(NumericLegality, IllegalCastForTheChip) {
    Gm g;
    Report r = g.run([] {
        auto t = ub_tensor<float>();
        Duplicate(t, 1.0f, 64);
        PipeBarrier<PIPE_V>();
        Cast(t[64].ReinterpretCast<bfloat16_t>(), t, RoundMode::CAST_NONE, 64);
    });
    const Violation* v = r.first(ViolationKind::illegal_cast);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(v->message.find("AtlasA2"), std::string::npos) << v->message;
    EXPECT_EQ(v->locations.at(0).op, "Cast<bfloat16, float, CAST_NONE>");
    Report ok = g.run([] {
        auto t = ub_tensor<float>();
        Duplicate(t, 1.0f, 64);
        PipeBarrier<PIPE_V>();
        Cast(t[64].ReinterpretCast<bfloat16_t>(), t, RoundMode::CAST_RINT, 64);
    });
    EXPECT_TRUE(ok.clean()) << ok.text();
}

TEST(NumericLegality, Bf16ArithmeticOnlyOnAscend950) {
    auto body = [] {
        auto t = ub_tensor<bfloat16_t>();
        Duplicate(t, bfloat16_t(1.0f), 128);
        PipeBarrier<PIPE_V>();
        Add(t[128], t, t, 128);
    };
    Gm a2(ArchId::AtlasA2);
    Report r = a2.run(body);
    const Violation* v = r.first(ViolationKind::illegal_dtype);
    ASSERT_NE(v, nullptr) << r.text();
    EXPECT_NE(v->message.find("Add does not support element type bfloat16 on AtlasA2"), std::string::npos);
    Gm a950(ArchId::Ascend950);
    EXPECT_TRUE(a950.run(body).clean());
}

TEST(NumericLegality, HalfArithmeticRoundsOncePerInstruction) {
    // 2049 is not a half; 2048 + 1 computed in float rounds once (ties to even) to 2048.
    Gm g;
    GM_ADDR y = g.alloc(64);
    Report r = g.run([y] {
        auto t = ub_tensor<half>();
        Duplicate(t, half(2048.0f), 32);
        PipeBarrier<PIPE_V>();
        Adds(t[32], t, half(1.0f), 32);
        PipeBarrier<PIPE_V>();
        Adds(t[64], t[32], half(3.0f), 32);  // 2048 + 3 = 2051 -> 2052 (ties to even)
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        GlobalTensor<half> gy;
        gy.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y));
        DataCopy(gy, t[64], 32);
    });
    ASSERT_TRUE(r.clean()) << r.text();
    std::vector<uint16_t> out(32);
    g.dev.copy_to_host(out.data(), y, 64);
    EXPECT_EQ(out[0], half(2052.0f).bits);
}

}  // namespace
}  // namespace evg::hw::testing

namespace evg::hw::testing {
namespace {

using namespace AscendC;

// Max and Min order -0 below +0 and propagate NaN, as the oracle does (oracle/README.md).
TEST(NumericLegality, MaxMinSignedZeroAndNan) {
    Config cfg;
    cfg.fp_policy = FpPolicy::warn;  // the NaN stored to GM is the test's own (the checker fp warns of it)
    Device dev(cfg);
    void* y = dev.malloc(4 * 32);
    auto yp = static_cast<GM_ADDR>(y);
    auto& r = dev.launch(1, KernelType::aiv_only, [yp] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 1024);
        LocalTensor<float> t = buf.Get<float>();
        Duplicate(t, -0.0f, 8);
        Duplicate(t[8], 0.0f, 8);
        Duplicate(t[16], NAN, 8);
        PipeBarrier<PIPE_V>();
        Max(t[32], t, t[8], 8);   // max(-0, +0) = +0
        Max(t[40], t[8], t, 8);   // max(+0, -0) = +0
        Min(t[48], t[8], t, 8);   // min(+0, -0) = -0
        Max(t[56], t[16], t, 8);  // NaN
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        GlobalTensor<float> gy;
        gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(yp));
        DataCopy(gy, t[32], 32);
    });
    ASSERT_TRUE(r.clean()) << r.text();
    float out[32];
    dev.copy_to_host(out, y, sizeof(out));
    EXPECT_FALSE(std::signbit(out[0]));
    EXPECT_FALSE(std::signbit(out[8]));
    EXPECT_TRUE(std::signbit(out[16]) && out[16] == 0.0f);
    EXPECT_TRUE(std::isnan(out[24]));
}

}  // namespace
}  // namespace evg::hw::testing
