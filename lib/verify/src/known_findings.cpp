// The known-findings file: its parser and its matcher (known_findings.hpp).
#include "evg/verify/known_findings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "evg/hw/error.hpp"
#include "evg/hw/report.hpp"

namespace evg::verify {

namespace {

bool blank(char c) {
    return c == ' ' || c == '\t' || c == '\r';
}

// The line without its comment: '#' at the start or after a blank.
std::string_view without_comment(std::string_view line) {
    for (size_t i = 0; i < line.size(); ++i)
        if (line[i] == '#' && (i == 0 || blank(line[i - 1]))) return line.substr(0, i);
    return line;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && blank(s.back())) s.remove_suffix(1);
    return s;
}

bool known_kind(std::string_view kind) {
    return std::any_of(std::begin(hw::kViolationKinds), std::end(hw::kViolationKinds),
                       [&](hw::ViolationKind k) { return hw::violation_kind_name(k) == kind; });
}

std::string kind_list() {
    std::string out;
    for (hw::ViolationKind k : hw::kViolationKinds)
        out += (out.empty() ? "" : ", ") + std::string(hw::violation_kind_name(k));
    return out;
}

// "file.hpp:148" -> ("file.hpp", 148); line 0 when `site` has no line.
std::pair<std::string_view, uint32_t> split_site(std::string_view site) {
    const size_t colon = site.rfind(':');
    if (colon == std::string_view::npos) return {site, 0};
    uint32_t line = 0;
    for (const char c : site.substr(colon + 1)) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return {site, 0};
        line = line * 10 + static_cast<uint32_t>(c - '0');
    }
    return {site.substr(0, colon), line};
}

// The tags an entry may carry (known_findings.hpp).
constexpr std::string_view kTagDrawn = "drawn";
constexpr std::string_view kTagStoresALoad = "stores-a-load";

}  // namespace

std::string normalise_source_text(std::string_view text) {
    text = trim(text);
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        if (blank(c) || c == '\n') {
            if (!out.empty() && out.back() != ' ') out += ' ';
        } else {
            out += c;
        }
    }
    return out;
}

namespace {

// One place of an entry: "<file>:<line>" or "<file>: <text>". `malformed` makes the error of a broken rule.
template <class Malformed>
KnownPlace parse_place(std::string_view rest, const Malformed& malformed) {
    KnownPlace p;
    const size_t colon = rest.find(':');
    if (colon == std::string_view::npos || colon == 0)
        throw malformed("the file is not followed by ':' and a line number or a line's text");
    p.file = std::string(rest.substr(0, colon));
    if (p.file.find('/') != std::string::npos)
        throw malformed("the file is named without its folders (sites name the file only)");
    if (p.file.find_first_of(" \t") != std::string::npos) throw malformed("the file name has a blank in it");
    const std::string_view after = rest.substr(colon + 1);
    if (!after.empty() && !blank(after.front())) {  // <file>:<line>
        const auto [file, line_no] = split_site(rest);
        if (line_no == 0)
            throw malformed(
                "after '<file>:' comes a line number (1 or more), or a blank and the line's text");
        p.line = line_no;
    } else {
        p.text = normalise_source_text(after);
        if (p.text.empty()) throw malformed("after '<file>: ' comes the start of the line's text");
    }
    return p;
}

}  // namespace

KnownFindings KnownFindings::parse(std::string_view text, std::string_view name) {
    KnownFindings out;
    out.name_ = std::string(name);
    size_t number = 0;
    for (size_t from = 0; from <= text.size();) {
        const size_t end = std::min(text.find('\n', from), text.size());
        const std::string_view raw = text.substr(from, end - from);
        from = end + 1;
        ++number;
        std::string_view line = trim(without_comment(raw));
        if (line.empty()) continue;
        const std::string where = fmt::format("{}:{}", name, number);
        auto malformed = [&](std::string_view rule) {
            return evg::Error(
                fmt::format("{}: {}: '{}' (an entry is '[<tags>] <kind> <place> [<-> <place>]', a place "
                            "'<file>:<line>' or '<file>: <start of the line's text>')",
                            where, rule, trim(raw)));
        };
        KnownFinding k;
        k.where = where;
        k.spelling = std::string(line);
        k.note = std::string(trim(raw.substr(without_comment(raw).size())));
        if (!k.note.empty()) k.note = std::string(trim(std::string_view(k.note).substr(1)));
        if (line.front() == '[') {
            const size_t close = line.find(']');
            if (close == std::string_view::npos) throw malformed("the tags' '[' has no ']'");
            std::string_view tags = line.substr(1, close - 1);
            for (size_t t = 0; t <= tags.size();) {
                const size_t comma = std::min(tags.find(',', t), tags.size());
                const std::string_view tag = trim(tags.substr(t, comma - t));
                t = comma + 1;
                if (tag == kTagDrawn)
                    k.drawn = true;
                else if (tag == kTagStoresALoad)
                    k.stores_a_load = true;
                else
                    throw malformed(
                        fmt::format("'{}' is not a tag (the tags: {}, {})", tag, kTagDrawn, kTagStoresALoad));
            }
            line = trim(line.substr(close + 1));
        }
        const size_t kind_end = std::min(line.find_first_of(" \t"), line.size());
        k.kind = std::string(line.substr(0, kind_end));
        if (!known_kind(k.kind))
            throw malformed(fmt::format("'{}' is not a finding kind (the kinds: {})", k.kind, kind_list()));
        std::string_view places = trim(line.substr(kind_end));
        if (places.empty()) throw malformed("the kind is not followed by a file");
        const size_t arrow = places.find(" <->");
        k.at =
            parse_place(arrow == std::string_view::npos ? places : trim(places.substr(0, arrow)), malformed);
        if (arrow != std::string_view::npos) {
            const std::string_view other = trim(places.substr(arrow + 4));
            if (other.empty()) throw malformed("'<->' is not followed by a second place");
            k.with = parse_place(other, malformed);
        }
        out.entries_.push_back(std::move(k));
    }
    return out;
}

KnownFindings KnownFindings::read(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw evg::Error(fmt::format("cannot read the known-findings file '{}'", path));
    std::stringstream ss;
    ss << in.rdbuf();
    return parse(ss.str(), path);
}

bool KnownPlace::holds(std::string_view site, std::string_view normalised_text) const {
    const auto [f, l] = split_site(site);
    if (f != file) return false;
    return line != 0 ? line == l : !normalised_text.empty() && normalised_text.starts_with(text);
}

const KnownFinding* KnownFindings::match(std::string_view kind, std::string_view site,
                                         std::string_view source, const RunConditions& run) {
    const std::string text = normalise_source_text(source);
    for (KnownFinding& k : entries_) {
        if (k.kind != kind || k.with || !k.applies(run) || !k.at.holds(site, text)) continue;
        ++k.hits;
        return &k;
    }
    return nullptr;
}

const KnownFinding* KnownFindings::match(const hw::Violation& v, const RunConditions& run) {
    if (v.locations.empty()) return nullptr;
    const std::string_view kind = hw::violation_kind_name(v.kind);
    const hw::Location& first = v.locations[0];
    const std::string first_text = normalise_source_text(first.source);
    const std::string second_text =
        v.locations.size() > 1 ? normalise_source_text(v.locations[1].source) : "";
    for (KnownFinding& k : entries_) {
        if (k.kind != kind || !k.applies(run)) continue;
        bool hit = false;
        if (!k.with) {
            hit = k.at.holds(first.site, first_text);
        } else if (v.locations.size() > 1) {
            const hw::Location& second = v.locations[1];
            hit = (k.at.holds(first.site, first_text) && k.with->holds(second.site, second_text)) ||
                  (k.at.holds(second.site, second_text) && k.with->holds(first.site, first_text));
        }
        if (!hit) continue;
        ++k.hits;
        return &k;
    }
    return nullptr;
}

std::vector<const KnownFinding*> KnownFindings::unmatched() const {
    std::vector<const KnownFinding*> out;
    for (const KnownFinding& k : entries_)
        if (k.hits == 0) out.push_back(&k);
    return out;
}

std::string KnownFindings::summary() const {
    std::string out = fmt::format("known findings ({}): {} entr{}, {} matched nothing\n", name_,
                                  entries_.size(), entries_.size() == 1 ? "y" : "ies", unmatched().size());
    for (const KnownFinding& k : entries_)
        out += k.hits == 0
                   ? fmt::format("  unmatched  {}  ({})\n", k.spelling, k.where)
                   : fmt::format("  {:>9}  {}  ({})\n", fmt::format("{} x", k.hits), k.spelling, k.where);
    return out;
}

}  // namespace evg::verify
