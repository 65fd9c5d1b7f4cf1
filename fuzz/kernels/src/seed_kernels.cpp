// The seed kernel registry (kernels.hpp).
#include <cstring>

#include "ascendc/samples/dequant_per_token_run.hpp"
#include "ascendc/samples/double_buffered_run.hpp"
#include "evg/fuzz/epilogue_protocol.hpp"
#include "evg/fuzz/kernels.hpp"

namespace evg::fuzz {
namespace {

std::string chip(hw::ArchId a) {
    return std::string(hw::arch_name(a));
}

KernelCase protocol_case(hw::ArchId arch, uint32_t tiles) {
    ProtocolShape s;
    s.tiles = tiles;
    return {"epilogue_protocol/" + chip(arch) + "/tiles" + std::to_string(tiles), arch, s.blocks,
            hw::KernelType::aiv_only,
            [arch, s](const hw::Config& cfg) { return run_epilogue_protocol(cfg, arch, s); }};
}

KernelCase dequant_case(hw::ArchId arch) {
    const AscendC::samples::DequantShape s;
    const int blocks = 2;
    return {"dequant_per_token/" + chip(arch), arch, blocks, hw::KernelType::aiv_only,
            [arch, s](const hw::Config& cfg) {
                hw::Config c = cfg;
                c.arch = arch;
                AscendC::samples::DequantRun d = AscendC::samples::run_dequant_per_token(c, false, s, blocks);
                KernelRun r{std::move(d.report), std::move(d.trace), {}};
                r.outputs.resize(d.out.size() * sizeof(uint16_t));
                std::memcpy(r.outputs.data(), d.out.data(), r.outputs.size());
                return r;
            }};
}

// The double-buffered sample: y = x * 2 + 1 over 4 tiles of 256 halves, one AIV.
KernelCase double_buffered_case(hw::ArchId arch) {
    return {"double_buffered/" + chip(arch), arch, 1, hw::KernelType::aiv_only,
            [arch](const hw::Config& cfg) {
                hw::Config c = cfg;
                c.arch = arch;
                AscendC::samples::DoubleBufferedRun d =
                    AscendC::samples::run_double_buffered_sample(c, 4 * 256, 256);
                KernelRun r{std::move(d.report), std::move(d.trace), {}};
                r.outputs.resize(d.out.size() * sizeof(uint16_t));
                std::memcpy(r.outputs.data(), d.out.data(), r.outputs.size());
                return r;
            }};
}

}  // namespace

const std::vector<KernelCase>& seed_kernels() {
    static const std::vector<KernelCase> cases = {
        protocol_case(hw::ArchId::AtlasA2, 3),       protocol_case(hw::ArchId::Ascend950, 3),
        dequant_case(hw::ArchId::AtlasA2),           double_buffered_case(hw::ArchId::AtlasA2),
        double_buffered_case(hw::ArchId::Ascend950),
    };
    return cases;
}

}  // namespace evg::fuzz
