// A Markdown file of one table that several processes add rows to (ctest runs every case in its own process):
// examples-report.md and hand-fused-report.md. Private to reports/.
#pragma once
#include <map>
#include <span>
#include <string>
#include <string_view>

namespace evg::reports::detail {

// The table's rows after adding `lines` to the file `existing`: every row line of the file (a line starting
// "| " that is not the header, whose first cell is `header_first_cell`), keyed by its first two cells, then
// each of `lines` replacing the row of its key. Sorted by key.
std::map<std::string, std::string> merged_rows(std::string_view existing, std::string_view header_first_cell,
                                               std::span<const std::string> lines);

}  // namespace evg::reports::detail
