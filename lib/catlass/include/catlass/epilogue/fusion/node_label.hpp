// Which graph node the machine names in a finding: the EVG framework (TreeVisitor, TopologicalVisitor,
// VisitorImpl's begin/end hooks) runs each node's callbacks inside an evg::ascendc::NodeScope labelled with
// the node's type, shortened for a reader: namespaces dropped, template arguments that are themselves
// templates (layouts) elided as "...": "VisitorAuxStore<half, ...>", "VisitorCompute<Add, float>". Composite
// ops (a TreeVisitor or TopologicalVisitor nested as an op) get no scope of their own: their nodes name
// themselves.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "ascendc/evg_node_scope.hpp"
#include "catlass/catlass.hpp"

namespace Catlass::Epilogue::Fusion {

namespace detail {

// The compiler's spelling of T, from the signature it prints for this function: GCC "... [with T = X; ...]",
// clang "... [T = X]".
template <class T>
constexpr std::string_view pretty_type_name() {
    return __PRETTY_FUNCTION__;
}

inline std::string_view type_in_signature(std::string_view sig) {
    const size_t at = sig.find("T = ");
    if (at == std::string_view::npos) return sig;
    const size_t begin = at + 4;
    int depth = 0;
    size_t i = begin;
    for (; i < sig.size(); ++i) {
        const char c = sig[i];
        if (c == '<' || c == '(' || c == '[' || c == '{') ++depth;
        if (c == '>' || c == ')' || c == ']' || c == '}') {
            if (depth == 0) break;
            --depth;
        }
        if (c == ';' && depth == 0) break;
    }
    return sig.substr(begin, i - begin);
}

inline bool identifier_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Drops every qualifier ("a::b::", "(anonymous namespace)::", "{anonymous}::") and the space GCC puts
// between closing angle brackets.
inline std::string drop_qualifiers(std::string_view name) {
    std::string out;
    for (size_t i = 0; i < name.size(); ++i) {
        if (name.compare(i, 2, "::") == 0) {
            if (!out.empty() && (out.back() == ')' || out.back() == '}')) {  // an anonymous namespace
                const char open = out.back() == ')' ? '(' : '{';
                out.erase(out.rfind(open));
            }
            while (!out.empty() && identifier_char(out.back())) out.pop_back();
            ++i;
            continue;
        }
        if (name[i] == ' ' && i + 1 < name.size() && name[i + 1] == '>') continue;
        out += name[i];
    }
    return out;
}

// Replaces each top-level template argument that holds a template argument list of its own by "...".
inline std::string elide_nested_arguments(const std::string& name) {
    std::string out;
    int depth = 0;
    size_t arg_start = 0;  // in `out`: where the current top-level argument begins
    bool nested = false;
    for (const char c : name) {
        if (c == '<') {
            if (depth == 1) nested = true;
            if (depth++ == 0) {
                out += c;
                arg_start = out.size();
                nested = false;
                continue;
            }
        } else if (c == '>' || (c == ',' && depth == 1)) {
            if (c == '>') --depth;
            if (depth == 0 || (c == ',' && depth == 1)) {
                if (nested) out.replace(arg_start, std::string::npos, out[arg_start] == ' ' ? " ..." : "...");
                out += c;
                arg_start = out.size();
                nested = false;
                continue;
            }
        }
        out += c;
    }
    return out;
}

inline std::string short_type_name(std::string_view pretty) {
    return elide_nested_arguments(drop_qualifiers(type_in_signature(pretty)));
}

// The label of a node of type Op, computed once.
template <class Op>
const std::string& node_label() {
    static const std::string label = short_type_name(pretty_type_name<Op>());
    return label;
}

// TreeVisitor and TopologicalVisitor as ops of another visitor: their own nodes open the scopes.
template <class Op>
constexpr bool is_composite_op() {
    if constexpr (requires { Op::OP_COUNT; })
        return Op::OP_COUNT > 0;
    else
        return false;
}

// Runs f() (a callback of the node Op) with the machine told that Op is the node issuing.
template <class Op, class F>
CATLASS_DEVICE decltype(auto) in_node(F&& f) {
    if constexpr (is_composite_op<Op>()) {
        return std::forward<F>(f)();
    } else {
        const evg::ascendc::NodeScope scope(node_label<Op>());
        return std::forward<F>(f)();
    }
}

}  // namespace detail

}  // namespace Catlass::Epilogue::Fusion
