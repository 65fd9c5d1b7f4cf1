// A word as a POSIX shell reads it back as itself: unchanged when it is made of letters, digits and
// _-./=:,+@% only, in single quotes otherwise (a quote inside as '\''). Every command line evgcheck prints
// (replay lines, reproducer commands, a report's command) quotes its words with this.
#pragma once
#include <string>
#include <string_view>

namespace evg::process {

std::string shell_quote(std::string_view word);

}  // namespace evg::process
