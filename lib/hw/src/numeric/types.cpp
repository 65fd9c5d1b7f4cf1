// The half -> float table of the storage type half (docs/hardware-model.md §7).
#include "evg/hw/numeric/types.hpp"

#include <bit>
#include <cstdint>

namespace evg::hw {

namespace detail {

// Decodes every binary16 pattern with integer arithmetic: the result is exact (every half is a float).
HalfToFloatTable::HalfToFloatTable() noexcept {
    for (uint32_t h = 0; h < 65536; ++h) {
        const uint32_t sign = (h & 0x8000u) << 16;
        const uint32_t exp = (h >> 10) & 0x1Fu;
        uint32_t man = h & 0x3FFu;
        uint32_t bits;
        if (exp == 0x1Fu) {
            bits = sign | 0x7F800000u | (man << 13);  // Inf, or NaN with its payload (quiet bit included)
        } else if (exp != 0) {
            bits = sign | ((exp + 112u) << 23) | (man << 13);  // rebias 15 -> 127
        } else if (man == 0) {
            bits = sign;  // +-0
        } else {
            // Subnormal m * 2^-24: normalise so the leading 1 lands on bit 10.
            uint32_t e = 113;  // float biased exponent of 2^-14
            while ((man & 0x400u) == 0) {
                man <<= 1;
                --e;
            }
            bits = sign | (e << 23) | ((man & 0x3FFu) << 13);
        }
        value[h] = std::bit_cast<float>(bits);
    }
}

}  // namespace detail

}  // namespace evg::hw
