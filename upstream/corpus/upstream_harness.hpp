// What the generated instances of the upstream corpus call (corpus_gen.cpp writes them): upstream's own GEMM
// + EVG kernel (upstream_kernel.hpp) around an EVG emitted in the upstream dialect, compiled against a
// Catlass checkout for Ascend950, on a device reset with the request's Config.
#pragma once
#include <acl/acl.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "corpus_abi.hpp"
#include "corpus_registry.hpp"
#include "evg/hw/device.hpp"
#include "evg/hw/trace.hpp"
#include "upstream_kernel.hpp"

namespace evg_upstream_corpus {

using evg::upstream::corpus::InstanceRun;
using evg::upstream::corpus::RunRequest;

// Runs the instance's EVG on the request (A and B in the bytes and layouts of MmadConfig: make_request's).
// make_args(device pointers in graph order) returns EVG::Arguments.
template <bool USE_UB, class EAB, class EC, uint32_t L1M, uint32_t L1N, uint32_t L1K, uint32_t CL, class EVG,
          class MmadConfig, class MakeArgs>
InstanceRun run_instance(const RunRequest& rq, MakeArgs make_args) {
    evg::hw::Config config = rq.config;
    config.arch = evg::hw::ArchId::Ascend950;
    // Judged against the oracle: a NaN or infinity the graph makes is a warning (docs/checkers.md, "NaN and
    // infinity"), and the comparison decides, as for evgcheck's own runs (graph::run_on_model).
    config.fp_policy = evg::hw::kFpPolicyWithOracle;
    evg::hw::Device& dev = evg::hw::reset_device(config);
    auto upload = [&](const std::vector<uint8_t>& bytes, const std::string& name) {
        auto* ptr = static_cast<uint8_t*>(dev.malloc(bytes.empty() ? 1 : bytes.size(), name));
        if (!bytes.empty()) dev.copy_to_device(ptr, bytes.data(), bytes.size());
        return ptr;
    };
    uint8_t* a = upload(rq.a, "A");
    uint8_t* b = upload(rq.b, "B");
    std::vector<GM_ADDR> ptrs;
    for (const evg::upstream::corpus::TensorData& t : rq.tensors) ptrs.push_back(upload(t.bytes, t.name));

    using Gemm = UpstreamGemm<USE_UB, EAB, EC, L1M, L1N, L1K, CL, EVG, MmadConfig>;
    const typename Gemm::Kernel::Arguments args = Gemm::arguments(rq.m, rq.n, rq.k, a, b, make_args(ptrs));
    typename Gemm::Op op;
    if (op.CanImplement(args) != Catlass::Status::kSuccess)
        throw std::runtime_error("upstream corpus: upstream's CanImplement refused the problem");
    const size_t ws = op.GetWorkspaceSize(args);
    uint8_t* workspace = ws ? static_cast<uint8_t*>(dev.malloc(ws, "workspace")) : nullptr;
    if (op.Initialize(args, workspace) != Catlass::Status::kSuccess)
        throw std::runtime_error("upstream corpus: upstream's Initialize failed");
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    op(stream, rq.cores);        // the launch runs to its end here; the device keeps its report (read below)
    aclrtDestroyStream(stream);  // not synchronised: that would print every finding and keep every report

    InstanceRun r;
    r.report = dev.last_report();
    r.trace = dev.take_last_trace();
    uint32_t top = 0;
    for (const evg::hw::TraceEntry& e : r.trace) top = std::max(top, e.op_site);
    if (!r.trace.empty())
        for (uint32_t id = 0; id <= top; ++id) {
            const evg::hw::Site site = evg::hw::interned_site(id);
            r.op_sites.push_back(
                {std::string(evg::hw::interned_op(id)), site.file ? site.file : "", site.line});
        }
    for (std::size_t i = 0; i < rq.tensors.size(); ++i) {
        std::vector<uint8_t> bytes(rq.tensors[i].bytes.size());
        if (!bytes.empty()) dev.copy_to_host(bytes.data(), ptrs[i], bytes.size());
        r.tensors.push_back(std::move(bytes));
    }
    return r;
}

}  // namespace evg_upstream_corpus
