// The upstream corpus's C++ (upstream/corpus/): a random case drawn for upstream Catlass, emitted as an
// instance of the corpus (a function that runs upstream's kernel on a RunRequest, upstream_harness.hpp) and
// as a whole host program (main, ACL calls, the kernel launch and a comparison with the oracle's outputs)
// that builds with evgcheck_add_program. One emission for the corpus generator (corpus_gen.cpp), which
// compiles the corpus into the build, and for `evgcheck check --catlass-root`, which compiles candidates at
// run time.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "coverage.hpp"
#include "evg/props/spec.hpp"
#include "evg/verify/data.hpp"

namespace evg::upstream::corpus {

// The largest multiple of 32 a tla::Int holds: a graph with no UB buffer fits any computeLength, and the
// generator then takes the largest multiple of 32 below 2^32 (same tiling either way: one piece per tile).
inline constexpr uint32_t kMaxStaticComputeLength = 2147483616u;

// The case a Spec stands for on upstream Catlass: props::decode for Implementation::upstream, its
// computeLength capped at kMaxStaticComputeLength.
props::Case upstream_case(const props::Spec& spec);

// Why upstream cannot run the case as a corpus instance ("" when it can): a node kind, functor or path
// upstream lacks (graph::first_missing), a text that does not read back to the same case, or two tensors with
// one C++ pointer name. A graph that meets upstream's known store-of-a-load race (graph::known_hazard,
// docs/upstream-findings.md §4) is an instance like any other: the known-findings entries of that race take
// it out of its runs' reports (tagged `stores-a-load`: in such a graph only), and the runs judge everything
// else.
std::string instance_refusal(const props::Case& c);

// A host tensor's bytes (what crosses to the device and back), for requests, programs and comparisons.
inline std::vector<uint8_t> bytes_of(const oracle::HostTensor& t) {
    const auto* b = reinterpret_cast<const uint8_t*>(t.bytes().data());
    return {b, b + t.bytes().size()};
}

// A or B (`operand` 'A' or 'B') as upstream's kernel reads it from GM: the case data holds both row-major (m
// x k and k x n); a column-major operand (KernelConfig::layout_a / layout_b) is that matrix transposed. The
// corpus's requests (make_request) and the reproducer programs upload these bytes.
std::vector<uint8_t> operand_in_gm(const graph::Problem& p, const verify::CaseData& data, char operand);

// The random cases of the corpus: draw d (0, 1, 2, ...) is spec_gen(traversal_share 50, arch tiles)'s value
// for the random source seed * 1000003 + d at size d % 100 (small and large graphs both), decoded for
// upstream; draws upstream cannot run as instances are skipped. Deterministic for a build of evgcheck.
struct Draw {
    uint64_t draw = 0;
    props::Spec spec;  // (a cover case has none: `cover`)
    props::Case c;
    bool cover = false;                  // a cover case (coverage.hpp), not a random draw
    std::vector<CoverCell> cover_cells;  // a cover case's cells
};
class UpstreamDraws {
  public:
    explicit UpstreamDraws(uint64_t seed) : seed_(seed) {}
    // The next draw upstream can run; nullopt after `limit` draws in all.
    std::optional<Draw> next(uint64_t limit);
    // Of the draws returned so far, those whose graph stores a load's buffer directly (graph::known_hazard):
    // instances like the others, whose runs have upstream's store-of-a-load race excused.
    int stores_a_load() const { return stores_a_load_; }

  private:
    uint64_t seed_, draw_ = 0, instances_ = 0;
    int stores_a_load_ = 0;
};

// The instances of a run of `n` graphs at `seed`: random draws (UpstreamDraws), then the cover cases
// (coverage.hpp) that complete the functor x arity cells they leave out, as many random draws as leave room
// for the cover cases they need (at least one random draw). Instance d takes the covering schedule's kernel
// configuration d. Deterministic: the corpus's instance K is graph K of `check --catlass-root --seed S`.
std::vector<Draw> plan_instances(uint64_t seed, int n);

// Whether instance `index` of a run (`d`) also runs as a TopologicalVisitor twin in `check --catlass-root`:
// a tree of two nodes or more that is a cover graph or at an odd index, so that a run covers both visitors at
// about half the compile cost of twinning every tree.
bool check_twin(const Draw& d, std::size_t index);

// The named instances of the corpus (evg_upstream_corpus_gen writes them after the random ones): graphs that
// show a finding of docs/upstream-findings.md on upstream's code, or settle a suspicion, each with the name
// it is registered by ("UpstreamCorpus/<name>") and its problem in the graph text format.
struct NamedGraph {
    const char* name;
    const char* problem;
};
std::span<const NamedGraph> named_graphs();

// The top of a generated file of instances.
std::string instances_file_header(const std::string& origin);

// The function(s) of instance `index` and its registration (names it "UpstreamCorpus/<name>", or
// "UpstreamCorpus/instanceNNNN" when `name` is empty), or "" when instance_refusal says no. With `twin` (a
// tree of two nodes or more), the graph as a TopologicalVisitor too.
std::string instance_functions(int index, props::Case c, bool twin, const std::string& name = {});

// The case of a node-suite cell (conformance/upstream_cells.hpp: its problem, data mode and seed) as the
// corpus and `evgcheck conformance --catlass-root` compile it: two cores, in order, the kernel configuration
// `kernel`.
props::Case conformance_cell_case(const graph::Problem& problem, verify::DataMode data, uint64_t data_seed,
                                  const graph::KernelConfig& kernel = {});

// A whole instances file of `cases` (instance i is case i, with a TopologicalVisitor twin when twins[i] and
// named names[i]; no twins, no names when they are empty; its index first_index + i), `origin` naming what
// generated it: the source of a
// library `evgcheck check --catlass-root` or `conformance --catlass-root` compiles against a checkout. Throws
// std::logic_error on a case the emission refuses.
std::string library_source(const std::vector<props::Case>& cases, const std::string& origin,
                           const std::vector<bool>& twins = {}, const std::vector<std::string>& names = {},
                           int first_index = 0);

// A host program in upstream's dialect that runs case `c` once on upstream's kernel with `c.cores` AI cores
// (aclInit, aclrtMalloc, the inputs of `data` copied in, DeviceGemm, aclrtSynchronizeStream) and compares
// every output byte for byte with `expected` (the oracle's, in graph tensor order, empty for an input):
// prints "Compare success." or "Compare failed: ..." and the first difference. Builds with
// evgcheck_add_program against a checkout; `evgcheck run-program` runs it checked. `header` starts the file
// as a comment.
std::string reproducer_program(const props::Case& c, const verify::CaseData& data,
                               const std::vector<std::vector<uint8_t>>& expected, const std::string& header);

}  // namespace evg::upstream::corpus
