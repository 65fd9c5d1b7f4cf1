#include "acl/kernel_compiler.hpp"

#include "acl/kernel_order.hpp"

#include <mutex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace evg::acl {

namespace {
struct Registry {
    std::mutex mutex;
    std::vector<KernelCompiler> compilers;
};
Registry& registry() {
    static Registry r;
    return r;
}
// The values of "argument_order" in kernel_compilers_json().
constexpr const char* kLeftToRight = "left_to_right";
constexpr const char* kRightToLeft = "right_to_left";
}  // namespace

const char* argument_order_name(bool left_to_right) {
    return left_to_right ? "left to right: Bisheng's order" : "right to left: not Bisheng's order";
}

std::string order_dependent_label(std::string_view under_bisheng) {
    return fmt::format("{}; under Bisheng's order: {}", kOrderDependentText, under_bisheng);
}

std::string KernelCompiler::describe() const {
    return fmt::format("{} (arguments evaluated {})", name, argument_order_name(left_to_right));
}

bool register_kernel_compiler(const char* name, bool left_to_right) {
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    std::string n = name ? name : "";
    while (!n.empty() && n.back() == ' ') n.pop_back();
    for (const KernelCompiler& c : r.compilers)
        if (c.name == n && c.left_to_right == left_to_right) return true;
    r.compilers.push_back({std::move(n), left_to_right});
    return true;
}

std::vector<KernelCompiler> program_kernel_compilers() {
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    return r.compilers;
}

std::string describe_kernel_compilers() {
    std::string out;
    for (const KernelCompiler& c : program_kernel_compilers()) {
        if (!out.empty()) out += "; ";
        out += c.describe();
    }
    return out;
}

std::string kernel_compilers_json() {
    nlohmann::json j = nlohmann::json::array();
    for (const KernelCompiler& c : program_kernel_compilers())
        j.push_back({{"name", c.name},
                     {"argument_order", c.left_to_right ? kLeftToRight : kRightToLeft},
                     {"description", c.describe()}});
    return j.dump();
}

std::optional<bool> in_bishengs_order(std::span<const KernelCompiler> compilers) {
    std::optional<bool> all;
    for (const KernelCompiler& c : compilers) {
        if (all && *all != c.left_to_right) return std::nullopt;
        all = c.left_to_right;
    }
    return all;
}

std::optional<bool> program_in_bishengs_order() {
    return in_bishengs_order(program_kernel_compilers());
}

std::vector<KernelCompiler> kernel_compilers_from_json(std::string_view json) {
    const nlohmann::json j = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
    std::vector<KernelCompiler> out;
    if (!j.is_array()) return out;
    const auto text = [](const nlohmann::json& o, const char* key) {
        const auto it = o.find(key);
        return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    for (const nlohmann::json& c : j) {
        if (!c.is_object()) continue;
        const std::string name = text(c, "name");
        const std::string order = text(c, "argument_order");
        if (name.empty() || (order != kLeftToRight && order != kRightToLeft)) continue;
        out.push_back({name, order == kLeftToRight});
    }
    return out;
}

std::string finding_key(std::string_view kind, std::string_view first_site) {
    return fmt::format("{} at {}", kind, first_site);
}

std::vector<OrderDependentFinding> order_dependent_findings(const FindingsBySite& bisheng,
                                                            const FindingsBySite& other) {
    std::vector<OrderDependentFinding> out;
    for (const auto& [finding, message] : other)
        if (!bisheng.count(finding))
            out.push_back({finding, message, false, order_dependent_label("no finding")});
    for (const auto& [finding, message] : bisheng)
        if (!other.count(finding))
            out.push_back({finding, message, true,
                           order_dependent_label("this finding (the other order shows none at this site)")});
    return out;
}

}  // namespace evg::acl
