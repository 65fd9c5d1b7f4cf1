// Property 5 of props/README.md (static ≡ dynamic): what the generated corpus files (corpus_gen.cpp) call.
//
// Every generated case is a function that declares emit_cpp's layouts, `using EVG = ...;` and the Arguments
// with the device pointers bound to the tensors of the run, and runs the static EVG through run_static. It
// builds the kernel run_on_model builds (BlockMmadTla<MmadPingpong<ArchTag, true>> with the case's L1 tile
// and L0 K = 32, GemmIdentityBlockSwizzle<3, 0>, BasicMatmulTlaVisitor or BasicMatmulTlaUbVisitor,
// DeviceGemm), with the computeLength as a compile-time tla::Int<CL> instead of DynamicVisitor's run-time
// one, on a device reset with the same Config and the same allocations in the same order. corpus_test.cpp
// runs the same Case through run_on_model and compares.
#pragma once
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "catlass/epilogue/block/block_epilogue.hpp"
#include "catlass/epilogue/fusion/fusion.hpp"
#include "catlass/gemm/gemm.hpp"
#include "evg/graph/run.hpp"
#include "evg/hw/device.hpp"
#include "evg/props/generators.hpp"
#include "evg/props/spec.hpp"
#include "evg/verify/data.hpp"

namespace evg_corpus {

struct StaticRun {
    evg::hw::Report report;
    evg::hw::Trace trace;
    std::map<std::string, std::vector<uint8_t>> outputs;  // every output tensor, as run_on_model returns them
};

// One corpus entry: the case as regression text (props/regression.hpp) and the static run.
struct Entry {
    int index = 0;
    const char* text = "";
    StaticRun (*run)(const evg::props::Case&) = nullptr;
};

inline std::vector<Entry>& registry() {
    static std::vector<Entry> entries;
    return entries;
}
struct Register {
    Register(int index, const char* text, StaticRun (*run)(const evg::props::Case&)) {
        registry().push_back({index, text, run});
    }
};

// The bytes run_on_model takes for a case: make_inputs (A, B, every input, the initial outputs).
inline evg::graph::RunInputs run_inputs(const evg::props::Case& c) {
    return evg::verify::run_inputs(evg::props::make_inputs(c));
}

// The device Config both runs use (run_on_model sets the arch from the problem).
inline evg::hw::Config run_config(const evg::props::Case& c) {
    evg::hw::Config cfg;
    cfg.arch = c.problem.arch;
    cfg.scheduler = evg::hw::SchedulerKind::in_order;
    // Judged against the oracle, as run_on_model's runs are: a NaN or infinity the graph makes is a warning
    // (docs/checkers.md, "NaN and infinity"), and the comparison decides.
    cfg.fp_policy = evg::hw::kFpPolicyWithOracle;
    return cfg;
}

inline uint64_t tensor_bytes(const evg::graph::Tensor& t) {
    const int64_t elems = t.rows == 0 ? 0 : (t.rows - 1) * t.row_stride + t.cols;
    return static_cast<uint64_t>(elems) * evg::hw::dtype_size(t.element);
}

// The static EVG through run_on_model's kernel. make_args(pointers in graph.tensors order) returns
// typename EVG::Arguments.
template <class ArchTag, bool USE_UB, class EAB, class EC, uint32_t L1M, uint32_t L1N, uint32_t L1K,
          uint32_t CL, class EVG, class MakeArgs>
StaticRun run_static(const evg::props::Case& c, MakeArgs make_args) {
    using namespace Catlass;
    const evg::graph::Problem& p = c.problem;
    if (p.compute_length != CL || p.tile != evg::graph::TileShape{L1M, L1N, L1K})
        throw std::logic_error("corpus: the case does not match the static kernel it was emitted with");
    const evg::graph::RunInputs in = run_inputs(c);
    evg::hw::Device& dev = evg::hw::reset_device(run_config(c));
    auto upload = [&](const std::string& name, uint64_t bytes) {
        auto* ptr = static_cast<uint8_t*>(dev.malloc(bytes == 0 ? 1 : bytes, name));
        if (auto it = in.tensors.find(name); it != in.tensors.end() && bytes > 0)
            dev.copy_to_device(ptr, it->second.data(), bytes);
        return ptr;
    };
    const auto m = static_cast<uint32_t>(p.m), n = static_cast<uint32_t>(p.n), k = static_cast<uint32_t>(p.k);
    uint8_t* a = upload("A", uint64_t{m} * k * sizeof(EAB));
    uint8_t* b = upload("B", uint64_t{k} * n * sizeof(EAB));
    std::vector<GM_ADDR> ptrs;
    for (const evg::graph::Tensor& t : p.graph.tensors) ptrs.push_back(upload(t.name, tensor_bytes(t)));

    using L1TileShape = tla::tuple<tla::Int<L1M>, tla::Int<L1N>, tla::Int<L1K>>;
    using L0TileShape = tla::tuple<tla::Int<L1M>, tla::Int<L1N>, tla::Int<32>>;
    using BlockMmad =
        Gemm::Block::BlockMmadTla<Gemm::MmadPingpong<ArchTag, true>, L1TileShape, L0TileShape, EAB, EAB, EC>;
    using BlockEpilogue =
        Epilogue::Block::BlockEpilogue<Epilogue::EpilogueVisitor<USE_UB>, ArchTag, tla::Int<CL>, EVG, EC>;
    using Sched = Gemm::Block::GemmIdentityBlockSwizzle<3, 0>;
    using Kernel =
        std::conditional_t<USE_UB, Gemm::Kernel::BasicMatmulTlaUbVisitor<BlockMmad, BlockEpilogue, Sched>,
                           Gemm::Kernel::BasicMatmulTlaVisitor<BlockMmad, BlockEpilogue, Sched>>;
    typename Kernel::Arguments args{GemmCoord(m, n, k),
                                    a,
                                    tla::MakeLayout<EAB, layout::RowMajor>(m, k),
                                    b,
                                    tla::MakeLayout<EAB, layout::RowMajor>(k, n),
                                    nullptr,
                                    tla::MakeLayout<EC, layout::RowMajor>(m, n),
                                    nullptr,
                                    make_args(ptrs)};
    Gemm::Device::DeviceGemm<Kernel> op;
    if (op.CanImplement(args) != Status::kSuccess) throw std::runtime_error("corpus: CanImplement failed");
    const size_t ws = op.GetWorkspaceSize(args);
    uint8_t* workspace = ws ? static_cast<uint8_t*>(dev.malloc(ws, "workspace")) : nullptr;
    if (op.Initialize(args, workspace) != Status::kSuccess)
        throw std::runtime_error("corpus: Initialize failed");
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    op(stream, c.cores);
    aclrtDestroyStream(stream);

    StaticRun r;
    r.report = dev.last_report();
    r.trace = dev.take_last_trace();
    for (std::size_t i = 0; i < p.graph.tensors.size(); ++i) {
        const evg::graph::Tensor& t = p.graph.tensors[i];
        if (t.role != evg::graph::TensorRole::Output) continue;
        std::vector<uint8_t> bytes(tensor_bytes(t));
        if (!bytes.empty()) dev.copy_to_host(bytes.data(), ptrs[i], bytes.size());
        r.outputs.emplace(t.name, std::move(bytes));
    }
    return r;
}

}  // namespace evg_corpus
