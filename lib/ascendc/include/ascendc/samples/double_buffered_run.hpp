// Host side of the double-buffered sample (double_buffered.hpp): its inputs and one launch on a fresh device.
// Shared by the machine's tests and the fuzz seed registry.
#pragma once
#include <cstdint>
#include <vector>

#include "ascendc/samples/double_buffered.hpp"
#include "evg/hw/device.hpp"

namespace AscendC::samples {

// x[i] = (i % 97 - 48) / 4 as half bits: quarter integers, so y = x * 2 + 1 is exact in half.
inline std::vector<uint16_t> double_buffered_inputs(uint32_t total) {
    std::vector<uint16_t> x(total);
    for (uint32_t i = 0; i < total; ++i)
        x[i] = half(static_cast<float>(static_cast<int>(i % 97) - 48) / 4.0f).bits;
    return x;
}

struct DoubleBufferedRun {
    ::evg::hw::Report report;
    ::evg::hw::Trace trace;
    std::vector<uint16_t> out;  // y as half bits (starts as zeros)
};

// One AIV (aiv_only, block_dim 1) on a fresh device configured by `cfg`, on cfg.arch.
inline DoubleBufferedRun run_double_buffered_sample(const ::evg::hw::Config& cfg, uint32_t total,
                                                    uint32_t tile, DbFaults f = {}) {
    using namespace ::evg::hw;
    Device dev(cfg);
    const std::vector<uint16_t> host = double_buffered_inputs(total);
    void* x = dev.malloc(total * 2, "X");
    void* y = dev.malloc(total * 2, "Y");
    dev.copy_to_device(x, host.data(), total * 2);
    dev.copy_to_device(y, std::vector<uint16_t>(total, 0).data(), total * 2);
    auto xp = static_cast<GM_ADDR>(x), yp = static_cast<GM_ADDR>(y);
    DoubleBufferedRun r;
    r.report = dev.launch(1, KernelType::aiv_only, [&] { double_buffered_kernel(xp, yp, total, tile, f); });
    r.trace = dev.take_last_trace();
    r.out.resize(total);
    dev.copy_to_host(r.out.data(), y, total * 2);
    return r;
}

}  // namespace AscendC::samples
