// Correct by default, faithful on demand (docs/hazards.md): each switch reproduces one behaviour of upstream
// Catlass that docs/evg-semantics.md §11.2 calls a hazard. All are off by default; the library then does the
// right thing. They hold for the calling thread (a launch runs its cores as fibers on the launching thread,
// so every core of the kernel sees them; a case running on another thread keeps its own) and are meant to be
// set around a launch with ScopedUpstreamHazards.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

namespace Catlass::Epilogue::Fusion {

struct UpstreamHazards {
    // §11.2 item 2: no PipeBarrier<PIPE_V> after VisitorRowBroadcast's UB->UB replication.
    bool row_broadcast_no_barrier = false;
    // §11.2 item 3: the next LOAD into a buffer set waits only for V_MTE2, not for the previous STORE (no
    // MTE3->MTE2 ordering), so a STORE that reads a LOAD buffer races with the next load into it.
    bool store_reads_load_unordered = false;
    // §11.2 item 5: VisitorScalarReduce's final reduce covers alignedCols, padding columns included.
    bool scalar_reduce_sums_padding = false;
    // §11.2 item 7 (L1 lineage): TopologicalVisitor re-visits shared STORE-stage nodes once per consumer.
    bool topo_store_per_consumer = false;
    // §11.2 item 11: Compute and Cast work over the whole computeLength, not over the tile's lanes; on the UB
    // path the last tile of a full C region then reads past the region into the node's own destination
    // (docs/upstream-findings.md §5).
    bool compute_over_compute_length = false;
};

// The switches by name (the names the conformance report, `evgcheck run --hazard` and docs/hazards.md use).
struct UpstreamHazardName {
    std::string_view name;
    bool UpstreamHazards::*field;
};
inline constexpr std::array<UpstreamHazardName, 5> kUpstreamHazardNames = {{
    {"row_broadcast_no_barrier", &UpstreamHazards::row_broadcast_no_barrier},
    {"store_reads_load_unordered", &UpstreamHazards::store_reads_load_unordered},
    {"scalar_reduce_sums_padding", &UpstreamHazards::scalar_reduce_sums_padding},
    {"topo_store_per_consumer", &UpstreamHazards::topo_store_per_consumer},
    {"compute_over_compute_length", &UpstreamHazards::compute_over_compute_length},
}};

// Switches the named hazard on in `h`; false if no hazard has that name.
inline bool set_upstream_hazard(UpstreamHazards& h, std::string_view name) {
    for (const auto& n : kUpstreamHazardNames)
        if (n.name == name) {
            h.*n.field = true;
            return true;
        }
    return false;
}

namespace detail {
inline int& hazard_bits() {
    thread_local int bits = 0;
    return bits;
}
inline int encode(const UpstreamHazards& h) {
    int bits = 0;
    for (size_t i = 0; i < kUpstreamHazardNames.size(); ++i)
        if (h.*kUpstreamHazardNames[i].field) bits |= 1 << i;
    return bits;
}
}  // namespace detail

inline UpstreamHazards upstream_hazards() {
    const int b = detail::hazard_bits();
    UpstreamHazards h;
    for (size_t i = 0; i < kUpstreamHazardNames.size(); ++i)
        h.*kUpstreamHazardNames[i].field = ((b >> i) & 1) != 0;
    return h;
}

// The lanes a Compute or a Cast works over for one tile: its rows times its aligned columns (never more than
// the computeLength its buffers hold), or upstream's whole computeLength with compute_over_compute_length.
inline uint32_t compute_lanes(uint32_t tile_rows, uint32_t aligned_cols, uint32_t compute_length) {
    if (upstream_hazards().compute_over_compute_length) return compute_length;
    const uint64_t lanes = uint64_t{tile_rows} * aligned_cols;
    return lanes < compute_length ? static_cast<uint32_t>(lanes) : compute_length;
}

class ScopedUpstreamHazards {
  public:
    explicit ScopedUpstreamHazards(const UpstreamHazards& h)
        : saved_(std::exchange(detail::hazard_bits(), detail::encode(h))) {}
    ~ScopedUpstreamHazards() { detail::hazard_bits() = saved_; }
    ScopedUpstreamHazards(const ScopedUpstreamHazards&) = delete;
    ScopedUpstreamHazards& operator=(const ScopedUpstreamHazards&) = delete;

  private:
    int saved_;
};

}  // namespace Catlass::Epilogue::Fusion
