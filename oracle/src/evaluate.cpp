#include "evg/oracle/evaluate.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "evg/hw/error.hpp"
#include "evg/oracle/functors.hpp"
#include "evg/oracle/gemm.hpp"

namespace evg::oracle {
namespace {

using graph::Node;
using graph::NodeKind;
using RowVector = Eigen::Array<Real, 1, Eigen::Dynamic>;
using ColVector = Eigen::Array<Real, Eigen::Dynamic, 1>;

std::size_t elements_needed(const graph::Tensor& t) {
    if (t.rows <= 0 || t.cols <= 0) return 0;
    return static_cast<std::size_t>((t.rows - 1) * t.row_stride + t.cols);
}

// When node values may go (evaluate's keep_values): a value is born when its node is computed and goes once
// every input edge into it from the nodes the root reaches has been read, unless it is kept. The one place
// that rule lives: the evaluator releases by it, and peak_live_values replays it without computing anything.
class ValueLifetimes {
  public:
    ValueLifetimes(const graph::Problem& p, const std::vector<bool>& keep) : keep_(keep) {
        const std::size_t size = p.graph.nodes.size();
        readers_.assign(size, 0);
        if (size == 0) return;
        // A malformed graph (an edge outside it, a cycle) is left for the caller to report.
        std::vector<bool> seen(size, false);
        std::vector<int> stack{p.graph.root()};
        seen[static_cast<std::size_t>(p.graph.root())] = true;
        while (!stack.empty()) {
            const int u = stack.back();
            stack.pop_back();
            for (int e : p.graph.nodes[static_cast<std::size_t>(u)].inputs) {
                if (e < 0 || static_cast<std::size_t>(e) >= size) continue;
                ++readers_[static_cast<std::size_t>(e)];
                if (!seen[static_cast<std::size_t>(e)]) {
                    seen[static_cast<std::size_t>(e)] = true;
                    stack.push_back(e);
                }
            }
        }
    }
    // Node n was computed (its inputs read): the inputs released now. With no keep list nothing is released.
    std::vector<int> computed(const Node& n) {
        peak_ = std::max(peak_, ++live_);
        std::vector<int> gone;
        if (keep_.empty()) return gone;
        for (int e : n.inputs) {
            const auto v = static_cast<std::size_t>(e);
            if (--readers_[v] > 0 || kept(v)) continue;
            gone.push_back(e);
            --live_;
        }
        return gone;
    }
    // Whether computing n releases its input e: n is its last reader and nobody asked to keep it.
    bool released_by(const Node& n, int e) const {
        const auto v = static_cast<std::size_t>(e);
        if (keep_.empty() || kept(v)) return false;
        return readers_[v] == static_cast<int>(std::count(n.inputs.begin(), n.inputs.end(), e));
    }
    std::size_t peak() const { return peak_; }

  private:
    bool kept(std::size_t v) const { return v < keep_.size() && keep_[v]; }  // asked to be kept
    const std::vector<bool>& keep_;
    std::vector<int> readers_;  // unread input edges per node
    std::size_t live_ = 0, peak_ = 0;
};

class Evaluator {
  public:
    Evaluator(const graph::Problem& p, const Inputs& in, const std::vector<bool>& keep)
        : p_(p), in_(in), lifetimes_(p, keep) {}

    OracleResult run() {
        const auto& nodes = p_.graph.nodes;
        result_.nodes.resize(nodes.size());
        state_.assign(nodes.size(), State::Unvisited);
        for (const graph::Tensor& t : p_.graph.tensors)
            if (t.role == graph::TensorRole::Output) result_.outputs.emplace(t.name, initial_output(t));
        initial_outputs_ = result_.outputs;

        result_.c.dtype = p_.c;
        result_.c.values = gemm(input_buffer("A"), input_buffer("B"), p_.m, p_.n, p_.k, p_.c);
        result_.c.evaluated = true;

        if (!nodes.empty()) {
            eval(p_.graph.root());
        }
        return std::move(result_);
    }

  private:
    enum class State { Unvisited, InProgress, Done };

    // "oracle: %3 AuxLoad: " + why
    [[noreturn]] void fail(int idx, const std::string& why) const {
        const Node& n = p_.graph.nodes[static_cast<std::size_t>(idx)];
        throw evg::Error(fmt::format("oracle: %{} {}: {}", idx, graph::node_kind_name(n.kind), why));
    }

    const HostTensor& input_buffer(std::string_view name) const {
        const auto it = in_.find(name);
        if (it == in_.end())
            throw evg::Error(fmt::format("oracle: no host buffer named \"{}\" in the inputs", name));
        return it->second;
    }

    HostTensor initial_output(const graph::Tensor& t) const {
        const auto it = in_.find(t.name);
        if (it == in_.end())
            return HostTensor(t.element,
                              std::max(elements_needed(t), static_cast<std::size_t>(t.rows * t.row_stride)));
        if (it->second.dtype() != t.element || it->second.size() < elements_needed(t))
            throw evg::Error(fmt::format(
                "oracle: the initial buffer of output \"{}\" has {} {} elements; the tensor needs {} {}",
                t.name, it->second.size(), dtype_label(it->second.dtype()), elements_needed(t),
                dtype_label(t.element)));
        return it->second;
    }

    // The node's tensor, checked to be at least rows x cols, of the node's element type, and backed by a
    // buffer large enough (when the tensor is read).
    const graph::Tensor& tensor_of(int idx, std::int64_t rows, std::int64_t cols) const {
        const Node& n = node(idx);
        const graph::Tensor* t = p_.graph.find_tensor(n.tensor);
        if (t == nullptr) fail(idx, fmt::format("the graph has no tensor named \"{}\"", n.tensor));
        if (t->rows < rows || t->cols < cols || t->row_stride < t->cols)
            fail(idx, fmt::format("tensor {} is {} x {} with row stride {}; the node needs at least {} x {}",
                                  t->name, t->rows, t->cols, t->row_stride, rows, cols));
        if (t->element != n.element)
            fail(idx, fmt::format("tensor {} holds {} but the node's element is {}", t->name,
                                  dtype_label(t->element), dtype_label(n.element)));
        return *t;
    }

    // Where a load or broadcast reads from: the caller's buffer (inputs), or the initial contents of an
    // output (a tile's LOAD stage runs before its STORE stage, and tiles do not overlap, so a load never sees
    // a store).
    const HostTensor& source_of(int idx, const graph::Tensor& t) const {
        const auto it = in_.find(t.name);
        if (it == in_.end()) {
            if (t.role == graph::TensorRole::Output) return initial_outputs_.at(t.name);
            fail(idx, fmt::format("no host buffer for input tensor \"{}\"", t.name));
        }
        if (it->second.dtype() != t.element || it->second.size() < elements_needed(t))
            fail(idx, fmt::format("the host buffer of \"{}\" has {} {} elements; the tensor needs {} {}",
                                  t.name, it->second.size(), dtype_label(it->second.dtype()),
                                  elements_needed(t), dtype_label(t.element)));
        return it->second;
    }

    const Node& node(int idx) const { return p_.graph.nodes[static_cast<std::size_t>(idx)]; }

    // After a node is computed: its inputs that nobody reads any more, and nobody asked to keep, let go.
    void release_inputs(const Node& n) {
        for (int e : lifetimes_.computed(n)) {
            result_.nodes[static_cast<std::size_t>(e)].values = Values();
            result_.nodes[static_cast<std::size_t>(e)].released = true;
        }
        result_.live_values_peak = lifetimes_.peak();
    }

    const NodeValue& eval(int idx) {
        const auto u = static_cast<std::size_t>(idx);
        if (state_[u] == State::Done) return result_.nodes[u];
        if (state_[u] == State::InProgress) fail(idx, "the graph has a cycle through this node");
        state_[u] = State::InProgress;

        const Node& n = node(idx);
        std::vector<const NodeValue*> in;
        for (int e : n.inputs) {
            if (e < 0 || e >= static_cast<int>(p_.graph.nodes.size()))
                fail(idx, fmt::format("input edge %{} points outside the graph", e));
            in.push_back(&eval(e));
        }
        Values v = compute(idx, n, in);
        result_.nodes[u] = NodeValue{n.element, std::move(v), true};
        state_[u] = State::Done;
        release_inputs(n);
        return result_.nodes[u];
    }

    void expect_inputs(int idx, const std::vector<const NodeValue*>& in, std::size_t count, DType t) const {
        if (count != 0 && in.size() != count)
            fail(idx, fmt::format("takes {} input(s), has {}", count, in.size()));
        for (std::size_t i = 0; i < in.size(); ++i)
            if (in[i]->dtype != t)
                fail(idx, fmt::format("input {} is {}, the node expects {}", i, dtype_label(in[i]->dtype),
                                      dtype_label(t)));
    }

    Values compute(int idx, const Node& n, const std::vector<const NodeValue*>& in) {
        const std::int64_t m = p_.m, nn = p_.n;
        switch (n.kind) {
            case NodeKind::AccLoad:
                if (!in.empty()) fail(idx, "a load takes no inputs");
                if (n.element != p_.c)
                    fail(idx, fmt::format("AccLoad of {} but ElementC is {}", dtype_label(n.element),
                                          dtype_label(p_.c)));
                return result_.c.values;

            case NodeKind::AuxLoad: {
                if (!in.empty()) fail(idx, "a load takes no inputs");
                const graph::Tensor& t = tensor_of(idx, m, nn);
                return read_matrix(source_of(idx, t), m, nn, t.row_stride);
            }
            case NodeKind::RowBroadcast: {
                if (!in.empty()) fail(idx, "a broadcast takes no inputs");
                const graph::Tensor& t = tensor_of(idx, 1, nn);
                const RowVector row = read_matrix(source_of(idx, t), 1, nn, t.row_stride);
                return row.replicate(m, 1);
            }
            case NodeKind::ColBroadcast: {
                if (!in.empty()) fail(idx, "a broadcast takes no inputs");
                const graph::Tensor& t = tensor_of(idx, m, 1);
                const ColVector col = read_matrix(source_of(idx, t), m, 1, t.row_stride);
                return col.replicate(1, nn);
            }
            case NodeKind::ScalarBroadcast: {
                if (!in.empty()) fail(idx, "a broadcast takes no inputs");
                const graph::Tensor& t = tensor_of(idx, 1, 1);
                return Values::Constant(m, nn, source_of(idx, t).value(0));
            }

            case NodeKind::AuxStore: {
                expect_inputs(idx, in, 1, n.element);
                const graph::Tensor& t = tensor_of(idx, m, nn);
                write_matrix(output(idx, t), in[0]->values, t.row_stride);
                return pass_on(n);
            }

            case NodeKind::Cast:
                expect_inputs(idx, in, 1, n.from);
                return in[0]->values.unaryExpr([&](Real x) { return round_to(n.element, x, n.round); });

            case NodeKind::Compute: {
                expect_inputs(idx, in, 0, n.element);
                std::vector<const Values*> args;
                args.reserve(in.size());
                for (const NodeValue* v : in) args.push_back(&v->values);
                try {
                    return apply_functor(n.fn, n.element, args, n.scalars);
                } catch (const evg::Error& e) {
                    fail(idx, e.what());
                }
            }

            case NodeKind::RowReduce:
            case NodeKind::ColReduce:
            case NodeKind::ScalarReduce: {
                expect_inputs(idx, in, 1, n.element);
                reduce(idx, n, in[0]->values);
                return pass_on(n);
            }
        }
        fail(idx, "unknown node kind");
    }

    // The values of n's one input, as n's own (a store or a reduction passes them on): moved when computing
    // n releases the input (release_inputs, right after), copied otherwise.
    Values pass_on(const Node& n) {
        const int e = n.inputs[0];
        Values& v = result_.nodes[static_cast<std::size_t>(e)].values;
        if (lifetimes_.released_by(n, e)) return std::move(v);
        return v;
    }

    HostTensor& output(int idx, const graph::Tensor& t) {
        if (t.role != graph::TensorRole::Output) fail(idx, fmt::format("tensor {} is not an output", t.name));
        return result_.outputs.at(t.name);
    }

    // out = init (+) (reduction of x), in the order evaluate.hpp documents.
    void reduce(int idx, const Node& n, const Values& x) {
        const DType t = n.element;
        if (n.fn != graph::Functor::Add && n.fn != graph::Functor::Max && n.fn != graph::Functor::Min)
            fail(idx, fmt::format("the reduce functor must be Add, Max or Min, not {}",
                                  graph::functor_name(n.fn)));
        const auto step = [&](Real a, Real b) { return reduce_step(n.fn, t, a, b); };
        const Eigen::Index rows = x.rows(), cols = x.cols();

        if (n.kind == NodeKind::RowReduce) {  // over rows: one value per column
            const graph::Tensor& tt = tensor_of(idx, 1, p_.n);
            HostTensor& out = output(idx, tt);
            if (rows == 0) return;
            RowVector acc = x.row(0);
            for (Eigen::Index r = 1; r < rows; ++r) acc = acc.binaryExpr(x.row(r), step);
            const RowVector init = read_matrix(out, 1, cols, tt.row_stride);
            write_matrix(out, init.binaryExpr(acc, step), tt.row_stride);
        } else if (n.kind == NodeKind::ColReduce) {  // over columns: one value per row
            const graph::Tensor& tt = tensor_of(idx, p_.m, 1);
            HostTensor& out = output(idx, tt);
            if (cols == 0) return;
            ColVector acc = x.col(0);
            for (Eigen::Index c = 1; c < cols; ++c) acc = acc.binaryExpr(x.col(c), step);
            const ColVector init = read_matrix(out, rows, 1, tt.row_stride);
            write_matrix(out, init.binaryExpr(acc, step), tt.row_stride);
        } else {  // everything, row-major
            const graph::Tensor& tt = tensor_of(idx, 1, 1);
            HostTensor& out = output(idx, tt);
            if (rows == 0 || cols == 0) return;
            Real acc = x(0, 0);
            for (Eigen::Index r = 0; r < rows; ++r)
                for (Eigen::Index c = (r == 0 ? 1 : 0); c < cols; ++c) acc = step(acc, x(r, c));
            out.set_value(0, step(out.value(0), acc));
        }
    }

    const graph::Problem& p_;
    const Inputs& in_;
    OracleResult result_;
    std::map<std::string, HostTensor, std::less<>> initial_outputs_;
    std::vector<State> state_;
    ValueLifetimes lifetimes_;
};

}  // namespace

const HostTensor& OracleResult::output(std::string_view name) const& {
    const auto it = outputs.find(name);
    if (it != outputs.end()) return it->second;
    std::string names;
    for (const auto& [k, v] : outputs) names += (names.empty() ? "" : ", ") + k;
    throw evg::Error(fmt::format("oracle: the graph has no output tensor \"{}\" (outputs: {})", name,
                                 names.empty() ? "none" : names));
}

std::size_t peak_live_values(const graph::Problem& p, const std::vector<bool>& keep_values) {
    const auto& nodes = p.graph.nodes;
    const std::size_t size = nodes.size();
    if (size == 0) return 0;
    ValueLifetimes lifetimes(p, keep_values);
    // evaluate's order: each node after its inputs, inputs in order, depth first from the root.
    std::vector<int> state(size, 0);  // 0 not seen, 1 on the stack, 2 computed
    std::vector<std::pair<int, std::size_t>> stack{{p.graph.root(), 0}};
    while (!stack.empty()) {
        auto& [u, next] = stack.back();
        const Node& n = nodes[static_cast<std::size_t>(u)];
        state[static_cast<std::size_t>(u)] = 1;
        if (next < n.inputs.size()) {
            const int e = n.inputs[next++];
            if (e < 0 || static_cast<std::size_t>(e) >= size || state[static_cast<std::size_t>(e)] == 1)
                return size;  // malformed: evaluate refuses it; count every node
            if (state[static_cast<std::size_t>(e)] == 0) stack.emplace_back(e, 0);
            continue;
        }
        state[static_cast<std::size_t>(u)] = 2;
        lifetimes.computed(n);
        stack.pop_back();
    }
    return lifetimes.peak();
}

OracleResult evaluate(const graph::Problem& problem, const Inputs& inputs,
                      const std::vector<bool>& keep_values) {
    return Evaluator(problem, inputs, keep_values).run();
}

}  // namespace evg::oracle
