// measure(): one problem on the model and in the oracle; the comparison and the UB-peak rule of the property
// suite (props/tests/model_props_test.cpp, props/README.md), restated here as a library for the catalogue.
#include "evg/conformance/model_case.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <regex>
#include <set>

#include "evg/graph/dynamic_visitor.hpp"
#include "evg/graph/run.hpp"
#include "evg/graph/text.hpp"
#include "evg/graph/ub_budget.hpp"
#include "evg/oracle/compare.hpp"
#include "evg/oracle/data.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/oracle/numeric.hpp"
#include "evg/oracle/tolerance.hpp"
#include "evg/props/generators.hpp"

namespace evg::conformance {

using graph::DType;
using graph::Functor;
using graph::NodeKind;
using graph::WorkspacePath;

namespace {

oracle::HostTensor host(DType t, const std::vector<uint8_t>& bytes) {
    oracle::HostTensor h(t, bytes.size() / static_cast<std::size_t>(oracle::dtype_bytes(t)));
    std::copy(bytes.begin(), bytes.end(), reinterpret_cast<uint8_t*>(h.bytes().data()));
    return h;
}

// Exact-friendly: small-integer data and every Add reduction's absolute sum exact in its type.
bool exact_friendly(const ModelCase& c, const oracle::OracleResult& r) {
    if (c.data != props::DataMode::Exact) return false;
    const auto& nodes = c.problem.graph.nodes;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const graph::Node& n = nodes[i];
        if (!graph::is_reduce(n.kind) || n.fn != Functor::Add || !r.nodes[i].evaluated) continue;
        const oracle::Values& v = r.nodes[static_cast<std::size_t>(n.inputs[0])].values;
        oracle::Real total = 0;
        for (Eigen::Index k = 0; k < v.size(); ++k) {
            const oracle::Real x = v(k);
            if (!std::isfinite(static_cast<double>(x)) || x != std::floor(x)) return false;
            total += std::fabs(x);
        }
        if (total > oracle::max_exact_integer(n.element)) return false;
    }
    return true;
}

int writer_of(const graph::Problem& p, const oracle::OracleResult& r, const std::string& t) {
    const auto& nodes = p.graph.nodes;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].tensor == t && r.nodes[i].evaluated &&
            (nodes[i].kind == NodeKind::AuxStore || graph::is_reduce(nodes[i].kind)))
            return static_cast<int>(i);
    return -1;
}

oracle::Region region(const graph::Tensor& t) {
    return {t.rows, t.cols, t.row_stride > 0 ? t.row_stride : t.cols};
}

// The summation-order bound of an Add reduction whose data are not exact-friendly (props/README.md,
// property 1): |out - golden| <= 2*n*u*S + rtol*S per element, NaN-aware.
std::string check_sum_bound(const graph::Problem& p, const oracle::OracleResult& golden, int writer,
                            const graph::Tensor& t, const graph::ModelRun& m) {
    const graph::Node& n = p.graph.nodes[static_cast<std::size_t>(writer)];
    const oracle::Values& x = golden.nodes[static_cast<std::size_t>(n.inputs[0])].values;
    const oracle::HostTensor got = host(t.element, m.outputs.at(t.name));
    const oracle::HostTensor& want = golden.output(t.name);
    const oracle::Real u = t.element == DType::f32   ? std::ldexp(oracle::Real{1}, -24)
                           : t.element == DType::f16 ? std::ldexp(oracle::Real{1}, -11)
                                                     : std::ldexp(oracle::Real{1}, -8);
    const oracle::Real rtol = oracle::catlass_rtol(p.k);
    const oracle::Real maxf = oracle::dtype_max(t.element);
    std::string bad;
    int reported = 0;
    const int64_t outs = n.kind == NodeKind::RowReduce ? p.n : n.kind == NodeKind::ColReduce ? p.m : 1;
    const int64_t stride = t.row_stride > 0 ? t.row_stride : t.cols;
    for (int64_t e = 0; e < outs; ++e) {
        oracle::Real s = 0;
        int64_t terms = 1;
        bool nan = false, pinf = false, ninf = false;
        for (int64_t i = 0; i < p.m; ++i)
            for (int64_t j = 0; j < p.n; ++j) {
                const bool in = n.kind == NodeKind::RowReduce   ? j == e
                                : n.kind == NodeKind::ColReduce ? i == e
                                                                : true;
                if (!in) continue;
                const oracle::Real v = x(i, j);
                if (std::isnan(v))
                    nan = true;
                else if (std::isinf(v))
                    (v > 0 ? pinf : ninf) = true;
                else
                    s += std::fabs(v);
                ++terms;
            }
        // (1, N) dense; (M, 1) at the row stride; (1, 1) element 0.
        const std::size_t idx = static_cast<std::size_t>(n.kind == NodeKind::ColReduce ? e * stride : e);
        const oracle::Real g = want.value(idx);
        const oracle::Real v = got.value(idx);
        std::string why;
        if (nan || (pinf && ninf)) {
            if (!std::isnan(v)) why = "a NaN term or both infinities must give NaN";
        } else if (s > maxf) {
            // partial sums may overflow in some order: any result
        } else if (pinf || ninf) {
            if (!(std::isinf(v) && (v > 0) == pinf)) why = "one infinite term must give that infinity";
        } else {
            const oracle::Real tol = 2 * terms * u * s + rtol * s;
            if (!std::isfinite(v) || std::fabs(v - g) > tol)
                why = fmt::format("|out - golden| above the summation bound {}", static_cast<double>(tol));
        }
        if (!why.empty() && reported++ < 8)
            bad += fmt::format("  {}[{}]: out {} golden {} (S = {}): {}\n", t.name, e, static_cast<double>(v),
                               static_cast<double>(g), static_cast<double>(s), why);
    }
    return bad;
}

// The UB peak rule of props/README.md ("The UB peak rule"): the highest UB byte any AIV touches.
uint64_t ub_expectation(const graph::Problem& p, const oracle::OracleResult& golden) {
    const graph::UbBudget budget = graph::ub_budget(p);
    const std::vector<graph::UbNodeBuffers> by_node = graph::ub_node_buffers(p.graph);
    const std::vector<int> order = graph::dynamic::carve_order(p.graph);
    const uint64_t cl = p.compute_length;
    std::vector<uint64_t> start(by_node.size(), 0);
    uint64_t off = 0;
    for (int i : order) {
        start[static_cast<std::size_t>(i)] = off;
        off += uint64_t{by_node[static_cast<std::size_t>(i)].buffers} *
               by_node[static_cast<std::size_t>(i)].element_bytes * cl;
    }
    bool used[2] = {false, false};
    uint64_t widest[2] = {0, 0};
    struct TileDims {
        uint64_t rows, cols, aligned, c_offset;
    };
    const uint64_t ec = hw::dtype_size(p.c);
    uint64_t c_written = 0;
    std::vector<TileDims> tiles[2];
    for (int64_t r0 = 0; r0 < p.m; r0 += p.tile.m)
        for (int64_t c0 = 0; c0 < p.n; c0 += p.tile.n) {
            const int64_t rows = std::min<int64_t>(p.tile.m, p.m - r0),
                          cols = std::min<int64_t>(p.tile.n, p.n - c0);
            const int64_t sub = (rows + 1) / 2;
            const uint64_t pitch = static_cast<uint64_t>((cols + 31) / 32 * 32);
            for (int64_t aiv_rows : {std::min(sub, rows), rows - std::min(sub, rows)}) {
                if (aiv_rows > 0)
                    c_written = std::max(c_written, static_cast<uint64_t>(aiv_rows - 1) * pitch * ec +
                                                        static_cast<uint64_t>(cols) * ec);
                int set = 0;
                for (int64_t r = 0; r < aiv_rows; set = 1 - set) {
                    used[set] = true;
                    if (cols <= static_cast<int64_t>(cl)) {
                        const int64_t aligned = (cols + 31) / 32 * 32;
                        const int64_t per = std::max<int64_t>(1, static_cast<int64_t>(cl) / aligned);
                        widest[set] = std::max<uint64_t>(widest[set], static_cast<uint64_t>(aligned));
                        const int64_t tr = std::min(aiv_rows - r, per);
                        tiles[set].push_back({static_cast<uint64_t>(tr), static_cast<uint64_t>(cols),
                                              static_cast<uint64_t>(aligned),
                                              static_cast<uint64_t>(r) * pitch});
                        r += tr;
                    } else {
                        for (int64_t cc = 0; cc < cols; cc += static_cast<int64_t>(cl)) {
                            const int64_t tc = std::min<int64_t>(cols - cc, static_cast<int64_t>(cl));
                            const uint64_t a = static_cast<uint64_t>((tc + 31) / 32 * 32);
                            widest[set] = std::max(widest[set], a);
                            tiles[set].push_back(
                                {1, static_cast<uint64_t>(tc), a,
                                 static_cast<uint64_t>(r) * pitch + static_cast<uint64_t>(cc)});
                        }
                        r += 1;
                    }
                }
            }
        }
    const auto owner = [&](int in) {
        while (p.graph.nodes[static_cast<std::size_t>(in)].kind == NodeKind::AuxStore ||
               graph::is_reduce(p.graph.nodes[static_cast<std::size_t>(in)].kind))
            in = p.graph.nodes[static_cast<std::size_t>(in)].inputs[0];
        return static_cast<std::size_t>(in);
    };
    std::vector<bool> read_whole(by_node.size(), false);
    for (std::size_t i = 0; i < by_node.size(); ++i) {
        const graph::Node& node = p.graph.nodes[i];
        if (!golden.nodes[i].evaluated || (node.kind != NodeKind::Compute && node.kind != NodeKind::Cast))
            continue;
        for (int in : node.inputs) read_whole[owner(in)] = true;
    }
    const auto round32 = [](uint64_t b) { return (b + 31) / 32 * 32; };
    const auto written = [&](NodeKind k, const TileDims& t, uint64_t e) -> uint64_t {
        switch (k) {
            case NodeKind::AccLoad:
            case NodeKind::AuxLoad:
                return (t.rows - 1) * t.aligned * e + round32(t.cols * e);
            case NodeKind::RowBroadcast:
                return t.rows > 1 ? t.rows * t.aligned * e : round32(t.cols * e);
            case NodeKind::ColBroadcast:
                return std::max(round32(t.rows * e), (t.rows - 1) * t.aligned * e + t.cols * e);
            case NodeKind::ScalarBroadcast:
                return std::max<uint64_t>(32, (t.rows - 1) * t.aligned * e + t.cols * e);
            default:
                return 0;
        }
    };
    const auto reduce_reads = [&](NodeKind k, const TileDims& t, uint64_t e) -> uint64_t {
        switch (k) {
            case NodeKind::RowReduce:
                return t.rows * t.aligned * e;
            case NodeKind::ScalarReduce:
                return t.rows > 1 ? t.rows * t.aligned * e : t.cols * e;
            case NodeKind::ColReduce:
                return (t.rows - 1) * t.aligned * e + t.cols * e;
            default:
                return 0;
        }
    };
    uint64_t known = 0;
    for (int s = 0; s < 2; ++s) {
        if (!used[s]) continue;
        const uint64_t set_base = budget.base + static_cast<uint64_t>(s) * budget.bytes_per_set;
        for (std::size_t i = 0; i < by_node.size(); ++i) {
            const graph::Node& node = p.graph.nodes[i];
            const uint64_t e = by_node[i].element_bytes;
            if (by_node[i].buffers == 0 || !golden.nodes[i].evaluated) continue;
            const uint64_t at = set_base + start[i];
            switch (node.kind) {
                case NodeKind::Compute:
                case NodeKind::Cast:
                    known = std::max(known, at + cl * e);
                    break;
                case NodeKind::RowReduce:
                    known = std::max(known, at + widest[s] * e);
                    break;
                case NodeKind::ColReduce:
                    known = std::max(known, at + cl * e + 32);
                    break;
                case NodeKind::ScalarReduce:
                    known = std::max(known, at + cl * e + 64);
                    break;
                default:
                    if (read_whole[i]) {
                        known = std::max(known, at + cl * e);
                    } else if (!(node.kind == NodeKind::AccLoad && node.use_ub)) {
                        uint64_t ext = 0;
                        for (const TileDims& t : tiles[s]) {
                            ext = std::max(ext, written(node.kind, t, e));
                            for (std::size_t j = 0; j < by_node.size(); ++j) {
                                const graph::Node& r = p.graph.nodes[j];
                                if (golden.nodes[j].evaluated && graph::is_reduce(r.kind) &&
                                    owner(r.inputs[0]) == i)
                                    ext = std::max(ext, reduce_reads(r.kind, t, e));
                            }
                        }
                        known = std::max(known, at + ext);
                    }
            }
        }
    }
    if (p.path == WorkspacePath::UB) {
        known = std::max(known, c_written);
        for (std::size_t i = 0; i < by_node.size(); ++i) {
            const graph::Node& node = p.graph.nodes[i];
            if (node.kind != NodeKind::AccLoad || !golden.nodes[i].evaluated) continue;
            for (int s = 0; s < 2; ++s)
                for (const TileDims& t : tiles[s]) {
                    if (read_whole[i]) known = std::max(known, (t.c_offset + cl) * ec);
                    for (std::size_t j = 0; j < by_node.size(); ++j) {
                        const graph::Node& r = p.graph.nodes[j];
                        if (golden.nodes[j].evaluated && graph::is_reduce(r.kind) && owner(r.inputs[0]) == i)
                            known = std::max(known, t.c_offset * ec + reduce_reads(r.kind, t, ec));
                    }
                }
        }
    }
    return known;
}

// Silu/Sigmoid nodes whose e^-x overflows ElementCompute: outside the oracle's bound (props/README.md).
std::vector<bool> overflow_domain_nodes(const graph::Problem& p, const oracle::OracleResult& golden) {
    const auto& nodes = p.graph.nodes;
    std::vector<bool> hit(nodes.size(), false);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const graph::Node& n = nodes[i];
        if (n.kind != NodeKind::Compute || !golden.nodes[i].evaluated ||
            (n.fn != Functor::Silu && n.fn != Functor::Sigmoid))
            continue;
        const oracle::Real lim = -std::log(oracle::dtype_max(n.element));
        for (int in : n.inputs)
            if ((golden.nodes[static_cast<std::size_t>(in)].values < lim).any()) hit[i] = true;
    }
    return hit;
}

bool depends_on(const graph::Graph& g, int node, const std::vector<bool>& set) {
    std::vector<int> stack{node};
    std::vector<bool> seen(g.nodes.size(), false);
    while (!stack.empty()) {
        const int i = stack.back();
        stack.pop_back();
        if (seen[static_cast<std::size_t>(i)]) continue;
        seen[static_cast<std::size_t>(i)] = true;
        if (set[static_cast<std::size_t>(i)]) return true;
        for (int in : g.nodes[static_cast<std::size_t>(i)].inputs) stack.push_back(in);
    }
    return false;
}

std::vector<std::string> events_of(const std::vector<hw::TraceEntry>& trace) {
    static const std::regex re(R"(^(?:SetFlag|WaitFlag)<(\w+)>)");
    std::set<std::string> ev;
    for (const hw::TraceEntry& e : trace) {
        std::smatch m;
        if (std::regex_search(e.op, m, re)) ev.insert(m[1].str());
    }
    return {ev.begin(), ev.end()};
}

}  // namespace

std::string replay_command(const std::string& id) {
    return fmt::format("build/release/tools/evgcheck conformance --filter '{}'", id);
}

CaseResult start_result(const CaseSpec& spec) {
    CaseResult r;
    r.id = spec.id;
    r.suite = spec.suite;
    r.node_kind = spec.node_kind;
    r.dtype = spec.dtype;
    r.arch = spec.arch;
    r.path = spec.path;
    r.status = Status::fail;
    r.replay = replay_command(spec.id);
    return r;
}

CaseResult not_applicable(const CaseSpec& spec, const std::string& rule) {
    CaseResult r = start_result(spec);
    r.status = Status::not_applicable;
    r.message = rule;
    return r;
}

Measurement measure(const CaseSpec& spec, const ModelCase& c) {
    Measurement m;
    m.result = start_result(spec);
    const graph::Problem& p = c.problem;
    m.result.graph_text = graph::print(p);
    props::Case pc;
    pc.problem = p;
    pc.data = c.data;
    pc.data_seed = c.data_seed;
    pc.cores = c.cores;
    const oracle::Inputs inputs = props::make_inputs(pc);
    graph::RunInputs in;
    for (const auto& [name, t] : inputs) {
        const auto* b = reinterpret_cast<const uint8_t*>(t.bytes().data());
        in.tensors[name] = std::vector<uint8_t>(b, b + t.bytes().size());
    }
    graph::RunOptions opt;
    opt.block_dim = c.cores;
    opt.config.arch = p.arch;
    opt.config.keep_trace = true;
    graph::ModelRun run;
    {
        Catlass::Epilogue::Fusion::ScopedUpstreamHazards scoped(c.hazards);
        run = graph::run_on_model(p, in, opt);
    }
    const hw::Report& rep = run.report;
    m.clean = rep.clean();
    m.report_text = rep.text();
    for (const hw::Violation& v : rep.violations)
        m.result.violations[std::string(hw::violation_kind_name(v.kind))] += v.occurrences;
    m.result.instructions = run.trace.size();
    m.result.events_used = events_of(run.trace);
    m.result.tiles =
        static_cast<uint32_t>(((p.m + p.tile.m - 1) / p.tile.m) * ((p.n + p.tile.n - 1) / p.tile.n));
    m.result.instr_per_tile =
        m.result.tiles ? static_cast<double>(m.result.instructions) / m.result.tiles : 0;
    m.result.ub_peak = static_cast<uint32_t>(rep.stats.ub_peak);

    const oracle::OracleResult golden = oracle::evaluate(p, inputs);
    const uint64_t predicted = ub_expectation(p, golden);
    m.result.ub_predicted = static_cast<uint32_t>(predicted);
    m.ub_equal = rep.stats.ub_peak == predicted;

    const bool exact = exact_friendly(c, golden);
    const std::vector<bool> overflowed = overflow_domain_nodes(p, golden);
    for (const graph::Tensor& t : p.graph.tensors) {
        if (t.role != graph::TensorRole::Output) continue;
        const int w = writer_of(p, golden, t.name);
        if (w < 0) continue;
        if (run.outputs.find(t.name) == run.outputs.end()) {
            m.mismatch += fmt::format("output {} was not read back\n", t.name);
            continue;
        }
        if (depends_on(p.graph, w, overflowed)) continue;
        const graph::Node& wn = p.graph.nodes[static_cast<std::size_t>(w)];
        if (!exact && graph::is_reduce(wn.kind) && wn.fn == Functor::Add) {
            m.mismatch += check_sum_bound(p, golden, w, t, run);
            continue;
        }
        const oracle::ComparePlan plan = oracle::plan_comparison(p, t.name, exact);
        const oracle::CompareResult cr = oracle::compare(t.name, host(t.element, run.outputs.at(t.name)),
                                                         golden.output(t.name), region(t), plan.options);
        m.result.worst_ulp = std::max(m.result.worst_ulp, static_cast<double>(cr.max_ulp));
        if (!cr.ok()) m.mismatch += cr.to_string(plan.options.mode) + " (" + plan.reason + ")\n";
    }
    return m;
}

CaseResult judge_conforming(Measurement m) {
    CaseResult r = std::move(m.result);
    std::string why;
    if (!m.clean) why += "violations:\n" + m.report_text;
    if (!m.mismatch.empty()) why += "outputs differ from the oracle:\n" + m.mismatch;
    if (!m.ub_equal) why += fmt::format("UB peak {} B, predicted {} B\n", r.ub_peak, r.ub_predicted);
    r.status = why.empty() ? Status::pass : Status::fail;
    r.message = why;
    return r;
}

CaseResult judge_hazard(Measurement m, const std::string& expected) {
    CaseResult r = std::move(m.result);
    r.expected = expected;
    std::vector<std::string> fired;
    for (const auto& [kind, count] : r.violations)
        if (count > 0) fired.push_back(kind);
    if (!m.mismatch.empty()) fired.push_back("wrong-value");
    bool hit = false;
    std::size_t from = 0;
    while (from <= expected.size()) {
        const std::size_t bar = std::min(expected.find('|', from), expected.size());
        const std::string want = expected.substr(from, bar - from);
        hit = hit || std::find(fired.begin(), fired.end(), want) != fired.end();
        from = bar + 1;
    }
    std::string list;
    for (const std::string& f : fired) list += (list.empty() ? "" : ", ") + f;
    r.status = hit ? Status::pass : Status::fail;
    r.message =
        hit ? fmt::format("caught by: {}", list)
            : fmt::format("expected {} to fire; fired: {}", expected, list.empty() ? "nothing" : list);
    return r;
}

}  // namespace evg::conformance
