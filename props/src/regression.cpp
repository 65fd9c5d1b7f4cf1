#include "evg/props/regression.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "evg/graph/emit_cpp.hpp"
#include "evg/graph/error.hpp"
#include "evg/graph/text.hpp"
#include "evg/hw/fnv1a.hpp"

namespace evg::props {

std::string to_text(const Case& c, const std::string& property) {
    // sign= only when not mixed, so that the files written before it read back unchanged.
    const std::string sign = sign_suffix(c.sign);
    return fmt::format("# evgcheck regression: {}\n# case data={} data_seed={} cores={} sched={}{}\n{}",
                       property, data_text_name(c.data), c.data_seed, c.cores, c.sched_seed,
                       sign.empty() ? "" : " sign=" + sign.substr(1), graph::print(c.problem));
}

namespace {
std::string header_value(std::string_view text, std::string_view key) {
    const std::string k = fmt::format(" {}=", key);
    const auto start = text.find("# case");
    if (start == std::string_view::npos) return {};
    const auto line_end = text.find('\n', start);
    const std::string_view line = text.substr(start, line_end - start);
    const auto at = line.find(k);
    if (at == std::string_view::npos) return {};
    const auto v = at + k.size();
    return std::string(line.substr(v, line.find(' ', v) - v));
}
}  // namespace

Case case_from_text(std::string_view text) {
    Case c;
    c.problem = graph::parse_problem(text);
    if (const std::string d = header_value(text, "data"); !d.empty()) {
        if (d != "exact" && d != "float" && d != "uniform")
            throw graph::ParseError(2, 1, "data= must be exact, float or uniform");
        c.data = d == "exact" ? DataMode::Exact : d == "float" ? DataMode::Special : DataMode::Uniform;
    }
    if (const std::string v = header_value(text, "data_seed"); !v.empty()) c.data_seed = std::stoull(v);
    if (const std::string v = header_value(text, "cores"); !v.empty())
        c.cores = static_cast<uint32_t>(std::stoul(v));
    if (const std::string v = header_value(text, "sched"); !v.empty()) c.sched_seed = std::stoull(v);
    if (const std::string v = header_value(text, "sign"); !v.empty()) {
        if (v != "negative" && v != "positive")
            throw graph::ParseError(2, 1, "sign= must be negative or positive");
        c.sign = v == "negative" ? verify::InputSign::negative : verify::InputSign::positive;
    }
    return c;
}

std::string property_from_text(std::string_view text) {
    constexpr std::string_view tag = "# evgcheck regression: ";
    const auto at = text.find(tag);
    if (at == std::string_view::npos) return {};
    const auto v = at + tag.size();
    return std::string(text.substr(v, text.find('\n', v) - v));
}

Case load_case(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    return case_from_text(ss.str());
}

std::filesystem::path save_case(const Case& c, const std::string& property,
                                const std::filesystem::path& dir) {
    std::string text = to_text(c, property);
    // A case found with upstream hazards switched on (EVG_PROPS_PLANTED) says so: the library as it is passes
    // it, and the hazard makes it fail again.
    if (const char* planted = std::getenv("EVG_PROPS_PLANTED"); planted != nullptr && *planted != '\0')
        text +=
            fmt::format("# found with: {} (upstream hazards switched on by EVG_PROPS_PLANTED)\n", planted);
    std::string name = property;
    for (char& ch : name)
        if (ch == '/' || ch == ' ') ch = '_';
    std::filesystem::create_directories(dir);
    // Named by the project's content hash (evg/hw/fnv1a.hpp), the same under every standard library.
    auto path = dir / fmt::format("{}-{}.evg", name, hw::fnv1a64_hex(text));
    std::ofstream(path) << text;
    return path;
}

std::string failure_report(const Case& c, const std::string& property, const std::string& reason,
                           uint64_t seed, const std::string& replay_command, graph::Implementation dialect) {
    std::string cpp;
    try {
        graph::EmitOptions options;
        options.dialect = dialect;
        cpp = graph::emit_cpp(c.problem, options).text();
    } catch (const std::exception& e) {
        cpp = fmt::format("// emit_cpp failed: {}\n", e.what());
    }
    return fmt::format(
        "property {} failed (rapidcheck seed {}):\n{}\n\ncase: {}\n\n--- graph ---\n{}\n--- C++ ---\n{}\n--- "
        "replay "
        "---\n{}\n",
        property, seed, reason, summary(c), to_text(c, property), cpp, replay_command);
}

}  // namespace evg::props
