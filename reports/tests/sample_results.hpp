// A hand-made result list for the writers' tests: passes on both archs, a not-applicable cell, a planted
// failing case, a negative case and a hazard case.
#pragma once
#include <vector>

#include "evg/reports/report.hpp"

namespace evg::reports::testing {

inline CaseResult make(std::string id, std::string suite, std::string kind, std::string dtype,
                       std::string arch, Status status) {
    CaseResult r;
    r.id = std::move(id);
    r.suite = std::move(suite);
    r.node_kind = std::move(kind);
    r.dtype = std::move(dtype);
    r.arch = std::move(arch);
    r.path = "gm";
    r.status = status;
    r.replay = "build/release/tools/evgcheck conformance --filter '" + r.id + "'";
    r.seconds = 0.25;
    return r;
}

inline std::vector<CaseResult> sample_results() {
    std::vector<CaseResult> v;
    CaseResult a = make("RowBroadcast/AtlasA2/half/tailN33/CL4096", "node", "RowBroadcast", "half", "AtlasA2",
                        Status::pass);
    a.worst_ulp = 0.5;
    a.ub_peak = 49152;
    a.ub_predicted = 49152;
    a.instr_per_tile = 12.5;
    a.events_used = {"V_MTE2", "MTE2_V"};
    v.push_back(a);
    CaseResult b = make("RowBroadcast/AtlasA2/half/noTail/CL256", "node", "RowBroadcast", "half", "AtlasA2",
                        Status::pass);
    b.worst_ulp = 2;
    b.ub_peak = 1024;
    b.instr_per_tile = 30;
    b.events_used = {"MTE3_V"};
    v.push_back(b);
    v.push_back(make("Compute/AtlasA2/bfloat16/Add/CL256", "node", "Compute", "bfloat16", "AtlasA2",
                     Status::not_applicable));
    v.back().message = "bf16 arithmetic is illegal on AtlasA2";
    CaseResult c = make("Cast/Ascend950/half->int8/CAST_RINT/CL256", "node", "Cast", "half->int8",
                        "Ascend950", Status::pass);
    c.ub_peak = 2048;
    v.push_back(c);
    CaseResult f =
        make("Planted/AtlasA2/float/alwaysFails", "node", "Compute", "float", "AtlasA2", Status::fail);
    f.message = "planted: output 3 differs from the oracle by 7 ULP <&>";
    f.worst_ulp = 7;
    f.violations = {{"race", 2}};
    f.graph_text = "n0 = AccLoad\nn1 = Compute Add n0 n0";
    v.push_back(f);
    CaseResult n = make("Negative/cycle", "negative", "Negative", "float", "AtlasA2", Status::pass);
    n.expected = "the graph has a cycle";
    n.message = "the graph has a cycle: n1 -> n2 -> n1";
    v.push_back(n);
    CaseResult h =
        make("Hazard/row_broadcast_no_barrier/AtlasA2", "hazard", "Hazard", "half", "AtlasA2", Status::pass);
    h.expected = "race";
    h.violations = {{"race", 1}};
    v.push_back(h);
    return v;
}

}  // namespace evg::reports::testing
