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

Location location_of(const CheckerHost& host, const SyncRecord& r) {
    Location l;
    l.instr = r.instr;
    l.core = r.core;
    l.core_name = host.core_name(r.core);
    l.pipe = std::string(pipe_name(r.pipe));
    l.op = r.op;
    l.site = r.site.str();
    return l;
}

Location location_of(const CheckerHost& host, const TraceEntry& t) {
    Location l;
    l.instr = t.id;
    l.core = t.core;
    l.core_name = host.core_name(t.core);
    l.pipe = std::string(pipe_name(t.pipe));
    l.op = t.op();
    l.site = t.site().str();
    return l;
}

Location location_of(int core, const std::string& core_name, const Instr& in, const Access* a) {
    Location l;
    l.instr = in.id;
    l.core = core;
    l.core_name = core_name;
    l.pipe = std::string(pipe_name(in.pipe));
    l.op = in.op;
    l.site = in.site.str();
    if (a && a->mem) {
        l.memory = a->mem->name();
        l.begin = a->begin;
        l.end = a->end;
        l.access = a->write ? "write" : "read";
    }
    return l;
}

}  // namespace evg::hw
