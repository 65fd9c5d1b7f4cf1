// The checkers, in one table: what each finds, the Config switch that enables it, and its factory. The
// engine builds one of each enabled checker per launch and calls them in this order (the race checker runs
// before the data-cache checker on the same access, as the report's order of findings expects).
#include <fmt/format.h>

#include "evg/hw/checker.hpp"
#include "evg/hw/error.hpp"

namespace evg::hw {

std::unique_ptr<Checker> make_race_checker(CheckerHost& host);
std::unique_ptr<Checker> make_flag_checker(CheckerHost& host);
std::unique_ptr<Checker> make_dcache_checker(CheckerHost& host);
std::unique_ptr<Checker> make_redundant_wait_checker(CheckerHost& host);

namespace {
constexpr CheckerInfo kCheckers[] = {
    {"race", "race: unordered accesses to the same bytes, with the missing edge", &CheckerConfig::race, false,
     make_race_checker},
    {"flags",
     "flag_set_twice, counter_overflow, cross_core_ambiguous, flag_left_set, counter_left_nonzero, "
     "atomic_left_on",
     &CheckerConfig::flags, false, make_flag_checker},
    {"dcache", "dcache_not_clean: GM reads of bytes a scalar write left in a core's data cache", nullptr,
     false, make_dcache_checker},
    {"redundant-waits", "redundant_wait: a WaitFlag whose pipe already happens-after the set it consumes",
     &CheckerConfig::redundant_waits, true, make_redundant_wait_checker},
};
}  // namespace

std::span<const CheckerInfo> checker_registry() {
    return kCheckers;
}

std::vector<std::unique_ptr<Checker>> make_checkers(CheckerHost& host, const CheckerConfig& checks) {
    std::vector<std::unique_ptr<Checker>> out;
    for (const auto& c : kCheckers)
        if (!c.on || checks.*c.on) out.push_back(c.make(host));
    return out;
}

std::unique_ptr<Checker> make_checker(std::string_view name, CheckerHost& host) {
    for (const auto& c : kCheckers)
        if (c.name == name) return c.make(host);
    return nullptr;
}

void enable_checks(CheckerConfig& checks, std::string_view names) {
    std::vector<std::string_view> opt_in;
    for (const auto& c : kCheckers)
        if (c.opt_in) opt_in.push_back(c.name);
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
