// The sync mutations of Config::mutations applied to a core's calls as they are issued
// (sync_interceptor.hpp), and the launch's account of which mutation found its call.
#include "evg/hw/sync_interceptor.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace evg::hw {

namespace {

// The kind of sync call an operator rewrites; drop_pair rewrites a set (at n) and a wait (at pair).
InstrKind target_kind(const SyncMutation& m, int32_t n) {
    switch (m.op) {
        case SyncOp::drop_set:
        case SyncOp::dup_set:
        case SyncOp::set_id:
        case SyncOp::set_event:
        case SyncOp::move_set:
            return InstrKind::set_flag;
        case SyncOp::drop_wait:
        case SyncOp::wait_id:
        case SyncOp::wait_event:
        case SyncOp::move_wait:
            return InstrKind::wait_flag;
        case SyncOp::drop_pair:
            return n == m.n ? InstrKind::set_flag : InstrKind::wait_flag;
        case SyncOp::drop_barrier:
            return InstrKind::barrier;
        case SyncOp::drop_cross_set:
        case SyncOp::dup_cross_set:
        case SyncOp::cross_set_flag:
            return InstrKind::cross_set;
        case SyncOp::drop_cross_wait:
        case SyncOp::cross_wait_flag:
            return InstrKind::cross_wait;
        case SyncOp::insert_barrier:
        case SyncOp::insert_pair:
            break;
    }
    return InstrKind::plain;
}

std::string_view kind_text(InstrKind k) {
    switch (k) {
        case InstrKind::set_flag:
            return "a SetFlag";
        case InstrKind::wait_flag:
            return "a WaitFlag";
        case InstrKind::barrier:
            return "a PipeBarrier";
        case InstrKind::cross_set:
            return "a CrossCoreSetFlag";
        case InstrKind::cross_wait:
            return "a CrossCoreWaitFlag";
        case InstrKind::plain:
            break;
    }
    return "an instruction";
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------------
// The plan

MutationPlan::MutationPlan(const std::vector<SyncMutation>& plan)
    : plan_(plan), applied_(plan.size(), 0), reason_(plan.size()) {}

void MutationPlan::applied(int i, uint8_t part) {
    applied_[static_cast<size_t>(i)] |= part;
}

void MutationPlan::mismatch(int i, std::string reason) {
    auto& r = reason_[static_cast<size_t>(i)];
    if (r.empty()) r = std::move(reason);
}

std::string MutationPlan::unapplied_reason(size_t i, int sync_calls) const {
    const SyncMutation& m = plan_[i];
    std::string why = reason_[i];
    if (why.empty()) {
        const int missing = (applied_[i] & 1) ? m.pair : m.n;
        why = fmt::format("{} made {} sync call(s); sync call n={} was never reached", m.core, sync_calls,
                          missing);
    }
    return fmt::format("{}: {}", to_string(m), why);
}

// ---------------------------------------------------------------------------------------------------------------
// One core's mutations

void SyncInterceptor::add(int i) {
    const SyncMutation& m = plan_.mutations()[static_cast<size_t>(i)];
    at_sync_[m.n].push_back(i);
    if (m.op == SyncOp::drop_pair && m.pair != m.n) at_sync_[m.pair].push_back(i);
    if (m.op == SyncOp::move_set) early_sets_.push_back(i);
}

void SyncInterceptor::before_call(SyncIssuer& core, uint32_t pos, Site site) {
    for (int i : early_sets_) {
        const SyncMutation& m = plan_.mutations()[static_cast<size_t>(i)];
        if (m.at != pos || core.aborting()) continue;
        // The moved set is the call n of stream position at + by, issued here, before position `at`.
        early_done_.push_back(i);
        core.issue_set(m.event, m.id, site, {m.at + static_cast<uint32_t>(m.by), m.n}, true);
    }
}

void SyncInterceptor::after_call(SyncIssuer& core) {
    std::vector<Deferred> due;
    for (auto it = deferred_.begin(); it != deferred_.end();) {
        if (--it->left <= 0) {
            due.push_back(*it);
            it = deferred_.erase(it);
        } else {
            ++it;
        }
    }
    for (const auto& d : due) core.issue_wait(d.event, d.id, d.site, d.tag, false);
    if (deferring_) {  // the call just made is a moved wait: it counts the calls after it
        deferred_.push_back(*deferring_);
        deferring_.reset();
    }
}

void SyncInterceptor::finish(SyncIssuer& core) {
    // A moved wait whose `by` calls outran the core's stream is issued at the end of the kernel body.
    auto pending = std::move(deferred_);
    deferred_.clear();
    for (const auto& d : pending) core.issue_wait(d.event, d.id, d.site, d.tag, false);
}

const SyncMutation* SyncInterceptor::mutate(SyncIssuer& core, CallTag tag, InstrKind kind, Site site,
                                            HardEvent e, int id) {
    auto it = at_sync_.find(tag.sync);
    if (it == at_sync_.end()) return nullptr;
    const int32_t n = tag.sync;
    const SyncMutation* primary = nullptr;
    // Inserted calls share the stream position of the call they precede and have no sync index.
    const CallTag inserted{tag.stream, -1};
    for (int i : it->second) {
        const SyncMutation& m = plan_.mutations()[static_cast<size_t>(i)];
        if (m.op == SyncOp::insert_barrier) {
            core.issue_barrier(m.pipe, site, inserted);
            plan_.applied(i);
            continue;
        }
        if (m.op == SyncOp::insert_pair) {
            core.issue_pair(m.event, m.id, site, inserted);
            plan_.applied(i);
            continue;
        }
        const InstrKind want = target_kind(m, n);
        if (want != kind) {
            plan_.mismatch(i, fmt::format("sync call n={} of {} is {}, not {}", n, core.short_name(),
                                          kind_text(kind), kind_text(want)));
            continue;
        }
        if (m.op == SyncOp::move_set) {
            if (std::find(early_done_.begin(), early_done_.end(), i) == early_done_.end()) {
                plan_.mismatch(
                    i, fmt::format(
                           "stream position at={} was not reached before the set (its own position is {})",
                           m.at, tag.stream));
                continue;
            }
            if (m.event != e || m.id != id) {
                plan_.mismatch(i,
                               fmt::format("the set issued early was SetFlag<{}>({}), but sync call n={} is "
                                           "SetFlag<{}>({})",
                                           event_name(m.event), m.id, n, event_name(e), id));
                continue;
            }
        }
        if (primary) {
            plan_.mismatch(i, fmt::format("'{}' already rewrites sync call n={} of {}", to_string(*primary),
                                          n, core.short_name()));
            continue;
        }
        primary = &m;
        plan_.applied(i, m.op == SyncOp::drop_pair && n != m.n ? 2 : 1);
    }
    return primary;
}

void SyncInterceptor::set_flag(SyncIssuer& core, CallTag tag, HardEvent e, int id, Site site) {
    const SyncMutation* m = mutate(core, tag, InstrKind::set_flag, site, e, id);
    if (!m) {
        core.issue_set(e, id, site, tag, false);
    } else if (m->op == SyncOp::dup_set) {
        core.issue_set(e, id, site, tag, false);
        core.issue_set(e, id, site, {tag.stream, -1}, false);
    } else if (m->op == SyncOp::set_id) {
        core.issue_set(e, m->id, site, tag, true);
    } else if (m->op == SyncOp::set_event) {
        core.issue_set(m->event, id, site, tag, true);
    }  // drop_set, drop_pair, move_set (issued earlier): nothing now
}

void SyncInterceptor::wait_flag(SyncIssuer& core, CallTag tag, HardEvent e, int id, Site site) {
    const SyncMutation* m = mutate(core, tag, InstrKind::wait_flag, site, e, id);
    if (!m) {
        core.issue_wait(e, id, site, tag, false);
    } else if (m->op == SyncOp::wait_id) {
        core.issue_wait(e, m->id, site, tag, true);
    } else if (m->op == SyncOp::wait_event) {
        core.issue_wait(m->event, id, site, tag, true);
    } else if (m->op == SyncOp::move_wait) {
        deferring_ = Deferred{m->by, e, id, site, tag};
    }  // drop_wait, drop_pair: nothing
}

void SyncInterceptor::pipe_barrier(SyncIssuer& core, CallTag tag, Pipe p, Site site) {
    if (!mutate(core, tag, InstrKind::barrier, site))
        core.issue_barrier(p, site, tag);  // drop_barrier: nothing
}

void SyncInterceptor::cross_core_set(SyncIssuer& core, CallTag tag, uint8_t mode, Pipe p, uint16_t flag,
                                     Site site) {
    const SyncMutation* m = mutate(core, tag, InstrKind::cross_set, site);
    if (!m) {
        core.issue_cross_set(mode, p, flag, site, tag, false);
    } else if (m->op == SyncOp::dup_cross_set) {
        core.issue_cross_set(mode, p, flag, site, tag, false);
        core.issue_cross_set(mode, p, flag, site, {tag.stream, -1}, false);
    } else if (m->op == SyncOp::cross_set_flag) {
        core.issue_cross_set(mode, p, static_cast<uint16_t>(m->id), site, tag, true);
    }  // drop_cross_set: nothing
}

void SyncInterceptor::cross_core_wait(SyncIssuer& core, CallTag tag, uint8_t mode, Pipe p, uint16_t flag,
                                      Site site) {
    const SyncMutation* m = mutate(core, tag, InstrKind::cross_wait, site);
    if (!m) {
        core.issue_cross_wait(mode, p, flag, site, tag, false);
    } else if (m->op == SyncOp::cross_wait_flag) {
        core.issue_cross_wait(mode, p, static_cast<uint16_t>(m->id), site, tag, true);
    }  // drop_cross_wait: nothing
}

}  // namespace evg::hw
