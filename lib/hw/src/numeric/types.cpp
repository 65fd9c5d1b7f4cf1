// Element-type catalogue and the half -> float table (docs/hardware-model.md §7).
#include "evg/hw/numeric/types.hpp"

#include <bit>
#include <cstdint>
#include <optional>
#include <string_view>

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

std::string_view dtype_name(DType t) {
    switch (t) {
        case DType::f32:
            return "float";
        case DType::f16:
            return "half";
        case DType::bf16:
            return "bfloat16";
        case DType::i8:
            return "int8";
        case DType::u8:
            return "uint8";
        case DType::i16:
            return "int16";
        case DType::i32:
            return "int32";
        case DType::i64:
            return "int64";
    }
    return "unknown";
}

std::optional<DType> dtype_from_name(std::string_view s) {
    struct Alias {
        std::string_view name;
        DType type;
    };
    static constexpr Alias kAliases[] = {
        {"float", DType::f32},   {"fp32", DType::f32},      {"half", DType::f16},
        {"fp16", DType::f16},    {"bfloat16", DType::bf16}, {"bfloat16_t", DType::bf16},
        {"bf16", DType::bf16},   {"int8", DType::i8},       {"int8_t", DType::i8},
        {"uint8", DType::u8},    {"uint8_t", DType::u8},    {"int16", DType::i16},
        {"int16_t", DType::i16}, {"int32", DType::i32},     {"int32_t", DType::i32},
        {"int64", DType::i64},   {"int64_t", DType::i64},
    };
    for (const Alias& a : kAliases) {
        if (a.name == s) return a.type;
    }
    return std::nullopt;
}

}  // namespace evg::hw
