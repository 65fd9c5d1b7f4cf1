#include "comparison.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "acl/acl.h"
#include "catlass/epilogue/block/block_epilogue.hpp"
#include "catlass/epilogue/fusion/compute_length.hpp"
#include "catlass/epilogue/fusion/fusion.hpp"
#include "catlass/gemm/gemm.hpp"
#include "evg/graph/describe.hpp"
#include "evg/graph/run.hpp"
#include "evg/graph/text.hpp"
#include "evg/hw/device.hpp"
#include "evg/hw/timing.hpp"
#include "evg/oracle/data.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/oracle/host_tensor.hpp"
#include "evg/verify/data.hpp"
#include "evg/verify/judge.hpp"
#include "hand_epilogues.hpp"
#include "kernel_operator.h"

namespace evg::hand_fused {

double Comparison::evg_over_hand() const {
    return hand.total ? static_cast<double>(evg.total) / static_cast<double>(hand.total) : 0.0;
}
double Comparison::evg_over_roofline() const {
    return evg.roofline ? static_cast<double>(evg.total) / static_cast<double>(evg.roofline) : 0.0;
}
double Comparison::hand_over_roofline() const {
    return hand.roofline ? static_cast<double>(hand.total) / static_cast<double>(hand.roofline) : 0.0;
}

namespace {

using namespace Catlass;
using oracle::DType;
using oracle::HostTensor;

// The examples' setting (conformance/examples/example_case.hpp): L1 tile 32 x 64 x 64, L0 K 32, 4 AI cores.
constexpr uint32_t kL1M = 32, kL1N = 64, kL1K = 64, kL0K = 32, kBlockDim = 4;

struct Shape {
    uint32_t m = 0, n = 0, k = 0;
};

// One tensor of a case: an input, or an output with its initial contents (the sentinel when the host code
// leaves it unwritten).
struct Buffer {
    std::string name;
    HostTensor host;
    bool is_output = false;
};

// The outcome of one launch.
struct Launched {
    hw::Report report;
    hw::Trace trace;
    int block_dim = 0;
    hw::ArchId arch = hw::ArchId::AtlasA2;
    std::map<std::string, std::vector<uint8_t>> outputs;
};

using Pointers = std::map<std::string, void*>;

void check_acl(aclError e, const char* what) {
    if (e != ACL_SUCCESS) throw std::runtime_error(fmt::format("{} failed ({})", what, static_cast<int>(e)));
}

// Uploads the buffers to a fresh device, runs `launch` (which returns the block count it launched) and reads
// the outputs back.
Launched run_on_device(const std::vector<Buffer>& buffers, const std::function<int(const Pointers&)>& launch,
                       hw::ArchId arch) {
    hw::Config cfg;
    cfg.keep_trace = true;
    cfg.trace_accesses = true;
    hw::reset_device(cfg);
    Pointers ptrs;
    for (const Buffer& b : buffers) {
        void* p = nullptr;
        const size_t bytes = b.host.bytes().size();
        check_acl(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
        check_acl(aclrtMemcpy(p, bytes, b.host.bytes().data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE),
                  "aclrtMemcpy");
        ptrs[b.name] = p;
    }
    Launched r;
    r.block_dim = launch(ptrs);
    r.arch = arch;
    r.report = hw::device().last_report();
    r.trace = hw::device().take_last_trace();
    for (const Buffer& b : buffers) {
        if (!b.is_output) continue;
        std::vector<uint8_t>& got = r.outputs[b.name];
        got.resize(b.host.bytes().size());
        check_acl(aclrtMemcpy(got.data(), got.size(), ptrs[b.name], got.size(), ACL_MEMCPY_DEVICE_TO_HOST),
                  "aclrtMemcpy");
    }
    for (auto& [name, p] : ptrs) aclrtFree(p);
    return r;
}

// The figures of Cycles, from the cycle model's summary (and the AIVs' PIPE_V barriers from the trace).
Cycles measure(const Launched& l) {
    const hw::timing::Launch launch{l.arch, l.block_dim, hw::KernelType::mix_aic_1_2};
    const hw::timing::Timeline t = hw::timing::simulate(l.trace, launch);
    const hw::timing::Summary& sum = t.summary;
    Cycles c;
    c.total = sum.total;
    c.epilogue = sum.mte_v_union_max;
    c.roofline = sum.roofline;
    c.roofline_pipe =
        fmt::format("{} {}", launch.core_name(sum.roofline_core), hw::pipe_name(sum.roofline_pipe));
    c.instructions = l.trace.size();
    for (const hw::timing::PipeTime& p : sum.pipes) {
        if (!launch.is_aiv(p.core)) continue;
        if (p.pipe == hw::Pipe::V) c.aiv_v_busy += p.busy;
        if (p.pipe == hw::Pipe::MTE2) c.aiv_mte2_busy += p.busy;
        if (p.pipe == hw::Pipe::MTE3) c.aiv_mte3_busy += p.busy;
    }
    for (const hw::TraceEntry& e : l.trace)
        if (launch.is_aiv(e.core) && e.kind == hw::InstrKind::barrier && e.barrier_pipe == hw::Pipe::V)
            ++c.v_barriers;
    return c;
}

std::string shape_name(const Shape& s) {
    return fmt::format("m{}_n{}_k{}", s.m, s.n, s.k);
}

// A case's problem for the oracle: the problem line and the graph describe<EVG> gives.
graph::Problem problem_of(const char* arch, const Shape& s, const char* ab, const char* c, uint32_t cl,
                          bool ub, const graph::Graph& described) {
    const std::string text =
        fmt::format("problem arch={} m={} n={} k={} a={} b={} c={} cl={} path={} tile={}x{}x{}\n", arch, s.m,
                    s.n, s.k, ab, ab, c, cl, ub ? "ub" : "gm", kL1M, kL1N, kL1K) +
        graph::print(described);
    graph::Problem p = graph::parse_problem(text);
    p.graph = described;
    return p;
}

void judge_run(const graph::Problem& problem, const std::vector<Buffer>& buffers, const Launched& l,
               bool ub_rule, bool whole_cl, const char* who, std::vector<std::string>& problems) {
    if (!l.report.violations.empty()) problems.push_back(fmt::format("{}: report: {}", who, l.report.text()));
    const verify::Verdict rv = verify::judge_report(l.report, l.trace);
    if (!rv.clean()) problems.push_back(fmt::format("{}: judge_report: {}", who, rv.text()));
    oracle::Inputs inputs;
    for (const Buffer& b : buffers) inputs.emplace(b.name, b.host);
    graph::ModelRun run;
    run.report = l.report;
    run.outputs = l.outputs;
    verify::JudgeOptions options;
    options.exact_data = true;
    options.ub_rule = ub_rule;
    options.whole_cl = whole_cl;
    const verify::Verdict v = verify::judge(problem, run, oracle::evaluate(problem, inputs), options);
    if (!v.clean()) problems.push_back(fmt::format("{}: judge against the oracle: {}", who, v.text()));
}

// Runs both versions of a case and checks them. `evg_launch` / `hand_launch` launch on the uploaded buffers;
// `described` is describe<EVG> of the EVG's arguments (with the pointers of the EVG's run).
Comparison compare(const std::string& example, const std::string& config, uint32_t cl, hw::ArchId arch,
                   const std::vector<Buffer>& buffers,
                   const std::function<int(const Pointers&, graph::Graph&)>& evg_launch,
                   const std::function<int(const Pointers&)>& hand_launch,
                   const std::function<graph::Problem(const graph::Graph&)>& problem) {
    Comparison c;
    c.example = example;
    c.config = config;
    c.compute_length = cl;
    graph::Graph described;
    // The EVG as upstream ships it: every Compute and Cast over the whole computeLength (evgcheck's library
    // works over the tile's lanes unless this switch is on; docs/evg-vs-hand-fused.md, cause 1).
    const Launched e = [&] {
        const Catlass::Epilogue::Fusion::ScopedUpstreamHazards upstream(
            {.compute_over_compute_length = true});
        return run_on_device(
            buffers, [&](const Pointers& p) { return evg_launch(p, described); }, arch);
    }();
    const Launched h = run_on_device(buffers, hand_launch, arch);
    const graph::Problem prob = problem(described);
    judge_run(prob, buffers, e, true, true, "EVG", c.problems);
    judge_run(prob, buffers, h, false, false, "hand-fused", c.problems);
    for (const auto& [name, bytes] : e.outputs) {
        const auto it = h.outputs.find(name);
        if (it == h.outputs.end() || it->second != bytes) {
            size_t differ = 0;
            if (it != h.outputs.end())
                for (size_t i = 0; i < bytes.size(); ++i) differ += bytes[i] != it->second[i] ? 1 : 0;
            c.problems.push_back(
                fmt::format("output {}: hand-fused differs from EVG in {} bytes", name, differ));
        }
    }
    c.evg = measure(e);
    c.hand = measure(h);
    return c;
}

// ---- host code: the examples' (conformance/examples/host_code.hpp), with the epilogue a parameter ---------

template <class Epilogue, class ElementAB, class ElementC>
int launch_l1(const GemmCoord& shape, GM_ADDR a, GM_ADDR b, const typename Epilogue::EVG::Arguments& args) {
    using AType = Gemm::GemmType<ElementAB, layout::RowMajor>;
    using BType = Gemm::GemmType<ElementAB, layout::RowMajor>;
    using CType = Gemm::GemmType<ElementC, layout::RowMajor>;
    using BlockMmad = Gemm::Block::BlockMmad<Gemm::MmadAtlasA2Pingpong<true>, GemmShape<kL1M, kL1N, kL1K>,
                                             GemmShape<kL1M, kL1N, kL0K>, AType, BType, CType>;
    using Kernel =
        Gemm::Kernel::MatmulVisitor<BlockMmad, Epilogue, Gemm::Block::GemmIdentityBlockSwizzle<3, 0>>;
    aclrtStream stream = nullptr;
    check_acl(aclrtCreateStream(&stream), "aclrtCreateStream");
    typename Kernel::Arguments arguments{shape, a, b, args};
    Gemm::Device::DeviceGemm<Kernel> op;
    if (op.CanImplement(arguments) != Status::kSuccess) throw std::runtime_error("CanImplement");
    const size_t ws_size = op.GetWorkspaceSize(arguments);
    uint8_t* ws = nullptr;
    if (ws_size > 0)
        check_acl(aclrtMalloc(reinterpret_cast<void**>(&ws), ws_size, ACL_MEM_MALLOC_HUGE_FIRST),
                  "aclrtMalloc");
    if (op.Initialize(arguments, ws) != Status::kSuccess) throw std::runtime_error("Initialize");
    if (op(stream, kBlockDim, 0) != Status::kSuccess) throw std::runtime_error("launch");
    aclrtSynchronizeStream(stream);  // the report is judged by the caller
    if (ws) aclrtFree(ws);
    aclrtDestroyStream(stream);
    return static_cast<int>(kBlockDim);
}

template <class ArchTag, class Epilogue, bool USE_UB, class ElementAB = float, class ElementC = float>
int launch_tla(const GemmCoord& shape, GM_ADDR a, GM_ADDR b, GM_ADDR d,
               const typename Epilogue::EVG::Arguments& args) {
    using L1TileShape = tla::tuple<tla::Int<kL1M>, tla::Int<kL1N>, tla::Int<kL1K>>;
    using L0TileShape = tla::tuple<tla::Int<kL1M>, tla::Int<kL1N>, tla::Int<kL0K>>;
    using BlockMmad = Gemm::Block::BlockMmadTla<Gemm::MmadPingpong<ArchTag, true>, L1TileShape, L0TileShape,
                                                ElementAB, ElementAB, ElementC>;
    using Scheduler = Gemm::Block::GemmIdentityBlockSwizzle<3, 0>;
    using Kernel =
        std::conditional_t<USE_UB, Gemm::Kernel::BasicMatmulTlaUbVisitor<BlockMmad, Epilogue, Scheduler>,
                           Gemm::Kernel::BasicMatmulTlaVisitor<BlockMmad, Epilogue, Scheduler>>;
    const uint32_t m = shape.m(), n = shape.n(), k = shape.k();
    auto layoutA = tla::MakeLayout<ElementAB, layout::RowMajor>(m, k);
    auto layoutB = tla::MakeLayout<ElementAB, layout::RowMajor>(k, n);
    auto layoutD = tla::MakeLayout<ElementC, layout::RowMajor>(m, n);  // the kernel ignores D
    aclrtStream stream = nullptr;
    check_acl(aclrtCreateStream(&stream), "aclrtCreateStream");
    typename Kernel::Arguments arguments{shape, a, layoutA, b, layoutB, d, layoutD, nullptr, args};
    Gemm::Device::DeviceGemm<Kernel> op;
    if (op.CanImplement(arguments) != Status::kSuccess) throw std::runtime_error("CanImplement");
    const size_t ws_size = op.GetWorkspaceSize(arguments);
    uint8_t* ws = nullptr;
    if (ws_size > 0)
        check_acl(aclrtMalloc(reinterpret_cast<void**>(&ws), ws_size, ACL_MEM_MALLOC_HUGE_FIRST),
                  "aclrtMalloc");
    if (op.Initialize(arguments, ws) != Status::kSuccess) throw std::runtime_error("Initialize");
    const uint32_t tasks = CeilDiv(m, kL1M) * CeilDiv(n, kL1N);
    const uint32_t block_dim = USE_UB ? std::min(kBlockDim, tasks) : kBlockDim;
    if (op(stream, block_dim) != Status::kSuccess) throw std::runtime_error("launch");
    aclrtSynchronizeStream(stream);
    if (ws) aclrtFree(ws);
    aclrtDestroyStream(stream);
    return static_cast<int>(block_dim);
}

template <class EVG, class ArchTag, bool USE_UB>
constexpr uint32_t compute_length(uint32_t requested) {
    return requested != 0 ? requested : Epilogue::Fusion::max_compute_length<EVG, ArchTag, USE_UB>();
}

HostTensor integers(DType t, size_t count, int64_t lo, int64_t hi, uint64_t seed) {
    HostTensor h(t, count);
    oracle::fill_integers(h, lo, hi, seed);
    return h;
}
HostTensor dyadic(DType t, size_t count, uint64_t seed) {
    HostTensor h(t, count);
    oracle::fill_dyadic(h, -8, 8, 3, seed);
    return h;
}
HostTensor uniform(DType t, size_t count, double lo, double hi, uint64_t seed) {
    HostTensor h(t, count);
    oracle::fill_uniform(h, lo, hi, seed);
    return h;
}
HostTensor sentinel(DType t, size_t count) {
    HostTensor h(t, count);
    for (size_t i = 0; i < count; ++i) h.set_bits(i, verify::sentinel_bits(t));
    return h;
}
GM_ADDR gm(const Pointers& p, const char* name) {
    return static_cast<GM_ADDR>(p.at(name));
}
std::vector<graph::TensorName> names_of(const Pointers& p) {
    std::vector<graph::TensorName> names;
    for (const auto& [name, ptr] : p)
        if (name != "A" && name != "B") names.push_back({ptr, name});
    return names;
}

// ---- seed 000 (AtlasA2, half, MatmulVisitor)
// ---------------------------------------------------------------

using LayoutC = layout::RowMajor;
template <class E>
using AuxLoad = Epilogue::Fusion::VisitorAuxLoad<E, LayoutC>;
template <class E>
using AuxStore = Epilogue::Fusion::VisitorAuxStore<E, LayoutC>;
using Epilogue::Fusion::TreeVisitor;
using Epilogue::Fusion::VisitorAccLoad;
using Epilogue::Fusion::VisitorCast;
using Epilogue::Fusion::VisitorCompute;

std::vector<Buffer> seed000_buffers(const Shape& s, int64_t ab_range) {
    return {{"A", integers(DType::f16, size_t(s.m) * s.k, -ab_range, ab_range, 1), false},
            {"B", integers(DType::f16, size_t(s.k) * s.n, -ab_range, ab_range, 2), false}};
}

template <class EVT, class Body, uint32_t CL_>
Comparison seed000_case(const std::string& example, const Shape& s, std::vector<Buffer> buffers,
                        const std::function<typename EVT::Arguments(const Pointers&)>& evt_args,
                        const std::function<typename Body::Arguments(const Pointers&)>& hand_args) {
    constexpr uint32_t cl = compute_length<EVT, Arch::AtlasA2, false>(CL_);
    using EvgEpilogue = Epilogue::Block::BlockEpilogue<Epilogue::EpilogueAtlasA2Visitor,
                                                       Gemm::GemmType<half, LayoutC>, tla::Int<cl>, EVT>;
    using HandEpilogue = HandBlockEpilogue<Arch::AtlasA2, half, false, cl, Body>;
    const GemmCoord shape{s.m, s.n, s.k};
    const std::string config =
        fmt::format("AtlasA2_half_{}_CL{}", shape_name(s), CL_ ? std::to_string(CL_) : "max");
    return compare(
        example, config, cl, hw::ArchId::AtlasA2, buffers,
        [&](const Pointers& p, graph::Graph& described) {
            const typename EVT::Arguments args = evt_args(p);
            described = graph::describe<EVT>(args, names_of(p));
            return launch_l1<EvgEpilogue, half, half>(shape, gm(p, "A"), gm(p, "B"), args);
        },
        [&](const Pointers& p) {
            return launch_l1<HandEpilogue, half, half>(shape, gm(p, "A"), gm(p, "B"), hand_args(p));
        },
        [&](const graph::Graph& g) { return problem_of("AtlasA2", s, "half", "half", cl, false, g); });
}

template <uint32_t CL>
Comparison example32(const Shape& s) {
    using EVT = TreeVisitor<AuxStore<half>, TreeVisitor<VisitorCompute<Epilogue::Fusion::Plus, half>,
                                                        VisitorAccLoad<half>, AuxLoad<half>>>;
    std::vector<Buffer> b = seed000_buffers(s, 5);
    b.push_back({"X", integers(DType::f16, size_t(s.m) * s.n, -5, 5, 3), false});
    b.push_back({"D", sentinel(DType::f16, size_t(s.m) * s.n), true});
    const LayoutC ld{s.m, s.n};
    return seed000_case<EVT, AddAux<half>, CL>(
        "Seed000_32_Add", s, b,
        [&](const Pointers& p) {
            return typename EVT::Arguments{{{}, {gm(p, "X"), ld}, {}}, {gm(p, "D"), ld}};
        },
        [&](const Pointers& p) {
            return AddArgs<half>{gm(p, "X"), gm(p, "D"), s.n};
        });
}

template <uint32_t CL>
Comparison example33(const Shape& s) {
    using Inner = TreeVisitor<
        VisitorCompute<Epilogue::Fusion::Plus, float>,
        TreeVisitor<VisitorCast<float, half, AscendC::RoundMode::CAST_NONE>, VisitorAccLoad<half>>,
        TreeVisitor<VisitorCast<float, half, AscendC::RoundMode::CAST_NONE>, AuxLoad<half>>>;
    using EVT = TreeVisitor<AuxStore<half>,
                            TreeVisitor<VisitorCast<half, float, AscendC::RoundMode::CAST_NONE>, Inner>>;
    std::vector<Buffer> b = seed000_buffers(s, 5);
    b.push_back({"X", integers(DType::f16, size_t(s.m) * s.n, -5, 5, 3), false});
    b.push_back({"D", sentinel(DType::f16, size_t(s.m) * s.n), true});
    const LayoutC ld{s.m, s.n};
    return seed000_case<EVT, CastAdd, CL>(
        "Seed000_33_Cast", s, b,
        [&](const Pointers& p) {
            return typename EVT::Arguments{{{{{}, {}}, {{gm(p, "X"), ld}, {}}, {}}, {}}, {gm(p, "D"), ld}};
        },
        [&](const Pointers& p) {
            return AddArgs<half>{gm(p, "X"), gm(p, "D"), s.n};
        });
}

template <uint32_t CL>
Comparison example34(const Shape& s) {
    using Edges = tla::tuple<tla::seq<>, tla::seq<>, tla::seq<0, 1>, tla::seq<2, 2>, tla::seq<3>>;
    using EVT =
        Epilogue::Fusion::TopologicalVisitor<Edges, VisitorAccLoad<half>, AuxLoad<half>,
                                             VisitorCompute<Epilogue::Fusion::Plus, half>,
                                             VisitorCompute<Epilogue::Fusion::Plus, half>, AuxStore<half>>;
    std::vector<Buffer> b = seed000_buffers(s, 5);
    b.push_back({"X", integers(DType::f16, size_t(s.m) * s.n, -5, 5, 3), false});
    b.push_back({"D", sentinel(DType::f16, size_t(s.m) * s.n), true});
    const LayoutC ld{s.m, s.n};
    return seed000_case<EVT, TwiceSum, CL>(
        "Seed000_34_Topo", s, b,
        [&](const Pointers& p) {
            return typename EVT::Arguments{{}, {gm(p, "X"), ld}, {}, {}, {gm(p, "D"), ld}};
        },
        [&](const Pointers& p) {
            return AddArgs<half>{gm(p, "X"), gm(p, "D"), s.n};
        });
}

template <Broadcast KIND>
struct ReduceGraph;
template <>
struct ReduceGraph<Broadcast::row> {
    using Reduce = Epilogue::Fusion::VisitorRowReduce<Epilogue::Fusion::Plus, float, layout::RowMajor>;
    using Bcast = Epilogue::Fusion::VisitorRowBroadcast<half, layout::RowMajor>;
    static constexpr const char* kExample = "Seed000_35_RowBroadcastReduce";
    static constexpr const char* kIn = "row";
    static constexpr const char* kOut = "rowOut";
};
template <>
struct ReduceGraph<Broadcast::col> {
    using Reduce = Epilogue::Fusion::VisitorColReduce<Epilogue::Fusion::Plus, float, layout::RowMajor>;
    using Bcast = Epilogue::Fusion::VisitorColBroadcast<half, layout::RowMajor>;
    static constexpr const char* kExample = "Seed000_35_ColBroadcastReduce";
    static constexpr const char* kIn = "col";
    static constexpr const char* kOut = "colOut";
};
template <>
struct ReduceGraph<Broadcast::scalar> {
    using Reduce = Epilogue::Fusion::VisitorScalarReduce<Epilogue::Fusion::Plus, float, layout::RowMajor>;
    using Bcast = Epilogue::Fusion::VisitorScalarBroadcast<half, layout::RowMajor>;
    static constexpr const char* kExample = "Seed000_35_ScalarBroadcastReduce";
    static constexpr const char* kIn = "scalar";
    static constexpr const char* kOut = "sumOut";
};

template <Broadcast KIND, uint32_t CL>
Comparison example35(const Shape& s) {
    using G = ReduceGraph<KIND>;
    using EVT = TreeVisitor<
        typename G::Reduce,
        TreeVisitor<VisitorCast<float, half>,
                    TreeVisitor<AuxStore<half>, TreeVisitor<VisitorCompute<Epilogue::Fusion::Plus, half>,
                                                            VisitorAccLoad<half>, typename G::Bcast>>>>;
    const bool scalar = KIND == Broadcast::scalar;
    std::vector<Buffer> b = seed000_buffers(s, scalar ? 1 : 5);
    // The broadcast operand and the reduce output's shape: 1 x n (row), m x 1 (col), 1 x 1 (scalar).
    const uint32_t in_rows = KIND == Broadcast::col ? s.m : 1, in_cols = KIND == Broadcast::row ? s.n : 1;
    b.push_back({G::kIn, integers(DType::f16, size_t(in_rows) * in_cols, scalar ? -1 : -5, scalar ? 1 : 5, 3),
                 false});
    b.push_back({"D", sentinel(DType::f16, size_t(s.m) * s.n), true});
    b.push_back({G::kOut, HostTensor(DType::f32, size_t(in_rows) * in_cols), true});
    const LayoutC ld{s.m, s.n};
    const layout::RowMajor lv{in_rows, in_cols};
    return seed000_case<EVT, BroadcastReduce<KIND>, CL>(
        G::kExample, s, b,
        [&](const Pointers& p) {
            return typename EVT::Arguments{{{{{}, {gm(p, G::kIn), lv}, {}}, {gm(p, "D"), ld}}, {}},
                                           {gm(p, G::kOut), lv, 0.0f}};
        },
        [&](const Pointers& p) {
            return ReduceArgs{gm(p, G::kIn), gm(p, "D"), gm(p, G::kOut), s.n};
        });
}

// ---- seed 003 (float, BasicMatmulTlaVisitor / BasicMatmulTlaUbVisitor) ------------------------------------

template <class ArchTag>
constexpr const char* arch_name() {
    return std::is_same_v<ArchTag, Arch::Ascend950> ? "Ascend950" : "AtlasA2";
}

std::vector<Buffer> seed003_buffers(const Shape& s, bool dyadic_data) {
    const size_t a = size_t(s.m) * s.k, bsz = size_t(s.k) * s.n;
    return {{"A", dyadic_data ? dyadic(DType::f32, a, 1) : integers(DType::f32, a, -5, 5, 1), false},
            {"B", dyadic_data ? dyadic(DType::f32, bsz, 2) : integers(DType::f32, bsz, -5, 5, 2), false}};
}

template <class ArchTag, class EVG, class Body, bool USE_UB, uint32_t CL_>
Comparison seed003_case(const std::string& example, const Shape& s, const std::vector<Buffer>& buffers,
                        const std::function<typename EVG::Arguments(const Pointers&)>& evg_args,
                        const std::function<typename Body::Arguments(const Pointers&)>& hand_args) {
    constexpr uint32_t cl = compute_length<EVG, ArchTag, USE_UB>(CL_);
    using EvgEpilogue =
        Epilogue::Block::BlockEpilogue<Epilogue::EpilogueVisitor<USE_UB>, ArchTag, tla::Int<cl>, EVG, float>;
    using HandEpilogue = HandBlockEpilogue<ArchTag, float, USE_UB, cl, Body>;
    const GemmCoord shape{s.m, s.n, s.k};
    const std::string config = fmt::format("{}_float_{}_CL{}", arch_name<ArchTag>(), shape_name(s),
                                           CL_ ? std::to_string(CL_) : "max");
    return compare(
        example, config, cl, ArchTag::EVG_ARCH, buffers,
        [&](const Pointers& p, graph::Graph& described) {
            const typename EVG::Arguments args = evg_args(p);
            described = graph::describe<EVG>(args, names_of(p));
            return launch_tla<ArchTag, EvgEpilogue, USE_UB>(shape, gm(p, "A"), gm(p, "B"), gm(p, "D"), args);
        },
        [&](const Pointers& p) {
            return launch_tla<ArchTag, HandEpilogue, USE_UB>(shape, gm(p, "A"), gm(p, "B"), gm(p, "D"),
                                                             hand_args(p));
        },
        [&](const graph::Graph& g) {
            return problem_of(arch_name<ArchTag>(), s, "float", "float", cl, USE_UB, g);
        });
}

template <class ArchTag, uint32_t CL, bool USE_UB>
Comparison seed003_add(const Shape& s) {
    using Dispatch = Epilogue::EpilogueVisitor<USE_UB>;
    using Layout = decltype(tla::MakeLayout<float, layout::RowMajor>(1u, 1u));
    using EVG = TreeVisitor<Epilogue::Fusion::VisitorAuxStore<float, Layout>,
                            TreeVisitor<VisitorCompute<Epilogue::Fusion::Add, float>,
                                        VisitorAccLoad<float, Dispatch::USE_UB_WORKSPACE>,
                                        Epilogue::Fusion::VisitorAuxLoad<float, Layout>>>;
    std::vector<Buffer> b = seed003_buffers(s, false);
    b.push_back({"D", integers(DType::f32, size_t(s.m) * s.n, -5, 5, 3), true});  // X, pre-copied into D
    const auto ld = tla::MakeLayout<float, layout::RowMajor>(s.m, s.n);
    return seed003_case<ArchTag, EVG, AddAux<float>, USE_UB, CL>(
        USE_UB ? "Seed003_AddUb" : "Seed003_Add", s, b,
        [&](const Pointers& p) {
            return typename EVG::Arguments{{{}, {gm(p, "D"), ld}, {}}, {gm(p, "D"), ld}};
        },
        [&](const Pointers& p) {
            return AddArgs<float>{gm(p, "D"), gm(p, "D"), s.n};
        });
}

template <class ArchTag, uint32_t CL, Unary FN, template <class> class Fn, class... Scalars>
Comparison seed003_unary(const Shape& s, const char* example,
                         const typename VisitorCompute<Fn, float, Scalars...>::Arguments& compute_args) {
    using Layout = decltype(tla::MakeLayout<float, layout::RowMajor>(1u, 1u));
    using EVG = TreeVisitor<Epilogue::Fusion::VisitorAuxStore<float, Layout>,
                            TreeVisitor<VisitorCompute<Fn, float, Scalars...>, VisitorAccLoad<float>>>;
    std::vector<Buffer> b = seed003_buffers(s, true);
    b.push_back({"D", sentinel(DType::f32, size_t(s.m) * s.n), true});
    const auto ld = tla::MakeLayout<float, layout::RowMajor>(s.m, s.n);
    return seed003_case<ArchTag, EVG, UnaryBody<FN>, false, CL>(
        example, s, b,
        [&](const Pointers& p) {
            return typename EVG::Arguments{{{}, compute_args}, {gm(p, "D"), ld}};
        },
        [&](const Pointers& p) {
            return UnaryArgs{gm(p, "D"), s.n};
        });
}

template <class ArchTag, uint32_t CL>
Comparison seed003_tanh(const Shape& s) {
    using Layout = decltype(tla::MakeLayout<float, layout::RowMajor>(1u, 1u));
    using Edges = tla::tuple<tla::seq<>, tla::seq<0>, tla::seq<1>, tla::seq<2>, tla::seq<3>, tla::seq<4>,
                             tla::seq<4>, tla::seq<5, 6>, tla::seq<7>>;
    using namespace Epilogue::Fusion;
    using EVG = TopologicalVisitor<
        Edges, VisitorAccLoad<float>, VisitorCompute<Mins, float, float>, VisitorCompute<Maxs, float, float>,
        VisitorCompute<Muls, float, float>, VisitorCompute<Exp, float>, VisitorCompute<Adds, float, float>,
        VisitorCompute<Adds, float, float>, VisitorCompute<Div, float>, VisitorAuxStore<float, Layout>>;
    std::vector<Buffer> b = seed003_buffers(s, true);
    b.push_back({"D", sentinel(DType::f32, size_t(s.m) * s.n), true});
    const auto ld = tla::MakeLayout<float, layout::RowMajor>(s.m, s.n);
    return seed003_case<ArchTag, EVG, UnaryBody<Unary::tanh>, false, CL>(
        "Seed003_Tanh", s, b,
        [&](const Pointers& p) {
            return typename EVG::Arguments{{},        {{8.8f}}, {{-8.8f}}, {{2.0f}},        {},
                                           {{-1.0f}}, {{1.0f}}, {},        {gm(p, "D"), ld}};
        },
        [&](const Pointers& p) {
            return UnaryArgs{gm(p, "D"), s.n};
        });
}

template <class ArchTag, uint32_t CL>
Comparison seed003_bias(const Shape& s) {
    using Layout = decltype(tla::MakeLayout<float, layout::RowMajor>(1u, 1u));
    using EVG = TreeVisitor<Epilogue::Fusion::VisitorAuxStore<float, Layout>,
                            TreeVisitor<VisitorCompute<Epilogue::Fusion::Add, float>, VisitorAccLoad<float>,
                                        Epilogue::Fusion::VisitorRowBroadcast<float, Layout>>>;
    std::vector<Buffer> b = seed003_buffers(s, false);
    b.push_back({"bias", integers(DType::f32, s.n, -5, 5, 3), false});
    b.push_back({"D", sentinel(DType::f32, size_t(s.m) * s.n), true});
    const auto ld = tla::MakeLayout<float, layout::RowMajor>(s.m, s.n);
    const auto lb = tla::MakeLayout<float, layout::RowMajor>(1u, s.n);
    return seed003_case<ArchTag, EVG, Bias, false, CL>(
        "Seed003_Bias", s, b,
        [&](const Pointers& p) {
            return typename EVG::Arguments{{{}, {gm(p, "bias"), lb}, {}}, {gm(p, "D"), ld}};
        },
        [&](const Pointers& p) {
            return BiasArgs{gm(p, "bias"), gm(p, "D"), s.n};
        });
}

// ---- quantised matmul example 12 (int8 A/B, int32 C; quant_matmul_test.cpp) -------------------------------
// D = half(Mul3(float(C), float(scale[j]), float(perTokenScale[i]))): on AtlasA2 through MatmulVisitor (seed
// 000 host code), on Ascend950 through BasicMatmulTlaVisitor (seed 003 host code). The data are the quant
// test's: A, B integers in [-16, 16], the scales uniform(0, 1) in half, so D is compared bit for bit.

template <class LayoutD, class LayoutScale, class LayoutPerToken>
using QuantEvt = TreeVisitor<
    Epilogue::Fusion::VisitorAuxStore<half, LayoutD>,
    TreeVisitor<VisitorCast<half, float>,
                TreeVisitor<VisitorCompute<Epilogue::Fusion::Mul3, float>,
                            TreeVisitor<VisitorCast<float, int32_t>, VisitorAccLoad<int32_t>>,
                            TreeVisitor<VisitorCast<float, half>,
                                        Epilogue::Fusion::VisitorRowBroadcast<half, LayoutScale>>,
                            TreeVisitor<VisitorCast<float, half>,
                                        Epilogue::Fusion::VisitorColBroadcast<half, LayoutPerToken>>>>>;

template <class ArchTag>
inline constexpr bool kIsAtlasA2 = std::is_same_v<ArchTag, Arch::AtlasA2>;

// The layouts of D, scale and perTokenScale: layout::RowMajor on the L1 kernel, tla layouts on the TLA one.
template <class ArchTag>
using QuantLayout = std::conditional_t<kIsAtlasA2<ArchTag>, layout::RowMajor,
                                       decltype(tla::MakeLayout<half, layout::RowMajor>(1u, 1u))>;

template <class ArchTag>
QuantLayout<ArchTag> quant_layout(uint32_t rows, uint32_t cols) {
    if constexpr (kIsAtlasA2<ArchTag>) {
        return layout::RowMajor{rows, cols};
    } else {
        return tla::MakeLayout<half, layout::RowMajor>(rows, cols);
    }
}

template <class ArchTag, uint32_t CL_>
Comparison quant12(const Shape& s) {
    using L = QuantLayout<ArchTag>;
    using EVT = QuantEvt<L, L, L>;
    constexpr uint32_t cl = compute_length<EVT, ArchTag, false>(CL_);
    using HandEpilogue = HandBlockEpilogue<ArchTag, int32_t, false, cl, QuantScale>;
    const GemmCoord shape{s.m, s.n, s.k};
    const std::string config = fmt::format("{}_int8_{}_CL{}", arch_name<ArchTag>(), shape_name(s),
                                           CL_ ? std::to_string(CL_) : "max");
    const std::vector<Buffer> buffers{{"A", integers(DType::i8, size_t(s.m) * s.k, -16, 16, 1), false},
                                      {"B", integers(DType::i8, size_t(s.k) * s.n, -16, 16, 2), false},
                                      {"scale", uniform(DType::f16, s.n, 0.0, 1.0, 3), false},
                                      {"perTokenScale", uniform(DType::f16, s.m, 0.0, 1.0, 4), false},
                                      {"D", sentinel(DType::f16, size_t(s.m) * s.n), true}};
    auto launch = [&shape](const Pointers& p, const auto& args, auto epilogue) {
        using Epi = typename decltype(epilogue)::type;
        if constexpr (kIsAtlasA2<ArchTag>) {
            return launch_l1<Epi, int8_t, int32_t>(shape, gm(p, "A"), gm(p, "B"), args);
        } else {
            return launch_tla<ArchTag, Epi, false, int8_t, int32_t>(shape, gm(p, "A"), gm(p, "B"), gm(p, "D"),
                                                                    args);
        }
    };
    using EvgEpilogue = std::conditional_t<
        kIsAtlasA2<ArchTag>,
        Epilogue::Block::BlockEpilogue<Epilogue::EpilogueAtlasA2Visitor,
                                       Gemm::GemmType<int32_t, layout::RowMajor>, tla::Int<cl>, EVT>,
        Epilogue::Block::BlockEpilogue<Epilogue::EpilogueVisitor<false>, ArchTag, tla::Int<cl>, EVT,
                                       int32_t>>;
    return compare(
        "QuantMatmul_12", config, cl, ArchTag::EVG_ARCH, buffers,
        [&](const Pointers& p, graph::Graph& described) {
            const typename EVT::Arguments args{
                {{{{}, {}},                                                       // Cast(AccLoad)
                  {{gm(p, "scale"), quant_layout<ArchTag>(1, s.n)}, {}},          // Cast(RowBroadcast)
                  {{gm(p, "perTokenScale"), quant_layout<ArchTag>(s.m, 1)}, {}},  // Cast(ColBroadcast)
                  {}},                                                            // Compute<Mul3>
                 {}},                                                             // Cast<half, float>
                {gm(p, "D"), quant_layout<ArchTag>(s.m, s.n)}};                   // AuxStore
            described = graph::describe<EVT>(args, names_of(p));
            return launch(p, args, std::type_identity<EvgEpilogue>{});
        },
        [&](const Pointers& p) {
            const QuantArgs args{gm(p, "scale"), gm(p, "perTokenScale"), gm(p, "D"), s.n};
            return launch(p, args, std::type_identity<HandEpilogue>{});
        },
        [&](const graph::Graph& g) {
            return problem_of(arch_name<ArchTag>(), s, "int8", "int32", cl, false, g);
        });
}

// The examples' five shapes (host_code.hpp's EVG_EXAMPLE_CASES): (shape, CL; 0 = the seed's own choice).
template <template <uint32_t> class Fn>
void add_shapes(std::vector<CaseSpec>& out, const std::string& example, const std::string& prefix) {
    auto add = [&](const Shape& s, uint32_t cl, auto run) {
        out.push_back({example,
                       fmt::format("{}_{}_CL{}", prefix, shape_name(s), cl ? std::to_string(cl) : "max"),
                       [s, run] { return run(s); }});
    };
    add({65, 100, 40}, 256, [](const Shape& s) { return Fn<256>::run(s); });
    add({1, 100, 40}, 256, [](const Shape& s) { return Fn<256>::run(s); });
    add({65, 1, 40}, 256, [](const Shape& s) { return Fn<256>::run(s); });
    add({40, 100, 40}, 32, [](const Shape& s) { return Fn<32>::run(s); });
    add({65, 100, 40}, 0, [](const Shape& s) { return Fn<0>::run(s); });
}

// Example 12's shapes: the examples' shapes with N = 128 and K = 64 (multiples of 32 int8 elements), as
// quant_matmul_test.cpp's passing case m65_n128_k64; the examples' own shapes (N = 100 or 1) hit the int8
// BlockMmad's N-tail bug (conformance/examples/README.md, "Known failures") and N = 1 has no such analogue.
template <class ArchTag>
void add_quant_shapes(std::vector<CaseSpec>& out) {
    auto add = [&](const Shape& s, uint32_t cl, auto run) {
        out.push_back({"QuantMatmul_12",
                       fmt::format("{}_int8_{}_CL{}", arch_name<ArchTag>(), shape_name(s),
                                   cl ? std::to_string(cl) : "max"),
                       [s, run] { return run(s); }});
    };
    add({65, 128, 64}, 256, [](const Shape& s) { return quant12<ArchTag, 256>(s); });
    add({1, 128, 64}, 256, [](const Shape& s) { return quant12<ArchTag, 256>(s); });
    add({40, 128, 64}, 32, [](const Shape& s) { return quant12<ArchTag, 32>(s); });
    add({65, 128, 64}, 0, [](const Shape& s) { return quant12<ArchTag, 0>(s); });
}

// Adapters from the example functions to add_shapes' Fn<CL>::run.
template <uint32_t CL>
struct E32 {
    static Comparison run(const Shape& s) { return example32<CL>(s); }
};
template <uint32_t CL>
struct E33 {
    static Comparison run(const Shape& s) { return example33<CL>(s); }
};
template <uint32_t CL>
struct E34 {
    static Comparison run(const Shape& s) { return example34<CL>(s); }
};
template <uint32_t CL>
struct E35Row {
    static Comparison run(const Shape& s) { return example35<Broadcast::row, CL>(s); }
};
template <uint32_t CL>
struct E35Col {
    static Comparison run(const Shape& s) { return example35<Broadcast::col, CL>(s); }
};
template <uint32_t CL>
struct E35Scalar {
    static Comparison run(const Shape& s) { return example35<Broadcast::scalar, CL>(s); }
};
template <class ArchTag>
struct On {
    template <uint32_t CL>
    struct Add {
        static Comparison run(const Shape& s) { return seed003_add<ArchTag, CL, false>(s); }
    };
    template <uint32_t CL>
    struct AddUb {
        static Comparison run(const Shape& s) { return seed003_add<ArchTag, CL, true>(s); }
    };
    template <uint32_t CL>
    struct LeakyRelu {
        static Comparison run(const Shape& s) {
            return seed003_unary<ArchTag, CL, Unary::leaky_relu, Epilogue::Fusion::LeakyRelu, float>(
                s, "Seed003_LeakyRelu", {{0.1f}});
        }
    };
    template <uint32_t CL>
    struct Sigmoid {
        static Comparison run(const Shape& s) {
            return seed003_unary<ArchTag, CL, Unary::sigmoid, Epilogue::Fusion::Sigmoid>(s, "Seed003_Sigmoid",
                                                                                         {});
        }
    };
    template <uint32_t CL>
    struct Silu {
        static Comparison run(const Shape& s) {
            return seed003_unary<ArchTag, CL, Unary::silu, Epilogue::Fusion::Silu>(s, "Seed003_Silu", {});
        }
    };
    template <uint32_t CL>
    struct Tanh {
        static Comparison run(const Shape& s) { return seed003_tanh<ArchTag, CL>(s); }
    };
    template <uint32_t CL>
    struct Bias {
        static Comparison run(const Shape& s) { return seed003_bias<ArchTag, CL>(s); }
    };
};
using A2 = On<Arch::AtlasA2>;
using A950 = On<Arch::Ascend950>;

std::vector<CaseSpec> make_cases() {
    std::vector<CaseSpec> c;
    add_shapes<E32>(c, "Seed000_32_Add", "AtlasA2_half");
    add_shapes<E33>(c, "Seed000_33_Cast", "AtlasA2_half");
    add_shapes<E34>(c, "Seed000_34_Topo", "AtlasA2_half");
    add_shapes<E35Row>(c, "Seed000_35_RowBroadcastReduce", "AtlasA2_half");
    add_shapes<E35Col>(c, "Seed000_35_ColBroadcastReduce", "AtlasA2_half");
    add_shapes<E35Scalar>(c, "Seed000_35_ScalarBroadcastReduce", "AtlasA2_half");
    add_shapes<A950::Add>(c, "Seed003_Add", "Ascend950_float");
    add_shapes<A2::Add>(c, "Seed003_Add", "AtlasA2_float");
    add_shapes<A950::AddUb>(c, "Seed003_AddUb", "Ascend950_float");
    add_shapes<A950::LeakyRelu>(c, "Seed003_LeakyRelu", "Ascend950_float");
    add_shapes<A2::LeakyRelu>(c, "Seed003_LeakyRelu", "AtlasA2_float");
    add_shapes<A950::Sigmoid>(c, "Seed003_Sigmoid", "Ascend950_float");
    add_shapes<A950::Silu>(c, "Seed003_Silu", "Ascend950_float");
    add_shapes<A2::Silu>(c, "Seed003_Silu", "AtlasA2_float");
    add_shapes<A950::Tanh>(c, "Seed003_Tanh", "Ascend950_float");
    add_shapes<A950::Bias>(c, "Seed003_Bias", "Ascend950_float");
    add_shapes<A2::Bias>(c, "Seed003_Bias", "AtlasA2_float");
    add_quant_shapes<Arch::AtlasA2>(c);
    add_quant_shapes<Arch::Ascend950>(c);
    return c;
}

}  // namespace

const std::vector<CaseSpec>& all_cases() {
    static const std::vector<CaseSpec> cases = make_cases();
    return cases;
}

bool is_headline(const std::string& config) {
    return config.find("_m65_n100_k40_") != std::string::npos ||
           config.find("_int8_m65_n128_k64_") != std::string::npos;
}

}  // namespace evg::hand_fused
