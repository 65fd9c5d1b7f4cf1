// Internal: a run's output bytes as an oracle::HostTensor, and a tensor's region.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "evg/graph/graph.hpp"
#include "evg/oracle/compare.hpp"
#include "evg/oracle/host_tensor.hpp"

namespace evg::verify {

inline oracle::HostTensor host(graph::DType t, const std::vector<uint8_t>& bytes) {
    oracle::HostTensor h(t, bytes.size() / static_cast<std::size_t>(oracle::dtype_bytes(t)));
    std::copy(bytes.begin(), bytes.end(), reinterpret_cast<uint8_t*>(h.bytes().data()));
    return h;
}

inline oracle::Region region(const graph::Tensor& t) {
    return {t.rows, t.cols, t.row_stride > 0 ? t.row_stride : t.cols};
}

}  // namespace evg::verify
