// Which (source, destination, RoundMode) conversions each chip's vector Cast supports (docs/hardware-model.md
// §7, from the Atlas A2 and Ascend 950 tables of Cast.md).
#include "evg/hw/numeric/cast_rules.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace evg::hw {

namespace {

using ModeSet = uint8_t;  // bit i set: RoundMode with value i is allowed

constexpr ModeSet bit(RoundMode m) {
    return static_cast<ModeSet>(1u << static_cast<unsigned>(m));
}
constexpr ModeSet kNone = bit(RoundMode::CAST_NONE);
constexpr ModeSet kRintToTrunc = bit(RoundMode::CAST_RINT) | bit(RoundMode::CAST_FLOOR) |
                                 bit(RoundMode::CAST_CEIL) | bit(RoundMode::CAST_ROUND) |
                                 bit(RoundMode::CAST_TRUNC);
constexpr ModeSet kRintToTruncNone = kRintToTrunc | kNone;
constexpr ModeSet kAllSeven = kRintToTruncNone | bit(RoundMode::CAST_ODD);

struct Rule {
    DType from, to;
    ModeSet atlas_a2;  // 0: the pair does not exist on the chip
    ModeSet ascend950;
    const char* note;  // appended to the reason when the mode is rejected (may be null)
};

// The legality table. Ascend 950 = Atlas A2 plus half <-> bfloat16 and int8 -> int16/int32, minus CAST_NONE
// on int16 -> half and half -> int8/uint8.
constexpr Rule kRules[] = {
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

ModeSet modes_on(const Rule& r, ArchId a) {
    return a == ArchId::Ascend950 ? r.ascend950 : r.atlas_a2;
}

const Rule* find_rule(DType from, DType to) {
    for (const Rule& r : kRules) {
        if (r.from == from && r.to == to) return &r;
    }
    return nullptr;
}

std::string pair_text(DType from, DType to) {
    std::string s(dtype_name(from));
    s += " -> ";
    s += dtype_name(to);
    return s;
}

std::string mode_list(ModeSet s) {
    std::string out;
    for (RoundMode m : kAllRoundModes) {
        if ((s & bit(m)) == 0) continue;
        if (!out.empty()) out += ", ";
        out += round_mode_name(m);
    }
    return out;
}

}  // namespace

CastRule cast_rule(ArchId arch, DType from, DType to, RoundMode m) {
    const std::string chip(arch_name(arch));
    const std::string pair = pair_text(from, to);
    const Rule* rule = find_rule(from, to);
    const ModeSet allowed = rule ? modes_on(*rule, arch) : ModeSet{0};

    if (static_cast<unsigned>(m) > static_cast<unsigned>(RoundMode::CAST_ODD)) {
        return {false, "Cast " + pair + " with RoundMode value " + std::to_string(static_cast<unsigned>(m)) +
                           " is not supported on " + chip + ": unknown round mode"};
    }
    if (allowed & bit(m)) return {true, {}};

    const std::string mode(round_mode_name(m));
    if (from == to && allowed == 0) {
        return {false, "Cast " + pair + " with " + mode + " is not supported on " + chip +
                           ": no conversion needed: source and destination are both " +
                           std::string(dtype_name(from))};
    }
    if (from == DType::i32 && to == DType::f16) {
        return {
            false,
            "Cast " + pair + " with " + mode + " is not supported on " + chip +
                ": int32 -> half is a dequantisation that requires SetDeqScale(half) (result = src / 2^17 "
                "* scale * 2^17, round mode ignored), not a plain Cast"};
    }
    if (allowed == 0) {
        std::string reason = "Cast " + pair + " does not exist on " + chip + " (no vector Cast converts " +
                             std::string(dtype_name(from)) + " to " + std::string(dtype_name(to)) +
                             " on this chip";
        if (rule && rule->ascend950 != 0 && arch != ArchId::Ascend950)
            reason += "; it exists on Ascend950 only";
        reason += ")";
        return {false, reason};
    }
    std::string reason = "Cast " + pair + " with " + mode + " is not supported on " + chip + " (" + pair +
                         " allows " + mode_list(allowed) + ")";
    if (rule->note) {
        reason += "; ";
        reason += rule->note;
    }
    return {false, reason};
}

}  // namespace evg::hw
