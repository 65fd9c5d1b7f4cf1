// Text put into a markup document: the one XML escaping rule of the JUnit files (reports/, check
// --catlass-root) and one reading rule for the JSON reports the project writes and reads back.
#pragma once
#include <string>
#include <string_view>

namespace evg {

// `s` as XML character data or an attribute value: & < > " ' as entities, and the control characters XML 1.0
// forbids (all below 0x20 but tab, newline and carriage return) as spaces.
std::string xml_escape(std::string_view s);

}  // namespace evg
