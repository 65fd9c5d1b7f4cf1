// The element types of the vector instructions (docs/hardware-model.md §6.3).
#include "evg/hw/numeric/vector_rules.hpp"

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace evg::hw {

namespace {

struct Row {
    VectorOp op;
    std::string_view name;
    DTypeSet types;        // on every chip
    bool bf16_arithmetic;  // bfloat16 too where the chip has bf16 arithmetic (ArchSpec::bf16_arithmetic)
};

constexpr DTypeSet kArith{DType::i16, DType::f16, DType::i32, DType::f32};
constexpr DTypeSet kFloat{DType::f16, DType::f32};
constexpr DTypeSet kRelu{DType::f16, DType::i32, DType::f32};
constexpr DTypeSet kDuplicate{DType::i16, DType::f16, DType::bf16, DType::i32, DType::f32};
constexpr DTypeSet kMove{DType::i16, DType::f16, DType::bf16, DType::i32, DType::f32};
constexpr DTypeSet kBitwise{DType::i16};
constexpr DTypeSet kShift{DType::i16, DType::i32};

// The table, in VectorOp order. The reductions take half and float only, bfloat16 on no chip. And/Or take
// 16-bit integers, ShiftLeft 16- and 32-bit integers; Copy and Brcb move any 16- or 32-bit element.
constexpr Row kRows[] = {
    {VectorOp::Add, "Add", kArith, true},
    {VectorOp::Sub, "Sub", kArith, true},
    {VectorOp::Mul, "Mul", kArith, true},
    {VectorOp::Div, "Div", kFloat, true},
    {VectorOp::Max, "Max", kArith, true},
    {VectorOp::Min, "Min", kArith, true},
    {VectorOp::Prelu, "Prelu", kFloat, true},
    {VectorOp::Adds, "Adds", kArith, true},
    {VectorOp::Muls, "Muls", kArith, true},
    {VectorOp::Maxs, "Maxs", kArith, true},
    {VectorOp::Mins, "Mins", kArith, true},
    {VectorOp::Divs, "Divs", kFloat, true},
    {VectorOp::LeakyRelu, "LeakyRelu", kFloat, true},
    {VectorOp::Exp, "Exp", kFloat, true},
    {VectorOp::Ln, "Ln", kFloat, true},
    {VectorOp::Abs, "Abs", kFloat, true},
    {VectorOp::Relu, "Relu", kRelu, true},
    {VectorOp::Sqrt, "Sqrt", kFloat, true},
    {VectorOp::Rsqrt, "Rsqrt", kFloat, true},
    {VectorOp::Reciprocal, "Reciprocal", kFloat, true},
    {VectorOp::Silu, "Silu", kFloat, true},
    {VectorOp::Duplicate, "Duplicate", kDuplicate, false},
    {VectorOp::ReduceSum, "ReduceSum", kFloat, false},
    {VectorOp::ReduceMax, "ReduceMax", kFloat, false},
    {VectorOp::ReduceMin, "ReduceMin", kFloat, false},
    {VectorOp::And, "And", kBitwise, false},
    {VectorOp::Or, "Or", kBitwise, false},
    {VectorOp::ShiftLeft, "ShiftLeft", kShift, false},
    {VectorOp::Axpy, "Axpy", kFloat, false},
    {VectorOp::MulAddDst, "MulAddDst", kFloat, false},
    {VectorOp::Copy, "Copy", kMove, false},
    {VectorOp::Brcb, "Brcb", kMove, false},
    {VectorOp::BlockReduceSum, "BlockReduceSum", kFloat, false},
    {VectorOp::BlockReduceMax, "BlockReduceMax", kFloat, false},
    {VectorOp::BlockReduceMin, "BlockReduceMin", kFloat, false},
    {VectorOp::WholeReduceSum, "WholeReduceSum", kFloat, false},
    {VectorOp::WholeReduceMax, "WholeReduceMax", kFloat, false},
    {VectorOp::WholeReduceMin, "WholeReduceMin", kFloat, false},
    {VectorOp::RepeatReduceSum, "RepeatReduceSum", kFloat, false},
    {VectorOp::CompareScalar, "CompareScalar", kFloat, false},
    {VectorOp::Select, "Select", kFloat, false},
};

constexpr bool rows_in_enum_order() {
    for (size_t i = 0; i < std::size(kRows); ++i)
        if (static_cast<size_t>(kRows[i].op) != i) return false;
    return true;
}
static_assert(rows_in_enum_order(), "kRows is indexed by VectorOp");

constexpr auto make_ops() {
    std::array<VectorOp, std::size(kRows)> ops{};
    for (size_t i = 0; i < ops.size(); ++i) ops[i] = kRows[i].op;
    return ops;
}
constexpr auto kOps = make_ops();

const Row& row(VectorOp op) {
    return kRows[static_cast<size_t>(op)];
}

}  // namespace

std::span<const VectorOp> all_vector_ops() {
    return kOps;
}

std::string_view vector_op_name(VectorOp op) {
    return row(op).name;
}

DTypeSet vector_dtypes(ArchId arch, VectorOp op) {
    const Row& r = row(op);
    if (r.bf16_arithmetic && arch_spec(arch).bf16_arithmetic) return r.types | DTypeSet{DType::bf16};
    return r.types;
}

std::string dtype_list(DTypeSet s) {
    std::string out;
    for (DType t : kAllDTypes) {
        if (!s.contains(t)) continue;
        if (!out.empty()) out += ", ";
        out += dtype_name(t);
    }
    return out;
}

}  // namespace evg::hw
