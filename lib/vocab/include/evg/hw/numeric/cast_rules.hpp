// Which (source, destination, RoundMode) conversions each chip's vector Cast supports (docs/hardware-model.md
// §7, from the Atlas A2 and Ascend 950 tables of Cast.md).
#pragma once
#include <cstdint>
#include <string>

#include "evg/hw/arch.hpp"
#include "evg/hw/numeric/dtype.hpp"
#include "evg/hw/numeric/round_mode.hpp"

namespace evg::hw {

// The legality table, one row per (source, destination) pair that exists on some chip, with the round modes
// each chip allows. constexpr, so that what compiles a Cast for every pair (DynamicVisitor's instantiation
// table, lib/graph/src/dynamic_cast.hpp) instantiates only the legal ones; cast_rule reads the same rows.
namespace cast_table {

using ModeSet = uint8_t;  // bit i set: RoundMode with value i is allowed

constexpr ModeSet bit(RoundMode m) {
    return static_cast<ModeSet>(1u << static_cast<unsigned>(m));
}
inline constexpr ModeSet kNone = bit(RoundMode::CAST_NONE);
inline constexpr ModeSet kRintToTrunc = bit(RoundMode::CAST_RINT) | bit(RoundMode::CAST_FLOOR) |
                                        bit(RoundMode::CAST_CEIL) | bit(RoundMode::CAST_ROUND) |
                                        bit(RoundMode::CAST_TRUNC);
inline constexpr ModeSet kRintToTruncNone = kRintToTrunc | kNone;
inline constexpr ModeSet kAllSeven = kRintToTruncNone | bit(RoundMode::CAST_ODD);

struct Rule {
    DType from, to;
    ModeSet atlas_a2;  // 0: the pair does not exist on the chip
    ModeSet ascend950;
    const char* note;  // appended to the reason when the mode is rejected (may be null)
};

// The legality table. Ascend 950 = Atlas A2 plus half <-> bfloat16 and int8 -> int16/int32, minus CAST_NONE
// on int16 -> half and half -> int8/uint8.
inline constexpr Rule kRules[] = {
    {DType::i8, DType::f16, kNone, kNone, nullptr},
    {DType::u8, DType::f16, kNone, kNone, nullptr},
    {DType::i16, DType::f16, kRintToTruncNone, kRintToTrunc, nullptr},
    {DType::i16, DType::f32, kNone, kNone, nullptr},
    {DType::f16, DType::i8, kRintToTruncNone, kRintToTrunc, nullptr},
    {DType::f16, DType::u8, kRintToTruncNone, kRintToTrunc, nullptr},
    {DType::f16, DType::i16, kRintToTrunc, kRintToTrunc, "the AscendC implementation asserts on CAST_NONE"},
    {DType::f16, DType::i32, kRintToTrunc, kRintToTrunc, "the AscendC implementation asserts on CAST_NONE"},
    {DType::f16, DType::f32, kNone, kNone, "the AscendC implementation rejects any other mode"},
    {DType::bf16, DType::i32, kRintToTrunc, kRintToTrunc, nullptr},
    {DType::bf16, DType::f32, kNone, kNone, "the widening is exact and takes no rounding mode"},
    {DType::i32, DType::i16, kNone, kNone, nullptr},
    {DType::i32, DType::i64, kNone, kNone, nullptr},
    {DType::i32, DType::f32, kRintToTruncNone, kRintToTruncNone, nullptr},
    {DType::f32, DType::i16, kRintToTrunc, kRintToTrunc, nullptr},
    {DType::f32, DType::i32, kRintToTrunc, kRintToTrunc, nullptr},
    {DType::f32, DType::i64, kRintToTrunc, kRintToTrunc, nullptr},
    {DType::f32, DType::f32, kRintToTrunc, kRintToTrunc, "float -> float rounds to an integral value"},
    {DType::f32, DType::f16, kAllSeven, kAllSeven, nullptr},
    {DType::f32, DType::bf16, kRintToTrunc, kRintToTrunc,
     "the c220 implementation prints \"CAST_NONE from float to bfloat16_t is not supported on current "
     "device\""},
    {DType::i64, DType::i32, kNone, kNone, nullptr},
    {DType::i64, DType::f32, kRintToTrunc, kRintToTrunc, nullptr},
    {DType::f16, DType::bf16, 0, kRintToTrunc, nullptr},
    {DType::bf16, DType::f16, 0, kRintToTrunc, nullptr},
    {DType::i8, DType::i16, 0, kNone, nullptr},
    {DType::i8, DType::i32, 0, kNone, nullptr},
};

constexpr ModeSet modes_on(const Rule& r, ArchId a) {
    return a == ArchId::Ascend950 ? r.ascend950 : r.atlas_a2;
}

constexpr const Rule* find_rule(DType from, DType to) {
    for (const Rule& r : kRules) {
        if (r.from == from && r.to == to) return &r;
    }
    return nullptr;
}

// The modes `arch` allows from `from` to `to` (0: the pair does not exist there). By value, not through
// find_rule's pointer: GCC 12 with UBSan does not take a pointer's comparison with null as a constant
// expression, and cast_mode_legal is evaluated at compile time.
constexpr ModeSet modes_of(ArchId arch, DType from, DType to) {
    for (const Rule& r : kRules) {
        if (r.from == from && r.to == to) return modes_on(r, arch);
    }
    return 0;
}

}  // namespace cast_table

// Whether `arch`'s vector Cast converts `from` to `to` with `m` (the `legal` of cast_rule, without its
// reason).
constexpr bool cast_mode_legal(ArchId arch, DType from, DType to, RoundMode m) {
    if (static_cast<unsigned>(m) > static_cast<unsigned>(RoundMode::CAST_ODD)) return false;
    return (cast_table::modes_of(arch, from, to) & cast_table::bit(m)) != 0;
}

struct CastRule {
    bool legal = false;
    // When illegal: a sentence naming the rule, e.g.
    // "Cast float -> bfloat16 with CAST_NONE is not supported on AtlasA2 (float -> bfloat16 allows CAST_RINT,
    //  CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC)".
    std::string reason;
};

CastRule cast_rule(ArchId arch, DType from, DType to, RoundMode m);
constexpr bool cast_legal(ArchId arch, DType from, DType to, RoundMode m) {
    return cast_mode_legal(arch, from, to, m);
}

}  // namespace evg::hw
