#include "evg/props/spec.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "evg/graph/builder.hpp"
#include "evg/graph/functor.hpp"
#include "evg/graph/kernel_config.hpp"
#include "evg/graph/ub_budget.hpp"
#include "evg/graph/validate.hpp"
#include "evg/hw/numeric/cast_rules.hpp"

namespace evg::props {

const char* data_text_name(DataMode d) {
    return d == DataMode::Exact ? "exact" : d == DataMode::Special ? "float" : "uniform";
}

const std::vector<DType>& palette(ArchId) {
    static const std::vector<DType> p = {DType::f32, DType::f16, DType::bf16,
                                         DType::i32, DType::i16, DType::i8};
    return p;
}

const std::vector<DType>& arithmetic_palette(ArchId arch) {
    static const std::vector<DType> a2 = {DType::f32, DType::f16, DType::i32, DType::i16};
    static const std::vector<DType> a950 = {DType::f32, DType::f16, DType::bf16, DType::i32, DType::i16};
    return arch == ArchId::Ascend950 ? a950 : a2;
}

std::vector<Functor> compute_functors(ArchId arch, DType t, graph::Implementation impl) {
    std::vector<Functor> fns;
    for (const graph::FunctorInfo& f : graph::all_functors())
        if ((!f.ascend950_only || arch == ArchId::Ascend950) && graph::functor_dtype_legal(arch, f.fn, t) &&
            graph::implements(impl, f.fn))
            fns.push_back(f.fn);
    return fns;
}

namespace {

// Gene round index -> RoundMode: 0 is RINT, so that shrinking towards 0 sets the round mode to RINT.
RoundMode round_of(uint8_t r) {
    static constexpr RoundMode order[] = {RoundMode::CAST_RINT, RoundMode::CAST_NONE,  RoundMode::CAST_FLOOR,
                                          RoundMode::CAST_CEIL, RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC,
                                          RoundMode::CAST_ODD};
    return order[r % 7];
}

bool is_integer(DType t) {
    return t == DType::i8 || t == DType::u8 || t == DType::i16 || t == DType::i32 || t == DType::i64;
}

// Scalars a Compute may carry. Exact data keeps to small dyadic values (integers for integer types); float
// data adds values that round, overflow half, or are tiny.
double scalar_of(uint8_t index, DType t, DataMode data) {
    static constexpr double exact[] = {1, -1, 2, 0.5, 0, 3, -2, 0.25, 4, -0.5};
    static constexpr double integral[] = {1, -1, 2, 0, 3, -2, 4, 5, -3, 7};
    static constexpr double floating[] = {1, -1, 0.1, 2, -0.01, 1e-3, 100, 65504, 1e20, 3.5, -0.0, 0.5};
    if (is_integer(t)) return integral[index % std::size(integral)];
    if (data == DataMode::Exact) return exact[index % std::size(exact)];
    return floating[index % std::size(floating)];
}

// Col/ScalarBroadcast fill rows with Duplicate, which has no 8-bit form (validation rule broadcast-dtype):
// an 8-bit leaf broadcasts int16 instead (consumers of int8 get a Cast from decode).
DType duplicate_type(DType t) {
    return t == DType::i8 || t == DType::u8 ? DType::i16 : t;
}

class Decoder {
  public:
    Decoder(const Spec& s, graph::Problem& p, graph::Implementation impl) : s_(s), p_(p), impl_(impl) {}

    void run() {
        for (std::size_t gi = 0; gi < s_.genes.size(); ++gi) {
            gene(static_cast<int>(gi), s_.genes[gi]);
            gene_node_.push_back(size() - 1);
        }
        if (b_.graph().nodes.empty()) b_.acc_load(p_.c, p_.path == WorkspacePath::UB);
        const int last = size() - 1;
        const DType t = type(last);
        b_.output("D", t, p_.m, p_.n, stride(false));
        b_.aux_store(t, "D", last);
        p_.graph = b_.graph();
        graph::drop_unreachable_writers(p_.graph);  // validation refuses them (unreachable-store)
    }

  private:
    int size() const { return static_cast<int>(b_.graph().nodes.size()); }
    DType type(int i) const { return b_.graph().nodes[static_cast<std::size_t>(i)].element; }
    int64_t stride(bool strided) const { return strided && s_.row_pad > 0 ? p_.n + s_.row_pad : 0; }
    // Reference j of the gene at position pos names the node of gene pos - 1 - (r mod pos).
    int resolve(const Gene& g, std::size_t j, int pos) const {
        const int r = j < g.refs.size() ? g.refs[j] : 0;
        return gene_node_[static_cast<std::size_t>(pos - 1 - r % pos)];
    }
    std::string name(const char* prefix) { return fmt::format("{}{}", prefix, serial_++); }

    // A node of type `to` with the value of node `i`: i itself, or a legal Cast (chain) of it.
    int convert(int i, DType to, RoundMode preferred = RoundMode::CAST_RINT) {
        const DType from = type(i);
        if (from == to) return i;
        const auto key = std::make_tuple(i, to);
        if (auto it = converted_.find(key); it != converted_.end()) return it->second;
        int out = -1;
        if (auto m = legal_mode(from, to, preferred)) {
            out = b_.cast(to, from, *m, i);
        } else {
            for (DType via : {DType::f32, DType::f16}) {
                if (via == from || via == to) continue;
                auto m1 = legal_mode(from, via, RoundMode::CAST_RINT);
                auto m2 = legal_mode(via, to, preferred);
                if (m1 && m2) {
                    out = b_.cast(to, via, *m2, b_.cast(via, from, *m1, i));
                    break;
                }
            }
        }
        if (out < 0) {  // no legal path: a fresh input of the wanted type
            const std::string x = name("x");
            b_.input(x, to, p_.m, p_.n);
            out = b_.aux_load(to, x);
        }
        converted_[key] = out;
        return out;
    }

    std::optional<RoundMode> legal_mode(DType from, DType to, RoundMode preferred) const {
        if (hw::cast_legal(p_.arch, from, to, preferred)) return preferred;
        for (RoundMode m : {RoundMode::CAST_RINT, RoundMode::CAST_NONE})
            if (hw::cast_legal(p_.arch, from, to, m)) return m;
        for (RoundMode m : hw::kAllRoundModes)
            if (hw::cast_legal(p_.arch, from, to, m)) return m;
        return std::nullopt;
    }

    // Adds the gene's nodes; its own node is the last one added.
    void gene(int pos, const Gene& g) {
        auto op = static_cast<GeneOp>(g.op % kGeneOps);
        const bool needs_input = op == GeneOp::Compute || op == GeneOp::Cast || op == GeneOp::AuxStore ||
                                 op == GeneOp::RowReduce || op == GeneOp::ColReduce ||
                                 op == GeneOp::ScalarReduce;
        if (needs_input && pos == 0) op = GeneOp::AccLoad;
        op = nearest_implemented(op);
        const std::vector<DType>& pal = palette(p_.arch);
        const DType leaf_type = pal[g.dtype % pal.size()];
        switch (op) {
            case GeneOp::AccLoad:
                b_.acc_load(p_.c, p_.path == WorkspacePath::UB);
                return;
            case GeneOp::AuxLoad: {
                const std::string x = name("x");
                b_.input(x, leaf_type, p_.m, p_.n, stride(g.strided));
                b_.aux_load(leaf_type, x);
                return;
            }
            case GeneOp::RowBroadcast: {
                const std::string x = name("bias");
                b_.input(x, leaf_type, 1, p_.n);
                b_.row_broadcast(leaf_type, x);
                return;
            }
            case GeneOp::ColBroadcast: {
                const DType t = duplicate_type(leaf_type);
                const std::string x = name("col");
                b_.input(x, t, p_.m, 1);
                b_.col_broadcast(t, x);
                return;
            }
            case GeneOp::ScalarBroadcast: {
                const DType t = duplicate_type(leaf_type);
                const std::string x = name("s");
                b_.input(x, t, 1, 1);
                b_.scalar_broadcast(t, x);
                return;
            }
            case GeneOp::Compute: {
                const std::vector<DType>& ar = arithmetic_palette(p_.arch);
                const DType t = ar[g.dtype % ar.size()];
                const std::vector<Functor> fns = compute_functors(p_.arch, t, impl_);
                const graph::FunctorInfo& f = graph::functor_info(fns[g.fn % fns.size()]);
                int arity = f.min_inputs;
                if (f.max_inputs == graph::kUnbounded)
                    arity += g.extra % 3;
                else if (f.max_inputs > f.min_inputs)
                    arity += g.extra % (f.max_inputs - f.min_inputs + 1);
                std::vector<int> resolved;
                resolved.reserve(static_cast<std::size_t>(arity));
                for (int j = 0; j < arity; ++j)
                    resolved.push_back(resolve(g, static_cast<std::size_t>(j), pos));
                std::vector<int> inputs;
                inputs.reserve(resolved.size());
                for (int i : resolved) inputs.push_back(convert(i, t));
                std::vector<double> scalars;
                scalars.reserve(static_cast<std::size_t>(f.scalars));
                for (int j = 0; j < f.scalars; ++j)
                    scalars.push_back(scalar_of(static_cast<uint8_t>(g.scalar + j), t, s_.data));
                b_.compute(f.fn, t, inputs, scalars);
                return;
            }
            case GeneOp::Cast: {
                const int in = resolve(g, 0, pos);
                const DType from = type(in);
                DType to = leaf_type;
                if (to == from) to = pal[(g.dtype + 1u) % pal.size()];
                const int before = size();
                convert(in, to, round_of(g.round));
                if (size() == before) {  // converted before (shared): cast again, so the gene has its node
                    if (auto m = legal_mode(from, to, round_of(g.round))) b_.cast(to, from, *m, in);
                    // (otherwise the gene stands for the shared conversion itself)
                }
                return;
            }
            case GeneOp::AuxStore: {
                const int in = resolve(g, 0, pos);
                const DType t = type(in);
                const std::string x = name("out");
                b_.output(x, t, p_.m, p_.n, stride(g.strided));
                b_.aux_store(t, x, in);
                return;
            }
            case GeneOp::RowReduce:
            case GeneOp::ColReduce:
            case GeneOp::ScalarReduce: {
                int in = resolve(g, 0, pos);
                const NodeKind kind = op == GeneOp::RowReduce   ? NodeKind::RowReduce
                                      : op == GeneOp::ColReduce ? NodeKind::ColReduce
                                                                : NodeKind::ScalarReduce;
                if (!graph::reduce_dtype_legal(p_.arch, kind, type(in))) in = convert(in, DType::f32);
                const DType t = type(in);
                static constexpr Functor reduce_fns[] = {Functor::Add, Functor::Max, Functor::Min};
                const Functor fn = reduce_fns[g.fn % 3];
                if (op == GeneOp::RowReduce) {
                    const std::string x = name("rowOut");
                    b_.output(x, t, 1, p_.n);
                    b_.row_reduce(fn, t, x, in);
                } else if (op == GeneOp::ColReduce) {
                    const std::string x = name("colOut");
                    b_.output(x, t, p_.m, 1);
                    b_.col_reduce(fn, t, x, in);
                } else {
                    const std::string x = name("sum");
                    b_.output(x, t, 1, 1);
                    b_.scalar_reduce(fn, t, x, in);
                }
                return;
            }
        }
    }

    // The gene op itself when the implementation has its node kind; else the kind of the same shape that it
    // has: a broadcast leaf becomes a RowBroadcast, a reduce (which returns its input) an AuxStore.
    GeneOp nearest_implemented(GeneOp op) const {
        static constexpr std::pair<GeneOp, NodeKind> kinds[] = {
            {GeneOp::ColBroadcast, NodeKind::ColBroadcast},
            {GeneOp::ScalarBroadcast, NodeKind::ScalarBroadcast},
            {GeneOp::RowReduce, NodeKind::RowReduce},
            {GeneOp::ColReduce, NodeKind::ColReduce},
            {GeneOp::ScalarReduce, NodeKind::ScalarReduce}};
        for (const auto& [gene_op, kind] : kinds) {
            if (gene_op != op || graph::implements(impl_, kind)) continue;
            return graph::is_broadcast(kind) ? GeneOp::RowBroadcast : GeneOp::AuxStore;
        }
        return op;
    }

    const Spec& s_;
    graph::Problem& p_;
    graph::Implementation impl_;
    graph::GraphBuilder b_;
    int serial_ = 0;
    std::map<std::tuple<int, DType>, int> converted_;
    std::vector<int> gene_node_;  // the node each gene decoded to
};

}  // namespace

Case decode(const Spec& s, graph::Implementation impl) {
    Case c;
    graph::Problem& p = c.problem;
    p.arch = graph::implements(impl, s.arch) ? s.arch : ArchId::Ascend950;
    p.tile = s.arch_tile ? graph::default_tile(p.arch) : kSmallTile;
    p.m = std::max<int64_t>(1, s.m);
    p.n = std::max<int64_t>(1, s.n);
    p.k = std::max<int64_t>(1, s.k);
    p.a = p.b = DType::f16;
    p.c = s.c_half ? DType::f16 : DType::f32;
    if (s.int8_gemm) {
        p.a = p.b = DType::i8;
        p.c = DType::i32;
    }
    p.path = s.ub_path && p.arch == ArchId::Ascend950 ? WorkspacePath::UB : WorkspacePath::GM;
    Decoder(s, p, impl).run();
    const uint32_t max_cl = graph::max_compute_length(p.graph, p.arch, p.path);
    if (max_cl == 0 && !s.genes.empty()) {  // too wide for the UB: drop genes from the end
        Spec shorter = s;
        shorter.genes.resize(s.genes.size() / 2);
        return decode(shorter, impl);
    }
    p.compute_length = s.cl_blocks == 0 ? max_cl : std::min<uint32_t>(max_cl, 32 * s.cl_blocks);
    c.data = s.data;
    c.data_seed = s.data_seed;
    c.sign = s.signed_inputs ? verify::identity_telling_sign(p) : verify::InputSign::mixed;
    c.cores = std::clamp<uint32_t>(s.cores, 1, 8);
    c.sched_seed = s.sched_seed;
    return c;
}

std::string sign_suffix(verify::InputSign s) {
    return s == verify::InputSign::negative   ? " negative"
           : s == verify::InputSign::positive ? " positive"
                                              : "";
}

std::string summary(const Case& c) {
    const graph::Problem& p = c.problem;
    return fmt::format(
        "{} {} m={} n={} k={} c={} cl={} tile={}x{}x{}{} cores={} {}{} data_seed={} sched={}, {} nodes",
        p.arch == ArchId::Ascend950 ? "Ascend950" : "AtlasA2", graph::workspace_path_name(p.path), p.m, p.n,
        p.k, hw::dtype_name(p.c), p.compute_length, p.tile.m, p.tile.n, p.tile.k,
        p.kernel == graph::KernelConfig{} ? std::string()
                                          : " [" + graph::kernel_config_summary(p.kernel) + "]",
        c.cores, data_text_name(c.data), sign_suffix(c.sign), c.data_seed, c.sched_seed, node_count(c));
}

}  // namespace evg::props
