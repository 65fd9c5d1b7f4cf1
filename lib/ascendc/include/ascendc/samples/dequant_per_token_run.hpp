// Host side of the per-token dequant sample (dequant_per_token.hpp): deterministic inputs, a plain C++
// reference, and one launch on a fresh device. Shared by the fuzz seed registry and the conformance hazard
// table, so that both run and judge the same kernel the same way.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ascendc/samples/dequant_per_token.hpp"
#include "evg/hw/device.hpp"

namespace AscendC::samples {

struct DequantInputs {
    std::vector<int32_t> c;            // rows x cols
    std::vector<float> scale_channel;  // cols
    std::vector<float> scale_token;    // rows
};

// Accumulators in [-1024, 1023], channel scales k/64 (k = 1..7), token scales 0.5 + j/4 (j = 0..4).
inline DequantInputs dequant_inputs(const DequantShape& s) {
    DequantInputs in;
    in.c.resize(uint64_t(s.rows) * s.cols);
    for (uint64_t i = 0; i < in.c.size(); ++i)
        in.c[i] = static_cast<int32_t>((i * 2654435761u) % 2048) - 1024;
    in.scale_channel.resize(s.cols);
    for (uint32_t j = 0; j < s.cols; ++j) in.scale_channel[j] = static_cast<float>(1 + j % 7) / 64.0f;
    in.scale_token.resize(s.rows);
    for (uint32_t r = 0; r < s.rows; ++r) in.scale_token[r] = 0.5f + static_cast<float>(r % 5) / 4.0f;
    return in;
}

// D as the kernel defines it, in the kernel's operation order (float products, then round to nearest even).
inline std::vector<uint16_t> dequant_reference(const DequantShape& s, const DequantInputs& in) {
    std::vector<uint16_t> d(uint64_t(s.rows) * s.cols);
    for (uint32_t r = 0; r < s.rows; ++r)
        for (uint32_t j = 0; j < s.cols; ++j) {
            const uint64_t i = uint64_t(r) * s.cols + j;
            float f = static_cast<float>(in.c[i]);
            f = f * in.scale_channel[j];
            f = f * in.scale_token[r];
            d[i] = half(f).bits;
        }
    return d;
}

struct DequantRun {
    ::evg::hw::Report report;
    ::evg::hw::Trace trace;
    std::vector<uint16_t> out;       // D as the kernel left it (half bits)
    std::vector<uint16_t> expected;  // dequant_reference
};

// Launches the fixed kernel (or, with missing_barrier, the upstream bug) on `blocks` AIVs (aiv_only) of a
// fresh device configured by `cfg`, on cfg.arch. D starts as zeros.
inline DequantRun run_dequant_per_token(const ::evg::hw::Config& cfg, bool missing_barrier,
                                        DequantShape s = {}, int blocks = 2) {
    using namespace ::evg::hw;
    Device dev(cfg);
    const DequantInputs in = dequant_inputs(s);
    const uint64_t elems = uint64_t(s.rows) * s.cols;
    void* c = dev.malloc(elems * 4, "C");
    void* ch = dev.malloc(uint64_t(s.cols) * 4, "scale_channel");
    void* tok = dev.malloc(uint64_t(s.rows) * 4, "scale_token");
    void* d = dev.malloc(elems * 2, "D");
    dev.copy_to_device(c, in.c.data(), elems * 4);
    dev.copy_to_device(ch, in.scale_channel.data(), uint64_t(s.cols) * 4);
    dev.copy_to_device(tok, in.scale_token.data(), uint64_t(s.rows) * 4);
    dev.copy_to_device(d, std::vector<uint16_t>(elems, 0).data(), elems * 2);
    auto cp = static_cast<GM_ADDR>(c), chp = static_cast<GM_ADDR>(ch), tokp = static_cast<GM_ADDR>(tok),
         dp = static_cast<GM_ADDR>(d);
    DequantRun r;
    r.report = dev.launch(blocks, KernelType::aiv_only, [&] {
        if (missing_barrier)
            dequant_per_token_missing_barrier(cp, chp, tokp, dp, s);
        else
            dequant_per_token(cp, chp, tokp, dp, s);
    });
    r.trace = dev.take_last_trace();
    r.out.resize(elems);
    dev.copy_to_host(r.out.data(), d, elems * 2);
    r.expected = dequant_reference(s, in);
    return r;
}

}  // namespace AscendC::samples
