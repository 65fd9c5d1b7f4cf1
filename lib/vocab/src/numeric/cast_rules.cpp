// Which (source, destination, RoundMode) conversions each chip's vector Cast supports (docs/hardware-model.md
// §7, from the Atlas A2 and Ascend 950 tables of Cast.md).
#include "evg/hw/numeric/cast_rules.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace evg::hw {

namespace {

using cast_table::bit;
using cast_table::find_rule;
using cast_table::modes_on;
using cast_table::ModeSet;
using cast_table::Rule;

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
    if (cast_mode_legal(arch, from, to, m)) return {true, {}};

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
