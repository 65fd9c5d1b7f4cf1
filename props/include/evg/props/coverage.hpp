// Coverage you can see (props/README.md, "Coverage"): every case gets tags (node kinds, functors, dtypes,
// round modes, tail or no tail, workspace path, arch, DAG or tree, cols > computeLength, an AIV without rows,
// data mode); a table counts them, prints the distribution, and names every class below its required share.
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "evg/props/spec.hpp"

namespace evg::props {

// "arch:AtlasA2", "path:gm", "kind:Compute", "fn:Add", "dtype:half", "round:CAST_RINT", "shape:tail",
// "shape:no-tail", "graph:dag", "graph:tree", "shape:cols>cl", "shape:aiv-no-rows", "data:exact", ...
std::vector<std::string> tags(const Case& c);

// Tags a case's run adds to its coverage, from what happened rather than what was drawn: judge_case adds
// "born:<op>" for each instruction that made a NaN or an infinity from finite values (the checker fp; the
// oracle decides whether that is the graph's own math). The runner takes them when it records the case.
std::vector<std::string>& case_outcome_tags();

struct Requirement {
    std::string tag;   // a tag, or a prefix ending in ':' meaning every tag of that class seen or listed
    double min_share;  // fraction of cases, e.g. 0.05
};

// The shares the default property run must reach (stated in props/README.md).
std::vector<Requirement> default_requirements();

class Coverage {
  public:
    void record(const Case& c);
    // Counts `tag` once more for the last recorded case (case_outcome_tags).
    void note(const std::string& tag);
    int cases() const { return cases_; }
    int count(const std::string& tag) const;
    // The distribution, one line per tag: "  kind:Compute            812  81.2%".
    std::string table() const;
    // One line per requirement that is not met (empty when all are): "kind:ColReduce 2.1% < 3%".
    std::vector<std::string> unmet(const std::vector<Requirement>& reqs) const;
    // Adds another table's cases and counts (the workers of a run with jobs > 1).
    void merge(const Coverage& other);
    // The counts as text, and back: "cases N" then one "tag<TAB>count" line per tag.
    std::string to_text() const;
    static Coverage from_text(std::string_view text);

  private:
    int cases_ = 0;
    std::map<std::string, int> counts_;
};

}  // namespace evg::props
