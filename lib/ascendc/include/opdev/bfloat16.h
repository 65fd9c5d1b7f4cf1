// CANN's host-side bfloat16 type, op::bfloat16, as Catlass's example helpers use it. The bits and every
// conversion are the machine's own (evg::hw::bfloat16: the upper half of a float, round to nearest even).
#pragma once
#include <cstdint>

#include "evg/hw/numeric/types.hpp"

namespace op {

struct bfloat16 {
    uint16_t value = 0;  // the bfloat16 bits

    bfloat16() = default;
    bfloat16(float f)
        : value(::evg::hw::bfloat16(f).bits) {}  // NOLINT(google-explicit-constructor): as CANN's
    bfloat16(double d) : bfloat16(static_cast<float>(d)) {}
    bfloat16(int32_t i) : bfloat16(static_cast<float>(i)) {}
    bfloat16(uint32_t i) : bfloat16(static_cast<float>(i)) {}
    bfloat16(int64_t i) : bfloat16(static_cast<float>(i)) {}
    bfloat16(uint64_t i) : bfloat16(static_cast<float>(i)) {}
    bfloat16(::evg::hw::bfloat16 b) : value(b.bits) {}

    float toFloat() const { return ::evg::hw::detail::bf16_bits_to_float(value); }
    operator float() const { return toFloat(); }   // NOLINT(google-explicit-constructor)
    operator double() const { return toFloat(); }  // NOLINT(google-explicit-constructor)

    // Arithmetic widens both operands to float, computes, and rounds once to bfloat16.
    bfloat16 operator+(bfloat16 o) const { return bfloat16(toFloat() + o.toFloat()); }
    bfloat16 operator-(bfloat16 o) const { return bfloat16(toFloat() - o.toFloat()); }
    bfloat16 operator*(bfloat16 o) const { return bfloat16(toFloat() * o.toFloat()); }
    bfloat16 operator/(bfloat16 o) const { return bfloat16(toFloat() / o.toFloat()); }
    bfloat16 operator-() const { return bfloat16::from_bits(static_cast<uint16_t>(value ^ 0x8000u)); }
    bfloat16& operator+=(bfloat16 o) { return *this = *this + o; }
    bfloat16& operator-=(bfloat16 o) { return *this = *this - o; }
    bfloat16& operator*=(bfloat16 o) { return *this = *this * o; }
    bfloat16& operator/=(bfloat16 o) { return *this = *this / o; }
    bool operator==(bfloat16 o) const { return toFloat() == o.toFloat(); }
    bool operator!=(bfloat16 o) const { return toFloat() != o.toFloat(); }
    bool operator<(bfloat16 o) const { return toFloat() < o.toFloat(); }
    bool operator<=(bfloat16 o) const { return toFloat() <= o.toFloat(); }
    bool operator>(bfloat16 o) const { return toFloat() > o.toFloat(); }
    bool operator>=(bfloat16 o) const { return toFloat() >= o.toFloat(); }

    static bfloat16 from_bits(uint16_t bits) {
        bfloat16 b;
        b.value = bits;
        return b;
    }
};
static_assert(sizeof(bfloat16) == 2, "op::bfloat16 is two bytes, as in device memory");

}  // namespace op
