#include "evg/graph/validate.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "evg/graph/error.hpp"
#include "evg/graph/kernel_config.hpp"
#include "evg/graph/ub_budget.hpp"
#include "evg/hw/numeric/cast_rules.hpp"
#include "evg/hw/numeric/vector_rules.hpp"
#include "suggest.hpp"

namespace evg::graph {
namespace {

std::string dtype_text(DType t) {
    return std::string(hw::dtype_name(t));
}

std::string label(const Node& n, int i) {
    if (node_kind_info(n.kind).syntax == NodeSyntax::Cast)
        return fmt::format("%{} {} {} <- {}", i, node_kind_name(n.kind), dtype_text(n.element),
                           dtype_text(n.from));
    if (has_functor(n.kind))
        return fmt::format("%{} {} {} {}", i, node_kind_name(n.kind), functor_name(n.fn),
                           dtype_text(n.element));
    return fmt::format("%{} {} {}", i, node_kind_name(n.kind), dtype_text(n.element));
}

std::string plural(int n, std::string_view word) {
    return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

bool is_identifier(std::string_view s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}

// The name a tensor gets in emitted C++ (ptrX, layoutX): the first letter upper-cased.
std::string cpp_suffix(std::string_view name) {
    std::string s(name);
    if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
    return s;
}

class Checker {
  public:
    explicit Checker(const Graph& g) : g_(g) {}

    std::vector<Diagnostic> take() { return std::move(out_); }

    // Returns false when the graph is too broken (no nodes) for further checks.
    bool check_structure() {
        if (g_.nodes.empty()) {
            add(Severity::Error, "root", -1, {}, "the graph has no nodes; the last node is the root");
            return false;
        }
        const int count = static_cast<int>(g_.nodes.size());
        for (int i = 0; i < count; ++i) {
            const Node& n = g_.nodes[i];
            for (std::size_t k = 0; k < n.inputs.size(); ++k) {
                const int in = n.inputs[k];
                if (in < 0 || in >= count)
                    add(Severity::Error, "bad-input-index", i, n.pos,
                        fmt::format("{}: input {} is %{}, but the graph has only {} (%0..%{})", label(n, i),
                                    k + 1, in, plural(count, "node"), count - 1));
            }
        }
        check_cycles();
        check_forward_references();
        check_reachability();
        return true;
    }

    void check_nodes() {
        for (int i = 0; i < static_cast<int>(g_.nodes.size()); ++i) check_node(i);
    }

    void check_tensors() {
        for (std::size_t t = 0; t < g_.tensors.size(); ++t) {
            const Tensor& x = g_.tensors[t];
            if (!is_identifier(x.name))
                add(Severity::Error, "tensor-name", -1, x.pos,
                    fmt::format("tensor name '{}' is not a C++ identifier", x.name));
            for (std::size_t u = 0; u < t; ++u) {
                const Tensor& y = g_.tensors[u];
                if (y.name == x.name) {
                    add(Severity::Error, "duplicate-tensor", -1, x.pos,
                        y.pos.line > 0 ? fmt::format("tensor '{}' is declared twice (first at line {})",
                                                     x.name, y.pos.line)
                                       : fmt::format("tensor '{}' is declared twice", x.name));
                    break;
                }
                if (cpp_suffix(y.name) == cpp_suffix(x.name)) {
                    add(Severity::Error, "duplicate-tensor", -1, x.pos,
                        fmt::format("tensors '{}' and '{}' would both be named ptr{} and layout{} in C++",
                                    y.name, x.name, cpp_suffix(x.name), cpp_suffix(x.name)));
                    break;
                }
            }
            if (x.row_stride < x.cols)
                add(Severity::Error, "tensor-stride", -1, x.pos,
                    fmt::format("tensor '{}' has row stride {}, less than its {} columns", x.name,
                                x.row_stride, x.cols));
            bool used = false;
            std::vector<int> writers;
            for (int i = 0; i < static_cast<int>(g_.nodes.size()); ++i) {
                const Node& n = g_.nodes[i];
                if (!has_tensor(n.kind) || n.tensor != x.name) continue;
                used = true;
                if (writes_tensor(n.kind)) writers.push_back(i);
            }
            // A declared output no node writes would leave its buffer as it started, so no run of the graph
            // could be judged against it: an error, not a warning (an unused input is harmless).
            if (!used && x.role == TensorRole::Output)
                add(Severity::Error, "output-without-writer", -1, x.pos,
                    fmt::format(
                        "output '{}' is declared but no AuxStore or reduce node writes it (write it, or "
                        "remove its declaration)",
                        x.name));
            else if (!used)
                add(Severity::Warning, "unused-tensor", -1, x.pos,
                    fmt::format("{} '{}' is declared but no node uses it", tensor_role_name(x.role), x.name));
            if (writers.size() > 1) {
                std::string list;
                for (std::size_t w = 0; w < writers.size(); ++w)
                    list += fmt::format("{}%{}", w == 0 ? "" : (w + 1 == writers.size() ? " and " : ", "),
                                        writers[w]);
                add(Severity::Warning, "multiple-writers", writers[1], g_.nodes[writers[1]].pos,
                    fmt::format("output '{}' is written by {}", x.name, list));
            }
        }
        bool output = false;
        for (int i = 0; i < static_cast<int>(g_.nodes.size()); ++i)
            if (reachable_.size() == g_.nodes.size() && reachable_[i] && writes_tensor(g_.nodes[i].kind))
                output = true;
        if (!g_.nodes.empty() && !output)
            add(Severity::Error, "no-output", g_.root(), g_.nodes.back().pos,
                fmt::format(
                    "no AuxStore or reduce node is reachable from the root %{}; the graph writes nothing",
                    g_.root()));
    }

    void check_arch(ArchId arch) {
        for (int i = 0; i < static_cast<int>(g_.nodes.size()); ++i) {
            const Node& n = g_.nodes[i];
            const ElementRule rule = node_kind_info(n.kind).element_rule;
            if (rule == ElementRule::CastTable && n.from != n.element) {
                const hw::CastRule r = hw::cast_rule(arch, n.from, n.element, n.round);
                if (!r.legal)
                    add(Severity::Error, "cast-illegal", i, n.pos,
                        fmt::format("{}: {}", label(n, i), r.reason));
            }
            // Col/ScalarBroadcast fill rows with Duplicate (the vector instruction table).
            if (rule == ElementRule::Duplicate && !duplicate_dtype_legal(arch, n.element))
                add(Severity::Error, "broadcast-dtype", i, n.pos,
                    fmt::format("{}: {} fills rows with Duplicate, which does not accept {} (it accepts {}); "
                                "broadcast a wider type and Cast",
                                label(n, i), node_kind_name(n.kind), dtype_text(n.element),
                                by_width([&](DType t) { return duplicate_dtype_legal(arch, t); })));
            const bool arithmetic = rule == ElementRule::Functor || rule == ElementRule::Reduce;
            if (!arithmetic) continue;
            if (n.element == DType::bf16 && !hw::arithmetic_dtype_legal(arch, DType::bf16)) {
                add(Severity::Error, "bf16-arithmetic", i, n.pos,
                    fmt::format("{}: {} has no bfloat16 arithmetic; cast to float first", label(n, i),
                                hw::arch_name(arch)));
                continue;
            }
            if (rule == ElementRule::Functor) {
                if (functor_info(n.fn).ascend950_only && arch != ArchId::Ascend950) {
                    add(Severity::Error, "arch-functor", i, n.pos,
                        fmt::format("{}: {} exists only on Ascend950 (CATLASS_ARCH 3510), not on {}",
                                    label(n, i), functor_name(n.fn), hw::arch_name(arch)));
                    continue;
                }
                if (!functor_dtype_legal(arch, n.fn, n.element))
                    add(Severity::Error, "functor-dtype", i, n.pos,
                        fmt::format(
                            "{}: {} does not accept {} on {} (it accepts {})", label(n, i),
                            functor_name(n.fn), dtype_text(n.element), hw::arch_name(arch),
                            accepted(arch, [&](DType t) { return functor_dtype_legal(arch, n.fn, t); })));
            } else if (!reduce_dtype_legal(arch, n.kind, n.element)) {
                add(Severity::Error, "functor-dtype", i, n.pos,
                    fmt::format(
                        "{}: {} does not accept {} on {} (it accepts {})", label(n, i),
                        node_kind_name(n.kind), dtype_text(n.element), hw::arch_name(arch),
                        accepted(arch, [&](DType t) { return reduce_dtype_legal(arch, n.kind, t); })));
            }
        }
    }

    // The key a kernel rule's message points at: the first of its keys (KernelRule::keys) the text wrote.
    static SourcePos kernel_key(const Problem& p, const KernelRule& r) {
        for (SourcePos ProblemKeys::*key : r.keys)
            if ((p.keys.*key).line > 0) return p.keys.*key;
        return {};
    }

    void check_problem(const Problem& p) {
        const auto at = [&](const SourcePos& key) { return ProblemKeys::or_line(key, p.pos); };
        if (p.m <= 0 || p.n <= 0 || p.k <= 0)
            add(Severity::Error, "problem-shape", -1,
                at(p.m <= 0   ? p.keys.m
                   : p.n <= 0 ? p.keys.n
                              : p.keys.k),
                fmt::format("m, n and k must be positive, got m={} n={} k={}", p.m, p.n, p.k));
        if (p.tile.m == 0 || p.tile.n == 0 || p.tile.k == 0)
            add(Severity::Error, "tile-shape", -1, at(p.keys.tile),
                fmt::format("L1 tile {}x{}x{}: every dimension must be positive", p.tile.m, p.tile.n,
                            p.tile.k));
        if (p.path == WorkspacePath::UB && p.arch != ArchId::Ascend950)
            add(Severity::Error, "acc-path", -1, at(p.keys.path.line > 0 ? p.keys.path : p.keys.arch),
                fmt::format("path=ub (BasicMatmulTlaUbVisitor) exists only on Ascend950, not on {}",
                            hw::arch_name(p.arch)));
        for (int i = 0; i < static_cast<int>(g_.nodes.size()); ++i) {
            const Node& n = g_.nodes[i];
            // The kind whose text names the workspace reads the GEMM result C.
            if (node_kind_info(n.kind).syntax == NodeSyntax::Workspace) {
                if (n.element != p.c)
                    add(Severity::Error, "acc-dtype", i, n.pos,
                        fmt::format("{}: the GEMM result C is {}; {} must read {}", label(n, i),
                                    dtype_text(p.c), node_kind_name(n.kind), dtype_text(p.c)));
                const bool ub_path = p.path == WorkspacePath::UB;
                if (n.use_ub != ub_path)
                    add(Severity::Error, "acc-path", i, n.pos,
                        fmt::format("{}: {} reads the {} workspace, but the problem uses path={}",
                                    label(n, i), node_kind_name(n.kind), n.use_ub ? "UB" : "GM",
                                    workspace_path_name(p.path)));
            }
            if (has_tensor(n.kind)) check_tensor_shape(p, i);
        }
        if (p.compute_length == 0 || p.compute_length % 32 != 0) {
            add(Severity::Error, "compute-length-multiple", -1, at(p.keys.cl),
                p.compute_length == 0
                    ? std::string("computeLength 0 must be a positive multiple of 32 (BYTE_PER_C0 elements)")
                    : fmt::format("computeLength {} is not a multiple of 32 (BYTE_PER_C0 elements); try {}",
                                  p.compute_length,
                                  p.compute_length / 32 * 32 == 0 ? 32 : p.compute_length / 32 * 32));
        }
        if (p.compute_length > 0) {
            const UbBudget b = ub_budget(p);
            if (!b.fits())
                add(Severity::Error, "ub-overflow", -1, at(p.keys.cl),
                    ub_overflow_message(b, p.arch, p.path));
        }
        // The kernel configuration a problem states (graph/kernel_config.hpp): every rule it breaks. A
        // problem without kernel keys runs evgcheck's own kernels or the upstream corpus's default
        // configuration.
        for (const KernelRule& r : kernel_rules())
            if (!(p.kernel == KernelConfig{}) && !r.holds(p)) {
                add(r.compile_time ? Severity::Error : Severity::Warning,
                    r.compile_time ? "kernel-config" : "kernel-config-documented", -1, at(kernel_key(p, r)),
                    fmt::format("kernel configuration {}: {}: {} ({})", kernel_config_summary(p.kernel), r.id,
                                r.statement, r.source));
            }
    }

  private:
    template <class Pred>
    static std::string accepted(ArchId, Pred pred) {
        std::string list;
        for (DType t : hw::kAllDTypes)
            if (pred(t)) list += (list.empty() ? "" : ", ") + dtype_text(t);
        return list.empty() ? std::string("nothing") : list;
    }

    // The types `pred` accepts, narrowest first and integers before floats of one width, as
    // docs/hardware-model.md §6.3 lists them: "int16, half, bfloat16, int32, float".
    template <class Pred>
    static std::string by_width(Pred pred) {
        static constexpr DType kByWidth[] = {DType::i8,   DType::u8,  DType::i16, DType::f16,
                                             DType::bf16, DType::i32, DType::f32, DType::i64};
        std::string list;
        for (DType t : kByWidth)
            if (pred(t)) list += (list.empty() ? "" : ", ") + dtype_text(t);
        return list;
    }

    void add(Severity s, std::string_view rule, int node, SourcePos pos, std::string message) {
        out_.push_back(Diagnostic{s, std::string(rule), node, pos.line, pos.column, std::move(message)});
    }

    bool valid_input(int in) const { return in >= 0 && in < static_cast<int>(g_.nodes.size()); }

    void check_cycles() {
        const int count = static_cast<int>(g_.nodes.size());
        // 0 = unvisited, 1 = on the DFS stack, 2 = done.
        std::vector<int> color(count, 0);
        in_cycle_.assign(count, false);
        struct Frame {
            int node;
            std::size_t next;
        };
        for (int start = 0; start < count; ++start) {
            if (color[start] != 0) continue;
            std::vector<Frame> stack{{start, 0}};
            color[start] = 1;
            while (!stack.empty()) {
                Frame& f = stack.back();
                const Node& n = g_.nodes[f.node];
                if (f.next == n.inputs.size()) {
                    color[f.node] = 2;
                    stack.pop_back();
                    continue;
                }
                const int in = n.inputs[f.next++];
                if (!valid_input(in)) continue;
                if (color[in] == 0) {
                    color[in] = 1;
                    stack.push_back({in, 0});
                } else if (color[in] == 1) {
                    report_cycle(stack, in);
                }
            }
        }
    }

    template <class Stack>
    void report_cycle(const Stack& stack, int target) {
        // The cycle is target -> ... -> top of stack -> target (each arrow: "uses").
        std::vector<int> members;
        bool on = false;
        for (const auto& f : stack) {
            if (f.node == target) on = true;
            if (on) members.push_back(f.node);
        }
        for (int m : members)
            if (in_cycle_[m]) return;  // already reported through another back edge
        for (int m : members) in_cycle_[m] = true;
        const int first = members.front();
        std::string msg;
        if (members.size() == 1) {
            msg = fmt::format("cycle: {} uses itself", label(g_.nodes[first], first));
        } else {
            msg = "cycle: ";
            for (std::size_t k = 0; k < members.size(); ++k) {
                const int uses = members[(k + 1) % members.size()];
                msg += fmt::format("{}%{} uses %{}", k == 0 ? "" : ", ", members[k], uses);
            }
            msg += "; a node's inputs must be computed before it";
        }
        add(Severity::Error, "cycle", first, g_.nodes[first].pos, msg);
    }

    void check_forward_references() {
        for (int i = 0; i < static_cast<int>(g_.nodes.size()); ++i) {
            if (in_cycle_[i]) continue;
            const Node& n = g_.nodes[i];
            for (int in : n.inputs)
                if (valid_input(in) && in > i && !in_cycle_[in]) {
                    add(Severity::Warning, "forward-reference", i, n.pos,
                        fmt::format("{} uses %{}, which is listed after it; list nodes in topological order",
                                    label(n, i), in));
                    break;
                }
        }
    }

    void check_reachability() {
        const int count = static_cast<int>(g_.nodes.size());
        reachable_.assign(count, false);
        std::vector<int> todo{count - 1};
        reachable_[count - 1] = true;
        while (!todo.empty()) {
            const int i = todo.back();
            todo.pop_back();
            for (int in : g_.nodes[i].inputs)
                if (valid_input(in) && !reachable_[in]) {
                    reachable_[in] = true;
                    todo.push_back(in);
                }
        }
        for (int i = 0; i < count; ++i) {
            if (reachable_[i]) continue;
            const Node& n = g_.nodes[i];
            if (writes_tensor(n.kind))  // its output would silently keep whatever it held before the run
                add(Severity::Error, "unreachable-store", i, n.pos,
                    fmt::format(
                        "{} is not reachable from the root %{}, so '{}' would never be written; make the "
                        "root depend on it (a store passes its input on) or remove it",
                        label(n, i), count - 1, n.tensor));
            else
                add(Severity::Warning, "unreachable", i, n.pos,
                    fmt::format(
                        "{} is not reachable from the root %{}; it still takes UB but is never visited",
                        label(n, i), count - 1));
        }
    }

    void check_node(int i) {
        const Node& n = g_.nodes[i];
        const int got = static_cast<int>(n.inputs.size());
        // Arity: the kind's, or its functor's.
        const NodeKindInfo& info = node_kind_info(n.kind);
        const bool functor_arity = info.min_inputs == kArityFromFunctor;
        const int lo = functor_arity ? functor_info(n.fn).min_inputs : info.min_inputs;
        const int hi = functor_arity ? functor_info(n.fn).max_inputs : info.max_inputs;
        if (got < lo || got > hi) {
            const std::string what = functor_arity
                                         ? fmt::format("%{} {} {}", i, info.name, functor_name(n.fn))
                                         : fmt::format("%{} {}", i, info.name);
            std::string need = hi == 0            ? std::string("takes no inputs")
                               : lo == hi         ? fmt::format("takes exactly {}", plural(lo, "input"))
                               : hi == kUnbounded ? fmt::format("takes at least {}", plural(lo, "input"))
                                                  : fmt::format("takes {} to {} inputs", lo, hi);
            add(Severity::Error, "arity", i, n.pos, fmt::format("{} {}, got {}", what, need, got));
        }
        // Scalars.
        if (info.syntax == NodeSyntax::FunctorScalars) {
            const int want = functor_info(n.fn).scalars;
            const int have = static_cast<int>(n.scalars.size());
            if (want != have)
                add(Severity::Error, "scalar-count", i, n.pos,
                    fmt::format("{} takes {}, got {}", label(n, i),
                                want == 0 ? std::string("no scalars") : plural(want, "scalar"), have));
            if (!hw::dtype_is_float(n.element))
                for (double v : n.scalars)
                    if (!integral_in_range(v, n.element))
                        add(Severity::Error, "scalar-value", i, n.pos,
                            fmt::format("{}: scalar {} is not an {} value", label(n, i), v,
                                        dtype_text(n.element)));
        }
        // Element types of the inputs.
        const DType want = info.input_type == InputType::From ? n.from : n.element;
        for (std::size_t k = 0; k < n.inputs.size(); ++k) {
            const int in = n.inputs[k];
            if (!valid_input(in) || info.input_type == InputType::None) continue;
            const DType t = g_.nodes[in].element;
            if (t != want)
                add(Severity::Error, info.input_rule, i, n.pos,
                    fmt::format(fmt::runtime(info.input_message), label(n, i), k + 1, in, dtype_text(t),
                                dtype_text(want)));
        }
        if (info.element_rule == ElementRule::CastTable && n.from == n.element)
            add(Severity::Error, "cast-same-type", i, n.pos,
                fmt::format("{}: source and destination are both {} (no need to cast)", label(n, i),
                            dtype_text(n.element)));
        if (info.syntax == NodeSyntax::FunctorTensor && !functor_info(n.fn).reduce)
            add(Severity::Error, "reduce-functor", i, n.pos,
                fmt::format("{}: the reduce functor must be Add, Max or Min, not {}", label(n, i),
                            functor_name(n.fn)));
        if (has_tensor(n.kind)) check_tensor_use(i);
    }

    static bool integral_in_range(double v, DType t) {
        if (!std::isfinite(v) || std::trunc(v) != v) return false;
        double lo = 0, hi = 0;
        switch (t) {
            case DType::i8:
                lo = -128, hi = 127;
                break;
            case DType::u8:
                lo = 0, hi = 255;
                break;
            case DType::i16:
                lo = -32768, hi = 32767;
                break;
            case DType::i32:
                lo = -2147483648.0, hi = 2147483647.0;
                break;
            case DType::i64:
                lo = -9223372036854775808.0, hi = 9223372036854775807.0;
                break;
            default:
                return true;
        }
        return v >= lo && v <= hi;
    }

    void check_tensor_use(int i) {
        const Node& n = g_.nodes[i];
        const Tensor* t = g_.find_tensor(n.tensor);
        const char* verb = reads_tensor(n.kind) ? "reads" : "writes";
        if (t == nullptr) {
            std::vector<std::string_view> names;
            for (const Tensor& x : g_.tensors) names.push_back(x.name);
            add(Severity::Error, "unknown-tensor", i, n.pos,
                fmt::format("{} {} tensor '{}', which is not declared{}", label(n, i), verb, n.tensor,
                            detail::did_you_mean(n.tensor, names)));
            return;
        }
        const TensorRole want = reads_tensor(n.kind) ? TensorRole::Input : TensorRole::Output;
        if (t->role != want)
            add(Severity::Error, "tensor-role", i, n.pos,
                fmt::format("{} {} '{}', which is declared as an {}", label(n, i), verb, t->name,
                            tensor_role_name(t->role)));
        if (t->element != n.element)
            add(Severity::Error, "tensor-dtype", i, n.pos,
                fmt::format("{} {} '{}', which holds {}", label(n, i), verb, t->name,
                            dtype_text(t->element)));
    }

    void check_tensor_shape(const Problem& p, int i) {
        const Node& n = g_.nodes[i];
        const Tensor* t = g_.find_tensor(n.tensor);
        if (t == nullptr) return;
        const NodeKindInfo& info = node_kind_info(n.kind);
        const bool one_row = info.rows == TensorExtent::One, one_col = info.cols == TensorExtent::One;
        const int64_t rows = one_row ? 1 : p.m, cols = one_col ? 1 : p.n;
        const std::string form = fmt::format("[{}, {}]", one_row ? "1" : "m", one_col ? "1" : "n");
        if (t->rows != rows || t->cols != cols)
            add(Severity::Error, "tensor-shape", i, n.pos,
                fmt::format("{} {} '{}' of shape [{}, {}]; {} needs {} = [{}, {}]", label(n, i),
                            reads_tensor(n.kind) ? "reads" : "writes", t->name, t->rows, t->cols,
                            node_kind_name(n.kind), form, rows, cols));
    }

    const Graph& g_;
    std::vector<Diagnostic> out_;
    std::vector<bool> in_cycle_;
    std::vector<bool> reachable_;
};

std::vector<Diagnostic> run(const Graph& g, std::optional<ArchId> arch, const Problem* p) {
    Checker c(g);
    const bool has_nodes = c.check_structure();
    c.check_tensors();
    if (has_nodes) c.check_nodes();
    if (arch) c.check_arch(*arch);
    if (p != nullptr) c.check_problem(*p);
    return c.take();
}

}  // namespace

std::string_view severity_name(Severity s) {
    return s == Severity::Error ? "error" : "warning";
}

std::string Diagnostic::format() const {
    const std::string where = line > 0 ? fmt::format("{}:{}: ", line, column) : std::string();
    return fmt::format("{}{} [{}] {}", where, severity_name(severity), rule, message);
}

std::vector<Diagnostic> validate(const Graph& g) {
    return run(g, std::nullopt, nullptr);
}
std::vector<Diagnostic> validate(const Graph& g, ArchId arch) {
    return run(g, arch, nullptr);
}
std::vector<Diagnostic> validate(const Problem& p) {
    return run(p.graph, p.arch, &p);
}

bool has_errors(std::span<const Diagnostic> diagnostics) {
    for (const Diagnostic& d : diagnostics)
        if (d.severity == Severity::Error) return true;
    return false;
}

void throw_on_error(std::span<const Diagnostic> diagnostics) {
    for (const Diagnostic& d : diagnostics)
        if (d.severity == Severity::Error) throw ValidationError(d.rule, d.format());
}

}  // namespace evg::graph
