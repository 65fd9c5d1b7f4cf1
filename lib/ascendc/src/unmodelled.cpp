#include "ascendc/unmodelled.hpp"

#include <fmt/format.h>

#include "evg/hw/error.hpp"

namespace AscendC::detail {

void unmodelled(const char* call, Site site) {
    throw evg::hw::UnmodelledCall(fmt::format(
        "AscendC::{} (issued at {}) is declared but not modelled by evgcheck; the core stopped here. "
        "docs/ascendc-device-environment.md lists what the model executes",
        call, site.str()));
}

}  // namespace AscendC::detail
