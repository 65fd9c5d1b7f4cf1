// Which Catlass a program or a run checked: the checkout's folder, its git commit when it is a git checkout,
// the version its own files state when they state one, and whether its headers are those of a version
// evgcheck's own tests run (acl/catlass_versions.def). Every report of a Catlass program names it
// (docs/check-your-program.md §6): `evgcheck run-program`, a finding printed by the program itself, the
// conformance report, `evgcheck check --catlass-root`.
#pragma once
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace evg::acl {

// A version of the table (catlass_versions.def).
struct TestedCatlass {
    std::string_view name;    // "v1.6.0", "master"
    std::string_view commit;  // 40 hex digits
    std::string_view date;    // "2026-06-30"
    std::string_view fingerprint;
};
std::span<const TestedCatlass> tested_catlass_versions();

struct CatlassCheckout {
    std::string root;          // absolute
    bool found = false;        // the folder holds include/catlass/catlass.hpp
    std::string git_commit;    // the commit HEAD names; "" when the folder is not a git checkout
    std::string git_tags;      // the tags naming that commit, ", "-separated
    std::string version;       // as the checkout's own files state it; "" when none does
    std::string version_from;  // the file it was read from ("version.info", ...)
    std::string fingerprint;   // FNV-1a 64 over include/catlass and include/tla: each file's path and bytes
    int header_files = 0;      // the files the fingerprint covers
    const TestedCatlass* tested = nullptr;  // the tested version with this fingerprint

    // One line: "<root> (git commit 0dfcf9df, tag v1.6.0; version 1.6.0 from version.info; headers of
    // evgcheck's tested v1.6.0 db93081c)".
    std::string describe() const;
    // A JSON object of the same facts.
    std::string json() const;
};

// Reads the facts of the checkout at `root` (a folder that is not a checkout gives found = false and the
// rest empty). Never throws for what the folder holds: an unreadable file counts as missing.
CatlassCheckout identify_catlass_checkout(const std::filesystem::path& root);

// The files a checkout's version is read from, in the order they are tried, for messages and docs.
inline constexpr std::string_view kCatlassVersionFiles =
    "version.info (Version=...), VERSION, CMakeLists.txt (project(... VERSION ...))";

// The checkout a program was built against: evgcheck_use_catlass (cmake/evgcheck_program.cmake) compiles a
// registration of its CATLASS_ROOT into the program. Returns true, for use in a static initialiser.
bool register_program_catlass_root(const char* root);
// The registered root; nullopt when the program registered none (not built with evgcheck_use_catlass).
std::optional<std::string> program_catlass_root();
// The registered checkout, identified once per registered root (the first call reads the files).
const std::optional<CatlassCheckout>& program_catlass();

// Names the EVG node of instructions upstream's visitors issue ("AuxLoad (deviceX)":
// evg::hw::set_node_namer), from the checkout's fusion file that issued them. kernel_operator.h calls it;
// true, for a static initialiser.
bool register_upstream_node_namer();

}  // namespace evg::acl
