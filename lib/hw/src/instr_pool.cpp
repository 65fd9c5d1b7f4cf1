// The per-thread instruction pool (evg/hw/instr_pool.hpp).
#include "evg/hw/instr_pool.hpp"

#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace evg::hw {

namespace {

thread_local bool pool_gone =
    false;  // the thread's pool was destroyed (an instruction freed at exit after it)

struct InstrPool {
    static constexpr size_t kMax = 1024;  // far more than a launch has in flight at once
    std::vector<std::unique_ptr<Instr>> spare;
    InstrPool() = default;
    InstrPool(const InstrPool&) = delete;
    InstrPool& operator=(const InstrPool&) = delete;
    ~InstrPool() { pool_gone = true; }
};

InstrPool& pool() {
    thread_local InstrPool p;
    return p;
}

}  // namespace

std::unique_ptr<Instr> take_instr() {
    if (!pool_gone) {
        auto& spare = pool().spare;
        if (!spare.empty()) {
            std::unique_ptr<Instr> in = std::move(spare.back());
            spare.pop_back();
            return in;
        }
    }
    return std::make_unique<Instr>();
}

void recycle_instr(std::unique_ptr<Instr> in) {
    if (!in || pool_gone) return;
    auto& spare = pool().spare;
    if (spare.size() >= InstrPool::kMax) return;
    // Every field back to its default, whatever fields Instr has, keeping only the two buffers' capacity: the
    // object is destroyed and default-initialised in place, each field from its own initialiser (Instr gives
    // every field one). `*in = Instr{}` did the same through a temporary that GCC zeroes whole first, 288
    // bytes, a sixth of a flag instruction's cost.
    std::vector<Access> accesses = std::move(in->accesses);
    std::string op = std::move(in->op);
    Instr* p = in.get();
    std::destroy_at(p);
    ::new (static_cast<void*>(p)) Instr;
    accesses.clear();
    op.clear();
    p->accesses = std::move(accesses);
    p->op = std::move(op);
    spare.push_back(std::move(in));
}

}  // namespace evg::hw
