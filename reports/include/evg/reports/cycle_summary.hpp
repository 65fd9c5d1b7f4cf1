// The cycle model's summary (evg/hw/timing.hpp's Summary) as the text `evgcheck run --timeline` and
// `run-program --timeline` print (docs/cycle-model.md): total cycles, busy / stall / idle per pipe, the
// MTE2/V/MTE3 overlap, the critical path, the roofline and the flags that stalled most.
#pragma once
#include <string>

#include "evg/hw/timing.hpp"
#include "evg/hw/trace.hpp"

namespace evg::reports {

// The summary as `evgcheck run --timeline` prints it.
std::string cycle_summary_text(const hw::timing::Timeline& t, const hw::Trace& trace,
                               const hw::timing::Launch& launch);

}  // namespace evg::reports
