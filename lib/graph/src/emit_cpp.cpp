#include "evg/graph/emit_cpp.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <vector>

#include "evg/graph/error.hpp"
#include "evg/graph/text.hpp"
#include "evg/graph/validate.hpp"

namespace evg::graph {
namespace {

constexpr std::string_view kNs = "Catlass::Epilogue::Fusion::";

std::string capitalized(std::string_view name) {
    std::string s(name);
    if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
    return s;
}

std::string layout_type(const Node& n) {
    return fmt::format("decltype({})", cpp_layout_name(n.tensor));
}

// A scalar as a C++ expression of the functor's element type.
std::string scalar_literal(double v, DType t) {
    if (hw::dtype_is_float(t)) {
        const float f = static_cast<float>(v);
        std::string lit;
        if (std::isnan(f))
            lit = "std::numeric_limits<float>::quiet_NaN()";
        else if (std::isinf(f))
            lit =
                f < 0 ? "-std::numeric_limits<float>::infinity()" : "std::numeric_limits<float>::infinity()";
        else {
            lit = fmt::format("{}", f);  // shortest form that reads back to the same float
            if (lit.find_first_of(".e") == std::string::npos) lit += ".0";
            lit += "f";
        }
        return t == DType::f32 ? lit : fmt::format("{}({})", cpp_element_name(t), lit);
    }
    return fmt::format("{}({})", cpp_element_name(t), static_cast<int64_t>(v));
}

// The Catlass type and its Arguments braces, in the kind's form (node_kind.hpp).
std::string node_type(const Node& n) {
    const NodeKindInfo& info = node_kind_info(n.kind);
    const std::string e(cpp_element_name(n.element));
    switch (info.catlass_form) {
        case CatlassForm::ElementUseUb:
            return fmt::format("{}{}<{}, {}>", kNs, info.catlass_name, e, n.use_ub ? "true" : "false");
        case CatlassForm::ElementLayout:
            return fmt::format("{}{}<{}, {}>", kNs, info.catlass_name, e, layout_type(n));
        case CatlassForm::ToFromMode:
            return fmt::format("{}{}<{}, {}, AscendC::RoundMode::{}>", kNs, info.catlass_name, e,
                               cpp_element_name(n.from), hw::round_mode_name(n.round));
        case CatlassForm::FunctorElementScalars: {
            std::string s = fmt::format("{}{}<{}{}, {}", kNs, info.catlass_name, kNs, functor_name(n.fn), e);
            for (std::size_t k = 0; k < n.scalars.size(); ++k) s += fmt::format(", {}", e);
            return s + ">";
        }
        case CatlassForm::FunctorElementLayout:
            return fmt::format("{}{}<{}{}, {}, {}>", kNs, info.catlass_name, kNs, functor_name(n.fn), e,
                               layout_type(n));
    }
    return {};
}

std::string node_arguments(const Node& n) {
    switch (node_kind_info(n.kind).catlass_form) {
        case CatlassForm::ElementUseUb:
        case CatlassForm::ToFromMode:
            return "{}";
        case CatlassForm::FunctorElementScalars: {
            if (n.scalars.empty()) return "{}";
            std::string s = "{{";
            for (std::size_t k = 0; k < n.scalars.size(); ++k)
                s += fmt::format("{}{}", k == 0 ? "" : ", ", scalar_literal(n.scalars[k], n.element));
            return s + "}}";
        }
        case CatlassForm::ElementLayout:
        case CatlassForm::FunctorElementLayout:
            break;
    }
    return fmt::format("{{{}, {}}}", cpp_pointer_name(n.tensor), cpp_layout_name(n.tensor));
}

// Lines of a template argument list with a trailing comment each; commas after all items but the last,
// comments aligned.
struct Line {
    int depth;
    std::string code;
    std::string comment;
};

std::string render(const std::vector<Line>& lines) {
    std::size_t width = 0;
    for (const Line& l : lines)
        if (!l.comment.empty()) width = std::max(width, l.depth * 4 + l.code.size());
    std::string out;
    for (const Line& l : lines) {
        std::string s = std::string(l.depth * 4, ' ') + l.code;
        if (!l.comment.empty())
            s += fmt::format("{}// {}", std::string(width - s.size() + 2, ' '), l.comment);
        out += s + "\n";
    }
    return out;
}

class TreeEmitter {
  public:
    explicit TreeEmitter(const Graph& g) : g_(g) {}

    // Appends the lines of op `i` at `depth`; `last` = no comma after it.
    void type_lines(int i, int depth, bool last, std::vector<Line>& out) const {
        const Node& n = g_.nodes[i];
        const std::string comma = last ? "" : ",";
        if (n.inputs.empty()) {
            out.push_back({depth, node_type(n) + comma, print_node(n, i)});
            return;
        }
        out.push_back({depth, std::string(kNs) + "TreeVisitor<", ""});
        out.push_back({depth + 1, node_type(n) + ",", print_node(n, i)});
        for (std::size_t k = 0; k < n.inputs.size(); ++k)
            type_lines(n.inputs[k], depth + 1, k + 1 == n.inputs.size(), out);
        out.push_back({depth, fmt::format(">{}", comma), ""});
    }

    std::string arguments(int i) const {
        const Node& n = g_.nodes[i];
        if (n.inputs.empty()) return node_arguments(n);
        std::string s = "{ ";
        for (int in : n.inputs) s += arguments(in) + ", ";
        return s + node_arguments(n) + " }";
    }

  private:
    const Graph& g_;
};

// Deeper trees are emitted as TopologicalVisitor (flat types), which keeps the emitter's recursion bounded.
constexpr int kMaxTreeDepth = 256;

// Levels of a tree graph (root = 1). Only called when is_tree(g).
int tree_depth(const Graph& g) {
    std::vector<std::pair<int, int>> todo{{g.root(), 1}};
    int depth = 0;
    while (!todo.empty()) {
        const auto [i, d] = todo.back();
        todo.pop_back();
        depth = std::max(depth, d);
        for (int in : g.nodes[i].inputs) todo.emplace_back(in, d + 1);
    }
    return depth;
}

void require_emittable(const Graph& g) {
    for (const Diagnostic& d : validate(g))
        if (d.severity == Severity::Error &&
            (d.rule == "root" || d.rule == "bad-input-index" || d.rule == "cycle"))
            throw GraphError(fmt::format("cannot emit C++ for this graph: {}", d.format()));
}

}  // namespace

std::string_view cpp_element_name(DType t) {
    switch (t) {
        case DType::f32:
            return "float";
        case DType::f16:
            return "half";
        case DType::bf16:
            return "bfloat16_t";
        case DType::i8:
            return "int8_t";
        case DType::u8:
            return "uint8_t";
        case DType::i16:
            return "int16_t";
        case DType::i32:
            return "int32_t";
        case DType::i64:
            return "int64_t";
    }
    return "void";
}

std::string cpp_pointer_name(std::string_view tensor) {
    return fmt::format("ptr{}", capitalized(tensor));
}
std::string cpp_layout_name(std::string_view tensor) {
    return fmt::format("layout{}", capitalized(tensor));
}

bool is_tree(const Graph& g) {
    const int count = static_cast<int>(g.nodes.size());
    if (count == 0) return false;
    std::vector<int> uses(count, 0);
    for (const Node& n : g.nodes)
        for (int in : n.inputs) {
            if (in < 0 || in >= count) return false;
            ++uses[in];
        }
    if (uses[count - 1] != 0) return false;
    for (int i = 0; i + 1 < count; ++i)
        if (uses[i] != 1) return false;
    // Every node used once and the root unused: it is a tree iff every node is reachable from the root.
    std::vector<bool> seen(count, false);
    std::vector<int> todo{count - 1};
    seen[count - 1] = true;
    int reached = 1;
    while (!todo.empty()) {
        const int i = todo.back();
        todo.pop_back();
        for (int in : g.nodes[i].inputs)
            if (!seen[in]) {
                seen[in] = true;
                ++reached;
                todo.push_back(in);
            }
    }
    return reached == count;
}

bool runs_as_tree(const Graph& g) {
    return is_tree(g) && tree_depth(g) <= kMaxTreeDepth;
}

namespace {

// The extents of tensor t as C++ expressions: its numbers, or with runtime_shapes `m` / `n` / `1u` from the
// kind of the node that names it (node_kind.hpp: TensorExtent), and `n + pad` for a padded row.
struct Extents {
    std::string rows, cols, stride;  // stride empty: dense
};

Extents extents_of(const Graph& g, const Tensor& t, bool runtime_shapes) {
    Extents e{fmt::format("{}", t.rows), fmt::format("{}", t.cols),
              t.row_stride == t.cols ? std::string() : fmt::format("{}", t.row_stride)};
    if (!runtime_shapes) return e;
    for (const Node& n : g.nodes) {
        if (!has_tensor(n.kind) || n.tensor != t.name) continue;
        const NodeKindInfo& info = node_kind_info(n.kind);
        e.rows = info.rows == TensorExtent::Problem ? "m" : "1u";
        e.cols = info.cols == TensorExtent::Problem ? "n" : "1u";
        if (t.row_stride != t.cols) e.stride = fmt::format("{} + {}u", e.cols, t.row_stride - t.cols);
        break;
    }
    return e;
}

void require_implemented(Implementation dialect, const std::optional<std::string>& missing) {
    if (missing)
        throw GraphError(
            fmt::format("cannot emit C++ in the {} dialect: {}", implementation_name(dialect), *missing));
}

std::string layout_expression(const Tensor& t, const Extents& x, Implementation dialect) {
    const std::string_view e = cpp_element_name(t.element);
    if (x.stride.empty())
        return fmt::format("tla::MakeLayout<{}, Catlass::layout::RowMajor>({}, {})", e, x.rows, x.cols);
    if (dialect == Implementation::upstream)
        return fmt::format(
            "tla::MakeLayout(tla::MakeShape({1}, {2}), tla::MakeStride(static_cast<int64_t>({3}), "
            "tla::Int<1>{{}}), "
            "tla::MakeShape({1}, {2}))",
            e, x.rows, x.cols, x.stride);
    return fmt::format("tla::MakeLayout<{}, Catlass::layout::RowMajor>({}, {}, {})", e, x.rows, x.cols,
                       x.stride);
}

}  // namespace

CppEmission emit_cpp(const Graph& g, const EmitOptions& options) {
    require_emittable(g);
    require_implemented(options.dialect, first_missing(options.dialect, g, options.source));
    CppEmission e;
    {
        std::vector<Line> lines;
        for (const Tensor& t : g.tensors) {
            const Extents x = extents_of(g, t, options.runtime_shapes);
            std::string comment = fmt::format("{} {} : {}[{}, {}]", tensor_role_name(t.role), t.name,
                                              hw::dtype_name(t.element), x.rows, x.cols);
            if (!x.stride.empty()) comment += fmt::format(" stride={}", x.stride);
            lines.push_back({0,
                             fmt::format("auto {} = {};", cpp_layout_name(t.name),
                                         layout_expression(t, x, options.dialect)),
                             comment});
        }
        e.layouts = render(lines);
        // A graph that meets a known fault of the dialect's Catlass still emits (it is legal C++ and a legal
        // EVG), with the fault said where the reader of the code sees it.
        if (auto hazard = known_hazard(options.dialect, g, options.source))
            e.layouts = fmt::format("// warning: {}\n", *hazard) + e.layouts;
    }
    const int root = g.root();
    std::vector<Line> lines;
    if (!options.topological && runs_as_tree(g)) {
        TreeEmitter tree(g);
        if (g.nodes[root].inputs.empty()) {
            lines.push_back({0, fmt::format("using EVG = {};", node_type(g.nodes[root])),
                             print_node(g.nodes[root], root)});
        } else {
            std::vector<Line> body;
            tree.type_lines(root, 0, true, body);
            body.front().code = fmt::format("using EVG = {}", body.front().code);
            body.back().code += ";";
            lines = std::move(body);
        }
        e.evg = render(lines);
        e.arguments = fmt::format("typename EVG::Arguments args{};\n", tree.arguments(root));
        return e;
    }
    // Edges and ops are two blocks, each with its comments aligned.
    std::vector<Line> edges;
    edges.push_back({0, fmt::format("using EVG = {}TopologicalVisitor<", kNs), ""});
    edges.push_back({1, "tla::tuple<", ""});
    for (int i = 0; i <= root; ++i) {
        std::string seq = "tla::seq<";
        for (std::size_t k = 0; k < g.nodes[i].inputs.size(); ++k)
            seq += fmt::format("{}{}", k == 0 ? "" : ", ", g.nodes[i].inputs[k]);
        edges.push_back({2, seq + ">" + (i == root ? "" : ","), fmt::format("%{}", i)});
    }
    edges.push_back({1, ">,", ""});
    for (int i = 0; i <= root; ++i)
        lines.push_back({1, node_type(g.nodes[i]) + (i == root ? "" : ","), print_node(g.nodes[i], i)});
    lines.push_back({0, ">;", ""});
    e.evg = render(edges) + render(lines);
    std::vector<Line> args;
    args.push_back({0, "typename EVG::Arguments args{", ""});
    for (int i = 0; i <= root; ++i)
        args.push_back({1, node_arguments(g.nodes[i]) + ",", fmt::format("%{}", i)});
    args.push_back({0, "};", ""});
    e.arguments = render(args);
    return e;
}

CppEmission emit_cpp(const Problem& p, const EmitOptions& options) {
    require_implemented(options.dialect, first_missing(options.dialect, p, options.source));
    CppEmission e = emit_cpp(p.graph, options);
    const std::string header = fmt::format(
        "// {}: m={} n={} k={}, A {}, B {}, C {}, computeLength {}, {} ({}), L1 tile {}x{}x{}\n",
        hw::arch_name(p.arch), p.m, p.n, p.k, hw::dtype_name(p.a), hw::dtype_name(p.b), hw::dtype_name(p.c),
        p.compute_length, p.path == WorkspacePath::GM ? "GM workspace" : "UB workspace",
        p.path == WorkspacePath::GM ? "BasicMatmulTlaVisitor" : "BasicMatmulTlaUbVisitor", p.tile.m, p.tile.n,
        p.tile.k);
    e.layouts = header + e.layouts;
    return e;
}

}  // namespace evg::graph
