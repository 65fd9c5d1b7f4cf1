// The element arithmetic of the vector instructions (vector.cpp): one lane's operation, lane access per
// element type, and whole-operand loops. vec_compute is what the instructions run; vec_compute_reference is
// the definition, lane by lane in ascending order, that vec_compute must equal bit for bit
// (vector_compute_test holds it to that for every operation and element type).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascendc/vector.hpp"
#include "evg/hw/numeric/convert.hpp"
#include "evg/hw/numeric/fp_scan.hpp"

namespace AscendC::detail {

// NaN propagates; -0 orders below +0 (the oracle's rule), so max(-0, +0) = +0 and min(-0, +0) = -0.
inline float nan_max(float a, float b) {
    if (a != a || b != b) return NAN;
    if (a == b) return std::signbit(a) ? b : a;
    return a > b ? a : b;
}
inline float nan_min(float a, float b) {
    if (a != a || b != b) return NAN;
    if (a == b) return std::signbit(a) ? a : b;
    return a < b ? a : b;
}

// When both operands of + or * are NaN, x86 returns the first one (quieted), but the operands commute and a
// compiler may swap them (GCC does when it vectorises a loop), which flips the sign of a NaN result. So a NaN
// `a` meets the identity instead of `b`: the result is `a` quieted whichever operand the compiler puts first,
// and otherwise at most one operand is a NaN. (A select of the operand vectorises; a branch does not.)
inline float add_nan_first(float a, float b) {
    return a + (a != a ? 0.0f : b);
}
inline float mul_nan_first(float a, float b) {
    return a * (a != a ? 1.0f : b);
}

inline float apply_f(VecOp op, float a, float b, float s) {
    switch (op) {
        case VecOp::Add:
            return add_nan_first(a, b);
        case VecOp::Sub:
            return a - b;
        case VecOp::Mul:
            return mul_nan_first(a, b);
        case VecOp::Div:
            return a / b;
        case VecOp::Max:
            return nan_max(a, b);
        case VecOp::Min:
            return nan_min(a, b);
        case VecOp::Prelu:
            return a >= 0.0f ? a : mul_nan_first(a, b);
        case VecOp::Adds:
            return add_nan_first(a, s);
        case VecOp::Muls:
            return mul_nan_first(a, s);
        case VecOp::Maxs:
            return nan_max(a, s);
        case VecOp::Mins:
            return nan_min(a, s);
        case VecOp::DivsTensorScalar:
            return a / s;
        case VecOp::DivsScalarTensor:
            return s / a;
        case VecOp::LeakyRelu:
            return a >= 0.0f ? a : mul_nan_first(a, s);
        case VecOp::Exp:
            return std::exp(a);
        case VecOp::Ln:
            return std::log(a);
        case VecOp::Abs:
            return std::fabs(a);
        case VecOp::Relu:
            return a != a ? a : (a > 0.0f ? a : 0.0f);
        case VecOp::Sqrt:
            return std::sqrt(a);
        case VecOp::Rsqrt:
            return 1.0f / std::sqrt(a);
        case VecOp::Reciprocal:
            return 1.0f / a;
        case VecOp::Silu:
            return a / (1.0f + std::exp(-a));
        case VecOp::Duplicate:
            return s;
        case VecOp::And:
        case VecOp::Or:
        case VecOp::ShiftLeft:
            return 0.0f;  // integer lanes only (the dtype table rejects floats)
    }
    return 0.0f;
}

// Whether the operation reads its scalar operand.
constexpr bool uses_scalar(VecOp op) {
    switch (op) {
        case VecOp::Adds:
        case VecOp::Muls:
        case VecOp::Maxs:
        case VecOp::Mins:
        case VecOp::DivsTensorScalar:
        case VecOp::DivsScalarTensor:
        case VecOp::LeakyRelu:
        case VecOp::Duplicate:
        case VecOp::ShiftLeft:
            return true;
        default:
            return false;
    }
}

inline int64_t apply_i(VecOp op, int64_t a, int64_t b, int64_t s) {
    switch (op) {
        case VecOp::Add:
            return a + b;
        case VecOp::Sub:
            return a - b;
        case VecOp::Mul:
            return a * b;
        case VecOp::Max:
            return a > b ? a : b;
        case VecOp::Min:
            return a < b ? a : b;
        case VecOp::Adds:
            return a + s;
        case VecOp::Muls:
            return a * s;
        case VecOp::Maxs:
            return a > s ? a : s;
        case VecOp::Mins:
            return a < s ? a : s;
        case VecOp::Relu:
            return a > 0 ? a : 0;
        case VecOp::Duplicate:
            return s;
        case VecOp::And:
            return a & b;
        case VecOp::Or:
            return a | b;
        case VecOp::ShiftLeft:
            return static_cast<int64_t>(static_cast<uint64_t>(a) << (s & 63));
        default:
            return 0;
    }
}

template <class T>
struct Lane;
template <>
struct Lane<float> {
    static float ld(const uint8_t* p) {
        float v;
        std::memcpy(&v, p, 4);
        return v;
    }
    static void st(uint8_t* p, float v) { std::memcpy(p, &v, 4); }
};
template <>
struct Lane<evg::hw::half> {
    static float ld(const uint8_t* p) {
        uint16_t b;
        std::memcpy(&b, p, 2);
        return evg::hw::half_to_float(b);
    }
    static void st(uint8_t* p, float v) {
        uint16_t b = evg::hw::float_to_half(v, evg::hw::RoundMode::CAST_RINT);
        std::memcpy(p, &b, 2);
    }
};
template <>
struct Lane<evg::hw::bfloat16> {
    static float ld(const uint8_t* p) {
        uint16_t b;
        std::memcpy(&b, p, 2);
        return evg::hw::bf16_to_float(b);
    }
    static void st(uint8_t* p, float v) {
        uint16_t b = evg::hw::float_to_bf16(v, evg::hw::RoundMode::CAST_RINT);
        std::memcpy(p, &b, 2);
    }
};
template <class I>
struct IntLane {
    static int64_t ld(const uint8_t* p) {
        I v;
        std::memcpy(&v, p, sizeof(I));
        return v;
    }
    static void st(uint8_t* p, int64_t v) {
        I w = static_cast<I>(static_cast<std::make_unsigned_t<I>>(v));  // wraps
        std::memcpy(p, &w, sizeof(I));
    }
};

// Lane `lane`'s result, stored at p with the bits `fb` describes: a NaN or an infinity goes to sc.lanes with
// its operands (x read when has_a, y when has_b, the scalar s) and the result before narrowing (wide); a
// subnormal one is counted. The one definition of "born" and "by zero" the element loops share.
void note_result(evg::hw::FpScan& sc, const evg::hw::FpBits& fb, const uint8_t* p, uint64_t lane, VecOp op,
                 float x, float y, bool has_a, bool has_b, float s, float wide);

// d[i] = op(a[i], b[i]) for n lanes of element type t (a float type, int16 or int32; others do nothing); a or
// b may be null (the lane reads 0). The operands may overlap: the result is that of the lanes computed one by
// one in ascending order, each reading its inputs and then writing its output. With `scan`, the results are
// tested as they are stored (fp_scan.hpp): its lanes get the non-finite ones, FpLane::dst their lane index.
void vec_compute(VecOp op, evg::hw::DType t, uint8_t* d, const uint8_t* a, const uint8_t* b, double s,
                 uint64_t n, evg::hw::FpScan* scan = nullptr);
// vec_compute with the CPU's AVX / F16C paths (fast_cpu, when it has them) or the portable ones only.
void vec_compute_on(bool fast_cpu, VecOp op, evg::hw::DType t, uint8_t* d, const uint8_t* a, const uint8_t* b,
                    double s, uint64_t n, evg::hw::FpScan* scan = nullptr);
void vec_compute_reference(VecOp op, evg::hw::DType t, uint8_t* d, const uint8_t* a, const uint8_t* b,
                           double s, uint64_t n, evg::hw::FpScan* scan = nullptr);

}  // namespace AscendC::detail
