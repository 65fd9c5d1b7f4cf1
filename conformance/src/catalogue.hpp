// Internal: helpers shared by the suites of the catalogue (conformance/suites/*.cpp).
#pragma once
#include <string>
#include <vector>

#include "evg/conformance/case.hpp"
#include "evg/conformance/model_case.hpp"
#include "evg/graph/graph.hpp"

namespace evg::conformance::detail {

// One run configuration of a node case: a shape with or without tails, a computeLength (0 = the maximum the
// graph fits), the workspace path and a row padding of the M x N (and M x 1) tensors.
struct Config {
    const char* shape;  // "full", "tailN33", "tailM7", "tailM7N33"
    int64_t m, n, k;
    uint32_t cl;  // 0: the maximum
    bool ub;
    int64_t pad;             // extra elements per row of the strided tensors (0: dense)
    bool arch_tile = false;  // the chip's own L1 tile (graph::default_tile) in place of the 32x64x64 one
};

// Shapes on the 32x64x64 L1 tile (two or more blocks each way).
inline constexpr Config kFull{"full", 64, 128, 40, 0, false, 0};
inline constexpr Config kTailN{"tailN33", 64, 97, 40, 32, false, 0};
inline constexpr Config kTailM{"tailM7", 39, 128, 40, 96, false, 8};
inline constexpr Config kTailMN{"tailM7N33", 39, 97, 40, 160, false, 0};
inline constexpr Config kUbFull{"full", 64, 128, 40, 96, true, 0};
inline constexpr Config kUbTail{"tailM7N33", 39, 97, 40, 0, true, 8};
// Ascend950's 256x256 tile on the UB path, with upstream's add_ub computeLength: a C region of 128 KiB an
// AIV, walked in tiles of 30 rows and a last one of 8.
inline constexpr Config kUbArchTile{"full256", 256, 256, 32, 7680, true, 0, true};

std::string arch_str(graph::ArchId a);
std::string dtype_str(graph::DType t);

// Fills m, n, k, arch, path, tile and computeLength (resolving cl = 0 to the maximum) and the AccLoad path;
// resizes the tensors (a dimension other than 1 becomes m or n) and pads the rows of the M x N and M x 1
// tensors by `pad`. Returns the id tail "gm/tailN33/CL32[/stride+8]".
std::string configure(graph::Problem& p, graph::ArchId arch, const Config& cfg);

// A case over `p`: validated when it runs; a validation error of a rule in `na_rules` makes it not applicable
// (with "[rule] message"), any other error fails it; otherwise it runs and is judged as conforming.
CaseSpec model_case(std::string id, std::string suite, std::string node_kind, std::string dtype, ModelCase c,
                    const std::vector<std::string>& na_rules);

// The rules that make a node case not applicable on its (arch, dtype, path).
const std::vector<std::string>& applicability_rules();

void add_node_cases(std::vector<CaseSpec>& out);
void add_composition_cases(std::vector<CaseSpec>& out);
void add_example_cases(std::vector<CaseSpec>& out);
void add_negative_cases(std::vector<CaseSpec>& out);
void add_hazard_cases(std::vector<CaseSpec>& out);
void add_static_composition_cases(std::vector<CaseSpec>& out);
// The hazard suite's controls (checker_controls.cpp, judge_controls.cpp) and the findings they must prove.
void add_checker_controls(std::vector<CaseSpec>& out);
void add_judge_controls(std::vector<CaseSpec>& out);
void add_checker_requirements(std::vector<ControlRequirement>& out);
void add_judge_requirements(std::vector<ControlRequirement>& out);

}  // namespace evg::conformance::detail
