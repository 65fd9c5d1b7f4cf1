#include "evg/oracle/functors.hpp"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "evg/hw/error.hpp"

namespace evg::oracle {
namespace {

using graph::Functor;

[[noreturn]] void fail(Functor fn, DType t, const std::string& why) {
    throw evg::Error(
        fmt::format("oracle: Compute<{}, {}>: {}", graph::functor_name(fn), dtype_label(t), why));
}

bool integer_instruction(Functor fn) {
    switch (fn) {
        case Functor::Relu:
        case Functor::Muls:
        case Functor::Adds:
        case Functor::Maxs:
        case Functor::Mins:
        case Functor::Clamp:
        case Functor::Add:
        case Functor::Sub:
        case Functor::Mul:
        case Functor::Max:
        case Functor::Min:
        case Functor::AddRelu:
            return true;
        default:
            return false;
    }
}

Values relu(const Values& x) {
    return x.unaryExpr([](Real v) { return maximum(v, Real(0)); });
}

}  // namespace

Real scalar_value(DType t, double s) {
    if (is_integer_dtype(t)) return round_to(t, Real(s), RoundMode::CAST_TRUNC);
    const Real as_float = round_float(Real(s), kFloat, RoundMode::CAST_RINT);
    return round_to(t, as_float, RoundMode::CAST_RINT);
}

Real reduce_step(graph::Functor fn, DType t, Real a, Real b) {
    switch (fn) {
        case Functor::Add:
            return instruction_result(t, a + b);
        case Functor::Max:
            return maximum(a, b);
        case Functor::Min:
            return minimum(a, b);
        default:
            break;
    }
    throw evg::Error(
        fmt::format("oracle: {} is not a reduce functor (Add, Max or Min)", graph::functor_name(fn)));
}

Values apply_functor(Functor fn, DType t, std::span<const Values* const> inputs,
                     std::span<const double> scalars) {
    const graph::FunctorInfo& info = graph::functor_info(fn);
    const auto n = static_cast<int>(inputs.size());
    if (n < info.min_inputs || n > info.max_inputs)
        fail(fn, t, fmt::format("takes {}..{} inputs, got {}", info.min_inputs, info.max_inputs, n));
    if (static_cast<int>(scalars.size()) < info.scalars)
        fail(fn, t, fmt::format("needs {} scalar(s), got {}", info.scalars, scalars.size()));
    if (is_integer_dtype(t) && !integer_instruction(fn))
        fail(fn, t, "there is no integer instruction for it");

    // one vector instruction: the exact result, rounded (or wrapped) to t
    const auto rn = [t](const auto& exact) { return instruction_result(t, exact); };
    const auto rn1 = [t](Real exact) { return instruction_result(t, exact); };
    const Values& x = *inputs[0];
    const Real s = info.scalars > 0 ? scalar_value(t, scalars[0]) : Real(0);

    // left-to-right chain of a binary instruction: dst = op(a, b); dst = op(dst, c); ...
    const auto chain = [&](const auto& op) {
        Values acc = op(*inputs[0], *inputs[1]);
        for (int i = 2; i < n; ++i) acc = op(acc, *inputs[static_cast<std::size_t>(i)]);
        return acc;
    };

    switch (fn) {
        case Functor::Exp:
            return rn(x.exp());
        case Functor::Relu:
            return relu(x);
        case Functor::Sqrt:
            return rn(x.sqrt());
        case Functor::RsqrtFast:
            return rn(x.sqrt().inverse());
        case Functor::Silu:
            return rn(x / (1 + (-x).exp()));
        case Functor::LeakyRelu:
            return x.unaryExpr([&](Real v) { return v >= 0 ? v : rn1(v * s); });
        case Functor::Muls:
            return rn(x * s);
        case Functor::Adds:
            return rn(x + s);
        case Functor::Maxs:
            return x.unaryExpr([s](Real v) { return maximum(v, s); });
        case Functor::Mins:
            return x.unaryExpr([s](Real v) { return minimum(v, s); });
        case Functor::Clamp: {  // clamp(x, lo, hi) = min(max(x, lo), hi): hi wherever lo > hi
            const Real hi = scalar_value(t, scalars[1]);
            return x.unaryExpr([s, hi](Real v) { return minimum(maximum(v, s), hi); });
        }
        case Functor::Add:
            return chain([&](const Values& a, const Values& b) { return rn(a + b); });
        case Functor::Sub:
            return chain([&](const Values& a, const Values& b) { return rn(a - b); });
        case Functor::Mul:
            return chain([&](const Values& a, const Values& b) { return rn(a * b); });
        case Functor::Div:
            return chain([&](const Values& a, const Values& b) { return rn(a / b); });
        case Functor::Max:
            return chain([](const Values& a, const Values& b) {
                return Values(a.binaryExpr(b, [](Real u, Real v) { return maximum(u, v); }));
            });
        case Functor::Min:
            return chain([](const Values& a, const Values& b) {
                return Values(a.binaryExpr(b, [](Real u, Real v) { return minimum(u, v); }));
            });
        case Functor::AddRelu:
            return relu(rn(x + *inputs[1]));
        case Functor::Prelu:
            return x.binaryExpr(*inputs[1], [&](Real a, Real b) { return a >= 0 ? a : rn1(a * b); });
        case Functor::Reciprocal:
            return rn(x.inverse());
        case Functor::Rsqrt:
            return rn(rn(x.sqrt()).inverse());
        case Functor::Sigmoid: {
            const Values negated = rn(x * Real(-1));  // Muls(-1)
            const Values e = rn(negated.exp());       // Exp
            const Values denominator = rn(e + 1);     // Adds(+1)
            return rn(denominator.inverse());         // Divs(1 / x)
        }
    }
    fail(fn, t, "unknown functor");
}

}  // namespace evg::oracle
