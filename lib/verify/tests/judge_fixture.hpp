// A small problem run on the model with verify::make_case_data's data, shared by the judge tests: each test
// plants one fault into a copy of the clean run and checks which finding the judge gives.
#pragma once
#include <string>

#include "evg/graph/run.hpp"
#include "evg/graph/text.hpp"
#include "evg/oracle/evaluate.hpp"
#include "evg/verify/data.hpp"
#include "evg/verify/judge.hpp"

namespace evg::verify::testing {

// D (strided: 8 padding elements per row) = C + X on AtlasA2, 40 x 72 on the 32x64x64 tile (tails both ways).
inline constexpr const char* kStridedAdd =
    "problem arch=AtlasA2 m=40 n=72 k=32 a=half b=half c=float cl=256 path=gm tile=32x64x64\n"
    "input  X : float[40, 72]\n"
    "output D : float[40, 72] stride=80\n"
    "%0 = AccLoad float\n"
    "%1 = AuxLoad float X\n"
    "%2 = Compute Add float (%0, %1)\n"
    "%3 = AuxStore float D (%2)\n";

struct Judged {
    graph::Problem problem;
    CaseData data;
    graph::ModelRun run;
    oracle::OracleResult golden;

    explicit Judged(const std::string& text, DataMode mode = DataMode::Exact, uint64_t seed = 3)
        : problem(graph::parse_problem(text)), data(make_case_data(problem, mode, seed)) {
        graph::RunInputs in;
        for (const auto& [name, t] : data.inputs) {
            const auto* b = reinterpret_cast<const uint8_t*>(t.bytes().data());
            in.tensors[name] = std::vector<uint8_t>(b, b + t.bytes().size());
        }
        run = graph::run_on_model(problem, in);
        golden = oracle::evaluate(problem, data.inputs);
    }
    Verdict judge_run(const graph::ModelRun& r,
                      const std::map<std::string, std::string>& not_judged = {}) const {
        JudgeOptions o;
        o.exact_data = data.exact_data;
        o.values_not_judged = not_judged;
        return judge(problem, r, golden, o);
    }
};

}  // namespace evg::verify::testing
