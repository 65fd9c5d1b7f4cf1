// Judge controls, a part of the hazard suite: negative controls for the one judge (lib/verify). Each runs a
// small graph on the model, requires the judge to find the clean run clean, then hands it the same run made
// wrong in one way (a NaN where the oracle has a number, a number where it has a NaN, an infinity, one ULP
// off under a bit-exact comparison, an element never written, a reduction started from a wrong identity, a
// missing output, written padding, a wrong UB peak, an unbalanced flag, an unapplied sync mutation, a
// checker's error, two runs that differ) and requires exactly the finding that rule gives. A judge that lets
// a wrong result pass turns its row red. Every tag of the judge's one table (tags.def) has a control, or the
// build fails. Ids: Hazard/<Arch>/judge_<way>/<graph>.
#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "../src/catalogue.hpp"
#include "evg/graph/run.hpp"
#include "evg/graph/text.hpp"
#include "evg/hw/error.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/verify/compare.hpp"
#include "evg/verify/data.hpp"
#include "evg/verify/judge.hpp"

namespace evg::conformance::detail {
namespace {

using verify::Tag;

// D = C + X into a strided output (8 padding elements per row), 40 x 72 on the 32x64x64 tile: exact data,
// compared bit-exactly.
constexpr const char* kAdd = R"(input  X : float[40, 72]
output D : float[40, 72] stride=80
%0 = AccLoad float
%1 = AuxLoad float X
%2 = Compute Add float (%0, %1)
%3 = AuxStore float D (%2)
)";
constexpr int64_t kAddStride = 80;
// D = Sqrt(C) over mixed-sign C: the oracle holds NaN wherever C < 0.
constexpr const char* kSqrt = R"(output D : float[40, 72]
%0 = AccLoad float
%1 = Compute Sqrt float (%0)
%2 = AuxStore float D (%1)
)";
// R = the largest element of each column of X, over all-negative X (a Max reduction's identity is -inf).
constexpr const char* kColumnMax = R"(input  X : float[40, 72]
output R : float[1, 72]
%0 = AuxLoad float X
%1 = RowReduce Max float R (%0)
)";

// The element (r, c) of a float output, `stride` elements per row.
uint32_t bits_at(const std::vector<uint8_t>& out, int64_t stride, int64_t r, int64_t c) {
    uint32_t b = 0;
    std::memcpy(&b, out.data() + (r * stride + c) * 4, 4);
    return b;
}
void set_bits(std::vector<uint8_t>& out, int64_t stride, int64_t r, int64_t c, uint32_t b) {
    std::memcpy(out.data() + (r * stride + c) * 4, &b, 4);
}

struct Golden {
    const graph::Problem& p;
    const oracle::OracleResult& values;
    const oracle::HostTensor& of(const std::string& tensor) const { return values.outputs.at(tensor); }
};

// Makes a clean run wrong in one way; returns what it did. Throws evg::Error when the data do not allow it
// (the control could not tell), which fails the row.
using Corrupt = std::string (*)(const Golden& golden, graph::ModelRun& run);

struct JudgeControl {
    const char* way;       // the id's and the finding's name: judge:<way>
    Tag tag;               // the judge's rule it proves
    const char* expected;  // exactly what must fire (fired()'s names)
    const char* graph;
    verify::InputSign sign;
    Corrupt corrupt;
    const char* meaning;
};

std::string nan_where_number(const Golden&, graph::ModelRun& run) {
    set_bits(run.outputs.at("D"), kAddStride, 3, 5, 0x7FC00000u);
    return "D[3, 5] := NaN (the oracle has a number)";
}

std::string number_where_nan(const Golden& g, graph::ModelRun& run) {
    const oracle::HostTensor& want = g.of("D");
    for (std::size_t i = 0; i < want.size(); ++i)
        if (std::isnan(static_cast<double>(want.value(i)))) {
            std::vector<uint8_t>& out = run.outputs.at("D");
            const float zero = 0.0f;
            std::memcpy(out.data() + i * 4, &zero, 4);
            return fmt::format("D[{}, {}] := 0 (the oracle has NaN)", i / 72, i % 72);
        }
    throw Error("judge control number-where-nan: the oracle's D holds no NaN, so the control cannot tell");
}

std::string inf_where_number(const Golden&, graph::ModelRun& run) {
    set_bits(run.outputs.at("D"), kAddStride, 8, 9, 0x7F800000u);
    return "D[8, 9] := +inf (the oracle has a number)";
}

std::string one_ulp(const Golden&, graph::ModelRun& run) {
    std::vector<uint8_t>& out = run.outputs.at("D");
    const uint32_t b = bits_at(out, kAddStride, 7, 9);
    set_bits(out, kAddStride, 7, 9, b + 1);  // the next float away from zero (the value is finite)
    return "D[7, 9] one ULP off";
}

std::string unwritten(const Golden&, graph::ModelRun& run) {
    for (int64_t c = 17; c <= 31; ++c)
        set_bits(run.outputs.at("D"), kAddStride, 3, c,
                 static_cast<uint32_t>(verify::sentinel_bits(graph::DType::f32)));
    return "D[3, 17..31] back to the sentinel";
}

std::string padding(const Golden&, graph::ModelRun& run) {
    set_bits(run.outputs.at("D"), kAddStride, 5, 75, 0);
    return "D[5, 75] (padding) := 0";
}

std::string missing(const Golden&, graph::ModelRun& run) {
    run.outputs.erase("D");
    return "D not read back";
}

std::string wrong_identity(const Golden& g, graph::ModelRun& run) {
    const oracle::HostTensor& want = g.of("R");
    std::vector<uint8_t>& out = run.outputs.at("R");
    for (std::size_t i = 0; i < want.size(); ++i) {
        if (!(want.value(i) < 0))
            throw Error(
                "judge control wrong-reduce-identity: the oracle's R is not all negative, so an identity of "
                "0 would not show");
        float got = 0;
        std::memcpy(&got, out.data() + i * 4, 4);
        got = std::max(got, 0.0f);  // what the reduction gives when it starts from 0 instead of -inf
        std::memcpy(out.data() + i * 4, &got, 4);
    }
    return "R as a Max reduction started from 0 instead of -inf";
}

std::string ub_peak(const Golden&, graph::ModelRun& run) {
    run.report.stats.ub_peak -= 32;
    return "the UB peak 32 B lower";
}

std::string flag_balance(const Golden&, graph::ModelRun& run) {
    ++run.report.stats.flag_calls[{0, hw::HardEvent::V_MTE3, 5}].first;
    return "one more SetFlag<V_MTE3>(5) than waits";
}

std::string mutation(const Golden&, graph::ModelRun& run) {
    run.report.mutations_unapplied.push_back("drop-wait core=AIV0.0 n=9999");
    return "a sync mutation that found no sync call";
}

std::string violation(const Golden&, graph::ModelRun& run) {
    run.report.violations.push_back({hw::ViolationKind::race,
                                     hw::Severity::error,
                                     "no WaitFlag<MTE2_V> orders MTE2 write #6 before V read #9",
                                     {},
                                     1});
    return "a race in the report";
}

std::string runs_differ(const Golden&, graph::ModelRun& run) {
    run.outputs.at("D")[(2 * kAddStride + 4) * 4] ^= 0x10;
    return "a second run with D[2, 4] different";
}

constexpr JudgeControl kControls[] = {
    {"nan-where-number", Tag::output_mismatch, "wrong-value", kAdd, verify::InputSign::mixed,
     nan_where_number, "a NaN where the oracle has a number is a wrong value"},
    {"number-where-nan", Tag::output_mismatch, "wrong-value", kSqrt, verify::InputSign::mixed,
     number_where_nan, "a number where the oracle has NaN is a wrong value"},
    {"inf-where-number", Tag::output_mismatch, "wrong-value", kAdd, verify::InputSign::mixed,
     inf_where_number, "an infinity where the oracle has a finite number is a wrong value"},
    {"one-ulp-bit-exact", Tag::output_mismatch, "wrong-value", kAdd, verify::InputSign::mixed, one_ulp,
     "one ULP off is a wrong value where the comparison is bit-exact"},
    {"wrong-reduce-identity", Tag::output_mismatch, "wrong-value", kColumnMax, verify::InputSign::negative,
     wrong_identity, "a reduction started from a wrong identity is a wrong value"},
    {"unwritten-output", Tag::unwritten_output, "unwritten-output", kAdd, verify::InputSign::mixed, unwritten,
     "an output element still holding the sentinel was never written"},
    {"padding-written", Tag::padding_written, "padding-written", kAdd, verify::InputSign::mixed, padding,
     "a padding element between the rows of a strided output must keep the sentinel"},
    {"missing-output", Tag::missing_output, "missing-output", kAdd, verify::InputSign::mixed, missing,
     "an output the graph writes must be read back"},
    {"ub-peak", Tag::ub_peak, "ub-peak", kAdd, verify::InputSign::mixed, ub_peak,
     "the UB peak must equal its exact prediction"},
    {"flag-balance", Tag::flag_balance, "flag-balance", kAdd, verify::InputSign::mixed, flag_balance,
     "SetFlag and WaitFlag must balance per core, event and id"},
    {"mutation-unapplied", Tag::mutation_unapplied, "mutation-unapplied", kAdd, verify::InputSign::mixed,
     mutation, "a requested sync mutation must find its sync call"},
    {"violation", Tag::violation, "race", kAdd, verify::InputSign::mixed, violation,
     "a checker's error in the report is a finding"},
    {"runs-differ", Tag::runs_differ, "runs-differ", kAdd, verify::InputSign::mixed, runs_differ,
     "two runs of one problem must agree bit for bit"},
};

constexpr bool every_tag_has_a_control() {
    for (const Tag t : verify::kTags) {
        bool found = false;
        for (const JudgeControl& c : kControls) found = found || c.tag == t;
        if (!found) return false;
    }
    return true;
}
static_assert(every_tag_has_a_control(),
              "a tag of the judge's table (tags.def) has no judge control: add one to kControls");

CaseResult run_control(const CaseSpec& meta, const JudgeControl& jc, graph::ArchId arch) {
    graph::Problem p;
    p.graph = graph::parse_graph(jc.graph);
    p.arch = arch;
    p.m = 40;
    p.n = 72;
    p.k = 32;
    p.a = p.b = graph::DType::f16;
    p.c = graph::DType::f32;
    p.compute_length = 256;
    p.tile = graph::kRunTiles[2];  // 32x64x64
    const verify::CaseData data = verify::make_case_data(p, verify::DataMode::Exact, 5, jc.sign);
    const graph::RunInputs in = verify::run_inputs(data.inputs);
    graph::RunOptions opt;
    opt.config.arch = arch;
    opt.config.keep_trace = false;  // the judge balances flags from the report's counts
    const graph::ModelRun run = graph::run_on_model(p, in, opt);
    const oracle::OracleResult golden = oracle::evaluate(p, data.inputs);
    verify::JudgeOptions jo;
    jo.exact_data = data.exact_data;

    Measurement m;
    m.result = start_result(meta);
    m.result.graph_text = graph::print(p);
    const verify::Verdict baseline = verify::judge(p, run, golden, jo);
    if (!baseline.clean()) {
        m.result.message =
            "the uncorrupted run is not clean, so the control proves nothing: " + baseline.text();
        return m.result;
    }
    if (std::string_view(jc.way) == "one-ulp-bit-exact" && baseline.outputs.at(0).mode != "bit-exact") {
        m.result.message = "D is compared " + baseline.outputs.at(0).mode + ", not bit-exactly";
        return m.result;
    }
    graph::ModelRun bad = run;
    const std::string what = jc.corrupt(Golden{p, golden}, bad);
    m.verdict = jc.tag == Tag::runs_differ ? verify::compare_runs(p, run, bad, golden, data.exact_data)
                                           : verify::judge(p, bad, golden, jo);
    count_violations(m.result, bad.report.violations);
    const std::vector<std::string> fired_names = fired(m.verdict);
    CaseResult r = judge_exactly(std::move(m), fired_names, jc.expected);
    r.message = what + ": " + r.message;
    return r;
}

}  // namespace

void add_judge_controls(std::vector<CaseSpec>& out) {
    for (const JudgeControl& jc : kControls)
        for (const graph::ArchId arch : hw::kAllArchs) {
            CaseSpec s;
            const std::string graph_name = jc.graph == kAdd    ? "add_strided"
                                           : jc.graph == kSqrt ? "sqrt"
                                                               : "column_max";
            s.id = fmt::format("Hazard/{}/judge_{}/{}", arch_str(arch), jc.way, graph_name);
            s.suite = "hazard";
            s.node_kind = "Judge";
            s.dtype = "float";
            s.arch = arch_str(arch);
            s.path = "gm";
            s.proves = fmt::format("judge:{}", jc.way);
            const CaseSpec meta = s;
            s.run = [meta, &jc, arch]() { return run_control(meta, jc, arch); };
            out.push_back(std::move(s));
        }
}

void add_judge_requirements(std::vector<ControlRequirement>& out) {
    for (const JudgeControl& jc : kControls)
        for (const graph::ArchId arch : hw::kAllArchs)
            out.push_back({fmt::format("judge:{}", jc.way), arch_str(arch), jc.meaning, ""});
}

}  // namespace evg::conformance::detail
