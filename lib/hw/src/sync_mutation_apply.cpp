// A core's program calls as the trace numbers them (stream positions, sync indices), and the sync mutations
// of Config::mutations applied to them as they are issued.
#include <fmt/format.h>

#include "evg/hw/core.hpp"
#include "evg/hw/machine.hpp"

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

std::string Core::short_name() const {
    return core_short_name(machine_.kernel_type(), machine_.block_dim(), index_);
}

int32_t Core::begin_call(bool sync, Site site) {
    uint32_t pos = stream_ + 1;
    if (!early_sets_.empty()) {
        const auto& plan = machine_.config().mutations;
        for (int i : early_sets_) {
            const SyncMutation& m = plan[static_cast<size_t>(i)];
            if (m.at != pos || aborting_) continue;
            // The moved set is the call n of stream position at + by, issued here, before position `at`.
            tag_stream_ = m.at + static_cast<uint32_t>(m.by);
            tag_sync_ = m.n;
            early_done_.push_back(i);
            if (int id = m.id; check_event(m.event, id, site, "SetFlag")) do_set(m.event, id, site);
        }
    }
    stream_ = pos;
    tag_stream_ = pos;
    tag_sync_ = sync ? sync_count_++ : -1;
    return tag_sync_;
}

void Core::end_call() {
    if (deferred_.empty()) return;
    std::vector<Deferred> due;
    for (auto it = deferred_.begin(); it != deferred_.end();) {
        if (--it->left <= 0) {
            due.push_back(*it);
            it = deferred_.erase(it);
        } else {
            ++it;
        }
    }
    uint32_t stream = tag_stream_;
    int32_t sync = tag_sync_;
    for (const auto& d : due) {
        tag_stream_ = d.stream;
        tag_sync_ = d.sync;
        do_wait(d.event, d.id, d.site);
    }
    tag_stream_ = stream;
    tag_sync_ = sync;
}

void Core::finish_kernel() {
    // A moved wait whose `by` instructions outran the core's stream is issued at the end of the kernel body.
    auto pending = std::move(deferred_);
    deferred_.clear();
    for (const auto& d : pending) {
        tag_stream_ = d.stream;
        tag_sync_ = d.sync;
        do_wait(d.event, d.id, d.site);
    }
}

const SyncMutation* Core::mutate(int32_t n, InstrKind kind, Site site, HardEvent e, int id) {
    auto it = muts_.find(n);
    if (it == muts_.end()) return nullptr;
    const auto& plan = machine_.config().mutations;
    const SyncMutation* primary = nullptr;
    uint32_t stream = tag_stream_;
    int32_t sync = tag_sync_;
    // Inserted calls share the stream position of the call they precede and have no sync index.
    for (int i : it->second) {
        const SyncMutation& m = plan[static_cast<size_t>(i)];
        tag_stream_ = stream;
        tag_sync_ = -1;
        if (m.op == SyncOp::insert_barrier) {
            if (barrier_legal(m.pipe, site)) do_barrier(m.pipe, site);
            machine_.mutation_applied(i);
            continue;
        }
        if (m.op == SyncOp::insert_pair) {
            if (int id = m.id; check_event(m.event, id, site, "SetFlag")) {
                do_set(m.event, id, site);
                do_wait(m.event, id, site);
            }
            machine_.mutation_applied(i);
            continue;
        }
        InstrKind want = target_kind(m, n);
        if (want != kind) {
            machine_.mutation_mismatch(i, fmt::format("sync call n={} of {} is {}, not {}", n, short_name(),
                                                      kind_text(kind), kind_text(want)));
            continue;
        }
        if (m.op == SyncOp::move_set) {
            bool issued = false;
            for (int d : early_done_) issued |= d == i;
            if (!issued) {
                machine_.mutation_mismatch(
                    i, fmt::format(
                           "stream position at={} was not reached before the set (its own position is {})",
                           m.at, stream));
                continue;
            }
            if (m.event != e || m.id != id) {
                machine_.mutation_mismatch(
                    i, fmt::format(
                           "the set issued early was SetFlag<{}>({}), but sync call n={} is SetFlag<{}>({})",
                           event_name(m.event), m.id, n, event_name(e), id));
                continue;
            }
        }
        if (primary) {
            machine_.mutation_mismatch(i, fmt::format("'{}' already rewrites sync call n={} of {}",
                                                      to_string(*primary), n, short_name()));
            continue;
        }
        primary = &m;
        machine_.mutation_applied(i, m.op == SyncOp::drop_pair && n != m.n ? 2 : 1);
    }
    tag_stream_ = stream;
    tag_sync_ = sync;
    return primary;
}

// ---------------------------------------------------------------------------------------------------------------
// The plan of a launch

void Machine::plan_mutations() {
    // Sync mutations go to the core they name, keyed by the sync index (both indices for drop_pair).
    mut_applied_.assign(cfg_.mutations.size(), 0);
    mut_reason_.assign(cfg_.mutations.size(), {});
    for (size_t i = 0; i < cfg_.mutations.size(); ++i) {
        const SyncMutation& m = cfg_.mutations[i];
        Core* target = nullptr;
        for (auto& c : cores_)
            if (c->short_name() == m.core) target = c.get();
        if (!target) {
            mut_reason_[i] =
                fmt::format("no core named {} in this launch ({}, blockDim {}: cores {} to {})", m.core,
                            type_ == KernelType::mix_aic_1_2 ? "mix"
                            : type_ == KernelType::aiv_only  ? "AIV-only"
                                                             : "AIC-only",
                            block_dim_, cores_.front()->short_name(), cores_.back()->short_name());
            continue;
        }
        int idx = static_cast<int>(i);
        target->muts_[m.n].push_back(idx);
        if (m.op == SyncOp::drop_pair && m.pair != m.n) target->muts_[m.pair].push_back(idx);
        if (m.op == SyncOp::move_set) target->early_sets_.push_back(idx);
    }
}

void Machine::mutation_applied(int i, uint8_t part) {
    mut_applied_[static_cast<size_t>(i)] |= part;
}

void Machine::mutation_mismatch(int i, std::string reason) {
    auto& r = mut_reason_[static_cast<size_t>(i)];
    if (r.empty()) r = std::move(reason);
}

std::vector<std::string> Machine::unapplied_mutations() const {
    std::vector<std::string> out;
    for (size_t i = 0; i < cfg_.mutations.size(); ++i) {
        const SyncMutation& m = cfg_.mutations[i];
        uint8_t need = m.op == SyncOp::drop_pair ? 3 : 1;
        if ((mut_applied_[i] & need) == need) continue;
        std::string why = mut_reason_[i];
        if (why.empty()) {
            int made = 0;
            for (auto& c : cores_)
                if (c->short_name() == m.core) made = c->sync_count_;
            int missing = (mut_applied_[i] & 1) ? m.pair : m.n;
            why = fmt::format("{} made {} sync call(s); sync call n={} was never reached", m.core, made,
                              missing);
        }
        out.push_back(fmt::format("{}: {}", to_string(m), why));
    }
    return out;
}

}  // namespace evg::hw
