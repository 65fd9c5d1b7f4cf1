#include <fmt/format.h>

#include "problem_options.hpp"

#include <string>

#include "evg/hw/arch.hpp"
#include "evg/hw/checker.hpp"

namespace evgcheck {

Overrides read_overrides(const Args& args, std::string_view command) {
    const std::string prefix = fmt::format("evgcheck {}: option --", command);
    Overrides o;
    if (const auto arch = args.get("arch")) {
        o.arch = evg::hw::arch_from_name(match_choice(*arch, kArchNames).value_or(*arch));
        if (!o.arch) {
            std::string msg = prefix + "arch: unknown arch '" + *arch + "'";
            if (const std::string near = closest(*arch, kArchNames); !near.empty())
                msg += "; did you mean '" + near + "'?";
            throw UsageError(msg + " (AtlasA2 or Ascend950)");
        }
    }
    if (const auto v = args.integer("m", 1, kMaxDim)) o.m = *v;
    if (const auto v = args.integer("n", 1, kMaxDim)) o.n = *v;
    if (const auto v = args.integer("k", 1, kMaxDim)) o.k = *v;
    if (const auto cl = args.get("compute-length")) {
        constexpr std::string_view kMax[] = {"max"};
        if (match_choice(*cl, kMax)) {
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
    constexpr std::string_view kPaths[] = {"gm", "ub"};
    if (const auto path = args.choice("path", kPaths))
        o.path = *path == "gm" ? evg::graph::WorkspacePath::GM : evg::graph::WorkspacePath::UB;
    return o;
}

std::string read_checks(const Args& args, std::string_view command) {
    const std::optional<std::string> names = args.get("check");
    if (!names) return {};
    evg::hw::CheckerConfig probe;
    try {
        evg::hw::enable_checks(probe, *names);
    } catch (const evg::Error& e) {
        throw UsageError(fmt::format("evgcheck {}: option --check: {}", command, e.what()));
    }
    return *names;
}

std::string read_fp(const Args& args, std::string_view command) {
    const std::optional<std::string> fp = args.get("fp");
    if (!fp) return {};
    try {
        evg::hw::set_process_fp(*fp);
    } catch (const evg::Error& e) {
        throw UsageError(fmt::format("evgcheck {}: option --fp: {}", command, e.what()));
    }
    return *fp;
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
