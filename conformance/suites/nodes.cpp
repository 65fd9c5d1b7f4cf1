// Node suite: each of the 11 node kinds alone (between a load and a store where it needs them), over element
// types, both archs, both workspace paths, shapes with and without tails, computeLengths (32, odd multiples
// of 32, the maximum) and padded row strides. Ids:
// <Kind>/<Arch>/<dtype>[/<variant>]/<path>/<shape>/CL<n>[/stride+p].
#include <fmt/format.h>

#include "../src/catalogue.hpp"
#include "evg/conformance/upstream_cells.hpp"
#include "evg/graph/functor.hpp"
#include "evg/graph/implementation.hpp"
#include "evg/graph/text.hpp"
#include "evg/graph/validate.hpp"
#include "evg/hw/numeric/cast_rules.hpp"
#include "evg/verify/data.hpp"

namespace evg::conformance::detail {
namespace {

using graph::ArchId;
using graph::DType;
using graph::Functor;
using verify::DataMode;

// Every data element type of the property suite's palette.
constexpr DType kData[] = {DType::f32, DType::f16, DType::bf16, DType::i32, DType::i16, DType::i8};
constexpr DType kArith[] = {DType::f32, DType::f16, DType::bf16, DType::i32, DType::i16};
constexpr DType kReduce[] = {DType::f32, DType::f16, DType::bf16};

const Config kSix[] = {kFull, kTailN, kTailM, kTailMN, kUbFull, kUbTail};
const Config kThree[] = {kTailN, kTailMN, kUbTail};

// The text of a graph with tensors at the template size [64, 128] (configure() resizes them).
graph::Problem problem(const std::string& text, DType c = DType::f32) {
    graph::Problem p;
    p.graph = graph::parse_graph(text);
    p.c = c;
    p.a = p.b = c == DType::i32 ? DType::i8 : DType::f16;
    return p;
}

void add(std::vector<CaseSpec>& out, const std::string& kind, ArchId arch, DType dtype,
         const std::string& variant, graph::Problem p, const Config& cfg, DataMode data, uint64_t seed) {
    const std::string tail = configure(p, arch, cfg);
    ModelCase c;
    c.problem = std::move(p);
    c.data = data;
    c.data_seed = seed;
    // A Max reduce reduces all-negative data, a Min all-positive: a wrong identity shows (verify/data.hpp).
    c.input_sign = verify::identity_telling_sign(c.problem);
    const std::string id = fmt::format("{}/{}/{}/{}{}", kind, arch_str(arch), dtype_str(dtype),
                                       variant.empty() ? "" : variant + "/", tail);
    out.push_back(model_case(id, "node", kind, dtype_str(dtype), std::move(c), applicability_rules()));
}

std::string t(DType d) {
    return dtype_str(d);
}

void acc_load(std::vector<CaseSpec>& out) {
    for (ArchId arch : hw::kAllArchs)
        for (DType c : {DType::f32, DType::f16, DType::i32})
            for (const Config& cfg : kSix)
                add(out, "AccLoad", arch, c, "",
                    problem(
                        fmt::format("output D : {0}[64, 128]\n%0 = AccLoad {0}\n%1 = AuxStore {0} D (%0)\n",
                                    t(c)),
                        c),
                    cfg, DataMode::Exact, 11);
}

void aux_load_store(std::vector<CaseSpec>& out) {
    for (ArchId arch : hw::kAllArchs)
        for (DType e : kData)
            for (const Config& cfg : kSix) {
                // AuxLoad: the strided tensor is the input; AuxStore: the output (the other one dense).
                const std::string body = fmt::format("%0 = AuxLoad {0} X\n%1 = AuxStore {0} D (%0)\n", t(e));
                graph::Problem load =
                    problem(fmt::format("input X : {0}[64, 128]\noutput D : {0}[64, 128]\n", t(e)) + body);
                graph::Problem store = load;
                add(out, "AuxLoad", arch, e, "", load, cfg, DataMode::Special, 12);
                // AuxStore: the store's tensor padded, the load's dense.
                Config dense_in = cfg;
                dense_in.pad = 0;
                std::string tail = configure(store, arch, dense_in);
                if (cfg.pad)
                    for (graph::Tensor& x : store.graph.tensors)
                        if (x.name == "D") x.row_stride = x.cols + cfg.pad;
                if (cfg.pad) tail += fmt::format("/stride+{}", cfg.pad);
                ModelCase c;
                c.problem = store;
                c.data = DataMode::Special;
                c.data_seed = 13;
                out.push_back(model_case(fmt::format("AuxStore/{}/{}/{}", arch_str(arch), t(e), tail), "node",
                                         "AuxStore", t(e), std::move(c), applicability_rules()));
            }
}

void casts(std::vector<CaseSpec>& out) {
    for (ArchId arch : hw::kAllArchs)
        for (DType from : kData)
            for (DType to : kData) {
                if (from == to) continue;
                for (hw::RoundMode mode : hw::kAllRoundModes) {
                    if (!hw::cast_legal(arch, from, to, mode)) continue;  // illegal ones: negative suite
                    const std::string text = fmt::format(
                        "input X : {0}[64, 128]\noutput D : {1}[64, 128]\n%0 = AuxLoad {0} X\n%1 = Cast {1} "
                        "<- {0} {2} "
                        "(%0)\n%2 = AuxStore {1} D (%1)\n",
                        t(from), t(to), hw::round_mode_name(mode));
                    const std::string variant = fmt::format("to_{}.{}", t(to), hw::round_mode_name(mode));
                    add(out, "Cast", arch, from, variant, problem(text), kTailM, DataMode::Special, 21);
                    add(out, "Cast", arch, from, variant, problem(text),
                        arch == ArchId::Ascend950 ? kUbFull : kFull, DataMode::Special, 22);
                }
            }
}

// The scalars each functor is run with (integer types get integral values).
std::string scalars(Functor fn, DType e) {
    const bool f = hw::dtype_is_float(e);
    switch (fn) {
        case Functor::LeakyRelu:
            return " [0.25]";
        case Functor::Muls:
            return f ? " [1.5]" : " [3]";
        case Functor::Adds:
            return f ? " [-0.75]" : " [-2]";
        case Functor::Maxs:
            return f ? " [0.5]" : " [1]";
        case Functor::Mins:
            return f ? " [-0.5]" : " [-1]";
        case Functor::Clamp:
            return f ? " [-0.5, 0.75]" : " [-2, 3]";
        default:
            return "";
    }
}

void computes(std::vector<CaseSpec>& out) {
    for (const graph::FunctorInfo& fi : graph::all_functors())
        for (int arity : fi.max_inputs == graph::kUnbounded
                             ? std::vector<int>{fi.min_inputs, fi.min_inputs + 1}
                             : std::vector<int>{fi.min_inputs}) {
            for (ArchId arch : hw::kAllArchs)
                for (DType e : kArith) {
                    const bool na_only = (e == DType::bf16 && arch == ArchId::AtlasA2) ||
                                         (fi.ascend950_only && arch != ArchId::Ascend950);
                    if (!na_only && !graph::functor_dtype_legal(arch, fi.fn, e)) continue;
                    std::string text;
                    std::string ins;
                    for (int i = 0; i < arity; ++i) {
                        text += fmt::format("input X{} : {}[64, 128]\n", i, t(e));
                        ins += fmt::format("{}%{}", i ? ", " : "", i);
                    }
                    text += fmt::format("output D : {}[64, 128]\n", t(e));
                    for (int i = 0; i < arity; ++i) text += fmt::format("%{} = AuxLoad {} X{}\n", i, t(e), i);
                    text += fmt::format("%{} = Compute {} {}{} ({})\n%{} = AuxStore {} D (%{})\n", arity,
                                        fi.name, t(e), scalars(fi.fn, e), ins, arity + 1, t(e), arity);
                    const bool transcendental_overflow = fi.fn == Functor::Silu || fi.fn == Functor::Sigmoid;
                    const DataMode data = hw::dtype_is_float(e) && !transcendental_overflow
                                              ? DataMode::Special
                                              : DataMode::Exact;
                    const std::string variant = fi.max_inputs == graph::kUnbounded
                                                    ? fmt::format("{}{}", fi.name, arity)
                                                    : std::string(fi.name);
                    if (na_only) {  // one case carries the rule into the matrix
                        add(out, "Compute", arch, e, variant, problem(text), kTailN, data, 31);
                        continue;
                    }
                    for (const Config& cfg : kThree)
                        add(out, "Compute", arch, e, variant, problem(text), cfg, data, 31);
                }
        }
}

void broadcasts(std::vector<CaseSpec>& out) {
    const std::pair<const char*, const char*> kinds[] = {
        {"RowBroadcast", "[1, 128]"}, {"ColBroadcast", "[64, 1]"}, {"ScalarBroadcast", "[1, 1]"}};
    for (const auto& [kind, shape] : kinds)
        for (ArchId arch : hw::kAllArchs)
            for (DType e : kData) {
                const std::string text = fmt::format(
                    "input V : {0}{2}\noutput D : {0}[64, 128]\n%0 = {1} {0} V\n%1 = AuxStore {0} D (%0)\n",
                    t(e), kind, shape);
                for (const Config& cfg : kSix)
                    add(out, kind, arch, e, "", problem(text), cfg, DataMode::Special, 41);
            }
}

void reduces(std::vector<CaseSpec>& out) {
    const std::pair<const char*, const char*> kinds[] = {
        {"RowReduce", "[1, 128]"}, {"ColReduce", "[64, 1]"}, {"ScalarReduce", "[1, 1]"}};
    for (const auto& [kind, shape] : kinds)
        for (ArchId arch : hw::kAllArchs)
            for (DType e : kReduce)
                for (const char* fn : {"Add", "Max", "Min"}) {
                    const std::string text = fmt::format(
                        "input X : {0}[64, 128]\noutput R : {0}{2}\n%0 = AuxLoad {0} X\n%1 = {1} {3} {0} R "
                        "(%0)\n",
                        t(e), kind, shape, fn);
                    for (const Config& cfg : kThree)
                        add(out, kind, arch, e, fn, problem(text), cfg, DataMode::Exact, 51);
                }
}

}  // namespace

void add_node_cases(std::vector<CaseSpec>& out) {
    acc_load(out);
    aux_load_store(out);
    casts(out);
    computes(out);
    broadcasts(out);
    reduces(out);
}

}  // namespace evg::conformance::detail

namespace evg::conformance {

std::vector<UpstreamCell> upstream_cells() {
    using detail::t;
    using graph::ArchId;
    using graph::DType;
    using verify::DataMode;
    static constexpr UpstreamShape kGmShapes[] = {
        {"full", 64, 128, 40}, {"tailN33", 64, 97, 40}, {"tailM7", 39, 128, 40}, {"tailM7N33", 39, 97, 40}};
    static constexpr UpstreamShape kUbShapes[] = {{"full", 64, 128, 40}, {"tailM7N33", 39, 97, 40}};
    std::vector<UpstreamCell> out;
    const auto cell = [&](const std::string& name, std::vector<std::string> kinds, DType dtype,
                          graph::Problem p, bool ub, DataMode data, uint64_t seed) {
        const detail::Config cfg{"full", 64, 128, 40, kUpstreamCellCl, ub, 0};
        detail::configure(p, ArchId::Ascend950, cfg);
        if (graph::first_missing(graph::Implementation::upstream, p)) return;  // not in upstream's Catlass
        UpstreamCell c;
        c.name = fmt::format("{}/{}", name, ub ? "ub" : "gm");
        c.node_kinds = std::move(kinds);
        c.dtype = t(dtype);
        c.problem = std::move(p);
        c.data = data;
        c.data_seed = seed;
        if (ub)
            c.shapes.assign(std::begin(kUbShapes), std::end(kUbShapes));
        else
            c.shapes.assign(std::begin(kGmShapes), std::end(kGmShapes));
        out.push_back(std::move(c));
    };
    for (DType c : {DType::f32, DType::f16, DType::i32})
        for (bool ub : {false, true})
            cell(fmt::format("AccLoad/{}", t(c)), {"AccLoad"}, c,
                 detail::problem(
                     fmt::format("output D : {0}[64, 128]\n%0 = AccLoad {0}\n%1 = AuxStore {0} D (%0)\n",
                                 t(c)),
                     c),
                 ub, DataMode::Exact, 11);
    for (DType e : detail::kData)
        cell(fmt::format("AuxLoad/{}", t(e)), {"AuxLoad", "AuxStore"}, e,
             detail::problem(
                 fmt::format("input X : {0}[64, 128]\noutput D : {0}[64, 128]\n%0 = AuxLoad {0} X\n%1 = "
                             "AuxStore {0} D (%0)\n",
                             t(e))),
             false, DataMode::Special, 12);
    // A graph with many outputs, written node by node. A TreeVisitor or TopologicalVisitor visits only what
    // its root reaches, so every store is summed into the one stored root (`finish`): each output is then
    // written.
    struct Text {
        std::string head, body;
        int next = 0, outputs = 0;
        int add(const std::string& node) {
            body += fmt::format("%{} = {}\n", next, node);
            return next++;
        }
        int store(DType e, int value) {
            head += fmt::format("output D{} : {}[64, 128]\n", outputs, t(e));
            return add(fmt::format("AuxStore {} D{} (%{})", t(e), outputs++, value));
        }
        int sum(DType e, const std::vector<int>& values) {
            if (values.size() == 1) return values[0];
            std::string ins;
            for (const int v : values) ins += fmt::format("{}%{}", ins.empty() ? "" : ", ", v);
            return add(fmt::format("Compute Add {} ({})", t(e), ins));
        }
        std::string finish(DType e, const std::vector<int>& values) {
            store(e, sum(e, values));
            return head + body;
        }
    };
    // A Cast cell: every legal (destination, mode) of one source type, each stored; the stores of one
    // destination summed in it (int8 ones cast to half first), each sum cast to float, those summed.
    for (DType from : detail::kData) {
        Text g;
        g.head = fmt::format("input X : {}[64, 128]\n", t(from));
        const int x = g.add(fmt::format("AuxLoad {} X", t(from)));
        std::vector<int> sums;
        for (DType to : detail::kData) {
            if (to == from) continue;
            std::vector<int> stored;
            for (hw::RoundMode mode : hw::kAllRoundModes)
                if (hw::cast_legal(ArchId::Ascend950, from, to, mode))
                    stored.push_back(g.store(to, g.add(fmt::format("Cast {} <- {} {} (%{})", t(to), t(from),
                                                                   hw::round_mode_name(mode), x))));
            if (stored.empty()) continue;
            DType in = to;
            if (to == DType::i8) {
                for (int& v : stored) v = g.add(fmt::format("Cast half <- int8 CAST_NONE (%{})", v));
                in = DType::f16;
            }
            const int group = g.sum(in, stored);
            sums.push_back(in == DType::f32
                               ? group
                               : g.add(fmt::format("Cast float <- {} CAST_NONE (%{})", t(in), group)));
        }
        if (!sums.empty())
            cell(fmt::format("Cast/{}", t(from)), {"Cast"}, from, detail::problem(g.finish(DType::f32, sums)),
                 false, DataMode::Special, 21);
    }
    // A Compute cell: every functor upstream has that takes the type on Ascend950, over shared loads, each
    // stored (an n-ary functor with two and three inputs), the stores summed.
    for (DType e : detail::kArith) {
        Text g;
        for (int i = 0; i < 3; ++i) {
            g.head += fmt::format("input X{} : {}[64, 128]\n", i, t(e));
            g.add(fmt::format("AuxLoad {} X{}", t(e), i));
        }
        std::vector<int> stored;
        for (const graph::FunctorInfo& fi : graph::all_functors()) {
            if (!graph::implements(graph::Implementation::upstream, fi.fn) ||
                !graph::functor_dtype_legal(ArchId::Ascend950, fi.fn, e))
                continue;
            for (int arity : fi.max_inputs == graph::kUnbounded
                                 ? std::vector<int>{fi.min_inputs, fi.min_inputs + 1}
                                 : std::vector<int>{fi.min_inputs}) {
                std::string ins;
                for (int i = 0; i < arity; ++i) ins += fmt::format("{}%{}", i ? ", " : "", i);
                stored.push_back(g.store(e, g.add(fmt::format("Compute {} {}{} ({})", fi.name, t(e),
                                                              detail::scalars(fi.fn, e), ins))));
            }
        }
        if (!stored.empty())
            cell(fmt::format("Compute/{}", t(e)), {"Compute"}, e, detail::problem(g.finish(e, stored)), false,
                 DataMode::Exact, 31);
    }
    for (DType e : detail::kData)
        cell(fmt::format("RowBroadcast/{}", t(e)), {"RowBroadcast"}, e,
             detail::problem(fmt::format("input V : {0}[1, 128]\noutput D : {0}[64, 128]\n%0 = RowBroadcast "
                                         "{0} V\n%1 = AuxStore {0} D (%0)\n",
                                         t(e))),
             false, DataMode::Special, 41);
    return out;
}

}  // namespace evg::conformance
