#include "ascendc/sync.hpp"

#include "evg/hw/core.hpp"
#include "evg/hw/machine.hpp"

namespace AscendC {
namespace detail {

using evg::hw::current_core;

void set_flag(HardEvent e, int32_t id, Site site) {
    current_core().set_flag(e, id, site);
}
void wait_flag(HardEvent e, int32_t id, Site site) {
    current_core().wait_flag(e, id, site);
}
void pipe_barrier(pipe_t p, Site site) {
    current_core().pipe_barrier(static_cast<evg::hw::Pipe>(p), site);
}
void cross_core_set(uint8_t mode, pipe_t p, uint16_t flag, Site site) {
    current_core().cross_core_set(mode, static_cast<evg::hw::Pipe>(p), flag, site);
}
void cross_core_wait(uint8_t mode, pipe_t p, uint16_t flag, Site site) {
    current_core().cross_core_wait(mode, static_cast<evg::hw::Pipe>(p), flag, site);
}
void set_atomic(int op, evg::hw::DType t, Site site) {
    current_core().set_atomic(static_cast<evg::hw::AtomicOp>(op), t, site);
}
bool is_aic() {
    return current_core().type() == evg::hw::CoreType::AIC;
}

}  // namespace detail

int64_t GetBlockIdx() {
    auto& c = evg::hw::current_core();
    return c.type() == evg::hw::CoreType::AIC ? c.block() : int64_t(c.block()) * c.sub_num() + c.sub();
}
int64_t GetBlockNum() {
    return evg::hw::current_core().machine().block_dim();
}
int64_t GetSubBlockIdx() {
    auto& c = evg::hw::current_core();
    return c.type() == evg::hw::CoreType::AIC ? 0 : c.sub();
}
int64_t GetSubBlockNum() {
    auto& c = evg::hw::current_core();
    return c.type() == evg::hw::CoreType::AIC ? 1 : c.sub_num();
}
int64_t GetTaskRatio() {
    return GetSubBlockNum();
}

}  // namespace AscendC
