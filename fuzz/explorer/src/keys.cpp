#include "keys.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

namespace evg::explore {

std::string flag_key(const Topology& t, int core, Event e, int id) {
    return fmt::format("{}:{}({})", t.core_name(core), event_name(e), id);
}

std::string counter_key(const Topology& t, const CounterKey& k) {
    return fmt::format("{}:cross(ns{}){}", t.core_name(k.core), k.ns, k.flag);
}

std::string round_key(int mode, int group, int flag) {
    return fmt::format("round(mode{},group{}){}", mode, group, flag);
}

void canonicalise(std::vector<ReadFrom>& rs) {
    std::sort(rs.begin(), rs.end());
    std::vector<ReadFrom> out;
    out.reserve(rs.size());
    for (ReadFrom& r : rs) {
        if (!out.empty()) {
            ReadFrom& last = out.back();
            if (last.reader == r.reader && last.access == r.access && last.end == r.begin &&
                last.writers == r.writers) {
                last.end = r.end;
                continue;
            }
        }
        out.push_back(std::move(r));
    }
    rs = std::move(out);
}

namespace detail {

void normalise(std::vector<Finding>& fs) {
    auto key = [](const Finding& f) { return std::tie(f.kind, f.instrs, f.what); };
    std::stable_sort(fs.begin(), fs.end(),
                     [&](const Finding& a, const Finding& b) { return key(a) < key(b); });
    fs.erase(std::unique(fs.begin(), fs.end(), [](const Finding& a, const Finding& b) { return a.same(b); }),
             fs.end());
}

bool conflict(const Access& a, const Access& b) {
    if (a.mem != b.mem || a.end <= b.begin || b.end <= a.begin) return false;
    if (!a.write && !b.write) return false;
    return !(a.atomic && b.atomic);
}

}  // namespace detail
}  // namespace evg::explore
