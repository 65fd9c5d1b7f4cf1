// Tags and the text of a Verdict (verdict.hpp).
#include "evg/verify/verdict.hpp"

#include <utility>

namespace evg::verify {

std::string_view tag_name(Tag t) {
    switch (t) {
#define EVG_VERIFY_TAG(name, what) \
    case Tag::name:                \
        return #name;
#include "evg/verify/tags.def"
    }
    return "?";
}

std::string_view tag_meaning(Tag t) {
    switch (t) {
#define EVG_VERIFY_TAG(name, what) \
    case Tag::name:                \
        return what;
#include "evg/verify/tags.def"
    }
    return "?";
}

std::optional<Tag> tag_from_name(std::string_view name) {
    for (const Tag t : kTags)
        if (tag_name(t) == name) return t;
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
