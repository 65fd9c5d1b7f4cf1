#include "corpus_emit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>

#include "coverage.hpp"
#include "evg/graph/emit_cpp.hpp"
#include "evg/graph/implementation.hpp"
#include "evg/graph/kernel_config.hpp"
#include "evg/hw/numeric/dtype.hpp"
#include "evg/props/generators.hpp"
#include "evg/props/regression.hpp"
#include "upstream_kernel_text.hpp"

namespace evg::upstream::corpus {
namespace {

std::string indent(const std::string& code, const std::string& pad) {
    std::istringstream in(code);
    std::string line, out;
    while (std::getline(in, line)) out += (line.empty() ? "" : pad) + line + "\n";
    return out;
}

std::string instance_text(const props::Case& c, int index, const std::string& name) {
    return props::to_text(
        c, name.empty() ? fmt::format("UpstreamCorpus/instance{:04}", index) : "UpstreamCorpus/" + name);
}

// The kernel configuration of `p` (graph::KernelConfig) in upstream's dialect, as struct `name` that
// UpstreamGemm takes (upstream_kernel.hpp).
std::string mmad_config(const std::string& name, const graph::KernelConfig& k) {
    return fmt::format(
        "// kernel configuration: {}\n"
        "struct {} {{\n"
        "    template <class ArchTag>\n"
        "    using DispatchPolicy = {};\n"
        "    using LayoutA = {};\n"
        "    using LayoutB = {};\n"
        "    static constexpr uint32_t L0K = {}u;\n"
        "}};\n",
        graph::kernel_config_summary(k), name, graph::cpp_dispatch_policy(k),
        graph::cpp_layout_tag(k.layout_a), graph::cpp_layout_tag(k.layout_b), k.l0_k);
}

// The C++ function `fn` running problem `p` through upstream's kernel, its EVG emitted as `options` say.
std::string run_function(const std::string& fn, const graph::Problem& p, const graph::EmitOptions& options) {
    std::string bind, used;
    for (std::size_t i = 0; i < p.graph.tensors.size(); ++i) {
        const std::string ptr = graph::cpp_pointer_name(p.graph.tensors[i].name);
        bind += fmt::format("            GM_ADDR {} = ptrs[{}];\n            (void){};\n", ptr, i, ptr);
        used += fmt::format("    (void){};\n", graph::cpp_layout_name(p.graph.tensors[i].name));
    }
    const graph::CppEmission e = graph::emit_cpp(p, options);
    const std::string config = fn + "_mmad";
    return mmad_config(config, p.kernel) +
           fmt::format(
               "InstanceRun {}(const RunRequest& rq) {{\n"
               "    const uint32_t m = rq.m, n = rq.n;\n"
               "    (void)m;\n"
               "    (void)n;\n"
               "{}{}{}"
               "    return evg_upstream_corpus::run_instance<{}, {}, {}, {}u, {}u, {}u, {}u, EVG, {}>(\n"
               "        rq, [&](const std::vector<GM_ADDR>& ptrs) {{\n"
               "{}{}"
               "            return args;\n"
               "        }});\n"
               "}}\n",
               fn, indent(e.layouts, "    "), indent(e.evg, "    "), used,
               p.path == graph::WorkspacePath::UB ? "true" : "false", graph::cpp_element_name(p.a),
               graph::cpp_element_name(p.c), p.tile.m, p.tile.n, p.tile.k, p.compute_length, config, bind,
               indent(e.arguments, "            "));
}

// Bytes as C++ string literals of at most 32 bytes a line (a string literal compiles far faster than an
// initializer list of as many numbers); the array holds one byte more, the terminating zero.
std::string byte_literal(const std::vector<uint8_t>& bytes) {
    if (bytes.empty()) return "\"\"";
    std::string out;
    for (std::size_t i = 0; i < bytes.size(); i += 32) {
        out += "\n    \"";
        for (std::size_t j = i; j < std::min(bytes.size(), i + 32); ++j)
            out += fmt::format("\\x{:02x}", bytes[j]);
        out += "\"";
    }
    return out;
}

// upstream_kernel.hpp's text for a program's main file: without its `#pragma once`.
std::string kernel_text() {
    std::string text = kUpstreamKernelText;
    const std::string pragma = "#pragma once\n";
    if (const size_t at = text.find(pragma); at != std::string::npos) text.erase(at, pragma.size());
    return text;
}

// Why the case cannot be written as an instance: its text does not read back to the same case, or two of its
// tensors have one C++ pointer name.
std::string emission_refusal(const props::Case& c) {
    if (!(props::case_from_text(instance_text(c, 0, {})) == c))
        return "the case does not read back from its text";
    std::set<std::string> names;
    for (const graph::Tensor& t : c.problem.graph.tensors)
        if (!names.insert(graph::cpp_pointer_name(t.name)).second)
            return fmt::format("two tensors have the C++ pointer name {}", graph::cpp_pointer_name(t.name));
    return {};
}

}  // namespace

props::Case upstream_case(const props::Spec& spec) {
    props::Case c = props::decode(spec, graph::Implementation::upstream);
    if (c.problem.compute_length > kMaxStaticComputeLength)
        c.problem.compute_length = kMaxStaticComputeLength;
    return c;
}

std::vector<uint8_t> operand_in_gm(const graph::Problem& p, const verify::CaseData& data, char operand) {
    const bool a = operand == 'A';
    std::vector<uint8_t> rows = bytes_of(data.inputs.at(a ? "A" : "B"));
    if ((a ? p.kernel.layout_a : p.kernel.layout_b) == graph::MatrixLayout::RowMajor) return rows;
    const auto r = static_cast<std::size_t>(a ? p.m : p.k), c = static_cast<std::size_t>(a ? p.k : p.n);
    const std::size_t es = hw::dtype_size(a ? p.a : p.b);
    if (rows.size() != r * c * es)
        throw std::logic_error(
            fmt::format("operand_in_gm: {} has {} bytes, not {} x {} x {}", operand, rows.size(), r, c, es));
    std::vector<uint8_t> cols(rows.size());
    for (std::size_t i = 0; i < r; ++i)
        for (std::size_t j = 0; j < c; ++j)
            std::copy_n(rows.data() + (i * c + j) * es, es, cols.data() + (j * r + i) * es);
    return cols;
}

std::string instance_refusal(const props::Case& c) {
    if (const auto missing = graph::first_missing(graph::Implementation::upstream, c.problem))
        return *missing;
    return emission_refusal(c);
}

std::optional<Draw> UpstreamDraws::next(uint64_t limit) {
    // Half the instances test the visitors' traversal (non-commutative multi-input nodes over distinct
    // subtrees, trees and DAGs), the other half is the property suite's own mix; a tenth of them on
    // Ascend950's own L1 tile, the others on the small one (more blocks per shape).
    props::GenConfig cfg;
    cfg.traversal_share = 50;
    cfg.arch_tiles = true;
    static const rc::Gen<props::Spec> gen = props::spec_gen(cfg);
    while (draw_ < limit) {
        Draw d;
        d.draw = draw_;
        // Sizes sweep 0..99 like a rapidcheck run, so that small and large graphs both appear.
        d.spec = gen(rc::Random(seed_ * 1000003u + draw_), static_cast<int>(draw_ % 100)).value();
        ++draw_;
        // The kernel and its configuration by the covering schedule of the instances drawn so far
        // (coverage.hpp), not by chance.
        schedule_spec(d.spec, instances_);
        d.c = upstream_case(d.spec);
        if (graph::first_missing(graph::Implementation::upstream, d.c.problem)) continue;
        if (!instance_refusal(d.c).empty()) continue;
        schedule_kernel(d.c, instances_);
        if (!instance_refusal(d.c).empty()) continue;
        ++instances_;
        // A graph that meets upstream's known store-of-a-load race (docs/upstream-findings.md §4) runs too:
        // its runs have exactly that race excused (known_findings.txt, `stores-a-load`).
        if (graph::known_hazard(graph::Implementation::upstream, d.c.problem.graph)) ++stores_a_load_;
        return d;
    }
    return std::nullopt;
}

std::vector<Draw> plan_instances(uint64_t seed, int n) {
    UpstreamDraws draws(seed);
    std::vector<Draw> random;
    std::vector<props::Case> cases;
    const auto cover_for = [&](const std::vector<props::Case>& drawn) {
        return cover_cases(drawn, drawn.size(), kCoverComputesPerGraph);
    };
    std::vector<CoverGraph> cover = cover_for(cases);
    while (static_cast<int>(random.size() + cover.size()) < n || random.empty()) {
        std::optional<Draw> d = draws.next(static_cast<uint64_t>(std::max(n, 1)) * 20);
        if (!d) break;
        cases.push_back(d->c);
        random.push_back(std::move(*d));
        cover = cover_for(cases);
    }
    // Below the covering size the cover cases that do not fit are left out (the run's summary names the
    // cells).
    if (random.size() + cover.size() > static_cast<std::size_t>(std::max(n, 1)))
        cover.resize(static_cast<std::size_t>(std::max(n, 1)) -
                     std::min(random.size(), static_cast<std::size_t>(std::max(n, 1))));
    std::vector<Draw> out = std::move(random);
    for (CoverGraph& g : cover) {
        if (const std::string refusal = instance_refusal(g.c); !refusal.empty())
            throw std::logic_error("plan_instances: a cover case upstream cannot run: " + refusal);
        Draw d;
        d.draw = out.size();
        d.c = std::move(g.c);
        d.cover = true;
        d.cover_cells = std::move(g.cells);
        out.push_back(std::move(d));
    }
    return out;
}

bool check_twin(const Draw& d, std::size_t index) {
    const graph::Graph& g = d.c.problem.graph;
    return (d.cover || index % 2 == 1) && graph::runs_as_tree(g) && g.nodes.size() > 1;
}

std::string instances_file_header(const std::string& origin) {
    return fmt::format(
        "// Generated by {}: do not edit.\n"
        "#include \"upstream_harness.hpp\"\n\n"
        "namespace {{\n\n"
        "using evg_upstream_corpus::InstanceRun;\n"
        "using evg_upstream_corpus::RunRequest;\n\n",
        origin);
}

std::string instance_functions(int index, props::Case c, bool twin, const std::string& name) {
    if (c.problem.compute_length > kMaxStaticComputeLength)
        c.problem.compute_length = kMaxStaticComputeLength;
    if (!emission_refusal(c).empty()) return {};
    const std::string text = instance_text(c, index, name);
    const graph::Problem& p = c.problem;
    graph::EmitOptions options;
    options.dialect = graph::Implementation::upstream;
    options.runtime_shapes = true;
    std::string out = fmt::format("// instance {}: {}\n", index, props::summary(c)) +
                      run_function(fmt::format("instance_{}", index), p, options);
    std::string twin_fn = "nullptr";
    if (twin) {
        options.topological = true;
        twin_fn = fmt::format("instance_{}_topological", index);
        out += run_function(twin_fn, p, options);
    }
    return out + fmt::format(
                     "const evg_upstream_corpus::Register register_{}({}, \"{}\", R\"EVG({})EVG\", "
                     "instance_{}, {});\n\n",
                     index, index, name, text, index, twin_fn);
}

props::Case conformance_cell_case(const graph::Problem& problem, verify::DataMode data, uint64_t data_seed,
                                  const graph::KernelConfig& kernel) {
    props::Case c;
    c.problem = problem;
    c.problem.kernel = kernel;
    c.data = data;
    c.data_seed = data_seed;
    c.cores = 2;
    return c;
}

std::string library_source(const std::vector<props::Case>& cases, const std::string& origin,
                           const std::vector<bool>& twins, const std::vector<std::string>& names,
                           int first_index) {
    std::string body = instances_file_header(origin);
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const std::string fn =
            instance_functions(first_index + static_cast<int>(i), cases[i], i < twins.size() && twins[i],
                               i < names.size() ? names[i] : std::string());
        if (fn.empty()) throw std::logic_error("library_source: a case the emission refuses");
        body += fn;
    }
    return body + "}  // namespace\n";
}

std::string reproducer_program(const props::Case& c, const verify::CaseData& data,
                               const std::vector<std::vector<uint8_t>>& expected, const std::string& header) {
    const graph::Problem& p = c.problem;
    if (expected.size() != p.graph.tensors.size())
        throw std::logic_error("reproducer_program: one expected buffer per tensor");
    graph::EmitOptions options;
    options.dialect = graph::Implementation::upstream;
    const graph::CppEmission e = graph::emit_cpp(p, options);
    std::string arrays =
        fmt::format("const char kA[] = {};\nconst char kB[] = {};\n",
                    byte_literal(operand_in_gm(p, data, 'A')), byte_literal(operand_in_gm(p, data, 'B')));
    std::string upload, compare;
    for (std::size_t i = 0; i < p.graph.tensors.size(); ++i) {
        const graph::Tensor& t = p.graph.tensors[i];
        const std::string ptr = graph::cpp_pointer_name(t.name);
        arrays += fmt::format("// {} {}: {} before the launch\nconst char kIn{}[] = {};\n",
                              t.role == graph::TensorRole::Output ? "output" : "input", t.name,
                              t.role == graph::TensorRole::Output ? "its contents" : "its data", i,
                              byte_literal(bytes_of(data.inputs.at(t.name))));
        upload += fmt::format("    GM_ADDR {} = Upload(kIn{}, sizeof(kIn{}) - 1);\n", ptr, i, i);
        if (t.role != graph::TensorRole::Output) continue;
        arrays += fmt::format("const char kWant{}[] = {};\n", i, byte_literal(expected[i]));
        compare += fmt::format("    ok = Compare(\"{}\", {}, kWant{}, sizeof(kWant{}) - 1, {}) && ok;\n",
                               t.name, ptr, i, i, hw::dtype_size(t.element));
    }
    return fmt::format(
        "{}"
        "#include <acl/acl.h>\n\n"
        "#include <cstdint>\n"
        "#include <cstdio>\n"
        "#include <cstring>\n"
        "#include <vector>\n\n"
        "// ---- the kernel (evgcheck's upstream corpus, upstream/corpus/upstream_kernel.hpp) ----\n"
        "{}"
        "// ---- the case ----\n\n"
        "namespace {{\n\n"
        "{}\n"
        "{}\n"
        "GM_ADDR Upload(const char* bytes, size_t size) {{\n"
        "    void* ptr = nullptr;\n"
        "    aclrtMalloc(&ptr, size == 0 ? 1 : size, ACL_MEM_MALLOC_HUGE_FIRST);\n"
        "    if (size != 0) aclrtMemcpy(ptr, size, bytes, size, ACL_MEMCPY_HOST_TO_DEVICE);\n"
        "    return static_cast<GM_ADDR>(ptr);\n"
        "}}\n\n"
        "bool Compare(const char* name, GM_ADDR device, const char* want, size_t size, size_t elem) {{\n"
        "    std::vector<char> got(size);\n"
        "    if (size != 0) aclrtMemcpy(got.data(), size, device, size, ACL_MEMCPY_DEVICE_TO_HOST);\n"
        "    for (size_t i = 0; i < size; ++i)\n"
        "        if (got[i] != want[i]) {{\n"
        "            std::printf(\"Compare failed: output %s element %zu: byte %zu is 0x%02x, expected "
        "0x%02x\\n\",\n"
        "                        name, i / elem, i, static_cast<unsigned>(static_cast<unsigned "
        "char>(got[i])),\n"
        "                        static_cast<unsigned>(static_cast<unsigned char>(want[i])));\n"
        "            return false;\n"
        "        }}\n"
        "    return true;\n"
        "}}\n\n"
        "}}  // namespace\n\n"
        "int main() {{\n"
        "    aclInit(nullptr);\n"
        "    aclrtSetDevice(0);\n"
        "    aclrtStream stream = nullptr;\n"
        "    aclrtCreateStream(&stream);\n"
        "    const uint32_t m = {}, n = {}, k = {};\n"
        "    GM_ADDR ptrA = Upload(kA, sizeof(kA) - 1);\n"
        "    GM_ADDR ptrB = Upload(kB, sizeof(kB) - 1);\n"
        "{}\n"
        "{}{}{}"
        "    using Gemm = evg_upstream_corpus::UpstreamGemm<{}, {}, {}, {}u, {}u, {}u, {}u, EVG, "
        "MmadConfig>;\n"
        "    const typename Gemm::Kernel::Arguments arguments = Gemm::arguments(m, n, k, ptrA, ptrB, args);\n"
        "    typename Gemm::Op op;\n"
        "    if (op.CanImplement(arguments) != Catlass::Status::kSuccess) {{\n"
        "        std::printf(\"CanImplement refused the problem\\n\");\n"
        "        return 1;\n"
        "    }}\n"
        "    const size_t workspaceSize = op.GetWorkspaceSize(arguments);\n"
        "    void* workspace = nullptr;\n"
        "    if (workspaceSize != 0) aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);\n"
        "    op.Initialize(arguments, static_cast<uint8_t*>(workspace));\n"
        "    op(stream, {});  // AI cores\n"
        "    aclrtSynchronizeStream(stream);\n\n"
        "    bool ok = true;\n"
        "{}"
        "    if (ok) std::printf(\"Compare success.\\n\");\n"
        "    aclrtDestroyStream(stream);\n"
        "    aclrtResetDevice(0);\n"
        "    aclFinalize();\n"
        "    return ok ? 0 : 1;\n"
        "}}\n",
        header, kernel_text(), mmad_config("MmadConfig", p.kernel), arrays, p.m, p.n, p.k, upload,
        indent(e.layouts, "    "), indent(e.evg, "    "), indent(e.arguments, "    "),
        p.path == graph::WorkspacePath::UB ? "true" : "false", graph::cpp_element_name(p.a),
        graph::cpp_element_name(p.c), p.tile.m, p.tile.n, p.tile.k, p.compute_length, c.cores, compare);
}

namespace {

// The named instances: graphs that show a finding of docs/upstream-findings.md on upstream's code (the test
// UpstreamCorpusFindings requires the finding there and not on evgcheck's copy). Two tiles of one buffer set
// per core: m = 33 rows of the 32-row tile, one core.
constexpr NamedGraph kNamed[] = {
    // §4: a store of the C tile (GM hand-over) and of an input tensor; the C region on the UB path.
    {"store_of_accload_gm",
     "problem arch=Ascend950 m=33 n=65 k=1 a=half b=half c=float cl=2048 path=gm tile=32x64x64\n"
     "output D : float[33, 65]\n"
     "%0 = AccLoad float\n"
     "%1 = AuxStore float D (%0)\n"},
    {"store_of_auxload_gm",
     "problem arch=Ascend950 m=33 n=65 k=1 a=half b=half c=float cl=2048 path=gm tile=32x64x64\n"
     "input  X : float[33, 65]\n"
     "output Y : float[33, 65]\n"
     "output D : float[33, 65]\n"
     "%0 = AuxLoad float X\n"
     "%1 = AuxStore float Y (%0)\n"
     "%2 = AccLoad float\n"
     "%3 = Compute Add float (%1, %2)\n"
     "%4 = AuxStore float D (%3)\n"},
    {"store_of_accload_ub",
     "problem arch=Ascend950 m=33 n=65 k=1 a=half b=half c=float cl=2048 path=ub tile=32x64x64\n"
     "output D : float[33, 65]\n"
     "%0 = AccLoad float ub\n"
     "%1 = AuxStore float D (%0)\n"},
    // §5: the UB path's last, partial tile, where a Compute or a Cast works over the whole computeLength from
    // the tile's start in the C region. Upstream's add_ub example's tile and computeLength (256 x 256,
    // 7680 = 30 rows of 256); 128 rows per AIV make 4 tiles of 30 rows and one of 8.
    {"ub_last_tile_relu",
     "problem arch=Ascend950 m=256 n=256 k=32 a=half b=half c=float cl=7680 path=ub tile=256x256x128\n"
     "output D : float[256, 256]\n"
     "%0 = AccLoad float ub\n"
     "%1 = Compute Relu float (%0)\n"
     "%2 = AuxStore float D (%1)\n"},
    {"ub_last_tile_cast",
     "problem arch=Ascend950 m=256 n=256 k=32 a=half b=half c=float cl=7680 path=ub tile=256x256x128\n"
     "output D : half[256, 256]\n"
     "%0 = AccLoad float ub\n"
     "%1 = Cast half <- float CAST_RINT (%0)\n"
     "%2 = AuxStore half D (%1)\n"},
    {"ub_last_tile_add",
     "problem arch=Ascend950 m=256 n=256 k=32 a=half b=half c=float cl=7680 path=ub tile=256x256x128\n"
     "input  X : float[256, 256]\n"
     "output D : float[256, 256]\n"
     "%0 = AccLoad float ub\n"
     "%1 = AuxLoad float X\n"
     "%2 = Compute Add float (%0, %1)\n"
     "%3 = AuxStore float D (%2)\n"},
    // §5: RowBroadcast copies its row down the tile UB -> UB with no PipeBarrier<PIPE_V> before the Compute
    // that reads it; 32 rows of 64 a tile.
    {"row_broadcast_gm",
     "problem arch=Ascend950 m=64 n=64 k=32 a=half b=half c=float cl=2048 path=gm tile=32x64x64\n"
     "input  bias : float[1, 64]\n"
     "output D : float[64, 64]\n"
     "%0 = AccLoad float\n"
     "%1 = RowBroadcast float bias\n"
     "%2 = Compute Add float (%0, %1)\n"
     "%3 = AuxStore float D (%2)\n"},
    {"row_broadcast_ub",
     "problem arch=Ascend950 m=64 n=64 k=32 a=half b=half c=float cl=2048 path=ub tile=32x64x64\n"
     "input  bias : float[1, 64]\n"
     "output D : float[64, 64]\n"
     "%0 = AccLoad float ub\n"
     "%1 = RowBroadcast float bias\n"
     "%2 = Compute Add float (%0, %1)\n"
     "%3 = AuxStore float D (%2)\n"},
    // §7: int8 A and B with an L0 K of 64 (two K chunks of 32), M and N under 17, A and B column-major: the
    // transposed L1 -> L0A load (and, for a row-major B, L1 -> L0B: the named instance below) writes the
    // second
    // chunk over the first's second fractal with no MTE1 barrier. The graph does not matter.
    {"int8_l0a_chunks",
     "problem arch=Ascend950 m=1 n=1 k=33 a=int8 b=int8 c=int32 cl=512 path=gm tile=32x64x64 unit_flag=0 "
     "l0k=64 layout_a=col layout_b=col\n"
     "output D : int32[1, 1]\n"
     "%0 = AccLoad int32\n"
     "%1 = AuxStore int32 D (%0)\n"},
    {"int8_l0b_chunks",
     "problem arch=Ascend950 m=1 n=1 k=33 a=int8 b=int8 c=int32 cl=512 path=gm tile=32x64x64 unit_flag=0 "
     "l0k=64\n"
     "output D : int32[1, 1]\n"
     "%0 = AccLoad int32\n"
     "%1 = AuxStore int32 D (%0)\n"},
};

}  // namespace

std::span<const NamedGraph> named_graphs() {
    return kNamed;
}

}  // namespace evg::upstream::corpus
