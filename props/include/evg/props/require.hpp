// How a property fails on a Verdict (lib/verify): RC_FAIL with the verdict's text, and the first finding's
// tag recorded for the runner, whose shrinker keeps a smaller case only when it fails with that same tag (so
// a shrink cannot wander from one fault to another).
#pragma once
#include <optional>
#include <string>

#include "evg/verify/verdict.hpp"

namespace evg::props {

// Passes when `v` is clean; otherwise records the first finding's tag (take_failure_tag) and RC_FAILs with
// `context` (a line saying which run, may be empty) followed by v.text(), which starts with "[tag] ".
void require_clean(const verify::Verdict& v, const std::string& context = {});

// The tag the last failing require_clean of this thread recorded, cleared by the call. A property that fails
// through a bare RC_ASSERT / RC_FAIL records none: the runner tags that failure "assertion", and an exception
// "exception".
std::optional<std::string> take_failure_tag();

}  // namespace evg::props
