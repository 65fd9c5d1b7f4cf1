// Tags and the text of a Verdict (verdict.hpp).
#include "evg/verify/verdict.hpp"

#include <array>
#include <utility>

namespace evg::verify {

namespace {

constexpr std::array<std::pair<Tag, std::string_view>, 9> kNames{{
    {Tag::violation, "violation"},
    {Tag::mutation_unapplied, "mutation_unapplied"},
    {Tag::ub_peak, "ub_peak"},
    {Tag::flag_balance, "flag_balance"},
    {Tag::missing_output, "missing_output"},
    {Tag::unwritten_output, "unwritten_output"},
    {Tag::padding_written, "padding_written"},
    {Tag::output_mismatch, "output_mismatch"},
    {Tag::runs_differ, "runs_differ"},
}};

}  // namespace

std::string_view tag_name(Tag t) {
    for (const auto& [tag, name] : kNames)
        if (tag == t) return name;
    return "?";
}

std::optional<Tag> tag_from_name(std::string_view name) {
    for (const auto& [tag, n] : kNames)
        if (n == name) return tag;
    return std::nullopt;
}

bool Verdict::has(Tag t) const {
    for (const Finding& f : findings)
        if (f.tag == t) return true;
    return false;
}

std::optional<Tag> Verdict::first_tag() const {
    if (findings.empty()) return std::nullopt;
    return findings.front().tag;
}

void Verdict::add(Tag t, std::string message, std::string tensor, int node) {
    while (!message.empty() && message.back() == '\n') message.pop_back();
    findings.push_back({t, std::move(message), std::move(tensor), node, {}});
}

std::string Verdict::text() const {
    std::string out;
    for (const Finding& f : findings) {
        out += "[";
        out += tag_name(f.tag);
        out += "] ";
        for (char c : f.message) {
            out += c;
            if (c == '\n') out += "  ";
        }
        out += "\n";
    }
    return out;
}

}  // namespace evg::verify
