#include "text_lexer.hpp"

#include <fmt/format.h>

#include <cctype>
#include <string>

#include "evg/graph/error.hpp"

namespace evg::graph::detail {
namespace {

bool is_digit(char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}
bool is_alpha(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) != 0;
}
bool is_ident_start(char c) {
    return is_alpha(c) || c == '_';
}
bool is_ident_char(char c) {
    return is_ident_start(c) || is_digit(c);
}

}  // namespace

std::string show_char(char c) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) return fmt::format("'{}'", c);
    if (u == 0) return "byte 0x00 (NUL)";
    if (u >= 0x80) return fmt::format("byte 0x{:02X} (not ASCII; the format is ASCII text)", u);
    return fmt::format("byte 0x{:02X} (a control character)", u);
}

std::vector<Token> tokenize_line(std::string_view line, int line_number) {
    std::vector<Token> out;
    std::size_t i = 0;
    const std::size_t n = line.size();
    auto at = [&](std::size_t k) { return k < n ? line[k] : '\0'; };
    while (i < n) {
        const char c = line[i];
        const int column = static_cast<int>(i) + 1;
        if (c == ' ' || c == '\t' || c == '\r') {
            ++i;
            continue;
        }
        if (c == '#') break;
        const std::size_t start = i;
        if (is_ident_start(c)) {
            while (i < n && is_ident_char(line[i])) ++i;
            out.push_back({TokenKind::Ident, line.substr(start, i - start), column});
            continue;
        }
        const bool signed_number = (c == '-' || c == '+') && (is_digit(at(i + 1)) || at(i + 1) == '.');
        if (is_digit(c) || (c == '.' && is_digit(at(i + 1))) || signed_number) {
            ++i;
            while (i < n) {
                const char d = line[i];
                const char prev = line[i - 1];
                const bool exponent_sign =
                    (d == '+' || d == '-') && (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P');
                if (is_ident_char(d) || d == '.' || exponent_sign)
                    ++i;
                else
                    break;
            }
            out.push_back({TokenKind::Number, line.substr(start, i - start), column});
            continue;
        }
        if (c == '%') {
            ++i;
            if (!is_digit(at(i))) {
                throw ParseError(
                    line_number, static_cast<int>(i) + 1,
                    i < n ? fmt::format("expected a node number after '%' (like %3), found {}",
                                        show_char(line[i]))
                          : std::string("expected a node number after '%' (like %3), found end of line"));
            }
            while (i < n && is_digit(line[i])) ++i;
            out.push_back({TokenKind::NodeRef, line.substr(start, i - start), column});
            continue;
        }
        if (c == '<' && at(i + 1) == '-') {
            i += 2;
            out.push_back({TokenKind::Punct, line.substr(start, 2), column});
            continue;
        }
        if (c == '=' || c == ':' || c == '[' || c == ']' || c == '(' || c == ')' || c == ',' || c == '-' ||
            c == '+') {
            ++i;
            out.push_back({TokenKind::Punct, line.substr(start, 1), column});
            continue;
        }
        throw ParseError(line_number, column, fmt::format("unexpected character {}", show_char(c)));
    }
    // End sits right after the last non-blank character before any comment.
    std::size_t end = i;
    while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\t' || line[end - 1] == '\r')) --end;
    out.push_back({TokenKind::End, {}, static_cast<int>(end) + 1});
    return out;
}

std::string describe(const Token& t) {
    if (t.kind == TokenKind::End) return "end of line";
    return fmt::format("'{}'", t.text);
}

}  // namespace evg::graph::detail
