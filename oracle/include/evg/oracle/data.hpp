// Seeded data generators for host tensors. The same seed gives the same bytes on every platform (the
// generator is std::mt19937_64, whose sequence the standard fixes, and the mapping to values is our own).
//
// Exact-friendly data (README.md, "When is a result bit-exact"): small integers or dyadic values k/2^j whose
// GEMM sums stay within the range where float (and ElementC) represent every integer. Then every summation
// order gives the same result and the oracle is bit-exact against any correct model.
#pragma once
#include <cstdint>

#include "evg/oracle/host_tensor.hpp"

namespace evg::oracle {

// Integers drawn uniformly from [lo, hi] (stored exactly when the dtype can hold them).
void fill_integers(HostTensor& t, std::int64_t lo, std::int64_t hi, std::uint64_t seed);

// Dyadic values k / 2^j with k drawn uniformly from [k_lo, k_hi].
void fill_dyadic(HostTensor& t, std::int64_t k_lo, std::int64_t k_hi, int j, std::uint64_t seed);

// Uniform reals in [lo, hi), rounded to the dtype (nearest, ties to even).
void fill_uniform(HostTensor& t, double lo, double hi, std::uint64_t seed);

// Uniform(-8, 8) values where, with probability `special_fraction`, an element is replaced by a special value
// of its dtype: NaN (both signs), +-inf, +-0, the smallest and largest subnormal, the smallest normal, +-max
// finite, +-1, x.5 ties for rounding to integers, and values exactly halfway between two neighbouring half
// (or bfloat16) values, so that a float -> half/bf16 Cast meets ties. Integer dtypes get min, max, 0, +-1.
void fill_special(HostTensor& t, std::uint64_t seed, double special_fraction = 0.25);

// The largest M such that every integer in [-M, M] is exactly representable in t: float 2^24, half 2^11,
// bfloat16 2^8, integer types their largest value.
Real max_exact_integer(DType t);

// The largest r such that a K-long dot product of integers in [-r, r] is exact when accumulated in float (or
// int32 for integer A/B) and stored in ElementC `c`: K * r^2 <= max_exact_integer of both. 0 when none.
std::int64_t exact_gemm_range(std::int64_t k, DType ab, DType c);

}  // namespace evg::oracle
