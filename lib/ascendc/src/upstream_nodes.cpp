// The EVG node of an instruction that upstream Catlass's visitors issued (they open no NodeScope: evgcheck
// runs them unchanged), read from the Catlass file that issued it.
#include <fmt/format.h>

#include <string>
#include <string_view>
#include <unordered_map>

#include "acl/catlass_checkout.hpp"
#include "evg/hw/call_chain.hpp"
#include "evg/hw/machine.hpp"
#include "evg/hw/memory.hpp"

namespace evg::acl {

namespace {

// Upstream's fusion headers (include/catlass/epilogue/fusion/) and the node kind each one's instructions
// belong to, in the words of the EVG text format (docs/graph-format.md). The framework's own files
// (visitor_impl.hpp, tree_visitor.hpp, topological_visitor.hpp) issue for no one node and are not listed.
struct FusionFile {
    std::string_view file;
    std::string_view kind;
};
constexpr FusionFile kFusionFiles[] = {
    {"visitor_acc_load.hpp", "AccLoad"},   {"visitor_aux_load.hpp", "AuxLoad"},
    {"visitor_aux_store.hpp", "AuxStore"}, {"visitor_row_broadcast.hpp", "RowBroadcast"},
    {"visitor_compute.hpp", "Compute"},    {"operations.hpp", "Compute"},
    {"visitor_cast.hpp", "Cast"},
};

// The kind of the node a fusion file's instructions belong to (`path` is a file of the Catlass checkout):
// empty for a file of no node.
std::string_view fusion_kind_of(std::string_view path) {
    std::string_view f = path;
    if (const size_t slash = f.find_last_of('/'); slash != std::string_view::npos) f.remove_prefix(slash + 1);
    if (path.find("/epilogue/fusion/") == std::string_view::npos) return {};
    for (const FusionFile& ff : kFusionFiles)
        if (ff.file == f) return ff.kind;
    return {};
}

// The kind of the node the file's instructions belong to: empty for a file of no node, or outside the
// program's Catlass checkout.
std::string_view fusion_kind(const evg::hw::Site& site) {
    thread_local std::unordered_map<const char*, std::string_view> kinds;
    if (auto it = kinds.find(site.file); it != kinds.end()) return it->second;
    std::string_view kind;
    if (evg::hw::site_owner(site) == evg::hw::SiteOwner::catlass) kind = fusion_kind_of(site.file);
    kinds.emplace(site.file, kind);
    return kind;
}

// The class of a demangled member function's name: "A<int>::B<C::D>::visit(int) const" -> "A<int>::B<C::D>"
// (the last "::" outside brackets and parentheses before the argument list).
std::string class_of(std::string_view function) {
    int depth = 0;
    size_t last = std::string_view::npos;
    for (size_t i = 0; i < function.size(); ++i) {
        const char ch = function[i];
        if (ch == '<' || ch == '(' || ch == '[') {
            if (ch == '(' && depth == 0) break;
            ++depth;
        } else if (ch == '>' || ch == ')' || ch == ']') {
            --depth;
        } else if (depth == 0 && ch == ':' && i + 1 < function.size() && function[i + 1] == ':') {
            last = i;
            ++i;
        }
    }
    return std::string(last == std::string_view::npos ? function : function.substr(0, last));
}

// The node of an instruction a helper or a user's functor issued for a visitor: the innermost fusion file of
// a visitor on its call chain (operations.hpp holds functors, not visitors: a functor's instruction belongs
// to the Compute visitor that called it).
evg::hw::ChainNode name_node_by_chain(const std::vector<evg::hw::ChainFrame>& frames,
                                      const std::string& gm_buffer) {
    for (const evg::hw::ChainFrame& f : frames) {
        if (f.owner != evg::hw::SiteOwner::catlass) continue;
        const std::string_view kind = fusion_kind_of(f.file);
        if (kind.empty() || f.file.ends_with("/operations.hpp")) continue;
        return {gm_buffer.empty() ? std::string(kind) : fmt::format("{} ({})", kind, gm_buffer),
                fmt::format("{} {}", kind, class_of(f.function))};
    }
    return {};
}

// "AuxLoad (deviceX)": the kind, and the GM buffer the instruction moves (a load's, a store's, a
// broadcast's), which tells nodes of one kind apart; a vector instruction names its operation ("Compute
// (Add)").
std::string name_node(const evg::hw::Instr& in) {
    const std::string_view kind = fusion_kind(in.site);
    if (kind.empty()) return {};
    for (const evg::hw::Access& a : in.accesses)
        if (a.mem && a.mem->kind() == evg::hw::MemKind::GM)
            return fmt::format("{} ({})", kind, a.mem->name());
    if ((kind == "Compute" || kind == "Cast") && in.pipe == evg::hw::Pipe::V)
        return fmt::format("{} ({})", kind, in.op);
    return std::string(kind);
}

}  // namespace

bool register_upstream_node_namer() {
    evg::hw::set_node_namer(name_node);
    evg::hw::set_chain_node_namer(name_node_by_chain);
    return true;
}

}  // namespace evg::acl
