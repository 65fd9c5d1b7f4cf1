// Sites: their short form, and the text of their line read from the source file (for findings that name a
// line by its text: evg/verify/known_findings.hpp).
#include "evg/hw/site.hpp"

#include <fmt/format.h>

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

}  // namespace evg::hw
