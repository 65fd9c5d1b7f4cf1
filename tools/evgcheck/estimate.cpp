#include "estimate.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "evg/hw/numeric/types.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/verify/compare.hpp"

namespace evgcheck {

namespace g = evg::graph;

namespace {

double ceil_div(double a, double b) {
    return b <= 0 ? a : std::ceil(a / b);
}

double dtype_bytes(g::DType t) {
    return static_cast<double>(evg::hw::dtype_size(t));
}

}  // namespace

RunEstimate estimate_run(const g::Problem& p, bool keep_trace, bool timeline) {
    constexpr double kModelBytesPerByte = 4;  // data, written flag, race shadow
    constexpr double kOracleEntryBytes = sizeof(long double);
    const double m = static_cast<double>(std::max<int64_t>(p.m, 1));
    const double n = static_cast<double>(std::max<int64_t>(p.n, 1));
    const double k = static_cast<double>(std::max<int64_t>(p.k, 1));
    const double tm = std::max<uint32_t>(p.tile.m, 1), tn = std::max<uint32_t>(p.tile.n, 1),
                 tk = std::max<uint32_t>(p.tile.k, 1);
    const double nodes = static_cast<double>(p.graph.nodes.size());
    const double mp = ceil_div(m, tm) * tm, np = ceil_div(n, tn) * tn, kp = ceil_div(k, tk) * tk;

    double data = m * k * dtype_bytes(p.a) + k * n * dtype_bytes(p.b);
    for (const g::Tensor& t : p.graph.tensors) data += static_cast<double>(g::buffer_bytes(t));
    const double workspace = mp * np * dtype_bytes(p.c);
    RunEstimate e;
    e.keep_trace = keep_trace || timeline;
    e.timeline = timeline;
    const double tiles = ceil_div(m, tm) * ceil_div(n, tn);
    const double cl = std::max<uint32_t>(p.compute_length, 32);
    e.instructions =
        tiles * (ceil_div(k, tk) * (2 + 3 * ceil_div(tk, 32)) + ceil_div(tm * tn, cl) * (3 * nodes + 4) + 4);
    e.element_ops = mp * np * kp + mp * np * nodes;
    e.bytes =
        2 * data + kModelBytesPerByte * (data + workspace) +
        (static_cast<double>(evg::oracle::peak_live_values(p, evg::verify::values_the_judge_reads(p))) + 3) *
            m * n * kOracleEntryBytes +
        kRecordTableBytes +
        (timeline     ? kTimelineBytesPerInstruction
         : keep_trace ? kTraceBytesPerInstruction
                      : 0) *
            e.instructions;
    return e;
}

std::string format_bytes(double bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    while (bytes >= 1024 && u < 6) {
        bytes /= 1024;
        ++u;
    }
    return u == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.3g} {}", bytes, units[u]);
}

void check_limits(const RunEstimate& e, const RunLimits& limits, const std::string& where) {
    const double max_bytes = static_cast<double>(limits.max_memory_mib) * 1024 * 1024;
    if (e.bytes > max_bytes) {
        throw ResourceLimitError(fmt::format(
            "{}: the run would need about {} of memory (estimated from M, N, K, the tensors and the nodes: "
            "the inputs, the model's memories, the oracle's values{}); the limit is {}: raise it with "
            "--max-memory MIB",
            where, format_bytes(e.bytes),
            e.keep_trace ? fmt::format(", and the trace{} of about {:.3g} instructions at {:.0f} B each",
                                       e.timeline ? " with its accesses and times" : "", e.instructions,
                                       e.timeline ? kTimelineBytesPerInstruction : kTraceBytesPerInstruction)
                         : std::string(),
            format_bytes(max_bytes)));
    }
    if (limits.max_element_ops > 0 && e.element_ops > limits.max_element_ops) {
        throw ResourceLimitError(
            fmt::format("{}: the run would take about {:.3g} element operations ({:.3g} instructions, "
                        "estimated from M, N, "
                        "K, the tile, computeLength and the nodes); the limit is {:.3g}: raise it with "
                        "--max-work MILLIONS",
                        where, e.element_ops, e.instructions, limits.max_element_ops));
    }
}

}  // namespace evgcheck
