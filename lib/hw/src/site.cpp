// Sites: their short form, and the text of their line read from the source file (for findings that name a
// line by its text: evg/verify/known_findings.hpp).
#include "evg/hw/site.hpp"

#include <fmt/format.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <string_view>
#include <vector>

namespace evg::hw {

std::string Site::str() const {
    std::string_view f = file ? file : "";
    auto slash = f.find_last_of('/');
    if (slash != std::string_view::npos) f = f.substr(slash + 1);
    if (f.empty()) return "?";
    return fmt::format("{}:{}", f, line);
}

namespace {
struct CodeDirs {
    std::mutex mutex;
    std::vector<std::pair<std::string, SiteOwner>> dirs;  // lexically normal, ending in '/'
    std::map<const char*, SiteOwner> by_file;             // sites' file pointers are few and stable
};
std::atomic<bool> code_dirs_known{false};
CodeDirs& code_dirs() {
    static CodeDirs d;
    return d;
}
std::string normal_dir(const std::string& path) {
    std::string n = std::filesystem::path(path).lexically_normal().string();
    if (n.empty() || n.back() != '/') n += '/';
    return n;
}
}  // namespace

bool register_code_dir(const std::string& dir, SiteOwner owner) {
    if (dir.empty()) return false;
    CodeDirs& d = code_dirs();
    const std::lock_guard lock(d.mutex);
    // A program's first registration also names the model's own sources (their frames appear in call chains,
    // call_chain.hpp, when the model was built with debug information): evgcheck's, not the user's.
    if (d.dirs.empty()) d.dirs.emplace_back(normal_dir(EVG_SOURCE_LIB_DIR), SiteOwner::evgcheck);
    const std::string n = normal_dir(dir);
    for (const auto& [known, o] : d.dirs)
        if (known == n) return true;
    d.dirs.emplace_back(n, owner);
    d.by_file.clear();
    code_dirs_known.store(true, std::memory_order_relaxed);
    return true;
}

namespace {
// The owner of a normalised path under the registered directories (the caller holds the mutex): the longest
// registered directory holding the file decides (evgcheck's stand-ins inside a Catlass path, say); the
// system's headers and libraries are nobody's; any other file is the user's.
SiteOwner owner_of(const CodeDirs& d, std::string_view path) {
    const std::string file = std::filesystem::path(path).lexically_normal().string();
    SiteOwner owner = SiteOwner::user;
    size_t best = 0;
    for (const auto& [dir, o] : d.dirs)
        if (file.starts_with(dir) && dir.size() > best) {
            best = dir.size();
            owner = o;
        }
    if (best == 0 && (file.starts_with("/usr/include/") || file.starts_with("/usr/lib/") ||
                      file.starts_with("/usr/local/include/")))
        owner = SiteOwner::unknown;
    return owner;
}
}  // namespace

SiteOwner site_owner(const Site& site) {
    CodeDirs& d = code_dirs();
    const std::lock_guard lock(d.mutex);
    if (d.dirs.empty() || !site.file || !*site.file) return SiteOwner::unknown;
    if (auto it = d.by_file.find(site.file); it != d.by_file.end()) return it->second;
    const SiteOwner owner = owner_of(d, site.file);
    d.by_file.emplace(site.file, owner);
    return owner;
}

SiteOwner path_owner(std::string_view path) {
    CodeDirs& d = code_dirs();
    const std::lock_guard lock(d.mutex);
    if (d.dirs.empty() || path.empty()) return SiteOwner::unknown;
    return owner_of(d, path);
}

bool code_dirs_registered() noexcept {
    return code_dirs_known.load(std::memory_order_relaxed);
}

std::string_view site_owner_name(SiteOwner o) {
    switch (o) {
        case SiteOwner::user:
            return "user";
        case SiteOwner::catlass:
            return "catlass";
        case SiteOwner::evgcheck:
            return "evgcheck";
        case SiteOwner::unknown:
            break;
    }
    return "";
}

std::string source_text(const Site& site) {
    if (!site.file || !*site.file || site.line == 0) return {};
    // Each file is read once per process; findings are few, and they name few files.
    static std::mutex mutex;
    static std::map<std::string, std::vector<std::string>, std::less<>> files;
    const std::lock_guard lock(mutex);
    auto it = files.find(std::string_view(site.file));
    if (it == files.end()) {
        std::vector<std::string> lines;
        std::ifstream in(site.file);
        for (std::string l; std::getline(in, l);) lines.push_back(std::move(l));
        it = files.emplace(site.file, std::move(lines)).first;
    }
    if (site.line > it->second.size()) return {};
    std::string_view t = it->second[site.line - 1];
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\r')) t.remove_suffix(1);
    return std::string(t);
}

std::string call_argument_text(const Site& site, std::string_view callee, size_t index) {
    if (callee.empty()) return {};
    // The statement from the site's line on: a call a formatter broke over lines, or one inside a macro whose
    // expansion the compiler places at the macro's line (`ACL_CHECK(\n aclrtMalloc(...));`), goes on below.
    std::string text = source_text(site);
    for (uint32_t more = 1; more <= 3 && text.find(';') == std::string::npos && !text.empty(); ++more) {
        const std::string next = source_text({site.file, site.line + more});
        if (next.empty()) break;
        text += " " + next;
    }
    const std::string_view t = text;
    // The callee as a whole name: "SetFlag" is not found inside "CrossCoreSetFlag".
    auto is_name_char = [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
    };
    for (size_t at = t.find(callee); at != std::string_view::npos; at = t.find(callee, at + 1)) {
        if (at > 0 && is_name_char(t[at - 1])) continue;
        size_t i = at + callee.size();
        if (i < t.size() && t[i] == '<') {  // template arguments, nested ones included
            int depth = 0;
            for (; i < t.size(); ++i) {
                if (t[i] == '<') ++depth;
                if (t[i] == '>' && --depth == 0) break;
            }
            ++i;
        }
        if (i >= t.size() || t[i] != '(') continue;
        // The arguments: split at the commas outside brackets of any kind.
        size_t arg = 0;
        size_t start = i + 1;
        int depth = 0;
        for (size_t j = i + 1; j < t.size(); ++j) {
            const char ch = t[j];
            if (ch == '(' || ch == '[' || ch == '{') ++depth;
            const bool end = (ch == ')' || ch == ']' || ch == '}') && depth-- == 0;
            if (end || (ch == ',' && depth == 0)) {
                if (arg == index) {
                    std::string_view a = t.substr(start, j - start);
                    while (!a.empty() && a.front() == ' ') a.remove_prefix(1);
                    while (!a.empty() && a.back() == ' ') a.remove_suffix(1);
                    return std::string(a);
                }
                if (end) break;
                ++arg;
                start = j + 1;
            }
        }
    }
    return {};
}

}  // namespace evg::hw
