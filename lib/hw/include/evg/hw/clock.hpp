// Happens-before bookkeeping: one agent per (core, pipe); an epoch is an agent's instruction count.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace evg::hw {

using AgentId = uint32_t;

struct Epoch {
    AgentId agent = 0;
    uint32_t epoch = 0;  // 0 = nothing
};

class VectorClock {
  public:
    VectorClock() = default;
    explicit VectorClock(size_t agents) : c_(agents, 0) {}
    uint32_t get(AgentId a) const { return a < c_.size() ? c_[a] : 0; }
    void set(AgentId a, uint32_t v) {
        if (a >= c_.size()) c_.resize(a + 1, 0);
        c_[a] = v;
    }
    void raise(AgentId a, uint32_t v) {
        if (get(a) < v) set(a, v);
    }
    void join(const VectorClock& o) {
        if (o.c_.size() > c_.size()) c_.resize(o.c_.size(), 0);
        for (size_t i = 0; i < o.c_.size(); ++i) c_[i] = std::max(c_[i], o.c_[i]);
    }
    bool covers(const Epoch& e) const { return e.epoch <= get(e.agent); }
    // Whether this clock knows everything `o` knows (joining `o` would change nothing).
    bool includes(const VectorClock& o) const {
        for (size_t i = 0; i < o.c_.size(); ++i)
            if (o.c_[i] > get(static_cast<AgentId>(i))) return false;
        return true;
    }
    size_t size() const { return c_.size(); }

  private:
    std::vector<uint32_t> c_;
};

}  // namespace evg::hw
