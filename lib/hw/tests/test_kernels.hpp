// Small kernels written against the AscendC API, shared by the machine's tests and benchmarks.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "ascendc/samples/double_buffered_run.hpp"
#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace evg::hw::testing {

using AscendC::samples::DbFaults;
using AscendC::samples::double_buffered_kernel;

// The adversarial scheduler with `seed` on chip `a`.
inline Config adversarial(uint64_t seed, ArchId a = ArchId::AtlasA2) {
    Config c;
    c.arch = a;
    c.scheduler = SchedulerKind::adversarial;
    c.seed = seed;
    return c;
}

// Runs the double-buffered kernel on a fresh device and returns (report, output bits).
struct DbRun {
    Report report;
    std::vector<uint16_t> out;
    Trace trace;
};
inline DbRun run_double_buffered(const Config& cfg, uint32_t total, uint32_t tile, DbFaults f = {}) {
    AscendC::samples::DoubleBufferedRun r = AscendC::samples::run_double_buffered_sample(cfg, total, tile, f);
    return {std::move(r.report), std::move(r.out), std::move(r.trace)};
}

}  // namespace evg::hw::testing
