// Known findings: the findings a run may report without failing, because a document explains them (upstream
// Catlass's, docs/upstream-findings.md). One parser and one matcher, used by `evgcheck run-program --known`
// and by the tests of upstream's kernels. Each entry counts its matches, so that a run can list the entries
// that matched nothing (as the sanitizers list the suppressions they used): an entry nobody needs any more is
// seen.
//
// The file, one entry per line ('#' at the start of a line or after a blank starts a comment):
//
//     <kind> <file>:<line>        the finding's first instruction was issued at <file>:<line>
//     <kind> <file>: <text>       ... issued in <file>, on a line whose text (blanks at both ends dropped,
//     runs of
//                                 blanks read as one) begins with <text>
//
// <kind> is a finding kind of lib/hw's table (violation_kinds.def), <file> a file name without folders. The
// second form survives the edits of a file that move its lines (Catlass versions differ so), and a call
// written over several lines is named by its first line's text.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace evg::hw {
struct Violation;
}

namespace evg::verify {

struct KnownFinding {
    std::string kind;      // "race"
    std::string file;      // "tile_mmad.hpp"
    uint32_t line = 0;     // the <file>:<line> form; 0 in the text form
    std::string text;      // the text form: the start of the line's text, blanks normalised
    std::string where;     // the entry's own place: "known_findings.txt:7"
    std::string spelling;  // the entry as written, without its comment
    uint64_t hits = 0;     // findings it matched so far
};

class KnownFindings {
  public:
    // Parses a file's text; `name` names it in messages. A malformed line throws evg::Error naming
    // `name:line`, the rule it breaks and the line.
    static KnownFindings parse(std::string_view text, std::string_view name);
    // Reads and parses a file; evg::Error when it cannot be read.
    static KnownFindings read(const std::string& path);

    // The entry a finding matches, its hit count raised; nullptr when none. `site` is the finding's first
    // location ("tile_mmad.hpp:148"), `source` the text of that line (hw::Location::source).
    const KnownFinding* match(std::string_view kind, std::string_view site, std::string_view source);
    const KnownFinding* match(const hw::Violation& v);

    const std::vector<KnownFinding>& entries() const { return entries_; }
    bool empty() const { return entries_.empty(); }
    // The entries that matched nothing so far.
    std::vector<const KnownFinding*> unmatched() const;
    // "known findings (FILE): N entries; each with its hits", one line per entry, the unmatched ones said so.
    std::string summary() const;

  private:
    std::string name_;
    std::vector<KnownFinding> entries_;
};

// A line's text as the text form compares it: blanks at both ends dropped, each run of blanks one space.
std::string normalise_source_text(std::string_view text);

}  // namespace evg::verify
