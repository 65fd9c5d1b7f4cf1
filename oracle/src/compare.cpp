#include "evg/oracle/compare.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "evg/hw/error.hpp"

namespace evg::oracle {
namespace {

bool is_nan_bits(DType t, std::uint64_t bits) {
    return is_float_dtype(t) && std::isnan(decode(t, bits));
}

// Position of a float pattern on the number line, counted in representable values from zero.
std::int64_t ordered(DType t, std::uint64_t bits) {
    const int width = 8 * dtype_bytes(t);
    const std::uint64_t sign = std::uint64_t{1} << (width - 1);
    const auto magnitude = static_cast<std::int64_t>(bits & (sign - 1));
    return (bits & sign) ? -magnitude : magnitude;
}

bool same_value(DType t, std::uint64_t a, std::uint64_t b, bool signed_zero_equal) {
    if (a == b) return true;
    return signed_zero_equal && is_float_dtype(t) && decode(t, a) == 0 && decode(t, b) == 0;
}

std::string format_value(DType t, Real v) {
    if (is_integer_dtype(t)) return fmt::format("{}", static_cast<std::int64_t>(v));
    // every half/bfloat16/float value is a double; the shortest round-trip form identifies it
    return fmt::format("{}", static_cast<double>(v));
}

}  // namespace

const char* compare_mode_name(CompareMode m) {
    switch (m) {
        case CompareMode::BitExact:
            return "bit-exact";
        case CompareMode::Ulp:
            return "ulp";
        case CompareMode::Catlass:
            return "catlass";
    }
    return "?";
}

double catlass_rtol(std::int64_t k) {
    return k < 2048 ? 1.0 / 256 : 1.0 / 128;
}

CompareOptions bit_exact() {
    return CompareOptions{};
}

CompareOptions within_ulp(std::uint64_t max_ulp) {
    CompareOptions o;
    o.mode = CompareMode::Ulp;
    o.max_ulp = max_ulp;
    return o;
}

CompareOptions catlass_rule(std::int64_t k) {
    CompareOptions o;
    o.mode = CompareMode::Catlass;
    o.rtol = catlass_rtol(k);
    return o;
}

std::uint64_t ulp_distance(DType t, std::uint64_t a, std::uint64_t b) {
    a &= bit_mask(t);
    b &= bit_mask(t);
    if (is_integer_dtype(t)) {
        const Real d = std::fabs(decode(t, a) - decode(t, b));  // < 2^64, exact in Real
        return static_cast<std::uint64_t>(d);
    }
    if (is_nan_bits(t, a) || is_nan_bits(t, b)) return kNoUlp;
    const std::int64_t oa = ordered(t, a), ob = ordered(t, b);
    return static_cast<std::uint64_t>(oa > ob ? oa - ob : ob - oa);
}

std::string Mismatch::to_string() const {
    const int digits = 2 * dtype_bytes(dtype);
    std::string s = fmt::format("{}[{},{}]: out {} (0x{:0{}x}) golden {} (0x{:0{}x})", tensor, row, col,
                                format_value(dtype, out), out_bits, digits, format_value(dtype, golden),
                                golden_bits, digits);
    if (ulp == kNoUlp) return s + ", NaN on one side";
    return s + fmt::format(", {} ULP", ulp);
}

void CompareResult::merge(const CompareResult& other, std::size_t max_reported) {
    compared += other.compared;
    mismatches += other.mismatches;
    max_ulp = std::max(max_ulp, other.max_ulp);
    for (const Mismatch& m : other.first) {
        if (first.size() >= max_reported) break;
        first.push_back(m);
    }
}

std::string CompareResult::to_string(CompareMode mode) const {
    std::string s = ok() ? fmt::format("all {} elements match ({}), max {} ULP", compared,
                                       compare_mode_name(mode), max_ulp)
                         : fmt::format("{} of {} elements differ ({}), max {} ULP", mismatches, compared,
                                       compare_mode_name(mode), max_ulp);
    for (const Mismatch& m : first) s += "\n  " + m.to_string();
    if (first.size() < mismatches) s += fmt::format("\n  ... and {} more", mismatches - first.size());
    return s;
}

CompareResult compare(std::string_view name, const HostTensor& out, const HostTensor& golden,
                      const Region& region, const CompareOptions& options) {
    const DType t = golden.dtype();
    if (out.dtype() != t)
        throw evg::Error(fmt::format("oracle: cannot compare {}: the result is {} but the golden is {}", name,
                                     dtype_label(out.dtype()), dtype_label(t)));
    if (region.rows < 0 || region.cols < 0 || region.row_stride < region.cols)
        throw evg::Error(
            fmt::format("oracle: cannot compare {}: region {}x{} with row stride {} is malformed", name,
                        region.rows, region.cols, region.row_stride));
    if (region.rows > 0 && region.cols > 0) {
        const auto needed = static_cast<std::size_t>((region.rows - 1) * region.row_stride + region.cols);
        if (out.size() < needed || golden.size() < needed)
            throw evg::Error(fmt::format(
                "oracle: cannot compare {}: a {}x{} region with row stride {} needs {} elements, the result "
                "has {} "
                "and the golden {}",
                name, region.rows, region.cols, region.row_stride, needed, out.size(), golden.size()));
    }

    CompareResult result;
    for (std::int64_t r = 0; r < region.rows; ++r) {
        for (std::int64_t c = 0; c < region.cols; ++c) {
            const auto i = static_cast<std::size_t>(r * region.row_stride + c);
            const std::uint64_t ob = out.bits(i), gb = golden.bits(i);
            // The common case, decided without decoding: the same pattern is a match with no ULP distance
            // in the bit-exact and ULP modes (the Catlass test also holds for it unless rtol is odd, so that
            // mode takes the full path).
            if (ob == gb && options.mode != CompareMode::Catlass) {
                ++result.compared;
                continue;
            }
            const Real ov = decode(t, ob), gv = decode(t, gb);
            const std::uint64_t ulp = ulp_distance(t, ob, gb);
            ++result.compared;
            if (ulp != kNoUlp) result.max_ulp = std::max(result.max_ulp, ulp);

            bool match;
            if (std::isnan(ov) || std::isnan(gv)) {
                match = std::isnan(ov) && std::isnan(gv);
            } else if (std::isinf(ov) || std::isinf(gv)) {
                match = ov == gv;  // the same infinity
            } else {
                switch (options.mode) {
                    case CompareMode::BitExact:
                        match = same_value(t, ob, gb, options.signed_zero_equal);
                        break;
                    case CompareMode::Ulp:
                        match = ulp <= options.max_ulp;
                        break;
                    case CompareMode::Catlass:
                        match = std::fabs(ov - gv) <= Real(options.rtol) * std::max(Real(1), std::fabs(gv));
                        break;
                    default:
                        match = false;
                }
            }
            if (match) continue;
            ++result.mismatches;
            if (result.first.size() < options.max_reported)
                result.first.push_back(Mismatch{std::string(name), r, c, ov, gv, ob, gb, ulp, t});
        }
    }
    return result;
}

}  // namespace evg::oracle
