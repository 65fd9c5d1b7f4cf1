// The runtime graph: the data form of an EVG (docs/evg-semantics.md §2, §3.4) and the problem it runs in.
//
// A Graph is a list of nodes with ordered input edges (indices into the list), like TopologicalVisitor's
// EdgeTuple; the last node is the root. External tensors (inputs such as X, bias, row/column vectors;
// outputs such as D and reduction results) are named and carry element type, shape and row stride.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "evg/graph/functor.hpp"
#include "evg/graph/node_kind.hpp"
#include "evg/hw/arch.hpp"
#include "evg/hw/numeric/dtype.hpp"
#include "evg/hw/numeric/round_mode.hpp"

namespace evg::graph {

using hw::ArchId;
using hw::DType;
using hw::RoundMode;

// Where a graph element came from in a text (1-based). 0 = not parsed from text.
// Positions are provenance, not content: graphs that differ only in positions compare equal.
struct SourcePos {
    int line = 0;
    int column = 0;
    friend constexpr bool operator==(const SourcePos&, const SourcePos&) { return true; }
};

struct Node {
    NodeKind kind = NodeKind::AccLoad;
    // ElementOutput of the node: AccLoad/AuxLoad/AuxStore/broadcasts/reduces: Element; Cast: ElementTo;
    // Compute: ElementCompute.
    DType element = DType::f32;
    // Ordered input edges: indices into Graph::nodes (duplicates allowed, e.g. {2, 2}).
    std::vector<int> inputs;

    // AccLoad only: VisitorAccLoad<E, USE_UB_WORKSPACE = use_ub>.
    bool use_ub = false;
    // Cast only: ElementFrom and the RoundMode.
    DType from = DType::f32;
    RoundMode round = RoundMode::CAST_NONE;
    // Compute: the ComputeFn. Row/Col/ScalarReduce: the ReduceFn (Add, Max or Min).
    Functor fn = Functor::Add;
    // Compute only: the scalar values, in the order of the functor's fields, as written. The kernel sees
    // ElementCompute(float(value)) for floating types (the emitted C++ writes e.g. half(0.1f)) and the value
    // truncated toward zero for integer types (validation requires integral values there).
    std::vector<double> scalars;
    // AuxLoad/AuxStore/broadcasts/reduces: the external tensor's name.
    std::string tensor;

    SourcePos pos;

    // Compares only the fields that mean something for the kind (scalars bitwise, NaN == NaN).
    friend bool operator==(const Node& a, const Node& b);
};

enum class TensorRole : uint8_t { Input, Output };
std::string_view tensor_role_name(TensorRole r);  // "input", "output"

struct Tensor {
    std::string name;  // an identifier: [A-Za-z_][A-Za-z0-9_]*
    TensorRole role = TensorRole::Input;
    DType element = DType::f16;
    int64_t rows = 0;
    int64_t cols = 0;
    int64_t row_stride = 0;  // elements between the starts of consecutive rows (dense: = cols)
    SourcePos pos;
    friend bool operator==(const Tensor&, const Tensor&) = default;
};

// The one rule for the size of a tensor's device buffer: its last row starts (rows - 1) row strides in and
// holds cols elements; a stride below cols (0: dense) counts as cols; an empty tensor has none. Every buffer
// the model, the data, the corpus and the estimate make for a tensor has this size (the oracle, which shares
// no code with the model, keeps its own).
uint64_t buffer_elements(const Tensor& t);
uint64_t buffer_bytes(const Tensor& t);  // buffer_elements times the element's size

struct Graph {
    std::vector<Tensor> tensors;
    std::vector<Node> nodes;  // the last node is the root

    int root() const { return static_cast<int>(nodes.size()) - 1; }
    const Tensor* find_tensor(std::string_view name) const;
    friend bool operator==(const Graph&, const Graph&) = default;
};

// For generators of random graphs: a store or reduce that the root does not reach would leave its output
// unwritten, which validation refuses (rule unreachable-store). Drops each such writer and every node built
// on it (all unreachable too), and the output tensors no node names any more; other unreachable nodes stay
// (they still carve UB, as upstream). Assumes inputs are listed before the nodes that use them.
void drop_unreachable_writers(Graph& g);

// Whether the GEMM result reaches the epilogue through GM (BasicMatmulTlaVisitor) or directly in UB
// (BasicMatmulTlaUbVisitor, Ascend950 only; EVG buffers start at L0C_SIZE/2).
enum class WorkspacePath : uint8_t { GM, UB };
std::string_view workspace_path_name(WorkspacePath p);  // "gm", "ub"

struct TileShape {
    uint32_t m = 0, n = 0, k = 0;
    friend bool operator==(const TileShape&, const TileShape&) = default;
};
// L1 tile per arch: AtlasA2 128x256x256, Ascend950 256x256x128 (docs/evg-semantics.md §10.2, §10.3).
constexpr TileShape default_tile(ArchId arch) {
    return arch == ArchId::Ascend950 ? TileShape{256, 256, 128} : TileShape{128, 256, 256};
}

// The GEMM under the epilogue as upstream's Ascend950 kernels take it: BlockMmadTla's dispatch policy
// (MmadPingpong or MmadPingpongMutex and their template parameters), the L0 K of the L0 tile (its M and N are
// the L1 tile's: upstream requires it) and the GM layouts of A and B. The default is the configuration every
// upstream corpus instance ran before configurations were drawn: MmadPingpong<Ascend950, true> (unit flag on,
// one L0C stage, two stages of every L1 and L0 buffer, no L1 residency, no HF32), L0 K 32, row-major A and B.
// Which configurations upstream accepts is one table (graph/kernel_config.hpp). Only upstream's kernels
// honour it: evgcheck's own kernels run the default, and a problem with another configuration is upstream's
// alone (graph::first_missing). The configuration changes the GEMM's schedule and A and B's order in GM,
// never the values C holds, so the two implementations are still compared byte for byte.
enum class MmadPolicy : uint8_t { Pingpong, PingpongMutex };
enum class MatrixLayout : uint8_t { RowMajor, ColumnMajor };
std::string_view mmad_policy_name(MmadPolicy p);      // "pingpong", "pingpong_mutex"
std::string_view matrix_layout_name(MatrixLayout l);  // "row", "col"
struct KernelConfig {
    MmadPolicy mmad = MmadPolicy::Pingpong;
    bool unit_flag = true;     // ENABLE_UNIT_FLAG
    bool hf32 = false;         // USE_HF32_MODE
    bool l1_resident = false;  // ENABLE_L1_RESIDENT
    uint32_t l1a_stages = 2, l1b_stages = 2, l0a_stages = 2, l0b_stages = 2, l0c_stages = 1;
    uint32_t l0_k = 32;
    MatrixLayout layout_a = MatrixLayout::RowMajor, layout_b = MatrixLayout::RowMajor;
    friend bool operator==(const KernelConfig&, const KernelConfig&) = default;
};

// Where each key of a `problem` line was written (line 0: not written there, e.g. set by a command-line
// option), so that a message about a value points at the value's key.
struct ProblemKeys {
    SourcePos arch, m, n, k, a, b, c, cl, path, tile;
    // The kernel configuration's keys (KernelConfig; printed only when they differ from its default).
    SourcePos mmad, unit_flag, hf32, l1_resident, stages, l0k, layout_a, layout_b;
    friend bool operator==(const ProblemKeys&, const ProblemKeys&) = default;
    // The key's position, or `line` (the problem line) when the key was not written.
    static SourcePos or_line(const SourcePos& key, const SourcePos& line) {
        return key.line > 0 ? key : line;
    }
};

struct Problem {
    Graph graph;
    int64_t m = 0, n = 0, k = 0;
    DType a = DType::f16, b = DType::f16, c = DType::f32;  // element types of A, B and C (= AccLoad's)
    ArchId arch = ArchId::AtlasA2;
    uint32_t compute_length = 0;  // CL: elements per UB buffer
    WorkspacePath path = WorkspacePath::GM;
    TileShape tile = default_tile(ArchId::AtlasA2);  // set with default_tile(arch) for other archs
    KernelConfig kernel;                             // upstream's GEMM configuration (Ascend950)
    SourcePos pos;                                   // of the `problem` line
    ProblemKeys keys;                                // of its keys
    friend bool operator==(const Problem&, const Problem&) = default;
};

// The problem with other GEMM extents: m, n, k replaced, and every tensor's extents taken again from the kind
// of the node that names it (NodeKindInfo::rows / cols: the problem's m or n, or 1), a padded row keeping its
// padding. The graph, types, computeLength and tile stay: one compiled EVG serves every shape.
Problem with_shape(const Problem& p, int64_t m, int64_t n, int64_t k);

}  // namespace evg::graph
