// Machine, scheduling: which queued instruction may execute, the in-order and adversarial schedulers, and the
// cores as fibers that block until their wait can be satisfied.
#include "evg/hw/machine.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "evg/hw/error.hpp"
#include "evg/hw/instr_pool.hpp"
#include "fiber.hpp"

namespace evg::hw {

namespace {
bool is_set(InstrKind k) {
    return k == InstrKind::set_flag || k == InstrKind::cross_set;
}
bool is_wait(InstrKind k) {
    return k == InstrKind::wait_flag || k == InstrKind::cross_wait;
}
}  // namespace

bool Machine::executable(Core& c, int slot, size_t pos) const {
    const CoreState& st = state(c);
    auto& q = st.pipes[static_cast<size_t>(slot)];
    if (pos >= q.queue.size()) return false;
    const Instr& in = *q.queue[pos];
    if (pos > 0) {
        // What a pipe that does not keep order allows: a later plain instruction may complete before earlier
        // plain instructions and before an earlier set (a set waits for the earlier instructions of its pipe,
        // it does not hold back later ones); a wait may be satisfied while earlier plain instructions are in
        // flight. Nothing passes a wait or a barrier, and a set or a barrier passes nothing.
        Pipe p = slot_pipe(slot);
        bool ordered = p == Pipe::S || (p == Pipe::V && arch().v_pipe_ordered);
        if (ordered || pos >= cfg_.reorder_window) return false;
        if (in.kind != InstrKind::plain && !is_wait(in.kind)) return false;
        for (size_t j = 0; j < pos; ++j) {
            InstrKind k = q.queue[j]->kind;
            if (is_wait(k) || k == InstrKind::barrier) return false;
            if (is_wait(in.kind) && k != InstrKind::plain) return false;
            if (in.after_epoch != 0 && q.queue[j]->epoch == in.after_epoch)
                return false;  // the pipe's own order
        }
    }
    if (in.kind == InstrKind::wait_flag) {
        auto it = st.flags.find(flag_key(in.event, in.event_id));
        return it != st.flags.end() && !it->second.pending.empty();
    }
    if (in.kind == InstrKind::cross_wait) {
        auto it = st.counters.find(counter_key(in.cross_mode, in.cross_flag));
        return it != st.counters.end() && !it->second.pending.empty();
    }
    return true;
}

void Machine::execute(Core& c, int slot, size_t pos) {
    CoreState& st = state(c);
    auto& q = st.pipes[static_cast<size_t>(slot)];
    ++steps_;
    if (pos > 0) {
        bool over_plain = false, over_set = false;
        for (size_t j = 0; j < pos; ++j) {
            over_plain |= q.queue[j]->kind == InstrKind::plain;
            over_set |= is_set(q.queue[j]->kind);
        }
        if (is_wait(q.queue[pos]->kind)) {
            coverage_.wait_over_plain++;
            // The instructions the wait overtakes come before it in the pipe: they keep what the pipe knew.
            for (size_t j = 0; j < pos; ++j) q.frozen.try_emplace(q.queue[j]->epoch, q.known);
        } else {
            coverage_.plain_over_plain += over_plain;
            coverage_.plain_over_set += over_set;
        }
    }
    std::unique_ptr<Instr> in = std::move(q.queue[pos]);
    if (pos == 0)
        q.queue.pop_front();  // in order: the usual case, without erase's general path
    else
        q.queue.erase(q.queue.begin() + static_cast<std::ptrdiff_t>(pos));
    --st.queued;
    st.changed = true;
    AgentId me = c.agent(in->pipe);
    Pipe p = in->pipe;
    bool ordered = p == Pipe::S || (p == Pipe::V && arch().v_pipe_ordered);
    VectorClock& known = exec_known_;  // a member: its storage is reused (execute does not nest)
    if (auto f = q.frozen.find(in->epoch); f != q.frozen.end()) {
        known = std::move(f->second);
        q.frozen.erase(f);
    } else {
        known = q.known;
    }
    if (in->issued) known.join(*in->issued);
    // The clocks learn the instruction's completion only when a checker reads them (Checker::kClocks):
    // without, every clock stays empty, and copying and joining them costs nothing.
    const auto learn = [&](VectorClock& k) {
        if (clocks_) k.raise(me, in->epoch);
    };
    switch (in->kind) {
        case InstrKind::plain:
            notify_execute(c, *in, known);
            if (in->exec) in->exec(*in);
            break;
        case InstrKind::barrier:
            learn(q.known);
            break;
        case InstrKind::set_flag: {
            learn(known);
            flag_set(c, *in, known);
            break;
        }
        case InstrKind::wait_flag:
            flag_wait(c, *in, q.known, known);
            break;
        case InstrKind::cross_set: {
            learn(known);
            deliver_cross(c, *in, known);
            break;
        }
        case InstrKind::cross_wait:
            counter_wait(c, *in, q.known);
            break;
    }
    if (ordered) learn(q.known);
    recycle_instr(std::move(in));
}

bool Machine::drain_in_order() {
    bool any = false, progress = true;
    while (progress) {
        progress = false;
        for (size_t i = 0; i < cores_.size(); ++i) {
            CoreState& st = states_[i];
            if (st.queued == 0 || !st.changed) continue;  // nothing of it can run (CoreState::changed)
            st.changed = false;  // an execution below sets it again: the core is looked at on the next pass
            Core& c = *cores_[i];
            for (int s = 0; s < kPipeSlots; ++s)
                while (executable(c, s, 0)) {
                    execute(c, s, 0);
                    progress = any = true;
                }
        }
    }
    return any;
}

bool Machine::random_step() {
    std::vector<Cand>& cands = step_cands_;  // a member: its storage is reused
    cands.clear();
    for (size_t i = 0; i < cores_.size(); ++i) {
        CoreState& st = states_[i];
        if (st.queued == 0) continue;
        Core* c = cores_[i].get();
        if (st.changed) {  // its candidates are looked for again; another core's are as they were
            st.changed = false;
            st.candidates.clear();
            for (int s = 0; s < kPipeSlots; ++s) {
                size_t n =
                    std::min<size_t>(st.pipes[static_cast<size_t>(s)].queue.size(), cfg_.reorder_window);
                for (size_t pos = 0; pos < n; ++pos)
                    if (executable(*c, s, pos)) st.candidates.emplace_back(s, pos);
            }
        }
        for (const auto& [s, pos] : st.candidates) cands.push_back({c, s, pos});
    }
    if (cands.empty()) return false;
    auto& pick = cands[std::uniform_int_distribution<size_t>(0, cands.size() - 1)(rng_)];
    execute(*pick.c, pick.slot, pick.pos);
    return true;
}

void Machine::drain() {
    if (cfg_.scheduler == SchedulerKind::in_order) {
        drain_in_order();
        return;
    }
    while (random_step()) {
    }
}

void Machine::after_issue(Core& c) {
    if (cfg_.scheduler == SchedulerKind::in_order) {
        drain_in_order();
        return;
    }
    // Adversarial: run a random amount of pending work, and sometimes hand the scalar baton to another
    // core.
    int steps = std::uniform_int_distribution<int>(0, 3)(rng_);
    for (int i = 0; i < steps && random_step(); ++i) {
    }
    if (std::uniform_int_distribution<int>(0, 7)(rng_) == 0 && !state(c).aborting)
        yield_to_scheduler(c.index());
}

// ---------------------------------------------------------------------------------------------------------------
// Fibers and scheduling

void Machine::yield_to_scheduler(int i) {
    runners_[static_cast<size_t>(i)].fiber->yield();
}

void Machine::block_until(Core& c, const std::function<bool()>& ready, const std::string& what) {
    for (;;) {
        if (cfg_.scheduler == SchedulerKind::in_order) {
            drain_in_order();
        } else {
            while (!ready() && random_step()) {
            }
        }
        if (ready() || state(c).aborting) return;
        auto& r = runners_[static_cast<size_t>(c.index())];
        r.state = Runner::State::blocked;
        r.ready = ready;
        r.blocked_on = what;
        yield_to_scheduler(c.index());
        r.state = Runner::State::ready;
        r.ready = nullptr;
        if (state(c).aborting) return;
    }
}

void Machine::core_main(int i, const std::function<void()>& kernel) {
    Core& c = core(i);
    auto fail = [&](const std::string& what) {
        violate({ViolationKind::kernel_exception,
                 Severity::error,
                 fmt::format("the kernel body on {} threw: {}", c.name(), what),
                 {},
                 1});
    };
    try {
        c.run_kernel(kernel);
    } catch (const detail::CoreAbortTag&) {
    } catch (const UnmodelledCall& e) {
        // The kernel reached a call evgcheck declares but does not execute: this core stops here.
        violate({ViolationKind::unmodelled_call,
                 Severity::error,
                 fmt::format("{}: {}", c.name(), e.what()),
                 {},
                 1});
    } catch (const evg::Error& e) {
        fail(e.what());
    } catch (const std::exception& e) {
        fail(e.what());
    } catch (...) {
        // A kernel thread that was stopped unwinds with an internal token; anything else is reported.
        if (!state(c).aborting) fail("an exception of unknown type");
    }
    runners_[static_cast<size_t>(i)].state = Runner::State::finished;
}

int Machine::pick_runnable() {
    std::vector<int>& cand = runnable_;
    cand.clear();
    for (size_t i = 0; i < runners_.size(); ++i) {
        auto& r = runners_[i];
        if (r.state == Runner::State::ready) cand.push_back(static_cast<int>(i));
        if (r.state == Runner::State::blocked && r.ready && r.ready()) cand.push_back(static_cast<int>(i));
    }
    if (cand.empty()) return -1;
    if (cfg_.scheduler == SchedulerKind::in_order) return cand.front();
    return cand[std::uniform_int_distribution<size_t>(0, cand.size() - 1)(rng_)];
}

}  // namespace evg::hw
