// Fuzz target graph_text: lib/graph's text format on any bytes.
// The input is parsed both as a graph (parse_graph) and as a problem (parse_problem). Invariants:
//  * nothing crashes, and the only exception a rejection throws is evg::graph::ParseError, whose position
//    lies in the text (line >= 1, column >= 1, line at most the text's line count + 1) and whose what() is
//    "<line>:<column>: <message>";
//  * an accepted graph or problem validates (every arch) with every diagnostic at a line:col of the text,
//  prints, and emits C++ (emit_cpp may refuse a graph
//    with a GraphError, nothing else) without any other exception;
//  * print is a fixed point: parse(print(g)) == g, and print(parse(print(g))) == print(g).
// A broken invariant prints `EVG-FINDING: graph_text: <invariant>` (fuzz/common/finding.hpp) and aborts.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

#include "evg/graph/emit_cpp.hpp"
#include "evg/graph/error.hpp"
#include "evg/graph/text.hpp"
#include "evg/graph/validate.hpp"
#include "finding.hpp"

namespace {

namespace g = evg::graph;
using evg::fuzz::evg_fuzz_finding;

constexpr size_t kMaxInput = 1 << 16;

int line_count(std::string_view text) {
    int lines = 1;
    for (const char c : text) lines += c == '\n';
    return lines;
}

void check_rejection(const g::ParseError& e, std::string_view text, const char* parser) {
    const std::string prefix = std::to_string(e.line()) + ":" + std::to_string(e.column()) + ": ";
    if (e.line() < 1 || e.column() < 1 || e.line() > line_count(text) + 1) {
        evg_fuzz_finding(std::string("graph_text: ") + parser + " rejects with a position outside the text",
                         e.what());
    }
    if (!std::string_view(e.what()).starts_with(prefix) || e.message().empty()) {
        evg_fuzz_finding(
            std::string("graph_text: ") + parser + "'s ParseError is not '<line>:<col>: <message>'",
            e.what());
    }
}

// A graph parsed from text: every diagnostic names its line and column (only an empty graph's "root" has no
// place to point at), and the position lies in the text.
void check_positions(const std::vector<g::Diagnostic>& diagnostics, std::string_view text) {
    for (const g::Diagnostic& d : diagnostics) {
        if (d.rule == "root") continue;
        if (d.line < 1 || d.column < 1 || d.line > line_count(text)) {
            evg_fuzz_finding("graph_text: validate's [" + d.rule + "] diagnostic has no position in the text",
                             d.format() + "\n--- input ---\n" + std::string(text));
        }
    }
}

// Runs f; any exception but the allowed GraphError is a finding named after `step`.
template <class F>
void expect_only_graph_errors(const char* step, std::string_view text, F&& f) {
    try {
        f();
    } catch (const g::GraphError&) {
    } catch (const std::exception& e) {
        evg_fuzz_finding(std::string("graph_text: ") + step + " throws " + typeid(e).name(),
                         std::string(e.what()) + "\n--- input ---\n" + std::string(text));
    }
}

template <class T>
void check_accepted(const T& parsed, std::string_view text, const char* kind) {
    const std::string printed = g::print(parsed);
    T again;
    try {
        if constexpr (std::is_same_v<T, g::Problem>) {
            again = g::parse_problem(printed);
        } else {
            again = g::parse_graph(printed);
        }
    } catch (const std::exception& e) {
        evg_fuzz_finding(
            std::string("graph_text: the printed ") + kind + " does not parse",
            std::string(e.what()) + "\n--- printed ---\n" + printed + "--- input ---\n" + std::string(text));
    }
    if (!(again == parsed)) {
        evg_fuzz_finding(std::string("graph_text: parse(print(") + kind + ")) differs from the " + kind,
                         "--- printed ---\n" + printed + "--- reprinted ---\n" + g::print(again) +
                             "--- input ---\n" + std::string(text));
    }
    if (g::print(again) != printed) {
        evg_fuzz_finding(std::string("graph_text: print is not a fixed point for a ") + kind,
                         "--- printed ---\n" + printed + "--- reprinted ---\n" + g::print(again));
    }
    expect_only_graph_errors("validate", text, [&] {
        if constexpr (std::is_same_v<T, g::Problem>) {
            check_positions(g::validate(parsed), text);
        } else {
            check_positions(g::validate(parsed), text);
            check_positions(g::validate(parsed, g::ArchId::AtlasA2), text);
            check_positions(g::validate(parsed, g::ArchId::Ascend950), text);
        }
    });
    expect_only_graph_errors("emit_cpp", text, [&] { (void)g::emit_cpp(parsed).text(); });
}

template <class T, class Parse>
void fuzz_parser(std::string_view text, const char* kind, Parse&& parse) {
    T parsed;
    try {
        parsed = parse(text);
    } catch (const g::ParseError& e) {
        check_rejection(e, text, kind);
        return;
    } catch (const std::exception& e) {
        evg_fuzz_finding(std::string("graph_text: parse_") + kind + " rejects with " + typeid(e).name() +
                             ", not a ParseError",
                         std::string(e.what()) + "\n--- input ---\n" + std::string(text));
    }
    check_accepted(parsed, text, kind);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > kMaxInput) return -1;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    fuzz_parser<g::Graph>(text, "graph", [](std::string_view t) { return g::parse_graph(t); });
    fuzz_parser<g::Problem>(text, "problem", [](std::string_view t) { return g::parse_problem(t); });
    return 0;
}
