// Every compute functor on a 2x3 matrix against results worked out by hand (with an exact-arithmetic
// calculator for the transcendental ones: the exact value, then rounded to nearest even by hand).
// half: 1 = 0x3c00, ULP at 1 is 2^-10; float: 1 = 0x3f800000.
#include <gtest/gtest.h>

#include "evg/hw/error.hpp"
#include "evg/oracle/functors.hpp"
#include "oracle_test_util.hpp"

namespace evg::oracle {
namespace {

using graph::Functor;
using namespace evg::oracle::test;
constexpr std::uint64_t kHalfNaN = 0x7e00, kFloatNaN = 0x7fc00000;

Values run(Functor fn, DType t, std::initializer_list<Values> ins, std::vector<double> scalars = {}) {
    std::vector<const Values*> ptrs;
    for (const Values& v : ins) ptrs.push_back(&v);
    return apply_functor(fn, t, ptrs, scalars);
}

TEST(Oracle_Functor, Exp_half) {
    // e = 2.71828.. -> 1392 * 2^-9 = 2.71875; e^-1 = 0.367879.. -> 1507 * 2^-12; e^12 = 162754 > 65504 -> inf
    const Values x = mat(2, 3, {0, 1, -1, 12, -kInf, kNaN});
    expect_bits(run(Functor::Exp, DType::f16, {x}), DType::f16,
                {0x3c00, 0x4170, 0x35e3, 0x7c00, 0x0000, kHalfNaN});
}

TEST(Oracle_Functor, Exp_float) {
    // e^89 overflows float; e^-100 = 3.78e-44 = 27 * 2^-149 (a subnormal)
    const Values x = mat(2, 3, {1, -1, 0.5, 0, 89, -100});
    expect_bits(run(Functor::Exp, DType::f32, {x}), DType::f32,
                {0x402df854, 0x3ebc5ab2, 0x3fd3094c, 0x3f800000, 0x7f800000, 0x0000001b});
}

TEST(Oracle_Functor, Relu_float_NaNAndSignedZero) {
    const Values x = mat(2, 3, {-1, 0, 2.5, kNaN, -0.0L, -kInf});
    expect_bits(run(Functor::Relu, DType::f32, {x}), DType::f32, {0, 0, 0x40200000, kFloatNaN, 0, 0});
}

TEST(Oracle_Functor, Sqrt_float) {
    // sqrt(2) = 1.41421356.. -> 0x3fb504f3; sqrt(-1) = NaN; sqrt(-0) = -0
    const Values x = mat(2, 3, {4, 2, 0, -1, kInf, -0.0L});
    expect_bits(run(Functor::Sqrt, DType::f32, {x}), DType::f32,
                {0x40000000, 0x3fb504f3, 0, kFloatNaN, 0x7f800000, 0x80000000});
}

TEST(Oracle_Functor, RsqrtFast_half_RoundsOnce) {
    // 1/sqrt(1.375) = 0.852802.. -> 0x3ad3 (one rounding); Rsqrt below rounds sqrt first and gets 0x3ad2
    const Values x = mat(2, 3, {1.375, 4, 0, -1, kInf, 0.25});
    expect_bits(run(Functor::RsqrtFast, DType::f16, {x}), DType::f16,
                {0x3ad3, 0x3800, 0x7c00, kHalfNaN, 0, 0x4000});
}

TEST(Oracle_Functor, Rsqrt_half_SqrtThenReciprocal) {
    // sqrt(1.375) = 1.172603.. -> 1.1728515625 (0x3cb1); 1/1.1728515625 = 0.852618.. -> 0.8525390625 (0x3ad2)
    const Values x = mat(2, 3, {1.375, 4, 0, -1, kInf, 0.25});
    expect_bits(run(Functor::Rsqrt, DType::f16, {x}), DType::f16,
                {0x3ad2, 0x3800, 0x7c00, kHalfNaN, 0, 0x4000});
}

TEST(Oracle_Functor, Silu_float) {
    // 1/(1+e^-1) = 0.7310585786 -> 0x3f3b26a8; -1/(1+e) = -0.2689414214 -> 0xbe89b2b1;
    // 20/(1+e^-20) = 19.99999959 -> 20; -20 e^-20/(1+e^-20) = -4.1223e-8 -> 0xb3310d3f
    const Values x = mat(2, 3, {1, -1, 20, -20, 0, kNaN});
    expect_bits(run(Functor::Silu, DType::f32, {x}), DType::f32,
                {0x3f3b26a8, 0xbe89b2b1, 0x41a00000, 0xb3310d3f, 0, kFloatNaN});
}

TEST(Oracle_Functor, Silu_half) {
    // -4.1223e-8 is 0.69 of half's smallest subnormal 2^-24 -> -2^-24 (0x8001)
    const Values x = mat(2, 3, {1, -1, 20, -20, 0, kInf});
    expect_bits(run(Functor::Silu, DType::f16, {x}), DType::f16, {0x39d9, 0xb44e, 0x4d00, 0x8001, 0, 0x7c00});
}

TEST(Oracle_Functor, LeakyRelu_float) {
    // slope 0.1 is the float 0.100000001490116..; -2 * that = 0xbe4ccccd exactly; -0 >= 0 keeps -0
    const Values x = mat(2, 3, {-2, 3, -0.0L, kNaN, -kInf, 0.5});
    expect_bits(run(Functor::LeakyRelu, DType::f32, {x}, {0.1}), DType::f32,
                {0xbe4ccccd, 0x40400000, 0x80000000, kFloatNaN, 0xff800000, 0x3f000000});
}

TEST(Oracle_Functor, Muls_half_ScalarConvertedThenTie) {
    // the scalar 0.1 becomes half 0.0999755859375 (0x2e66); 3 * it = 0.2999267578125 is halfway between
    // 1228 and 1229 * 2^-12 -> even 1228 * 2^-12 = 0.2998046875 (0x34cc)
    const Values x = mat(2, 3, {3, 1, -2, 0, kInf, kNaN});
    expect_bits(run(Functor::Muls, DType::f16, {x}, {0.1}), DType::f16,
                {0x34cc, 0x2e66, 0xb266, 0, 0x7c00, kHalfNaN});
}

TEST(Oracle_Functor, Adds_half_RoundsToEven) {
    // 2048 + 1 = 2049 is halfway between 2048 and 2050 -> 2048; -1 + 1 = +0
    const Values x = mat(2, 3, {2048, 2047, -1, 0.5, -kInf, kNaN});
    expect_bits(run(Functor::Adds, DType::f16, {x}, {1}), DType::f16,
                {0x6800, 0x6800, 0, 0x3e00, 0xfc00, kHalfNaN});
}

TEST(Oracle_Functor, Maxs_Mins_float) {
    const Values x = mat(2, 3, {-1, kNaN, -0.0L, 2, -kInf, kInf});
    expect_bits(run(Functor::Maxs, DType::f32, {x}, {0}), DType::f32,
                {0, kFloatNaN, 0, 0x40000000, 0, 0x7f800000});
    expect_bits(run(Functor::Mins, DType::f32, {x}, {0}), DType::f32,
                {0xbf800000, kFloatNaN, 0x80000000, 0, 0xff800000, 0});
}

TEST(Oracle_Functor, Clamp_float_MaxsThenMins) {
    // clamp(x, -1, 2); NaN stays NaN (as Maxs and Mins keep it); lo > hi gives hi everywhere
    const Values x = mat(2, 3, {-3, kNaN, 0.5, 2, -kInf, kInf});
    expect_bits(run(Functor::Clamp, DType::f32, {x}, {-1, 2}), DType::f32,
                {0xbf800000, kFloatNaN, 0x3f000000, 0x40000000, 0xbf800000, 0x40000000});
    expect_bits(run(Functor::Clamp, DType::f32, {x}, {1, -1}), DType::f32,
                {0xbf800000, kFloatNaN, 0xbf800000, 0xbf800000, 0xbf800000, 0xbf800000});
}

TEST(Oracle_Functor, Clamp_int16) {
    const Values x = mat(1, 4, {-7, -2, 3, 9});
    expect_bits(run(Functor::Clamp, DType::i16, {x}, {-2, 3}), DType::i16, {0xfffe, 0xfffe, 3, 3});
}

TEST(Oracle_Functor, Add_half_ThreeInputsRoundEachStep) {
    // (2048 + 1) -> 2048, + 1 -> 2048 (a single rounding of 2050 would give 2050); inf + -inf = NaN
    const Values a = mat(2, 3, {2048, 1, -1, kInf, kInf, 0.5});
    const Values b = mat(2, 3, {1, 2, 1, -kInf, 1, 0.25});
    const Values c = mat(2, 3, {1, 3, -0.0L, 1, kNaN, 0.125});
    expect_bits(run(Functor::Add, DType::f16, {a, b, c}), DType::f16,
                {0x6800, 0x4600, 0, kHalfNaN, kHalfNaN, 0x3b00});
}

TEST(Oracle_Functor, Sub_half_ThreeInputsAndOverflow) {
    // 65504 - -65504 = 131008 -> inf; -2 - -2 = +0, +0 - 0 = +0
    const Values a = mat(2, 3, {1, 0.5, -2, 65504, -65504, 3});
    const Values b = mat(2, 3, {2, 0.25, -2, -65504, 65504, 1});
    const Values c = mat(2, 3, {3, 0.125, 0, 0, 0, 1});
    expect_bits(run(Functor::Sub, DType::f16, {a, b, c}), DType::f16,
                {0xc400, 0x3000, 0, 0x7c00, 0xfc00, 0x3c00});
}

TEST(Oracle_Functor, Mul_float_ThreeInputs) {
    // (1+2^-23)^2 = 1 + 2^-22 + 2^-46 -> 1 + 2^-22; * (1 - 2^-24) -> 1 + 2^-23; 2^100 * 2^100 overflows
    // before
    // * 2^-100 (chained rounding), inf * 0 = NaN
    const Values a = mat(2, 3, {1 + p2(-23), 2, -0.0L, kInf, p2(100), kNaN});
    const Values b = mat(2, 3, {1 + p2(-23), 3, 5, 0, p2(100), 1});
    const Values c = mat(2, 3, {1 - p2(-24), 4, 1, 1, p2(-100), 1});
    expect_bits(run(Functor::Mul, DType::f32, {a, b, c}), DType::f32,
                {0x3f800001, 0x41c00000, 0x80000000, kFloatNaN, 0x7f800000, kFloatNaN});
}

TEST(Oracle_Functor, Div_float_TwoAndThreeInputs) {
    const Values a = mat(2, 3, {1, 1, 0, -1, 6, 1});
    const Values b = mat(2, 3, {3, 0, 0, 0, 3, -kInf});
    expect_bits(run(Functor::Div, DType::f32, {a, b}), DType::f32,
                {0x3eaaaaab, 0x7f800000, kFloatNaN, 0xff800000, 0x40000000, 0x80000000});
    // (1/3)/3 = 0.333333343/3 -> 0x3de38e39; (1/0)/0 = inf; 1/-0 = -inf
    const Values a3 = mat(2, 3, {1, 8, 1, 1, 1, 1});
    const Values b3 = mat(2, 3, {3, 2, 0, 2, 1, 3});
    const Values c3 = mat(2, 3, {3, 2, 0, 2, -0.0L, 0});
    expect_bits(run(Functor::Div, DType::f32, {a3, b3, c3}), DType::f32,
                {0x3de38e39, 0x40000000, 0x7f800000, 0x3e800000, 0xff800000, 0x7f800000});
}

TEST(Oracle_Functor, Max_Min_float_NaNPropagatesAndSignedZero) {
    const Values a = mat(2, 3, {1, kNaN, -0.0L, 5, -kInf, 1});
    const Values b = mat(2, 3, {2, 1, 0, 4, -kInf, kNaN});
    const Values c = mat(2, 3, {0, 2, -0.0L, 3, -1, 0});
    expect_bits(run(Functor::Max, DType::f32, {a, b, c}), DType::f32,
                {0x40000000, kFloatNaN, 0, 0x40a00000, 0xbf800000, kFloatNaN});
    expect_bits(run(Functor::Min, DType::f32, {a, b, c}), DType::f32,
                {0, kFloatNaN, 0x80000000, 0x40400000, 0xff800000, kFloatNaN});
}

TEST(Oracle_Functor, AddRelu_half) {
    const Values a = mat(2, 3, {1, -3, 2048, -0.0L, kNaN, -1});
    const Values b = mat(2, 3, {2, 1, 1, 0, 1, 1});
    expect_bits(run(Functor::AddRelu, DType::f16, {a, b}), DType::f16, {0x4200, 0, 0x6800, 0, kHalfNaN, 0});
}

TEST(Oracle_Functor, Prelu_float) {
    const Values a = mat(2, 3, {-2, 3, -0.0L, kNaN, -kInf, 4});
    const Values b = mat(2, 3, {0.5, 7, 2, 1, 0.5, -1});
    expect_bits(run(Functor::Prelu, DType::f32, {a, b}), DType::f32,
                {0xbf800000, 0x40400000, 0x80000000, kFloatNaN, 0xff800000, 0x40800000});
}

TEST(Oracle_Functor, Reciprocal_float) {
    const Values x = mat(2, 3, {3, 0, -0.0L, 4, kInf, kNaN});
    expect_bits(run(Functor::Reciprocal, DType::f32, {x}), DType::f32,
                {0x3eaaaaab, 0x7f800000, 0xff800000, 0x3e800000, 0, kFloatNaN});
}

TEST(Oracle_Functor, Sigmoid_half_FourRoundedSteps) {
    // x = -5: e^5 = 148.41 -> 148.375; + 1 = 149.375 (exact); 1/149.375 = 0.0066945.. -> 0x1edb, where a
    // single rounding of 1/(1+e^5) = 0.0066928.. would give 0x1eda. x = 20: e^-20 rounds to 0 in half -> 1/1
    // = 1. x = -20: e^20 overflows half -> 1/inf = 0.
    const Values x = mat(2, 3, {0, 1, -5, 20, -20, kNaN});
    expect_bits(run(Functor::Sigmoid, DType::f16, {x}), DType::f16,
                {0x3800, 0x39d9, 0x1edb, 0x3c00, 0, kHalfNaN});
}

TEST(Oracle_Functor, Add_int32_Wraps) {
    const Values a = mat(2, 3, {2147483647, -5, 7, 100, -2147483648.0L, 0});
    const Values b = mat(2, 3, {1, 3, -7, -200, -1, 0});
    expect_bits(run(Functor::Add, DType::i32, {a, b}), DType::i32,
                {0x80000000, 0xfffffffe, 0, 0xffffff9c, 0x7fffffff, 0});
}

TEST(Oracle_Functor, Mul_int16_Wraps) {
    // 300 * 300 = 90000 = 65536 + 24464; 256 * 256 = 65536 -> 0
    const Values a = mat(2, 3, {300, -3, 2, 256, 1, 0});
    const Values b = mat(2, 3, {300, 4, -2, 256, -1, 5});
    expect_bits(run(Functor::Mul, DType::i16, {a, b}), DType::i16, {24464, 0xfff4, 0xfffc, 0, 0xffff, 0});
}

TEST(Oracle_Functor, Muls_Relu_int32) {
    const Values x = mat(2, 3, {3, -4, 0, 5, -1, 7});
    // an integer functor's scalar field truncates: 2.9 -> 2
    expect_bits(run(Functor::Muls, DType::i32, {x}, {2.9}), DType::i32,
                {6, 0xfffffff8, 0, 10, 0xfffffffe, 14});
    expect_bits(run(Functor::Relu, DType::i32, {x}), DType::i32, {3, 0, 0, 5, 0, 7});
}

TEST(Oracle_Functor, NoIntegerInstructionThrows) {
    const Values x = mat(1, 1, {4});
    EXPECT_THROW(run(Functor::Div, DType::i32, {x, x}), evg::Error);
    EXPECT_THROW(run(Functor::Exp, DType::i16, {x}), evg::Error);
    EXPECT_THROW(run(Functor::Sigmoid, DType::i32, {x}), evg::Error);
}

TEST(Oracle_Functor, ArityAndScalarsChecked) {
    const Values x = mat(1, 1, {4});
    EXPECT_THROW(run(Functor::Add, DType::f32, {x}), evg::Error);
    EXPECT_THROW(run(Functor::Exp, DType::f32, {x, x}), evg::Error);
    EXPECT_THROW(run(Functor::Muls, DType::f32, {x}), evg::Error);  // no scalar
}

TEST(Oracle_Functor, ScalarValuePolicy) {
    EXPECT_EQ(scalar_value(DType::f16, 0.1), decode(DType::f16, 0x2e66));
    EXPECT_EQ(scalar_value(DType::f32, 0.1), decode(DType::f32, 0x3dcccccd));
    EXPECT_EQ(scalar_value(DType::i32, -2.9), -2);
    EXPECT_EQ(scalar_value(DType::i8, 300), 127);
}

TEST(Oracle_Functor, ReduceStep) {
    EXPECT_EQ(reduce_step(Functor::Add, DType::f16, 2048, 1), 2048);  // rounded like an Add instruction
    EXPECT_EQ(reduce_step(Functor::Add, DType::f32, 2048, 1), 2049);
    EXPECT_TRUE(std::isnan(reduce_step(Functor::Max, DType::f32, kNaN, 1)));
    EXPECT_EQ(reduce_step(Functor::Min, DType::f32, 3, -1), -1);
    EXPECT_THROW(reduce_step(Functor::Mul, DType::f32, 1, 1), evg::Error);
}

}  // namespace
}  // namespace evg::oracle
