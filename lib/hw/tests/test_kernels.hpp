// Small kernels written against the AscendC API, shared by the machine's tests and benchmarks.
#pragma once
#include <cstdint>
#include <vector>

#include "ascendc/samples/double_buffered.hpp"
#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace evg::hw::testing {

using AscendC::samples::DbFaults;
using AscendC::samples::double_buffered_kernel;

// Runs the double-buffered kernel on a fresh device and returns (report, output bits).
struct DbRun {
    Report report;
    std::vector<uint16_t> out;
    std::vector<TraceEntry> trace;
};
inline DbRun run_double_buffered(Config cfg, uint32_t total, uint32_t tile, DbFaults f = {}) {
    Device dev(cfg);
    std::vector<uint16_t> host(total);
    for (uint32_t i = 0; i < total; ++i)
        host[i] = half(static_cast<float>(static_cast<int>(i % 97) - 48) / 4.0f).bits;
    void* x = dev.malloc(total * 2, "X");
    void* y = dev.malloc(total * 2, "Y");
    dev.copy_to_device(x, host.data(), total * 2);
    dev.copy_to_device(y, std::vector<uint16_t>(total, 0).data(), total * 2);
    auto xp = static_cast<GM_ADDR>(x), yp = static_cast<GM_ADDR>(y);
    DbRun r;
    r.report = dev.launch(1, KernelType::aiv_only, [&] { double_buffered_kernel(xp, yp, total, tile, f); });
    r.trace = dev.last_trace();
    r.out.resize(total);
    dev.copy_to_host(r.out.data(), y, total * 2);
    return r;
}

}  // namespace evg::hw::testing
