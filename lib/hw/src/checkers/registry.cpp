// The checkers, in one table: the Config switch that enables each, and its factory (what each finds is the
// finder column of violation_kinds.def). The engine builds one of each enabled checker per launch and calls
// them in this order (the race checker runs before the data-cache checker on the same access, as the report's
// order of findings expects).
#include <fmt/format.h>

#include "evg/hw/checker.hpp"
#include "evg/hw/error.hpp"

#include <cstdlib>
#include <optional>
#include <utility>

namespace evg::hw {

std::unique_ptr<Checker> make_race_checker(CheckerHost& host);
std::unique_ptr<Checker> make_flag_checker(CheckerHost& host);
std::unique_ptr<Checker> make_dcache_checker(CheckerHost& host);
std::unique_ptr<Checker> make_redundant_wait_checker(CheckerHost& host);
std::unique_ptr<Checker> make_portable_v_order_checker(CheckerHost& host);
std::unique_ptr<Checker> make_node_slots_checker(CheckerHost& host);
std::unique_ptr<Checker> make_fp_checker(CheckerHost& host);

namespace {
constexpr CheckerInfo kCheckers[] = {
    {"race", &CheckerConfig::race, false, make_race_checker},
    {"flags", &CheckerConfig::flags, false, make_flag_checker},
    {"dcache", &CheckerConfig::dcache, false, make_dcache_checker},
    {"redundant-waits", &CheckerConfig::redundant_waits, true, make_redundant_wait_checker},
    {"portable-v-order", &CheckerConfig::portable_v_order, true, make_portable_v_order_checker},
    {"node-slots", &CheckerConfig::node_slots, true, make_node_slots_checker},
    {"fp", &CheckerConfig::fp, false, make_fp_checker},
};
}  // namespace

std::span<const CheckerInfo> checker_registry() {
    return kCheckers;
}

// The opt-in checkers of enable_process_checks: every launch's as well.
CheckerConfig& process_checks() {
    static CheckerConfig checks = CheckerConfig::none();
    return checks;
}

void enable_process_checks(std::string_view names) {
    CheckerConfig checks = process_checks();
    enable_checks(checks, names);
    process_checks() = checks;
}

namespace {
std::optional<std::pair<bool, FpPolicy>>& process_fp() {
    static std::optional<std::pair<bool, FpPolicy>> fp;
    return fp;
}
}  // namespace

void set_process_fp(std::string_view value) {
    constexpr std::pair<std::string_view, std::pair<bool, FpPolicy>> kValues[] = {
        {"graded", {true, FpPolicy::graded}},
        {"warn", {true, FpPolicy::warn}},
        {"error", {true, FpPolicy::error}},
        {"off", {false, FpPolicy::graded}}};
    for (const auto& [name, setting] : kValues)
        if (name == value) {
            process_fp() = setting;
            return;
        }
    throw HostError(fmt::format(
        "unknown NaN/infinity policy '{}': graded (an error when a NaN or infinity born from "
        "finite values reaches GM, else a warning: a program's default), warn (the default where an "
        "oracle judges the values), error, off",
        value));
}

void apply_process_fp(Config& cfg) {
    // A process that did not set it (a property binary that `evgcheck check --fp` started) reads it from its
    // environment once.
    static const bool from_env = [] {
        if (process_fp()) return false;
        const char* s = std::getenv(kFpEnvName);
        if (s == nullptr || *s == '\0') return false;
        set_process_fp(s);
        return true;
    }();
    (void)from_env;
    if (!process_fp()) return;
    cfg.checks.fp = process_fp()->first;
    cfg.fp_policy = process_fp()->second;
}

std::vector<std::unique_ptr<Checker>> make_checkers(CheckerHost& host, const CheckerConfig& checks) {
    std::vector<std::unique_ptr<Checker>> out;
    for (const auto& c : kCheckers)
        if (checks.*c.on || (c.opt_in && process_checks().*c.on)) out.push_back(c.make(host));
    return out;
}

std::vector<ViolationKind> kinds_found_by(std::string_view finder) {
    std::vector<ViolationKind> out;
    for (const ViolationKind k : kViolationKinds)
        if (violation_kind_finder(k) == finder) out.push_back(k);
    return out;
}

std::unique_ptr<Checker> make_checker(std::string_view name, CheckerHost& host) {
    for (const auto& c : kCheckers)
        if (c.name == name) return c.make(host);
    return nullptr;
}

void enable_checks(CheckerConfig& checks, std::string_view names) {
    std::vector<std::string> opt_in;  // "redundant-waits (redundant_wait)": each with the kinds it finds
    for (const auto& c : kCheckers) {
        if (!c.opt_in) continue;
        std::vector<std::string_view> kinds;
        for (const ViolationKind k : kinds_found_by(c.name)) kinds.push_back(violation_kind_name(k));
        opt_in.push_back(fmt::format("{} ({})", c.name, fmt::join(kinds, ", ")));
    }
    const std::string_view all = names;
    for (size_t from = 0; !all.empty() && from <= all.size();) {
        const size_t comma = std::min(all.find(',', from), all.size());
        const std::string_view name = all.substr(from, comma - from);
        from = comma + 1;
        if (name.empty())
            throw HostError(
                fmt::format("'{}' has an empty checker name: names are separated by single commas", all));
        const CheckerInfo* found = nullptr;
        for (const auto& c : kCheckers)
            if (c.opt_in && c.name == name) found = &c;
        if (!found)
            throw HostError(
                fmt::format("unknown checker '{}': the checkers switched on by name are {} (the others "
                            "run by default)",
                            name, fmt::join(opt_in, ", ")));
        checks.*found->on = true;
    }
}

}  // namespace evg::hw
