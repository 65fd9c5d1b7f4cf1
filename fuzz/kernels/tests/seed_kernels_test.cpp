// The seed registry: the five named cases, each clean and deterministic unmutated, each on its own chip
// whatever the given Config says, with the outputs of its reference.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "ascendc/samples/dequant_per_token_run.hpp"
#include "ascendc/samples/double_buffered_run.hpp"
#include "evg/fuzz/epilogue_protocol.hpp"
#include "evg/fuzz/kernels.hpp"

namespace evg::fuzz {
namespace {

TEST(SeedKernels, RegistersTheProtocolTheFixedDequantAndTheDoubleBufferedSample) {
    std::vector<std::string> names;
    for (const KernelCase& k : seed_kernels()) names.push_back(k.name);
    EXPECT_EQ(names,
              (std::vector<std::string>{"epilogue_protocol/AtlasA2/tiles3",
                                        "epilogue_protocol/Ascend950/tiles3", "dequant_per_token/AtlasA2",
                                        "double_buffered/AtlasA2", "double_buffered/Ascend950"}));
}

TEST(SeedKernels, EachRunsCleanOnItsOwnChipAndIsDeterministic) {
    for (const KernelCase& k : seed_kernels()) {
        SCOPED_TRACE(k.name);
        hw::Config other;  // the other chip: the case must force its own
        other.arch = k.arch == hw::ArchId::AtlasA2 ? hw::ArchId::Ascend950 : hw::ArchId::AtlasA2;
        const KernelRun a = k.run(other);
        EXPECT_EQ(a.report.arch, hw::arch_name(k.arch));
        EXPECT_EQ(a.report.block_dim, k.block_dim);
        // aiv_only on block_dim AIVs: that many cores issue instructions.
        ASSERT_EQ(k.type, hw::KernelType::aiv_only);
        std::set<int> cores;
        for (const hw::TraceEntry& e : a.trace) cores.insert(e.core);
        EXPECT_EQ(cores.size(), static_cast<size_t>(k.block_dim));
        EXPECT_TRUE(a.report.violations.empty()) << a.report.text();
        EXPECT_FALSE(a.trace.empty());
        EXPECT_FALSE(a.outputs.empty());
        const KernelRun b = k.run(other);
        EXPECT_EQ(a.outputs, b.outputs);
        EXPECT_EQ(a.trace.size(), b.trace.size());
    }
}

TEST(SeedKernels, OutputsAreTheReferences) {
    const auto& cases = seed_kernels();
    const ProtocolShape s;  // the registered protocol cases use the default shape (3 tiles)
    const std::vector<uint8_t> protocol = protocol_reference(s, protocol_inputs(s));
    EXPECT_EQ(cases.at(0).run({}).outputs, protocol);
    EXPECT_EQ(cases.at(1).run({}).outputs, protocol);

    const AscendC::samples::DequantShape ds;
    const std::vector<uint16_t> ref =
        AscendC::samples::dequant_reference(ds, AscendC::samples::dequant_inputs(ds));
    std::vector<uint8_t> ref_bytes(ref.size() * 2);
    std::memcpy(ref_bytes.data(), ref.data(), ref_bytes.size());
    EXPECT_EQ(cases.at(2).run({}).outputs, ref_bytes);

    // double_buffered: y = x * 2 + 1, exact in half for its quarter-integer inputs.
    const std::vector<uint16_t> x = AscendC::samples::double_buffered_inputs(4 * 256);
    for (size_t c : {3u, 4u}) {
        const std::vector<uint8_t> y = cases.at(c).run({}).outputs;
        ASSERT_EQ(y.size(), x.size() * 2);
        for (size_t i = 0; i < x.size(); ++i) {
            uint16_t bits;
            std::memcpy(&bits, y.data() + 2 * i, 2);
            ASSERT_EQ(bits, half(static_cast<float>(half(x[i], 0)) * 2.0f + 1.0f).bits)
                << cases.at(c).name << " element " << i;
        }
    }
}

}  // namespace
}  // namespace evg::fuzz
