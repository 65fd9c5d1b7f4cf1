#include "evg/hw/core.hpp"
#include "evg/hw/rules.hpp"

#include "evg/hw/instr_pool.hpp"

#include <fmt/format.h>

#include <exception>
#include <optional>

#include "evg/hw/error.hpp"
#include "evg/hw/instr_pool.hpp"
#include "evg/hw/machine.hpp"
#include "evg/hw/name_cache.hpp"
#include "evg/hw/sync_mutation.hpp"
#include "fiber.hpp"

namespace evg::hw {

namespace detail {
thread_local Core* tls_core = nullptr;
}

Core& current_core() {
    if (!detail::tls_core)
        throw HostError("an AscendC kernel call was made outside a kernel launch (no current core)");
    return *detail::tls_core;
}
Core* current_core_or_null() {
    return detail::tls_core;
}

Core::Core(Machine& m, CoreHost& host, CoreState& state, int index, CoreType type, int block, int sub,
           int sub_num)
    : machine_(m),
      host_(host),
      state_(state),
      index_(index),
      type_(type),
      block_(block),
      sub_(sub),
      sub_num_(sub_num) {
    const ArchSpec& a = m.arch();
    if (type == CoreType::AIV) {
        const int vid = block * sub_num + sub;
        name_ = core_name(type, block, sub, sub_num);
        local_[MemKind::UB] =
            std::make_unique<Memory>(MemKind::UB, fmt::format("UB[AIV {}]", vid), a.ub_size, 512);
    } else {
        name_ = core_name(type, block, sub, sub_num);
        for (MemKind k : {MemKind::L1, MemKind::L0A, MemKind::L0B, MemKind::L0C, MemKind::BT, MemKind::FB})
            local_[k] = std::make_unique<Memory>(k, fmt::format("{}[AIC {}]", mem_name(k), block),
                                                 mem_capacity(a, k), 512);
    }
    s_known_ = VectorClock(m.agents());
    for (auto& p : state_.pipes) p.known = VectorClock(m.agents());
}

const ArchSpec& Core::arch() const {
    return machine_.arch();
}

bool Core::owns(Pipe p) const {
    return core_owns_pipe(arch(), type_, p);
}

uint32_t Core::issued_epoch(Pipe p) const {
    return state_.pipes[static_cast<size_t>(pipe_slot(p))].issued;
}

Memory* Core::local(MemKind k) {
    auto it = local_.find(k);
    return it == local_.end() ? nullptr : it->second.get();
}

void Core::keep_no_clocks() {
    clocks_ = false;
    s_known_ = VectorClock();
    for (auto& p : state_.pipes) p.known = VectorClock();
    s_snapshot_.reset();
}

std::shared_ptr<const VectorClock> Core::scalar_snapshot() {
    if (!clocks_) return nullptr;
    if (!s_snapshot_) s_snapshot_ = std::make_shared<const VectorClock>(s_known_);
    return s_snapshot_;
}

void Core::s_learn(const VectorClock& c) {
    s_known_.join(c);
    s_snapshot_.reset();
}

bool Core::abort_guard() {
    if (!state_.aborting) return false;
    if (++calls_after_abort_ > 10'000'000 && std::uncaught_exceptions() == 0) throw detail::CoreAbortTag{};
    return true;
}

std::unique_ptr<Instr> Core::make(Pipe p, InstrKind k, std::string_view op, Site site) {
    auto in = take_instr();
    in->pipe = p;
    in->kind = k;
    in->op.assign(op);  // into the recycled name's storage
    in->site = site;
    return in;
}

void Core::issue(std::unique_ptr<Instr> in) {
    if (abort_guard()) return;
    begin_call(false, in->site);
    push(std::move(in));
    end_call();
}

void Core::push(std::unique_ptr<Instr> in) {
    if (state_.aborting) return;
    in->core = this;
    auto& q = state_.pipes[static_cast<size_t>(pipe_slot(in->pipe))];
    in->epoch = q.issued + 1;
    if (!host_.register_instr(*in)) return;
    host_.notify_issue(*this, *in);
    q.issued = in->epoch;
    in->issued = scalar_snapshot();
    q.queue.push_back(std::move(in));
    ++state_.queued;
    state_.changed = true;
    host_.after_issue(*this);
}

bool Core::on_scalar(Instr& in) {
    in.core = this;
    in.pipe = Pipe::S;
    auto& q = state_.pipes[static_cast<size_t>(pipe_slot(Pipe::S))];
    in.epoch = q.issued + 1;
    if (!host_.register_instr(in)) return false;
    host_.notify_issue(*this, in);
    q.issued = in.epoch;
    if (clocks_) {
        s_known_.set(agent(Pipe::S), in.epoch);  // the scalar unit is in order: it knows all it did before
        s_snapshot_.reset();
    }
    return true;
}

void Core::scalar(std::unique_ptr<Instr> in) {
    if (abort_guard()) return;
    begin_call(false, in->site);
    if (!on_scalar(*in)) return;
    host_.notify_execute(*this, *in, s_known_);
    if (in->exec) in->exec(*in);
    recycle_instr(std::move(in));
    end_call();
}

void Core::dcache_clean(bool entire, Memory* mem, uint64_t begin, uint64_t end, std::string_view op,
                        Site site) {
    if (abort_guard()) return;
    begin_call(false, site);
    auto in = make(Pipe::S, InstrKind::plain, op, site);
    if (!on_scalar(*in)) return;
    if (entire || mem) {
        SyncEvent e{.kind = SyncKind::dcache_clean, .core = index_, .in = in.get()};
        e.mem = entire ? nullptr : mem;
        e.begin = begin;
        e.end = end;
        host_.notify_sync(e);
    }
    end_call();
}

int32_t Core::enter_node(std::string_view label) {
    const int32_t previous = node_;
    node_ = host_.intern_node(label);
    return previous;
}

void Core::violate(ViolationKind k, std::string message, std::vector<Location> locs, Severity sev,
                   uint64_t rules) {
    Violation v{k, sev, std::move(message), std::move(locs), 1, rules};
    host_.violate(std::move(v));
}

Location Core::location(const Instr& i, const Access* a) const {
    return location_of(index_, name_, i, a);
}

void Core::note_uninit_load(UninitLoad load) {
    if (uninit_loads_.size() >= kUninitLoads) return;
    for (const UninitLoad& l : uninit_loads_)
        if (l.gm == load.gm && l.dst == load.dst && l.dst_begin == load.dst_begin) return;
    uninit_loads_.push_back(std::move(load));
}

Location Core::site_location(std::string op, Site site) const {
    return location_at(0, index_, name_, std::nullopt, std::move(op), site);
}

void Core::report_uninit_value(std::string_view param, uint64_t value, const std::string& op, Site site,
                               std::string_view callee, size_t arg) {
    const std::string variable = call_argument_text(site, callee, arg);
    violate(ViolationKind::uninit_value,
            fmt::format("the {} of {} is {:#x}, the fill of memory the kernel never initialised: {}", param,
                        op, value,
                        variable.empty() ? std::string("it was read from a variable never assigned")
                                         : fmt::format("`{}` was never assigned", variable)),
            {site_location(op, site)});
}

// ---------------------------------------------------------------------------------------------------------------
// Intra-core flags and barriers

namespace {
// "SetFlag<V_MTE2>(0)" / "WaitFlag<...>(id)": formatted once per thread for each (event, small id), since
// every flag instruction is named so.
const std::string& flag_op_name(bool set, HardEvent e, int id) {
    constexpr int kIds = 64;
    thread_local std::vector<std::string> names(2 * static_cast<size_t>(HardEvent::MAX) * kIds);
    thread_local std::string other;
    const bool cached = e < HardEvent::MAX && id >= 0 && id < kIds;
    std::string& name = cached ? names[(static_cast<size_t>(set) * static_cast<size_t>(HardEvent::MAX) +
                                        static_cast<size_t>(e)) *
                                           kIds +
                                       static_cast<size_t>(id)]
                               : other;
    if (!cached || name.empty())
        name = fmt::format("{}<{}>({})", set ? "SetFlag" : "WaitFlag", event_name(e), id);
    return name;
}

// "PipeBarrier<PIPE_V>"
const std::string& barrier_op_name(Pipe p) {
    return cached_name(static_cast<uint64_t>(p),
                       [p] { return fmt::format("PipeBarrier<PIPE_{}>", pipe_name(p)); });
}

// "CrossCoreSetFlag<0, PIPE_MTE3>(1)" / "CrossCoreWaitFlag<...>(flag)"
const std::string& cross_op_name(bool set, uint8_t mode, Pipe p, uint16_t flag) {
    const uint64_t key =
        (uint64_t{set} << 32) | (uint64_t{mode} << 24) | (uint64_t{static_cast<uint8_t>(p)} << 16) | flag;
    return cached_name(key, [&] {
        return fmt::format("{}<{}, PIPE_{}>({})", set ? "CrossCoreSetFlag" : "CrossCoreWaitFlag", mode,
                           pipe_name(p), flag);
    });
}
}  // namespace

bool Core::check_event(HardEvent e, int& id, Site site, const char* what) {
    // The call's name, for messages only: formatted when one is needed, not at every flag call.
    const int written = id;
    const auto op = [&] { return fmt::format("{}<{}>({})", what, event_name(e), written); };
    // The hardware reads bits [2:0] of the id (max_event_id is 7): id 9 is id 1.
    const int hw_id =
        static_cast<int>(static_cast<uint32_t>(id) & static_cast<uint32_t>(arch().max_event_id));
    if (!machine_.config().checks.flags) {
        id = hw_id;
        return e < HardEvent::MAX;
    }
    if (machine_.config().checks.uninit && is_uninit_fill(written)) {
        report_uninit_value("event id", static_cast<uint32_t>(written),
                            fmt::format("{}<{}>", what, event_name(e)), site, what, 0);
        // The hardware uses bits [2:0] of whatever the id holds: the set and the wait of one never-assigned
        // variable still pair, on an id nobody chose.
        id = hw_id;
        return e < HardEvent::MAX && event_valid_for(type_, e);
    }
    if (e >= HardEvent::MAX) {
        violate(ViolationKind::illegal_event,
                fmt::format("{}: HardEvent value {} is not a valid event", op(), static_cast<int>(e)),
                {site_location(op(), site)});
        return false;
    }
    if (id < 0 || id > arch().max_event_id) {
        violate(
            ViolationKind::illegal_event,
            fmt::format("{} uses event id {}; {} has event ids 0..{} per HardEvent, and the hardware uses "
                        "bits [2:0] of the id: this is event id {}, and pairs with the SetFlag/WaitFlag "
                        "calls of id {}",
                        op(), id, arch().name, arch().max_event_id, hw_id, hw_id),
            {site_location(op(), site)}, Severity::error, rule_bit(RuleId::R7));
        id = hw_id;
    }
    if (!event_valid_for(type_, e)) {
        violate(ViolationKind::illegal_event,
                fmt::format("{}: HardEvent {} does not exist on an {} core (not in its event pool)", op(),
                            event_name(e), type_ == CoreType::AIV ? "AIV" : "AIC"),
                {site_location(op(), site)});
        return false;
    }
    if (id > arch().max_user_event_id)
        violate(
            ViolationKind::illegal_event,
            fmt::format("{} uses event id {}, reserved for the system (6) or TPipe auto-sync (7); use 0..{}",
                        op(), id, arch().max_user_event_id),
            {site_location(op(), site)}, Severity::warning);
    if (!owns(event_src(e)) || !owns(event_dst(e))) {
        violate(ViolationKind::illegal_event,
                fmt::format("{}: {} has no pipe {}; the flag operation compiles to nothing", op(), name_,
                            pipe_name(owns(event_src(e)) ? event_dst(e) : event_src(e))),
                {site_location(op(), site)}, Severity::warning);
        return false;
    }
    return true;
}

void Core::set_flag(HardEvent e, int id, Site site) {
    if (abort_guard()) return;
    if (!check_event(e, id, site, "SetFlag")) return;
    const CallTag tag = begin_call(true, site);
    if (interceptor_)
        interceptor_->set_flag(*this, tag, e, id, site);
    else
        do_set(e, id, site);
    end_call();
}

void Core::do_set(HardEvent e, int id, Site site) {
    if (state_.aborting) return;
    auto in = make(event_src(e), InstrKind::set_flag, flag_op_name(true, e, id), site);
    in->event = e;
    in->event_id = id;
    if (in->pipe == Pipe::S) {
        if (on_scalar(*in)) host_.flag_set(*this, *in, s_known_);
        return;
    }
    push(std::move(in));
}

void Core::unit_flag(bool set, HardEvent e, Site site) {
    if (abort_guard()) return;
    begin_call(false, site);
    if (set)
        do_set(e, kUnitFlagId, site);
    else
        do_wait(e, kUnitFlagId, site);
    end_call();
}

void Core::wait_flag(HardEvent e, int id, Site site) {
    if (abort_guard()) return;
    if (!check_event(e, id, site, "WaitFlag")) return;
    const CallTag tag = begin_call(true, site);
    if (interceptor_)
        interceptor_->wait_flag(*this, tag, e, id, site);
    else
        do_wait(e, id, site);
    end_call();
}

void Core::do_wait(HardEvent e, int id, Site site) {
    if (state_.aborting) return;
    auto in = make(event_dst(e), InstrKind::wait_flag, flag_op_name(false, e, id), site);
    in->event = e;
    in->event_id = id;
    if (in->pipe == Pipe::S) {
        if (!on_scalar(*in)) return;
        const auto key = flag_key(e, id);
        host_.block_until(
            *this, [this, key] { return !state_.flags[key].pending.empty(); },
            fmt::format("{} (issued at {})", in->op, site.str()));
        if (state_.aborting) return;
        VectorClock learned;
        host_.flag_wait(*this, *in, learned, s_known_);
        s_learn(learned);
        return;
    }
    push(std::move(in));
}

bool Core::barrier_legal(Pipe p, Site site) {
    const std::string& op = barrier_op_name(p);
    if (p == Pipe::S) {
        violate(ViolationKind::bad_param,
                "PipeBarrier<PIPE_S> is not allowed: the scalar pipe is always in order",
                {site_location(op, site)});
        return false;
    }
    if (p != Pipe::ALL && !owns(p)) {
        violate(ViolationKind::bad_param,
                fmt::format("{} on {}: this core has no such pipe; the barrier does nothing", op, name_),
                {site_location(op, site)}, Severity::warning);
        return false;
    }
    return true;
}

void Core::pipe_barrier(Pipe p, Site site) {
    if (abort_guard()) return;
    if (!barrier_legal(p, site)) return;
    const CallTag tag = begin_call(true, site);
    if (interceptor_)
        interceptor_->pipe_barrier(*this, tag, p, site);
    else
        do_barrier(p, site);
    end_call();
}

void Core::do_barrier(Pipe p, Site site) {
    if (state_.aborting) return;
    const std::string& op = barrier_op_name(p);
    if (p != Pipe::ALL) {
        push(make(p, InstrKind::barrier, op, site));
        return;
    }
    // PIPE_ALL: the scalar unit waits until every pipe has drained, then goes on knowing all of it.
    host_.block_until(
        *this,
        [this] {
            for (auto& q : state_.pipes)
                if (!q.queue.empty()) return false;
            return true;
        },
        fmt::format("{} (issued at {}) waiting for every pipe to drain", op, site.str()));
    if (state_.aborting) return;
    auto in = make(Pipe::S, InstrKind::barrier, op, site);
    in->core = this;
    auto& q = state_.pipes[static_cast<size_t>(pipe_slot(Pipe::S))];
    in->epoch = q.issued + 1;
    if (!host_.register_instr(*in)) return;
    ++q.issued;
    if (!clocks_) return;
    for (int s = 0; s < kPipeSlots; ++s) {
        s_known_.join(state_.pipes[static_cast<size_t>(s)].known);
        s_known_.raise(agent(slot_pipe(s)), state_.pipes[static_cast<size_t>(s)].issued);
    }
    s_known_.set(agent(Pipe::S), q.issued);
    s_snapshot_.reset();
}

// ---------------------------------------------------------------------------------------------------------------
// Cross-core flags

void Core::cross_core_set(uint8_t mode, Pipe p, uint16_t flag, Site site) {
    if (abort_guard()) return;
    if (!host_.cross_core_legal(*this, mode, p, flag, site, cross_op_name(true, mode, p, flag),
                                /*wait=*/false))
        return;
    const CallTag tag = begin_call(true, site);
    if (interceptor_)
        interceptor_->cross_core_set(*this, tag, mode, p, flag, site);
    else
        do_cross_set(mode, p, flag, site);
    end_call();
}

void Core::do_cross_set(uint8_t mode, Pipe p, uint16_t flag, Site site) {
    if (state_.aborting) return;
    auto in = make(p, InstrKind::cross_set, cross_op_name(true, mode, p, flag), site);
    in->cross_mode = mode;
    in->cross_flag = flag;
    if (p == Pipe::S) {
        if (on_scalar(*in)) host_.deliver_cross(*this, *in, s_known_);
        return;
    }
    push(std::move(in));
}

void Core::cross_core_wait(uint8_t mode, Pipe p, uint16_t flag, Site site) {
    if (abort_guard()) return;
    if (!host_.cross_core_legal(*this, mode, p, flag, site, cross_op_name(false, mode, p, flag),
                                /*wait=*/true))
        return;
    const CallTag tag = begin_call(true, site);
    if (interceptor_)
        interceptor_->cross_core_wait(*this, tag, mode, p, flag, site);
    else
        do_cross_wait(mode, p, flag, site);
    end_call();
}

void Core::do_cross_wait(uint8_t mode, Pipe p, uint16_t flag, Site site) {
    if (state_.aborting) return;
    auto in = make(p, InstrKind::cross_wait, cross_op_name(false, mode, p, flag), site);
    in->cross_mode = mode;
    in->cross_flag = flag;
    // On AtlasA2 the wait stalls every pipe of the waiter: the scalar unit stops issuing until it is
    // satisfied.
    if (p == Pipe::S || arch().cross_wait_blocks_all) {
        if (!on_scalar(*in)) return;
        const auto key = counter_key(mode, flag);
        state_.blocked_cross_wait = in.get();
        host_.block_until(
            *this, [this, key] { return !state_.counters[key].pending.empty(); },
            fmt::format("{} (issued at {})", in->op, site.str()));
        state_.blocked_cross_wait = nullptr;
        if (state_.aborting) return;
        VectorClock learned;
        host_.counter_wait(*this, *in, learned);
        s_learn(learned);
        return;
    }
    push(std::move(in));
}

// ---------------------------------------------------------------------------------------------------------------
// Program calls and the sync interceptor

std::string Core::short_name() const {
    return core_short_name(machine_.kernel_type(), machine_.block_dim(), index_);
}

SyncInterceptor& Core::interceptor(MutationPlan& plan) {
    if (!interceptor_) interceptor_ = std::make_unique<SyncInterceptor>(plan);
    return *interceptor_;
}

CallTag Core::begin_call(bool sync, Site site) {
    const uint32_t pos = stream_ + 1;
    if (interceptor_) interceptor_->before_call(*this, pos, site);
    stream_ = pos;
    call_ = {pos, sync ? sync_count_++ : -1};
    return call_;
}

void Core::end_call() {
    if (interceptor_) interceptor_->after_call(*this);
}

void Core::run_kernel(const std::function<void()>& kernel) {
    // What the launch's own calls on this fiber left where the kernel's frames go (16 KiB: the model's calls
    // are not deeper); only a launch whose uninit checker reads the fill needs it.
    if (machine_.config().checks.uninit) detail::refill_dead_stack(size_t{16} << 10, size_t{1} << 10);
    kernel();
    if (interceptor_) interceptor_->finish(*this);  // moved WaitFlags still pending are issued now
}

void Core::issue_set(HardEvent e, int id, Site site, CallTag tag, bool check) {
    if (check && !check_event(e, id, site, "SetFlag")) return;
    tagged(tag, [&] { do_set(e, id, site); });
}

void Core::issue_wait(HardEvent e, int id, Site site, CallTag tag, bool check) {
    if (check && !check_event(e, id, site, "WaitFlag")) return;
    tagged(tag, [&] { do_wait(e, id, site); });
}

void Core::issue_barrier(Pipe p, Site site, CallTag tag) {
    if (!barrier_legal(p, site)) return;
    tagged(tag, [&] { do_barrier(p, site); });
}

void Core::issue_pair(HardEvent e, int id, Site site, CallTag tag) {
    if (!check_event(e, id, site, "SetFlag")) return;
    tagged(tag, [&] {
        do_set(e, id, site);
        do_wait(e, id, site);
    });
}

void Core::issue_cross_set(uint8_t mode, Pipe p, uint16_t flag, Site site, CallTag tag, bool check) {
    if (check && !host_.cross_core_legal(*this, mode, p, flag, site, cross_op_name(true, mode, p, flag),
                                         /*wait=*/false))
        return;
    tagged(tag, [&] { do_cross_set(mode, p, flag, site); });
}

void Core::issue_cross_wait(uint8_t mode, Pipe p, uint16_t flag, Site site, CallTag tag, bool check) {
    if (check && !host_.cross_core_legal(*this, mode, p, flag, site, cross_op_name(false, mode, p, flag),
                                         /*wait=*/true))
        return;
    tagged(tag, [&] { do_cross_wait(mode, p, flag, site); });
}

void Core::set_atomic(AtomicOp op, DType t, Site site) {
    if (abort_guard()) return;
    static constexpr DType kAtomicTypes[] = {DType::i8,   DType::i16, DType::f16,
                                             DType::bf16, DType::i32, DType::f32};
    if (op != AtomicOp::none) {
        bool ok = false;
        for (auto x : kAtomicTypes) ok |= x == t;
        if (!ok) {
            violate(
                ViolationKind::illegal_dtype,
                fmt::format("SetAtomic with element type {}: GM atomics support int8, int16, half, bfloat16, "
                            "int32 and float",
                            dtype_name(t)),
                {site_location("SetAtomic", site)});
            return;
        }
    }
    atomic_ = op;
    atomic_dtype_ = t;
    atomic_site_ = site;
}

}  // namespace evg::hw
