// Static compositions: hand-written static EVGs whose multi-input nodes are not commutative, run through the
// library's own TreeVisitor and TopologicalVisitor (every other catalogue case runs through DynamicVisitor,
// whose traversal is its own code) by seed 003's host code (BlockMmadTla, BlockEpilogue<EpilogueVisitor<
// false>, ...>, BasicMatmulTlaVisitor, DeviceGemm), judged against the oracle's evaluation of the graph
// written by hand from the spec. A case also fails when describe<EVG> differs from that graph, and when its
// data cannot tell the graph from a mutant with two arguments of a non-commutative node swapped (or one
// child's output given for both arguments of Max / Min): so a traversal that hands a parent its children in
// another order, or a stale cached output, turns the matrix red. Data: integers, and powers of two as
// divisors, so that every result is exact.
//
//   Sub3_tree    D = Sub(Muls[2](C), Adds[-3](X), bias[j]): an n-ary Sub over three distinct subtrees
//   Div_tree     D = Div(Sub(C, X), col[i])
//   MaxMin_tree  D = Max(Min(C, X), Muls[-1](Y)) over mixed-sign data
//   Sub_dag      TopologicalVisitor: S = Adds[1](C) shared by Sub(S, X) and Sub(bias, S) (S first in one,
//                second in the other), D = Max(S - X, bias - S)
// Ids: StaticComposition/<Arch>/<name>/gm/<shape>/CL256.
#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

#include "../src/catalogue.hpp"
#include "acl/acl.h"
#include "catlass/epilogue/block/block_epilogue.hpp"
#include "catlass/epilogue/fusion/fusion.hpp"
#include "catlass/gemm/gemm.hpp"
#include "evg/graph/describe.hpp"
#include "evg/graph/text.hpp"
#include "evg/hw/device.hpp"
#include "evg/hw/error.hpp"
#include "evg/oracle/data.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/verify/data.hpp"
#include "evg/verify/judge.hpp"
#include "kernel_operator.h"

namespace evg::conformance::detail {
namespace {

using namespace Catlass;
namespace F = Catlass::Epilogue::Fusion;
using E = float;

constexpr uint32_t kL1M = 32, kL1N = 64, kL1K = 64, kL0K = 32;  // the seed examples' small tile
constexpr uint32_t kBlockDim = 4;                               // fewer cores than blocks
constexpr uint32_t kCL = 256;

struct Shape {
    const char* name;
    uint32_t m, n, k;
};
// M, N and K off the tile (a 3 x 2 grid on 4 cores, several row groups per AIV); M = 1 (AIV 1 of every
// block gets no row).
constexpr Shape kShapes[] = {{"m65_n100_k40", 65, 100, 40}, {"m1_n100_k40", 1, 100, 40}};

void check(bool ok, const char* what) {
    if (!ok) throw Error(fmt::format("static composition: {} failed", what));
}

// The device buffers of one case, with their host contents: inputs for the oracle, outputs read back.
class Buffers {
  public:
    Buffers(const Buffers&) = delete;
    Buffers& operator=(const Buffers&) = delete;
    Buffers() = default;
    ~Buffers() {
        for (Buffer& b : list_) aclrtFree(b.device);
    }
    GM_ADDR input(const std::string& name, const oracle::HostTensor& host) { return add(name, host, false); }
    // Starts as the sentinel, so that an element the kernel never writes is found.
    GM_ADDR output(const std::string& name, uint32_t rows, uint32_t cols) {
        oracle::HostTensor t(graph::DType::f32, size_t(rows) * cols);
        for (size_t i = 0; i < t.size(); ++i) t.set_bits(i, verify::sentinel_bits(graph::DType::f32));
        return add(name, t, true);
    }
    std::vector<graph::TensorName> names() const {  // every buffer but A and B, for describe<EVG>
        std::vector<graph::TensorName> out;
        for (const Buffer& b : list_)
            if (b.name != "A" && b.name != "B") out.push_back({b.device, b.name});
        return out;
    }
    oracle::Inputs inputs() const {
        oracle::Inputs in;
        for (const Buffer& b : list_) in.emplace(b.name, b.host);
        return in;
    }
    void read_outputs(graph::ModelRun& run) const {
        for (const Buffer& b : list_) {
            if (!b.output) continue;
            std::vector<uint8_t>& got = run.outputs[b.name];
            got.resize(b.host.bytes().size());
            check(aclrtMemcpy(got.data(), got.size(), b.device, got.size(), ACL_MEMCPY_DEVICE_TO_HOST) ==
                      ACL_SUCCESS,
                  "aclrtMemcpy to the host");
        }
    }

  private:
    struct Buffer {
        std::string name;
        oracle::HostTensor host;
        void* device = nullptr;
        bool output = false;
    };
    GM_ADDR add(const std::string& name, const oracle::HostTensor& host, bool output) {
        Buffer b{name, host, nullptr, output};
        const size_t bytes = host.bytes().size();
        check(aclrtMalloc(&b.device, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
        check(aclrtMemcpy(b.device, bytes, host.bytes().data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) ==
                  ACL_SUCCESS,
              "aclrtMemcpy to the device");
        list_.push_back(std::move(b));
        return static_cast<GM_ADDR>(list_.back().device);
    }
    std::vector<Buffer> list_;
};

oracle::HostTensor integers(size_t count, int64_t lo, int64_t hi, uint64_t seed) {
    oracle::HostTensor t(graph::DType::f32, count);
    oracle::fill_integers(t, lo, hi, seed);
    return t;
}

// `count` values drawn from `values` (powers of two: exact divisors).
oracle::HostTensor pick(size_t count, std::initializer_list<double> values, uint64_t seed) {
    oracle::HostTensor index(graph::DType::i32, count);
    oracle::fill_integers(index, 0, static_cast<int64_t>(values.size()) - 1, seed);
    oracle::HostTensor t(graph::DType::f32, count);
    for (size_t i = 0; i < count; ++i)
        t.set_value(i, *(values.begin() + static_cast<std::ptrdiff_t>(index.value(i))));
    return t;
}

// Seed 003's host code: the GEMM + EVG epilogue through DeviceGemm on the GM-workspace kernel.
template <class ArchTag, class EVG>
hw::Report run_gemm(const Shape& s, GM_ADDR a, GM_ADDR b, GM_ADDR d, const typename EVG::Arguments& args) {
    using L1TileShape = tla::tuple<tla::Int<kL1M>, tla::Int<kL1N>, tla::Int<kL1K>>;
    using L0TileShape = tla::tuple<tla::Int<kL1M>, tla::Int<kL1N>, tla::Int<kL0K>>;
    using BlockMmad =
        Gemm::Block::BlockMmadTla<Gemm::MmadPingpong<ArchTag, true>, L1TileShape, L0TileShape, E, E, E>;
    using BlockEpilogue =
        Epilogue::Block::BlockEpilogue<Epilogue::EpilogueVisitor<false>, ArchTag, tla::Int<kCL>, EVG, E>;
    using MatmulKernel = Gemm::Kernel::BasicMatmulTlaVisitor<BlockMmad, BlockEpilogue,
                                                             Gemm::Block::GemmIdentityBlockSwizzle<3, 0>>;
    auto layoutA = tla::MakeLayout<E, layout::RowMajor>(s.m, s.k);
    auto layoutB = tla::MakeLayout<E, layout::RowMajor>(s.k, s.n);
    auto layoutD = tla::MakeLayout<E, layout::RowMajor>(s.m, s.n);
    aclrtStream stream;
    check(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");
    typename MatmulKernel::Arguments arguments{
        GemmCoord{s.m, s.n, s.k}, a, layoutA, b, layoutB, d, layoutD, nullptr, args};
    Gemm::Device::DeviceGemm<MatmulKernel> op;
    check(op.CanImplement(arguments) == Catlass::Status::kSuccess, "CanImplement");
    const size_t workspace_bytes = op.GetWorkspaceSize(arguments);
    uint8_t* workspace = nullptr;
    check(aclrtMalloc(reinterpret_cast<void**>(&workspace), workspace_bytes, ACL_MEM_MALLOC_HUGE_FIRST) ==
              ACL_SUCCESS,
          "aclrtMalloc of the workspace");
    check(op.Initialize(arguments, workspace) == Catlass::Status::kSuccess, "Initialize");
    check(op(stream, kBlockDim) == Catlass::Status::kSuccess, "the launch");
    aclrtSynchronizeStream(stream);  // its verdict is the report's, which the judge reads
    hw::Report report = hw::device().last_report();
    aclrtFree(workspace);
    aclrtDestroyStream(stream);
    return report;
}

// A mutant of the graph text: each edit replaces the first occurrence of `from`.
struct Edit {
    const char* from;
    const char* to;
};
struct Mutant {
    std::vector<Edit> edits;
    const char* what;
};

// Judges the run against the hand-written graph, and requires describe<EVG> to be that graph and the data to
// tell every mutant from it.
CaseResult finish(const CaseSpec& meta, const Shape& s, const Buffers& buffers, const hw::Report& report,
                  const std::string& text, const graph::Graph& described,
                  std::initializer_list<Mutant> mutants) {
    const std::string head =
        fmt::format("problem arch={} m={} n={} k={} a=float b=float c=float cl={} path=gm tile={}x{}x{}\n",
                    meta.arch, s.m, s.n, s.k, kCL, kL1M, kL1N, kL1K);
    const graph::Problem problem = graph::parse_problem(head + text);
    graph::ModelRun run;
    run.report = report;
    buffers.read_outputs(run);
    const oracle::Inputs inputs = buffers.inputs();
    verify::JudgeOptions options;
    options.exact_data = true;
    Measurement m = measure_run(meta, problem, run, oracle::evaluate(problem, inputs), options);
    if (graph::print(described) != graph::print(problem.graph)) {
        m.verdict.add(verify::Tag::output_mismatch,
                      "describe<EVG> differs from the spec's graph:\n" + graph::print(described));
        return judge_conforming(std::move(m));
    }
    for (const Mutant& mu : mutants) {
        std::string mutant = text;
        for (const Edit& e : mu.edits) mutant.replace(mutant.find(e.from), std::string(e.from).size(), e.to);
        const graph::Problem mp = graph::parse_problem(head + mutant);
        verify::JudgeOptions o;
        o.exact_data = true;
        const verify::Verdict v = verify::judge(mp, run, oracle::evaluate(mp, inputs), o);
        uint64_t mismatches = 0;
        for (const verify::OutputCheck& c : v.outputs) mismatches += c.mismatches;
        if (mismatches == 0)
            m.verdict.add(verify::Tag::output_mismatch,
                          fmt::format("the data cannot tell the graph from {}, so the case could not catch a "
                                      "traversal that computed it",
                                      mu.what));
    }
    return judge_conforming(std::move(m));
}

template <class ArchTag>
CaseResult sub3_tree(const CaseSpec& meta, const Shape& s) {
    hw::Config cfg;
    cfg.keep_trace = false;
    hw::reset_device(cfg);
    Buffers buf;
    GM_ADDR a = buf.input("A", integers(size_t(s.m) * s.k, -3, 3, 1));
    GM_ADDR b = buf.input("B", integers(size_t(s.k) * s.n, -3, 3, 2));
    GM_ADDR x = buf.input("X", integers(size_t(s.m) * s.n, -5, 5, 3));
    GM_ADDR bias = buf.input("bias", integers(s.n, -5, 5, 4));
    GM_ADDR d = buf.output("D", s.m, s.n);
    auto layoutX = tla::MakeLayout<E, layout::RowMajor>(s.m, s.n);
    auto layoutBias = tla::MakeLayout<E, layout::RowMajor>(1, s.n);
    auto layoutD = tla::MakeLayout<E, layout::RowMajor>(s.m, s.n);
    using EVG =
        F::TreeVisitor<F::VisitorAuxStore<E, decltype(layoutD)>,
                       F::TreeVisitor<F::VisitorCompute<F::Sub, E>,
                                      F::TreeVisitor<F::VisitorCompute<F::Muls, E, E>, F::VisitorAccLoad<E>>,
                                      F::TreeVisitor<F::VisitorCompute<F::Adds, E, E>,
                                                     F::VisitorAuxLoad<E, decltype(layoutX)>>,
                                      F::VisitorRowBroadcast<E, decltype(layoutBias)>>>;
    typename EVG::Arguments args{{{{}, {{2.0f}}}, {{x, layoutX}, {{-3.0f}}}, {bias, layoutBias}, {}},
                                 {d, layoutD}};
    const hw::Report report = run_gemm<ArchTag, EVG>(s, a, b, d, args);
    return finish(meta, s, buf, report,
                  fmt::format(R"(input X : float[{0}, {1}]
input bias : float[1, {1}]
output D : float[{0}, {1}]
%0 = AccLoad float
%1 = Compute Muls float [2] (%0)
%2 = AuxLoad float X
%3 = Compute Adds float [-3] (%2)
%4 = RowBroadcast float bias
%5 = Compute Sub float (%1, %3, %4)
%6 = AuxStore float D (%5)
)",
                              s.m, s.n),
                  graph::describe<EVG>(args, buf.names()),
                  {{{{"(%1, %3, %4)", "(%3, %1, %4)"}}, "Sub's first two arguments swapped"},
                   {{{"(%1, %3, %4)", "(%4, %3, %1)"}}, "Sub's first and last arguments swapped"}});
}

template <class ArchTag>
CaseResult div_tree(const CaseSpec& meta, const Shape& s) {
    hw::Config cfg;
    cfg.keep_trace = false;
    hw::reset_device(cfg);
    Buffers buf;
    GM_ADDR a = buf.input("A", integers(size_t(s.m) * s.k, -3, 3, 1));
    GM_ADDR b = buf.input("B", integers(size_t(s.k) * s.n, -3, 3, 2));
    GM_ADDR x = buf.input("X", integers(size_t(s.m) * s.n, -5, 5, 3));
    GM_ADDR col = buf.input("col", pick(s.m, {1, -2, 4, -8, 0.5}, 4));
    GM_ADDR d = buf.output("D", s.m, s.n);
    auto layoutX = tla::MakeLayout<E, layout::RowMajor>(s.m, s.n);
    auto layoutCol = tla::MakeLayout<E, layout::RowMajor>(s.m, 1);
    auto layoutD = tla::MakeLayout<E, layout::RowMajor>(s.m, s.n);
    using EVG =
        F::TreeVisitor<F::VisitorAuxStore<E, decltype(layoutD)>,
                       F::TreeVisitor<F::VisitorCompute<F::Div, E>,
                                      F::TreeVisitor<F::VisitorCompute<F::Sub, E>, F::VisitorAccLoad<E>,
                                                     F::VisitorAuxLoad<E, decltype(layoutX)>>,
                                      F::VisitorColBroadcast<E, decltype(layoutCol)>>>;
    typename EVG::Arguments args{{{{}, {x, layoutX}, {}}, {col, layoutCol}, {}}, {d, layoutD}};
    const hw::Report report = run_gemm<ArchTag, EVG>(s, a, b, d, args);
    return finish(meta, s, buf, report,
                  fmt::format(R"(input X : float[{0}, {1}]
input col : float[{0}, 1]
output D : float[{0}, {1}]
%0 = AccLoad float
%1 = AuxLoad float X
%2 = Compute Sub float (%0, %1)
%3 = ColBroadcast float col
%4 = Compute Div float (%2, %3)
%5 = AuxStore float D (%4)
)",
                              s.m, s.n),
                  graph::describe<EVG>(args, buf.names()),
                  {{{{"(%0, %1)", "(%1, %0)"}}, "Sub's arguments swapped"},
                   {{{"(%2, %3)", "(%3, %2)"}}, "Div's arguments swapped"}});
}

template <class ArchTag>
CaseResult max_min_tree(const CaseSpec& meta, const Shape& s) {
    hw::Config cfg;
    cfg.keep_trace = false;
    hw::reset_device(cfg);
    Buffers buf;
    GM_ADDR a = buf.input("A", integers(size_t(s.m) * s.k, -3, 3, 1));
    GM_ADDR b = buf.input("B", integers(size_t(s.k) * s.n, -3, 3, 2));
    GM_ADDR x = buf.input("X", integers(size_t(s.m) * s.n, -5, 5, 3));
    GM_ADDR y = buf.input("Y", integers(size_t(s.m) * s.n, -5, 5, 4));
    GM_ADDR d = buf.output("D", s.m, s.n);
    auto layoutX = tla::MakeLayout<E, layout::RowMajor>(s.m, s.n);
    auto layoutD = tla::MakeLayout<E, layout::RowMajor>(s.m, s.n);
    using Load = F::VisitorAuxLoad<E, decltype(layoutX)>;
    using EVG = F::TreeVisitor<
        F::VisitorAuxStore<E, decltype(layoutD)>,
        F::TreeVisitor<F::VisitorCompute<F::Max, E>,
                       F::TreeVisitor<F::VisitorCompute<F::Min, E>, F::VisitorAccLoad<E>, Load>,
                       F::TreeVisitor<F::VisitorCompute<F::Muls, E, E>, Load>>>;
    typename EVG::Arguments args{{{{}, {x, layoutX}, {}}, {{y, layoutX}, {{-1.0f}}}, {}}, {d, layoutD}};
    const hw::Report report = run_gemm<ArchTag, EVG>(s, a, b, d, args);
    return finish(meta, s, buf, report,
                  fmt::format(R"(input X : float[{0}, {1}]
input Y : float[{0}, {1}]
output D : float[{0}, {1}]
%0 = AccLoad float
%1 = AuxLoad float X
%2 = Compute Min float (%0, %1)
%3 = AuxLoad float Y
%4 = Compute Muls float [-1] (%3)
%5 = Compute Max float (%2, %4)
%6 = AuxStore float D (%5)
)",
                              s.m, s.n),
                  graph::describe<EVG>(args, buf.names()),
                  {{{{"(%0, %1)", "(%0, %0)"}}, "Min given its first input twice"},
                   {{{"(%0, %1)", "(%1, %1)"}}, "Min given its second input twice"},
                   {{{"(%2, %4)", "(%2, %2)"}}, "Max given its first input twice"},
                   {{{"(%2, %4)", "(%4, %4)"}}, "Max given its second input twice"}});
}

template <class ArchTag>
CaseResult sub_dag(const CaseSpec& meta, const Shape& s) {
    hw::Config cfg;
    cfg.keep_trace = false;
    hw::reset_device(cfg);
    Buffers buf;
    GM_ADDR a = buf.input("A", integers(size_t(s.m) * s.k, -3, 3, 1));
    GM_ADDR b = buf.input("B", integers(size_t(s.k) * s.n, -3, 3, 2));
    GM_ADDR x = buf.input("X", integers(size_t(s.m) * s.n, -5, 5, 3));
    GM_ADDR bias = buf.input("bias", integers(s.n, -5, 5, 4));
    GM_ADDR d = buf.output("D", s.m, s.n);
    auto layoutX = tla::MakeLayout<E, layout::RowMajor>(s.m, s.n);
    auto layoutBias = tla::MakeLayout<E, layout::RowMajor>(1, s.n);
    auto layoutD = tla::MakeLayout<E, layout::RowMajor>(s.m, s.n);
    using Edges = tla::tuple<tla::seq<>,      // 0: AccLoad C
                             tla::seq<>,      // 1: AuxLoad X
                             tla::seq<>,      // 2: RowBroadcast bias
                             tla::seq<0>,     // 3: S = Adds[1](C)
                             tla::seq<3, 1>,  // 4: S - X
                             tla::seq<2, 3>,  // 5: bias - S
                             tla::seq<4, 5>,  // 6: Max(S - X, bias - S)
                             tla::seq<6>>;    // 7: store D
    using EVG = F::TopologicalVisitor<Edges, F::VisitorAccLoad<E>, F::VisitorAuxLoad<E, decltype(layoutX)>,
                                      F::VisitorRowBroadcast<E, decltype(layoutBias)>,
                                      F::VisitorCompute<F::Adds, E, E>, F::VisitorCompute<F::Sub, E>,
                                      F::VisitorCompute<F::Sub, E>, F::VisitorCompute<F::Max, E>,
                                      F::VisitorAuxStore<E, decltype(layoutD)>>;
    typename EVG::Arguments args{{}, {x, layoutX}, {bias, layoutBias}, {{1.0f}}, {}, {}, {}, {d, layoutD}};
    const hw::Report report = run_gemm<ArchTag, EVG>(s, a, b, d, args);
    return finish(
        meta, s, buf, report,
        fmt::format(R"(input X : float[{0}, {1}]
input bias : float[1, {1}]
output D : float[{0}, {1}]
%0 = AccLoad float
%1 = AuxLoad float X
%2 = RowBroadcast float bias
%3 = Compute Adds float [1] (%0)
%4 = Compute Sub float (%3, %1)
%5 = Compute Sub float (%2, %3)
%6 = Compute Max float (%4, %5)
%7 = AuxStore float D (%6)
)",
                    s.m, s.n),
        graph::describe<EVG>(args, buf.names()),
        {{{{"(%3, %1)", "(%1, %3)"}}, "S - X with its arguments swapped"},
         {{{"(%2, %3)", "(%3, %2)"}}, "bias - S with its arguments swapped"},
         {{{"(%3, %1)", "(%1, %3)"}, {"(%2, %3)", "(%3, %2)"}}, "every Sub with its arguments swapped"}});
}

using CaseFn = CaseResult (*)(const CaseSpec&, const Shape&);
struct Composition {
    const char* name;
    CaseFn atlas_a2, ascend950;
};
constexpr Composition kCompositions[] = {
    {"Sub3_tree", sub3_tree<Arch::AtlasA2>, sub3_tree<Arch::Ascend950>},
    {"Div_tree", div_tree<Arch::AtlasA2>, div_tree<Arch::Ascend950>},
    {"MaxMin_tree", max_min_tree<Arch::AtlasA2>, max_min_tree<Arch::Ascend950>},
    {"Sub_dag", sub_dag<Arch::AtlasA2>, sub_dag<Arch::Ascend950>},
};

}  // namespace

void add_static_composition_cases(std::vector<CaseSpec>& out) {
    for (const Composition& c : kCompositions)
        for (const graph::ArchId arch : {graph::ArchId::AtlasA2, graph::ArchId::Ascend950})
            for (const Shape& s : kShapes) {
                CaseSpec spec;
                spec.id =
                    fmt::format("StaticComposition/{}/{}/gm/{}/CL{}", arch_str(arch), c.name, s.name, kCL);
                spec.suite = "composition";
                spec.node_kind = "StaticComposition";
                spec.dtype = "float";
                spec.arch = arch_str(arch);
                spec.path = "gm";
                const CaseSpec meta = spec;
                const CaseFn fn = arch == graph::ArchId::AtlasA2 ? c.atlas_a2 : c.ascend950;
                spec.run = [meta, fn, s]() { return fn(meta, s); };
                out.push_back(std::move(spec));
            }
}

}  // namespace evg::conformance::detail
