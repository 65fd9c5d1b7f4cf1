// The compute functors of operations.hpp (docs/evg-semantics.md §7.1), evaluated on whole matrices. Each
// instruction the functor issues ends with instruction_result(t, ·) (values.hpp), so a chain of k
// instructions rounds k times, exactly like the device:
//
//   Exp        e^x                                   Relu       maximum(x, +0)
//   Sqrt       sqrt(x)                               RsqrtFast  1/sqrt(x), one rounding (one instruction)
//   Silu       x / (1 + e^-x), one rounding (library routine of unpublished steps; compared within ULPs)
//   LeakyRelu  x >= 0 ? x : x*s                      Prelu      a >= 0 ? a : a*b
//   Muls Adds  x*s, x+s                              Maxs Mins  maximum(x, s), minimum(x, s)
//   Add Sub Mul Div   ((a op b) op c) ..., one rounding per op
//   Max Min           maximum(maximum(a, b), c) ...
//   AddRelu    Add, then Relu                        Reciprocal  Divs: 1/x
//   Rsqrt      Sqrt, then Divs 1/x                   Sigmoid     Muls(-1), Exp, Adds(+1), Divs(1/x)
//
// Scalars: the graph holds them as double; the functor's field is `T scalarValue`, so a scalar is taken as
// the float literal the Arguments would hold and converted to T (nearest-even), or for integer T truncated
// toward zero and saturated. Integer T wraps on overflow; functors without an integer instruction (Exp,
// Sqrt, Div, ...) throw for integer T, as do unknown functors.
#pragma once
#include <span>

#include "evg/graph/functor.hpp"
#include "evg/oracle/values.hpp"

namespace evg::oracle {

Values apply_functor(graph::Functor fn, DType t, std::span<const Values* const> inputs,
                     std::span<const double> scalars);

// The value of scalar field `s` in a functor over element type t.
Real scalar_value(DType t, double s);

// The combining step of Row/Col/ScalarReduce and of their GM atomics: Add (rounded to t), Max or Min.
Real reduce_step(graph::Functor fn, DType t, Real a, Real b);

}  // namespace evg::oracle
