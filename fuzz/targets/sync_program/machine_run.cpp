// Runs an explorer program on the machine through the AscendC API: every core interprets its op list, and
// each op is issued with its own Site ("core<c>", line = op index + 1) so that the report's locations name
// ops.
#include <fmt/format.h>

#include <cstring>
#include <utility>

#include "evg/hw/device.hpp"
#include "evg/hw/error.hpp"
#include "kernel_operator.h"
#include "sync_program.hpp"

namespace evg::fuzz {

using AscendC::HardEvent;
using AscendC::pipe_t;
using explore::OpKind;
using explore::Pipe;

namespace {

constexpr const char* kCoreFiles[] = {"core0", "core1", "core2", "core3"};

pipe_t to_pipe(Pipe p) {
    switch (p) {
        case Pipe::S:
            return AscendC::PIPE_S;
        case Pipe::V:
            return AscendC::PIPE_V;
        case Pipe::M:
            return AscendC::PIPE_M;
        case Pipe::MTE1:
            return AscendC::PIPE_MTE1;
        case Pipe::MTE2:
            return AscendC::PIPE_MTE2;
        case Pipe::MTE3:
            return AscendC::PIPE_MTE3;
        case Pipe::FIX:
            return AscendC::PIPE_FIX;
        case Pipe::ALL:
            return AscendC::PIPE_ALL;
    }
    return AscendC::PIPE_ALL;
}

hw::Pipe to_hw(Pipe p) {
    return static_cast<hw::Pipe>(to_pipe(p));
}

template <size_t... I>
void set_flag(HardEvent e, int id, AscendC::Site s, std::index_sequence<I...>) {
    (void)((e == static_cast<HardEvent>(I) ? (AscendC::SetFlag<static_cast<HardEvent>(I)>(id, s), true)
                                           : false) ||
           ...);
}
template <size_t... I>
void wait_flag(HardEvent e, int id, AscendC::Site s, std::index_sequence<I...>) {
    (void)((e == static_cast<HardEvent>(I) ? (AscendC::WaitFlag<static_cast<HardEvent>(I)>(id, s), true)
                                           : false) ||
           ...);
}
using AllEvents = std::make_index_sequence<static_cast<size_t>(HardEvent::MAX)>;

void barrier(pipe_t p, AscendC::Site s) {
    switch (p) {
        case AscendC::PIPE_V:
            AscendC::PipeBarrier<AscendC::PIPE_V>(s);
            break;
        case AscendC::PIPE_M:
            AscendC::PipeBarrier<AscendC::PIPE_M>(s);
            break;
        case AscendC::PIPE_MTE1:
            AscendC::PipeBarrier<AscendC::PIPE_MTE1>(s);
            break;
        case AscendC::PIPE_MTE2:
            AscendC::PipeBarrier<AscendC::PIPE_MTE2>(s);
            break;
        case AscendC::PIPE_MTE3:
            AscendC::PipeBarrier<AscendC::PIPE_MTE3>(s);
            break;
        case AscendC::PIPE_FIX:
            AscendC::PipeBarrier<AscendC::PIPE_FIX>(s);
            break;
        default:
            AscendC::PipeBarrier<AscendC::PIPE_ALL>(s);
            break;
    }
}

template <uint8_t M, pipe_t P>
void cross(bool set, uint16_t flag, AscendC::Site s) {
    if (set)
        AscendC::CrossCoreSetFlag<M, P>(flag, s);
    else
        AscendC::CrossCoreWaitFlag<M, P>(flag, s);
}
template <uint8_t M>
void cross_mode(bool set, pipe_t p, uint16_t flag, AscendC::Site s) {
    switch (p) {
        case AscendC::PIPE_S:
            cross<M, AscendC::PIPE_S>(set, flag, s);
            break;
        case AscendC::PIPE_V:
            cross<M, AscendC::PIPE_V>(set, flag, s);
            break;
        case AscendC::PIPE_M:
            cross<M, AscendC::PIPE_M>(set, flag, s);
            break;
        case AscendC::PIPE_MTE1:
            cross<M, AscendC::PIPE_MTE1>(set, flag, s);
            break;
        case AscendC::PIPE_MTE2:
            cross<M, AscendC::PIPE_MTE2>(set, flag, s);
            break;
        case AscendC::PIPE_MTE3:
            cross<M, AscendC::PIPE_MTE3>(set, flag, s);
            break;
        default:
            cross<M, AscendC::PIPE_FIX>(set, flag, s);
            break;
    }
}
void cross_core(bool set, int mode, pipe_t p, uint16_t flag, AscendC::Site s) {
    switch (mode) {
        case 0:
            cross_mode<0>(set, p, flag, s);
            break;
        case 1:
            cross_mode<1>(set, p, flag, s);
            break;
        case 2:
            cross_mode<2>(set, p, flag, s);
            break;
        default:
            cross_mode<4>(set, p, flag, s);
            break;
    }
}

// The program's core index of the calling core (AICs first, then AIVs; AIV-only: the block).
int my_core(const explore::Program& p) {
    if (!p.topo.mix) return static_cast<int>(AscendC::GetBlockIdx());
    if (ASCEND_IS_AIC) return static_cast<int>(AscendC::GetBlockIdx());
    return p.topo.block_dim + static_cast<int>(AscendC::GetBlockIdx());
}

void interpret(const explore::Program& p, float* const gm[2]) {
    const int c = my_core(p);
    const bool aic = p.topo.cores[static_cast<size_t>(c)].type == explore::CoreType::AIC;
    const auto& ops = p.cores[static_cast<size_t>(c)];
    auto is_gm = [&](const explore::Range& r) { return p.mems[static_cast<size_t>(r.mem)].owner < 0; };
    auto global = [&](const explore::Range& r) {
        AscendC::GlobalTensor<float> g;
        g.SetGlobalBuffer(gm[p.mems[static_cast<size_t>(r.mem)].name == "G1" ? 1 : 0] + r.begin / 4,
                          (r.end - r.begin) / 4);
        return g;
    };
    auto local = [&](const explore::Range& r) {
        return AscendC::LocalTensor<float>(aic ? AscendC::TPosition::A1 : AscendC::TPosition::VECCALC,
                                           r.begin, (r.end - r.begin) / 4);
    };
    for (size_t i = 0; i < ops.size(); ++i) {
        const explore::Op& op = ops[i];
        const AscendC::Site site{kCoreFiles[c], static_cast<uint32_t>(i + 1)};
        const float value = static_cast<float>(p.op_id(c, static_cast<int>(i)) + 1);
        switch (op.kind) {
            case OpKind::copy_in:
                AscendC::DataCopy(local(op.dst), global(op.src0), (op.dst.end - op.dst.begin) / 4, site);
                break;
            case OpKind::copy_out:
                AscendC::DataCopy(global(op.dst), local(op.src0), (op.dst.end - op.dst.begin) / 4, site);
                break;
            case OpKind::vec:
                if (op.src1.mem >= 0)
                    AscendC::Add(local(op.dst), local(op.src0), local(op.src1), 8, site);
                else
                    AscendC::Muls(local(op.dst), local(op.src0), 2.0f, 8, site);
                break;
            case OpKind::scalar_write:
                if (is_gm(op.dst)) {
                    auto g = global(op.dst);
                    g.SetValue(0, value, site);
                } else {
                    local(op.dst).SetValue(0, value, site);
                }
                break;
            case OpKind::scalar_read:
                if (is_gm(op.src0))
                    (void)global(op.src0).GetValue(0, site);
                else
                    (void)local(op.src0).GetValue(0, site);
                break;
            case OpKind::set_flag:
            case OpKind::wait_flag: {
                auto e = hw::event_between(to_hw(op.event.src), to_hw(op.event.dst));
                if (!e)
                    throw hw::HostError(fmt::format("no HardEvent between {} and {}",
                                                    explore::pipe_name(op.event.src),
                                                    explore::pipe_name(op.event.dst)));
                if (op.kind == OpKind::set_flag)
                    set_flag(*e, op.id, site, AllEvents{});
                else
                    wait_flag(*e, op.id, site, AllEvents{});
                break;
            }
            case OpKind::barrier:
                barrier(to_pipe(op.pipe), site);
                break;
            case OpKind::cross_set:
            case OpKind::cross_wait:
                cross_core(op.kind == OpKind::cross_set, op.mode, to_pipe(op.pipe),
                           static_cast<uint16_t>(op.flag), site);
                break;
        }
    }
}

}  // namespace

MachineRun run_on_machine(const explore::Program& p, hw::SchedulerKind scheduler, uint64_t seed) {
    hw::Config cfg;
    cfg.arch = p.topo.chip == explore::Chip::AtlasA2 ? hw::ArchId::AtlasA2 : hw::ArchId::Ascend950;
    cfg.checks.uninit = false;  // UB starts unwritten; what reaches GM is not what this target checks
    cfg.scheduler = scheduler;
    cfg.seed = seed;
    hw::Device dev(cfg);
    float* gm[2];
    for (int b = 0; b < 2; ++b) {
        gm[b] = static_cast<float*>(dev.malloc(kBytes, fmt::format("G{}", b)));
        float init[kBytes / 4];
        for (uint32_t k = 0; k < kBytes / 4; ++k) init[k] = static_cast<float>(100 * b + k);
        dev.copy_to_device(gm[b], init, kBytes);
    }
    auto type = p.topo.mix ? hw::KernelType::mix_aic_1_2 : hw::KernelType::aiv_only;
    MachineRun run;
    run.report = dev.launch(p.topo.block_dim, type, [&] { interpret(p, gm); });
    run.gm.resize(2 * kBytes);
    for (int b = 0; b < 2; ++b) dev.copy_to_host(run.gm.data() + b * kBytes, gm[b], kBytes);
    return run;
}

}  // namespace evg::fuzz
