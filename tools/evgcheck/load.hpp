// Reading a graph file into a problem: the text is a whole problem (a `problem` line first) or a bare graph;
// command-line options override the problem line or fill in what a bare graph lacks. Every mistake becomes an
// InputError whose lines start with `file:line:col:` (exit code 2).
#pragma once
#include <cstdint>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "evg/graph/graph.hpp"
#include "evg/graph/validate.hpp"

namespace evgcheck {

// Bad input in a file (or a problem the options make invalid): exit code 2. what() is ready to print.
class InputError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// The ranges of the shapes, for the command-line options and the file's values alike.
inline constexpr int64_t kMaxDim = 1 << 16;  // M, N, K
inline constexpr int64_t kMinComputeLength = 32, kMaxComputeLength = 1 << 20;

struct SourceFile {
    std::string path;
    std::string text;
    bool has_problem = false;  // the text has a `problem` line
};

// Reads the file (at most 16 MiB), or standard input when `path` is "-" (named <stdin> in messages).
// InputError when it cannot be read.
SourceFile read_source(const std::string& path);
// A source from text already in memory (`path` names it in messages).
SourceFile make_source(std::string path, std::string text);

// What the options may override.
struct Overrides {
    std::optional<evg::graph::ArchId> arch;
    std::optional<int64_t> m, n, k;
    std::optional<uint32_t> compute_length;  // set: an explicit N
    bool compute_length_max = false;         // --compute-length max
    std::optional<evg::graph::WorkspacePath> path;
    bool any() const { return arch || m || n || k || compute_length || compute_length_max || path; }
};

// Parses the file as a graph (InputError "file:line:col: message" on malformed text).
evg::graph::Graph parse_graph_file(const SourceFile& src);

// The problem of the file with the overrides applied:
//  * a bare graph takes arch AtlasA2, A and B half, C the AccLoad's element type (float without one),
//    M the largest tensor row count and N the largest column count, K 256, computeLength max;
//  * new M / N resize every tensor dimension that equalled the old M / N (strided tensors keep their
//  padding);
//  * a new arch switches a default L1 tile to the new arch's default;
//  * --path sets every AccLoad's `ub` flag to match.
evg::graph::Problem make_problem(const SourceFile& src, const Overrides& o);

// Validates; prints warnings to `warnings` as `file:line:col: warning [...] ...` and throws InputError
// listing every error.
void validate_or_throw(const SourceFile& src, const std::vector<evg::graph::Diagnostic>& diagnostics,
                       std::ostream& warnings = std::cerr);

// The ranges of the options, applied to the problem's own values: M, N and K in [1, kMaxDim], computeLength
// in [kMinComputeLength, kMaxComputeLength]. InputError "file:line:col: m=100000 is out of range [1, 65536]
// (the range of --m)" at the problem line (or the tensor a bare graph took the value from).
void check_ranges(const SourceFile& src, const evg::graph::Problem& p);

// "file:4:1: error [rule] ..." (no position when the diagnostic has none).
std::string format_diagnostic(const std::string& path, const evg::graph::Diagnostic& d);

}  // namespace evgcheck
