// The case data of data.hpp.
#include "evg/verify/data.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <random>
#include <tuple>

#include "evg/oracle/data.hpp"
#include "evg/oracle/numeric.hpp"

namespace evg::verify {

using graph::DType;
using graph::Functor;

uint64_t sentinel_bits(DType t) {
    switch (t) {
        case DType::f32:
            return 0x7FA5A5A5u;
        case DType::f16:
            return 0x7D5Au;
        case DType::bf16:
            return 0x7FA5u;
        case DType::i8:
            return 0x80u;
        case DType::u8:
            return 0xA5u;
        case DType::i16:
            return 0x8000u;
        case DType::i32:
            return 0x80000000u;
        case DType::i64:
            return 0x8000000000000000ull;
    }
    return 0;
}

std::optional<oracle::Real> reduce_initial_value(const graph::Problem& p, const std::string& tensor) {
    const auto t = std::find_if(p.graph.tensors.begin(), p.graph.tensors.end(),
                                [&](const graph::Tensor& x) { return x.name == tensor; });
    if (t == p.graph.tensors.end()) return std::nullopt;
    for (const graph::Node& node : p.graph.nodes) {
        if (node.tensor != tensor || !graph::is_reduce(node.kind)) continue;
        if (node.fn == Functor::Max) return oracle::dtype_lowest(t->element);
        if (node.fn == Functor::Min) return oracle::dtype_max(t->element);
        return oracle::Real{0};
    }
    return std::nullopt;
}

const char* data_mode_name(DataMode d) {
    switch (d) {
        case DataMode::Exact:
            return "exact";
        case DataMode::Uniform:
            return "uniform";
        case DataMode::Special:
            return "special";
    }
    return "?";
}

InputSign identity_telling_sign(const graph::Problem& p) {
    bool max = false, min = false;
    for (const graph::Node& n : p.graph.nodes) {
        if (!graph::is_reduce(n.kind)) continue;
        max = max || n.fn == Functor::Max;
        min = min || n.fn == Functor::Min;
    }
    return max && !min ? InputSign::negative : min && !max ? InputSign::positive : InputSign::mixed;
}

CaseData make_case_data(const graph::Problem& p, DataMode mode, uint64_t seed, InputSign sign) {
    CaseData d;
    uint64_t stream = seed * 7919u + 1;
    auto next_seed = [&] { return stream++ * 0x9E3779B97F4A7C15ull; };
    const int64_t r = std::clamp<int64_t>(oracle::exact_gemm_range(p.k, p.a, p.c), 0, 3);
    const bool integer_ab = mode != DataMode::Uniform && r > 0;
    d.exact_data = mode == DataMode::Exact && integer_ab;
    for (auto [name, type, rows, cols] : {std::tuple{"A", p.a, p.m, p.k}, std::tuple{"B", p.b, p.k, p.n}}) {
        oracle::HostTensor t(type, static_cast<std::size_t>(rows * cols));
        if (integer_ab)
            oracle::fill_integers(t, -r, r, next_seed());
        else
            oracle::fill_uniform(t, -1, 1, next_seed());
        d.inputs.emplace(name, std::move(t));
    }
    for (const graph::Tensor& t : p.graph.tensors) {
        const auto count = static_cast<std::size_t>(graph::buffer_elements(t));
        oracle::HostTensor h(t.element, count);
        if (t.role == graph::TensorRole::Input) {
            if (mode == DataMode::Exact) {
                oracle::fill_integers(h, t.element == DType::u8 ? 0 : -4, 4, next_seed());
            } else if (mode == DataMode::Uniform) {
                oracle::fill_uniform(h, -2, 2, next_seed());
            } else {
                const uint64_t sd = next_seed();
                oracle::fill_special(h, sd, 0.3);
                if (t.element == DType::f32) {  // overflow on a down-cast to half / bfloat16
                    std::mt19937_64 rng(sd ^ 0x5555);
                    static constexpr oracle::Real big[] = {65520, -65520,  70000,    1e5,
                                                           -3e5,  3.4e38L, -3.39e38L};
                    for (std::size_t i = 0; i < count; ++i)
                        if (rng() % 10 == 0) h.set_value(i, big[rng() % std::size(big)]);
                }
            }
            if (sign != InputSign::mixed && !(sign == InputSign::negative && t.element == DType::u8))
                for (std::size_t i = 0; i < count; ++i) {
                    const oracle::Real v = h.value(i);
                    if (v != v) continue;  // NaN
                    const oracle::Real a = std::max<oracle::Real>(v < 0 ? -v : v, 1);
                    h.set_value(i, sign == InputSign::negative ? -a : a);
                }
        } else if (const auto init = reduce_initial_value(p, t.name)) {
            for (std::size_t i = 0; i < count; ++i) h.set_value(i, *init);
        } else {
            const uint64_t s = sentinel_bits(t.element);
            for (std::size_t i = 0; i < count; ++i) h.set_bits(i, s);
        }
        d.inputs.emplace(t.name, std::move(h));
    }
    const std::string ab = integer_ab ? fmt::format("integers in [-{0}, {0}] for A and B", r)
                                      : std::string("uniform reals in [-1, 1) for A and B");
    switch (mode) {
        case DataMode::Exact:
            d.description = integer_ab ? "exact-friendly: " + ab + ", integers in [-4, 4] for the inputs"
                                       : "not exact: " + ab +
                                             " (K too long for exact integers), integers in "
                                             "[-4, 4] for the inputs";
            break;
        case DataMode::Uniform:
            d.description = "uniform reals: [-1, 1) for A and B, [-2, 2) for the inputs";
            break;
        case DataMode::Special:
            d.description = ab +
                            "; the inputs with special values (NaN, inf, subnormals, ties, values that "
                            "overflow half / bfloat16)";
            break;
    }
    if (sign != InputSign::mixed)
        d.description +=
            sign == InputSign::negative ? "; every input value negative" : "; every input value positive";
    d.description += "; outputs start as the sentinel (reduce outputs: the reduce's identity)";
    return d;
}

graph::RunInputs run_inputs(const oracle::Inputs& inputs) {
    graph::RunInputs in;
    for (const auto& [name, t] : inputs) {
        const auto* b = reinterpret_cast<const uint8_t*>(t.bytes().data());
        in.tensors[name] = std::vector<uint8_t>(b, b + t.bytes().size());
    }
    return in;
}

}  // namespace evg::verify
