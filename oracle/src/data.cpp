#include "evg/oracle/data.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "evg/hw/error.hpp"

namespace evg::oracle {
namespace {

// Uniform integer in [lo, hi]; the modulo bias (< 2^-40 for the ranges used here) does not matter for test
// data.
std::int64_t draw_int(std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) {
    const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
    return lo + static_cast<std::int64_t>(span == 0 ? rng() : rng() % span);
}

// Uniform in [0, 1) with 53 random bits.
Real draw_unit(std::mt19937_64& rng) {
    return std::ldexp(static_cast<Real>(rng() >> 11), -53);
}

void check_range(std::int64_t lo, std::int64_t hi, const char* what) {
    if (lo > hi) throw evg::Error(std::string("oracle: ") + what + ": the range is empty (lo > hi)");
}

std::vector<Real> special_values(DType t) {
    const Real inf = std::numeric_limits<Real>::infinity();
    const Real nan = std::numeric_limits<Real>::quiet_NaN();
    if (is_integer_dtype(t)) return {dtype_lowest(t), dtype_max(t), 0, 1, -1};
    const FloatFormat& f = float_format(t);
    const Real min_sub = std::ldexp(Real(1), f.emin - f.precision + 1);
    const Real min_normal = std::ldexp(Real(1), f.emin);
    std::vector<Real> v = {nan,
                           -nan,
                           inf,
                           -inf,
                           Real(0),
                           -Real(0),
                           min_sub,
                           -min_sub,
                           min_normal - min_sub,  // largest subnormal
                           min_normal,
                           max_finite(f),
                           -max_finite(f),
                           1,
                           -1,
                           0.5,
                           -0.5,
                           1.5,
                           2.5,
                           -2.5};
    // Ties for narrowing casts: exactly halfway between two neighbours of a narrower format, next to an
    // even and next to an odd neighbour, in a few binades including the subnormal range of half.
    for (const FloatFormat* narrow : {&kHalf, &kBf16}) {
        if (narrow->precision >= f.precision) continue;
        for (int e : {0, 3, -5, narrow->emin - 1, narrow->emin - 5}) {
            const Real ulp = std::ldexp(Real(1), std::max(e, narrow->emin) - narrow->precision + 1);
            const Real base = std::ldexp(Real(1), e);
            for (Real tie : {base + ulp / 2, base + ulp + ulp / 2, -(base + ulp / 2)}) v.push_back(tie);
        }
        // halfway between max finite and 2^(emax+1): the tie that RINT rounds to inf
        v.push_back(max_finite(*narrow) + std::ldexp(Real(1), narrow->emax - narrow->precision));
    }
    return v;
}

// t[i] = value(k_i) for k_i drawn uniformly from [lo, hi], in draw order. When the range has fewer values
// than the tensor has elements (test data: small integers), each value is encoded once and its bits reused;
// the bits are those of set_value either way.
template <class Value>
void fill_drawn(HostTensor& t, std::int64_t lo, std::int64_t hi, std::uint64_t seed, Value value) {
    std::mt19937_64 rng(seed);
    const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
    if (span == 0 || span > 4096 || span > t.size()) {
        for (std::size_t i = 0; i < t.size(); ++i) t.set_value(i, value(draw_int(rng, lo, hi)));
        return;
    }
    std::vector<std::uint64_t> bits(span);
    for (std::uint64_t k = 0; k < span; ++k)
        bits[k] = encode(t.dtype(), value(lo + static_cast<std::int64_t>(k)));
    for (std::size_t i = 0; i < t.size(); ++i)
        t.set_bits(i, bits[static_cast<std::uint64_t>(draw_int(rng, lo, hi) - lo)]);
}

}  // namespace

void fill_integers(HostTensor& t, std::int64_t lo, std::int64_t hi, std::uint64_t seed) {
    check_range(lo, hi, "fill_integers");
    fill_drawn(t, lo, hi, seed, [](std::int64_t k) { return static_cast<Real>(k); });
}

void fill_dyadic(HostTensor& t, std::int64_t k_lo, std::int64_t k_hi, int j, std::uint64_t seed) {
    check_range(k_lo, k_hi, "fill_dyadic");
    fill_drawn(t, k_lo, k_hi, seed, [j](std::int64_t k) { return std::ldexp(static_cast<Real>(k), -j); });
}

void fill_uniform(HostTensor& t, double lo, double hi, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    for (std::size_t i = 0; i < t.size(); ++i)
        t.set_value(i, Real(lo) + (Real(hi) - Real(lo)) * draw_unit(rng));
}

void fill_special(HostTensor& t, std::uint64_t seed, double special_fraction) {
    std::mt19937_64 rng(seed);
    const std::vector<Real> specials = special_values(t.dtype());
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (draw_unit(rng) < Real(special_fraction))
            t.set_value(i, specials[static_cast<std::size_t>(draw_int(rng, 0, std::ssize(specials) - 1))]);
        else
            t.set_value(i, -8 + 16 * draw_unit(rng));
    }
}

Real max_exact_integer(DType t) {
    if (is_integer_dtype(t)) return dtype_max(t);
    return std::ldexp(Real(1), float_format(t).precision);
}

std::int64_t exact_gemm_range(std::int64_t k, DType ab, DType c) {
    if (k <= 0) return 0;
    const DType acc = is_integer_dtype(ab) ? DType::i32 : DType::f32;
    const Real limit = std::min(max_exact_integer(acc), max_exact_integer(c));
    const Real cap = max_exact_integer(ab);  // the inputs themselves must be exact
    const auto fits = [&](Real r) { return r <= cap && Real(k) * r * r <= limit; };
    // floor(sqrt(limit / k)), then exact checks guard against the square root's rounding
    auto r = static_cast<std::int64_t>(std::min(cap, std::sqrt(limit / Real(k))));
    while (r > 0 && !fits(Real(r))) --r;
    while (fits(Real(r + 1))) ++r;
    return r;
}

}  // namespace evg::oracle
