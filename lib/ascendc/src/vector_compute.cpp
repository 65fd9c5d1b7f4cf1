// Element loops of the vector instructions (vector_compute.hpp).
#include "vector_compute.hpp"

#include <algorithm>
#include <cstddef>

#include "evg/hw/numeric/bulk.hpp"

namespace AscendC::detail {

using evg::hw::DType;

namespace {

// dst[i] = op(a[i], b[i]) for count lanes; a or b may be null (unused).
template <class L>
void run_float(VecOp op, uint8_t* d, const uint8_t* a, const uint8_t* b, float s, uint64_t n, uint32_t es) {
    for (uint64_t i = 0; i < n; ++i) {
        float x = a ? L::ld(a + i * es) : 0.0f;
        float y = b ? L::ld(b + i * es) : 0.0f;
        L::st(d + i * es, apply_f(op, x, y, s));
    }
}
template <class L>
void run_int(VecOp op, uint8_t* d, const uint8_t* a, const uint8_t* b, int64_t s, uint64_t n, uint32_t es) {
    for (uint64_t i = 0; i < n; ++i) {
        int64_t x = a ? L::ld(a + i * es) : 0;
        int64_t y = b ? L::ld(b + i * es) : 0;
        L::st(d + i * es, apply_i(op, x, y, s));
    }
}

void reference(VecOp op, DType t, uint8_t* d, const uint8_t* a, const uint8_t* b, double s, uint64_t n) {
    uint32_t es = static_cast<uint32_t>(evg::hw::dtype_size(t));
    switch (t) {
        case DType::f32:
            run_float<Lane<float>>(op, d, a, b, static_cast<float>(s), n, es);
            break;
        case DType::f16:
            run_float<Lane<evg::hw::half>>(op, d, a, b, static_cast<float>(s), n, es);
            break;
        case DType::bf16:
            run_float<Lane<evg::hw::bfloat16>>(op, d, a, b, static_cast<float>(s), n, es);
            break;
        case DType::i16:
            run_int<IntLane<int16_t>>(op, d, a, b, static_cast<int64_t>(s), n, es);
            break;
        case DType::i32:
            run_int<IntLane<int32_t>>(op, d, a, b, static_cast<int64_t>(s), n, es);
            break;
        default:
            break;
    }
}

// The fast path. Each lane's result depends on that lane's inputs only, so an operand may be widened to float
// a block at a time, computed with the operation chosen once per instruction (not once per lane), and
// narrowed a block at a time with the bulk conversions, which equal the per-lane ones bit for bit. That gives
// the lane by lane results unless the destination overlaps an input at another address (a lane would then
// read what an earlier lane of the same block wrote): such instructions take the reference loop.
constexpr size_t kBlock = 512;  // lanes per step: three 2 KiB float buffers on the stack

template <VecOp Op>
void float_block(float* __restrict z, const float* __restrict x, const float* __restrict y, float s,
                 size_t n) {
    for (size_t i = 0; i < n; ++i) z[i] = apply_f(Op, x[i], y[i], s);
}

using FloatBlock = void (*)(float* __restrict, const float* __restrict, const float* __restrict, float,
                            size_t);

FloatBlock float_block_of(VecOp op) {
    switch (op) {
        case VecOp::Add:
            return float_block<VecOp::Add>;
        case VecOp::Sub:
            return float_block<VecOp::Sub>;
        case VecOp::Mul:
            return float_block<VecOp::Mul>;
        case VecOp::Div:
            return float_block<VecOp::Div>;
        case VecOp::Max:
            return float_block<VecOp::Max>;
        case VecOp::Min:
            return float_block<VecOp::Min>;
        case VecOp::Prelu:
            return float_block<VecOp::Prelu>;
        case VecOp::Adds:
            return float_block<VecOp::Adds>;
        case VecOp::Muls:
            return float_block<VecOp::Muls>;
        case VecOp::Maxs:
            return float_block<VecOp::Maxs>;
        case VecOp::Mins:
            return float_block<VecOp::Mins>;
        case VecOp::DivsTensorScalar:
            return float_block<VecOp::DivsTensorScalar>;
        case VecOp::DivsScalarTensor:
            return float_block<VecOp::DivsScalarTensor>;
        case VecOp::LeakyRelu:
            return float_block<VecOp::LeakyRelu>;
        case VecOp::Exp:
            return float_block<VecOp::Exp>;
        case VecOp::Ln:
            return float_block<VecOp::Ln>;
        case VecOp::Abs:
            return float_block<VecOp::Abs>;
        case VecOp::Relu:
            return float_block<VecOp::Relu>;
        case VecOp::Sqrt:
            return float_block<VecOp::Sqrt>;
        case VecOp::Rsqrt:
            return float_block<VecOp::Rsqrt>;
        case VecOp::Reciprocal:
            return float_block<VecOp::Reciprocal>;
        case VecOp::Silu:
            return float_block<VecOp::Silu>;
        case VecOp::Duplicate:
            return float_block<VecOp::Duplicate>;
    }
    return nullptr;
}

void load_lanes(DType t, const uint8_t* p, float* out, size_t n) {
    if (t == DType::f16)
        evg::hw::half_to_float_n(p, out, n);
    else if (t == DType::bf16)
        evg::hw::bf16_to_float_n(p, out, n);
    else
        std::memcpy(out, p, n * sizeof(float));
}

void store_lanes(DType t, uint8_t* p, const float* in, size_t n) {
    if (t == DType::f16)
        evg::hw::float_to_half_rne_n(in, p, n);
    else if (t == DType::bf16)
        evg::hw::float_to_bf16_rne_n(in, p, n);
    else
        std::memcpy(p, in, n * sizeof(float));
}

// A byte range [p, p + bytes) that overlaps [d, d + bytes) without starting at d.
bool overlaps_elsewhere(const uint8_t* d, const uint8_t* p, uint64_t bytes) {
    return p != nullptr && p != d && p < d + bytes && d < p + bytes;
}

}  // namespace

void vec_compute_reference(VecOp op, DType t, uint8_t* d, const uint8_t* a, const uint8_t* b, double s,
                           uint64_t n) {
    reference(op, t, d, a, b, s, n);
}

void vec_compute(VecOp op, DType t, uint8_t* d, const uint8_t* a, const uint8_t* b, double s, uint64_t n) {
    if (t != DType::f32 && t != DType::f16 && t != DType::bf16) {  // integers: already one pass, lane by lane
        reference(op, t, d, a, b, s, n);
        return;
    }
    const auto es = static_cast<uint64_t>(evg::hw::dtype_size(t));
    if (overlaps_elsewhere(d, a, n * es) || overlaps_elsewhere(d, b, n * es)) {
        reference(op, t, d, a, b, s, n);
        return;
    }
    const FloatBlock block = float_block_of(op);
    static constexpr float kZeros[kBlock] = {};
    float x[kBlock], y[kBlock], z[kBlock];
    const auto fs = static_cast<float>(s);
    for (uint64_t i = 0; i < n; i += kBlock) {
        const auto m = static_cast<size_t>(std::min<uint64_t>(kBlock, n - i));
        if (a) load_lanes(t, a + i * es, x, m);
        if (b) load_lanes(t, b + i * es, y, m);
        block(z, a ? x : kZeros, b ? y : kZeros, fs, m);
        store_lanes(t, d + i * es, z, m);
    }
}

}  // namespace AscendC::detail
