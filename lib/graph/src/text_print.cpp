// Canonical printing of graphs and problems (see text.hpp for the format).
#include <fmt/format.h>

#include <cmath>
#include <tuple>

#include "evg/graph/text.hpp"

namespace evg::graph {
namespace {

std::string dt(DType t) {
    return std::string(hw::dtype_name(t));
}

std::string inputs_text(const std::vector<int>& inputs) {
    if (inputs.empty()) return {};
    std::string s = " (";
    for (std::size_t k = 0; k < inputs.size(); ++k) s += fmt::format("{}%{}", k == 0 ? "" : ", ", inputs[k]);
    return s + ")";
}

std::string tensor_line(const Tensor& t) {
    std::string s =
        fmt::format("{:<6} {} : {}[{}, {}]", tensor_role_name(t.role), t.name, dt(t.element), t.rows, t.cols);
    if (t.row_stride != t.cols) s += fmt::format(" stride={}", t.row_stride);
    return s;
}

}  // namespace

std::string print_scalar(double v) {
    if (std::isnan(v)) return std::signbit(v) ? "-nan" : "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    return fmt::format("{}", v);  // shortest representation that reads back to the same double
}

namespace {
// The node line between `%i = ` and its inputs: "Compute AddRelu float", "AuxStore half D".
std::string node_body(const Node& n) {
    std::string s(node_kind_name(n.kind));
    switch (node_kind_info(n.kind).syntax) {
        case NodeSyntax::Workspace:
            s += fmt::format(" {}", dt(n.element));
            if (n.use_ub) s += " ub";
            break;
        case NodeSyntax::Cast:
            s += fmt::format(" {} <- {} {}", dt(n.element), dt(n.from), hw::round_mode_name(n.round));
            break;
        case NodeSyntax::FunctorScalars:
            s += fmt::format(" {} {}", functor_name(n.fn), dt(n.element));
            if (!n.scalars.empty()) {
                s += " [";
                for (std::size_t k = 0; k < n.scalars.size(); ++k)
                    s += fmt::format("{}{}", k == 0 ? "" : ", ", print_scalar(n.scalars[k]));
                s += "]";
            }
            break;
        case NodeSyntax::FunctorTensor:
            s += fmt::format(" {} {} {}", functor_name(n.fn), dt(n.element), n.tensor);
            break;
        case NodeSyntax::Tensor:
            s += fmt::format(" {} {}", dt(n.element), n.tensor);
            break;
    }
    return s;
}
}  // namespace

std::string print_node(const Node& n, int index) {
    return fmt::format("%{} = {}{}", index, node_body(n), inputs_text(n.inputs));
}

std::string node_label(const Node& n, int index, std::string_view source) {
    std::string s = fmt::format("%{} {}", index, node_body(n));
    if (n.pos.line > 0) {
        if (source.empty())
            s += fmt::format(" (line {}:{})", n.pos.line, n.pos.column);
        else
            s += fmt::format(" ({}:{}:{})", source, n.pos.line, n.pos.column);
    }
    return s;
}

std::string print(const Graph& g) {
    std::string s;
    for (const Tensor& t : g.tensors) s += tensor_line(t) + "\n";
    for (std::size_t i = 0; i < g.nodes.size(); ++i) s += print_node(g.nodes[i], static_cast<int>(i)) + "\n";
    return s;
}

std::string print(const Problem& p) {
    std::string s = fmt::format("problem arch={} m={} n={} k={} a={} b={} c={} cl={} path={} tile={}x{}x{}\n",
                                hw::arch_name(p.arch), p.m, p.n, p.k, dt(p.a), dt(p.b), dt(p.c),
                                p.compute_length, workspace_path_name(p.path), p.tile.m, p.tile.n, p.tile.k);
    // The kernel configuration's keys where they differ from the default (a text without them means it).
    const KernelConfig& k = p.kernel;
    const KernelConfig d;
    std::string kernel;
    if (k.mmad != d.mmad) kernel += fmt::format(" mmad={}", mmad_policy_name(k.mmad));
    if (k.unit_flag != d.unit_flag) kernel += fmt::format(" unit_flag={:d}", k.unit_flag);
    if (k.hf32 != d.hf32) kernel += fmt::format(" hf32={:d}", k.hf32);
    if (k.l1_resident != d.l1_resident) kernel += fmt::format(" l1_resident={:d}", k.l1_resident);
    if (std::tie(k.l1a_stages, k.l1b_stages, k.l0a_stages, k.l0b_stages, k.l0c_stages) !=
        std::tie(d.l1a_stages, d.l1b_stages, d.l0a_stages, d.l0b_stages, d.l0c_stages))
        kernel += fmt::format(" stages={}x{}x{}x{}x{}", k.l1a_stages, k.l1b_stages, k.l0a_stages,
                              k.l0b_stages, k.l0c_stages);
    if (k.l0_k != d.l0_k) kernel += fmt::format(" l0k={}", k.l0_k);
    if (k.layout_a != d.layout_a) kernel += fmt::format(" layout_a={}", matrix_layout_name(k.layout_a));
    if (k.layout_b != d.layout_b) kernel += fmt::format(" layout_b={}", matrix_layout_name(k.layout_b));
    if (!kernel.empty()) s.insert(s.size() - 1, kernel);
    return s + print(p.graph);
}

}  // namespace evg::graph
