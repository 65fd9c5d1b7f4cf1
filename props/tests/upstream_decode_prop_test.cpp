// The generator's upstream restriction (decode with graph::Implementation::upstream), which the upstream
// corpus draws its instances from: every decoded case is one upstream Catlass can run and one evgcheck
// validates, and the same spec at other m, n, k decodes to the same problem reshaped (graph::with_shape),
// which is what lets one compiled instance run at any shape. Plain properties: RC_ASSERT only.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>

#include "evg/graph/implementation.hpp"
#include "evg/graph/validate.hpp"
#include "evg/props/generators.hpp"

namespace {

using namespace evg;
using namespace evg::props;

std::string error_diagnostics(const graph::Problem& p) {
    std::string errors;
    for (const graph::Diagnostic& d : graph::validate(p))
        if (d.severity == graph::Severity::Error) errors += d.format() + "\n";
    return errors;
}

GenConfig corpus_config() {
    GenConfig cfg;
    cfg.traversal_share = 50;
    cfg.arch_tiles = true;
    return cfg;
}

RC_GTEST_PROP(UpstreamDecode, EveryCaseIsOneUpstreamHasAndValidates, ()) {
    const Spec s = *spec_gen(corpus_config());
    const Case c = decode(s, graph::Implementation::upstream);
    const auto missing = graph::first_missing(graph::Implementation::upstream, c.problem);
    RC_ASSERT(!missing.has_value());
    RC_ASSERT(error_diagnostics(c.problem) == std::string());
}

RC_GTEST_PROP(UpstreamDecode, OtherExtentsDecodeToTheSameProblemReshaped, ()) {
    const Spec s = *spec_gen(corpus_config());
    Spec other = s;
    other.m = *rc::gen::inRange<int64_t>(1, 600);
    other.n = *rc::gen::inRange<int64_t>(1, 600);
    other.k = *rc::gen::inRange<int64_t>(1, 300);
    const Case c = decode(s, graph::Implementation::upstream);
    const Case d = decode(other, graph::Implementation::upstream);
    RC_ASSERT(graph::with_shape(c.problem, d.problem.m, d.problem.n, d.problem.k) == d.problem);
    RC_ASSERT(error_diagnostics(d.problem) == std::string());
}

// The reference implementation keeps every kind: the restriction is upstream's alone.
RC_GTEST_PROP(UpstreamDecode, TheEvgcheckDecodeIsTheDefault, ()) {
    const Spec s = *spec_gen();
    RC_ASSERT(decode(s, graph::Implementation::evgcheck) == decode(s));
}

}  // namespace
