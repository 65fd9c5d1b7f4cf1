// Durable failures: a case as graph text plus one header line of run conditions, saved under
// props/regressions/ and replayed as an ordinary gtest case from then on (tests/regressions_test.cpp).
//
//   # evgcheck regression: <property>
//   # case data=exact data_seed=17 cores=2 sched=0
//   problem arch=AtlasA2 m=33 ...
//   ...
#pragma once
#include <filesystem>
#include <string>

#include "evg/props/spec.hpp"

namespace evg::props {

std::string to_text(const Case& c, const std::string& property);
// Parses what to_text writes (the `# case` line is optional: defaults of Case). Throws graph::ParseError.
Case case_from_text(std::string_view text);
// The property named in the header ("" when none).
std::string property_from_text(std::string_view text);

Case load_case(const std::filesystem::path& file);
// Writes <dir>/<property>-<hash of the text>.evg (property '/' -> '_'); returns the path. With
// EVG_PROPS_PLANTED set, the file ends with a `# found with: <hazards>` line.
std::filesystem::path save_case(const Case& c, const std::string& property, const std::filesystem::path& dir);

// The report of a minimal failing case: why it failed, the case summary, the graph text, the C++ from
// emit_cpp in the dialect of the Catlass that ran it, the rapidcheck seed, and a one-line command that
// replays it.
std::string failure_report(const Case& c, const std::string& property, const std::string& reason,
                           uint64_t seed, const std::string& replay_command,
                           graph::Implementation dialect = graph::Implementation::evgcheck);

}  // namespace evg::props
