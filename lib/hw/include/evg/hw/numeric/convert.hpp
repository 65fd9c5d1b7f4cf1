// Bit-exact conversions for every (source, destination, RoundMode) of docs/hardware-model.md §7.
// These functions convert; they do not judge legality (see cast_rules.hpp).
#pragma once
#include <cstdint>
#include <string_view>

#include "evg/hw/numeric/round_mode.hpp"
#include "evg/hw/numeric/types.hpp"

namespace evg::hw {

// Exact widenings (NaN payloads kept). Inline: table lookup / shift.
inline float half_to_float(uint16_t bits) {
    return detail::half_bits_to_float(bits);
}
inline float bf16_to_float(uint16_t bits) {
    return detail::bf16_bits_to_float(bits);
}

namespace detail {
// Every mode (the out-of-line general path behind float_to_half / float_to_bf16).
uint16_t float_to_half_mode(float f, RoundMode m);
uint16_t float_to_bf16_mode(float f, RoundMode m);
}  // namespace detail

// Narrowings from float. CAST_NONE behaves as CAST_RINT when the value is not exactly representable.
// NaN stays NaN (quiet, sign kept); overflow follows the mode (RINT/ROUND -> Inf, TRUNC -> max finite
// toward zero, FLOOR/CEIL directed, ODD -> max finite). Subnormal results are produced (no flush).
// CAST_ODD overflows to max finite: round-to-odd truncates and then sets the LSB, and the largest finite
// value already has an odd mantissa (0x7BFF / 0x7F7F), so every overflowing value lands on +-max finite.
inline uint16_t float_to_half(float f, RoundMode m) {
    if (m == RoundMode::CAST_RINT || m == RoundMode::CAST_NONE) return detail::float_to_half_rne(f);
    return detail::float_to_half_mode(f, m);
}
inline uint16_t float_to_bf16(float f, RoundMode m) {
    if (m == RoundMode::CAST_RINT || m == RoundMode::CAST_NONE) return detail::float_to_bf16_rne(f);
    return detail::float_to_bf16_mode(f, m);
}

// float -> float rounded to an integral value (CAST_NONE acts as RINT). NaN stays NaN (quieted, sign and
// payload kept), +-Inf and +-0 are returned unchanged, a zero result keeps the sign of the input.
float float_round_integral(float f, RoundMode m);

// float/half -> integer: round per mode, then saturate to the destination range; NaN -> 0.
// `dst` must be an integer dtype (a float dtype is treated as int64).
int64_t float_to_int(float f, RoundMode m, DType dst);

// integer -> float/half/bf16 with the given rounding (int32 beyond 2^24 rounds).
// Each rounds once, directly from the integer (no double rounding through float). int_to_half overflows like
// float_to_half (RINT/ROUND/NONE -> Inf, TRUNC/ODD -> max finite, FLOOR/CEIL directed).
float int_to_float(int64_t v, RoundMode m);
uint16_t int_to_half(int64_t v, RoundMode m);
uint16_t int_to_bf16(int64_t v, RoundMode m);

// Integer narrowing with saturation (int32 -> int16 clamps to 32767, int64 -> int32 clamps, negative -> uint8
// 0). A float `dst` returns `v` unchanged.
int64_t int_saturate(int64_t v, DType dst);

// The one generic entry point the machine's Cast instruction uses: converts one element.
// `src`/`dst` point to a single element of the given dtypes. Illegal pairs still convert (callers check
// legality first); any pair of kAllDTypes is handled:
//   float types -> float types: exact widening, or one rounding per mode (half <-> bfloat16 goes through the
//   exact float value); float -> float rounds to an integral value (the hardware's float -> float Cast);
//   half -> half and bfloat16 -> bfloat16 copy the bits;
//   float types -> integers: the exact value is rounded per mode then saturated, NaN -> 0;
//   integers -> float types: one rounding per mode; integer -> integer saturates.
void convert_element(DType from, const void* src, DType to, void* dst, RoundMode m);

// Fast paths used by vector arithmetic on 16-bit types: round to nearest even.
inline float to_float(half h) {
    return half_to_float(h.bits);
}
inline float to_float(bfloat16 h) {
    return bf16_to_float(h.bits);
}

}  // namespace evg::hw
