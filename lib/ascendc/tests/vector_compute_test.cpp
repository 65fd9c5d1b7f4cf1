// The vector instructions' fast element loops (vec_compute: blocks, the operation chosen once, bulk
// conversions) equal their lane-by-lane definition (vec_compute_reference) bit for bit: every operation,
// every float element type, every 16-bit input pattern (paired with every other), scalars at the special
// values, and destinations that alias or overlap an input.
#include <gtest/gtest.h>

#include <algorithm>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string_view>
#include <utility>
#include <vector>

#include "../src/vector_compute.hpp"

namespace {

using AscendC::detail::vec_compute_on;
using AscendC::detail::vec_compute_reference;
using AscendC::detail::VecOp;
using evg::hw::DType;

constexpr VecOp kAllOps[] = {VecOp::Add,
                             VecOp::Sub,
                             VecOp::Mul,
                             VecOp::Div,
                             VecOp::Max,
                             VecOp::Min,
                             VecOp::Prelu,
                             VecOp::Adds,
                             VecOp::Muls,
                             VecOp::Maxs,
                             VecOp::Mins,
                             VecOp::DivsTensorScalar,
                             VecOp::DivsScalarTensor,
                             VecOp::LeakyRelu,
                             VecOp::Exp,
                             VecOp::Ln,
                             VecOp::Abs,
                             VecOp::Relu,
                             VecOp::Sqrt,
                             VecOp::Rsqrt,
                             VecOp::Reciprocal,
                             VecOp::Silu,
                             VecOp::Duplicate};

bool takes_scalar(VecOp op) {
    switch (op) {
        case VecOp::Adds:
        case VecOp::Muls:
        case VecOp::Maxs:
        case VecOp::Mins:
        case VecOp::DivsTensorScalar:
        case VecOp::DivsScalarTensor:
        case VecOp::LeakyRelu:
        case VecOp::Duplicate:
            return true;
        default:
            return false;
    }
}
bool is_binary(VecOp op) {
    return op == VecOp::Add || op == VecOp::Sub || op == VecOp::Mul || op == VecOp::Div || op == VecOp::Max ||
           op == VecOp::Min || op == VecOp::Prelu;
}

const double kScalars[] = {0.0,
                           -0.0,
                           1.5,
                           -2.5,
                           3.0e-5,
                           65504.0,
                           1e30,
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::quiet_NaN()};

// Lanes of element type t: for the 16-bit types every pattern (a) and every pattern in another order (b),
// plus a few more lanes so the count is not a multiple of the block; for float, floats of every upper half
// with random low bits.
struct Inputs {
    uint64_t n;
    std::vector<uint8_t> a, b;
};
Inputs inputs(DType t) {
    Inputs in;
    if (t == DType::f32) {
        std::mt19937 rng(7);
        in.n = 65536 + 5;
        for (uint64_t i = 0; i < in.n; ++i) {
            const auto hi = static_cast<uint32_t>(i % 65536);
            const uint32_t ua = (hi << 16) | (rng() & 0xFFFFu);
            const uint32_t ub = ((hi * 40503u % 65536u) << 16) | (rng() & 0xFFFFu);
            for (int k = 0; k < 4; ++k) {
                in.a.push_back(static_cast<uint8_t>(ua >> (8 * k)));
                in.b.push_back(static_cast<uint8_t>(ub >> (8 * k)));
            }
        }
        return in;
    }
    in.n = 65536 + 5;
    for (uint64_t i = 0; i < in.n; ++i) {
        const auto pa = static_cast<uint16_t>(i % 65536);
        const auto pb = static_cast<uint16_t>(pa * 40503u);  // odd multiplier: a permutation of the patterns
        in.a.push_back(static_cast<uint8_t>(pa));
        in.a.push_back(static_cast<uint8_t>(pa >> 8));
        in.b.push_back(static_cast<uint8_t>(pb));
        in.b.push_back(static_cast<uint8_t>(pb >> 8));
    }
    return in;
}

// Runs both on separate copies of one buffer holding [a | b | d] and compares the whole buffer afterwards.
// `d_at` places the destination: 0 after b, 1 on a (in place), 2 one lane after a, 3 one lane before a.
void expect_same(VecOp op, DType t, const Inputs& in, double s, int d_at) {
    const auto es = static_cast<uint64_t>(evg::hw::dtype_size(t));
    const uint64_t bytes = in.n * es;
    std::vector<uint8_t> buf(4 * bytes + 2 * es, 0xA5);
    const uint64_t a_off = es, b_off = es + bytes + es, tail = b_off + bytes;
    std::memcpy(buf.data() + a_off, in.a.data(), bytes);
    std::memcpy(buf.data() + b_off, in.b.data(), bytes);
    const uint64_t d_off = d_at == 0 ? tail : d_at == 1 ? a_off : d_at == 2 ? a_off + es : a_off - es;
    std::vector<uint8_t> ref = buf;
    const bool uses_a = op != VecOp::Duplicate, uses_b = is_binary(op);
    vec_compute_reference(op, t, ref.data() + d_off, uses_a ? ref.data() + a_off : nullptr,
                          uses_b ? ref.data() + b_off : nullptr, s, in.n);
    for (bool fast_cpu : {true, false}) {
        std::vector<uint8_t> fast = buf;
        vec_compute_on(fast_cpu, op, t, fast.data() + d_off, uses_a ? fast.data() + a_off : nullptr,
                       uses_b ? fast.data() + b_off : nullptr, s, in.n);
        if (fast == ref) continue;
        uint64_t i = 0;
        while (fast[i] == ref[i]) ++i;
        ADD_FAILURE() << AscendC::detail::vec_op_name(op) << " on " << evg::hw::dtype_name(t) << " scalar "
                      << s << " destination " << d_at << (fast_cpu ? " (CPU paths)" : " (portable)")
                      << ": byte " << i << " differs (" << int(fast[i]) << " vs " << int(ref[i]) << ")";
    }
}

class VectorCompute : public testing::TestWithParam<DType> {};

TEST_P(VectorCompute, FastLoopsEqualTheLaneByLaneDefinition) {
    const DType t = GetParam();
    const Inputs in = inputs(t);
    for (VecOp op : kAllOps) {
        if (takes_scalar(op))
            for (double s : kScalars) expect_same(op, t, in, s, 0);
        else
            expect_same(op, t, in, 0.0, 0);
    }
}

TEST_P(VectorCompute, AliasedAndOverlappingDestinationsKeepTheLaneOrder) {
    const DType t = GetParam();
    const Inputs in = inputs(t);
    for (VecOp op : {VecOp::Add, VecOp::Muls, VecOp::Exp, VecOp::Max})
        for (int d_at : {1, 2, 3}) expect_same(op, t, in, 1.5, d_at);
}

// VecOp's values are the vocabulary's VectorOp values (vector.hpp): each element-wise kernel issues the
// vocabulary's instruction of its AscendC name (whose element types the vocabulary's table rules), and the
// second Divs form's value is no VectorOp's.
TEST(VecOp, EachKernelIsTheVocabularysInstructionOfItsName) {
    const std::pair<VecOp, std::string_view> kNames[] = {
        {VecOp::Add, "Add"},
        {VecOp::Sub, "Sub"},
        {VecOp::Mul, "Mul"},
        {VecOp::Div, "Div"},
        {VecOp::Max, "Max"},
        {VecOp::Min, "Min"},
        {VecOp::Prelu, "Prelu"},
        {VecOp::Adds, "Adds"},
        {VecOp::Muls, "Muls"},
        {VecOp::Maxs, "Maxs"},
        {VecOp::Mins, "Mins"},
        {VecOp::DivsTensorScalar, "Divs"},
        {VecOp::DivsScalarTensor, "Divs"},
        {VecOp::LeakyRelu, "LeakyRelu"},
        {VecOp::Exp, "Exp"},
        {VecOp::Ln, "Ln"},
        {VecOp::Abs, "Abs"},
        {VecOp::Relu, "Relu"},
        {VecOp::Sqrt, "Sqrt"},
        {VecOp::Rsqrt, "Rsqrt"},
        {VecOp::Reciprocal, "Reciprocal"},
        {VecOp::Silu, "Silu"},
        {VecOp::Duplicate, "Duplicate"},
        {VecOp::And, "And"},
        {VecOp::Or, "Or"},
        {VecOp::ShiftLeft, "ShiftLeft"},
    };
    const auto ops = evg::hw::all_vector_ops();
    for (const auto& [op, name] : kNames) {
        const evg::hw::VectorOp v = AscendC::detail::table_op(op);
        EXPECT_TRUE(std::ranges::find(ops, v) != ops.end()) << name;
        EXPECT_EQ(evg::hw::vector_op_name(v), name);
        EXPECT_EQ(AscendC::detail::vec_op_name(op), name);
    }
    for (evg::hw::VectorOp v : ops)
        EXPECT_NE(static_cast<VecOp>(v), VecOp::DivsScalarTensor) << evg::hw::vector_op_name(v);
}

INSTANTIATE_TEST_SUITE_P(FloatTypes, VectorCompute, testing::Values(DType::f32, DType::f16, DType::bf16),
                         [](const testing::TestParamInfo<DType>& i) {
                             return std::string(evg::hw::dtype_name(i.param));
                         });

}  // namespace
