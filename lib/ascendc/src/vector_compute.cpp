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
[[gnu::always_inline]] inline void float_lanes(float* __restrict z, const float* __restrict x,
                                               const float* __restrict y, float s, size_t n) {
    for (size_t i = 0; i < n; ++i) z[i] = apply_f(Op, x[i], y[i], s);
}

// The block loop compiled for the build's target, and for AVX (eight lanes per instruction; no FMA, so every
// operation still rounds on its own), which runs when the CPU has it.
template <VecOp Op>
struct PlainBlock {
    static void run(float* __restrict z, const float* __restrict x, const float* __restrict y, float s,
                    size_t n) {
        float_lanes<Op>(z, x, y, s, n);
    }
};
#if defined(__x86_64__) || defined(__i386__)
template <VecOp Op>
struct AvxBlock {
    [[gnu::target("avx")]] static void run(float* __restrict z, const float* __restrict x,
                                           const float* __restrict y, float s, size_t n) {
        float_lanes<Op>(z, x, y, s, n);
    }
};
#else
template <VecOp Op>
using AvxBlock = PlainBlock<Op>;
#endif

using FloatBlock = void (*)(float* __restrict, const float* __restrict, const float* __restrict, float,
                            size_t);

template <template <VecOp> class Block>
FloatBlock float_block_of(VecOp op) {
    switch (op) {
        case VecOp::Add:
            return Block<VecOp::Add>::run;
        case VecOp::Sub:
            return Block<VecOp::Sub>::run;
        case VecOp::Mul:
            return Block<VecOp::Mul>::run;
        case VecOp::Div:
            return Block<VecOp::Div>::run;
        case VecOp::Max:
            return Block<VecOp::Max>::run;
        case VecOp::Min:
            return Block<VecOp::Min>::run;
        case VecOp::Prelu:
            return Block<VecOp::Prelu>::run;
        case VecOp::Adds:
            return Block<VecOp::Adds>::run;
        case VecOp::Muls:
            return Block<VecOp::Muls>::run;
        case VecOp::Maxs:
            return Block<VecOp::Maxs>::run;
        case VecOp::Mins:
            return Block<VecOp::Mins>::run;
        case VecOp::DivsTensorScalar:
            return Block<VecOp::DivsTensorScalar>::run;
        case VecOp::DivsScalarTensor:
            return Block<VecOp::DivsScalarTensor>::run;
        case VecOp::LeakyRelu:
            return Block<VecOp::LeakyRelu>::run;
        case VecOp::Exp:
            return Block<VecOp::Exp>::run;
        case VecOp::Ln:
            return Block<VecOp::Ln>::run;
        case VecOp::Abs:
            return Block<VecOp::Abs>::run;
        case VecOp::Relu:
            return Block<VecOp::Relu>::run;
        case VecOp::Sqrt:
            return Block<VecOp::Sqrt>::run;
        case VecOp::Rsqrt:
            return Block<VecOp::Rsqrt>::run;
        case VecOp::Reciprocal:
            return Block<VecOp::Reciprocal>::run;
        case VecOp::Silu:
            return Block<VecOp::Silu>::run;
        case VecOp::Duplicate:
            return Block<VecOp::Duplicate>::run;
    }
    return nullptr;
}

// `fast`: the CPU's AVX/F16C paths (when it has them); otherwise the portable ones.
void load_lanes(DType t, const uint8_t* p, float* out, size_t n, bool fast) {
    if (t == DType::f16) {
        if (fast)
            evg::hw::half_to_float_n(p, out, n);
        else
            evg::hw::detail::half_to_float_n_portable(p, out, n);
    } else if (t == DType::bf16) {
        evg::hw::bf16_to_float_n(p, out, n);
    } else {
        std::memcpy(out, p, n * sizeof(float));
    }
}

void store_lanes(DType t, uint8_t* p, const float* in, size_t n, bool fast) {
    if (t == DType::f16) {
        if (fast)
            evg::hw::float_to_half_rne_n(in, p, n);
        else
            evg::hw::detail::float_to_half_rne_n_portable(in, p, n);
    } else if (t == DType::bf16) {
        evg::hw::float_to_bf16_rne_n(in, p, n);
    } else {
        std::memcpy(p, in, n * sizeof(float));
    }
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
    vec_compute_on(true, op, t, d, a, b, s, n);
}

void vec_compute_on(bool fast_cpu, VecOp op, DType t, uint8_t* d, const uint8_t* a, const uint8_t* b,
                    double s, uint64_t n) {
    if (t != DType::f32 && t != DType::f16 && t != DType::bf16) {  // integers: already one pass, lane by lane
        reference(op, t, d, a, b, s, n);
        return;
    }
    const auto es = static_cast<uint64_t>(evg::hw::dtype_size(t));
    if (overlaps_elsewhere(d, a, n * es) || overlaps_elsewhere(d, b, n * es)) {
        reference(op, t, d, a, b, s, n);
        return;
    }
    // bulk_has_f16c() includes AVX with the OS saving its state.
    const bool fast = fast_cpu && evg::hw::detail::bulk_has_f16c();
    const FloatBlock block = fast ? float_block_of<AvxBlock>(op) : float_block_of<PlainBlock>(op);
    static constexpr float kZeros[kBlock] = {};
    float x[kBlock], y[kBlock], z[kBlock];
    const auto fs = static_cast<float>(s);
    for (uint64_t i = 0; i < n; i += kBlock) {
        const auto m = static_cast<size_t>(std::min<uint64_t>(kBlock, n - i));
        if (a) load_lanes(t, a + i * es, x, m, fast);
        if (b) load_lanes(t, b + i * es, y, m, fast);
        block(z, a ? x : kZeros, b ? y : kZeros, fs, m);
        store_lanes(t, d + i * es, z, m, fast);
    }
}

}  // namespace AscendC::detail
