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

// The kernels' buffers: kN floats (256 bytes, eight 32-byte blocks), kLen as a vector count.
inline constexpr uint32_t kN = 64;
inline constexpr auto kLen = static_cast<int32_t>(kN);

inline AscendC::GlobalTensor<float> gm(GM_ADDR p) {
    AscendC::GlobalTensor<float> t;
    t.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(p));
    return t;
}

// X loaded into `t`, ready for V.
inline void load_to_v(const AscendC::LocalTensor<float>& t, GM_ADDR x) {
    AscendC::DataCopy(t, gm(x), kN);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
}

// `t` (written on V) stored to Y.
inline void store_from_v(GM_ADDR y, const AscendC::LocalTensor<float>& t) {
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::DataCopy(gm(y), t, kN);
}

}  // namespace evg::conformance::controls
