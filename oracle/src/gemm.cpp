#include "evg/oracle/gemm.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "evg/hw/error.hpp"

namespace evg::oracle {
namespace {

void check_operand(const char* name, const HostTensor& t, std::int64_t rows, std::int64_t cols) {
    const auto needed = static_cast<std::size_t>(rows * cols);
    if (t.size() < needed)
        throw evg::Error(fmt::format("oracle: {} must hold {}x{} = {} elements, it has {}", name, rows, cols,
                                     needed, t.size()));
}

// The operand as float. Every element of half, bfloat16, float and int8 is a float value, so this is exact;
// anything else (a huge int32) is refused rather than rounded silently.
Eigen::ArrayXXf to_float(const char* name, const HostTensor& t, std::int64_t rows, std::int64_t cols) {
    const Values v = read_matrix(t, rows, cols, cols);
    Eigen::ArrayXXf f = v.cast<float>();
    const bool exact = (f.cast<Real>() == v || v.isNaN()).all();
    if (!exact)
        throw evg::Error(fmt::format("oracle: {} ({}) holds values that are not exact in float", name,
                                     dtype_label(t.dtype())));
    return f;
}

}  // namespace

Values gemm(const HostTensor& a, const HostTensor& b, std::int64_t m, std::int64_t n, std::int64_t k,
            DType c) {
    if (m < 0 || n < 0 || k < 0)
        throw evg::Error(fmt::format("oracle: GEMM shape {}x{}x{} is negative", m, n, k));
    check_operand("A", a, m, k);
    check_operand("B", b, k, n);

    if (is_integer_dtype(a.dtype()) && is_integer_dtype(b.dtype())) {
        using IntMatrix = Eigen::Matrix<std::int64_t, Eigen::Dynamic, Eigen::Dynamic>;
        const IntMatrix ai = read_matrix(a, m, k, k).cast<std::int64_t>().matrix();
        const IntMatrix bi = read_matrix(b, k, n, n).cast<std::int64_t>().matrix();
        const Values exact = (ai * bi).array().cast<Real>();
        const Values acc = instruction_result(DType::i32, exact);  // the int32 accumulator
        return acc.unaryExpr([c](Real v) { return round_to(c, v, RoundMode::CAST_RINT); });
    }

    const Eigen::ArrayXXf af = to_float("A", a, m, k);
    // B row-major, so that step p's row of B is contiguous.
    const Eigen::Array<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> bf = to_float("B", b, k, n);
    // Row i of C accumulates its rank-1 terms in the order p = 0 .. k-1, as documented; rows are independent,
    // so C is built a row at a time with the row and step p's products in contiguous buffers.
    std::vector<float> acc(static_cast<std::size_t>(n)), products(static_cast<std::size_t>(n));
    Values c_values(m, n);
    for (std::int64_t i = 0; i < m; ++i) {
        std::fill(acc.begin(), acc.end(), 0.0f);
        for (std::int64_t p = 0; p < k; ++p) {
            const float a_ip = af(i, p);
            const float* b_p = bf.data() + p * n;
            // Products in a loop of their own, stored before the sums read them, so that no multiply-add can
            // fuse a product with its sum (a compiler may contract a * b + c in one expression).
            for (std::int64_t j = 0; j < n; ++j) products[static_cast<std::size_t>(j)] = a_ip * b_p[j];
            for (std::int64_t j = 0; j < n; ++j)
                acc[static_cast<std::size_t>(j)] += products[static_cast<std::size_t>(j)];
        }
        // A float is exact in float: rounding to ElementC = float is the identity.
        for (std::int64_t j = 0; j < n; ++j) {
            const Real v = acc[static_cast<std::size_t>(j)];
            c_values(i, j) = c == DType::f32 ? v : round_to(c, v, RoundMode::CAST_RINT);
        }
    }
    return c_values;
}

}  // namespace evg::oracle
