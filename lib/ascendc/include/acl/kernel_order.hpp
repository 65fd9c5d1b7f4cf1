// The judge of whether a program's kernel code was built in Bisheng's order of evaluation
// (docs/hardware-model.md §18): the one rule the corpus, the examples and `run-program --other-order` apply
// to the compilers a program registered (acl/kernel_compiler.hpp), and the reader of the JSON those compilers
// are reported in. Kept apart from kernel_compiler.hpp, which every kernel translation unit includes, because
// only reports need it.
#pragma once
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "acl/kernel_compiler.hpp"

namespace evg::acl {

// true when every compiler evaluates arguments left to right (the device's order), false when every one does
// not; nullopt when there is none, or when translation units were built in both orders.
std::optional<bool> in_bishengs_order(std::span<const KernelCompiler> compilers);
// The same for the compilers this program registered.
std::optional<bool> program_in_bishengs_order();

// The compilers in a kernel_compilers_json() array (a program's EVG_ABOUT record); entries without a name or
// an argument order are left out, and text that is not such an array gives none.
std::vector<KernelCompiler> kernel_compilers_from_json(std::string_view json);

// The findings (errors) of one run, keyed by kind and first site ("operand_overlap at operations.hpp:142"),
// each with its first message: what the two builds of `--other-order` and of the corpus are compared by.
using FindingsBySite = std::map<std::string, std::string>;
std::string finding_key(std::string_view kind, std::string_view first_site);

// A finding one order shows and the other does not, labelled with order_dependent_label.
struct OrderDependentFinding {
    std::string finding;  // the key: "operand_overlap at operations.hpp:142"
    std::string message;  // its message under the order that shows it
    bool under_bisheng;   // Bisheng's order shows it (the other does not)
    std::string label;
};
// The findings one of two runs of the same case shows and the other does not: those of the other order first,
// then those of Bisheng's order, each in key order.
std::vector<OrderDependentFinding> order_dependent_findings(const FindingsBySite& bisheng,
                                                            const FindingsBySite& other);

}  // namespace evg::acl
