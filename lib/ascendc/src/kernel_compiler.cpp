#include "acl/kernel_compiler.hpp"

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
                     {"argument_order", c.left_to_right ? "left_to_right" : "right_to_left"},
                     {"description", c.describe()}});
    return j.dump();
}

}  // namespace evg::acl
