// Which kernel configurations (graph::KernelConfig: upstream's BlockMmadTla dispatch policy, L0 K and the
// layouts of A and B) upstream Catlass accepts, as one table: each rule with the statement, where upstream or
// the hardware documentation states it, and whether upstream refuses a configuration that breaks it at
// compile time (a static_assert: upstream/kernel_rules/ compiles one breaking configuration per such rule
// against a checkout and requires the refusal) or only documents it. A configuration that breaks a rule is
// never drawn, and `validate` refuses it (rule kernel-config). docs/upstream-coverage.md §1 explains them.
//
// Separately, what evgcheck's model cannot run yet (kernel_config_unmodelled): a configuration upstream
// accepts but whose instructions the model does not execute (AscendC::Mutex, HF32 Mmads). Those are the cells
// a run names as unreachable, never silently left out.
#pragma once
#include <optional>
#include <span>
#include <string>

#include "evg/graph/graph.hpp"

namespace evg::graph {

struct KernelRule {
    const char* id;  // "unit-flag-l0c-stages"
    // The problem keys a message about the rule points at: the first of them the text wrote (else the line).
    SourcePos ProblemKeys::*keys[2];
    const char* statement;  // what a legal configuration satisfies
    const char* source;     // where it is stated: upstream's file and assert, or the documentation
    bool compile_time;      // upstream refuses a breaking configuration with a static_assert
    bool (*holds)(const Problem& p);
    // Makes a problem with the default configuration on Ascend950 (32 x 64 x 64 tile, half A and B, float C)
    // break this rule and no other rule of the table: the rule's example, which the table's test breaks and
    // upstream/kernel_rules/ compiles against a checkout (for a compile-time rule, expecting its
    // static_assert).
    void (*example)(Problem& p);
};

std::span<const KernelRule> kernel_rules();

// The first rule `p`'s kernel configuration breaks, as "<id>: <statement> (<source>); here <why>", or
// nullopt. A problem not on Ascend950 must have the default configuration.
std::optional<std::string> kernel_config_refusal(const Problem& p);

// Why evgcheck's model cannot run a configuration upstream accepts ("" when it can): the instruction it
// reaches that the model does not execute.
std::string kernel_config_unmodelled(const KernelConfig& k);

// The configuration in upstream's dialect: the dispatch policy type, e.g.
// "Catlass::Gemm::MmadPingpong<ArchTag, false, false, 2, true, 2, 2, 2, 2>" (every parameter written).
std::string cpp_dispatch_policy(const KernelConfig& k);
std::string cpp_layout_tag(MatrixLayout l);  // "Catlass::layout::RowMajor" / "...ColumnMajor"

// A short name of the configuration for summaries: "pingpong uf l0c1 s2222 l0k32 A:row B:row", the flags
// present only when on ("uf" unit flag, "res" L1 residency, "hf32").
std::string kernel_config_summary(const KernelConfig& k);

}  // namespace evg::graph
