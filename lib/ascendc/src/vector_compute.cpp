// Element loops of the vector instructions (vector_compute.hpp).
#include "vector_compute.hpp"

#include <algorithm>
#include <cstddef>

#include "evg/hw/numeric/bulk.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace AscendC::detail {

using evg::hw::DType;

namespace {

// dst[i] = op(a[i], b[i]) for count lanes; a or b may be null (unused). With `scan`, each stored result is
// tested (its lane index: first + i).
template <class L>
void run_float(VecOp op, uint8_t* d, const uint8_t* a, const uint8_t* b, float s, uint64_t n, uint32_t es,
               evg::hw::FpScan* scan = nullptr, const evg::hw::FpBits* fb = nullptr, uint64_t first = 0) {
    for (uint64_t i = 0; i < n; ++i) {
        float x = a ? L::ld(a + i * es) : 0.0f;
        float y = b ? L::ld(b + i * es) : 0.0f;
        const float z = apply_f(op, x, y, s);
        L::st(d + i * es, z);
        if (scan) note_result(*scan, *fb, d + i * es, first + i, op, x, y, a != nullptr, b != nullptr, s, z);
    }
}

// Of m results of a float type stored at d (U: its bits, 16 or 32): whether one is NaN or infinite, its
// magnitude (the bits without the sign) reaching the exponent mask, and whether one is subnormal, its
// magnitude in [1, mant_mask]. Two reductions, a maximum of the magnitudes and a minimum of magnitude - 1
// (wrapping, so that a zero drops out), which the compiler makes a handful of vector instructions per 8 or 16
// lanes: a scan of a clean block is that and nothing else. The rare block with a subnormal is counted by
// subnormal_count.
struct StoredSummary {
    bool special = false;
    bool any_subnormal = false;
};
template <class U>
[[gnu::always_inline]] inline StoredSummary summarize(const uint8_t* d, size_t m, uint32_t exp_mask,
                                                      uint32_t mant_mask) {
    constexpr U kMagnitude = static_cast<U>(~U{0}) >> 1;
    U hi = 0, lo = static_cast<U>(~U{0});
    for (size_t k = 0; k < m; ++k) {
        U v;
        std::memcpy(&v, d + sizeof(U) * k, sizeof(U));
        const auto x = static_cast<U>(v & kMagnitude);
        hi = std::max(hi, x);
        lo = std::min(lo, static_cast<U>(x - 1));
    }
    return {hi >= exp_mask, lo < mant_mask};
}
template <class U>
uint64_t subnormal_count(const uint8_t* d, size_t m, uint32_t mant_mask) {
    constexpr U kMagnitude = static_cast<U>(~U{0}) >> 1;
    uint64_t n = 0;
    for (size_t k = 0; k < m; ++k) {
        U v;
        std::memcpy(&v, d + sizeof(U) * k, sizeof(U));
        n += static_cast<U>((v & kMagnitude) - 1) < mant_mask ? 1 : 0;
    }
    return n;
}

// Tests the m results stored at d (lanes first ..), computed from x, y (operands, widened) as z: one pass
// over bytes still in the cache, which finds nothing in almost every block; then the lanes, when it does.
void scan_block(evg::hw::FpScan& sc, const evg::hw::FpBits& fb, const uint8_t* d, uint64_t first, size_t m,
                VecOp op, const float* x, const float* y, bool has_a, bool has_b, float s, const float* z) {
    const StoredSummary sum = fb.size == 2 ? summarize<uint16_t>(d, m, fb.exp_mask, fb.mant_mask)
                                           : summarize<uint32_t>(d, m, fb.exp_mask, fb.mant_mask);
    if (!sum.special) {
        if (sum.any_subnormal)
            sc.subnormal += fb.size == 2 ? subnormal_count<uint16_t>(d, m, fb.mant_mask)
                                         : subnormal_count<uint32_t>(d, m, fb.mant_mask);
        return;
    }
    for (size_t k = 0; k < m; ++k)
        note_result(sc, fb, d + k * fb.size, first + k, op, x[k], y[k], has_a, has_b, s, z[k]);
}
template <class L>
void run_int(VecOp op, uint8_t* d, const uint8_t* a, const uint8_t* b, int64_t s, uint64_t n, uint32_t es) {
    for (uint64_t i = 0; i < n; ++i) {
        int64_t x = a ? L::ld(a + i * es) : 0;
        int64_t y = b ? L::ld(b + i * es) : 0;
        L::st(d + i * es, apply_i(op, x, y, s));
    }
}

void reference(VecOp op, DType t, uint8_t* d, const uint8_t* a, const uint8_t* b, double s, uint64_t n,
               evg::hw::FpScan* scan) {
    uint32_t es = static_cast<uint32_t>(evg::hw::dtype_size(t));
    const evg::hw::FpBits fb = evg::hw::FpBits::of(t);
    switch (t) {
        case DType::f32:
            run_float<Lane<float>>(op, d, a, b, static_cast<float>(s), n, es, scan, &fb);
            break;
        case DType::f16:
            run_float<Lane<evg::hw::half>>(op, d, a, b, static_cast<float>(s), n, es, scan, &fb);
            break;
        case DType::bf16:
            run_float<Lane<evg::hw::bfloat16>>(op, d, a, b, static_cast<float>(s), n, es, scan, &fb);
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
// Kept a loop: unrolled, GCC turns an eight-lane call (HalfFused) into scalar code instead of one vector
// step.
#pragma GCC unroll 1
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

#if defined(__x86_64__) || defined(__i386__)
// Half operands and result in one pass, eight lanes at a time in registers: widen both (F16C), compute with
// float_lanes (the same lane function as the block loops, so one definition of every operation), narrow with
// round to nearest even. A group of eight whose results hold a NaN is computed again by the lane-by-lane
// definition (run_float), whose conversions define the NaN bits. That covers NaN inputs too: F16C widens a
// NaN to a NaN, and every operation turns a NaN operand into a NaN result or does not read that operand
// (Duplicate), so only the NaN bits could differ and those lanes are redone. Each group reads its inputs
// before it writes, so a destination equal to an input is fine (overlaps elsewhere never get here). Three
// passes over stack buffers cost twice this (bench/README.md, target (d)); vector_compute_test holds both to
// the lane-by-lane definition over every pair of half patterns. The operands' presence is a template
// argument, so the loop tests neither per group.
template <VecOp Op, bool HasA, bool HasB>
[[gnu::target("avx,f16c")]] void half_fused(uint8_t* d, const uint8_t* a, const uint8_t* b, float s,
                                            size_t n) {
    const auto by_definition = [&](size_t i, size_t lanes) {
        run_float<Lane<evg::hw::half>>(Op, d + 2 * i, HasA ? a + 2 * i : nullptr, HasB ? b + 2 * i : nullptr,
                                       s, lanes, 2);
    };
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i ha =
            HasA ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + 2 * i)) : _mm_setzero_si128();
        const __m128i hb =
            HasB ? _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + 2 * i)) : _mm_setzero_si128();
        alignas(32) float x[8], y[8], z[8];
        _mm256_store_ps(x, _mm256_cvtph_ps(ha));
        _mm256_store_ps(y, _mm256_cvtph_ps(hb));
        float_lanes<Op>(z, x, y, s, 8);
        const __m256 vz = _mm256_load_ps(z);
        if (_mm256_movemask_ps(_mm256_cmp_ps(vz, vz, _CMP_UNORD_Q)) != 0) {
            by_definition(i, 8);
            continue;
        }
        _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 2 * i),
                         _mm256_cvtps_ph(vz, _MM_FROUND_TO_NEAREST_INT));
    }
    by_definition(i, n - i);
}

// half_fused with a scan (fp_scan.hpp), a chunk of 512 lanes at a time: the chunk is computed by the loop
// above, then its results, still in the cache, are summarised in one pass (summarize: a test inside the loop
// cost a mask and a branch per group of eight, a quarter of an Exp's time; the same two reductions kept in
// registers inside the loop came out no cheaper than this pass). A chunk with a subnormal result has them
// counted, and one with a NaN or an infinity is described lane by lane from its operands, saved first when
// the destination is an operand (in place).
template <VecOp Op, bool HasA, bool HasB>
[[gnu::target("avx,f16c")]] void half_fused_scanned(uint8_t* d, const uint8_t* a, const uint8_t* b, float s,
                                                    size_t n, evg::hw::FpScan& scan) {
    constexpr size_t kChunk = 512;
    const evg::hw::FpBits fb = evg::hw::FpBits::of(DType::f16);
    alignas(32) uint8_t saved_a[2 * kChunk], saved_b[2 * kChunk];
    for (size_t i = 0; i < n; i += kChunk) {
        const size_t m = std::min(kChunk, n - i);
        uint8_t* dc = d + 2 * i;
        const uint8_t* ac = HasA ? a + 2 * i : nullptr;
        const uint8_t* bc = HasB ? b + 2 * i : nullptr;
        if (HasA && ac == dc) ac = static_cast<const uint8_t*>(std::memcpy(saved_a, ac, 2 * m));
        if (HasB && bc == dc) bc = static_cast<const uint8_t*>(std::memcpy(saved_b, bc, 2 * m));
        half_fused<Op, HasA, HasB>(dc, ac, bc, s, m);
        const StoredSummary sum = summarize<uint16_t>(dc, m, fb.exp_mask, fb.mant_mask);
        if (sum.any_subnormal) scan.subnormal += subnormal_count<uint16_t>(dc, m, fb.mant_mask);
        if (!sum.special) continue;
        for (size_t k = 0; k < m; ++k) {
            if (fb.finite(fb.load(dc + 2 * k))) continue;
            const float x = HasA ? Lane<evg::hw::half>::ld(ac + 2 * k) : 0.0f;
            const float y = HasB ? Lane<evg::hw::half>::ld(bc + 2 * k) : 0.0f;
            note_result(scan, fb, dc + 2 * k, i + k, Op, x, y, HasA, HasB, s, apply_f(Op, x, y, s));
        }
    }
}

template <VecOp Op>
struct HalfFused {
    static void run(uint8_t* d, const uint8_t* a, const uint8_t* b, float s, size_t n,
                    evg::hw::FpScan* scan) {
        if (scan) {
            if (a && b)
                half_fused_scanned<Op, true, true>(d, a, b, s, n, *scan);
            else if (a)
                half_fused_scanned<Op, true, false>(d, a, b, s, n, *scan);
            else if (b)
                half_fused_scanned<Op, false, true>(d, a, b, s, n, *scan);
            else
                half_fused_scanned<Op, false, false>(d, a, b, s, n, *scan);
            return;
        }
        if (a && b)
            half_fused<Op, true, true>(d, a, b, s, n);
        else if (a)
            half_fused<Op, true, false>(d, a, b, s, n);
        else if (b)
            half_fused<Op, false, true>(d, a, b, s, n);
        else
            half_fused<Op, false, false>(d, a, b, s, n);
    }
};
#endif

// Block<op>::run for the operation chosen at run time.
template <template <VecOp> class Block>
auto block_of(VecOp op) -> decltype(&Block<VecOp::Add>::run) {
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
        case VecOp::And:
            return Block<VecOp::And>::run;
        case VecOp::Or:
            return Block<VecOp::Or>::run;
        case VecOp::ShiftLeft:
            return Block<VecOp::ShiftLeft>::run;
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

void note_result(evg::hw::FpScan& sc, const evg::hw::FpBits& fb, const uint8_t* p, uint64_t lane, VecOp op,
                 float x, float y, bool has_a, bool has_b, float s, float wide) {
    const uint32_t bits = fb.load(p);
    if (fb.finite(bits)) {
        if (fb.subnormal(bits)) ++sc.subnormal;
        return;
    }
    evg::hw::FpLane l;
    l.dst = lane;
    l.in[0] = x;
    l.in[1] = y;
    l.wide = wide;
    l.cls = fb.cls(bits);
    l.born = (!has_a || std::isfinite(x)) && (!has_b || std::isfinite(y));
    switch (op) {
        case VecOp::Div:
            l.by_zero = y == 0.0f;
            break;
        case VecOp::DivsTensorScalar:
            l.by_zero = s == 0.0f;
            break;
        case VecOp::DivsScalarTensor:
        case VecOp::Reciprocal:
        case VecOp::Rsqrt:
            l.by_zero = x == 0.0f;
            break;
        default:
            break;
    }
    sc.lanes.push_back(l);
}

void vec_compute_reference(VecOp op, DType t, uint8_t* d, const uint8_t* a, const uint8_t* b, double s,
                           uint64_t n, evg::hw::FpScan* scan) {
    reference(op, t, d, a, b, s, n, scan);
}

void vec_compute(VecOp op, DType t, uint8_t* d, const uint8_t* a, const uint8_t* b, double s, uint64_t n,
                 evg::hw::FpScan* scan) {
    vec_compute_on(true, op, t, d, a, b, s, n, scan);
}

void vec_compute_on(bool fast_cpu, VecOp op, DType t, uint8_t* d, const uint8_t* a, const uint8_t* b,
                    double s, uint64_t n, evg::hw::FpScan* scan) {
    if (t != DType::f32 && t != DType::f16 && t != DType::bf16) {  // integers: already one pass, lane by lane
        reference(op, t, d, a, b, s, n, nullptr);
        return;
    }
    const auto es = static_cast<uint64_t>(evg::hw::dtype_size(t));
    if (overlaps_elsewhere(d, a, n * es) || overlaps_elsewhere(d, b, n * es)) {
        reference(op, t, d, a, b, s, n, scan);
        return;
    }
    // bulk_has_f16c() includes AVX with the OS saving its state.
    const bool fast = fast_cpu && evg::hw::detail::bulk_has_f16c();
    const auto fs = static_cast<float>(s);
#if defined(__x86_64__) || defined(__i386__)
    if (fast && t == DType::f16) {
        block_of<HalfFused>(op)(d, a, b, fs, n, scan);
        return;
    }
#endif
    const FloatBlock block = fast ? block_of<AvxBlock>(op) : block_of<PlainBlock>(op);
    const evg::hw::FpBits fb = evg::hw::FpBits::of(t);
    static constexpr float kZeros[kBlock] = {};
    float x[kBlock], y[kBlock], z[kBlock];
    for (uint64_t i = 0; i < n; i += kBlock) {
        const auto m = static_cast<size_t>(std::min<uint64_t>(kBlock, n - i));
        if (a) load_lanes(t, a + i * es, x, m, fast);
        if (b) load_lanes(t, b + i * es, y, m, fast);
        block(z, a ? x : kZeros, b ? y : kZeros, fs, m);
        store_lanes(t, d + i * es, z, m, fast);
        if (scan)
            scan_block(*scan, fb, d + i * es, i, m, op, a ? x : kZeros, b ? y : kZeros, a != nullptr,
                       b != nullptr, fs, z);
    }
}

}  // namespace AscendC::detail
