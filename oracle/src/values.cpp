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

namespace {

// Whether rows x cols at row_stride lies inside a tensor of `size` elements (the fast paths below; otherwise
// the per-element path raises HostTensor's out-of-range error for the first element outside).
bool region_inside(std::size_t size, std::int64_t rows, std::int64_t cols, std::int64_t row_stride) {
    if (rows <= 0 || cols <= 0) return true;
    if (row_stride < 0) return false;
    return static_cast<std::size_t>((rows - 1) * row_stride + cols) <= size;
}

}  // namespace

Values read_matrix(const HostTensor& t, std::int64_t rows, std::int64_t cols, std::int64_t row_stride) {
    if (!region_inside(t.size(), rows, cols, row_stride))
        return Values::NullaryExpr(rows, cols, [&](Eigen::Index r, Eigen::Index c) {
            return t.value(static_cast<std::size_t>(r * row_stride + c));
        });
    // A row at a time, straight into the column-major array (row r: entries r, r + rows, ...).
    Values v(rows, cols);
    const auto width = static_cast<std::size_t>(dtype_bytes(t.dtype()));
    for (std::int64_t r = 0; r < rows; ++r)
        decode_n(t.dtype(), t.bytes().data() + static_cast<std::size_t>(r * row_stride) * width,
                 static_cast<std::size_t>(cols), v.data() + r, rows);
    return v;
}

void write_matrix(HostTensor& t, const Values& v, std::int64_t row_stride) {
    if (!region_inside(t.size(), v.rows(), v.cols(), row_stride)) {
        for (Eigen::Index r = 0; r < v.rows(); ++r)
            for (Eigen::Index c = 0; c < v.cols(); ++c)
                t.set_value(static_cast<std::size_t>(r * row_stride + c), v(r, c));
        return;
    }
    const auto width = static_cast<std::size_t>(dtype_bytes(t.dtype()));
    for (Eigen::Index r = 0; r < v.rows(); ++r)
        encode_n(t.dtype(), v.data() + r, v.rows(), static_cast<std::size_t>(v.cols()),
                 t.bytes().data() + static_cast<std::size_t>(r * row_stride) * width);
}

}  // namespace evg::oracle
