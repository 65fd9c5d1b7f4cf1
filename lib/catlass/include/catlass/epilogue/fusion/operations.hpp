// The element-wise compute functors of VisitorCompute (docs/evg-semantics.md §7.1, MASTER) and the reduction
// helpers of the Row/Col/Scalar Reduce nodes (§7.2, L1 lineage, written in the MASTER conventions).
//
// Call convention: `fn.template operator()<ArchTag>(dst, compute_length, srcs...)`, every source a
// LocalTensor<T> of at least compute_length elements. The ArchTag is the one the node's visit<Stage, ArchTag>
// runs on, so the Ascend950-only functors (Prelu, Reciprocal, Rsqrt, Sigmoid) fail to compile on AtlasA2.
// Functors with a scalar are aggregates whose field is filled from VisitorCompute's Scalars.
// Contract on exit of every functor: its vector instructions are issued; it ends with no PipeBarrier of
// its own (the node puts one after it), but multi-step functors put PipeBarrier<PIPE_V> between their steps.
#pragma once
#include <cstdint>
#include <type_traits>

#include "catlass/arch/arch.hpp"
#include "catlass/catlass.hpp"

namespace Catlass::Epilogue::Fusion {

namespace detail {
template <class ArchTag>
inline constexpr bool is_ascend950_v = std::is_same_v<ArchTag, Arch::Ascend950>;

// The element types every source of an element-wise functor must have.
template <class T, class... Srcs>
inline constexpr bool all_local_of_v = (std::is_same_v<Srcs, AscendC::LocalTensor<T>> && ...);

// dst = op(src0, src1); then dst = op(dst, src_k) for k >= 2, PipeBarrier<PIPE_V> before each extra step.
template <class Op, class T, class... Rest>
CATLASS_DEVICE void chain(Op op, const AscendC::LocalTensor<T>& dst, uint32_t len,
                          const AscendC::LocalTensor<T>& a, const AscendC::LocalTensor<T>& b,
                          const Rest&... rest) {
    op(dst, a, b, len);
    ((AscendC::PipeBarrier<AscendC::PIPE_V>(), op(dst, dst, rest, len)), ...);
}
}  // namespace detail

// ---- unary ------------------------------------------------------------------------------------------

template <class T>
struct Exp {
    template <class ArchTag = void>
    CATLASS_DEVICE void operator()(const AscendC::LocalTensor<T>& dst, uint32_t len,
                                   const AscendC::LocalTensor<T>& src) const {
        AscendC::Exp(dst, src, static_cast<int32_t>(len));
    }
};

template <class T>
struct Relu {
    template <class ArchTag = void>
    CATLASS_DEVICE void operator()(const AscendC::LocalTensor<T>& dst, uint32_t len,
                                   const AscendC::LocalTensor<T>& src) const {
        AscendC::Relu(dst, src, static_cast<int32_t>(len));
    }
};

template <class T>
struct Sqrt {
    template <class ArchTag = void>
    CATLASS_DEVICE void operator()(const AscendC::LocalTensor<T>& dst, uint32_t len,
                                   const AscendC::LocalTensor<T>& src) const {
        AscendC::Sqrt(dst, src, static_cast<int32_t>(len));
    }
};

// 1/sqrt(x) with the hardware's approximate instruction (no refinement step).
template <class T>
struct RsqrtFast {
    template <class ArchTag = void>
    CATLASS_DEVICE void operator()(const AscendC::LocalTensor<T>& dst, uint32_t len,
                                   const AscendC::LocalTensor<T>& src) const {
        AscendC::Rsqrt(dst, src, static_cast<int32_t>(len));
    }
};

// x >= 0 ? x : x * scalar.
template <class T>
struct LeakyRelu {
    T scalar{};
    template <class ArchTag = void>
    CATLASS_DEVICE void operator()(const AscendC::LocalTensor<T>& dst, uint32_t len,
                                   const AscendC::LocalTensor<T>& src) const {
        AscendC::LeakyRelu(dst, src, scalar, static_cast<int32_t>(len));
    }
};

// S -> T with rounding Mode (VisitorCast's conversion).
template <class T, class S, AscendC::RoundMode Mode = AscendC::RoundMode::CAST_NONE>
struct Cast {
    static_assert(!std::is_same_v<T, S>,
                  "Cast: source and destination types are the same; no cast is needed");
    template <class ArchTag = void>
    CATLASS_DEVICE void operator()(const AscendC::LocalTensor<T>& dst, uint32_t len,
                                   const AscendC::LocalTensor<S>& src) const {
        AscendC::Cast(dst, src, Mode, len);
    }
};

// x * sigmoid(x).
template <class T>
struct Silu {
    template <class ArchTag = void>
    CATLASS_DEVICE void operator()(const AscendC::LocalTensor<T>& dst, uint32_t len,
                                   const AscendC::LocalTensor<T>& src) const {
        AscendC::Silu(dst, src, static_cast<int32_t>(len));
    }
};

// ---- tensor (op) scalar ---------------------------------------------------------------------------

#define CATLASS_EVG_SCALAR_FUNCTOR(NAME)                                                 \
    template <class T>                                                                   \
    struct NAME {                                                                        \
        T scalarValue{};                                                                 \
        template <class ArchTag = void>                                                  \
        CATLASS_DEVICE void operator()(const AscendC::LocalTensor<T>& dst, uint32_t len, \
                                       const AscendC::LocalTensor<T>& src) const {       \
            AscendC::NAME(dst, src, scalarValue, static_cast<int32_t>(len));             \
        }                                                                                \
    };
CATLASS_EVG_SCALAR_FUNCTOR(Muls)
CATLASS_EVG_SCALAR_FUNCTOR(Adds)
CATLASS_EVG_SCALAR_FUNCTOR(Maxs)
CATLASS_EVG_SCALAR_FUNCTOR(Mins)
#undef CATLASS_EVG_SCALAR_FUNCTOR

// ---- n-ary, chained left to right: ((a op b) op c) op ... -----------------------------------------

#define CATLASS_EVG_NARY_FUNCTOR(NAME)                                                                    \
    template <class T>                                                                                    \
    struct NAME {                                                                                         \
        template <class ArchTag = void, class... Srcs>                                                    \
        CATLASS_DEVICE void operator()(const AscendC::LocalTensor<T>& dst, uint32_t len,                  \
                                       const Srcs&... srcs) const {                                       \
            static_assert(sizeof...(Srcs) >= 2, #NAME ": needs at least two inputs");                     \
            static_assert(detail::all_local_of_v<T, Srcs...>,                                             \
                          #NAME ": every input must be a LocalTensor of the compute element type");       \
            detail::chain(                                                                                \
                [](const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<T>& a,                    \
                   const AscendC::LocalTensor<T>& b, uint32_t n) { AscendC::NAME(d, a, b, int32_t(n)); }, \
                dst, len, srcs...);                                                                       \
        }                                                                                                 \
    };
CATLASS_EVG_NARY_FUNCTOR(Add)
CATLASS_EVG_NARY_FUNCTOR(Sub)
CATLASS_EVG_NARY_FUNCTOR(Mul)
CATLASS_EVG_NARY_FUNCTOR(Div)
CATLASS_EVG_NARY_FUNCTOR(Max)
CATLASS_EVG_NARY_FUNCTOR(Min)
#undef CATLASS_EVG_NARY_FUNCTOR

// max(a + b, 0): Add, PipeBarrier<PIPE_V>, Relu in place.
template <class T>
struct AddRelu {
    template <class ArchTag = void>
    CATLASS_DEVICE void operator()(const AscendC::LocalTensor<T>& dst, uint32_t len,
                                   const AscendC::LocalTensor<T>& a, const AscendC::LocalTensor<T>& b) const {
        AscendC::Add(dst, a, b, static_cast<int32_t>(len));
        AscendC::PipeBarrier<AscendC::PIPE_V>();
        AscendC::Relu(dst, dst, static_cast<int32_t>(len));
    }
};

// ---- Ascend950 only (CATLASS_ARCH 3510) -----------------------------------------------------------

// a >= 0 ? a : a * b (element-wise slope).
template <class T>
struct Prelu {
    template <class ArchTag = void>
    CATLASS_DEVICE void operator()(const AscendC::LocalTensor<T>& dst, uint32_t len,
                                   const AscendC::LocalTensor<T>& a, const AscendC::LocalTensor<T>& b) const {
        static_assert(detail::is_ascend950_v<ArchTag>,
                      "Prelu is an Ascend950-only functor (Catlass compiles it only for CATLASS_ARCH 3510); "
                      "it cannot run on this ArchTag");
        AscendC::Prelu(dst, a, b, static_cast<int32_t>(len));
    }
};

// 1 / x, as Divs(dst, 1, src).
template <class T>
struct Reciprocal {
    template <class ArchTag = void>
    CATLASS_DEVICE void operator()(const AscendC::LocalTensor<T>& dst, uint32_t len,
                                   const AscendC::LocalTensor<T>& src) const {
        static_assert(detail::is_ascend950_v<ArchTag>,
                      "Reciprocal is an Ascend950-only functor (Catlass compiles it only for CATLASS_ARCH "
                      "3510); it cannot run on this ArchTag");
        AscendC::Divs(dst, T(1.0f), src, static_cast<int32_t>(len));
    }
};

// 1 / sqrt(x), accurate path: Sqrt, PipeBarrier<PIPE_V>, Divs(1 / .).
template <class T>
struct Rsqrt {
    template <class ArchTag = void>
    CATLASS_DEVICE void operator()(const AscendC::LocalTensor<T>& dst, uint32_t len,
                                   const AscendC::LocalTensor<T>& src) const {
        static_assert(detail::is_ascend950_v<ArchTag>,
                      "Rsqrt is an Ascend950-only functor (Catlass compiles it only for CATLASS_ARCH 3510); "
                      "use RsqrtFast on this ArchTag");
        AscendC::Sqrt(dst, src, static_cast<int32_t>(len));
        AscendC::PipeBarrier<AscendC::PIPE_V>();
        AscendC::Divs(dst, T(1.0f), dst, static_cast<int32_t>(len));
    }
};

// 1 / (1 + e^-x): Muls(-1), Exp, Adds(+1), Divs(1 / .), a PipeBarrier<PIPE_V> between steps.
template <class T>
struct Sigmoid {
    template <class ArchTag = void>
    CATLASS_DEVICE void operator()(const AscendC::LocalTensor<T>& dst, uint32_t len,
                                   const AscendC::LocalTensor<T>& src) const {
        static_assert(detail::is_ascend950_v<ArchTag>,
                      "Sigmoid is an Ascend950-only functor (Catlass compiles it only for CATLASS_ARCH "
                      "3510); it cannot run on this ArchTag");
        const auto n = static_cast<int32_t>(len);
        AscendC::Muls(dst, src, T(-1.0f), n);
        AscendC::PipeBarrier<AscendC::PIPE_V>();
        AscendC::Exp(dst, dst, n);
        AscendC::PipeBarrier<AscendC::PIPE_V>();
        AscendC::Adds(dst, dst, T(1.0f), n);
        AscendC::PipeBarrier<AscendC::PIPE_V>();
        AscendC::Divs(dst, T(1.0f), dst, n);
    }
};

// ---- seed-000 (L1 lineage) names ------------------------------------------------------------------

template <class T>
using Plus = Add<T>;
template <class T>
using Maximum = Max<T>;
template <class T>
using Minimum = Min<T>;
template <class T>
using PlusRelu = AddRelu<T>;
template <class T>
using ExpOp = Exp<T>;
template <class T>
using SubOp = Sub<T>;
template <class T>
using DivOp = Div<T>;
template <class T>
using Mul3 = Mul<T>;  // Mul with three inputs

// ---- reductions (Row/Col/Scalar Reduce) -----------------------------------------------------------

// L1's strategy switch: WORKSPACE_REDUCE was never implemented upstream and behaves as ATOMIC_REDUCE.
enum class ReduceStrategy { ATOMIC_REDUCE, WORKSPACE_REDUCE };

// The reduction a ReduceFn names: Add (sum), Max or Min (seed-000 Plus, Maximum, Minimum are the same types).
template <template <class> class ReduceFn, class T>
struct ReduceOp {
    static constexpr bool IS_SUM = std::is_same_v<ReduceFn<T>, Add<T>>;
    static constexpr bool IS_MAX = std::is_same_v<ReduceFn<T>, Max<T>>;
    static constexpr bool IS_MIN = std::is_same_v<ReduceFn<T>, Min<T>>;
    static constexpr bool SUPPORTED = IS_SUM || IS_MAX || IS_MIN;

    // dst = op(a, b) over len elements.
    CATLASS_DEVICE static void combine(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& a,
                                       const AscendC::LocalTensor<T>& b, uint32_t len) {
        if constexpr (IS_SUM) AscendC::Add(dst, a, b, static_cast<int32_t>(len));
        if constexpr (IS_MAX) AscendC::Max(dst, a, b, static_cast<int32_t>(len));
        if constexpr (IS_MIN) AscendC::Min(dst, a, b, static_cast<int32_t>(len));
    }
    // dst[0] = op over src[0, len), `work` as scratch.
    CATLASS_DEVICE static void reduce(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                                      const AscendC::LocalTensor<T>& work, uint32_t len) {
        if constexpr (IS_SUM) AscendC::ReduceSum(dst, src, work, static_cast<int32_t>(len));
        if constexpr (IS_MAX) AscendC::ReduceMax(dst, src, work, static_cast<int32_t>(len));
        if constexpr (IS_MIN) AscendC::ReduceMin(dst, src, work, static_cast<int32_t>(len));
    }
    // GM atomic mode that combines the partials of all tiles: SetAtomicAdd/Max/Min<T>.
    CATLASS_DEVICE static void set_atomic() {
        if constexpr (IS_SUM) AscendC::SetAtomicAdd<T>();
        if constexpr (IS_MAX) AscendC::SetAtomicMax<T>();
        if constexpr (IS_MIN) AscendC::SetAtomicMin<T>();
    }
    CATLASS_DEVICE static void clear_atomic() { AscendC::SetAtomicNone(); }
};

// ---- tensor with two scalars ------------------------------------------------------------------

// min(max(x, lo), hi): Maxs, PipeBarrier<PIPE_V>, Mins in place. With lo > hi every element is hi, as the two
// instructions give. Not in upstream Catlass's operations.hpp (evgcheck's own functor, written as upstream's
// are: VisitorCompute<Clamp, E, E, E> with Arguments {{lo, hi}}).
template <class T>
struct Clamp {
    T lo{};
    T hi{};
    template <class ArchTag = void>
    CATLASS_DEVICE void operator()(const AscendC::LocalTensor<T>& dst, uint32_t len,
                                   const AscendC::LocalTensor<T>& src) const {
        AscendC::Maxs(dst, src, lo, static_cast<int32_t>(len));
        AscendC::PipeBarrier<AscendC::PIPE_V>();
        AscendC::Mins(dst, dst, hi, static_cast<int32_t>(len));
    }
};

}  // namespace Catlass::Epilogue::Fusion
