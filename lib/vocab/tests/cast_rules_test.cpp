// Cast legality per chip (docs/hardware-model.md §7): the full (arch, from, to, mode) space is checked
// against a transcription of the Atlas A2 and Ascend 950 tables, and rejections must explain themselves.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "evg/hw/numeric/cast_rules.hpp"

namespace evg::hw {
namespace {

using M = RoundMode;
using Modes = std::set<RoundMode>;
using Key = std::tuple<ArchId, DType, DType>;

const Modes kN{M::CAST_NONE};
const Modes kRT{M::CAST_RINT, M::CAST_FLOOR, M::CAST_CEIL, M::CAST_ROUND, M::CAST_TRUNC};
const Modes kRTN{M::CAST_RINT, M::CAST_FLOOR, M::CAST_CEIL, M::CAST_ROUND, M::CAST_TRUNC, M::CAST_NONE};
const Modes kAll{M::CAST_RINT,  M::CAST_FLOOR, M::CAST_CEIL, M::CAST_ROUND,
                 M::CAST_TRUNC, M::CAST_NONE,  M::CAST_ODD};

std::map<Key, Modes> expected_table() {
    using D = DType;
    const std::vector<std::tuple<D, D, Modes>> a2 = {
        {D::i8, D::f16, kN},   {D::u8, D::f16, kN},    {D::i16, D::f16, kRTN}, {D::i16, D::f32, kN},
        {D::f16, D::i8, kRTN}, {D::f16, D::u8, kRTN},  {D::f16, D::i16, kRT},  {D::f16, D::i32, kRT},
        {D::f16, D::f32, kN},  {D::bf16, D::i32, kRT}, {D::bf16, D::f32, kN},  {D::i32, D::i16, kN},
        {D::i32, D::i64, kN},  {D::i32, D::f32, kRTN}, {D::f32, D::i16, kRT},  {D::f32, D::i32, kRT},
        {D::f32, D::i64, kRT}, {D::f32, D::f32, kRT},  {D::f32, D::f16, kAll}, {D::f32, D::bf16, kRT},
        {D::i64, D::i32, kN},  {D::i64, D::f32, kRT},
    };
    std::map<Key, Modes> t;
    for (const auto& [f, to, m] : a2) {
        t[{ArchId::AtlasA2, f, to}] = m;
        t[{ArchId::Ascend950, f, to}] = m;
    }
    // Ascend 950: drops CAST_NONE on int16 -> half and half -> int8/uint8, adds half <-> bf16 and int8
    // widening.
    t[{ArchId::Ascend950, D::i16, D::f16}] = kRT;
    t[{ArchId::Ascend950, D::f16, D::i8}] = kRT;
    t[{ArchId::Ascend950, D::f16, D::u8}] = kRT;
    t[{ArchId::Ascend950, D::f16, D::bf16}] = kRT;
    t[{ArchId::Ascend950, D::bf16, D::f16}] = kRT;
    t[{ArchId::Ascend950, D::i8, D::i16}] = kN;
    t[{ArchId::Ascend950, D::i8, D::i32}] = kN;
    return t;
}

const char* chip(ArchId a) {
    return a == ArchId::AtlasA2 ? "AtlasA2" : "Ascend950";
}

std::string pair(DType f, DType t) {
    return std::string(dtype_name(f)) + " -> " + std::string(dtype_name(t));
}

TEST(NumericCastRules, WholeSpaceMatchesTheTables) {
    const auto table = expected_table();
    int legal_count = 0;
    for (ArchId a : {ArchId::AtlasA2, ArchId::Ascend950}) {
        for (DType f : kAllDTypes) {
            for (DType t : kAllDTypes) {
                const auto it = table.find({a, f, t});
                for (RoundMode m : kAllRoundModes) {
                    SCOPED_TRACE(std::string(chip(a)) + " " + pair(f, t) + " " +
                                 std::string(round_mode_name(m)));
                    const bool want = it != table.end() && it->second.count(m) != 0;
                    const CastRule r = cast_rule(a, f, t, m);
                    EXPECT_EQ(r.legal, want) << r.reason;
                    EXPECT_EQ(cast_legal(a, f, t, m), want);
                    if (want) {
                        ++legal_count;
                        EXPECT_TRUE(r.reason.empty()) << r.reason;
                        continue;
                    }
                    // Every rejection names the pair and the chip.
                    EXPECT_NE(r.reason.find(pair(f, t)), std::string::npos) << r.reason;
                    EXPECT_NE(r.reason.find(chip(a)), std::string::npos) << r.reason;
                    if (it != table.end()) {
                        // The pair exists: the sentence names the rejected mode and lists every allowed one.
                        EXPECT_NE(r.reason.find(round_mode_name(m)), std::string::npos) << r.reason;
                        for (RoundMode ok : it->second) {
                            EXPECT_NE(r.reason.find(round_mode_name(ok)), std::string::npos) << r.reason;
                        }
                    }
                }
            }
        }
    }
    // 22 A2 pairs: 84 legal triples; 950: 84 - 3 (lost NONE) + 5 + 5 + 1 + 1 = 93.
    EXPECT_EQ(legal_count, 84 + 93);
}

TEST(NumericCastRules, SampleRejectionsExplainThemselves) {
    auto reason = [](ArchId a, DType f, DType t, RoundMode m) {
        const CastRule r = cast_rule(a, f, t, m);
        EXPECT_FALSE(r.legal);
        return r.reason;
    };
    using D = DType;
    const std::string bf = reason(ArchId::AtlasA2, D::f32, D::bf16, M::CAST_NONE);
    EXPECT_NE(bf.find("float -> bfloat16"), std::string::npos) << bf;
    EXPECT_NE(bf.find("CAST_NONE"), std::string::npos) << bf;
    EXPECT_NE(bf.find("AtlasA2"), std::string::npos) << bf;
    EXPECT_NE(bf.find("CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC"), std::string::npos) << bf;
    EXPECT_FALSE(
        cast_legal(ArchId::Ascend950, D::f32, D::bf16, M::CAST_NONE));  // VisitorCast default: both chips

    const std::string hf = reason(ArchId::AtlasA2, D::f16, D::f32, M::CAST_RINT);
    EXPECT_NE(hf.find("half -> float"), std::string::npos) << hf;
    EXPECT_NE(hf.find("CAST_RINT"), std::string::npos) << hf;
    EXPECT_NE(hf.find("allows CAST_NONE"), std::string::npos) << hf;

    for (auto [f, t] : {std::pair{D::f16, D::bf16}, std::pair{D::bf16, D::f16}, std::pair{D::i8, D::i32},
                        std::pair{D::i8, D::i16}}) {
        const std::string r = reason(ArchId::AtlasA2, f, t, M::CAST_RINT);
        EXPECT_NE(r.find(pair(f, t)), std::string::npos) << r;
        EXPECT_NE(r.find("AtlasA2"), std::string::npos) << r;
        EXPECT_NE(r.find("does not exist"), std::string::npos) << r;
        EXPECT_NE(r.find("Ascend950"), std::string::npos) << r;  // where it does exist
    }
    EXPECT_TRUE(cast_legal(ArchId::Ascend950, D::f16, D::bf16, M::CAST_RINT));
    EXPECT_TRUE(cast_legal(ArchId::Ascend950, D::i8, D::i32, M::CAST_NONE));

    for (ArchId a : {ArchId::AtlasA2, ArchId::Ascend950}) {
        const std::string deq = reason(a, D::i32, D::f16, M::CAST_NONE);
        EXPECT_NE(deq.find("int32 -> half"), std::string::npos) << deq;
        EXPECT_NE(deq.find("SetDeqScale"), std::string::npos) << deq;
        EXPECT_NE(deq.find(chip(a)), std::string::npos) << deq;
    }

    const std::string same = reason(ArchId::AtlasA2, D::f16, D::f16, M::CAST_NONE);
    EXPECT_NE(same.find("no conversion needed: source and destination are both half"), std::string::npos)
        << same;
    const std::string i32same = reason(ArchId::Ascend950, D::i32, D::i32, M::CAST_RINT);
    EXPECT_NE(i32same.find("both int32"), std::string::npos) << i32same;
    // float -> float exists (round to integral) but not with CAST_NONE / CAST_ODD.
    const std::string ff = reason(ArchId::AtlasA2, D::f32, D::f32, M::CAST_NONE);
    EXPECT_NE(ff.find("float -> float"), std::string::npos) << ff;
    EXPECT_NE(ff.find("integral"), std::string::npos) << ff;
    EXPECT_FALSE(cast_legal(ArchId::AtlasA2, D::f32, D::f32, M::CAST_ODD));

    // 950 drops CAST_NONE from int16 -> half and half -> int8 / uint8.
    const std::string n950 = reason(ArchId::Ascend950, D::i16, D::f16, M::CAST_NONE);
    EXPECT_NE(n950.find("Ascend950"), std::string::npos) << n950;
    EXPECT_TRUE(cast_legal(ArchId::AtlasA2, D::i16, D::f16, M::CAST_NONE));
    EXPECT_FALSE(cast_legal(ArchId::Ascend950, D::f16, D::u8, M::CAST_NONE));
    EXPECT_TRUE(cast_legal(ArchId::Ascend950, D::f16, D::u8, M::CAST_TRUNC));

    // A RoundMode value outside the enum is rejected, not read out of bounds.
    const CastRule bad = cast_rule(ArchId::AtlasA2, D::f32, D::f16, static_cast<RoundMode>(7));
    EXPECT_FALSE(bad.legal);
    EXPECT_FALSE(bad.reason.empty());
}

}  // namespace
}  // namespace evg::hw
