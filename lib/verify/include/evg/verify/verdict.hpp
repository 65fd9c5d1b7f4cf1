// A Verdict: what the judge found wrong with one run, as a list of tagged findings. An empty list is the only
// PASS (`evgcheck run`, the property suite, the conformance catalogue and the seed examples all read it).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace evg::verify {

// What kind of rule a finding breaks, from the one table of the judge's findings (tags.def), in its order:
// the order judge() checks and lists them in.
enum class Tag : uint8_t {
#define EVG_VERIFY_TAG(name, what) name,
#include "evg/verify/tags.def"
};
// Every tag, in the table's order.
inline constexpr Tag kTags[] = {
#define EVG_VERIFY_TAG(name, what) Tag::name,
#include "evg/verify/tags.def"
};

std::string_view tag_name(Tag t);  // "violation", "ub_peak", ... (the enumerator's name)
std::optional<Tag> tag_from_name(std::string_view name);
std::string_view tag_meaning(Tag t);  // when it fires, from the table

struct Finding {
    Tag tag = Tag::violation;
    std::string message;  // one or more lines a user can act on, without the tag
    std::string tensor;   // the output tensor, where the finding is about one
    int node = -1;        // the node that writes it, or -1
    std::string kind;     // violation: hw::violation_kind_name of the checker that fired
};

// How one written output was compared (evidence for reports; the findings say what is wrong).
struct OutputCheck {
    std::string tensor;
    std::string mode;     // oracle::compare_mode_name, "summation bound", or "not compared"
    std::string reason;   // why that rule (oracle::plan_comparison's reason, or the rule's own sentence)
    std::string summary;  // "all 2145 elements match (bit-exact), max 0 ULP", or the mismatch lines
    uint64_t compared = 0, mismatches = 0, max_ulp = 0;
    uint64_t unwritten = 0;  // elements never written (compared as if right; see unwritten_output)
    // NaN and infinite elements of the model's output (the tensor's rows x cols, not its padding), whether
    // or not the oracle expects them: a comparison that passes says nothing of how many there were.
    uint64_t nan = 0, inf = 0;
    bool ok = true;  // no finding about this output
};

// A NaN or an infinity the kernel made from finite values (the machine's checker "fp"), kept by judge() as
// evidence: with an oracle, the comparison decides whether it is the graph's own math.
struct FpBorn {
    std::string kind;     // "fp_nan_born", "fp_inf_born"
    std::string op;       // the instruction: "Exp", "Div"
    std::string site;     // where it was issued, as the report prints it
    std::string message;  // the checker's sentence
};

struct Verdict {
    std::vector<Finding> findings;  // in Tag order; empty: the run conforms
    std::vector<FpBorn> fp_born;    // judge(): the run's born NaN and infinities (a count, not a finding)

    // Evidence, whatever the findings (filled by judge()).
    uint64_t ub_peak = 0, ub_predicted = 0;
    double worst_ulp = 0;  // the largest ULP distance oracle::compare measured
    int not_compared = 0;  // outputs after an overflowing Silu/Sigmoid (overflow_domain_nodes), or
                           // whose values a documented finding decides (values_not_judged)
    std::vector<OutputCheck> outputs;  // every written output compare_outputs looked at, in graph order

    bool clean() const { return findings.empty(); }
    bool has(Tag t) const;
    std::optional<Tag> first_tag() const;
    void add(Tag t, std::string message, std::string tensor = {}, int node = -1);
    // One block per finding: "[tag] first line", further lines indented by two spaces.
    std::string text() const;
};

}  // namespace evg::verify
