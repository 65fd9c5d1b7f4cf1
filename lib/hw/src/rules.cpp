#include "evg/hw/rules.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <initializer_list>

namespace evg::hw {

namespace {

using enum ViolationKind;

// The kinds of each rule, an array apiece (a rule without kinds gets an empty span).
#define EVG_RULE(id, name, status, source, statement, ...)                                        \
    constexpr std::array<ViolationKind, std::initializer_list<ViolationKind>{__VA_ARGS__}.size()> \
        kinds_##id{__VA_ARGS__};
#include "evg/hw/rules.def"

constexpr RuleInfo kRules[] = {
#define EVG_RULE(id, name, status, source, statement, ...) \
    {RuleId::id, #id, #name, RuleStatus::status, source, statement, kinds_##id},
#include "evg/hw/rules.def"
};

static_assert(std::size(kRules) <= 64, "Violation::rules holds one bit per rule: at most 64 rules");

constexpr bool ids_in_order() {
    for (size_t i = 0; i < std::size(kRules); ++i)
        if (static_cast<size_t>(kRules[i].id) != i) return false;
    return true;
}
static_assert(ids_in_order());

// Every kind rests on at least one rule, so that every finding can say what it rests on.
constexpr bool every_kind_has_a_rule() {
    for (const ViolationKind k : kViolationKinds) {
        bool found = false;
        for (const RuleInfo& r : kRules)
            for (const ViolationKind x : r.kinds) found |= x == k;
        if (!found) return false;
    }
    return true;
}
static_assert(every_kind_has_a_rule(),
              "a kind of violation_kinds.def rests on no rule of rules.def: add the rule it rests on");

}  // namespace

std::string_view rule_status_name(RuleStatus s) {
    switch (s) {
        case RuleStatus::documented:
            return "documented";
        case RuleStatus::assumed:
            return "assumed";
        case RuleStatus::contract:
            return "contract";
    }
    return "?";
}

std::span<const RuleInfo> all_rules() {
    return kRules;
}

const RuleInfo& rule_info(RuleId id) {
    return kRules[static_cast<size_t>(id)];
}

std::vector<RuleId> rules_of(ViolationKind k) {
    std::vector<RuleId> out;
    for (const RuleInfo& r : kRules)
        for (const ViolationKind x : r.kinds)
            if (x == k) out.push_back(r.id);
    return out;
}

std::vector<RuleId> rules_of(const Violation& v) {
    std::vector<RuleId> out;
    for (const RuleInfo& r : kRules) {
        bool rests = (v.rules & rule_bit(r.id)) != 0;
        for (const ViolationKind x : r.kinds) rests |= x == v.kind;
        if (rests) out.push_back(r.id);
    }
    return out;
}

std::string assumed_rules_text(const Violation& v) {
    std::vector<std::string> parts;
    for (const RuleId id : rules_of(v)) {
        const RuleInfo& r = rule_info(id);
        if (r.status == RuleStatus::assumed) parts.push_back(fmt::format("{}: {}", r.code, r.statement));
    }
    if (parts.empty()) return {};
    return fmt::format("rests on assumed rule{} {}", parts.size() > 1 ? "s" : "", fmt::join(parts, "; "));
}

}  // namespace evg::hw
