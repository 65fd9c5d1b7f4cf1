// The upstream corpus (upstream/corpus/): random graphs emitted in the upstream dialect, compiled against a
// Catlass checkout, each run over random runtime parameters. This header is the boundary between the
// compiled instances (upstream's side: a shared library with its own copy of the model, every symbol hidden
// but upstream_corpus(); the one-definition rule keeps upstream's Catlass and evgcheck's copy in separate
// program images, as upstream/examples/upstream_examples.hpp explains) and the test that judges them (oracle,
// the one judge, evgcheck's copy as the differential partner). Only plain data crosses it.
#pragma once
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "evg/hw/config.hpp"
#include "evg/hw/instruction.hpp"
#include "evg/hw/report.hpp"

namespace evg::upstream::corpus {

// What one run takes: the GEMM extents, the AI cores and the device Config (scheduler, seed, checkers,
// keep_trace), A (m x k) and B (k x n) row-major, and every tensor of the graph in the graph's order: its
// name (the device buffer's, which findings quote) and its bytes, both its size on the device and its
// contents before the launch.
struct TensorData {
    std::string name;
    std::vector<uint8_t> bytes;
};
struct RunRequest {
    uint32_t m = 0, n = 0, k = 0;
    uint32_t cores = 1;
    hw::Config config;
    std::vector<uint8_t> a, b;
    std::vector<TensorData> tensors;
};

// An (op, site) of the library's trace: its entries name theirs by an id of the library's own table (its own
// copy of the model), which means nothing on this side; adopt_trace (corpus_check.hpp) re-interns them here.
struct OpSite {
    std::string op, file;
    uint32_t line = 0;
};
struct InstanceRun {
    hw::Report report;
    hw::Trace trace;                            // when config.keep_trace
    std::vector<OpSite> op_sites;               // the trace's op_site ids, resolved by the library
    std::vector<std::vector<uint8_t>> tensors;  // every tensor of the graph after the launch, in order
};

// One compiled instance: its graph as a case in the regression text (props/regression.hpp; the shape there is
// the one it was generated with, any other runs too) and the run through upstream's kernel. A random instance
// has no name; a named one is a graph written to show a finding of docs/upstream-findings.md. A tree instance
// may have a twin: the same graph emitted as a TopologicalVisitor (run_topological), which must write the
// same bytes as the TreeVisitor nest (run).
struct Instance {
    int index = 0;
    const char* name = "";
    const char* text = "";
    InstanceRun (*run)(const RunRequest&) = nullptr;
    InstanceRun (*run_topological)(const RunRequest&) = nullptr;
};

// Every instance of the library, in index order.
[[gnu::visibility("default")]] std::span<const Instance> upstream_corpus();

// The compiler that built the library's kernel code (acl/kernel_compiler.hpp, as the library's own copy of
// the model registered it): its description, and whether it evaluates arguments left to right (Bisheng's
// order, in which upstream's EVG places a node's UB buffers as on the device).
struct KernelCompilerInfo {
    const char* description;  // plain data: it crosses the dlopen boundary as a C struct
    bool left_to_right;
};
[[gnu::visibility("default")]] KernelCompilerInfo upstream_corpus_kernel_compiler();

}  // namespace evg::upstream::corpus
