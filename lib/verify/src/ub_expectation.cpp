// The UB peak rule of ub_expectation.hpp (props/README.md, "The UB peak rule").
#include <algorithm>
#include <vector>

#include "evg/graph/dynamic_visitor.hpp"
#include "evg/graph/ub_budget.hpp"
#include "evg/hw/numeric/types.hpp"
#include "evg/verify/ub_expectation.hpp"

namespace evg::verify {

using graph::NodeKind;
using graph::WorkspacePath;

UbExpectation ub_expectation(const graph::Problem& p, const oracle::OracleResult& golden) {
    const graph::UbBudget budget = graph::ub_budget(p);
    const std::vector<graph::UbNodeBuffers> by_node = graph::ub_node_buffers(p.graph);
    const std::vector<int> order = graph::dynamic::carve_order(p.graph);
    const uint64_t cl = p.compute_length;
    std::vector<uint64_t> start(by_node.size(), 0);
    uint64_t off = 0;
    for (int i : order) {
        start[static_cast<std::size_t>(i)] = off;
        off += uint64_t{by_node[static_cast<std::size_t>(i)].buffers} *
               by_node[static_cast<std::size_t>(i)].element_bytes * cl;
    }
    // Sets used, and the tiles (rows, cols, alignedCols) each set sees.
    bool used[2] = {false, false};
    uint64_t widest[2] = {0, 0};
    struct TileDims {
        uint64_t rows, cols, aligned;
        uint64_t c_offset;  // UB path: the tile's first element in the C tile (pitch RoundUp(cols, 32))
    };
    const uint64_t ec = hw::dtype_size(p.c);
    uint64_t c_written = 0;  // UB path: what Fixpipe writes of the C tile, over the AIVs
    std::vector<TileDims> tiles[2];
    const int64_t m = p.m, n = p.n;
    for (int64_t r0 = 0; r0 < m; r0 += p.tile.m)
        for (int64_t c0 = 0; c0 < n; c0 += p.tile.n) {
            const int64_t rows = std::min<int64_t>(p.tile.m, m - r0),
                          cols = std::min<int64_t>(p.tile.n, n - c0);
            const int64_t sub = (rows + 1) / 2;
            const uint64_t pitch = static_cast<uint64_t>((cols + 31) / 32 * 32);
            for (int64_t aiv_rows : {std::min(sub, rows), rows - std::min(sub, rows)}) {
                if (aiv_rows > 0)
                    c_written = std::max(c_written, static_cast<uint64_t>(aiv_rows - 1) * pitch * ec +
                                                        static_cast<uint64_t>(cols) * ec);
                int set = 0;
                for (int64_t r = 0; r < aiv_rows; set = 1 - set) {
                    used[set] = true;
                    if (cols <= static_cast<int64_t>(cl)) {
                        const int64_t aligned = (cols + 31) / 32 * 32;
                        const int64_t per = std::max<int64_t>(1, static_cast<int64_t>(cl) / aligned);
                        widest[set] = std::max<uint64_t>(widest[set], static_cast<uint64_t>(aligned));
                        const int64_t tr = std::min(aiv_rows - r, per);
                        tiles[set].push_back({static_cast<uint64_t>(tr), static_cast<uint64_t>(cols),
                                              static_cast<uint64_t>(aligned),
                                              static_cast<uint64_t>(r) * pitch});
                        r += tr;
                    } else {
                        for (int64_t cc = 0; cc < cols; cc += static_cast<int64_t>(cl)) {
                            const int64_t tc = std::min<int64_t>(cols - cc, static_cast<int64_t>(cl));
                            widest[set] =
                                std::max<uint64_t>(widest[set], static_cast<uint64_t>((tc + 31) / 32 * 32));
                            tiles[set].push_back(
                                {1, static_cast<uint64_t>(tc), static_cast<uint64_t>((tc + 31) / 32 * 32),
                                 static_cast<uint64_t>(r) * pitch + static_cast<uint64_t>(cc)});
                        }
                        r += 1;
                    }
                }
            }
        }
    // A Compute or Cast reads each input over the whole CL too: the buffer that holds the input's value (an
    // AuxStore or a reduce passes its input's tile on) is touched to its end.
    std::vector<bool> read_whole(by_node.size(), false);
    for (std::size_t i = 0; i < by_node.size(); ++i) {
        const graph::Node& node = p.graph.nodes[i];
        if (!golden.nodes[i].evaluated || (node.kind != NodeKind::Compute && node.kind != NodeKind::Cast))
            continue;
        for (int in : node.inputs) {
            while (p.graph.nodes[static_cast<std::size_t>(in)].kind == NodeKind::AuxStore ||
                   graph::is_reduce(p.graph.nodes[static_cast<std::size_t>(in)].kind))
                in = p.graph.nodes[static_cast<std::size_t>(in)].inputs[0];
            read_whole[static_cast<std::size_t>(in)] = true;
        }
    }
    // What a load or broadcast writes into its buffer for one tile (R rows, C columns, pitch A, e bytes), and
    // what a reduce reads of the tile it consumes (the node that owns that tile's buffer: see read_whole).
    const auto round32 = [](uint64_t b) { return (b + 31) / 32 * 32; };
    const auto written = [&](NodeKind k, const TileDims& t, uint64_t e) -> uint64_t {
        switch (k) {
            case NodeKind::AccLoad:  // DataCopyPad GM->UB: R blocks of C * e bytes at pitch A * e
            case NodeKind::AuxLoad:
                return (t.rows - 1) * t.aligned * e + round32(t.cols * e);
            case NodeKind::RowBroadcast:  // one row loaded, then R - 1 DataCopies of A elements
                return t.rows > 1 ? t.rows * t.aligned * e : round32(t.cols * e);
            case NodeKind::ColBroadcast:  // R elements loaded, then a Duplicate of C per row
                return std::max(round32(t.rows * e), (t.rows - 1) * t.aligned * e + t.cols * e);
            case NodeKind::ScalarBroadcast:  // one element loaded, then a Duplicate of C per row
                return std::max<uint64_t>(32, (t.rows - 1) * t.aligned * e + t.cols * e);
            default:
                return 0;
        }
    };
    const auto reduce_reads = [&](NodeKind k, const TileDims& t, uint64_t e) -> uint64_t {
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
    };
    const auto owner = [&](int in) {
        while (p.graph.nodes[static_cast<std::size_t>(in)].kind == NodeKind::AuxStore ||
               graph::is_reduce(p.graph.nodes[static_cast<std::size_t>(in)].kind))
            in = p.graph.nodes[static_cast<std::size_t>(in)].inputs[0];
        return static_cast<std::size_t>(in);
    };
    uint64_t known = 0;
    for (int s = 0; s < 2; ++s) {
        if (!used[s]) continue;
        const uint64_t set_base = budget.base + static_cast<uint64_t>(s) * budget.bytes_per_set;
        for (std::size_t i = 0; i < by_node.size(); ++i) {
            const graph::Node& node = p.graph.nodes[i];
            const uint64_t e = by_node[i].element_bytes;
            if (by_node[i].buffers == 0 || !golden.nodes[i].evaluated) continue;
            const uint64_t at = set_base + start[i];
            switch (node.kind) {
                case NodeKind::Compute:
                case NodeKind::Cast:
                    known = std::max(known, at + cl * e);
                    break;
                case NodeKind::RowReduce:
                    known = std::max(known, at + widest[s] * e);
                    break;
                case NodeKind::ColReduce:
                    known = std::max(known, at + cl * e + 32);
                    break;
                case NodeKind::ScalarReduce:
                    known = std::max(known, at + cl * e + 64);
                    break;
                default:
                    if (read_whole[i]) {
                        known = std::max(known, at + cl * e);
                    } else if (node.kind == NodeKind::AccLoad && node.use_ub) {
                        // (no buffer)
                    } else {
                        uint64_t ext = 0;
                        for (const TileDims& t : tiles[s]) {
                            ext = std::max(ext, written(node.kind, t, e));
                            for (std::size_t j = 0; j < by_node.size(); ++j) {
                                const graph::Node& r = p.graph.nodes[j];
                                if (golden.nodes[j].evaluated && graph::is_reduce(r.kind) &&
                                    owner(r.inputs[0]) == i)
                                    ext = std::max(ext, reduce_reads(r.kind, t, e));
                            }
                        }
                        known = std::max(known, at + ext);
                    }
            }
        }
    }
    if (p.path == WorkspacePath::UB) {
        // The C tile below the base: what Fixpipe writes (each AIV's half at its UB byte 0, pitch
        // RoundUp(cols, 32)), and what the consumers of AccLoad(UB) read from a tile's first element: a
        // Compute or Cast CL elements, a reduce as above.
        known = std::max(known, c_written);
        for (std::size_t i = 0; i < by_node.size(); ++i) {
            const graph::Node& node = p.graph.nodes[i];
            if (node.kind != NodeKind::AccLoad || !golden.nodes[i].evaluated) continue;
            for (int s = 0; s < 2; ++s)
                for (const TileDims& t : tiles[s]) {
                    if (read_whole[i]) known = std::max(known, (t.c_offset + cl) * ec);
                    for (std::size_t j = 0; j < by_node.size(); ++j) {
                        const graph::Node& r = p.graph.nodes[j];
                        if (golden.nodes[j].evaluated && graph::is_reduce(r.kind) && owner(r.inputs[0]) == i)
                            known = std::max(known, t.c_offset * ec + reduce_reads(r.kind, t, ec));
                    }
                }
        }
    }
    return {known, known};
}

}  // namespace evg::verify
