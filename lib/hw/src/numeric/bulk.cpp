// Bulk half / bfloat16 <-> float conversions (evg/hw/numeric/bulk.hpp).
#include "evg/hw/numeric/bulk.hpp"

#include <cstring>

#include "evg/hw/numeric/convert.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define EVG_BULK_X86 1
#else
#define EVG_BULK_X86 0
#endif

namespace evg::hw {

namespace detail {

void half_to_float_n_portable(const void* src, float* dst, size_t n) {
    const auto* s = static_cast<const uint8_t*>(src);
    for (size_t i = 0; i < n; ++i) {
        uint16_t b = 0;
        std::memcpy(&b, s + 2 * i, 2);
        dst[i] = half_bits_to_float(b);
    }
}

void float_to_half_rne_n_portable(const float* src, void* dst, size_t n) {
    auto* d = static_cast<uint8_t*>(dst);
    for (size_t i = 0; i < n; ++i) {
        const uint16_t b = float_to_half_rne(src[i]);
        std::memcpy(d + 2 * i, &b, 2);
    }
}

#if EVG_BULK_X86

bool bulk_has_f16c() {
    static const bool has = [] {
        __builtin_cpu_init();
        unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
        // AVX as the compiler's runtime sees it includes the OS saving the YMM state (XGETBV); F16C is
        // CPUID.1:ECX bit 29 (clang 14's __builtin_cpu_supports does not know "f16c").
        return __builtin_cpu_supports("avx") && __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 &&
               (ecx & bit_F16C) != 0;
    }();
    return has;
}

// Eight lanes per instruction, 32 per step. A step holding a NaN goes on eight lanes at a time, and a group
// of eight holding a NaN goes through the scalar conversion, which defines the NaN results (payload kept on
// widening, sign | 0x7E00 on narrowing; F16C would quiet or keep payload bits).
__attribute__((target("avx,f16c"))) void half_to_float_n_f16c(const void* src, float* dst, size_t n) {
    const auto* s = static_cast<const uint8_t*>(src);
    const __m128i magnitude = _mm_set1_epi16(0x7FFF);
    const __m128i inf = _mm_set1_epi16(0x7C00);
    // |h| > 0x7C00 (a signed compare: magnitudes are below 0x8000) is a NaN.
    const auto nan_in = [&](__m128i h) { return _mm_cmpgt_epi16(_mm_and_si128(h, magnitude), inf); };
    const auto load = [&](size_t i) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 2 * i)); };
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m128i h0 = load(i), h1 = load(i + 8), h2 = load(i + 16), h3 = load(i + 24);
        const __m128i any =
            _mm_or_si128(_mm_or_si128(nan_in(h0), nan_in(h1)), _mm_or_si128(nan_in(h2), nan_in(h3)));
        if (_mm_movemask_epi8(any) != 0) break;
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h0));
        _mm256_storeu_ps(dst + i + 8, _mm256_cvtph_ps(h1));
        _mm256_storeu_ps(dst + i + 16, _mm256_cvtph_ps(h2));
        _mm256_storeu_ps(dst + i + 24, _mm256_cvtph_ps(h3));
    }
    for (; i + 8 <= n; i += 8) {
        const __m128i h = load(i);
        if (_mm_movemask_epi8(nan_in(h)) != 0)
            half_to_float_n_portable(s + 2 * i, dst + i, 8);
        else
            _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h));
    }
    half_to_float_n_portable(s + 2 * i, dst + i, n - i);
}

// Lambdas do not take the target attribute of the function they are in: these helpers carry their own.
__attribute__((target("avx"))) inline __m256 nan_lanes(__m256 v) {
    return _mm256_cmp_ps(v, v, _CMP_UNORD_Q);
}
__attribute__((target("avx,f16c"))) inline void store_halves(uint8_t* d, __m256 v) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(d), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
}

__attribute__((target("avx,f16c"))) void float_to_half_rne_n_f16c(const float* src, void* dst, size_t n) {
    auto* d = static_cast<uint8_t*>(dst);
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m256 v0 = _mm256_loadu_ps(src + i), v1 = _mm256_loadu_ps(src + i + 8),
                     v2 = _mm256_loadu_ps(src + i + 16), v3 = _mm256_loadu_ps(src + i + 24);
        const __m256 any = _mm256_or_ps(_mm256_or_ps(nan_lanes(v0), nan_lanes(v1)),
                                        _mm256_or_ps(nan_lanes(v2), nan_lanes(v3)));
        if (_mm256_movemask_ps(any) != 0) break;
        store_halves(d + 2 * i, v0);
        store_halves(d + 2 * (i + 8), v1);
        store_halves(d + 2 * (i + 16), v2);
        store_halves(d + 2 * (i + 24), v3);
    }
    for (; i + 8 <= n; i += 8) {
        const __m256 v = _mm256_loadu_ps(src + i);
        if (_mm256_movemask_ps(nan_lanes(v)) != 0)
            float_to_half_rne_n_portable(src + i, d + 2 * i, 8);
        else
            store_halves(d + 2 * i, v);
    }
    float_to_half_rne_n_portable(src + i, d + 2 * i, n - i);
}

#else

bool bulk_has_f16c() {
    return false;
}
void half_to_float_n_f16c(const void* src, float* dst, size_t n) {
    half_to_float_n_portable(src, dst, n);
}
void float_to_half_rne_n_f16c(const float* src, void* dst, size_t n) {
    float_to_half_rne_n_portable(src, dst, n);
}

#endif

}  // namespace detail

void half_to_float_n(const void* src, float* dst, size_t n) {
    if (detail::bulk_has_f16c())
        detail::half_to_float_n_f16c(src, dst, n);
    else
        detail::half_to_float_n_portable(src, dst, n);
}

void float_to_half_rne_n(const float* src, void* dst, size_t n) {
    if (detail::bulk_has_f16c())
        detail::float_to_half_rne_n_f16c(src, dst, n);
    else
        detail::float_to_half_rne_n_portable(src, dst, n);
}

void bf16_to_float_n(const void* src, float* dst, size_t n) {
    const auto* s = static_cast<const uint8_t*>(src);
    for (size_t i = 0; i < n; ++i) {
        uint16_t b = 0;
        std::memcpy(&b, s + 2 * i, 2);
        dst[i] = detail::bf16_bits_to_float(b);
    }
}

void float_to_bf16_rne_n(const float* src, void* dst, size_t n) {
    auto* d = static_cast<uint8_t*>(dst);
    for (size_t i = 0; i < n; ++i) {
        const uint16_t b = detail::float_to_bf16_rne(src[i]);
        std::memcpy(d + 2 * i, &b, 2);
    }
}

}  // namespace evg::hw
