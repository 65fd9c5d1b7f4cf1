// The sentinel scan and the output comparisons of compare.hpp.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "evg/oracle/compare.hpp"
#include "evg/oracle/tolerance.hpp"
#include "evg/verify/compare.hpp"
#include "evg/verify/data.hpp"
#include "host_bytes.hpp"

namespace evg::verify {

using graph::NodeKind;

namespace {

uint64_t bits_at(const std::vector<uint8_t>& bytes, std::size_t width, std::size_t i) {
    uint64_t v = 0;
    for (std::size_t b = 0; b < width; ++b) v |= uint64_t{bytes[i * width + b]} << (8 * b);
    return v;
}

int64_t stride_of(const graph::Tensor& t) {
    return t.row_stride > 0 ? t.row_stride : t.cols;
}

// Merges per-row column ranges into row ranges: consecutive rows with identical column lists share one range.
std::vector<ElementRange> merge_rows(const std::vector<std::vector<std::pair<int64_t, int64_t>>>& per_row) {
    std::vector<ElementRange> out;
    std::size_t r = 0;
    while (r < per_row.size()) {
        std::size_t end = r + 1;
        while (end < per_row.size() && per_row[end] == per_row[r]) ++end;
        for (const auto& [c0, c1] : per_row[r])
            out.push_back({static_cast<int64_t>(r), static_cast<int64_t>(end), c0, c1});
        r = end;
    }
    return out;
}

// Column ranges [c0, c1) of row r where `hit(index)` holds, for columns [from, to).
template <class Hit>
std::vector<std::pair<int64_t, int64_t>> runs_in_row(int64_t base, int64_t from, int64_t to, Hit hit) {
    std::vector<std::pair<int64_t, int64_t>> out;
    for (int64_t c = from; c < to; ++c) {
        if (!hit(static_cast<std::size_t>(base + c))) continue;
        if (!out.empty() && out.back().second == c)
            out.back().second = c + 1;
        else
            out.emplace_back(c, c + 1);
    }
    return out;
}

bool is_store(const graph::Problem& p, int writer) {
    return p.graph.nodes[static_cast<std::size_t>(writer)].kind == NodeKind::AuxStore;
}

// The sentinel findings of one output; returns `got` with every never-written element set to the oracle's
// bits, so that the value comparison sees only what the kernel wrote.
std::vector<uint8_t> scan_sentinel(const graph::Tensor& t, const std::vector<uint8_t>& got,
                                   const oracle::HostTensor& want, int writer, const std::string& which,
                                   Verdict& out, uint64_t* unwritten_count = nullptr) {
    std::vector<uint8_t> patched = got;
    const std::vector<ElementRange> unwritten = unwritten_elements(t, got, want);
    if (unwritten_count)
        for (const ElementRange& e : unwritten)
            *unwritten_count += static_cast<uint64_t>((e.row_end - e.row_begin) * (e.col_end - e.col_begin));
    if (!unwritten.empty()) {
        out.add(Tag::unwritten_output, which + describe_ranges(t.name, unwritten, "was never written"),
                t.name, writer);
        const std::size_t w = static_cast<std::size_t>(oracle::dtype_bytes(t.element));
        const int64_t stride = stride_of(t);
        for (const ElementRange& e : unwritten)
            for (int64_t r = e.row_begin; r < e.row_end; ++r)
                for (int64_t c = e.col_begin; c < e.col_end; ++c) {
                    const std::size_t i = static_cast<std::size_t>(r * stride + c);
                    const uint64_t b = want.bits(i);
                    for (std::size_t k = 0; k < w; ++k)
                        patched[i * w + k] = static_cast<uint8_t>(b >> (8 * k));
                }
    }
    const std::vector<ElementRange> padding = written_padding(t, got);
    if (!padding.empty())
        out.add(Tag::padding_written,
                which + describe_ranges(t.name, padding, "is padding between rows and was written"), t.name,
                writer);
    return patched;
}

}  // namespace

std::vector<ElementRange> unwritten_elements(const graph::Tensor& t, const std::vector<uint8_t>& got,
                                             const oracle::HostTensor& want) {
    const std::size_t w = static_cast<std::size_t>(oracle::dtype_bytes(t.element));
    const uint64_t s = sentinel_bits(t.element);
    const int64_t stride = stride_of(t);
    std::vector<std::vector<std::pair<int64_t, int64_t>>> per_row;
    for (int64_t r = 0; r < t.rows; ++r)
        per_row.push_back(runs_in_row(r * stride, 0, t.cols, [&](std::size_t i) {
            return bits_at(got, w, i) == s && want.bits(i) != s;
        }));
    return merge_rows(per_row);
}

std::vector<ElementRange> written_padding(const graph::Tensor& t, const std::vector<uint8_t>& got) {
    const std::size_t w = static_cast<std::size_t>(oracle::dtype_bytes(t.element));
    const uint64_t s = sentinel_bits(t.element);
    const int64_t stride = stride_of(t);
    std::vector<std::vector<std::pair<int64_t, int64_t>>> per_row;
    for (int64_t r = 0; r + 1 < t.rows; ++r)
        per_row.push_back(
            runs_in_row(r * stride, t.cols, stride, [&](std::size_t i) { return bits_at(got, w, i) != s; }));
    return merge_rows(per_row);
}

std::string describe_ranges(const std::string& tensor, const std::vector<ElementRange>& ranges,
                            const std::string& what, std::size_t max_lines) {
    const auto span = [](int64_t b, int64_t e) {
        return e - b == 1 ? fmt::format("{}", b) : fmt::format("{}..{}", b, e - 1);
    };
    std::string out;
    int64_t elements = 0;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        const ElementRange& e = ranges[i];
        elements += (e.row_end - e.row_begin) * (e.col_end - e.col_begin);
        if (i < max_lines)
            out += fmt::format("{}{}[{}, {}] {}", i ? "\n" : "", tensor, span(e.row_begin, e.row_end),
                               span(e.col_begin, e.col_end), what);
    }
    if (ranges.size() > max_lines)
        out += fmt::format("\n({} more ranges; {} elements in all)", ranges.size() - max_lines, elements);
    return out;
}

// The NaN and infinite elements among a float tensor's rows x cols (integers have neither).
void count_special_values(const graph::Tensor& t, const std::vector<uint8_t>& bytes, OutputCheck& check) {
    if (!hw::dtype_is_float(t.element)) return;
    const oracle::HostTensor h = host(t.element, bytes);
    const oracle::Region r = region(t);
    for (int64_t row = 0; row < r.rows; ++row)
        for (int64_t col = 0; col < r.cols; ++col) {
            const auto i = static_cast<std::size_t>(row * r.row_stride + col);
            if (i >= h.size()) return;
            const auto v = static_cast<double>(h.value(i));
            if (std::isnan(v))
                ++check.nan;
            else if (std::isinf(v))
                ++check.inf;
        }
}

void compare_outputs(const graph::Problem& p, const graph::ModelRun& run, const oracle::OracleResult& golden,
                     bool exact, bool sentinel, Verdict& out,
                     const std::map<std::string, std::string>& not_judged) {
    const std::vector<bool> overflowed = overflow_domain_nodes(p, golden);
    for (const graph::Tensor* t : written_outputs(p, golden)) {
        const int w = writer_of(p, golden, t->name);
        OutputCheck check;
        check.tensor = t->name;
        const std::size_t before = out.findings.size();
        const auto it = run.outputs.find(t->name);
        if (it == run.outputs.end()) {
            out.add(Tag::missing_output, fmt::format("output {} was not read back", t->name), t->name, w);
            check.mode = "not compared";
            check.reason = "the run returned no buffer";
            check.ok = false;
            out.outputs.push_back(check);
            continue;
        }
        const oracle::HostTensor& want = golden.output(t->name);
        const std::vector<uint8_t> got =
            sentinel && is_store(p, w) ? scan_sentinel(*t, it->second, want, w, "", out, &check.unwritten)
                                       : it->second;
        count_special_values(*t, got, check);
        if (const auto excused = not_judged.find(t->name); excused != not_judged.end()) {
            ++out.not_compared;
            check.mode = "not compared";
            check.reason = excused->second;
        } else if (depends_on(p.graph, w, overflowed)) {
            ++out.not_compared;
            check.mode = "not compared";
            check.reason = "it depends on a Silu/Sigmoid whose e^-x overflows (outside the oracle's domain)";
        } else if (order_dependent(p, w, exact)) {
            check.mode = "summation bound";
            check.reason = "an Add reduction of inexact data: any summation order is allowed";
            if (const std::string bad = check_sum_bound(p, golden, w, *t, got); !bad.empty()) {
                out.add(Tag::output_mismatch, t->name + ": outside the summation bound\n" + bad, t->name, w);
                check.summary = bad;
            } else {
                check.summary = "every element within the summation bound";
            }
        } else {
            const oracle::ComparePlan plan = oracle::plan_comparison(p, t->name, exact);
            const oracle::CompareResult cr =
                oracle::compare(t->name, host(t->element, got), want, region(*t), plan.options);
            out.worst_ulp = std::max(out.worst_ulp, static_cast<double>(cr.max_ulp));
            check.mode = oracle::compare_mode_name(plan.options.mode);
            check.reason = plan.reason;
            check.summary = cr.to_string(plan.options.mode);
            check.compared = cr.compared;
            check.mismatches = cr.mismatches;
            check.max_ulp = cr.max_ulp;
            if (!cr.ok()) out.add(Tag::output_mismatch, check.summary + " (" + plan.reason + ")", t->name, w);
        }
        check.ok = out.findings.size() == before;
        out.outputs.push_back(std::move(check));
    }
}

Verdict compare_runs(const graph::Problem& p, const graph::ModelRun& a, const graph::ModelRun& b,
                     const oracle::OracleResult& golden, bool exact) {
    Verdict out;
    for (const graph::Tensor* t : written_outputs(p, golden)) {
        const int w = writer_of(p, golden, t->name);
        const auto ia = a.outputs.find(t->name), ib = b.outputs.find(t->name);
        if (ia == a.outputs.end() || ib == b.outputs.end()) {
            out.add(Tag::missing_output, fmt::format("output {} was not read back from both runs", t->name),
                    t->name, w);
            continue;
        }
        if (is_store(p, w)) {
            const oracle::HostTensor& want = golden.output(t->name);
            scan_sentinel(*t, ia->second, want, w, "first run: ", out);
            scan_sentinel(*t, ib->second, want, w, "second run: ", out);
        }
        if (order_dependent(p, w, exact)) {
            for (const auto* run : {&ia->second, &ib->second})
                if (const std::string bad = check_sum_bound(p, golden, w, *t, *run); !bad.empty())
                    out.add(Tag::output_mismatch, t->name + ": outside the summation bound\n" + bad, t->name,
                            w);
            continue;
        }
        const oracle::CompareResult cr =
            oracle::compare(t->name, host(t->element, ib->second), host(t->element, ia->second), region(*t),
                            oracle::bit_exact());
        if (!cr.ok()) out.add(Tag::runs_differ, cr.to_string(oracle::CompareMode::BitExact), t->name, w);
    }
    std::stable_sort(out.findings.begin(), out.findings.end(),
                     [](const Finding& x, const Finding& y) { return x.tag < y.tag; });
    return out;
}

}  // namespace evg::verify
