// The data a problem runs on: one generator for the property suite, the conformance catalogue and
// `evgcheck run`, so that a seed means the same inputs everywhere.
//
// Inputs: "A" (m x k), "B" (k x n) and every input tensor of the graph ((rows - 1) x row_stride + cols
// elements). Outputs: the initial contents the kernel starts from, which is how the judge tells a
// never-written element from a written one:
//   * an output a reduce writes (RowReduce / ColReduce / ScalarReduce accumulate into a user-initialised
//     buffer) holds the reduce's identity: 0 for Add, lowest() for Max, max() for Min;
//   * every other output (an AuxStore's) holds the dtype's sentinel (sentinel_bits) in every element, padding
//     columns of a strided tensor included. After the run an element of the written region that still holds
//     the sentinel, where the oracle expects something else, was never written (judge: unwritten_output); a
//     padding element that lost it was written although no store covers it (padding_written).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "evg/graph/graph.hpp"
#include "evg/graph/run.hpp"
#include "evg/oracle/evaluate.hpp"

namespace evg::verify {

enum class DataMode : uint8_t {
    // A and B integers within oracle::exact_gemm_range (at most 3), so C is exact in any summation order;
    // input tensors integers in [-4, 4] ([0, 4] for u8). When K is too long for any such range, A and B are
    // uniform reals in [-1, 1) and the data is not exact.
    Exact,
    // A and B uniform reals in [-1, 1); input tensors uniform reals in [-2, 2).
    Uniform,
    // A and B as for Exact (C stays exact, so differences come from the epilogue); input tensors from
    // oracle::fill_special (30% specials) plus, for float tensors, values that overflow half or bfloat16 on a
    // down-cast. (The property suite calls this mode "float".)
    Special,
};

// The sign of the input tensors' values (A and B keep theirs, so C stays mixed): `mixed` as the mode draws
// them; `negative` / `positive` make every input value v (NaN aside) -max(|v|, 1) / max(|v|, 1) (Exact:
// integers in [-4, -1] / [1, 4]). A Max reduction of all-negative data, or a Min of all-positive, gives
// another result when it starts from 0 instead of its identity (lowest() / max()), in the initial output or
// in the tile's padding, so a wrong identity shows.
enum class InputSign : uint8_t { mixed, negative, positive };

// The sign under which a wrong reduce identity shows for `p`: negative when its reduces include Max and no
// Min, positive for Min and no Max, mixed otherwise.
InputSign identity_telling_sign(const graph::Problem& p);

struct CaseData {
    oracle::Inputs inputs;    // A, B, every input tensor and every output's initial contents
    bool exact_data = false;  // Exact mode with nonzero integer A and B (exact-friendliness also needs the
                              // reductions' sums to be exact: verify::exact_friendly)
    std::string description;  // one line for `evgcheck run`: what the data is
};

// Deterministic in (problem, mode, seed); the property suite's cases keep the inputs their seeds had before
// this generator was shared (the per-tensor seed stream is seed * 7919 + 1, then + 1 per tensor).
CaseData make_case_data(const graph::Problem& p, DataMode mode, uint64_t seed,
                        InputSign sign = InputSign::mixed);

// The bytes graph::run_on_model takes for `inputs` (a CaseData's, or any other): each tensor's bytes as they
// are, under its name.
graph::RunInputs run_inputs(const oracle::Inputs& inputs);

// The never-written pattern of an element of `t` (zero-extended, as oracle::HostTensor::bits): a NaN whose
// payload no generator and no arithmetic produces for the float types (f32 0x7FA5A5A5, f16 0x7D5A, bf16
// 0x7FA5: signalling NaNs, which arithmetic never returns and fill_special never writes), the most negative
// value for the signed integers and 0xA5 for u8. An integer kernel can compute the sentinel; the judge then
// counts the element as written when the oracle expects that same value (see unwritten_elements).
uint64_t sentinel_bits(graph::DType t);

// The identity a reduce output starts from, or nullopt when `tensor` is not written by a reduce.
std::optional<oracle::Real> reduce_initial_value(const graph::Problem& p, const std::string& tensor);

// Elements of an output tensor's buffer: (rows - 1) x row_stride + cols (what run_on_model wants).
std::size_t buffer_elements(const graph::Tensor& t);

const char* data_mode_name(DataMode d);  // "exact", "uniform", "special"

}  // namespace evg::verify
