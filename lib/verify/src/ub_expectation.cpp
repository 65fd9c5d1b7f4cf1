// The UB peak rule of ub_expectation.hpp (props/README.md, "The UB peak rule").
#include <algorithm>
#include <array>
#include <vector>

#include "evg/graph/dynamic_visitor.hpp"
#include "evg/graph/ub_budget.hpp"
#include "evg/hw/numeric/types.hpp"
#include "evg/verify/ub_expectation.hpp"

namespace evg::verify {

using graph::NodeKind;
using graph::WorkspacePath;

namespace {

// UB extents and pitches are whole 32-byte blocks (elements: a pitch of RoundUp(cols, 32)).
constexpr uint64_t round_up_32(uint64_t x) {
    return (x + 31) / 32 * 32;
}

// One tile an AIV's loop hands to a callbacks set: R rows, C columns, pitch A = RoundUp(C, 32) elements.
struct TileDims {
    uint64_t rows, cols, aligned;
    uint64_t c_offset;  // UB path: the tile's first element in the C tile (pitch RoundUp(cols, 32))
};

// The tiles of a whole run, split over the two callbacks sets as the AIVs' loops alternate them.
struct TileWalk {
    std::array<bool, 2> used{false, false};
    std::array<uint64_t, 2> widest{0, 0};  // the widest aligned tile row each set sees, in elements
    std::array<std::vector<TileDims>, 2> tiles;
    uint64_t c_written = 0;  // UB path: what Fixpipe writes of the C tile, over the AIVs, in bytes
};

// Each L1 block is split between the two AIVs by rows (the first takes the rounded-up half); an AIV walks its
// rows in tiles of as many whole rows as fit in computeLength, or a row in computeLength pieces when one does
// not fit, and alternates the sets per tile, from set 0 in every block.
TileWalk walk_tiles(const graph::Problem& p) {
    TileWalk w;
    const uint64_t cl = p.compute_length, ec = hw::dtype_size(p.c);
    for (int64_t r0 = 0; r0 < p.m; r0 += p.tile.m)
        for (int64_t c0 = 0; c0 < p.n; c0 += p.tile.n) {
            const int64_t rows = std::min<int64_t>(p.tile.m, p.m - r0),
                          cols = std::min<int64_t>(p.tile.n, p.n - c0);
            const int64_t sub = (rows + 1) / 2;
            const uint64_t ucols = static_cast<uint64_t>(cols), pitch = round_up_32(ucols);
            for (int64_t aiv_rows : {std::min(sub, rows), rows - std::min(sub, rows)}) {
                if (aiv_rows > 0)
                    w.c_written =
                        std::max(w.c_written, static_cast<uint64_t>(aiv_rows - 1) * pitch * ec + ucols * ec);
                int set = 0;
                for (int64_t r = 0; r < aiv_rows; set = 1 - set) {
                    const auto s = static_cast<size_t>(set);
                    w.used[s] = true;
                    if (ucols <= cl) {
                        const auto per = static_cast<int64_t>(std::max<uint64_t>(1, cl / pitch));
                        const int64_t tr = std::min(aiv_rows - r, per);
                        w.widest[s] = std::max(w.widest[s], pitch);
                        w.tiles[s].push_back(
                            {static_cast<uint64_t>(tr), ucols, pitch, static_cast<uint64_t>(r) * pitch});
                        r += tr;
                    } else {
                        for (uint64_t cc = 0; cc < ucols; cc += cl) {
                            const uint64_t tc = std::min(ucols - cc, cl);
                            w.widest[s] = std::max(w.widest[s], round_up_32(tc));
                            w.tiles[s].push_back(
                                {1, tc, round_up_32(tc), static_cast<uint64_t>(r) * pitch + cc});
                        }
                        r += 1;
                    }
                }
            }
        }
    return w;
}

// What a load or broadcast writes into its buffer for one tile (R rows, C columns, pitch A, e bytes).
uint64_t written(NodeKind k, const TileDims& t, uint64_t e) {
    switch (k) {
        case NodeKind::AccLoad:  // DataCopyPad GM->UB: R blocks of C * e bytes at pitch A * e
        case NodeKind::AuxLoad:
            return (t.rows - 1) * t.aligned * e + round_up_32(t.cols * e);
        case NodeKind::RowBroadcast:  // one row loaded, then R - 1 DataCopies of A elements
            return t.rows > 1 ? t.rows * t.aligned * e : round_up_32(t.cols * e);
        case NodeKind::ColBroadcast:  // R elements loaded, then a Duplicate of C per row
            return std::max(round_up_32(t.rows * e), (t.rows - 1) * t.aligned * e + t.cols * e);
        case NodeKind::ScalarBroadcast:  // one element loaded, then a Duplicate of C per row
            return std::max<uint64_t>(32, (t.rows - 1) * t.aligned * e + t.cols * e);
        default:
            return 0;
    }
}

// What a reduce reads of the tile it consumes.
uint64_t reduce_reads(NodeKind k, const TileDims& t, uint64_t e) {
    switch (k) {
        case NodeKind::RowReduce:  // DataCopy of row 0 and a combine per row, A elements each
            return t.rows * t.aligned * e;
        case NodeKind::ScalarReduce:  // as RowReduce with several rows; one row is reduced in place
            return t.rows > 1 ? t.rows * t.aligned * e : t.cols * e;
        case NodeKind::ColReduce:  // ReduceSum of C elements per row
            return (t.rows - 1) * t.aligned * e + t.cols * e;
        default:
            return 0;
    }
}

// The rule over one problem: the buffers' places from the carve order, then per used set each visited node's
// extent, then on the UB path the C tile below the base.
class UbPeakRule {
  public:
    UbPeakRule(const graph::Problem& p, const oracle::OracleResult& golden, bool whole_cl)
        : p_(p),
          golden_(golden),
          whole_cl_(whole_cl),
          budget_(graph::ub_budget(p)),
          by_node_(graph::ub_node_buffers(p.graph)),
          start_(by_node_.size(), 0),
          read_whole_(by_node_.size(), false),
          walk_(walk_tiles(p)) {
        uint64_t off = 0;
        for (int i : graph::dynamic::carve_order(p.graph)) {
            const auto u = static_cast<size_t>(i);
            start_[u] = off;
            off += uint64_t{by_node_[u].buffers} * by_node_[u].element_bytes * p.compute_length;
        }
        // A Compute or Cast reads each input over the tile's lanes too: the buffer that holds the input's
        // value is touched as far as the Compute's own.
        for (size_t i = 0; i < by_node_.size(); ++i) {
            const graph::Node& node = p.graph.nodes[i];
            if (!visited(i) || (node.kind != NodeKind::Compute && node.kind != NodeKind::Cast)) continue;
            for (int in : node.inputs) read_whole_[owner(in)] = true;
        }
    }

    uint64_t peak() const {
        uint64_t known = 0;
        for (size_t s = 0; s < 2; ++s)
            if (walk_.used[s]) known = std::max(known, set_peak(s));
        if (p_.path == WorkspacePath::UB) known = std::max(known, c_tile_peak());
        return known;
    }

  private:
    bool visited(size_t i) const { return golden_.nodes[i].evaluated; }
    // The node whose buffer holds node `in`'s value: AuxStores and reduces pass their input's tile on.
    size_t owner(int in) const {
        while (p_.graph.nodes[static_cast<size_t>(in)].kind == NodeKind::AuxStore ||
               graph::is_reduce(p_.graph.nodes[static_cast<size_t>(in)].kind))
            in = p_.graph.nodes[static_cast<size_t>(in)].inputs[0];
        return static_cast<size_t>(in);
    }
    // The most any visited reduce reads, for one tile, of the buffer node i owns.
    uint64_t reduces_of(size_t i, const TileDims& t, uint64_t e) const {
        uint64_t most = 0;
        for (size_t j = 0; j < by_node_.size(); ++j) {
            const graph::Node& r = p_.graph.nodes[j];
            if (visited(j) && graph::is_reduce(r.kind) && owner(r.inputs[0]) == i)
                most = std::max(most, reduce_reads(r.kind, t, e));
        }
        return most;
    }

    // The lanes a Compute or a Cast works over for one tile (Catlass::Epilogue::Fusion::compute_lanes): its
    // rows times its pitch, at most computeLength.
    uint64_t lanes(const TileDims& t) const {
        return whole_cl_ ? p_.compute_length : std::min<uint64_t>(p_.compute_length, t.rows * t.aligned);
    }
    // The most of them over the tiles of set s.
    uint64_t widest_lanes(size_t s) const {
        uint64_t most = 0;
        for (const TileDims& t : walk_.tiles[s]) most = std::max(most, lanes(t));
        return most;
    }

    // The highest byte a callbacks set touches: each visited node's buffers from its place in the set.
    uint64_t set_peak(size_t s) const {
        const uint64_t cl = p_.compute_length;
        const uint64_t computed = widest_lanes(s);
        const uint64_t set_base = budget_.base + s * budget_.bytes_per_set;
        uint64_t known = 0;
        for (size_t i = 0; i < by_node_.size(); ++i) {
            const graph::Node& node = p_.graph.nodes[i];
            const uint64_t e = by_node_[i].element_bytes;
            if (by_node_[i].buffers == 0 || !visited(i)) continue;
            const uint64_t at = set_base + start_[i];
            switch (node.kind) {
                case NodeKind::Compute:
                case NodeKind::Cast:
                    known = std::max(known, at + computed * e);
                    break;
                case NodeKind::RowReduce:
                    known = std::max(known, at + walk_.widest[s] * e);
                    break;
                case NodeKind::ColReduce:  // ubWork is ReduceSum's 32-byte scratch
                    known = std::max(known, at + cl * e + 32);
                    break;
                case NodeKind::ScalarReduce:  // ubWork[0] the result, ubWork[32 B..64 B) the scratch
                    known = std::max(known, at + cl * e + 64);
                    break;
                default:
                    if (!(node.kind == NodeKind::AccLoad && node.use_ub)) {  // AccLoad(UB): no buffer
                        uint64_t ext = read_whole_[i] ? computed * e : 0;
                        for (const TileDims& t : walk_.tiles[s])
                            ext = std::max({ext, written(node.kind, t, e), reduces_of(i, t, e)});
                        known = std::max(known, at + ext);
                    }
            }
        }
        return known;
    }

    // The C tile below the base on the UB path: what Fixpipe writes (each AIV's half at its UB byte 0, pitch
    // RoundUp(cols, 32)), and what the consumers of AccLoad(UB) read from a tile's first element: a Compute
    // or Cast the tile's lanes, a reduce as above.
    uint64_t c_tile_peak() const {
        const uint64_t ec = hw::dtype_size(p_.c);
        uint64_t known = walk_.c_written;
        for (size_t i = 0; i < by_node_.size(); ++i) {
            if (p_.graph.nodes[i].kind != NodeKind::AccLoad || !visited(i)) continue;
            for (size_t s = 0; s < 2; ++s)
                for (const TileDims& t : walk_.tiles[s]) {
                    if (read_whole_[i]) known = std::max(known, (t.c_offset + lanes(t)) * ec);
                    if (const uint64_t read = reduces_of(i, t, ec); read > 0)
                        known = std::max(known, t.c_offset * ec + read);
                }
        }
        return known;
    }

    const graph::Problem& p_;
    const oracle::OracleResult& golden_;
    const bool whole_cl_;  // Compute and Cast over the whole computeLength (upstream's behaviour)
    const graph::UbBudget budget_;
    const std::vector<graph::UbNodeBuffers> by_node_;
    std::vector<uint64_t> start_;   // each node's first byte in a set
    std::vector<bool> read_whole_;  // read by a Compute or a Cast (over the tile's lanes)
    const TileWalk walk_;
};

}  // namespace

UbExpectation ub_expectation(const graph::Problem& p, const oracle::OracleResult& golden, bool whole_cl) {
    const uint64_t peak = UbPeakRule(p, golden, whole_cl).peak();
    return {peak, peak};
}

}  // namespace evg::verify
