// The vector instruction dtype table against docs/hardware-model.md §6.3, spelled out per instruction family.
#include <gtest/gtest.h>

#include <string>

#include "evg/hw/numeric/vector_rules.hpp"

namespace {

using namespace evg::hw;
using D = DType;

// The §6.3 sentence for each family, on AtlasA2.
DTypeSet expected_atlas_a2(VectorOp op) {
    switch (op) {
        case VectorOp::Add:
        case VectorOp::Sub:
        case VectorOp::Mul:
        case VectorOp::Max:
        case VectorOp::Min:
        case VectorOp::Adds:
        case VectorOp::Muls:
        case VectorOp::Maxs:
        case VectorOp::Mins:
            return {D::i16, D::f16, D::i32, D::f32};
        case VectorOp::Relu:
            return {D::f16, D::i32, D::f32};
        case VectorOp::Duplicate:
        case VectorOp::Copy:
        case VectorOp::Brcb:
            return {D::i16, D::f16, D::bf16, D::i32, D::f32};
        case VectorOp::And:
        case VectorOp::Or:
            return {D::i16};
        case VectorOp::ShiftLeft:
            return {D::i16, D::i32};
        default:
            return {D::f16, D::f32};
    }
}

// The arithmetic that gains bfloat16 where the chip has bf16 arithmetic: the element-wise calls up to
// Duplicate (which has bfloat16 everywhere), not the reductions, the movement and the level-0-only calls.
bool gains_bf16(VectorOp op) {
    return static_cast<int>(op) < static_cast<int>(VectorOp::Duplicate);
}

TEST(VectorRules, AtlasA2HasNoBf16Arithmetic) {
    for (VectorOp op : all_vector_ops())
        EXPECT_EQ(vector_dtypes(ArchId::AtlasA2, op), expected_atlas_a2(op)) << vector_op_name(op);
}

TEST(VectorRules, Ascend950AddsBf16ToArithmeticOnly) {
    for (VectorOp op : all_vector_ops()) {
        DTypeSet want = expected_atlas_a2(op);
        if (gains_bf16(op)) want = want | DTypeSet{D::bf16};
        EXPECT_EQ(vector_dtypes(ArchId::Ascend950, op), want) << vector_op_name(op);
    }
}

TEST(VectorRules, NoInstructionTakesInt8Uint8OrInt64) {
    for (ArchId a : kAllArchs)
        for (VectorOp op : all_vector_ops())
            for (DType t : {D::i8, D::u8, D::i64})
                EXPECT_FALSE(vector_dtype_legal(a, op, t)) << vector_op_name(op);
}

TEST(VectorRules, ArithmeticDtypesAreThoseOfAdd) {
    for (ArchId a : kAllArchs) {
        for (DType t : {D::f32, D::f16, D::i16, D::i32}) EXPECT_TRUE(arithmetic_dtype_legal(a, t));
        for (DType t : {D::i8, D::u8, D::i64}) EXPECT_FALSE(arithmetic_dtype_legal(a, t));
        EXPECT_EQ(arithmetic_dtype_legal(a, D::bf16), arch_spec(a).bf16_arithmetic);
    }
    EXPECT_FALSE(arithmetic_dtype_legal(ArchId::AtlasA2, D::bf16));
    EXPECT_TRUE(arithmetic_dtype_legal(ArchId::Ascend950, D::bf16));
}

TEST(VectorRules, NamesAreTheAscendCNames) {
    EXPECT_EQ(vector_op_name(VectorOp::Divs), "Divs");
    EXPECT_EQ(vector_op_name(VectorOp::ReduceMin), "ReduceMin");
    EXPECT_EQ(vector_op_name(VectorOp::LeakyRelu), "LeakyRelu");
    EXPECT_EQ(vector_op_name(VectorOp::BlockReduceSum), "BlockReduceSum");
    EXPECT_EQ(all_vector_ops().size(), static_cast<size_t>(VectorOp::Select) + 1);
}

TEST(VectorRules, DtypeListFollowsTheCatalogueOrder) {
    EXPECT_EQ(dtype_list(vector_dtypes(ArchId::AtlasA2, VectorOp::Relu)), "float, half, int32");
    EXPECT_EQ(dtype_list(vector_dtypes(ArchId::Ascend950, VectorOp::Exp)), "float, half, bfloat16");
    EXPECT_EQ(dtype_list({}), "");
}

}  // namespace
