#include <fmt/format.h>

#include "load.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "evg/graph/error.hpp"
#include "evg/graph/text.hpp"
#include "evg/graph/ub_budget.hpp"

namespace evgcheck {

namespace g = evg::graph;

namespace {

constexpr std::size_t kMaxFileBytes = 16u << 20;

bool line_is_problem(std::string_view line) {
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return false;
    line = line.substr(first);
    if (line.substr(0, 7) != "problem") return false;
    return line.size() == 7 || line[7] == ' ' || line[7] == '\t' || line[7] == '\r';
}

std::string located(const std::string& path, const g::ParseError& e) {
    return path + ":" + std::to_string(e.line()) + ":" + std::to_string(e.column()) + ": " + e.message();
}

}  // namespace

SourceFile read_source(const std::string& path) {
    if (path == "-") {  // standard input; messages name it <stdin>
        std::string text;
        char buf[65536];
        while (std::cin.read(buf, sizeof buf) || std::cin.gcount() > 0) {
            text.append(buf, static_cast<size_t>(std::cin.gcount()));
            if (text.size() > kMaxFileBytes) throw InputError("<stdin>: the input is larger than 16 MiB");
        }
        return make_source("<stdin>", std::move(text));
    }
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw InputError(path + ": is a directory, not a graph file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path + ": cannot open the file (does it exist?)");
    std::string text;
    char buf[65536];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        text.append(buf, static_cast<size_t>(in.gcount()));
        if (text.size() > kMaxFileBytes) throw InputError(path + ": the file is larger than 16 MiB");
    }
    return make_source(path, std::move(text));
}

SourceFile make_source(std::string path, std::string text) {
    SourceFile src;
    src.path = std::move(path);
    src.text = std::move(text);
    size_t pos = 0;
    while (pos <= src.text.size()) {
        const size_t end = std::min(src.text.find('\n', pos), src.text.size());
        if (line_is_problem(std::string_view(src.text).substr(pos, end - pos))) {
            src.has_problem = true;
            break;
        }
        pos = end + 1;
    }
    return src;
}

g::Graph parse_graph_file(const SourceFile& src) {
    try {
        if (src.has_problem) return g::parse_problem(src.text).graph;
        return g::parse_graph(src.text);
    } catch (const g::ParseError& e) {
        throw InputError(located(src.path, e));
    }
}

g::Problem make_problem(const SourceFile& src, const Overrides& o) {
    g::Problem p;
    if (src.has_problem) {
        try {
            p = g::parse_problem(src.text);
        } catch (const g::ParseError& e) {
            throw InputError(located(src.path, e));
        }
    } else {
        p.graph = parse_graph_file(src);
        p.arch = g::ArchId::AtlasA2;
        p.tile = g::default_tile(p.arch);
        p.a = p.b = g::DType::f16;
        p.c = g::DType::f32;
        for (const g::Node& n : p.graph.nodes) {
            if (n.kind == g::NodeKind::AccLoad) {
                p.c = n.element;
                break;
            }
        }
        for (const g::Tensor& t : p.graph.tensors) {
            p.m = std::max(p.m, t.rows);
            p.n = std::max(p.n, t.cols);
        }
        p.k = 256;
        if ((p.m == 0 && !o.m) || (p.n == 0 && !o.n)) {
            throw InputError(
                src.path +
                ": the graph has no tensors to take M and N from; give --m and --n (or a problem line)");
        }
    }
    if (o.arch && *o.arch != p.arch) {
        if (p.tile == g::default_tile(p.arch)) p.tile = g::default_tile(*o.arch);
        p.arch = *o.arch;
    }
    // A value set by an option is no longer where the file wrote it: its messages point at the problem line.
    if (o.arch) p.keys.arch = {};
    if (o.m) p.keys.m = {};
    if (o.n) p.keys.n = {};
    if (o.k) p.keys.k = {};
    if (o.path) p.keys.path = {};
    if (o.compute_length || o.compute_length_max) p.keys.cl = {};
    const int64_t old_m = p.m, old_n = p.n;
    if (o.m) p.m = *o.m;
    if (o.n) p.n = *o.n;
    if (o.k) p.k = *o.k;
    for (g::Tensor& t : p.graph.tensors) {
        const int64_t padding = t.row_stride - t.cols;
        if (t.rows == old_m) t.rows = p.m;
        if (t.cols == old_n) t.cols = p.n;
        t.row_stride = t.cols + padding;
    }
    if (o.path) {
        p.path = *o.path;
        for (g::Node& n : p.graph.nodes) {
            if (n.kind == g::NodeKind::AccLoad) n.use_ub = p.path == g::WorkspacePath::UB;
        }
    }
    if (o.compute_length) {
        p.compute_length = *o.compute_length;
    } else if (o.compute_length_max || !src.has_problem) {
        p.compute_length = g::max_compute_length(p.graph, p.arch, p.path);
        if (p.compute_length == 0) {
            throw InputError(src.path + ": the graph does not fit " +
                             fmt::format("{}", evg::hw::arch_name(p.arch)) +
                             "'s UB even with computeLength 32 (" +
                             g::thousands(g::ub_budget(p.graph, p.arch, p.path, 32).end) + " B needed)");
        }
    }
    return p;
}

std::string format_diagnostic(const std::string& path, const g::Diagnostic& d) {
    return path + (d.line > 0 ? ":" : ": ") + d.format();
}

void validate_or_throw(const SourceFile& src, const std::vector<g::Diagnostic>& diagnostics,
                       std::ostream& warnings) {
    std::string errors;
    for (const g::Diagnostic& d : diagnostics) {
        if (d.severity == g::Severity::Warning) {
            warnings << format_diagnostic(src.path, d) << "\n";
        } else {
            errors += format_diagnostic(src.path, d) + "\n";
        }
    }
    if (!errors.empty()) {
        errors.pop_back();
        throw InputError(errors);
    }
}

void check_ranges(const SourceFile& src, const g::Problem& p) {
    // Where a value came from: its key on the problem line, or (bare graph) the first tensor with that many
    // rows / cols.
    auto where = [&](const g::SourcePos& key, bool rows, int64_t value) {
        g::SourcePos pos = g::ProblemKeys::or_line(key, p.pos);
        if (!src.has_problem) {
            for (const g::Tensor& t : p.graph.tensors) {
                if ((rows ? t.rows : t.cols) == value) {
                    pos = t.pos;
                    break;
                }
            }
        }
        return pos.line > 0 ? fmt::format("{}:{}:{}: ", src.path, pos.line, pos.column) : src.path + ": ";
    };
    auto check = [&](const char* name, const g::SourcePos& key, int64_t value, int64_t lo, int64_t hi,
                     bool rows) {
        if (value < lo || value > hi) {
            throw InputError(fmt::format("{}{}={} is out of range [{}, {}] (the range of --{})",
                                         where(key, rows, value), name, value, lo, hi, name));
        }
    };
    check("m", p.keys.m, p.m, 1, kMaxDim, true);
    check("n", p.keys.n, p.n, 1, kMaxDim, false);
    check("k", p.keys.k, p.k, 1, kMaxDim, true);
    if (p.compute_length < kMinComputeLength || p.compute_length > kMaxComputeLength) {
        throw InputError(fmt::format("{}cl={} is out of range [{}, {}] (the range of --compute-length)",
                                     where(p.keys.cl, true, -1), p.compute_length, kMinComputeLength,
                                     kMaxComputeLength));
    }
}

}  // namespace evgcheck
