// Catlass basics: qualifiers, constants and integer helpers (docs/evg-semantics.md §9).
#pragma once
#include <cstdint>

#include "kernel_operator.h"

#ifndef CATLASS_DEVICE
#define CATLASS_DEVICE inline
#endif
#ifndef CATLASS_HOST
#define CATLASS_HOST inline
#endif
#ifndef CATLASS_HOST_DEVICE
#define CATLASS_HOST_DEVICE inline
#endif
#ifndef CATLASS_GLOBAL
#define CATLASS_GLOBAL
#endif

namespace Catlass {

constexpr uint32_t BYTE_PER_C0 = 32;
constexpr uint32_t BYTE_PER_C2 = 64;
constexpr uint32_t C0_NUM_PER_FRACTAL = 16;
constexpr uint32_t BYTE_PER_FRACTAL = 512;
constexpr uint32_t BYTE_PER_BLK = 32;
constexpr uint32_t BLK_NUM_PER_VECTOR_FRACTAL = 8;
constexpr uint32_t BYTE_PER_VECTOR_FRACTAL = 256;
constexpr uint32_t STRIDE_LIMIT = 65536;

enum class Status {
    kSuccess,
    kErrorMisalignedOperand,
    kErrorInvalidProblem,
    kErrorNotSupported,
    kErrorWorkspaceNull,
    kInvalid
};

template <uint32_t ALIGN, class T>
constexpr T RoundUp(const T& val) {
    static_assert(ALIGN != 0, "ALIGN must not be 0");
    return (val + ALIGN - 1) / ALIGN * ALIGN;
}
template <class T>
constexpr T RoundUp(const T& val, const T& align) {
    return align == 0 ? val : (val + align - 1) / align * align;
}
template <uint32_t ALIGN, class T>
constexpr T RoundDown(const T& val) {
    static_assert(ALIGN != 0, "ALIGN must not be 0");
    return val / ALIGN * ALIGN;
}
template <class T>
constexpr T RoundDown(const T& val, const T& align) {
    return align == 0 ? val : val / align * align;
}
template <uint32_t DIVISOR, class T>
constexpr T CeilDiv(const T& dividend) {
    static_assert(DIVISOR != 0, "DIVISOR must not be 0");
    return (dividend + DIVISOR - 1) / DIVISOR;
}
template <class T>
constexpr T CeilDiv(const T& dividend, const T& divisor) {
    return divisor == 0 ? T(0) : (dividend + divisor - 1) / divisor;
}
template <class T>
constexpr T Min(const T& a, const T& b) {
    return a < b ? a : b;
}
template <class T>
constexpr T Max(const T& a, const T& b) {
    return a > b ? a : b;
}

}  // namespace Catlass
