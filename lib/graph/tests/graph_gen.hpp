// A simple valid-by-construction generator of problems (graph + shapes + arch) for the text round-trip
// property. The full generators of the suite are a later issue; this one covers every node kind, every
// functor the arch has, scalars of any double value, shared nodes (DAGs), side stores and reductions.
#pragma once
#include <fmt/format.h>
#include <rapidcheck.h>

#include <map>
#include <vector>

#include "evg/graph/builder.hpp"
#include "evg/graph/graph.hpp"
#include "evg/graph/ub_budget.hpp"
#include "evg/graph/validate.hpp"
#include "evg/hw/numeric/cast_rules.hpp"

namespace evg::graph::testgen {

inline rc::Gen<double> scalar_value() {
    return rc::gen::oneOf(rc::gen::map(rc::gen::arbitrary<float>(), [](float f) { return double{f}; }),
                          rc::gen::arbitrary<double>(),
                          rc::gen::map(rc::gen::inRange(-8, 9), [](int v) { return v / 4.0; }));
}

inline Problem valid_problem_value() {
    namespace gen = rc::gen;
    Problem p;
    p.arch = *gen::element(ArchId::AtlasA2, ArchId::Ascend950);
    p.tile = default_tile(p.arch);
    p.m = *gen::inRange<int64_t>(1, 600);
    p.n = *gen::inRange<int64_t>(1, 600);
    p.k = *gen::inRange<int64_t>(1, 600);
    p.a = *gen::element(DType::f16, DType::f32);
    p.b = p.a;
    p.c = *gen::element(DType::f16, DType::f32);
    p.path = p.arch == ArchId::Ascend950 && *gen::arbitrary<bool>() ? WorkspacePath::UB : WorkspacePath::GM;

    std::vector<DType> types = {DType::f16, DType::f32};
    if (p.arch == ArchId::Ascend950) types.push_back(DType::bf16);
    GraphBuilder b;
    std::map<DType, std::vector<int>> pool;  // nodes by output element type
    int serial = 0;
    auto fresh = [&](const char* prefix) { return fmt::format("{}{}", prefix, serial++); };
    auto element_of = [&](int i) { return b.graph().nodes[i].element; };
    auto any_node = [&]() { return *gen::inRange<int>(0, static_cast<int>(b.graph().nodes.size())); };
    auto remember = [&](int i) { pool[element_of(i)].push_back(i); };

    remember(b.acc_load(p.c, p.path == WorkspacePath::UB));
    const int steps = *gen::inRange(0, 12);
    for (int s = 0; s < steps; ++s) {
        switch (*gen::inRange(0, 7)) {
            case 0: {  // a leaf reading an input tensor
                const DType t = *gen::elementOf(types);
                const int shape = *gen::inRange(0, 4);
                const char* prefix[] = {"x", "bias", "col", "s"};
                const std::string name = fresh(prefix[shape]);
                const int64_t rows = shape == 0 || shape == 2 ? p.m : 1;
                const int64_t cols = shape == 0 || shape == 1 ? p.n : 1;
                const int64_t stride =
                    shape == 0 && *gen::arbitrary<bool>() ? cols + *gen::inRange(1, 64) : 0;
                b.input(name, t, rows, cols, stride);
                if (shape == 0) remember(b.aux_load(t, name));
                if (shape == 1) remember(b.row_broadcast(t, name));
                if (shape == 2) remember(b.col_broadcast(t, name));
                if (shape == 3) remember(b.scalar_broadcast(t, name));
                break;
            }
            case 1: {  // a legal cast
                const int in = any_node();
                const DType from = element_of(in);
                std::vector<std::pair<DType, RoundMode>> legal;
                for (DType to : types)
                    for (RoundMode m : hw::kAllRoundModes)
                        if (to != from && hw::cast_legal(p.arch, from, to, m)) legal.emplace_back(to, m);
                if (legal.empty()) break;
                const auto [to, mode] = *gen::elementOf(legal);
                remember(b.cast(to, from, mode, in));
                break;
            }
            case 2:
            case 3: {  // a compute node over inputs of one type
                const DType t = element_of(any_node());
                std::vector<Functor> fns;
                for (const FunctorInfo& f : all_functors())
                    if ((!f.ascend950_only || p.arch == ArchId::Ascend950) &&
                        functor_dtype_legal(p.arch, f.fn, t))
                        fns.push_back(f.fn);
                const FunctorInfo& f = functor_info(*gen::elementOf(fns));
                const int arity =
                    f.max_inputs == kUnbounded ? *gen::inRange(f.min_inputs, f.min_inputs + 3) : f.min_inputs;
                std::vector<int> inputs;
                inputs.reserve(static_cast<size_t>(arity));
                for (int k = 0; k < arity; ++k) inputs.push_back(*gen::elementOf(pool[t]));
                std::vector<double> scalars;
                scalars.reserve(static_cast<size_t>(f.scalars));
                for (int k = 0; k < f.scalars; ++k) scalars.push_back(*scalar_value());
                remember(b.compute(f.fn, t, inputs, scalars));
                break;
            }
            case 4: {  // a side store (returns its input)
                const int in = any_node();
                const std::string name = fresh("out");
                b.output(name, element_of(in), p.m, p.n);
                remember(b.aux_store(element_of(in), name, in));
                break;
            }
            default: {  // a reduction (returns its input)
                const int in = any_node();
                const DType t = element_of(in);
                if (!reduce_dtype_legal(p.arch, t)) break;
                const Functor fn = *gen::element(Functor::Add, Functor::Max, Functor::Min);
                int shape = *gen::inRange(0, 3);
                if (!reduce_dtype_legal(p.arch, shape == 1 ? NodeKind::ColReduce : NodeKind::ScalarReduce, t))
                    shape = 0;  // Col/ScalarReduce take half and float only
                const char* prefix[] = {"rowOut", "colOut", "sum"};
                const std::string name = fresh(prefix[shape]);
                b.output(name, t, shape == 1 ? p.m : 1, shape == 0 ? p.n : 1);
                if (shape == 0) remember(b.row_reduce(fn, t, name, in));
                if (shape == 1) remember(b.col_reduce(fn, t, name, in));
                if (shape == 2) remember(b.scalar_reduce(fn, t, name, in));
                break;
            }
        }
    }
    // The root stores the last node.
    const int last = static_cast<int>(b.graph().nodes.size()) - 1;
    b.output("D", element_of(last), p.m, p.n);
    b.aux_store(element_of(last), "D", last);
    p.graph = b.graph();
    drop_unreachable_writers(p.graph);
    const uint32_t max_cl = max_compute_length(p.graph, p.arch, p.path);
    p.compute_length = 32 * static_cast<uint32_t>(*gen::inRange<int>(1, static_cast<int>(max_cl / 32) + 1));
    return p;
}

inline rc::Gen<Problem> valid_problem() {
    return rc::gen::exec(valid_problem_value);
}

}  // namespace evg::graph::testgen

namespace rc {
// Counterexamples print as graph text.
template <>
struct Arbitrary<evg::graph::Problem> {
    static Gen<evg::graph::Problem> arbitrary() { return evg::graph::testgen::valid_problem(); }
};
}  // namespace rc
