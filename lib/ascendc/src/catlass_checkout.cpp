#include "acl/catlass_checkout.hpp"

#include "evg/hw/site.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <mutex>
#include <regex>
#include <sstream>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>

#include "evg/hw/fnv1a.hpp"

namespace evg::acl {
namespace {

namespace fs = std::filesystem;

constexpr std::array kTested = {
#define EVG_CATLASS_VERSION(name, commit, date, fingerprint) TestedCatlass{name, commit, date, fingerprint},
#include "acl/catlass_versions.def"
};

// "" when the file is missing or unreadable.
std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return {};
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string trim(std::string s) {
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!s.empty() && space(s.back())) s.pop_back();
    size_t i = 0;
    while (i < s.size() && space(s[i])) ++i;
    return s.substr(i);
}

bool is_commit(const std::string& s) {
    return s.size() == 40 && std::all_of(s.begin(), s.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

// The git folder of a checkout: `.git` itself, or where a worktree's `.git` file points.
fs::path git_dir(const fs::path& root) {
    fs::path git = root / ".git";
    std::error_code ec;
    if (fs::is_regular_file(git, ec)) {
        const std::string line = trim(read_file(git));
        if (line.rfind("gitdir: ", 0) != 0) return {};
        git = fs::path(line.substr(8));
        if (git.is_relative()) git = root / git;
    }
    return fs::is_directory(git, ec) ? git : fs::path();
}

// The commit HEAD names (a detached HEAD, a loose ref or a packed one), and the tags naming it (loose and
// packed, annotated ones by their peeled commit).
void read_git(const fs::path& root, CatlassCheckout& c) {
    const fs::path git = git_dir(root);
    if (git.empty()) return;
    // A worktree's refs live in the common folder.
    fs::path common = git;
    if (const std::string cd = trim(read_file(git / "commondir")); !cd.empty())
        common = fs::path(cd).is_relative() ? git / cd : fs::path(cd);
    const std::string head = trim(read_file(git / "HEAD"));
    const std::string packed = read_file(common / "packed-refs");
    std::string commit;
    if (head.rfind("ref: ", 0) != 0) {
        commit = head;
    } else {
        const std::string ref = head.substr(5);
        commit = trim(read_file(common / ref));
        std::istringstream lines(packed);
        for (std::string line; commit.empty() && std::getline(lines, line);)
            if (line.size() > 41 && line.substr(41) == ref) commit = line.substr(0, 40);
    }
    if (!is_commit(commit)) return;
    c.git_commit = commit;
    std::vector<std::string> tags;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(common / "refs" / "tags", ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (!it->is_regular_file(ec)) continue;
        if (trim(read_file(it->path())) == commit)
            tags.push_back(fs::relative(it->path(), common / "refs" / "tags", ec).generic_string());
    }
    std::istringstream lines(packed);
    std::string last_tag;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind('^', 0) == 0) {  // the commit an annotated tag of the line before peels to
            if (!last_tag.empty() && line.substr(1, 40) == commit) tags.push_back(last_tag);
            continue;
        }
        last_tag.clear();
        if (line.size() > 51 && line.compare(41, 10, "refs/tags/") == 0) {
            if (line.substr(0, 40) == commit)
                tags.push_back(line.substr(51));
            else
                last_tag = line.substr(51);
        }
    }
    std::sort(tags.begin(), tags.end());
    tags.erase(std::unique(tags.begin(), tags.end()), tags.end());
    for (const std::string& t : tags) c.git_tags += (c.git_tags.empty() ? "" : ", ") + t;
}

// The version the checkout's own files state, tried in kCatlassVersionFiles' order.
void read_version(const fs::path& root, CatlassCheckout& c) {
    static const std::regex info(R"(^\s*[Vv]ersion\s*[=:]\s*([^\s#]+))");
    std::istringstream lines(read_file(root / "version.info"));
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (std::regex_search(line, m, info)) {
            c.version = m[1];
            c.version_from = "version.info";
            return;
        }
    }
    if (std::string v = trim(read_file(root / "VERSION")); !v.empty()) {
        c.version = v.substr(0, v.find_first_of("\r\n"));
        c.version_from = "VERSION";
        return;
    }
    static const std::regex project(R"(project\s*\([^)]*\bVERSION\s+([0-9][0-9A-Za-z.\-]*))",
                                    std::regex::icase);
    const std::string cmake = read_file(root / "CMakeLists.txt");
    std::smatch m;
    if (std::regex_search(cmake, m, project)) {
        c.version = m[1];
        c.version_from = "CMakeLists.txt";
    }
}

// Every regular file under include/catlass and include/tla, by path relative to include/, in byte order of
// the path; each contributes its path, a NUL, its size, a NUL and its bytes.
void fingerprint(const fs::path& root, CatlassCheckout& c) {
    std::vector<std::string> files;
    std::error_code ec;
    for (const char* top : {"catlass", "tla"}) {
        for (auto it = fs::recursive_directory_iterator(root / "include" / top, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
            if (it->is_regular_file(ec))
                files.push_back(fs::relative(it->path(), root / "include", ec).generic_string());
        ec.clear();
    }
    std::sort(files.begin(), files.end());
    hw::Fnv1a64 h;
    for (const std::string& f : files) {
        const std::string bytes = read_file(root / "include" / f);
        h.add(f)
            .add(std::string_view("\0", 1))
            .add(std::to_string(bytes.size()))
            .add(std::string_view("\0", 1));
        h.add(bytes);
    }
    c.fingerprint = h.hex();
    c.header_files = static_cast<int>(files.size());
    for (const TestedCatlass& t : kTested)
        if (t.fingerprint == c.fingerprint) c.tested = &t;
}

struct Registration {
    std::mutex mutex;
    std::optional<std::string> root;
};
Registration& registration() {
    static Registration r;
    return r;
}

}  // namespace

std::span<const TestedCatlass> tested_catlass_versions() {
    return kTested;
}

CatlassCheckout identify_catlass_checkout(const fs::path& root) {
    CatlassCheckout c;
    std::error_code ec;
    fs::path abs = fs::weakly_canonical(fs::absolute(root, ec), ec);
    if (ec) abs = fs::absolute(root, ec);
    c.root = abs.string();
    c.found = fs::is_regular_file(abs / "include" / "catlass" / "catlass.hpp", ec);
    if (!c.found) return c;
    read_git(abs, c);
    read_version(abs, c);
    fingerprint(abs, c);
    return c;
}

std::string CatlassCheckout::describe() const {
    if (!found) return fmt::format("{} (not a Catlass checkout: no include/catlass/catlass.hpp)", root);
    std::string git = git_commit.empty() ? std::string("not a git checkout")
                                         : fmt::format("git commit {}{}", git_commit.substr(0, 12),
                                                       git_tags.empty() ? "" : ", tag " + git_tags);
    const std::string version_text = version.empty()
                                         ? std::string("no version file")
                                         : fmt::format("version {} from {}", version, version_from);
    const std::string match =
        tested ? fmt::format("headers of {} {}, a version evgcheck's tests run", tested->name,
                             tested->commit.substr(0, 8))
               : fmt::format("headers match no version evgcheck's tests run (fingerprint {})", fingerprint);
    return fmt::format("{} ({}; {}; {})", root, git, version_text, match);
}

std::string CatlassCheckout::json() const {
    nlohmann::json j{{"root", root},
                     {"found", found},
                     {"git_commit", git_commit},
                     {"git_tags", git_tags},
                     {"version", version},
                     {"version_from", version_from},
                     {"fingerprint", fingerprint},
                     {"header_files", header_files},
                     {"tested_version", tested ? std::string(tested->name) : std::string()},
                     {"tested_commit", tested ? std::string(tested->commit) : std::string()},
                     {"description", describe()}};
    return j.dump();
}

bool register_program_catlass_root(const char* root) {
    Registration& r = registration();
    std::lock_guard lock(r.mutex);
    r.root = root ? root : "";
    // Its library (include/: catlass/ and tla/) is Catlass's code, not the user's, for the findings that name
    // the user's line first (site.hpp); its examples are programs, as the user's own are.
    if (root && *root)
        evg::hw::register_code_dir(std::string(root) + "/include", evg::hw::SiteOwner::catlass);
    return true;
}

std::optional<std::string> program_catlass_root() {
    Registration& r = registration();
    std::lock_guard lock(r.mutex);
    return r.root;
}

const std::optional<CatlassCheckout>& program_catlass() {
    // Identified once for the registered root; a registration after the first call (a test's) counts.
    static std::optional<CatlassCheckout> checkout;
    static std::optional<std::string> identified_root;
    static bool identified = false;
    static std::mutex mutex;
    std::lock_guard lock(mutex);
    const std::optional<std::string> root = program_catlass_root();
    if (!identified || root != identified_root) {
        checkout = root ? std::optional(identify_catlass_checkout(*root)) : std::nullopt;
        identified_root = root;
        identified = true;
    }
    return checkout;
}

}  // namespace evg::acl
