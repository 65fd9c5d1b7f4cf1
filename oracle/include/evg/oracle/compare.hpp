// Comparison of a result tensor with the oracle's golden tensor. Every mode is NaN-aware: NaN matches NaN
// (any sign or payload); NaN against a non-NaN is a mismatch; an infinity matches only the same infinity.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "evg/oracle/host_tensor.hpp"

namespace evg::oracle {

enum class CompareMode : std::uint8_t {
    BitExact,  // same bit pattern (optionally +0 == -0)
    Ulp,       // at most max_ulp representable values apart, in the tensor's dtype
    Catlass,   // Catlass golden::CompareData: |out - golden| <= rtol * max(1, |golden|)
};
const char* compare_mode_name(CompareMode m);  // "bit-exact", "ulp", "catlass"

struct CompareOptions {
    CompareMode mode = CompareMode::BitExact;
    std::uint64_t max_ulp = 0;       // Ulp mode
    double rtol = 1.0 / 256;         // Catlass mode
    bool signed_zero_equal = false;  // BitExact mode: accept +0 against -0
    std::size_t max_reported = 16;   // mismatches listed in detail (the totals count all of them)
};

// Catlass's tolerance: 1/256 for K < 2048, else 1/128 (docs/evg-semantics.md §10.1).
double catlass_rtol(std::int64_t k);
CompareOptions bit_exact();
CompareOptions within_ulp(std::uint64_t max_ulp);
CompareOptions catlass_rule(std::int64_t k);

// The number of representable values of t between the two patterns: for float types the distance of the
// patterns in the monotone integer ordering (+0 and -0 both map to 0, the infinities sit one past the
// largest finite value); for integer types |a - b|. UINT64_MAX when either pattern is a NaN.
std::uint64_t ulp_distance(DType t, std::uint64_t a_bits, std::uint64_t b_bits);
inline constexpr std::uint64_t kNoUlp = ~std::uint64_t{0};

// The part of a tensor that holds data: rows x cols, element (r, c) at r * row_stride + c.
struct Region {
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    std::int64_t row_stride = 0;
    static Region dense(std::int64_t rows, std::int64_t cols) { return {rows, cols, cols}; }
};

struct Mismatch {
    std::string tensor;
    std::int64_t row = 0;
    std::int64_t col = 0;
    Real out = 0;
    Real golden = 0;
    std::uint64_t out_bits = 0;
    std::uint64_t golden_bits = 0;
    std::uint64_t ulp = 0;  // kNoUlp when one side is NaN
    DType dtype = DType::f32;
    // "D[1,2]: out 1.5 (0x3e00) golden 1.25 (0x3d00), 128 ULP"
    std::string to_string() const;
};

struct CompareResult {
    std::size_t compared = 0;     // elements compared
    std::size_t mismatches = 0;   // elements that failed
    std::uint64_t max_ulp = 0;    // largest distance over the compared pairs where both are non-NaN
    std::vector<Mismatch> first;  // the first mismatches in row-major order, at most max_reported per call

    bool ok() const { return mismatches == 0; }
    // Adds another tensor's result (first lists are concatenated up to `max_reported` entries).
    void merge(const CompareResult& other, std::size_t max_reported = 16);
    // "2 of 6 elements differ (bit-exact), max 128 ULP" and one line per listed mismatch.
    std::string to_string(CompareMode mode) const;
};

// Compares `region` of `out` against the same region of `golden`. Both must have the same dtype and hold the
// region; throws evg::Error otherwise.
CompareResult compare(std::string_view name, const HostTensor& out, const HostTensor& golden,
                      const Region& region, const CompareOptions& options);

}  // namespace evg::oracle
