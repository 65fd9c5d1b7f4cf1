// Which Catlass runs a graph: evgcheck's reference copy (lib/catlass) or upstream Catlass, a user's checkout
// (every release with EVG, v1.6.0 on). What upstream has is a column of the node-kind and functor tables
// (NodeKindInfo::in_upstream, FunctorInfo::in_upstream); this is the one place that reads the columns and
// decides whether a graph or a problem is one upstream can run: the upstream dialect of emit_cpp, the
// property generators' upstream restriction and the upstream corpus all ask here.
//
// Upstream's EVG exists for Ascend950 only (its BlockEpilogue for the EVG policy is compiled for CATLASS_ARCH
// 3510); element types follow the same vector and cast rules on both (one table, hw/numeric).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "evg/graph/graph.hpp"

namespace evg::graph {

enum class Implementation : uint8_t { evgcheck, upstream };

std::string_view implementation_name(Implementation impl);  // "evgcheck", "upstream"
std::optional<Implementation> implementation_from_name(std::string_view name);

bool implements(Implementation impl, NodeKind kind);
bool implements(Implementation impl, Functor fn);
bool implements(Implementation impl, ArchId arch);

// The first thing of the graph (in node order) that `impl` lacks, as a sentence naming the node and saying
// what this Catlass has instead, e.g. "%3 ColBroadcast float col: upstream Catlass has no ColBroadcast node
// (its nodes: AccLoad, AuxLoad, AuxStore, Cast, Compute, RowBroadcast)"; nullopt when it has everything.
// `source` names the text the graph was parsed from, as node_label does.
std::optional<std::string> first_missing(Implementation impl, const Graph& g, std::string_view source = {});
// The same for a problem: its arch first, then its graph.
std::optional<std::string> first_missing(Implementation impl, const Problem& p, std::string_view source = {});

// The first node at which the graph meets a synchronisation fault of `impl` that is known and written up, as
// a sentence; nullopt when it meets none (always for evgcheck). Upstream's: a store that reads a load's
// buffer directly (an AuxStore whose input is AccLoad, AuxLoad or RowBroadcast; a store of such a store is
// met at the inner one): upstream's BlockEpilogue orders the next LOAD into the buffer set only after the
// COMPUTE, not after the STORE, so MTE2 may overwrite what MTE3 still reads (GM path), and on the UB path the
// AIV hands the C region back to the cube while the store may still read it (docs/upstream-findings.md §4,
// docs/hazards.md `store_reads_load_unordered`).
std::optional<std::string> known_hazard(Implementation impl, const Graph& g, std::string_view source = {});

// The AuxStore nodes of `g` that read a load's buffer (an AccLoad, AuxLoad or RowBroadcast: a node with no
// inputs) directly, or through stores, which return their input's buffer: the stores upstream's race of
// docs/upstream-findings.md §4 is about (known_hazard names the first), in graph order.
std::vector<int> stores_of_loads(const Graph& g);

}  // namespace evg::graph
