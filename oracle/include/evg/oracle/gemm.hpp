// The GEMM in front of the epilogue: C = A * B, A (m, k) and B (k, n) dense row-major host tensors.
//
// Floating-point A/B (half, bfloat16, float; int8 mixed with a float type is taken as its exact value):
// every input is converted exactly to float and the dot products are accumulated in float in a fixed order,
//     acc = +0;  for p = 0 .. k-1:  acc = fl(acc + fl(a[i,p] * b[p,j]))
// (each product rounded to float, then each sum; no fused multiply-add). Half and bfloat16 products are
// exact in float, so only float inputs see the product rounding. Then C is rounded once to ElementC
// (nearest, ties to even).
// Integer A/B (int8): exact integer dot products (int32 accumulation, wrapping), then converted to ElementC.
//
// A model that accumulates in another order matches this bit for bit only when every partial sum is exact,
// e.g. with data from fill_integers / fill_dyadic within exact_gemm_range (data.hpp).
#pragma once
#include <cstdint>

#include "evg/oracle/host_tensor.hpp"
#include "evg/oracle/values.hpp"

namespace evg::oracle {

Values gemm(const HostTensor& a, const HostTensor& b, std::int64_t m, std::int64_t n, std::int64_t k,
            DType c);

}  // namespace evg::oracle
