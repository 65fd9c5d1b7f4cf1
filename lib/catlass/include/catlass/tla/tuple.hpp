// tla::tuple, tla::seq and tla::Int: the compile-time vocabulary EVG declarations are written in.
#pragma once
#include <cstddef>
#include <type_traits>
#include <utility>

namespace tla {

template <int N>
using Int = std::integral_constant<int, N>;

// A list of op indices: one TopologicalVisitor edge list.
template <size_t... I>
struct seq {
    static constexpr size_t size = sizeof...(I);
};

namespace detail {
template <size_t I, class T>
struct tuple_leaf {
    T value{};
};
template <class Idx, class... Ts>
struct tuple_base;
template <size_t... I, class... Ts>
struct tuple_base<std::index_sequence<I...>, Ts...> : tuple_leaf<I, Ts>... {
    constexpr tuple_base() = default;
    // Only for non-empty tuples: with no elements it would redeclare the default constructor.
    template <size_t N = sizeof...(Ts), std::enable_if_t<(N > 0), int> = 0>
    constexpr explicit tuple_base(const Ts&... ts) : tuple_leaf<I, Ts>{ts}... {}
};
}  // namespace detail

// A tuple that brace-initialises element by element: `tla::tuple<A, B>{ {}, {p, layout} }`.
template <class... Ts>
struct tuple : detail::tuple_base<std::index_sequence_for<Ts...>, Ts...> {
    using base = detail::tuple_base<std::index_sequence_for<Ts...>, Ts...>;
    constexpr tuple() = default;
    template <size_t N = sizeof...(Ts), std::enable_if_t<(N > 0), int> = 0>
    constexpr tuple(const Ts&... ts) : base(ts...) {}
};

// Catlass's names for a tuple of extents: tile shapes are written `Shape<Int<256>, Int<256>, Int<128>>`.
template <class... Ts>
using Shape = tuple<Ts...>;

template <class T>
struct tuple_size;
template <class... Ts>
struct tuple_size<tuple<Ts...>> : std::integral_constant<size_t, sizeof...(Ts)> {};
template <size_t... I>
struct tuple_size<seq<I...>> : std::integral_constant<size_t, sizeof...(I)> {};
template <class T>
inline constexpr size_t tuple_size_v = tuple_size<std::remove_cv_t<T>>::value;

template <size_t I, class T>
struct tuple_element;
template <size_t I, class T0, class... Ts>
struct tuple_element<I, tuple<T0, Ts...>> : tuple_element<I - 1, tuple<Ts...>> {};
template <class T0, class... Ts>
struct tuple_element<0, tuple<T0, Ts...>> {
    using type = T0;
};
template <size_t I, class T>
using tuple_element_t = typename tuple_element<I, T>::type;

template <size_t I, class... Ts>
constexpr auto& get(tuple<Ts...>& t) {
    using T = tuple_element_t<I, tuple<Ts...>>;
    return static_cast<detail::tuple_leaf<I, T>&>(t).value;
}
template <size_t I, class... Ts>
constexpr const auto& get(const tuple<Ts...>& t) {
    using T = tuple_element_t<I, tuple<Ts...>>;
    return static_cast<const detail::tuple_leaf<I, T>&>(t).value;
}

template <class... Ts>
constexpr tuple<std::decay_t<Ts>...> make_tuple(Ts&&... ts) {
    return tuple<std::decay_t<Ts>...>(ts...);
}

// Calls f on every element, in order.
template <class F, class... Ts>
constexpr void for_each(tuple<Ts...>& t, F&& f) {
    [&]<size_t... I>(std::index_sequence<I...>) {
        (f(get<I>(t)), ...);
    }
    (std::index_sequence_for<Ts...>{});
}
template <class F, class... Ts>
constexpr void for_each(const tuple<Ts...>& t, F&& f) {
    [&]<size_t... I>(std::index_sequence<I...>) {
        (f(get<I>(t)), ...);
    }
    (std::index_sequence_for<Ts...>{});
}

// The I-th index of a seq.
template <size_t I, size_t... Is>
constexpr size_t seq_get(seq<Is...>) {
    constexpr size_t v[] = {Is..., 0};
    return v[I];
}

}  // namespace tla
