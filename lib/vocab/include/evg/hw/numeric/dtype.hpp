// The element-type catalogue (docs/hardware-model.md §7): DType with its names and sizes. Vocabulary: no
// arithmetic; the machine's storage types for half and bfloat16 are in evg/hw/numeric/types.hpp (lib/hw).
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace evg::hw {

enum class DType : uint8_t { f32, f16, bf16, i8, u8, i16, i32, i64 };
inline constexpr DType kAllDTypes[] = {DType::f32, DType::f16, DType::bf16, DType::i8,
                                       DType::u8,  DType::i16, DType::i32,  DType::i64};

constexpr int dtype_size(DType t) {
    switch (t) {
        case DType::f32:
        case DType::i32:
            return 4;
        case DType::f16:
        case DType::bf16:
        case DType::i16:
            return 2;
        case DType::i8:
        case DType::u8:
            return 1;
        case DType::i64:
            return 8;
    }
    return 0;
}
constexpr bool dtype_is_float(DType t) {
    return t == DType::f32 || t == DType::f16 || t == DType::bf16;
}
// Canonical names: "float", "half", "bfloat16", "int8", "uint8", "int16", "int32", "int64".
std::string_view dtype_name(DType t);
std::optional<DType> dtype_from_name(std::string_view s);  // also accepts "bfloat16_t", "int32_t", ...

}  // namespace evg::hw
