// The oracle's matrices and the one rounding step every vector instruction ends with.
//
// Why `long double` matrices (see numeric.hpp for the type): every element value of every dtype is exact in
// it, including int64 and int32 products; and for + - * / and sqrt of float (or half, bfloat16) operands,
// computing the exact-ish result in a 64-bit significand and rounding once to the element type gives the
// correctly rounded result, because 64 >= 2*24 + 2 (double rounding is innocuous at that margin; Figueroa,
// "When is double rounding innocuous?", 1995). So "compute in Real, round once" is bit-identical to
// "compute in ElementCompute with round-to-nearest-even", which is what the hardware does per instruction.
#pragma once
#include <cstdint>

#include <Eigen/Core>

#include "evg/oracle/host_tensor.hpp"
#include "evg/oracle/numeric.hpp"

namespace evg::oracle {

using Values = Eigen::Array<Real, Eigen::Dynamic, Eigen::Dynamic>;  // (rows, cols), every entry exact

// The result of one vector instruction stored in element type t: for float types the value rounded to nearest
// (ties to even); for integer types the exact integer wrapped modulo 2^bits (two's complement), which is what
// integer vector arithmetic does on overflow.
Real instruction_result(DType t, Real exact);

template <class Derived>
Values instruction_result(DType t, const Eigen::ArrayBase<Derived>& exact) {
    return exact.unaryExpr([t](Real v) { return instruction_result(t, v); });
}

// Maximum and minimum as the oracle defines them (IEEE 754-2019 maximum/minimum): NaN if either operand is
// NaN; -0 is below +0. Relu(x) = maximum(x, +0).
Real maximum(Real a, Real b);
Real minimum(Real a, Real b);

// Reads rows x cols of a host tensor, element (r, c) at r * row_stride + c.
Values read_matrix(const HostTensor& t, std::int64_t rows, std::int64_t cols, std::int64_t row_stride);
// Writes v into the tensor (rounding each value to the tensor's dtype, nearest-even; values already of that
// dtype are stored exactly). Elements outside the rows x cols region keep their contents.
void write_matrix(HostTensor& t, const Values& v, std::int64_t row_stride);

}  // namespace evg::oracle
