// The oracle's own numbers: exact decoding of every stored element type and rounding to any element type
// under every RoundMode (docs/hardware-model.md §7, docs/evg-semantics.md §8). Shares no code with lib/hw;
// only the DType and RoundMode enums are borrowed so both sides speak of the same things.
//
// Every value the oracle handles is a `long double` (x87 80-bit on the supported targets, 64-bit
// significand): it holds every value of float, half, bfloat16 and of every integer type up to int64 exactly,
// so decoding is exact and "compute exactly, then round once" needs no extra care.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>

#include "evg/hw/numeric/dtype.hpp"       // enum DType (vocabulary)
#include "evg/hw/numeric/round_mode.hpp"  // enum RoundMode (vocabulary; the oracle rounds on its own)

namespace evg::oracle {

using hw::DType;
using hw::RoundMode;

using Real = long double;
static_assert(
    std::numeric_limits<Real>::digits >= 64,
    "the oracle needs a 64-bit significand: it holds int64 values and rounds a float op result once");

// A binary floating-point format: `precision` significand bits including the hidden one; normal exponents
// emin..emax. Subnormals exist below 2^emin; the bias is emax.
struct FloatFormat {
    int precision;
    int emin;
    int emax;
    int exponent_bits;
};
inline constexpr FloatFormat kHalf{11, -14, 15, 5};
inline constexpr FloatFormat kBf16{8, -126, 127, 8};
inline constexpr FloatFormat kFloat{24, -126, 127, 8};

// Largest finite value of a format: (2 - 2^(1-p)) * 2^emax.
Real max_finite(const FloatFormat& f);

// Rounds x to format f under mode m:
//   NONE and RINT: nearest, ties to even; ROUND: nearest, ties away from zero; FLOOR: toward -inf;
//   CEIL: toward +inf; TRUNC: toward 0; ODD: toward 0, then if any discarded bit was set force the last kept
//   bit to 1. Subnormal results are kept (no flush). Overflow gives +-inf for the modes that round away
//   from zero in that direction (RINT, ROUND, CEIL for positives, FLOOR for negatives) and +-max finite for
//   the others (TRUNC, ODD, FLOOR for positives, CEIL for negatives). NaN stays NaN, inf stays inf, the sign
//   of zero is kept and a negative value that rounds to zero gives -0.
Real round_float(Real x, const FloatFormat& f, RoundMode m);

// Rounds x to an integer under m (same mode meanings), then saturates to [lo, hi]; NaN gives 0.
Real round_integer(Real x, Real lo, Real hi, RoundMode m);

bool is_float_dtype(DType t);
bool is_integer_dtype(DType t);
const FloatFormat& float_format(DType t);  // t must be f32, f16 or bf16
Real dtype_lowest(DType t);                // most negative finite value
Real dtype_max(DType t);                   // largest finite value
// The vocabulary's size table (lib/vocab: one table per vocabulary), inline: it runs for every element
// access.
inline int dtype_bytes(DType t) {
    return hw::dtype_size(t);
}
const char* dtype_label(DType t);  // "float", "half", "bfloat16", "int8", ...

// The value of type t nearest to x under m: round_float for float types, round_integer (saturating) for
// integer types. This is every conversion the oracle performs (Cast, per-instruction rounding, storing).
Real round_to(DType t, Real x, RoundMode m = RoundMode::CAST_RINT);

// The exact value of the stored bit pattern of one element (little-endian, zero-extended to 64 bits).
Real decode(DType t, std::uint64_t bits);
// The same from the format's fields, for any FloatFormat-described type: decode's reference (decode takes a
// direct path for every dtype; numeric_test compares the two on every 16-bit pattern and many float ones).
Real decode_by_format(DType t, std::uint64_t bits);

// decode of n consecutive stored elements at src into dst[0], dst[dst_stride], ...: one dispatch on the dtype
// for the whole run (read_matrix decodes every row this way).
void decode_n(DType t, const std::byte* src, std::size_t n, Real* dst, std::ptrdiff_t dst_stride);

// round_to, then the bit pattern. NaN encodes as the quiet NaN with the sign of x and no payload (half
// 0x7e00, bfloat16 0x7fc0, float 0x7fc00000, negated by the sign bit).
std::uint64_t encode(DType t, Real x, RoundMode m = RoundMode::CAST_RINT);

// encode of src[0], src[src_stride], ... (n values) into n consecutive stored elements at dst: one dispatch
// on the dtype for the whole run (write_matrix).
void encode_n(DType t, const Real* src, std::ptrdiff_t src_stride, std::size_t n, std::byte* dst,
              RoundMode m = RoundMode::CAST_RINT);

// The dtype's bits with all of the element's bytes: 0xffff for half, 0xffffffff for int32, ...
std::uint64_t bit_mask(DType t);

}  // namespace evg::oracle
