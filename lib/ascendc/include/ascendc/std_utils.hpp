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
