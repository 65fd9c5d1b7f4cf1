#include "ascendc/unmodelled.hpp"

#include <fmt/format.h>

#include <string>

#include "ascendc/device_assert.hpp"
#include "evg/hw/error.hpp"

namespace AscendC::detail {

void unmodelled(const char* call, Site site) {
    throw evg::hw::UnmodelledCall(fmt::format(
        "AscendC::{} (issued at {}) is declared but not modelled by evgcheck; the core stopped here. "
        "docs/ascendc-api.md lists what the model executes",
        call, site.str()));
}

void device_assert_failed(const char* expr, const char* file, unsigned line) {
    std::string f(file);
    if (auto slash = f.find_last_of('/'); slash != std::string::npos) f.erase(0, slash + 1);
    throw evg::hw::DeviceAssertion(fmt::format("assertion `{}` failed at {}:{}", expr, f, line));
}

}  // namespace AscendC::detail
