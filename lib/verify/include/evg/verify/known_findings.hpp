// Known findings: the findings a run may report without failing, because a document explains them (upstream
// Catlass's, docs/upstream-findings.md). One parser and one matcher, used by `evgcheck run-program --known`
// and by the tests of upstream's kernels. Each entry counts its matches, so that a run can list the entries
// that matched nothing (as the sanitizers list the suppressions they used): an entry nobody needs any more is
// seen.
//
// The file, one entry per line ('#' at the start of a line or after a blank starts a comment; the comment
// is kept as the entry's note):
//
//     [<tags>] <kind> <place> [<-> <place>]
//
// A <place> is where an instruction of the finding was issued:
//
//     <file>:<line>        at that line
//     <file>: <text>       in <file>, on a line whose text (blanks at both ends dropped, runs of blanks read
//                          as one) begins with <text>
//
// <kind> is a finding kind of lib/hw's table (violation_kinds.def), <file> a file name without folders. The
// text form survives the edits of a file that move its lines (Catlass versions differ so), and a call written
// over several lines is named by its first line's text. With one place the entry matches a finding whose
// first instruction was issued there. With two (`<->`) it matches a finding of two instructions issued at the
// two places, in either order: a race names the pair in issue order, and which of two pipes' instructions was
// issued first is the schedule's choice, not the finding's.
//
// <tags>, in brackets and separated by commas, say when the entry holds (the table kTags in
// known_findings.cpp):
//     drawn          no example program reaches the finding; drawn graphs or kernel configurations do (the
//                    tests of the examples do not require the entry to match)
//     stores-a-load  the entry matches only in a run whose graph stores a load's buffer directly (the caller
//                    says so: graph::known_hazard), so that the same pair of instructions racing in any other
//                    graph is still a finding
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace evg::hw {
struct Violation;
}

namespace evg::verify {

// A place an entry names.
struct KnownPlace {
    std::string file;   // "tile_mmad.hpp"
    uint32_t line = 0;  // the <file>:<line> form; 0 in the text form
    std::string text;   // the text form: the start of the line's text, blanks normalised
    // Whether an instruction issued at `site` ("tile_mmad.hpp:148") on a line reading `normalised_text`
    // (normalise_source_text) is at this place.
    bool holds(std::string_view site, std::string_view normalised_text) const;
};

// The conditions a caller says hold for a run (the `stores-a-load` tag's).
struct RunConditions {
    bool stores_a_load = false;  // the run's graph stores a load's buffer directly (graph::known_hazard)
};

struct KnownFinding {
    std::string kind;                // "race"
    KnownPlace at;                   // the (first) place
    std::optional<KnownPlace> with;  // the other instruction's place (`<->`), when the entry names two
    bool drawn = false;              // tag `drawn`: no example program reaches it
    bool stores_a_load = false;      // tag `stores-a-load`: only in a run whose graph stores a load
    std::string where;               // the entry's own place: "known_findings.txt:7"
    std::string spelling;            // the entry as written, without its comment
    std::string note;                // its comment ("4": the section of docs/upstream-findings.md)
    uint64_t hits = 0;               // findings it matched so far
    // Whether the entry's tags let it match in a run under `run`.
    bool applies(const RunConditions& run) const { return !stores_a_load || run.stores_a_load; }
};

class KnownFindings {
  public:
    // Parses a file's text; `name` names it in messages. A malformed line throws evg::Error naming
    // `name:line`, the rule it breaks and the line.
    static KnownFindings parse(std::string_view text, std::string_view name);
    // Reads and parses a file; evg::Error when it cannot be read.
    static KnownFindings read(const std::string& path);

    // The entry a finding matches, its hit count raised; nullptr when none. `site` is the finding's first
    // location ("tile_mmad.hpp:148"), `source` the text of that line (hw::Location::source): only entries of
    // one place can match it.
    const KnownFinding* match(std::string_view kind, std::string_view site, std::string_view source,
                              const RunConditions& run = {});
    // The same for a violation: an entry of one place by its first location, an entry of two places by its
    // first two locations in either order.
    const KnownFinding* match(const hw::Violation& v, const RunConditions& run = {});

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
