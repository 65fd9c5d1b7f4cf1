#include "evg/process/shell_quote.hpp"

namespace evg::process {

std::string shell_quote(std::string_view word) {
    if (!word.empty() &&
        word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-./=:,+@%") ==
            std::string_view::npos)
        return std::string(word);
    std::string out = "'";
    for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

}  // namespace evg::process
