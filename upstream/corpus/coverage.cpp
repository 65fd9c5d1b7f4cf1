#include "coverage.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

#include "evg/graph/emit_cpp.hpp"
#include "evg/graph/implementation.hpp"
#include "evg/graph/kernel_config.hpp"
#include "evg/graph/text.hpp"
#include "evg/hw/numeric/dtype.hpp"

namespace evg::upstream::corpus {
namespace {

using graph::KernelConfig;
using graph::MmadPolicy;
using hw::DType;

// A family of block-mmad configurations: the parameters that select upstream's code paths (the unit flag
// and L0C stages switch BlockMmadTla's synchronisation of L0C, L1 residency its loads); the stage counts
// and L0 K are drawn within a family.
struct Family {
    const char* name;
    MmadPolicy mmad;
    bool unit_flag, l1_resident, hf32;
    uint32_t l0c_stages;
};
constexpr std::array<Family, 8> kFamilies = {{
    {"pingpong uf", MmadPolicy::Pingpong, true, false, false, 1},
    {"pingpong uf res", MmadPolicy::Pingpong, true, true, false, 1},
    {"pingpong l0c1", MmadPolicy::Pingpong, false, false, false, 1},
    {"pingpong l0c1 res", MmadPolicy::Pingpong, false, true, false, 1},
    {"pingpong l0c2", MmadPolicy::Pingpong, false, false, false, 2},
    {"pingpong l0c2 res", MmadPolicy::Pingpong, false, true, false, 2},
    // Upstream accepts these; the model does not run them (graph::kernel_config_unmodelled).
    {"pingpong_mutex", MmadPolicy::PingpongMutex, false, false, false, 1},
    {"pingpong hf32", MmadPolicy::Pingpong, false, false, true, 1},
}};

KernelConfig family_config(const Family& f) {
    KernelConfig k;
    k.mmad = f.mmad;
    k.unit_flag = f.unit_flag;
    k.l1_resident = f.l1_resident;
    k.hf32 = f.hf32;
    k.l0c_stages = f.l0c_stages;
    return k;
}

const Family& family_of(const KernelConfig& k) {
    for (const Family& f : kFamilies)
        if (f.mmad == k.mmad && f.unit_flag == k.unit_flag && f.l1_resident == k.l1_resident &&
            f.hf32 == k.hf32 &&
            (f.mmad == MmadPolicy::PingpongMutex || f.hf32 || f.l0c_stages == k.l0c_stages))
            return f;
    return k.mmad == MmadPolicy::PingpongMutex ? kFamilies[6] : kFamilies[7];
}

std::vector<const Family*> reachable_families() {
    std::vector<const Family*> out;
    for (const Family& f : kFamilies)
        if (graph::kernel_config_unmodelled(family_config(f)).empty()) out.push_back(&f);
    return out;
}

constexpr std::array<const char*, 2> kPaths = {"gm", "ub"};

std::string kernel_cell(graph::WorkspacePath path, const Family& f) {
    return fmt::format("{} / {}", graph::workspace_path_name(path), f.name);
}
std::string layout_cell(const KernelConfig& k) {
    return fmt::format("A:{} B:{}", graph::matrix_layout_name(k.layout_a),
                       graph::matrix_layout_name(k.layout_b));
}
std::string dtype_cell(DType a, DType b, DType c) {
    return fmt::format("{} x {} -> {}", hw::dtype_name(a), hw::dtype_name(b), hw::dtype_name(c));
}
std::string arity_cell(graph::Functor fn, int arity) {
    return fmt::format("{} x {}{}", graph::functor_name(fn), arity, arity == kMaxArityCell ? "+" : "");
}

std::string key(const std::string& dimension, const std::string& name) {
    return dimension + ": " + name;
}

// Draws a stage count or L0 K from `choices` with the random source.
template <class T, std::size_t N>
T pick(rc::Random& r, const std::array<T, N>& choices) {
    return choices[static_cast<std::size_t>(r.next() % N)];
}

}  // namespace

int kernel_family_cells() {
    return static_cast<int>(kPaths.size() * reachable_families().size());
}

std::vector<MmadFamily> reachable_mmad_families() {
    std::vector<MmadFamily> out;
    for (const Family* f : reachable_families()) {
        std::string id = f->name;
        if (id.rfind("pingpong ", 0) == 0) id.erase(0, 9);
        std::replace(id.begin(), id.end(), ' ', '+');
        out.push_back({f->name, id, family_config(*f)});
    }
    return out;
}

const std::vector<Cell>& all_cells() {
    static const std::vector<Cell> cells = [] {
        std::vector<Cell> out;
        for (const graph::WorkspacePath path : {graph::WorkspacePath::GM, graph::WorkspacePath::UB})
            for (const Family& f : kFamilies)
                out.push_back({"kernel x mmad", kernel_cell(path, f),
                               graph::kernel_config_unmodelled(family_config(f))});
        for (const auto a : {graph::MatrixLayout::RowMajor, graph::MatrixLayout::ColumnMajor})
            for (const auto b : {graph::MatrixLayout::RowMajor, graph::MatrixLayout::ColumnMajor}) {
                KernelConfig k;
                k.layout_a = a;
                k.layout_b = b;
                out.push_back({"layouts", layout_cell(k), ""});
            }
        out.push_back({"dtypes", dtype_cell(DType::f16, DType::f16, DType::f32), ""});
        out.push_back({"dtypes", dtype_cell(DType::f16, DType::f16, DType::f16), ""});
        out.push_back({"dtypes", dtype_cell(DType::i8, DType::i8, DType::i32), ""});
        const std::string not_drawn =
            "evgcheck's case generator draws A and B half or int8 (props::Spec), not this type";
        out.push_back({"dtypes", dtype_cell(DType::bf16, DType::bf16, DType::f32), not_drawn});
        out.push_back({"dtypes", dtype_cell(DType::f32, DType::f32, DType::f32), not_drawn});
        for (const graph::NodeKind kind : graph::kAllNodeKinds)
            if (graph::implements(graph::Implementation::upstream, kind))
                out.push_back({"node kind", std::string(graph::node_kind_name(kind)), ""});
        for (const graph::FunctorInfo& f : graph::all_functors()) {
            if (!graph::implements(graph::Implementation::upstream, f.fn)) continue;
            for (int arity = f.min_inputs; arity <= std::min(f.max_inputs, kMaxArityCell); ++arity)
                out.push_back({"functor x arity", arity_cell(f.fn, arity), ""});
        }
        out.push_back({"visitor", "TreeVisitor", ""});
        out.push_back({"visitor", "TopologicalVisitor", ""});
        return out;
    }();
    return cells;
}

std::string cell_key(const Cell& cell) {
    return key(cell.dimension, cell.name);
}

std::set<std::string> cells_of(const props::Case& c, bool twin) {
    const graph::Problem& p = c.problem;
    std::set<std::string> out;
    out.insert(key("kernel x mmad", kernel_cell(p.path, family_of(p.kernel))));
    out.insert(key("layouts", layout_cell(p.kernel)));
    out.insert(key("dtypes", dtype_cell(p.a, p.b, p.c)));
    for (const graph::Node& n : p.graph.nodes) {
        out.insert(key("node kind", std::string(graph::node_kind_name(n.kind))));
        if (n.kind == graph::NodeKind::Compute)
            out.insert(key("functor x arity",
                           arity_cell(n.fn, std::min(static_cast<int>(n.inputs.size()), kMaxArityCell))));
    }
    // A tree runs as a TreeVisitor (and, with `twin`, as a TopologicalVisitor too); any other graph as a
    // TopologicalVisitor (graph::runs_as_tree, what the emitter decides by).
    const bool tree = graph::runs_as_tree(p.graph);
    if (tree) out.insert(key("visitor", "TreeVisitor"));
    if (!tree || twin) out.insert(key("visitor", "TopologicalVisitor"));
    return out;
}

bool scheduled_ub_path(uint64_t d) {
    return d % static_cast<uint64_t>(kernel_family_cells()) >= reachable_families().size();
}

void schedule_spec(props::Spec& spec, uint64_t d) {
    spec.ub_path = scheduled_ub_path(d);
    // The spec suits its cell's family: no int8 under the unit flag (rule unit-flag-int8), the small tile
    // under two L0C stages (the large tile's C fills L0C once: rule l0c-capacity).
    const std::vector<const Family*> families = reachable_families();
    const Family& f = *families[d % families.size()];
    if (f.unit_flag) spec.int8_gemm = false;
    if (f.l0c_stages > 1) spec.arch_tile = false;
    // The dtype cells: int8 A and B at the first no-unit-flag cell, half C at the next (early, before the
    // cover graphs take the last instances of a short run).
    const uint64_t cell = d % static_cast<uint64_t>(kernel_family_cells());
    if (cell == 2) spec.int8_gemm = true;
    if (cell == 3) {
        spec.int8_gemm = false;
        spec.c_half = true;
    }
}

void schedule_kernel(props::Case& c, uint64_t d) {
    graph::Problem& p = c.problem;
    const std::vector<const Family*> families = reachable_families();
    const uint64_t cells = kPaths.size() * families.size();
    const uint64_t cell = d % cells;
    rc::Random random(d * 0x9e3779b97f4a7c15u + 0x6b65726e656cu);
    const uint64_t layouts = (d + d / cells) % 4;
    for (std::size_t tried = 0; tried < families.size(); ++tried) {
        const Family& f = *families[(cell % families.size() + tried) % families.size()];
        // The stage counts and L0 K of the family, drawn until the table of rules takes them (a few draws:
        // the capacities refuse only the large ones on the large tile), else the family's defaults.
        for (int attempt = 0; attempt <= 16; ++attempt) {
            KernelConfig k = family_config(f);
            k.layout_a = layouts & 1 ? graph::MatrixLayout::ColumnMajor : graph::MatrixLayout::RowMajor;
            k.layout_b = layouts & 2 ? graph::MatrixLayout::ColumnMajor : graph::MatrixLayout::RowMajor;
            if (attempt < 16) {
                constexpr std::array<uint32_t, 4> kStages = {1, 2, 3, 4};
                k.l1a_stages = pick(random, kStages);
                k.l1b_stages = pick(random, kStages);
                k.l0a_stages = pick(random, kStages);
                k.l0b_stages = pick(random, kStages);
                // L0 K: one, two or four 32-byte fractal columns of A.
                constexpr std::array<uint32_t, 3> kFractals = {1, 2, 4};
                k.l0_k = 32 / static_cast<uint32_t>(hw::dtype_size(p.a)) * pick(random, kFractals);
            }
            p.kernel = k;
            if (!graph::kernel_config_refusal(p)) return;
        }
    }
    p.kernel = KernelConfig{};  // not reached: the first family's defaults pass every rule on every tile
    p.kernel.unit_flag = p.a != DType::i8;
}

props::Case cover_case(const std::vector<CoverCell>& cells, bool ub, bool cast, bool row_broadcast) {
    std::string text = fmt::format(
        "problem arch=Ascend950 m=48 n=80 k=32 a=half b=half c=float cl=512 path={} tile=32x64x64\n"
        "input  X : float[48, 80]\n{}"
        "output D : {}[48, 80]\n"
        "%0 = AccLoad float{}\n",
        ub ? "ub" : "gm", row_broadcast ? "input  bias : float[1, 80]\n" : "", cast ? "half" : "float",
        ub ? " ub" : "");
    int node = 1, last = 0;
    for (const CoverCell& cell : cells) {
        std::string scalars;
        for (int s = 0; s < graph::functor_info(cell.fn).scalars; ++s) scalars += s ? ", 0.5" : " [0.5";
        if (!scalars.empty()) scalars += "]";
        // Each input beyond the chain a load of its own, so that the graph is a tree.
        std::string inputs = fmt::format("%{}", last);
        for (int k = 1; k < cell.arity; ++k) {
            text += fmt::format("%{} = AuxLoad float X\n", node);
            inputs += fmt::format(", %{}", node++);
        }
        text += fmt::format("%{} = Compute {} float{} ({})\n", node, graph::functor_name(cell.fn), scalars,
                            inputs);
        last = node++;
    }
    if (row_broadcast) {
        text += fmt::format("%{} = RowBroadcast float bias\n", node);
        text += fmt::format("%{} = Compute Add float (%{}, %{})\n", node + 1, last, node);
        last = node + 1;
        node += 2;
    }
    if (last == 0) {  // no Compute yet: the store would read the load's buffer (finding 4)
        text +=
            fmt::format("%{} = AuxLoad float X\n%{} = Compute Add float (%0, %{})\n", node, node + 1, node);
        last = node + 1;
        node += 2;
    }
    std::string stored = "float";
    if (cast) {
        text += fmt::format("%{} = Cast half <- float CAST_RINT (%{})\n", node, last);
        last = node++;
        stored = "half";
    }
    text += fmt::format("%{} = AuxStore {} D (%{})\n", node, stored, last);
    props::Case c;
    c.problem = graph::parse_problem(text);
    c.data = verify::DataMode::Special;
    c.cores = 2;
    return c;
}

std::vector<CoverGraph> cover_cases(const std::vector<props::Case>& drawn, uint64_t first, int per_graph) {
    std::set<std::string> have;
    for (const props::Case& c : drawn) have.merge(cells_of(c, false));
    // The functor x arity cells left out.
    std::vector<CoverCell> missing;
    for (const graph::FunctorInfo& f : graph::all_functors()) {
        if (!graph::implements(graph::Implementation::upstream, f.fn)) continue;
        for (int arity = f.min_inputs; arity <= std::min(f.max_inputs, kMaxArityCell); ++arity)
            if (!have.count(key("functor x arity", arity_cell(f.fn, arity))))
                missing.push_back({f.fn, arity});
    }
    // The node kinds a chain can take that the draws left out, and the TreeVisitor (a chain is a tree).
    const bool cast = !have.count(key("node kind", "Cast"));
    const bool row_broadcast = !have.count(key("node kind", "RowBroadcast"));
    const bool tree = !have.count(key("visitor", "TreeVisitor"));
    std::vector<CoverGraph> out;
    const std::size_t step = static_cast<std::size_t>(std::max(per_graph, 1));
    for (std::size_t at = 0; at < missing.size() || (out.empty() && (cast || row_broadcast || tree));
         at += step) {
        const uint64_t d = first + out.size();
        const bool first_graph = out.empty();
        CoverGraph g;
        g.cells.assign(missing.begin() + static_cast<std::ptrdiff_t>(std::min(at, missing.size())),
                       missing.begin() + static_cast<std::ptrdiff_t>(std::min(missing.size(), at + step)));
        g.c = cover_case(g.cells, scheduled_ub_path(d), first_graph && cast, first_graph && row_broadcast);
        g.c.data_seed = d;
        g.c.sched_seed = d + 1;
        schedule_kernel(g.c, d);
        out.push_back(std::move(g));
    }
    return out;
}

void Coverage::add(const props::Case& c, bool twin, int cases) {
    add_cells(cells_of(c, twin), cases);
}

void Coverage::add_cells(const std::set<std::string>& keys, int cases) {
    for (const std::string& k : keys) cases_[k] += cases;
}

void Coverage::merge(const Coverage& other) {
    for (const auto& [k, n] : other.cases_) cases_[k] += n;
}

int Coverage::cases(const std::string& k) const {
    const auto it = cases_.find(k);
    return it == cases_.end() ? 0 : it->second;
}

std::vector<std::string> Coverage::left_out() const {
    std::vector<std::string> out;
    for (const Cell& cell : all_cells())
        if (cell.unreachable.empty() && cases(cell_key(cell)) == 0) out.push_back(cell_key(cell));
    return out;
}

std::string Coverage::summary() const {
    std::string out;
    std::string dimension;
    int covered = 0, reachable = 0;
    std::string left, unreachable;
    std::string line;
    const auto flush = [&] {
        if (dimension.empty()) return;
        out += fmt::format("  {}: {} of {} cells covered{}\n", dimension, covered, reachable, line);
        if (!left.empty()) out += fmt::format("    left out: {}\n", left);
        if (!unreachable.empty()) out += unreachable;
    };
    for (const Cell& cell : all_cells()) {
        if (cell.dimension != dimension) {
            flush();
            dimension = cell.dimension;
            covered = reachable = 0;
            left.clear();
            unreachable.clear();
            line.clear();
        }
        if (!cell.unreachable.empty()) {
            unreachable += fmt::format("    not reachable: {}: {}\n", cell.name, cell.unreachable);
            continue;
        }
        ++reachable;
        const int n = cases(cell_key(cell));
        if (n > 0) {
            ++covered;
            line += fmt::format("{} {} ({})", line.empty() ? ":" : ",", cell.name, n);
        } else {
            left += (left.empty() ? "" : ", ") + cell.name;
        }
    }
    flush();
    return out;
}

}  // namespace evg::upstream::corpus
