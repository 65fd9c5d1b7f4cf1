// Parsing of graph and problem texts (see text.hpp for the format). Every error names the line and column and
// says what was expected.
#include <fmt/format.h>

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "evg/graph/error.hpp"
#include "evg/graph/text.hpp"
#include "suggest.hpp"
#include "text_lexer.hpp"

namespace evg::graph {
namespace {

using detail::describe;
using detail::Token;
using detail::TokenKind;

constexpr std::array<std::string_view, 8> kDTypeNames = {"float", "half",  "bfloat16", "int8",
                                                         "uint8", "int16", "int32",    "int64"};
constexpr std::array<std::string_view, 7> kRoundModeNames = {
    "CAST_NONE", "CAST_RINT", "CAST_FLOOR", "CAST_CEIL", "CAST_ROUND", "CAST_TRUNC", "CAST_ODD"};
constexpr std::array<std::string_view, 2> kArchNames = {"AtlasA2", "Ascend950"};
constexpr std::array<std::string_view, 18> kProblemKeys = {
    "arch", "m",    "n",         "k",    "a",           "b",      "c",   "cl",       "path",
    "tile", "mmad", "unit_flag", "hf32", "l1_resident", "stages", "l0k", "layout_a", "layout_b"};
constexpr std::array<std::string_view, 3> kLineStarts = {"problem", "input", "output"};

std::vector<std::string_view> kind_names() {
    std::vector<std::string_view> v;
    for (NodeKind k : kAllNodeKinds) v.push_back(node_kind_name(k));
    return v;
}

// Reads the tokens of one line.
class LineParser {
  public:
    LineParser(std::vector<Token> tokens, int line) : tokens_(std::move(tokens)), line_(line) {}

    const Token& peek() const { return tokens_[pos_]; }
    const Token& next() {
        const Token& t = tokens_[pos_];
        if (t.kind != TokenKind::End) ++pos_;
        return t;
    }
    bool at_end() const { return peek().kind == TokenKind::End; }
    bool peek_punct(std::string_view p) const { return peek().kind == TokenKind::Punct && peek().text == p; }
    int line() const { return line_; }

    [[noreturn]] void fail(const Token& at, const std::string& message) const {
        throw ParseError(line_, at.column, message);
    }

    void expect_punct(std::string_view p, std::string_view context) {
        const Token& t = peek();
        if (t.kind != TokenKind::Punct || t.text != p)
            fail(t, fmt::format("expected '{}' {}, found {}", p, context, describe(t)));
        next();
    }

    const Token& expect_ident(std::string_view what) {
        const Token& t = peek();
        if (t.kind != TokenKind::Ident) fail(t, fmt::format("expected {}, found {}", what, describe(t)));
        return next();
    }

    void expect_end(std::string_view after) {
        const Token& t = peek();
        if (t.kind != TokenKind::End)
            fail(t, fmt::format("unexpected {} after {}; expected the end of the line", describe(t), after));
    }

    DType dtype(std::string_view what) {
        const Token& t = expect_ident(what);
        if (auto d = hw::dtype_from_name(t.text)) return *d;
        fail(t,
             fmt::format("unknown element type '{}'{}", t.text, detail::did_you_mean(t.text, kDTypeNames)));
    }

    RoundMode round_mode() {
        const Token& t = next();
        for (RoundMode m : hw::kAllRoundModes)
            if (hw::round_mode_name(m) == t.text) return m;
        fail(t,
             fmt::format("unknown round mode '{}'{}", t.text, detail::did_you_mean(t.text, kRoundModeNames)));
    }

    template <class Int>
    Int integer(const Token& t, std::string_view what) {
        Int v{};
        const char* b = t.text.data();
        const char* e = b + t.text.size();
        if (t.kind != TokenKind::Number) fail(t, fmt::format("expected {}, found {}", what, describe(t)));
        auto [p, ec] = std::from_chars(b, e, v);
        if (ec == std::errc::result_out_of_range)
            fail(t, fmt::format("{} is out of range for {}", t.text, what));
        if (ec != std::errc() || p != e || v < 0)
            fail(t, fmt::format("expected {}, found {}", what, describe(t)));
        return v;
    }

    int node_ref(const Token& t) {
        return integer<int>(Token{TokenKind::Number, t.text.substr(1), t.column}, "a node number");
    }

    double scalar() {
        const Token& first = next();
        bool negative = false;
        const Token* t = &first;
        if (first.kind == TokenKind::Punct && (first.text == "-" || first.text == "+")) {
            negative = first.text == "-";
            t = &next();
        }
        const std::string expected = "a number like 0.1, -2, 1e-3, inf or nan";
        if (t->kind == TokenKind::Ident) {
            if (t->text == "inf" || t->text == "infinity")
                return negative ? -std::numeric_limits<double>::infinity()
                                : std::numeric_limits<double>::infinity();
            if (t->text == "nan")
                return negative ? -std::numeric_limits<double>::quiet_NaN()
                                : std::numeric_limits<double>::quiet_NaN();
            fail(*t, fmt::format("expected {}, found {}", expected, describe(*t)));
        }
        if (t->kind != TokenKind::Number)
            fail(*t, fmt::format("expected {}, found {}", expected, describe(*t)));
        std::string_view s = t->text;
        if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
            negative = s[0] == '-';
            s.remove_prefix(1);
        }
        std::chars_format format = std::chars_format::general;
        if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
            s.remove_prefix(2);
            format = std::chars_format::hex;
        }
        double v = 0;
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, format);
        if (ec != std::errc() || p != s.data() + s.size())
            fail(*t, fmt::format("bad scalar '{}'; expected {}", t->text, expected));
        return negative ? -v : v;
    }

  private:
    std::vector<Token> tokens_;
    std::size_t pos_ = 0;
    int line_;
};

class DocumentParser {
  public:
    explicit DocumentParser(bool want_problem) : want_problem_(want_problem) {}

    void parse(std::string_view text) {
        int line_number = 0;
        std::size_t start = 0;
        while (start <= text.size()) {
            std::size_t end = text.find('\n', start);
            if (end == std::string_view::npos) end = text.size();
            ++line_number;
            parse_line(text.substr(start, end - start), line_number);
            start = end + 1;
        }
        if (want_problem_ && !problem_line_)
            throw ParseError(1, 1, "expected a 'problem' line; the text has none");
    }

    Graph graph() { return std::move(graph_); }
    Problem problem() {
        problem_.graph = std::move(graph_);
        return std::move(problem_);
    }

  private:
    void parse_line(std::string_view text, int line_number) {
        LineParser p(detail::tokenize_line(text, line_number), line_number);
        if (p.at_end()) return;
        const Token& first = p.peek();
        if (first.kind == TokenKind::NodeRef) {
            require_problem_first(p, first);
            parse_node(p);
            return;
        }
        if (first.kind == TokenKind::Ident && first.text == "problem") {
            parse_problem_line(p);
            return;
        }
        if (first.kind == TokenKind::Ident && (first.text == "input" || first.text == "output")) {
            require_problem_first(p, first);
            parse_tensor(p);
            return;
        }
        std::string hint =
            first.kind == TokenKind::Ident ? detail::did_you_mean(first.text, kLineStarts) : "";
        p.fail(first,
               fmt::format("expected '%<n> = <node>', 'input', 'output' or 'problem' at the start of a "
                           "line, found {}{}",
                           describe(first), hint));
    }

    void require_problem_first(const LineParser& p, const Token& t) {
        if (want_problem_ && !problem_line_)
            p.fail(t, "expected the 'problem' line before tensors and nodes");
    }

    void parse_problem_line(LineParser& p) {
        const Token& kw = p.next();
        if (!want_problem_)
            p.fail(kw, "a graph text has no 'problem' line; parse the text as a problem (parse_problem)");
        if (problem_line_)
            p.fail(kw, fmt::format("a second 'problem' line (the first is at line {})", *problem_line_));
        problem_line_ = p.line();
        problem_.pos = SourcePos{p.line(), kw.column};
        std::array<bool, kProblemKeys.size()> seen{};
        bool tile_given = false;
        while (!p.at_end()) {
            const Token& key = p.expect_ident("a key=value pair like m=256");
            std::size_t index = kProblemKeys.size();
            for (std::size_t i = 0; i < kProblemKeys.size(); ++i)
                if (kProblemKeys[i] == key.text) index = i;
            if (index == kProblemKeys.size())
                p.fail(key,
                       fmt::format(
                           "unknown problem key '{}'{} (keys: arch m n k a b c cl path tile; the kernel "
                           "configuration: mmad unit_flag hf32 l1_resident stages l0k layout_a layout_b)",
                           key.text, detail::did_you_mean(key.text, kProblemKeys)));
            if (seen[index]) p.fail(key, fmt::format("problem key '{}' is given twice", key.text));
            seen[index] = true;
            p.expect_punct("=", fmt::format("after '{}'", key.text));
            const std::string_view k = key.text;
            const SourcePos key_pos{p.line(), key.column};
            SourcePos* const slots[] = {
                &problem_.keys.arch, &problem_.keys.m,           &problem_.keys.n,
                &problem_.keys.k,    &problem_.keys.a,           &problem_.keys.b,
                &problem_.keys.c,    &problem_.keys.cl,          &problem_.keys.path,
                &problem_.keys.tile, &problem_.keys.mmad,        &problem_.keys.unit_flag,
                &problem_.keys.hf32, &problem_.keys.l1_resident, &problem_.keys.stages,
                &problem_.keys.l0k,  &problem_.keys.layout_a,    &problem_.keys.layout_b};
            static_assert(sizeof(slots) / sizeof(slots[0]) == kProblemKeys.size(),
                          "one position per problem key");
            *slots[index] = key_pos;
            if (k == "arch") {
                const Token& v = p.expect_ident("an arch name (AtlasA2 or Ascend950)");
                auto a = hw::arch_from_name(v.text);
                if (!a)
                    p.fail(v, fmt::format("unknown arch '{}'{} (AtlasA2 or Ascend950)", v.text,
                                          detail::did_you_mean(v.text, kArchNames)));
                problem_.arch = *a;
            } else if (k == "m" || k == "n" || k == "k") {
                const int64_t v =
                    p.integer<int64_t>(p.next(), fmt::format("a non-negative integer for {}", k));
                (k == "m" ? problem_.m : k == "n" ? problem_.n : problem_.k) = v;
            } else if (k == "a" || k == "b" || k == "c") {
                const DType t = p.dtype(fmt::format("the element type of {}", k == "a"   ? "A"
                                                                              : k == "b" ? "B"
                                                                                         : "C"));
                (k == "a" ? problem_.a : k == "b" ? problem_.b : problem_.c) = t;
            } else if (k == "cl") {
                problem_.compute_length =
                    p.integer<uint32_t>(p.next(), "a non-negative integer for cl (computeLength)");
            } else if (k == "path") {
                const Token& v = p.expect_ident("gm or ub after 'path='");
                if (v.text == "gm")
                    problem_.path = WorkspacePath::GM;
                else if (v.text == "ub")
                    problem_.path = WorkspacePath::UB;
                else
                    p.fail(v, fmt::format("path must be gm or ub, found '{}'", v.text));
            } else if (k == "tile") {
                problem_.tile = tile(p, p.next());
                tile_given = true;
            } else {
                kernel_key(p, k);
            }
        }
        constexpr std::array<std::string_view, 8> kRequired = {"arch", "m", "n", "k", "a", "b", "c", "cl"};
        constexpr std::array<std::string_view, 8> kMeaning = {
            "AtlasA2 or Ascend950",  "rows of C",
            "columns of C",          "the GEMM depth",
            "the element type of A", "the element type of B",
            "the element type of C", "computeLength, elements per UB buffer"};
        for (std::size_t r = 0; r < kRequired.size(); ++r)
            if (!seen[r])
                throw ParseError(
                    p.line(), problem_.pos.column,
                    fmt::format("the problem line is missing {}=<{}>", kRequired[r], kMeaning[r]));
        if (!tile_given) problem_.tile = default_tile(problem_.arch);
    }

    // One key of the kernel configuration (KernelConfig); which values upstream accepts together is
    // validate's (kernel_config.hpp), not the parser's.
    void kernel_key(LineParser& p, std::string_view k) {
        KernelConfig& kc = problem_.kernel;
        if (k == "mmad") {
            const Token& v = p.expect_ident("pingpong or pingpong_mutex after 'mmad='");
            if (v.text == "pingpong")
                kc.mmad = MmadPolicy::Pingpong;
            else if (v.text == "pingpong_mutex")
                kc.mmad = MmadPolicy::PingpongMutex;
            else
                p.fail(v, fmt::format("mmad must be pingpong or pingpong_mutex, found '{}'", v.text));
        } else if (k == "unit_flag" || k == "hf32" || k == "l1_resident") {
            const Token& v = p.next();
            if (v.text != "0" && v.text != "1")
                p.fail(v, fmt::format("{} must be 0 or 1, found {}", k, describe(v)));
            (k == "unit_flag" ? kc.unit_flag : k == "hf32" ? kc.hf32 : kc.l1_resident) = v.text == "1";
        } else if (k == "stages") {
            const Token& v = p.next();
            const std::array<uint32_t, 5> s = dims<5>(
                p, v,
                fmt::format("bad stages {}; expected L1AxL1BxL0AxL0BxL0C like 2x2x2x2x1 (the block-mmad's "
                            "buffer stages)",
                            describe(v)));
            kc.l1a_stages = s[0];
            kc.l1b_stages = s[1];
            kc.l0a_stages = s[2];
            kc.l0b_stages = s[3];
            kc.l0c_stages = s[4];
        } else if (k == "l0k") {
            kc.l0_k = p.integer<uint32_t>(p.next(), "a non-negative integer for l0k (the L0 tile's K)");
        } else {  // layout_a, layout_b
            const Token& v = p.expect_ident(fmt::format("row or col after '{}='", k));
            if (v.text != "row" && v.text != "col")
                p.fail(v, fmt::format("{} must be row or col, found '{}'", k, v.text));
            (k == "layout_a" ? kc.layout_a : kc.layout_b) =
                v.text == "row" ? MatrixLayout::RowMajor : MatrixLayout::ColumnMajor;
        }
    }

    // N numbers joined by 'x' in one token ("32x64x64"); `bad` is the message when it is not that.
    template <std::size_t N>
    static std::array<uint32_t, N> dims(const LineParser& p, const Token& t, const std::string& bad) {
        if (t.kind != TokenKind::Number) p.fail(t, bad);
        std::array<uint32_t, N> out{};
        std::string_view s = t.text;
        for (std::size_t d = 0; d < N; ++d) {
            const std::size_t x = d + 1 < N ? s.find('x') : s.size();
            if (x == std::string_view::npos) p.fail(t, bad);
            const std::string_view part = s.substr(0, x);
            auto [q, ec] = std::from_chars(part.data(), part.data() + part.size(), out[d]);
            if (part.empty() || ec != std::errc() || q != part.data() + part.size()) p.fail(t, bad);
            s = d + 1 < N ? s.substr(x + 1) : std::string_view();
        }
        return out;
    }

    static TileShape tile(const LineParser& p, const Token& t) {
        const std::array<uint32_t, 3> d =
            dims<3>(p, t, fmt::format("bad tile {}; expected MxNxK like 128x256x256", describe(t)));
        return TileShape{d[0], d[1], d[2]};
    }

    void parse_tensor(LineParser& p) {
        const Token& role = p.next();
        Tensor t;
        t.role = role.text == "input" ? TensorRole::Input : TensorRole::Output;
        t.pos = SourcePos{p.line(), role.column};
        t.name = std::string(p.expect_ident(fmt::format("a tensor name after '{}'", role.text)).text);
        p.expect_punct(":", fmt::format("after the tensor name '{}'", t.name));
        t.element = p.dtype(fmt::format("the element type of '{}'", t.name));
        p.expect_punct("[", "after the element type, to open the shape [rows, cols]");
        t.rows = p.integer<int64_t>(p.next(), "the number of rows");
        p.expect_punct(",", "between the rows and the columns of the shape");
        t.cols = p.integer<int64_t>(p.next(), "the number of columns");
        p.expect_punct("]", "to close the shape [rows, cols]");
        t.row_stride = t.cols;
        if (!p.at_end()) {
            const Token& key = p.peek();
            if (key.kind != TokenKind::Ident || key.text != "stride")
                p.fail(key, fmt::format(
                                "unexpected {} after the shape; expected 'stride=<n>' or the end of the line",
                                describe(key)));
            p.next();
            p.expect_punct("=", "after 'stride'");
            t.row_stride = p.integer<int64_t>(p.next(), "the row stride (elements between rows)");
        }
        p.expect_end(fmt::format("the tensor '{}'", t.name));
        graph_.tensors.push_back(std::move(t));
    }

    void parse_node(LineParser& p) {
        const Token& id = p.next();
        const int expected = static_cast<int>(graph_.nodes.size());
        if (p.node_ref(id) != expected)
            p.fail(id, fmt::format("expected node id %{}, found {} (nodes are numbered in order from %0)",
                                   expected, id.text));
        p.expect_punct("=", fmt::format("after '{}'", id.text));
        const Token& kind_token = p.peek();
        if (kind_token.kind != TokenKind::Ident)
            p.fail(kind_token, fmt::format("expected a node kind (AccLoad, AuxLoad, Compute, ...), found {}",
                                           describe(kind_token)));
        p.next();
        const auto kind = node_kind_from_name(kind_token.text);
        if (!kind) {
            const auto names = kind_names();
            p.fail(kind_token, fmt::format("unknown node kind '{}'{}", kind_token.text,
                                           detail::did_you_mean(kind_token.text, names)));
        }
        Node n;
        n.kind = *kind;
        n.pos = SourcePos{p.line(), id.column};
        const std::string kind_name(node_kind_name(n.kind));
        std::optional<FunctorSpelling> spelling;
        Token functor_token;
        switch (node_kind_info(n.kind).syntax) {
            case NodeSyntax::Workspace: {
                n.element = p.dtype(fmt::format("the element type after '{}'", kind_name));
                if (!p.at_end()) {
                    const Token& where = p.peek();
                    if (where.kind == TokenKind::Ident && (where.text == "ub" || where.text == "gm")) {
                        n.use_ub = where.text == "ub";
                        p.next();
                    } else if (!p.peek_punct("(")) {
                        p.fail(where, fmt::format("expected 'gm', 'ub' or the end of the line after '{} {}', "
                                                  "found {}",
                                                  kind_name, hw::dtype_name(n.element), describe(where)));
                    }
                }
                break;
            }
            case NodeSyntax::Cast:
                n.element = p.dtype(fmt::format("the destination element type after '{}'", kind_name));
                p.expect_punct("<-", fmt::format("after the destination type of {} ({} <To> <- <From>)",
                                                 kind_name, kind_name));
                n.from = p.dtype("the source element type after '<-'");
                if (p.peek().kind == TokenKind::Ident) n.round = p.round_mode();
                break;
            case NodeSyntax::FunctorScalars:
            case NodeSyntax::FunctorTensor: {
                const bool reduce = node_kind_info(n.kind).syntax == NodeSyntax::FunctorTensor;
                functor_token = p.expect_ident(fmt::format("a functor name after '{}'", kind_name));
                spelling = functor_from_name(functor_token.text);
                if (!spelling && reduce)
                    p.fail(functor_token, unknown_reduce_functor(kind_name, functor_token.text));
                if (!spelling)
                    p.fail(functor_token,
                           fmt::format("unknown functor '{}'{}", functor_token.text,
                                       detail::did_you_mean(functor_token.text, functor_spellings())));
                n.fn = spelling->fn;
                n.element =
                    p.dtype(fmt::format("the element type after '{} {}'", kind_name, functor_token.text));
                if (!reduce) {
                    if (p.peek_punct("["))
                        parse_scalars(p, n);
                    else if (starts_a_number(p))
                        p.fail(p.peek(),
                               fmt::format("a scalar goes in brackets after the element type: write "
                                           "'{} {} [{}]'",
                                           functor_token.text, hw::dtype_name(n.element), scalar_text(p)));
                } else {
                    n.tensor =
                        std::string(p.expect_ident(fmt::format("a tensor name after '{} {} {}'", kind_name,
                                                               functor_token.text, hw::dtype_name(n.element)))
                                        .text);
                }
                break;
            }
            case NodeSyntax::Tensor:
                n.element = p.dtype(fmt::format("the element type after '{}'", kind_name));
                n.tensor = std::string(p.expect_ident(fmt::format("a tensor name after '{} {}'", kind_name,
                                                                  hw::dtype_name(n.element)))
                                           .text);
                break;
        }
        if (p.peek_punct("(")) parse_inputs(p, n);
        p.expect_end(fmt::format("node {}", id.text));
        if (spelling && spelling->exact_inputs != 0 &&
            static_cast<int>(n.inputs.size()) != spelling->exact_inputs)
            p.fail(functor_token,
                   fmt::format("{} takes exactly {} inputs, got {} ({} is {} with {} inputs)",
                               functor_token.text, spelling->exact_inputs, n.inputs.size(),
                               functor_token.text, functor_name(n.fn), spelling->exact_inputs));
        graph_.nodes.push_back(std::move(n));
    }

    // A reduce's functor is one of the table's reduce functors (FunctorInfo::reduce) or their seed-document
    // spellings: the suggestion comes from those, and a sum is named Add.
    static std::string unknown_reduce_functor(const std::string& kind_name, std::string_view word) {
        std::vector<std::string_view> reduce_spellings;
        std::string names;
        for (std::string_view s : functor_spellings())
            if (const auto f = functor_from_name(s); f && functor_info(f->fn).reduce)
                reduce_spellings.push_back(s);
        for (const FunctorInfo& f : all_functors())
            if (f.reduce) names += (names.empty() ? "" : ", ") + std::string(f.name);
        std::string hint = detail::did_you_mean(word, reduce_spellings);
        std::string lower(word);
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (lower == "sum") hint = "; did you mean 'Add'? (a reduce sums with Add)";
        return fmt::format("unknown functor '{}' for {}{} (a reduce takes {})", word, kind_name, hint, names);
    }

    // The next tokens are a scalar written without its brackets: a number, or a sign and a number, or
    // inf / nan.
    static bool starts_a_number(const LineParser& p) {
        const Token& t = p.peek();
        if (t.kind == TokenKind::Number) return true;
        if (t.kind == TokenKind::Ident) return t.text == "inf" || t.text == "infinity" || t.text == "nan";
        return t.kind == TokenKind::Punct && (t.text == "-" || t.text == "+");
    }
    static std::string scalar_text(const LineParser& p) { return std::string(p.peek().text); }

    static void parse_scalars(LineParser& p, Node& n) {
        p.next();  // [
        if (p.peek_punct("]")) {
            p.next();
            return;
        }
        while (true) {
            n.scalars.push_back(p.scalar());
            if (p.peek_punct(",")) {
                p.next();
                continue;
            }
            p.expect_punct("]", "or ',' in the scalar list");
            return;
        }
    }

    static void parse_inputs(LineParser& p, Node& n) {
        p.next();  // (
        if (p.peek_punct(")")) {
            p.next();
            return;
        }
        while (true) {
            const Token& t = p.next();
            if (t.kind != TokenKind::NodeRef)
                p.fail(t, fmt::format("expected an input like %3, found {}", describe(t)));
            n.inputs.push_back(p.node_ref(t));
            if (p.peek_punct(",")) {
                p.next();
                continue;
            }
            p.expect_punct(")", "or ',' in the input list");
            return;
        }
    }

    bool want_problem_;
    std::optional<int> problem_line_;
    Graph graph_;
    Problem problem_;
};

}  // namespace

Graph parse_graph(std::string_view text) {
    DocumentParser d(false);
    d.parse(text);
    return d.graph();
}

Problem parse_problem(std::string_view text) {
    DocumentParser d(true);
    d.parse(text);
    return d.problem();
}

}  // namespace evg::graph
