#include <fmt/format.h>

#include "problem_options.hpp"

#include <string>

#include "evg/hw/arch.hpp"

namespace evgcheck {

Overrides read_overrides(const Args& args, std::string_view command) {
    const std::string prefix = fmt::format("evgcheck {}: option --", command);
    Overrides o;
    if (const auto arch = args.get("arch")) {
        o.arch = evg::hw::arch_from_name(*arch);
        if (!o.arch) {
            const std::string_view names[] = {"AtlasA2", "Ascend950"};
            std::string msg = prefix + "arch: unknown arch '" + *arch + "'";
            if (const std::string near = closest(*arch, names); !near.empty())
                msg += "; did you mean '" + near + "'?";
            throw UsageError(msg + " (AtlasA2 or Ascend950)");
        }
    }
    if (const auto v = args.integer("m", 1, kMaxDim)) o.m = *v;
    if (const auto v = args.integer("n", 1, kMaxDim)) o.n = *v;
    if (const auto v = args.integer("k", 1, kMaxDim)) o.k = *v;
    if (const auto cl = args.get("compute-length")) {
        if (*cl == "max") {
            o.compute_length_max = true;
        } else {
            const long long v = *args.integer("compute-length", kMinComputeLength, kMaxComputeLength);
            if (v % 32 != 0) {
                throw UsageError(prefix + "compute-length: " + std::to_string(v) +
                                 " is not a multiple of 32 (or write max)");
            }
            o.compute_length = static_cast<uint32_t>(v);
        }
    }
    if (const auto path = args.get("path")) {
        if (*path == "gm") {
            o.path = evg::graph::WorkspacePath::GM;
        } else if (*path == "ub") {
            o.path = evg::graph::WorkspacePath::UB;
        } else {
            throw UsageError(prefix + "path: expected gm or ub, found '" + *path + "'");
        }
    }
    return o;
}

RunLimits read_limits(const Args& args) {
    RunLimits limits;
    if (const auto v = args.integer("max-memory", 1, 1LL << 30))
        limits.max_memory_mib = static_cast<uint64_t>(*v);
    if (const auto v = args.integer("max-work", 1, 1LL << 40))
        limits.max_element_ops = static_cast<double>(*v) * 1e6;
    return limits;
}

}  // namespace evgcheck
