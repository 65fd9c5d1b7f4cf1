// Element-type catalogue and storage types (docs/hardware-model.md §7).
#include <gtest/gtest.h>

#include <string>

#include "evg/hw/numeric/convert.hpp"

namespace evg::hw {
namespace {

TEST(NumericTypes, NamesRoundTrip) {
    const char* canonical[] = {"float", "half", "bfloat16", "int8", "uint8", "int16", "int32", "int64"};
    int i = 0;
    for (DType t : kAllDTypes) {
        EXPECT_EQ(dtype_name(t), canonical[i++]);
        EXPECT_EQ(dtype_from_name(dtype_name(t)), t);
    }
}

TEST(NumericTypes, Aliases) {
    EXPECT_EQ(dtype_from_name("bfloat16_t"), DType::bf16);
    EXPECT_EQ(dtype_from_name("bf16"), DType::bf16);
    EXPECT_EQ(dtype_from_name("fp16"), DType::f16);
    EXPECT_EQ(dtype_from_name("fp32"), DType::f32);
    EXPECT_EQ(dtype_from_name("int8_t"), DType::i8);
    EXPECT_EQ(dtype_from_name("uint8_t"), DType::u8);
    EXPECT_EQ(dtype_from_name("int16_t"), DType::i16);
    EXPECT_EQ(dtype_from_name("int32_t"), DType::i32);
    EXPECT_EQ(dtype_from_name("int64_t"), DType::i64);
    EXPECT_FALSE(dtype_from_name("double").has_value());
    EXPECT_FALSE(dtype_from_name("").has_value());
    EXPECT_FALSE(dtype_from_name("Float").has_value());
    EXPECT_FALSE(dtype_from_name("uint16").has_value());
}

TEST(NumericTypes, SizesAndKinds) {
    EXPECT_EQ(dtype_size(DType::f32), 4);
    EXPECT_EQ(dtype_size(DType::f16), 2);
    EXPECT_EQ(dtype_size(DType::bf16), 2);
    EXPECT_EQ(dtype_size(DType::i8), 1);
    EXPECT_EQ(dtype_size(DType::u8), 1);
    EXPECT_EQ(dtype_size(DType::i16), 2);
    EXPECT_EQ(dtype_size(DType::i32), 4);
    EXPECT_EQ(dtype_size(DType::i64), 8);
    EXPECT_TRUE(dtype_is_float(DType::bf16));
    EXPECT_FALSE(dtype_is_float(DType::i16));
    EXPECT_EQ(dtype_of_v<half>, DType::f16);
    EXPECT_EQ(dtype_of_v<bfloat16>, DType::bf16);
    static_assert(sizeof(half) == 2 && sizeof(bfloat16) == 2);
}

TEST(NumericTypes, RoundModeNames) {
    const char* names[] = {"CAST_NONE",  "CAST_RINT",  "CAST_FLOOR", "CAST_CEIL",
                           "CAST_ROUND", "CAST_TRUNC", "CAST_ODD"};
    int i = 0;
    for (RoundMode m : kAllRoundModes) {
        EXPECT_EQ(static_cast<int>(m), i);
        EXPECT_EQ(round_mode_name(m), names[i++]);
    }
}

TEST(NumericTypes, StorageTypesConvert) {
    EXPECT_EQ(half(1.0f).bits, 0x3C00);
    EXPECT_EQ(half(-2.0f).bits, 0xC000);
    EXPECT_EQ(half(65520.0f).bits, 0x7C00);
    EXPECT_EQ(static_cast<float>(half::from_bits(0x3555)), 0x1.554p-2f);
    EXPECT_EQ(static_cast<float>(half::from_bits(0x0001)), 0x1p-24f);
    EXPECT_EQ(bfloat16(1.0f).bits, 0x3F80);
    EXPECT_EQ(bfloat16(3.0f).bits, 0x4040);
    EXPECT_EQ(static_cast<float>(bfloat16::from_bits(0xC2F7)), -123.5f);
    EXPECT_EQ(half().bits, 0);
    EXPECT_TRUE(half::from_bits(0x8000) == half(-0.0f));
    EXPECT_FALSE(half::from_bits(0x8000) == half(0.0f));  // bitwise identity, not IEEE equality
}

// Namespace-scope constants in another translation unit may be initialised before anything else: the table is
// built on first use, so this must already see correct values.
const float kEarly = static_cast<float>(half::from_bits(0x3C00));
TEST(NumericTypes, TableUsableDuringStaticInitialisation) {
    EXPECT_EQ(kEarly, 1.0f);
}

}  // namespace
}  // namespace evg::hw
