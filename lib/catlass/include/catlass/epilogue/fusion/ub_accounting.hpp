// The one function that says how much Unified Buffer (UB) an EVG needs (one source of truth: nothing else
// counts UB). Used by BlockEpilogue's allocation, by the computeLength calculator and by graph validation.
//
// Contract (docs/evg-semantics.md §2.0, §5.2 step 4, §9):
// * every UB-using node owns `buffers` buffers of exactly CL * element_bytes bytes each
//   (AccLoad(GM) 1, AccLoad(UB) 0, AuxLoad 1, AuxStore 0, Cast 1 of ElementTo, Compute 1 of ElementCompute,
//   RowBroadcast 1, RowReduce 1, ColBroadcast 1, ColReduce 2, ScalarBroadcast 1, ScalarReduce 2);
// * nodes carve their buffers consecutively in op order; two callback sets are carved back to back;
// * the first set starts at 0 (GM workspace path) or at L0C_SIZE/2 (UB workspace path, the C tile lives
// below);
// * CL is a multiple of 32 elements, so every buffer starts 32-byte aligned;
// * the graph fits when base + 2 * bytes_per_set <= UB_SIZE.
// Header-only and constexpr so that a static visitor type list and a runtime graph compute the same numbers.
#pragma once
#include <cstdint>
#include <span>

namespace Catlass::Epilogue::Fusion::UbAccounting {

// The node classes that differ in UB use.
enum class NodeClass : uint8_t {
    AccLoadGm,
    AccLoadUb,
    AuxLoad,
    AuxStore,
    Cast,
    Compute,
    RowBroadcast,
    RowReduce,
    ColBroadcast,
    ColReduce,
    ScalarBroadcast,
    ScalarReduce,
};

// Buffers one node of the class carves per callbacks set.
constexpr uint32_t buffer_count(NodeClass c) {
    switch (c) {
        case NodeClass::AccLoadUb:
        case NodeClass::AuxStore:
            return 0;
        case NodeClass::ColReduce:
        case NodeClass::ScalarReduce:
            return 2;
        case NodeClass::AccLoadGm:
        case NodeClass::AuxLoad:
        case NodeClass::Cast:
        case NodeClass::Compute:
        case NodeClass::RowBroadcast:
        case NodeClass::RowReduce:
        case NodeClass::ColBroadcast:
        case NodeClass::ScalarBroadcast:
            return 1;
    }
    return 0;
}

// What one node asks of the UB: `buffers` buffers of CL elements of `element_bytes` bytes.
struct NodeBuffers {
    uint32_t buffers = 0;
    uint32_t element_bytes = 0;
};

constexpr NodeBuffers node_buffers(NodeClass c, uint32_t element_bytes) {
    return {buffer_count(c), element_bytes};
}

inline constexpr uint32_t kComputeLengthAlign = 32;  // BYTE_PER_C0, used as an element count
inline constexpr uint32_t kBufferSets = 2;           // double buffering: two callbacks sets

// Bytes one set needs per element of CL: sum of buffers * element_bytes.
constexpr uint64_t bytes_per_element(std::span<const NodeBuffers> nodes) {
    uint64_t sum = 0;
    for (const NodeBuffers& n : nodes) sum += uint64_t{n.buffers} * n.element_bytes;
    return sum;
}

// Bytes one callbacks set carves for the given CL.
constexpr uint64_t bytes_per_set(std::span<const NodeBuffers> nodes, uint32_t compute_length) {
    return bytes_per_element(nodes) * compute_length;
}

// Byte offset where the first set starts: 0 on the GM path, L0C_SIZE/2 on the UB workspace path.
constexpr uint64_t base_offset(bool use_ub_workspace, uint32_t l0c_size) {
    return use_ub_workspace ? uint64_t{l0c_size} / 2 : 0;
}

// Byte offset just past the second set: the UB high-water mark of the epilogue.
constexpr uint64_t ub_end(std::span<const NodeBuffers> nodes, uint32_t compute_length, uint64_t base) {
    return base + kBufferSets * bytes_per_set(nodes, compute_length);
}

constexpr bool fits(std::span<const NodeBuffers> nodes, uint32_t compute_length, uint64_t base,
                    uint32_t ub_size) {
    return ub_end(nodes, compute_length, base) <= ub_size;
}

// The largest CL, a multiple of 32, for which the graph fits: RoundDown((UB_SIZE - base) / 2 /
// bytes_per_element, 32)
// (= the examples' RoundDown(budget / nUbNodes / 2 / sizeof(E), 32) when all nodes share one element type).
// 0 when not even CL = 32 fits. A graph with no UB buffers is bounded only by uint32_t (returns the largest
// multiple of 32 below 2^32).
constexpr uint32_t max_compute_length(std::span<const NodeBuffers> nodes, uint64_t base, uint32_t ub_size) {
    const uint64_t per_element = bytes_per_element(nodes);
    if (base >= ub_size) return 0;
    const uint64_t budget = uint64_t{ub_size} - base;
    uint64_t cl = per_element == 0 ? uint64_t{UINT32_MAX} : budget / kBufferSets / per_element;
    if (cl > UINT32_MAX) cl = UINT32_MAX;
    return static_cast<uint32_t>(cl / kComputeLengthAlign * kComputeLengthAlign);
}

}  // namespace Catlass::Epilogue::Fusion::UbAccounting
