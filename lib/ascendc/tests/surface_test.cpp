// The API surface upstream Catlass names beyond the EVG path, where the model executes it: TPipe and
// GetTPipePtr, InitConstValue, LocalTensor::SetAddr/address_, the extra element types' sizes, the
// compile-time helpers.
#include <gtest/gtest.h>

#include <vector>

#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace {

using namespace AscendC;
using evg::hw::KernelType;

static_assert(sizeof(float8_e4m3_t) == 1 && sizeof(float8_e5m2_t) == 1 && sizeof(float8_e8m0_t) == 1);
static_assert(sizeof(float4_e2m1x2_t) == 1 && sizeof(float4_e1m2x2_t) == 1 && sizeof(int4b_t) == 1);
static_assert(sizeof(mx_fp8_e4m3_t) == 1 && sizeof(mx_fp8_e5m2_t) == 1);
static_assert(SizeOfBits<int4b_t>::value == 4 && SizeOfBits<float4_e2m1x2_t>::value == 4);
static_assert(SizeOfBits<float8_e4m3_t>::value == 8 && SizeOfBits<half>::value == 16);
static_assert(Std::is_one_of_v<float, half, float> && !Std::is_one_of_v<int, half, float>);
static_assert(Std::integral_constant<int32_t, 7>::value == 7 && Std::integral_constant<int32_t, 7>{}() == 7);
static_assert(Std::true_type::value && !Std::false_type::value && Std::bool_constant<true>{});
static_assert(IsSameType<half, half>::value && !IsSameType<half, bfloat16_t>::value);
static_assert(CeilDivision(65u, 32u) == 3u && GetVecLen() == 256 && Std::min(3, 4) == 3);

TEST(Surface, TPipeIsTheCoresCurrentPipe) {
    evg::hw::Device dev;
    std::vector<int> seen;
    const auto& r = dev.launch(1, KernelType::mix_aic_1_2, [&] {
        EXPECT_EQ(GetTPipePtr(), nullptr);
        {
            TPipe pipe;
            EXPECT_EQ(GetTPipePtr(), &pipe);
            TBuf<TPosition::C2PIPE2GM> fb;
            GetTPipePtr()->InitBuffer(fb, 1024);
            EXPECT_EQ(fb.Get<uint8_t>().GetPosition(), TPosition::C2PIPE2GM);
            pipe.Destroy();
        }
        EXPECT_EQ(GetTPipePtr(), nullptr);
    });
    EXPECT_TRUE(r.clean()) << r.text();
}

TEST(Surface, SetAddrTakesAnotherTensorsPlace) {
    LocalTensor<float> a(TPosition::VECCALC, 256, 64);
    LocalTensor<float> b;
    b.SetAddr(a[16].address_);
    EXPECT_EQ(b.GetPhyAddr(), 256u + 64u);
    EXPECT_EQ(b.GetSize(), 48u);
    EXPECT_EQ(b.GetPosition(), TPosition::VECCALC);
    GlobalTensor<float> g, h;
    float data[4] = {};
    g.SetGlobalBuffer(data, 4);
    h.address_ = g.address_;
    EXPECT_EQ(h.GetPhyAddr(), data);
}

TEST(Surface, InitConstValueFillsRunsOfBlocks) {
    evg::hw::Device dev;
    std::vector<uint16_t> got(64, 0);
    const auto& r = dev.launch(1, KernelType::aic_only, [&] {
        TPipe pipe;
        TBuf<TPosition::A1> l1;
        pipe.InitBuffer(l1, 4096);
        LocalTensor<uint16_t> t = l1.Get<uint16_t>();
        // Two runs of one 32-byte block (16 elements) with one block between them.
        InitConstValue(t, InitConstValueParams<uint16_t>(2, 1, 1, 0x3c00));
        SetFlag<HardEvent::MTE2_S>(0);
        WaitFlag<HardEvent::MTE2_S>(0);
        got[0] = t.GetValue(0);
        got[15] = t.GetValue(15);
        got[32] = t.GetValue(32);
        got[47] = t.GetValue(47);
    });
    EXPECT_EQ(r.count(evg::hw::ViolationKind::uninit_read), 0u) << r.text();
    EXPECT_EQ(got[0], 0x3c00);
    EXPECT_EQ(got[15], 0x3c00);
    EXPECT_EQ(got[32], 0x3c00);
    EXPECT_EQ(got[47], 0x3c00);
}

}  // namespace
