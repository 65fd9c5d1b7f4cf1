#include "evg/oracle/values.hpp"

#include <cmath>
#include <limits>

#include "evg/oracle/host_tensor.hpp"

namespace evg::oracle {

Real instruction_result(DType t, Real exact) {
    if (is_float_dtype(t)) return round_to(t, exact, RoundMode::CAST_RINT);  // per-format rounding
    // integer arithmetic: the exact result is an integer below 2^63 in magnitude (at most a product of two
    // int32 values); keep its low bits and reinterpret them as the signed type
    const auto wide = static_cast<std::uint64_t>(static_cast<std::int64_t>(exact));
    return decode(t, wide & bit_mask(t));
}

Real maximum(Real a, Real b) {
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<Real>::quiet_NaN();
    if (a == b) return std::signbit(a) ? b : a;  // +0 wins over -0
    return a > b ? a : b;
}

Real minimum(Real a, Real b) {
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<Real>::quiet_NaN();
    if (a == b) return std::signbit(a) ? a : b;  // -0 wins over +0
    return a < b ? a : b;
}

Values read_matrix(const HostTensor& t, std::int64_t rows, std::int64_t cols, std::int64_t row_stride) {
    return Values::NullaryExpr(rows, cols, [&](Eigen::Index r, Eigen::Index c) {
        return t.value(static_cast<std::size_t>(r * row_stride + c));
    });
}

void write_matrix(HostTensor& t, const Values& v, std::int64_t row_stride) {
    for (Eigen::Index r = 0; r < v.rows(); ++r)
        for (Eigen::Index c = 0; c < v.cols(); ++c)
            t.set_value(static_cast<std::size_t>(r * row_stride + c), v(r, c));
}

}  // namespace evg::oracle
