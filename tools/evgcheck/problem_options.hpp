// The options `run` and `emit` share: the problem overrides (--arch, --m, --n, --k, --compute-length,
// --path), read from parsed Args.
#pragma once
#include <array>

#include "args.hpp"
#include "estimate.hpp"
#include "load.hpp"

namespace evgcheck {

inline constexpr OptionSpec kArchOption{"arch", "AtlasA2|Ascend950", "the chip (overrides the problem line)"};
inline constexpr OptionSpec kMOption{"m", "M", "rows of A and of the output; tensors of M rows follow"};
inline constexpr OptionSpec kNOption{"n", "N", "columns of B and of the output; tensors of N columns follow"};
inline constexpr OptionSpec kKOption{"k", "K", "the GEMM's reduction length"};
inline constexpr OptionSpec kClOption{"compute-length", "N|max",
                                      "elements per UB buffer: a multiple of 32, or the largest that fits"};
inline constexpr OptionSpec kPathOption{"path", "gm|ub",
                                        "GEMM result through a GM workspace or in UB (Ascend950)"};

// --check, shared by `run` and `run-program`: the registry (evg/hw/checker.hpp) knows the names.
inline constexpr OptionSpec kCheckOption{
    "check", "NAME[,NAME]",
    "also run these opt-in checkers: redundant-waits (WaitFlags that order nothing), portable-v-order "
    "(Ascend950 vector steps only its in-order V pipe orders), node-slots (UB bytes written by two EVG "
    "nodes); "
    "docs/checkers.md"};
// The value of --check, validated against the registry ("" without the option).
std::string read_checks(const Args& args, std::string_view command);

// --fp, shared by `run`, `check`, `conformance` and `run-program`: the checker "fp"'s policy.
inline constexpr OptionSpec kFpOption{
    "fp", "graded|warn|error|off",
    "NaN and infinities made from finite values (the checker fp): graded (a program's default: an error when "
    "one reaches GM, else a warning), warn, error, off; with an oracle (run, check, conformance) they are "
    "warnings by default and the comparison decides; docs/checkers.md"};
// The value of --fp, validated and set for this process's launches (evg::hw::set_process_fp); "" without it.
std::string read_fp(const Args& args, std::string_view command);

inline constexpr OptionSpec kMaxMemoryOption{
    "max-memory", "MIB", "refuse a problem whose estimated memory is above this many MiB (default 8192)"};
inline constexpr OptionSpec kMaxWorkOption{
    "max-work", "MILLIONS",
    "refuse a problem whose estimated element operations (GEMM multiply-adds plus node work) are above "
    "this many millions (default: no limit)"};

Overrides read_overrides(const Args& args, std::string_view command);
// --max-memory and --max-work.
RunLimits read_limits(const Args& args);

}  // namespace evgcheck
