// The seed kernel registry of the sync fuzzers: real AscendC kernels that each run on a fresh device.
//
// A fuzzer runs every case once with the configuration it is given unmutated, then with sync mutations in
// Config::mutations, and compares reports and outputs. Each run is deterministic in its inputs: the same
// Config gives the same outputs.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "evg/hw/config.hpp"
#include "evg/hw/instruction.hpp"
#include "evg/hw/report.hpp"

namespace evg::fuzz {

struct KernelRun {
    hw::Report report;
    hw::Trace trace;               // Device::last_trace() of the launch
    std::vector<uint8_t> outputs;  // every output tensor's bytes, in a fixed order
};

struct KernelCase {
    std::string name;  // "epilogue_protocol/AtlasA2/tiles3"
    hw::ArchId arch;
    int block_dim;
    hw::KernelType type;
    // Builds a Device with the given Config (arch forced to `arch`), fills the inputs, launches, returns.
    std::function<KernelRun(const hw::Config&)> run;
};

// The registered seeds, in a fixed order: the BlockEpilogue event protocol (3 tiles per AIV) on AtlasA2 and
// Ascend950, the fixed per-token dequant epilogue on AtlasA2, and the double-buffered sample on both chips.
const std::vector<KernelCase>& seed_kernels();

}  // namespace evg::fuzz
