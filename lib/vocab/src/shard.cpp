#include "evg/shard.hpp"

#include <charconv>

namespace evg {

namespace {

std::optional<int> whole_number(std::string_view s) {
    int v = 0;
    if (s.empty() || s.size() > 5) return std::nullopt;
    for (const char ch : s)
        if (ch < '0' || ch > '9') return std::nullopt;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

}  // namespace

std::optional<Shard> parse_shard(std::string_view text, std::string& why) {
    std::string quoted = "'";  // built by appending: GCC 12 warns falsely (-Wrestrict) on "'" + std::string
    quoted.append(text);
    quoted += '\'';
    const std::size_t slash = text.find('/');
    const std::optional<int> k =
        slash == std::string_view::npos ? std::nullopt : whole_number(text.substr(0, slash));
    const std::optional<int> n =
        slash == std::string_view::npos ? std::nullopt : whole_number(text.substr(slash + 1));
    if (!k || !n) {
        why = quoted + " is not K/N (shard K of N, e.g. 2/3)";
        return std::nullopt;
    }
    if (*n < 1 || *n > 10000) {
        why = quoted + ": N must be from 1 to 10000";
        return std::nullopt;
    }
    if (*k < 1 || *k > *n) {
        why = quoted + ": K must be from 1 to N (" + std::to_string(*n) + ")";
        return std::nullopt;
    }
    return Shard{*k, *n};
}

}  // namespace evg
