// Target (d) of bench/README.md: the machine's element-wise throughput against the practical limit. One
// expression, Z = X + Y over half (each element computed in float and rounded to half, round to nearest even,
// once per operation), evaluated four ways on the same data:
//   BM_Model_ChecksOn / BM_Model_ChecksOff  a double-buffered kernel on the machine (one AIV), with every
//                                           checker on / off; the model rounds per instruction to half;
//   BM_HandAvx2                             a hand-written AVX2 + F16C loop (_mm256_cvtph_ps, _mm256_add_ps,
//                                           _mm256_cvtps_ph with round to nearest even): the practical limit;
//   BM_Eigen                                Eigen on Eigen::half arrays (float arithmetic, rounded to half).
// Each reports elements/s of wall time and elements_per_cpu_s (process CPU time: the model runs its cores as
// fibers on the launching thread, so this is one core's rate, robust on a loaded machine). BM_Ratios, after
// them in the same run, checks that the model (checkers on), the hand loop and Eigen wrote bit-identical Z at
// that size (SkipWithError otherwise) and reports how many times slower the model is than each:
//   model_vs_hand  = hand elements/s / model elements/s   (goal: <= 3)
//   model_vs_eigen = Eigen elements/s / model elements/s
// (and the same from CPU time, *_cpu). It needs the three benchmarks of its size in the same run; with
// BM_TileCopies in the run it also reports copies_vs_hand, the data movement alone against the hand loop.
// BM_ModelVsHand_Paired times a launch and the hand loop in alternation, iteration by iteration, and reports
// the median ratio (model_vs_hand_paired): the figure for the goal, which the drift of a shared machine's
// memory bandwidth between separate runs does not move.
#include <benchmark/benchmark.h>
#include <cpuid.h>
#include <immintrin.h>

#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "evg/hw/device.hpp"
#include "evg/hw/memory.hpp"
#include "kernel_operator.h"

namespace {

using namespace AscendC;

constexpr uint32_t kTile = 16384;  // halves per buffer: 6 buffers x 32 KiB = AtlasA2's 192 KiB of UB

void add_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint64_t total) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 6 * kTile * sizeof(half));
    LocalTensor<half> ub = buf.Get<half>();
    LocalTensor<half> bx[2] = {ub[0], ub[kTile]}, by[2] = {ub[2 * kTile], ub[3 * kTile]},
                      bz[2] = {ub[4 * kTile], ub[5 * kTile]};
    GlobalTensor<half> gx, gy, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x));
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y));
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(z));
    SetFlag<HardEvent::V_MTE2>(0);
    SetFlag<HardEvent::V_MTE2>(1);
    SetFlag<HardEvent::MTE3_V>(0);
    SetFlag<HardEvent::MTE3_V>(1);
    for (uint64_t t = 0; t * kTile < total; ++t) {
        int id = static_cast<int>(t % 2);
        WaitFlag<HardEvent::V_MTE2>(id);
        DataCopy(bx[id], gx[t * kTile], kTile);
        DataCopy(by[id], gy[t * kTile], kTile);
        SetFlag<HardEvent::MTE2_V>(id);
        WaitFlag<HardEvent::MTE2_V>(id);
        WaitFlag<HardEvent::MTE3_V>(id);
        Add(bz[id], bx[id], by[id], static_cast<int32_t>(kTile));
        SetFlag<HardEvent::V_MTE2>(id);
        SetFlag<HardEvent::V_MTE3>(id);
        WaitFlag<HardEvent::V_MTE3>(id);
        DataCopy(gz[t * kTile], bz[id], kTile);
        SetFlag<HardEvent::MTE3_V>(id);
    }
    WaitFlag<HardEvent::V_MTE2>(0);
    WaitFlag<HardEvent::V_MTE2>(1);
    WaitFlag<HardEvent::MTE3_V>(0);
    WaitFlag<HardEvent::MTE3_V>(1);
}

// Target (f), the checker fp's cost: Z = ln(sqrt(|exp(X) / Y|)), four transcendental or dividing steps per
// element in half, the same tiles and flags as add_kernel.
void transcendental_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint64_t total) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 6 * kTile * sizeof(half));
    LocalTensor<half> ub = buf.Get<half>();
    LocalTensor<half> bx[2] = {ub[0], ub[kTile]}, by[2] = {ub[2 * kTile], ub[3 * kTile]},
                      bz[2] = {ub[4 * kTile], ub[5 * kTile]};
    GlobalTensor<half> gx, gy, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x));
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y));
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(z));
    SetFlag<HardEvent::V_MTE2>(0);
    SetFlag<HardEvent::V_MTE2>(1);
    SetFlag<HardEvent::MTE3_V>(0);
    SetFlag<HardEvent::MTE3_V>(1);
    const auto len = static_cast<int32_t>(kTile);
    for (uint64_t t = 0; t * kTile < total; ++t) {
        int id = static_cast<int>(t % 2);
        WaitFlag<HardEvent::V_MTE2>(id);
        DataCopy(bx[id], gx[t * kTile], kTile);
        DataCopy(by[id], gy[t * kTile], kTile);
        SetFlag<HardEvent::MTE2_V>(id);
        WaitFlag<HardEvent::MTE2_V>(id);
        WaitFlag<HardEvent::MTE3_V>(id);
        Exp(bz[id], bx[id], len);
        PipeBarrier<PIPE_V>();
        Div(bz[id], bz[id], by[id], len);
        PipeBarrier<PIPE_V>();
        Abs(bz[id], bz[id], len);
        PipeBarrier<PIPE_V>();
        Sqrt(bz[id], bz[id], len);
        PipeBarrier<PIPE_V>();
        Ln(bz[id], bz[id], len);
        SetFlag<HardEvent::V_MTE2>(id);
        SetFlag<HardEvent::V_MTE3>(id);
        WaitFlag<HardEvent::V_MTE3>(id);
        DataCopy(gz[t * kTile], bz[id], kTile);
        SetFlag<HardEvent::MTE3_V>(id);
    }
    WaitFlag<HardEvent::V_MTE2>(0);
    WaitFlag<HardEvent::V_MTE2>(1);
    WaitFlag<HardEvent::MTE3_V>(0);
    WaitFlag<HardEvent::MTE3_V>(1);
}

// n halves from `seed`: multiples of 1/64 in [-32, 32), divided by `down`.
std::vector<uint16_t> data(uint64_t n, uint32_t seed, float down = 1.0f) {
    std::vector<uint16_t> v(n);
    uint32_t s = seed;
    for (auto& x : v) {
        s = s * 1664525u + 1013904223u;
        x = evg::hw::half(static_cast<float>(static_cast<int>(s >> 20) - 2048) / 64.0f / down).bits;
    }
    return v;
}

// What one benchmark measured at one size (its last run, which is the one Google Benchmark reports), and the
// Z it wrote, for BM_Ratios.
struct Measured {
    double rate = 0;      // elements per second of wall time
    double cpu_rate = 0;  // elements per second of process CPU time
    std::vector<uint16_t> z;
};
std::map<std::pair<std::string, int64_t>, Measured>& measured() {
    static std::map<std::pair<std::string, int64_t>, Measured> m;
    return m;
}

// Times the benchmark loop in wall and CPU time (the loop's own bookkeeping is negligible next to an
// iteration) and sets the rate counters.
class Timer {
  public:
    Timer() : wall0_(std::chrono::steady_clock::now()), cpu0_(std::clock()) {}
    void finish(benchmark::State& st, const std::string& name, uint64_t n, std::vector<uint16_t> z) {
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0_).count();
        const double cpu = static_cast<double>(std::clock() - cpu0_) / CLOCKS_PER_SEC;
        const double elements = static_cast<double>(n) * static_cast<double>(st.iterations());
        Measured& m = measured()[{name, static_cast<int64_t>(n)}];
        m.rate = wall > 0 ? elements / wall : 0;
        m.cpu_rate = cpu > 0 ? elements / cpu : 0;
        m.z = std::move(z);
        st.counters["elements/s"] =
            benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
        st.counters["elements_per_cpu_s"] = m.cpu_rate;
    }

  private:
    std::chrono::steady_clock::time_point wall0_;
    std::clock_t cpu0_;
};

void run_model(benchmark::State& st, bool checks) {
    uint64_t n = static_cast<uint64_t>(st.range(0));
    evg::hw::Config cfg;
    if (!checks) cfg.checks = evg::hw::CheckerConfig::none();
    evg::hw::Device dev(cfg);
    auto hx = data(n, 1), hy = data(n, 2);
    void* x = dev.malloc(n * 2, "X");
    void* y = dev.malloc(n * 2, "Y");
    void* z = dev.malloc(n * 2, "Z");
    dev.copy_to_device(x, hx.data(), n * 2);
    dev.copy_to_device(y, hy.data(), n * 2);
    Timer timer;
    for (auto _ : st) {
        auto& r = dev.launch(1, evg::hw::KernelType::aiv_only, [&] {
            add_kernel(static_cast<GM_ADDR>(x), static_cast<GM_ADDR>(y), static_cast<GM_ADDR>(z), n);
        });
        if (!r.clean()) st.SkipWithError("the benchmark kernel reported violations");
    }
    std::vector<uint16_t> hz(n);
    dev.copy_to_host(hz.data(), z, n * 2);
    timer.finish(st, checks ? "model" : "model_off", n, std::move(hz));
}

// The checker fp on (the default) and off, every other checker on, for one kernel: the 16M-half add, and the
// transcendental chain on X in [-4, 4) (a few lanes of 0 in Y make infinities: the slow path is exercised).
void run_fp(benchmark::State& st, bool fp, bool transcendental) {
    uint64_t n = static_cast<uint64_t>(st.range(0));
    evg::hw::Config cfg;
    cfg.checks.fp = fp;
    evg::hw::Device dev(cfg);
    auto hx = data(n, 1, transcendental ? 8.0f : 1.0f), hy = data(n, 2);
    void* x = dev.malloc(n * 2, "X");
    void* y = dev.malloc(n * 2, "Y");
    void* z = dev.malloc(n * 2, "Z");
    dev.copy_to_device(x, hx.data(), n * 2);
    dev.copy_to_device(y, hy.data(), n * 2);
    uint64_t findings = 0;
    Timer timer;
    for (auto _ : st) {
        auto& r = dev.launch(1, evg::hw::KernelType::aiv_only, [&] {
            (transcendental ? transcendental_kernel : add_kernel)(
                static_cast<GM_ADDR>(x), static_cast<GM_ADDR>(y), static_cast<GM_ADDR>(z), n);
        });
        findings = r.violations.size();
        for (const auto& v : r.violations)
            if (evg::hw::violation_kind_finder(v.kind) != "fp")
                st.SkipWithError("the benchmark kernel reported violations");
    }
    std::vector<uint16_t> hz(n);
    dev.copy_to_host(hz.data(), z, n * 2);
    st.counters["fp_findings"] = static_cast<double>(findings);
    timer.finish(st, std::string(transcendental ? "transcendental" : "add") + (fp ? "_fp" : "_nofp"), n,
                 std::move(hz));
}
void BM_Add_FpOn(benchmark::State& st) {
    run_fp(st, true, false);
}
void BM_Add_FpOff(benchmark::State& st) {
    run_fp(st, false, false);
}
void BM_Transcendental_FpOn(benchmark::State& st) {
    run_fp(st, true, true);
}
void BM_Transcendental_FpOff(benchmark::State& st) {
    run_fp(st, false, true);
}
// fp_cost = (rate with the checker off) / (rate with it on) - 1, per kernel (goal: at most 0.10), after
// checking both wrote the same Z (the checker only looks).
void BM_FpCost(benchmark::State& st) {
    const int64_t n = st.range(0);
    for (auto _ : st) {
    }
    for (const char* kernel : {"add", "transcendental"}) {
        const auto on = measured().find({std::string(kernel) + "_fp", n}),
                   off = measured().find({std::string(kernel) + "_nofp", n});
        if (on == measured().end() || off == measured().end()) {
            st.SkipWithError("BM_*_FpOn and BM_*_FpOff of this size must run first, in this run");
            return;
        }
        if (on->second.z != off->second.z) {
            st.SkipWithError("the checker fp changed what a kernel wrote");
            return;
        }
        st.counters[std::string(kernel) + "_fp_cost"] = off->second.rate / on->second.rate - 1.0;
        st.counters[std::string(kernel) + "_fp_cost_cpu"] = off->second.cpu_rate / on->second.cpu_rate - 1.0;
    }
}

void BM_Model_ChecksOn(benchmark::State& st) {
    run_model(st, true);
}
void BM_Model_ChecksOff(benchmark::State& st) {
    run_model(st, false);
}

void BM_Eigen(benchmark::State& st) {
    uint64_t n = static_cast<uint64_t>(st.range(0));
    auto hx = data(n, 1), hy = data(n, 2);
    using Arr = Eigen::Array<Eigen::half, Eigen::Dynamic, 1>;
    Arr ex(static_cast<Eigen::Index>(n)), ey(static_cast<Eigen::Index>(n)), ez(static_cast<Eigen::Index>(n));
    for (uint64_t i = 0; i < n; ++i) {
        ex[static_cast<Eigen::Index>(i)] = Eigen::numext::bit_cast<Eigen::half>(hx[i]);
        ey[static_cast<Eigen::Index>(i)] = Eigen::numext::bit_cast<Eigen::half>(hy[i]);
    }
    Timer timer;
    for (auto _ : st) {
        ez = ex + ey;
        benchmark::DoNotOptimize(ez.data());
        benchmark::ClobberMemory();
    }
    std::vector<uint16_t> hz(n);
    std::memcpy(hz.data(), ez.data(), n * 2);
    timer.finish(st, "eigen", n, std::move(hz));
}

// Z = X + Y over half, eight elements per step: widen to float (exact), add (rounded to float), narrow to
// half rounding to nearest even. Float has 24 >= 2 x 11 + 2 bits, so rounding the float sum to half gives
// the correctly rounded half sum: what the model's once-per-instruction rounding and Eigen::half compute.
// Compiled for AVX2 + F16C here only; the rest of the build keeps the project's flags.
__attribute__((target("avx2,f16c"))) void hand_add(const uint16_t* x, const uint16_t* y, uint16_t* z,
                                                   uint64_t n) {
    uint64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256 a0 = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i)));
        const __m256 b0 = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(y + i)));
        const __m256 a1 = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i + 8)));
        const __m256 b1 = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(y + i + 8)));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(z + i),
                         _mm256_cvtps_ph(_mm256_add_ps(a0, b0), _MM_FROUND_TO_NEAREST_INT));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(z + i + 8),
                         _mm256_cvtps_ph(_mm256_add_ps(a1, b1), _MM_FROUND_TO_NEAREST_INT));
    }
    for (; i < n; ++i) z[i] = _cvtss_sh(_cvtsh_ss(x[i]) + _cvtsh_ss(y[i]), _MM_FROUND_TO_NEAREST_INT);
}

// AVX2 (with the OS saving the AVX state: __builtin_cpu_supports checks it) and F16C (CPUID.1:ECX bit 29;
// clang 14's __builtin_cpu_supports does not know "f16c").
bool has_avx2_f16c() {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __builtin_cpu_supports("avx2") && __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 &&
           (ecx & bit_F16C) != 0;
}

void BM_HandAvx2(benchmark::State& st) {
    if (!has_avx2_f16c()) {
        st.SkipWithError("this CPU lacks AVX2 or F16C");
        return;
    }
    uint64_t n = static_cast<uint64_t>(st.range(0));
    auto hx = data(n, 1), hy = data(n, 2);
    std::vector<uint16_t> hz(n);
    Timer timer;
    for (auto _ : st) {
        hand_add(hx.data(), hy.data(), hz.data(), n);
        benchmark::DoNotOptimize(hz.data());
        benchmark::ClobberMemory();
    }
    timer.finish(st, "hand", n, std::move(hz));
}

// The floor of a model that moves data the way the NPU does: per tile, X and Y copied into a UB-sized buffer
// and a tile copied back to Z, each its own evg::hw::move_bytes (the model's copy), with no arithmetic and no
// bookkeeping (Z receives a buffer the arithmetic would have filled, so its bits are not compared). BM_Ratios
// reports copies_vs_hand.
uint8_t* u8(uint16_t* p) {
    return reinterpret_cast<uint8_t*>(p);
}

void BM_TileCopies(benchmark::State& st) {
    uint64_t n = static_cast<uint64_t>(st.range(0));
    auto hx = data(n, 1), hy = data(n, 2);
    std::vector<uint16_t> hz(n), ub(6 * kTile);
    Timer timer;
    for (auto _ : st) {
        for (uint64_t t = 0; t * kTile < n; ++t) {
            const uint64_t id = t % 2, len = std::min<uint64_t>(kTile, n - t * kTile) * 2;
            evg::hw::move_bytes(u8(ub.data() + id * kTile), u8(hx.data() + t * kTile), len);
            evg::hw::move_bytes(u8(ub.data() + (2 + id) * kTile), u8(hy.data() + t * kTile), len);
            evg::hw::move_bytes(u8(hz.data() + t * kTile), u8(ub.data() + (4 + id) * kTile), len);
        }
        benchmark::DoNotOptimize(hz.data());
        benchmark::DoNotOptimize(ub.data());
        benchmark::ClobberMemory();
    }
    timer.finish(st, "copies", n, {});
}

// The model (checkers on) and the hand loop in alternation: every iteration times one launch and then one
// hand loop over the same data, so both see the same memory bandwidth, which on a shared machine drifts by
// tens of percent from one second to the next (BM_Ratios's figures come from runs seconds apart). Each timed
// run follows an untimed run of its own kind, as in BM_Model_ChecksOn and BM_HandAvx2, so neither pays for
// the caches and dirty lines the other left. Reports the median over iterations of model time / hand time
// (model_vs_hand_paired), its quartiles, and fails unless the last launch and the hand loop wrote
// bit-identical Z.
void BM_ModelVsHand_Paired(benchmark::State& st) {
    if (!has_avx2_f16c()) {
        st.SkipWithError("this CPU lacks AVX2 or F16C");
        return;
    }
    const auto n = static_cast<uint64_t>(st.range(0));
    evg::hw::Device dev;
    auto hx = data(n, 1), hy = data(n, 2);
    std::vector<uint16_t> hz(n), mz(n);
    void* x = dev.malloc(n * 2, "X");
    void* y = dev.malloc(n * 2, "Y");
    void* z = dev.malloc(n * 2, "Z");
    dev.copy_to_device(x, hx.data(), n * 2);
    dev.copy_to_device(y, hy.data(), n * 2);
    std::vector<double> ratios;
    using clock = std::chrono::steady_clock;
    const auto launch = [&]() -> const evg::hw::Report& {
        return dev.launch(1, evg::hw::KernelType::aiv_only, [&] {
            add_kernel(static_cast<GM_ADDR>(x), static_cast<GM_ADDR>(y), static_cast<GM_ADDR>(z), n);
        });
    };
    const auto hand = [&] {
        hand_add(hx.data(), hy.data(), hz.data(), n);
        benchmark::DoNotOptimize(hz.data());
        benchmark::ClobberMemory();
    };
    for (auto _ : st) {
        launch();
        const auto t0 = clock::now();
        const bool clean = launch().clean();
        const auto t1 = clock::now();
        hand();
        const auto t2 = clock::now();
        hand();
        const auto t3 = clock::now();
        if (!clean) {
            st.SkipWithError("the benchmark kernel reported violations");
            return;
        }
        ratios.push_back(std::chrono::duration<double>(t1 - t0).count() /
                         std::chrono::duration<double>(t3 - t2).count());
    }
    dev.copy_to_host(mz.data(), z, n * 2);
    if (mz != hz) {
        st.SkipWithError("the model and the hand loop wrote different Z");
        return;
    }
    std::sort(ratios.begin(), ratios.end());
    const auto at = [&](double q) {
        return ratios[static_cast<size_t>(q * static_cast<double>(ratios.size() - 1))];
    };
    st.counters["model_vs_hand_paired"] = at(0.5);
    st.counters["q1"] = at(0.25);
    st.counters["q3"] = at(0.75);
    st.counters["bit_identical"] = 1;
}

// The ratios of this process's measurements at one size, after checking that the three wrote the same bits.
void BM_Ratios(benchmark::State& st) {
    const int64_t n = st.range(0);
    const auto find = [&](const char* name) -> const Measured* {
        const auto it = measured().find({name, n});
        return it == measured().end() ? nullptr : &it->second;
    };
    const Measured *model = find("model"), *hand = find("hand"), *eigen = find("eigen"),
                   *model_off = find("model_off");
    for (auto _ : st) {
    }
    if (model == nullptr || hand == nullptr || eigen == nullptr) {
        st.SkipWithError(
            "BM_Model_ChecksOn, BM_HandAvx2 and BM_Eigen of this size must run first, in this run");
        return;
    }
    const auto first_difference = [](const std::vector<uint16_t>& a, const std::vector<uint16_t>& b) {
        for (size_t i = 0; i < a.size(); ++i)
            if (a[i] != b[i]) return i;
        return a.size();
    };
    for (const auto& [name, other] : {std::pair{"the hand loop", hand}, std::pair{"Eigen", eigen}}) {
        const size_t i = first_difference(model->z, other->z);
        if (model->z.size() != other->z.size() || i != model->z.size()) {
            const std::string msg =
                "the model and " + std::string(name) + " differ at element " + std::to_string(i) + " of Z";
            st.SkipWithError(msg.c_str());
            return;
        }
    }
    st.counters["model_vs_hand"] = hand->rate / model->rate;
    st.counters["model_vs_eigen"] = eigen->rate / model->rate;
    st.counters["model_vs_hand_cpu"] = hand->cpu_rate / model->cpu_rate;
    st.counters["model_vs_eigen_cpu"] = eigen->cpu_rate / model->cpu_rate;
    if (model_off != nullptr) st.counters["model_off_vs_hand"] = hand->rate / model_off->rate;
    if (const Measured* copies = find("copies")) st.counters["copies_vs_hand"] = hand->rate / copies->rate;
    st.counters["bit_identical"] = 1;
}

// The fixed cost of a launch: a mixed (1:2) launch of state.range(0) blocks whose kernel issues one flag pair
// on each core, with every checker on (range(1) = 1) or none. What a small property case pays three times
// (upstream's run, its twin and evgcheck's copy) before its kernel does anything: the cores, their memories,
// their fibers, the checkers, the report. Reports microseconds of CPU per launch.
void BM_LaunchOverhead(benchmark::State& st) {
    evg::hw::Config cfg;
    cfg.arch = evg::hw::ArchId::Ascend950;
    if (st.range(1) == 0) cfg.checks = evg::hw::CheckerConfig::none();
    evg::hw::Device dev(cfg);
    const std::clock_t cpu0 = std::clock();
    for (auto _ : st) {
        const auto& r = dev.launch(static_cast<int>(st.range(0)), evg::hw::KernelType::mix_aic_1_2, [] {
            SetFlag<HardEvent::S_MTE2>(0);
            WaitFlag<HardEvent::S_MTE2>(0);
        });
        if (!r.clean()) st.SkipWithError("the empty kernel reported violations");
    }
    const double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
    st.counters["cpu_us_per_launch"] = 1e6 * cpu / static_cast<double>(st.iterations());
}
BENCHMARK(BM_LaunchOverhead)->ArgsProduct({{1, 8}, {0, 1}})->Unit(benchmark::kMicrosecond)->UseRealTime();

constexpr int64_t kFull = int64_t(1) << 24;   // 16M halves: the figure
constexpr int64_t kSmoke = int64_t(1) << 16;  // for the bench-smoke ctest label

BENCHMARK(BM_Model_ChecksOn)->Arg(kFull)->Arg(kSmoke)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Model_ChecksOff)->Arg(kFull)->Arg(kSmoke)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Eigen)->Arg(kFull)->Arg(kSmoke)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_HandAvx2)->Arg(kFull)->Arg(kSmoke)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TileCopies)->Arg(kFull)->Arg(kSmoke)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ModelVsHand_Paired)->Arg(kFull)->Arg(kSmoke)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Add_FpOn)->Arg(kFull)->Arg(kSmoke)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Add_FpOff)->Arg(kFull)->Arg(kSmoke)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Transcendental_FpOn)->Arg(kFull)->Arg(kSmoke)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Transcendental_FpOff)->Arg(kFull)->Arg(kSmoke)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FpCost)->Arg(kFull)->Arg(kSmoke)->Iterations(1);
// Registered last: Google Benchmark runs benchmarks in registration order, so the measurements exist.
BENCHMARK(BM_Ratios)->Arg(kFull)->Arg(kSmoke)->Iterations(1);

}  // namespace
