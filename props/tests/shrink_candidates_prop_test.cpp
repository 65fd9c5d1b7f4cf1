// Every domain shrink of a spec, and every candidate rapidcheck is offered, decodes to a valid problem and is
// strictly different from the spec: shrinking can never leave the space of valid graphs. A plain property:
// RC_ASSERT only, so a failure shrinks and replays like any other.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>

#include "evg/graph/validate.hpp"
#include "evg/props/generators.hpp"

namespace {

using namespace evg;
using namespace evg::props;

std::string validation_errors(const graph::Problem& p) {
    std::string errors;
    for (const graph::Diagnostic& d : graph::validate(p))
        if (d.severity == graph::Severity::Error) errors += d.format() + "\n";
    return errors;
}

RC_GTEST_PROP(Shrinking, EveryCandidateIsValid, ()) {
    const Spec s = *rc::gen::noShrink(spec_gen());
    for (const Spec& t : shrink_candidates(s)) {
        RC_ASSERT(!(t == s));
        RC_ASSERT(validation_errors(decode(t).problem) == std::string());
    }
}

}  // namespace
