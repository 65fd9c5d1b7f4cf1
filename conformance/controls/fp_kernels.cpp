// The checker controls' numeric kernels (kernels.hpp): a NaN or an infinity born from finite values and
// stored to GM, and the fixed forms that keep every value finite (the checker "fp").
#include <cmath>
#include <cstdint>
#include <vector>

#include "harness.hpp"
#include "kernels.hpp"

namespace evg::conformance::controls {

using namespace AscendC;

HazardRun exp_overflows_half(const hw::Config& cfg, bool fault) {
    // Y = float(exp(half(X))) for X in [-15, 15]: e^x passes half's largest finite value 65504 above
    // x = 11.09. The fix clamps X at 11 first (e^11 = 59874), as upstream's tanh clamps its input.
    Bench b(cfg);
    std::vector<float> x(kN);
    for (uint32_t i = 0; i < kN; ++i) x[i] = static_cast<float>(static_cast<int>(i % 13) - 6) * 2.5f;
    GM_ADDR gx = b.input("X", x), gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, kN * 4 * 2);
        LocalTensor<float> f = buf.Get<float>();
        LocalTensor<half> h = buf.Get<half>()[2 * kN];
        load_to_v(f, gx);
        if (!fault) {
            Mins(f, f, 11.0f, kLen);
            PipeBarrier<PIPE_V>();
        }
        Cast(h, f, RoundMode::CAST_RINT, kLen);
        PipeBarrier<PIPE_V>();
        Exp(h, h, kLen);
        PipeBarrier<PIPE_V>();
        Cast(f, h, RoundMode::CAST_NONE, kLen);
        store_from_v(gy, f);
    });
    if (!fault) {
        std::vector<float> want(kN);
        for (uint32_t i = 0; i < kN; ++i)
            want[i] = hw::half(std::exp(float(hw::half(std::min(x[i], 11.0f)))));
        r.mismatch = b.compare(gy, want, "Y");
    }
    return r;
}

HazardRun zero_over_zero(const hw::Config& cfg, bool fault) {
    // Y = X / X: 0 / 0 is NaN where X holds 0. The fix divides by |X| + 1, never 0.
    Bench b(cfg);
    std::vector<float> x(kN);
    for (uint32_t i = 0; i < kN; ++i) x[i] = static_cast<float>(static_cast<int>(i % 13) - 6);
    GM_ADDR gx = b.input("X", x), gy = b.zeros("Y", kN);
    HazardRun r = b.launch(1, hw::KernelType::aiv_only, [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, kN * 4 * 3);
        LocalTensor<float> a = buf.Get<float>(), d = a[kN], y = a[2 * kN];
        load_to_v(a, gx);
        if (fault) {
            Div(y, a, a, kLen);
        } else {
            Abs(d, a, kLen);
            PipeBarrier<PIPE_V>();
            Adds(d, d, 1.0f, kLen);
            PipeBarrier<PIPE_V>();
            Div(y, a, d, kLen);
        }
        store_from_v(gy, y);
    });
    if (!fault) {
        std::vector<float> want(kN);
        for (uint32_t i = 0; i < kN; ++i) want[i] = x[i] / (std::fabs(x[i]) + 1.0f);
        r.mismatch = b.compare(gy, want, "Y");
    }
    return r;
}

}  // namespace evg::conformance::controls
