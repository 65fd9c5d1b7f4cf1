// The names of DType (docs/hardware-model.md §7).
#include "evg/hw/numeric/dtype.hpp"

#include <optional>
#include <string_view>

namespace evg::hw {

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
