// The rules of the model a finding rests on (rules.def): ids, sources, and which finding kinds rest on which.
// A report prints the assumed rules a finding rests on and lists the ids of all in its JSON.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "evg/hw/report.hpp"

namespace evg::hw {

enum class RuleId : uint8_t {
#define EVG_RULE(id, ...) id,
#include "evg/hw/rules.def"
};

enum class RuleStatus : uint8_t { documented, assumed, contract };
std::string_view rule_status_name(RuleStatus s);  // "documented", "assumed", "contract"

struct RuleInfo {
    RuleId id;
    std::string_view code;  // "R7"
    std::string_view name;  // "event_id_low_bits"
    RuleStatus status;
    std::string_view source;               // where it is stated, or why it is assumed
    std::string_view statement;            // the rule, one sentence
    std::span<const ViolationKind> kinds;  // the kinds every finding of which rests on it
};

// Every rule, in table order.
std::span<const RuleInfo> all_rules();
const RuleInfo& rule_info(RuleId id);

constexpr uint64_t rule_bit(RuleId id) {
    return uint64_t{1} << static_cast<unsigned>(id);
}

// The rules a finding rests on: its kind's, then those it carries itself (Violation::rules), in table order.
std::vector<RuleId> rules_of(const Violation& v);
// The rules every finding of a kind rests on.
std::vector<RuleId> rules_of(ViolationKind k);
// The assumed ones among a finding's rules, as one sentence ("rests on assumed rule R7: the hardware reads
// bits [2:0] of an event id ..."), or "" when it rests on none.
std::string assumed_rules_text(const Violation& v);

}  // namespace evg::hw
