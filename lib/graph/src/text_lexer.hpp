// Splits one line of graph text into tokens with their columns (internal to lib/graph).
#pragma once
#include <string_view>
#include <vector>

namespace evg::graph::detail {

enum class TokenKind { Ident, Number, NodeRef, Punct, End };

struct Token {
    TokenKind kind = TokenKind::End;
    std::string_view text;  // NodeRef includes the '%'; End is empty
    int column = 0;         // 1-based
};

// Tokens of `line` (without its newline), ending with one End token placed after the last character that is
// not part of a comment. Throws ParseError on a character no token can start with.
//   Ident   [A-Za-z_][A-Za-z0-9_]*
//   Number  [+-]?[0-9.][0-9A-Za-z._]* with '+'/'-' allowed right after e/E/p/P   (e.g. 0.1, -2, 1e+20,
//   128x256x256) NodeRef %[0-9]+ Punct   <-  =  :  [  ]  (  )  ,  -  +
std::vector<Token> tokenize_line(std::string_view line, int line_number);

// How a token reads in an error message: 'AuxLod', '%3', or "end of line".
std::string describe(const Token& t);
// A byte of the input as a message shows it: 'x' when printable ASCII, else its hex value and what it is
// (a NUL or a byte >= 0x80 would cut the message or print raw).
std::string show_char(char c);

}  // namespace evg::graph::detail
