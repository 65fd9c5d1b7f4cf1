// Correct by default, faithful on demand (docs/hazards.md): each switch reproduces one behaviour of upstream
// Catlass that docs/evg-semantics.md §11.2 calls a hazard. All are off by default; the library then does the
// right thing. They hold for the calling thread (a launch runs its cores as fibers on the launching thread,
// so every core of the kernel sees them; a case running on another thread keeps its own) and are meant to be
// set around a launch with ScopedUpstreamHazards.
#pragma once
#include <array>
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
};

// The switches by name (the names the conformance report, `evgcheck run --hazard` and docs/hazards.md use).
struct UpstreamHazardName {
    std::string_view name;
    bool UpstreamHazards::*field;
};
inline constexpr std::array<UpstreamHazardName, 4> kUpstreamHazardNames = {{
    {"row_broadcast_no_barrier", &UpstreamHazards::row_broadcast_no_barrier},
    {"store_reads_load_unordered", &UpstreamHazards::store_reads_load_unordered},
    {"scalar_reduce_sums_padding", &UpstreamHazards::scalar_reduce_sums_padding},
    {"topo_store_per_consumer", &UpstreamHazards::topo_store_per_consumer},
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
    return (h.row_broadcast_no_barrier ? 1 : 0) | (h.store_reads_load_unordered ? 2 : 0) |
           (h.scalar_reduce_sums_padding ? 4 : 0) | (h.topo_store_per_consumer ? 8 : 0);
}
}  // namespace detail

inline UpstreamHazards upstream_hazards() {
    const int b = detail::hazard_bits();
    return {(b & 1) != 0, (b & 2) != 0, (b & 4) != 0, (b & 8) != 0};
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
