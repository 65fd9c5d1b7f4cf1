// The keys of a core's flags and cross-core counters, as the engine (core_state.hpp) and the checkers map
// them: a flag by (HardEvent, id); a counter by (namespace, flag id), where modes 0-2 share namespace 0 and
// mode 4 has its own, 4. A checker's map over every core keys by (core, key).
#pragma once
#include <utility>

#include "evg/hw/arch.hpp"

namespace evg::hw {

using FlagKey = std::pair<int, int>;     // (HardEvent, id)
using CounterKey = std::pair<int, int>;  // (namespace, flag id)

inline int counter_namespace(int mode) {
    return mode == 4 ? 4 : 0;
}
inline FlagKey flag_key(HardEvent e, int id) {
    return {static_cast<int>(e), id};
}
inline CounterKey counter_key(int mode, int flag) {
    return {counter_namespace(mode), flag};
}

}  // namespace evg::hw
