// The helpers of the checkers' interface (checker.hpp): how a sync instruction is remembered, described and
// located. Core::location uses the same location_of.
#include "evg/hw/checker.hpp"

#include <fmt/format.h>

#include "evg/hw/memory.hpp"

namespace evg::hw {

SyncRecord sync_record(int core, AgentId agent, const Instr& in) {
    return {{agent, in.epoch}, in.id, core, in.pipe, in.op, in.site};
}

std::string describe(const CheckerHost& host, const SyncRecord& r) {
    return fmt::format("#{} {} on {} of {} (issued at {})", r.instr, r.op, pipe_name(r.pipe),
                       host.core_name(r.core), r.site.str());
}

Location location_at(uint64_t instr, int core, std::string core_name, std::optional<Pipe> pipe,
                     std::string op, const Site& site) {
    Location l;
    l.instr = instr;
    l.core = core;
    l.core_name = std::move(core_name);
    if (pipe) l.pipe = std::string(pipe_name(*pipe));
    l.op = std::move(op);
    l.site = site.str();
    l.source = source_text(site);
    const SiteOwner owner = site_owner(site);
    l.owner = std::string(site_owner_name(owner));
    if (owner == SiteOwner::user) {
        l.user_site = l.site;
        l.user_source = l.source;
    }
    return l;
}

Location location_of(const CheckerHost& host, const SyncRecord& r) {
    return location_at(r.instr, r.core, host.core_name(r.core), r.pipe, r.op, r.site);
}

Location location_of(const CheckerHost& host, const TraceEntry& t) {
    return location_at(t.id, t.core, host.core_name(t.core), t.pipe, std::string(t.op()), t.site());
}

Location location_of(int core, const std::string& core_name, const Instr& in, const Access* a) {
    Location l = location_at(in.id, core, core_name, in.pipe, in.op, in.site);
    if (a && a->mem) {
        l.memory = a->mem->name();
        l.begin = a->begin;
        l.end = a->end;
        l.access = a->write ? "write" : "read";
    }
    return l;
}

}  // namespace evg::hw
