// Which compiler built a program's kernel code, and the order in which it evaluated a call's arguments.
//
// C++ leaves the order in which a function's (or a constructor's) arguments are evaluated unspecified.
// Ascend's device compiler (Bisheng, Clang-based) evaluates them left to right; GCC on x86-64 evaluates them
// right to left. Catlass's EVG builds a node's callbacks as the arguments of one constructor call, each
// carving its UB buffer from a shared offset, so where a node's buffers lie in UB (and any finding that
// depends on which buffer follows which) depends on that order (docs/hardware-model.md §18).
// kernel_operator.h registers the compiler of every translation unit that includes it, with the order
// measured in that translation unit, so that every report can say which compiler built the kernel and whether
// its order is the device's.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace evg::acl {

struct KernelCompiler {
    std::string name;            // "clang 14.0.6", "gcc 12.2.0"
    bool left_to_right = false;  // measured: the first argument of a call was evaluated first
    // "clang 14.0.6 (arguments evaluated left to right: Bisheng's order)".
    std::string describe() const;
};

// The text every order-dependent finding carries (docs/hardware-model.md §18), and the order's name.
inline constexpr const char* kOrderDependentText =
    "depends on the order in which the compiler evaluates constructor arguments (unspecified in C++)";
const char* argument_order_name(bool left_to_right);  // "left to right: Bisheng's order", ...
// The label of a finding one order shows and the other does not: kOrderDependentText, then "; under Bisheng's
// order: " and what that order shows (`under_bisheng`: "no finding", or the finding there).
std::string order_dependent_label(std::string_view under_bisheng);

// Registers a translation unit's compiler (kernel_operator.h, in a static initialiser): true.
bool register_kernel_compiler(const char* name, bool left_to_right);
// Every distinct compiler registered, in registration order (more than one when translation units of one
// program were built by different compilers); empty when none included kernel_operator.h.
std::vector<KernelCompiler> program_kernel_compilers();
// One line for reports: "clang 14.0.6 (arguments evaluated left to right: Bisheng's order)", the compilers
// joined by "; " when there are several, or "" when none registered.
std::string describe_kernel_compilers();
// The same as a JSON array of {"name", "argument_order"} objects.
std::string kernel_compilers_json();

}  // namespace evg::acl
