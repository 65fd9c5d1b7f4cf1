#include "merged_table.hpp"

#include <sstream>

namespace evg::reports::detail {

namespace {

// The key of a table line: its first two cells.
std::string key_of(const std::string& line) {
    const size_t a = line.find('|', 1);
    if (a == std::string::npos) return {};
    const size_t b = line.find('|', a + 1);
    if (b == std::string::npos) return {};
    return line.substr(0, b);
}

}  // namespace

std::map<std::string, std::string> merged_rows(std::string_view existing, std::string_view header_first_cell,
                                               std::span<const std::string> lines) {
    const std::string header = "| " + std::string(header_first_cell) + " |";
    std::map<std::string, std::string> table;
    std::istringstream in{std::string(existing)};
    std::string line;
    while (std::getline(in, line))
        if (line.starts_with("| ") && !line.starts_with(header)) table[key_of(line)] = line;
    for (const std::string& l : lines) table[key_of(l)] = l;
    return table;
}

}  // namespace evg::reports::detail
