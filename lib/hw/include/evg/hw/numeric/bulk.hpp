// Bulk conversions between the 16-bit float storage types and float, for vector instructions that widen and
// narrow whole operands. Each is bit-identical, element by element, to the scalar conversion of convert.hpp
// it names (half_to_float, float_to_half(.., CAST_RINT), bf16_to_float, float_to_bf16(.., CAST_RINT)), NaNs
// included; numeric_bulk_test checks every 16-bit pattern and the rounding boundaries of every float binade.
// On an x86 CPU with F16C (and the OS saving the AVX state) the half conversions run eight lanes at a time
// with the F16C instructions, compiled for that target function by function (the build needs no global
// -mf16c); elsewhere, and for any group of eight lanes holding a NaN, they use the scalar conversions.
#pragma once
#include <cstddef>
#include <cstdint>

namespace evg::hw {

// `src` / `dst` on the 16-bit side may be unaligned (they point into a memory's bytes, little-endian).
void half_to_float_n(const void* src, float* dst, size_t n);
void float_to_half_rne_n(const float* src, void* dst, size_t n);
void bf16_to_float_n(const void* src, float* dst, size_t n);
void float_to_bf16_rne_n(const float* src, void* dst, size_t n);

namespace detail {
// The two implementations behind the half conversions above, for the test that holds them to the scalar
// conversions. The *_f16c ones may only be called when bulk_has_f16c() is true.
bool bulk_has_f16c();
void half_to_float_n_portable(const void* src, float* dst, size_t n);
void float_to_half_rne_n_portable(const float* src, void* dst, size_t n);
void half_to_float_n_f16c(const void* src, float* dst, size_t n);
void float_to_half_rne_n_f16c(const float* src, void* dst, size_t n);
}  // namespace detail

}  // namespace evg::hw
