// The encoding of a random problem that rapidcheck generates and shrinks, and its decoding into a runnable
// case.
//
// A Spec is a list of genes plus independent fields (arch, path, shapes, types, computeLength choice, data
// mode, cores). A gene is one node with *relative* back-references: reference r of the gene at position p
// names the node p - 1 - (r mod p). Any sub-list of genes and any value of any field therefore decodes to
// a valid problem, so rapidcheck's element deletion and value shrinking never leave the valid space.
//
// Decoding (decode()) repairs types instead of rejecting: a Compute whose input has another element type
// gets a legal Cast in front of it (directly, or through float), a reduce of a type without reduce
// instructions reduces a float Cast of it, a functor or a cast that the arch lacks is replaced by the next
// legal one. The root is an AuxStore "D" of the last node. Validation of a decoded problem never reports an
// error (property GeneratedProblems.ValidateWithoutErrors).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "evg/graph/graph.hpp"
#include "evg/graph/implementation.hpp"
#include "evg/verify/data.hpp"

namespace evg::props {

using graph::ArchId;
using graph::DType;
using graph::Functor;
using graph::NodeKind;
using graph::RoundMode;
using graph::WorkspacePath;

// What a gene decodes to (op mod kGeneOps).
enum class GeneOp : uint8_t {
    AccLoad,
    AuxLoad,
    RowBroadcast,
    ColBroadcast,
    ScalarBroadcast,
    Compute,
    Cast,
    AuxStore,
    RowReduce,
    ColReduce,
    ScalarReduce,
};
inline constexpr int kGeneOps = 11;

struct Gene {
    uint8_t op = 0;        // GeneOp, mod kGeneOps; a node needing an input at position 0 becomes an AccLoad
    uint8_t dtype = 0;     // index into the arch's palette (mod its size); 0 = float
    uint8_t fn = 0;        // Compute: index into the functors legal for (arch, dtype); reduces: Add/Max/Min
    uint8_t round = 0;     // Cast: 0 = CAST_RINT, 1 = CAST_NONE, then FLOOR, CEIL, ROUND, TRUNC, ODD
    uint8_t extra = 0;     // n-ary Compute: inputs beyond the minimum (mod 3)
    uint8_t scalar = 0;    // index into the scalar table
    bool strided = false;  // AuxLoad / AuxStore: the tensor has padded rows (if the spec has a padding)
    std::vector<uint8_t> refs;  // relative back-references; missing ones are 0 (the previous node)
    friend bool operator==(const Gene&, const Gene&) = default;
};

// A gene of the given op (and functor index), every other field 0: for hand-written specs.
inline Gene make_gene(GeneOp op, uint8_t fn = 0) {
    Gene g;
    g.op = static_cast<uint8_t>(op);
    g.fn = fn;
    return g;
}

// Data a case runs on (verify::make_case_data): the generator draws Exact (small integers: every result is
// exact, the oracle must agree bit for bit) and Special (special values, fp16/bf16 ties and values that
// overflow on a down-cast).
using verify::DataMode;
// The case text's names: "exact", "float" (Special), "uniform".
const char* data_text_name(DataMode d);

struct Spec {
    ArchId arch = ArchId::AtlasA2;
    bool ub_path = false;    // the UB workspace path (Ascend950 only; ignored on AtlasA2)
    bool arch_tile = false;  // the arch's L1 tile instead of the small 32x64x64 one
    int64_t m = 1, n = 1, k = 1;
    bool c_half = false;     // ElementC half instead of float
    bool int8_gemm = false;  // A, B int8 and ElementC int32 (overrides c_half)
    uint32_t cl_blocks = 0;  // computeLength = 32 * cl_blocks, capped at the maximum; 0 = the maximum
    uint8_t row_pad = 0;     // extra elements per row of strided M x N tensors (0: none are strided)
    std::vector<Gene> genes;
    DataMode data = DataMode::Exact;
    uint64_t data_seed = 0;
    // Inputs of one sign where that makes a wrong reduce identity show (verify::identity_telling_sign: all
    // negative under a Max reduce, all positive under a Min); decode() sets Case::sign from it.
    bool signed_inputs = false;
    uint8_t cores = 2;        // blockDim (1..8)
    uint64_t sched_seed = 0;  // adversarial scheduler seed; 0 = in-order scheduler
    friend bool operator==(const Spec&, const Spec&) = default;
};

// A runnable case: the problem and everything else a run needs. This is what a regression file stores.
struct Case {
    graph::Problem problem;
    DataMode data = DataMode::Exact;
    uint64_t data_seed = 0;
    verify::InputSign sign = verify::InputSign::mixed;  // the inputs' sign (verify::make_case_data)
    uint32_t cores = 2;
    uint64_t sched_seed = 0;
    friend bool operator==(const Case&, const Case&) = default;
};

// The L1 tile of the small-shape cases: several blocks for small M and N.
inline constexpr graph::TileShape kSmallTile{32, 64, 64};

// The element types a gene's dtype index ranges over on an arch, float first.
const std::vector<DType>& palette(ArchId arch);
// The element types vector arithmetic accepts on an arch (no bf16 on AtlasA2), float first.
const std::vector<DType>& arithmetic_palette(ArchId arch);

// The functors a Compute gene of element type t picks from on an arch (gene.fn indexes this list), of those
// the implementation has (graph/implementation.hpp).
std::vector<Functor> compute_functors(ArchId arch, DType t,
                                      graph::Implementation impl = graph::Implementation::evgcheck);

// With impl = upstream the case is one upstream Catlass can run (graph::first_missing says nothing): the arch
// is Ascend950, a gene of a node kind upstream lacks decodes to the nearest kind it has (a Col/Scalar
// broadcast to a RowBroadcast, a reduce to an AuxStore of its input), and a Compute picks from upstream's
// functors. The same Spec with other shapes, cores or seeds decodes to the same graph.
Case decode(const Spec& s, graph::Implementation impl = graph::Implementation::evgcheck);

// Nodes of a decoded case (the shrink target of the planted-fault demonstration).
inline int node_count(const Case& c) {
    return static_cast<int>(c.problem.graph.nodes.size());
}

// One line: "AtlasA2 gm m=33 n=65 k=1 c=float cl=96 cores=2 exact seed=7 sched=0, 5 nodes".
std::string summary(const Case& c);
// " negative" / " positive" for a case of one-signed inputs, "" for mixed ones.
std::string sign_suffix(verify::InputSign s);

}  // namespace evg::props
