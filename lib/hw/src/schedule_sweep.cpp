#include "evg/hw/schedule_sweep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "evg/hw/error.hpp"

namespace evg::hw {

std::string verdict_of(const Report& r) {
    std::set<std::string> kinds;
    for (const auto& v : r.violations)
        if (v.severity == Severity::error) kinds.emplace(violation_kind_name(v.kind));
    if (kinds.empty()) return "clean";
    std::string out;
    for (const auto& k : kinds) out += (out.empty() ? "" : "+") + k;
    return out;
}

ScheduleSweep adversarial_sweep(const std::function<Report(const Config&)>& run, Config base, int seeds) {
    if (seeds < 1)
        throw HostError(
            fmt::format("adversarial_sweep: the number of seeds must be at least 1 (got {})", seeds));
    ScheduleSweep sw;
    base.scheduler = SchedulerKind::adversarial;
    uint64_t first = base.seed;
    for (int i = 0; i < seeds; ++i) {
        Config cfg = base;
        cfg.seed = first + static_cast<uint64_t>(i);
        Report r = run(cfg);
        sw.schedules++;
        sw.steps += r.stats.steps;
        const ScheduleCoverage& c = r.stats.coverage;
        sw.covered.merge(c);
        sw.runs_with_each[0] += c.plain_over_plain > 0;
        sw.runs_with_each[1] += c.plain_over_set > 0;
        sw.runs_with_each[2] += c.wait_over_plain > 0;
        sw.runs_with_each[3] += c.core_handoffs > 0;
        std::string v = verdict_of(r);
        auto it = std::find_if(sw.verdicts.begin(), sw.verdicts.end(),
                               [&](const ScheduleSweep::Verdict& x) { return x.verdict == v; });
        if (it == sw.verdicts.end())
            sw.verdicts.push_back({v, 1, cfg.seed});
        else
            it->runs++;
    }
    return sw;
}

std::string ScheduleSweep::text() const {
    std::string out = fmt::format(
        "{} adversarial schedule(s), {} step(s); out of order: {} plain over plain ({} run(s)), {} plain "
        "over set "
        "({} run(s)), {} wait over plain ({} run(s)), {} core hand-off(s) ({} run(s)); {} distinct "
        "verdict(s):",
        schedules, steps, covered.plain_over_plain, runs_with_each[0], covered.plain_over_set,
        runs_with_each[1], covered.wait_over_plain, runs_with_each[2], covered.core_handoffs,
        runs_with_each[3], verdicts.size());
    for (const auto& v : verdicts)
        out += fmt::format(" {} ({} run(s), first seed {});", v.verdict, v.runs, v.first_seed);
    out.back() = '\n';
    return out;
}

}  // namespace evg::hw
