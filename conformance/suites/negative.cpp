// Negative conformance: every class of invalid graph must be rejected before it runs, with its documented
// rule id and message (lib/graph/src/validate.cpp, validation_rules()). Pass = the first error of
// validate(problem) (what run_on_model and evgcheck report) has exactly the expected rule and message, and
// run_on_model refuses the problem with that rule. Ids: Negative/<Arch>/<rule>/<name>.
#include <fmt/format.h>

#include "../src/catalogue.hpp"
#include "evg/graph/error.hpp"
#include "evg/graph/run.hpp"
#include "evg/graph/text.hpp"
#include "evg/graph/ub_budget.hpp"
#include "evg/graph/validate.hpp"
#include "evg/hw/numeric/cast_rules.hpp"

namespace evg::conformance::detail {
namespace {

struct Negative {
    const char* name;
    const char* rule;
    const char* message;  // the documented message, exactly
    const char* text;     // a whole problem in the text format
};

const Negative kNegatives[] = {
    {"output-never-written", "output-without-writer",
     "output 'E' is declared but no AuxStore or reduce node writes it (write it, or remove its declaration)",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=256 path=gm tile=32x64x64
output D : float[64, 128]
output E : float[64, 128]
%0 = AccLoad float
%1 = AuxStore float D (%0)
)"},
    {"self-cycle", "cycle", "cycle: %1 Compute Add float uses itself",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=256 path=gm tile=32x64x64
output D : float[64, 128]
%0 = AccLoad float
%1 = Compute Add float (%0, %1)
%2 = AuxStore float D (%1)
)"},
    {"two-node-cycle", "cycle", "cycle: %1 uses %2, %2 uses %1; a node's inputs must be computed before it",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=256 path=gm tile=32x64x64
output D : float[64, 128]
%0 = AccLoad float
%1 = Compute Add float (%0, %2)
%2 = Compute Relu float (%1)
%3 = AuxStore float D (%2)
)"},
    {"input-out-of-range", "bad-input-index",
     "%1 Compute Relu float: input 1 is %7, but the graph has only 3 nodes (%0..%2)",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=256 path=gm tile=32x64x64
output D : float[64, 128]
%0 = AccLoad float
%1 = Compute Relu float (%7)
%2 = AuxStore float D (%1)
)"},
    {"store-two-inputs", "arity", "%2 AuxStore takes exactly 1 input, got 2",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=256 path=gm tile=32x64x64
output D : float[64, 128]
%0 = AccLoad float
%1 = Compute Relu float (%0)
%2 = AuxStore float D (%0, %1)
)"},
    {"add-one-input", "arity", "%1 Compute Add takes at least 2 inputs, got 1",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=256 path=gm tile=32x64x64
output D : float[64, 128]
%0 = AccLoad float
%1 = Compute Add float (%0)
%2 = AuxStore float D (%1)
)"},
    {"compute-mixed-types", "compute-input-dtype",
     "%2 Compute Add float: input 2 (%1) is half; every input must be float (insert a Cast)",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=256 path=gm tile=32x64x64
input X : half[64, 128]
output D : float[64, 128]
%0 = AccLoad float
%1 = AuxLoad half X
%2 = Compute Add float (%0, %1)
%3 = AuxStore float D (%2)
)"},
    {"store-without-cast", "store-dtype",
     "%1 AuxStore half: input %0 is float; insert a Cast to half before the store",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=256 path=gm tile=32x64x64
output D : half[64, 128]
%0 = AccLoad float
%1 = AuxStore half D (%0)
)"},
    {"cast-float-to-bf16-none", "cast-illegal", "",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=256 path=gm tile=32x64x64
output D : bfloat16[64, 128]
%0 = AccLoad float
%1 = Cast bfloat16 <- float CAST_NONE (%0)
%2 = AuxStore bfloat16 D (%1)
)"},
    {"cl-not-multiple-of-32", "compute-length-multiple",
     "computeLength 100 is not a multiple of 32 (BYTE_PER_C0 elements); try 96",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=100 path=gm tile=32x64x64
output D : float[64, 128]
%0 = AccLoad float
%1 = AuxStore float D (%0)
)"},
    {"ub-overflow", "ub-overflow", "",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=16384 path=gm tile=32x64x64
input X : float[64, 128]
output D : float[64, 128]
%0 = AccLoad float
%1 = AuxLoad float X
%2 = Compute Add float (%0, %1)
%3 = AuxStore float D (%2)
)"},
    {"reduce-with-mul", "reduce-functor",
     "%1 RowReduce Mul float: the reduce functor must be Add, Max or Min, not Mul",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=256 path=gm tile=32x64x64
output R : float[1, 128]
%0 = AccLoad float
%1 = RowReduce Mul float R (%0)
)"},
    {"sigmoid-on-atlas-a2", "arch-functor",
     "%1 Compute Sigmoid float: Sigmoid exists only on Ascend950 (CATLASS_ARCH 3510), not on AtlasA2",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=256 path=gm tile=32x64x64
output D : float[64, 128]
%0 = AccLoad float
%1 = Compute Sigmoid float (%0)
%2 = AuxStore float D (%1)
)"},
    {"int8-col-broadcast", "broadcast-dtype",
     "%0 ColBroadcast int8: ColBroadcast fills rows with Duplicate, which does not accept int8 (it accepts "
     "int16, "
     "half, bfloat16, int32, float); broadcast a wider type and Cast",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=256 path=gm tile=32x64x64
input V : int8[64, 1]
output D : int8[64, 128]
%0 = ColBroadcast int8 V
%1 = AuxStore int8 D (%0)
)"},
    {"bf16-add-on-atlas-a2", "bf16-arithmetic",
     "%2 Compute Add bfloat16: AtlasA2 has no bfloat16 arithmetic; cast to float first",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=256 path=gm tile=32x64x64
input X : bfloat16[64, 128]
output D : bfloat16[64, 128]
%0 = AuxLoad bfloat16 X
%1 = AuxLoad bfloat16 X
%2 = Compute Add bfloat16 (%0, %1)
%3 = AuxStore bfloat16 D (%2)
)"},
    {"exp-of-int32", "functor-dtype",
     "%1 Compute Exp int32: Exp does not accept int32 on Ascend950 (it accepts float, half, bfloat16)",
     R"(problem arch=Ascend950 m=64 n=128 k=40 a=half b=half c=float cl=256 path=gm tile=32x64x64
input X : int32[64, 128]
output D : int32[64, 128]
%0 = AuxLoad int32 X
%1 = Compute Exp int32 (%0)
%2 = AuxStore int32 D (%1)
)"},
    {"ub-path-on-atlas-a2", "acc-path",
     "path=ub (BasicMatmulTlaUbVisitor) exists only on Ascend950, not on AtlasA2",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=256 path=ub tile=32x64x64
output D : float[64, 128]
%0 = AccLoad float ub
%1 = AuxStore float D (%0)
)"},
    {"accload-wrong-type", "acc-dtype",
     "%0 AccLoad half: the GEMM result C is float; AccLoad must read float",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=256 path=gm tile=32x64x64
output D : half[64, 128]
%0 = AccLoad half
%1 = AuxStore half D (%0)
)"},
    {"bias-wrong-shape", "tensor-shape",
     "%1 RowBroadcast float reads 'bias' of shape [64, 128]; RowBroadcast needs [1, n] = [1, 128]",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=256 path=gm tile=32x64x64
input bias : float[64, 128]
output D : float[64, 128]
%0 = AccLoad float
%1 = RowBroadcast float bias
%2 = Compute Add float (%0, %1)
%3 = AuxStore float D (%2)
)"},
    {"leaky-relu-without-scalar", "scalar-count", "%1 Compute LeakyRelu float takes 1 scalar, got 0",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=256 path=gm tile=32x64x64
output D : float[64, 128]
%0 = AccLoad float
%1 = Compute LeakyRelu float (%0)
%2 = AuxStore float D (%1)
)"},
    {"cast-to-same-type", "cast-same-type",
     "%1 Cast float <- float: source and destination are both float (no need to cast)",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=256 path=gm tile=32x64x64
output D : float[64, 128]
%0 = AccLoad float
%1 = Cast float <- float CAST_NONE (%0)
%2 = AuxStore float D (%1)
)"},
    {"reduce-of-other-type", "reduce-dtype",
     "%2 ScalarReduce Add half: input %1 is float; insert a Cast to half before the reduce",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=256 path=gm tile=32x64x64
output S : half[1, 1]
output D : float[64, 128]
%0 = AccLoad float
%1 = AuxStore float D (%0)
%2 = ScalarReduce Add half S (%1)
)"},
    {"store-not-reached", "unreachable-store",
     "%1 AuxStore float is not reachable from the root %2, so 'E' would never be written; make the root "
     "depend "
     "on it (a store passes its input on) or remove it",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=256 path=gm tile=32x64x64
output E : float[64, 128]
output D : float[64, 128]
%0 = AccLoad float
%1 = AuxStore float E (%0)
%2 = AuxStore float D (%0)
)"},
    {"store-to-input", "tensor-role", "%1 AuxStore float writes 'X', which is declared as an input",
     R"(problem arch=AtlasA2 m=64 n=128 k=40 a=half b=half c=float cl=256 path=gm tile=32x64x64
input X : float[64, 128]
%0 = AccLoad float
%1 = AuxStore float X (%0)
)"},
};

}  // namespace

void add_negative_cases(std::vector<CaseSpec>& out) {
    for (const Negative& n : kNegatives) {
        graph::Problem p = graph::parse_problem(n.text);
        CaseSpec s;
        s.id = fmt::format("Negative/{}/{}/{}", arch_str(p.arch), n.rule, n.name);
        s.suite = "negative";
        s.node_kind = "Negative";
        s.dtype = "";
        s.arch = arch_str(p.arch);
        s.path = p.path == graph::WorkspacePath::UB ? "ub" : "gm";
        CaseSpec meta = s;
        s.run = [meta, p, rule = std::string(n.rule), message = std::string(n.message)]() {
            CaseResult r = start_result(meta);
            r.graph_text = graph::print(p);
            // Messages that quote another table (cast rules, the UB budget, accepted types) are documented by
            // that table's own function: compose them the same way validate() does.
            std::string want = message;
            if (rule == "cast-illegal")
                want = "%1 Cast bfloat16 <- float: " +
                       hw::cast_rule(p.arch, graph::DType::f32, graph::DType::bf16, hw::RoundMode::CAST_NONE)
                           .reason;
            if (rule == "ub-overflow") want = graph::ub_overflow_message(graph::ub_budget(p), p.arch, p.path);
            r.expected = fmt::format("[{}] {}", rule, want);
            const std::vector<graph::Diagnostic> diags = graph::validate(p);
            const graph::Diagnostic* first = nullptr;
            for (const graph::Diagnostic& d : diags)
                if (d.severity == graph::Severity::Error) {
                    first = &d;
                    break;
                }
            if (first == nullptr) {
                r.message = "accepted: validate() reported no error";
                return r;
            }
            r.message = fmt::format("[{}] {}", first->rule, first->message);
            bool refused = false;
            try {
                (void)graph::run_on_model(p, graph::RunInputs{});
            } catch (const graph::ValidationError& e) {
                refused = e.rule() == rule;
            } catch (const std::exception&) {
            }
            const bool same = first->rule == rule && first->message == want;
            r.status = same && refused ? Status::pass : Status::fail;
            if (same && !refused) r.message += " (but run_on_model did not refuse it with that rule)";
            return r;
        };
        out.push_back(std::move(s));
    }
}

}  // namespace evg::conformance::detail
