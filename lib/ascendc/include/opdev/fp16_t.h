// CANN's host-side half-precision type, op::fp16_t, as Catlass's example helpers use it (host data, golden
// results). The bits and every conversion are the machine's own (evg::hw::half: round to nearest even, NaN
// and infinity kept), so a value the host writes is bit-for-bit the value a kernel reads.
#pragma once
#include <cstdint>

#include "evg/hw/numeric/types.hpp"

namespace op {

struct fp16_t {
    uint16_t val = 0;  // the IEEE binary16 bits

    fp16_t() = default;
    fp16_t(float f) : val(::evg::hw::half(f).bits) {}  // NOLINT(google-explicit-constructor): as CANN's
    fp16_t(double d) : fp16_t(static_cast<float>(d)) {}
    fp16_t(int32_t i) : fp16_t(static_cast<float>(i)) {}
    fp16_t(uint32_t i) : fp16_t(static_cast<float>(i)) {}
    fp16_t(int64_t i) : fp16_t(static_cast<float>(i)) {}
    fp16_t(uint64_t i) : fp16_t(static_cast<float>(i)) {}
    fp16_t(::evg::hw::half h) : val(h.bits) {}

    float toFloat() const { return ::evg::hw::detail::half_bits_to_float(val); }
    double toDouble() const { return toFloat(); }
    int32_t toInt32() const { return static_cast<int32_t>(toFloat()); }
    operator float() const { return toFloat(); }   // NOLINT(google-explicit-constructor)
    operator double() const { return toFloat(); }  // NOLINT(google-explicit-constructor)

    // Arithmetic widens both operands to float, computes, and rounds once to half.
    fp16_t operator+(fp16_t o) const { return fp16_t(toFloat() + o.toFloat()); }
    fp16_t operator-(fp16_t o) const { return fp16_t(toFloat() - o.toFloat()); }
    fp16_t operator*(fp16_t o) const { return fp16_t(toFloat() * o.toFloat()); }
    fp16_t operator/(fp16_t o) const { return fp16_t(toFloat() / o.toFloat()); }
    fp16_t operator-() const { return fp16_t::from_bits(static_cast<uint16_t>(val ^ 0x8000u)); }
    fp16_t& operator+=(fp16_t o) { return *this = *this + o; }
    fp16_t& operator-=(fp16_t o) { return *this = *this - o; }
    fp16_t& operator*=(fp16_t o) { return *this = *this * o; }
    fp16_t& operator/=(fp16_t o) { return *this = *this / o; }
    // Comparisons are numeric (NaN unordered, +0 == -0), as on float.
    bool operator==(fp16_t o) const { return toFloat() == o.toFloat(); }
    bool operator!=(fp16_t o) const { return toFloat() != o.toFloat(); }
    bool operator<(fp16_t o) const { return toFloat() < o.toFloat(); }
    bool operator<=(fp16_t o) const { return toFloat() <= o.toFloat(); }
    bool operator>(fp16_t o) const { return toFloat() > o.toFloat(); }
    bool operator>=(fp16_t o) const { return toFloat() >= o.toFloat(); }

    static fp16_t from_bits(uint16_t bits) {
        fp16_t h;
        h.val = bits;
        return h;
    }
};
static_assert(sizeof(fp16_t) == 2, "op::fp16_t is two bytes, as in device memory");

}  // namespace op
