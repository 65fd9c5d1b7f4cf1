// Internal to the checker controls' kernels: a fresh device with GM buffers, a launch that keeps the trace,
// and the bit-for-bit comparison of a GM buffer with its reference.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "ascendc/samples/sync_hazards.hpp"
#include "evg/hw/device.hpp"
#include "kernel_operator.h"

namespace evg::conformance::controls {

class Bench {
  public:
    explicit Bench(const hw::Config& cfg) : dev_(with_trace(cfg)) {}

    // A GM buffer holding `values`.
    GM_ADDR input(const char* name, const std::vector<float>& values) {
        void* p = dev_.malloc(values.size() * 4, name);
        dev_.copy_to_device(p, values.data(), values.size() * 4);
        return static_cast<GM_ADDR>(p);
    }
    // A GM buffer of `floats` zeros.
    GM_ADDR zeros(const char* name, size_t floats) { return input(name, std::vector<float>(floats, 0.0f)); }

    AscendC::samples::HazardRun launch(int blocks, hw::KernelType type, const std::function<void()>& kernel) {
        AscendC::samples::HazardRun r;
        r.report = dev_.launch(blocks, type, kernel);
        r.trace = dev_.take_last_trace();
        return r;
    }

    // "" when GM buffer `p` holds `want` bit for bit, else which elements differ.
    std::string compare(GM_ADDR p, const std::vector<float>& want, const char* what) {
        std::vector<float> got(want.size());
        dev_.copy_to_host(got.data(), p, got.size() * 4);
        return AscendC::samples::detail_hazards::compare(got, want, what);
    }

  private:
    static hw::Config with_trace(hw::Config c) {
        c.keep_trace = true;
        return c;
    }
    hw::Device dev_;
};

// 0, 1, ..., n-1 times `scale` (small integers: exact in float).
inline std::vector<float> ramp(size_t n, float scale) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(static_cast<int>(i % 13) - 6) * scale;
    return v;
}

}  // namespace evg::conformance::controls
