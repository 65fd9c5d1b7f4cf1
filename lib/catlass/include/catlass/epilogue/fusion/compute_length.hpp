// The UB an EVG needs, as a compile-time list, and the largest computeLength (CL) it can run with.
//
// Every node type declares `UB_NODES`: one UbAccounting::NodeBuffers per node. A visitor (TreeVisitor,
// TopologicalVisitor) declares the concatenation of its ops' lists in op order, which is the order UB is
// carved in. Everything below goes through UbAccounting: there is no second formula.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

#include "catlass/epilogue/fusion/ub_accounting.hpp"

namespace Catlass::Epilogue::Fusion {

// Ops::UB_NODES... one after the other, in op order.
template <class... Ops>
constexpr auto concat_ub_nodes() {
    constexpr size_t kCount = (size_t{0} + ... + Ops::UB_NODES.size());
    std::array<UbAccounting::NodeBuffers, kCount> out{};
    size_t k = 0;
    auto append = [&](const auto& nodes) {
        for (const UbAccounting::NodeBuffers& n : nodes) out[k++] = n;
    };
    (append(Ops::UB_NODES), ...);
    return out;
}

// Byte offset of the first callbacks set: 0 on the GM workspace path, L0C_SIZE/2 on the UB path.
template <class ArchTag, bool USE_UB_WORKSPACE>
inline constexpr uint64_t UB_BASE_OFFSET = UbAccounting::base_offset(USE_UB_WORKSPACE, ArchTag::L0C_SIZE);

// The largest CL, a multiple of 32 elements, for which two callbacks sets of EVG fit the UB of ArchTag
// (0 when not even CL = 32 fits). E.g. Ascend950, fp32 Store <- Add(AccLoad, AuxLoad): 10560.
template <class EVG, class ArchTag, bool USE_UB_WORKSPACE = false>
constexpr uint32_t max_compute_length() {
    return UbAccounting::max_compute_length(EVG::UB_NODES, UB_BASE_OFFSET<ArchTag, USE_UB_WORKSPACE>,
                                            ArchTag::UB_SIZE);
}

// Byte offset just past the second callbacks set for a given CL (what the machine's UB peak must show).
template <class EVG, class ArchTag, bool USE_UB_WORKSPACE = false>
constexpr uint64_t ub_end(uint32_t compute_length) {
    return UbAccounting::ub_end(EVG::UB_NODES, compute_length, UB_BASE_OFFSET<ArchTag, USE_UB_WORKSPACE>);
}

}  // namespace Catlass::Epilogue::Fusion
