#include "evg/graph/functor.hpp"

#include <array>

namespace evg::graph {
namespace {

constexpr std::array<FunctorInfo, 22> kFunctors = {{
    {Functor::Exp, "Exp", 1, 1, 0, false, false, true},
    {Functor::Relu, "Relu", 1, 1, 0, false, false, true},
    {Functor::Sqrt, "Sqrt", 1, 1, 0, false, false, true},
    {Functor::RsqrtFast, "RsqrtFast", 1, 1, 0, false, false, true},
    {Functor::Silu, "Silu", 1, 1, 0, false, false, true},
    {Functor::LeakyRelu, "LeakyRelu", 1, 1, 1, false, false, true},
    {Functor::Muls, "Muls", 1, 1, 1, false, false, true},
    {Functor::Adds, "Adds", 1, 1, 1, false, false, true},
    {Functor::Maxs, "Maxs", 1, 1, 1, false, false, true},
    {Functor::Mins, "Mins", 1, 1, 1, false, false, true},
    {Functor::Add, "Add", 2, kUnbounded, 0, false, true, true},
    {Functor::Sub, "Sub", 2, kUnbounded, 0, false, false, true},
    {Functor::Mul, "Mul", 2, kUnbounded, 0, false, false, true},
    {Functor::Div, "Div", 2, kUnbounded, 0, false, false, true},
    {Functor::Max, "Max", 2, kUnbounded, 0, false, true, true},
    {Functor::Min, "Min", 2, kUnbounded, 0, false, true, true},
    {Functor::AddRelu, "AddRelu", 2, 2, 0, false, false, true},
    {Functor::Prelu, "Prelu", 2, 2, 0, true, false, true},
    {Functor::Reciprocal, "Reciprocal", 1, 1, 0, true, false, true},
    {Functor::Rsqrt, "Rsqrt", 1, 1, 0, true, false, true},
    {Functor::Sigmoid, "Sigmoid", 1, 1, 0, true, false, true},
    {Functor::Clamp, "Clamp", 1, 1, 2, false, false, false},
}};

constexpr bool functors_in_enum_order() {
    for (std::size_t i = 0; i < kFunctors.size(); ++i)
        if (static_cast<std::size_t>(kFunctors[i].fn) != i) return false;
    return true;
}
static_assert(functors_in_enum_order(), "kFunctors must list the functors in the order of enum Functor");

struct Alias {
    std::string_view name;
    FunctorSpelling spelling;
};
constexpr std::array<Alias, 8> kAliases = {{
    {"Plus", {Functor::Add}},
    {"Maximum", {Functor::Max}},
    {"Minimum", {Functor::Min}},
    {"PlusRelu", {Functor::AddRelu}},
    {"ExpOp", {Functor::Exp}},
    {"SubOp", {Functor::Sub}},
    {"DivOp", {Functor::Div}},
    {"Mul3", {Functor::Mul, 3}},
}};

constexpr std::array<std::string_view, kFunctors.size() + kAliases.size()> make_spellings() {
    std::array<std::string_view, kFunctors.size() + kAliases.size()> out{};
    std::size_t i = 0;
    for (const auto& f : kFunctors) out[i++] = f.name;
    for (const auto& a : kAliases) out[i++] = a.name;
    return out;
}
constexpr auto kSpellings = make_spellings();

}  // namespace

const FunctorInfo& functor_info(Functor fn) {
    return kFunctors[static_cast<std::size_t>(fn)];
}

std::span<const FunctorInfo> all_functors() {
    return kFunctors;
}

std::optional<FunctorSpelling> functor_from_name(std::string_view name) {
    for (const auto& f : kFunctors)
        if (f.name == name) return FunctorSpelling{f.fn};
    for (const auto& a : kAliases)
        if (a.name == name) return a.spelling;
    return std::nullopt;
}

std::span<const std::string_view> functor_spellings() {
    return kSpellings;
}

}  // namespace evg::graph
