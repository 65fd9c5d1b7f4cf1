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
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../src/vector_compute.hpp"

namespace {

using AscendC::detail::vec_compute_on;
using AscendC::detail::vec_compute_reference;
using AscendC::detail::vec_op_name;
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

using evg::hw::kNoOperand;

std::string fmt_case(VecOp op, DType t, double s, int d_at) {
    return std::string(AscendC::detail::vec_op_name(op)) + " on " + std::string(evg::hw::dtype_name(t)) +
           " scalar " + std::to_string(s) + " destination " + std::to_string(d_at);
}

bool same_value(float x, float y) {
    return (x != x && y != y) || std::bit_cast<uint32_t>(x) == std::bit_cast<uint32_t>(y);
}

// The scans of the fast loops equal the lane-by-lane one, lane for lane.
void expect_same_scan(const evg::hw::FpScan& got, const evg::hw::FpScan& want, const std::string& what) {
    EXPECT_EQ(got.subnormal, want.subnormal) << what;
    ASSERT_EQ(got.lanes.size(), want.lanes.size()) << what;
    for (size_t i = 0; i < got.lanes.size(); ++i) {
        const auto &g = got.lanes[i], &w = want.lanes[i];
        EXPECT_TRUE(g.dst == w.dst && g.cls == w.cls && g.born == w.born && g.by_zero == w.by_zero &&
                    same_value(g.in[0], w.in[0]) && same_value(g.in[1], w.in[1]) &&
                    same_value(g.wide, w.wide))
            << what << ": lane " << g.dst << " vs " << w.dst;
    }
}

// The lane-by-lane scan says what the stored results say, read here from the bytes: each NaN and infinite
// result, its class, and (when the operands were not overwritten by earlier lanes: `operands_kept`) whether
// an operand was NaN or infinite; the subnormal count.
void expect_scan_of(VecOp op, DType t, const std::vector<uint8_t>& before, const std::vector<uint8_t>& after,
                    uint64_t d_off, uint64_t a_off, uint64_t b_off, uint64_t n, bool operands_kept,
                    const evg::hw::FpScan& scan) {
    const auto es = static_cast<uint64_t>(evg::hw::dtype_size(t));
    const auto bits = [&](const std::vector<uint8_t>& buf, uint64_t off) {
        uint32_t v = 0;
        std::memcpy(&v, buf.data() + off, es);
        return v;
    };
    const uint32_t exp = t == DType::f32 ? 0x7F800000u : t == DType::f16 ? 0x7C00u : 0x7F80u;
    const uint32_t man = t == DType::f32 ? 0x007FFFFFu : t == DType::f16 ? 0x03FFu : 0x007Fu;
    uint64_t subnormal = 0;
    size_t k = 0;
    for (uint64_t i = 0; i < n; ++i) {
        const uint32_t v = bits(after, d_off + i * es);
        if ((v & exp) == 0 && (v & man) != 0) ++subnormal;
        if ((v & exp) != exp) continue;
        ASSERT_LT(k, scan.lanes.size()) << vec_op_name(op) << ": lane " << i << " is not finite, not noted";
        const evg::hw::FpLane& l = scan.lanes[k++];
        EXPECT_EQ(l.dst, i);
        EXPECT_EQ(l.cls == evg::hw::FpClass::nan, (v & man) != 0) << i;
        if (!operands_kept) continue;
        bool special_in = false;
        for (uint64_t off : {a_off, b_off})
            if (off != kNoOperand) special_in |= (bits(before, off + i * es) & exp) == exp;
        EXPECT_EQ(l.born, !special_in) << vec_op_name(op) << " lane " << i;
    }
    EXPECT_EQ(k, scan.lanes.size()) << vec_op_name(op);
    EXPECT_EQ(subnormal, scan.subnormal) << vec_op_name(op);
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
    evg::hw::FpScan ref_scan;
    vec_compute_reference(op, t, ref.data() + d_off, uses_a ? ref.data() + a_off : nullptr,
                          uses_b ? ref.data() + b_off : nullptr, s, in.n, &ref_scan);
    expect_scan_of(op, t, buf, ref, d_off, uses_a ? a_off : kNoOperand, uses_b ? b_off : kNoOperand, in.n,
                   d_at <= 1, ref_scan);
    for (bool fast_cpu : {true, false}) {
        std::vector<uint8_t> fast = buf;
        evg::hw::FpScan fast_scan;
        vec_compute_on(fast_cpu, op, t, fast.data() + d_off, uses_a ? fast.data() + a_off : nullptr,
                       uses_b ? fast.data() + b_off : nullptr, s, in.n, &fast_scan);
        expect_same_scan(fast_scan, ref_scan,
                         fmt_case(op, t, s, d_at) + (fast_cpu ? " (CPU paths)" : " (portable)"));
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
        if (AscendC::detail::uses_scalar(op))
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
