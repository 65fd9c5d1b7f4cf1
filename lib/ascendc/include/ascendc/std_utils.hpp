// AscendC's compile-time helpers: IsSameType, the AscendC::Std traits and min/max. All compile-time or scalar
// host arithmetic, so nothing is issued to the machine.
#pragma once
#include <cstdint>

namespace AscendC {

template <class T, class U>
struct IsSameType {
    static constexpr bool value = false;
};
template <class T>
struct IsSameType<T, T> {
    static constexpr bool value = true;
};

namespace Std {

// A compile-time constant as a type (std::integral_constant's shape): upstream's TLA-style shapes name
// AscendC::Std::integral_constant<int32_t, N> for static extents.
template <class T, T v>
struct integral_constant {
    static constexpr T value = v;
    using value_type = T;
    using type = integral_constant;
    constexpr operator value_type() const noexcept { return value; }
    constexpr value_type operator()() const noexcept { return value; }
};
template <bool B>
using bool_constant = integral_constant<bool, B>;
using true_type = bool_constant<true>;
using false_type = bool_constant<false>;

template <class T, class U>
struct IsSame : IsSameType<T, U> {};
template <class T, class U>
inline constexpr bool is_same_v = IsSameType<T, U>::value;

// True when T is one of Ts.
template <class T, class... Ts>
inline constexpr bool is_one_of_v = (IsSameType<T, Ts>::value || ...);
template <class T, class... Ts>
struct is_one_of {
    static constexpr bool value = is_one_of_v<T, Ts...>;
};

template <class T>
constexpr const T& min(const T& a, const T& b) {
    return b < a ? b : a;
}
template <class T>
constexpr const T& max(const T& a, const T& b) {
    return a < b ? b : a;
}

}  // namespace Std
}  // namespace AscendC
