// The element-wise compute functors of operations.hpp (docs/evg-semantics.md §7.1) and the reduce functors of
// the L1 reduce nodes (§2.7-2.11), with their arity, scalar count and arch restriction.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace evg::graph {

enum class Functor : uint8_t {
    // unary
    Exp,
    Relu,
    Sqrt,
    RsqrtFast,
    Silu,
    // unary with one scalar
    LeakyRelu,
    Muls,
    Adds,
    Maxs,
    Mins,
    // n-ary (>= 2 inputs), chained left to right
    Add,
    Sub,
    Mul,
    Div,
    Max,
    Min,
    // binary
    AddRelu,
    // Ascend950 only
    Prelu,
    Reciprocal,
    Rsqrt,
    Sigmoid,
    // unary with two scalars
    Clamp,
};

struct FunctorInfo {
    Functor fn;
    std::string_view name;  // canonical name, also the C++ template name in Catlass::Epilogue::Fusion
    int min_inputs;
    int max_inputs;  // kUnbounded for the chained n-ary functors
    int scalars;     // number of scalar fields (VisitorCompute Scalars...)
    bool ascend950_only;
    bool reduce;  // usable as the ReduceFn of Row/Col/ScalarReduce (Add, Max, Min)
    // Upstream Catlass has the functor (catlass/epilogue/fusion/operations.hpp of every release with EVG,
    // v1.6.0 on): the column evg/graph/implementation.hpp reads.
    bool in_upstream;
};
inline constexpr int kUnbounded = 1 << 30;

const FunctorInfo& functor_info(Functor fn);
std::span<const FunctorInfo> all_functors();
inline std::string_view functor_name(Functor fn) {
    return functor_info(fn).name;
}

// A functor spelled in text. Canonical names and the seed-000 aliases are accepted:
// Plus=Add, Maximum=Max, Minimum=Min, PlusRelu=AddRelu, ExpOp=Exp, SubOp=Sub, DivOp=Div, Mul3=Mul with 3
// inputs.
struct FunctorSpelling {
    Functor fn;
    int exact_inputs = 0;  // 3 for Mul3, otherwise 0 (no constraint beyond the functor's own arity)
};
std::optional<FunctorSpelling> functor_from_name(std::string_view name);
// Every accepted spelling (canonical names first, then aliases), for "did you mean" suggestions.
std::span<const std::string_view> functor_spellings();

}  // namespace evg::graph
