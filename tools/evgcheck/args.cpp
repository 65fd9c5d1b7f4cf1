#include <fmt/format.h>

#include "args.hpp"

#include "evg/process/shell_quote.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

namespace evgcheck {

namespace {

size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

}  // namespace

std::string closest(std::string_view word, std::span<const std::string_view> candidates) {
    std::string best;
    size_t best_d = 3;
    for (std::string_view c : candidates) {
        const size_t d = edit_distance(word, c);
        if (d < best_d) {
            best_d = d;
            best = std::string(c);
        }
    }
    return best;
}

Args Args::parse(std::span<const char* const> argv, std::span<const OptionSpec> specs,
                 std::string_view command, size_t max_positional) {
    return parse_words(argv, specs, command, max_positional, nullptr);
}

Args Args::parse_options_then_operands(std::span<const char* const> argv, std::span<const OptionSpec> specs,
                                       std::string_view command, size_t& operands_at) {
    operands_at = argv.size();
    return parse_words(argv, specs, command, 0, &operands_at);
}

Args Args::parse_words(std::span<const char* const> argv, std::span<const OptionSpec> specs,
                       std::string_view command, size_t max_positional, size_t* operands_at) {
    Args args;
    args.command_ = std::string(command);
    const std::string prefix = fmt::format("evgcheck {}: ", command);
    bool options_end = false;
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string_view word = argv[i] ? argv[i] : "";
        const bool operand = options_end || word.size() < 2 || word.substr(0, 1) != "-" || word == "-";
        if (operand && operands_at) {  // the options end at the first operand
            *operands_at = i;
            break;
        }
        if (operand) {
            if (args.positional_.size() >= max_positional) {
                throw UsageError(prefix + fmt::format("unexpected argument '{}'", word) +
                                 (max_positional == 0 ? " (this command takes no file)"
                                                      : " (it takes one file; options start with --)"));
            }
            args.positional_.emplace_back(word);
            continue;
        }
        if (word == "--") {
            if (operands_at) {
                *operands_at = i + 1;
                break;
            }
            options_end = true;
            continue;
        }
        std::string_view body = word.substr(word.substr(0, 2) == "--" ? 2 : 1);
        if (word == "-h") body = "help";
        std::optional<std::string> inline_value;
        if (const size_t eq = body.find('='); eq != std::string_view::npos) {
            inline_value = std::string(body.substr(eq + 1));
            body = body.substr(0, eq);
        }
        const auto spec =
            std::find_if(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == body; });
        if (spec == specs.end()) {
            std::vector<std::string_view> names;
            for (const OptionSpec& s : specs) names.push_back(s.name);
            std::string msg = prefix + fmt::format("unknown option '{}'", word);
            if (const std::string near = closest(body, names); !near.empty())
                msg += "; did you mean '--" + near + "'?";
            msg += fmt::format(" (see evgcheck {} --help)", command);
            throw UsageError(msg);
        }
        const std::string name(spec->name);
        if (args.values_.count(name) != 0)
            throw UsageError(fmt::format("{}option --{} is given twice", prefix, name));
        if (spec->value.empty()) {
            if (inline_value) throw UsageError(fmt::format("{}option --{} takes no value", prefix, name));
            args.values_[name] = "";
            continue;
        }
        if (inline_value) {
            args.values_[name] = *inline_value;
        } else if (i + 1 < argv.size() && argv[i + 1] != nullptr) {
            args.values_[name] = argv[++i];
        } else {
            throw UsageError(prefix + fmt::format("option --{} needs a value ({})", name, spec->value));
        }
        if (args.values_[name].empty()) {
            throw UsageError(prefix + fmt::format("option --{} needs a value ({})", name, spec->value));
        }
    }
    return args;
}

std::optional<std::string> Args::get(std::string_view name) const {
    const auto it = values_.find(std::string(name));
    if (it == values_.end()) return std::nullopt;
    return it->second;
}

std::optional<long long> Args::integer(std::string_view name, long long lo, long long hi) const {
    const std::optional<std::string> v = get(name);
    if (!v) return std::nullopt;
    const std::string where = fmt::format("evgcheck {}: option --{}: ", command_, name);
    errno = 0;
    char* end = nullptr;
    const long long x = std::strtoll(v->c_str(), &end, 10);
    const bool digits = !v->empty() && v->find_first_not_of("0123456789", (*v)[0] == '-' || (*v)[0] == '+') ==
                                           std::string::npos;
    if (digits && errno == ERANGE)  // an integer, but beyond what any option takes
        throw UsageError(where + *v + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) +
                         "]");
    if (v->empty() || end != v->c_str() + v->size() || errno == ERANGE || (*v)[0] == ' ') {
        throw UsageError(where + "expected an integer, found '" + *v + "'");
    }
    if (x < lo || x > hi) {
        throw UsageError(where + std::to_string(x) + " is out of range [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "]");
    }
    return x;
}

std::optional<std::string> match_choice(std::string_view word, std::span<const std::string_view> choices) {
    const auto lower = [](std::string_view s) {
        std::string out(s);
        for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return out;
    };
    for (std::string_view c : choices)
        if (lower(c) == lower(word)) return std::string(c);
    return std::nullopt;
}

std::optional<std::string> Args::choice(std::string_view name,
                                        std::span<const std::string_view> choices) const {
    const std::optional<std::string> v = get(name);
    if (!v) return std::nullopt;
    if (auto c = match_choice(*v, choices)) return c;
    std::string list;
    for (size_t i = 0; i < choices.size(); ++i)
        list += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + std::string(choices[i]);
    std::string msg =
        fmt::format("evgcheck {}: option --{}: expected {}, found '{}'", command_, name, list, *v);
    // A suggestion only for a near miss: within a third of the word's length (at least one edit).
    for (std::string_view c : choices)
        if (edit_distance(*v, c) <= std::max<size_t>(1, v->size() / 3)) {
            msg += "; did you mean '" + std::string(c) + "'?";
            break;
        }
    throw UsageError(msg);
}

namespace {
// The whole text as a finite number, or nullopt.
std::optional<double> finite_number(const std::string& text) {
    char* end = nullptr;
    const double x = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(x)) return std::nullopt;
    return x;
}
}  // namespace

std::optional<double> Args::seconds(std::string_view name, double hi) const {
    const std::optional<std::string> v = get(name);
    if (!v) return std::nullopt;
    const std::optional<double> x = finite_number(*v);
    if (!x || *x <= 0 || *x > hi)
        throw UsageError(
            fmt::format("evgcheck {}: option --{}: expected a number of seconds in (0, {}], found '{}'",
                        command_, name, static_cast<long>(hi), *v));
    return x;
}

std::optional<double> Args::number(std::string_view name, double lo, double hi) const {
    const std::optional<std::string> v = get(name);
    if (!v) return std::nullopt;
    const std::optional<double> x = finite_number(*v);
    if (!x || *x < lo || *x > hi)
        throw UsageError(fmt::format("evgcheck {}: option --{}: expected a number in [{}, {}], found '{}'",
                                     command_, name, lo, hi, *v));
    return x;
}

int Args::jobs() const {
    if (const std::optional<long long> n = integer("jobs", 1, 256)) return static_cast<int>(*n);
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

std::optional<evg::Shard> Args::shard() const {
    const std::optional<std::string> v = get("shard");
    if (!v) return std::nullopt;
    std::string why;
    std::optional<evg::Shard> s = evg::parse_shard(*v, why);
    if (!s) throw UsageError(fmt::format("evgcheck {}: option --shard: {}", command_, why));
    return s;
}

std::string command_text(std::string_view command, std::span<const char* const> argv,
                         std::span<const OptionSpec> specs,
                         std::initializer_list<std::string_view> left_out) {
    // How many words an argument takes out of the line: 2 for "--name VALUE", 1 for "--name=VALUE" or a
    // flag, 0 for the rest.
    const auto words_left_out = [&](std::string_view arg) -> size_t {
        for (const std::string_view name : left_out)
            for (const std::string_view dashes : {"--", "-"}) {
                if (!arg.starts_with(dashes) || !arg.substr(dashes.size()).starts_with(name)) continue;
                const std::string_view rest = arg.substr(dashes.size() + name.size());
                if (rest.starts_with("=")) return 1;
                if (!rest.empty()) continue;
                const auto spec = std::find_if(specs.begin(), specs.end(),
                                               [&](const OptionSpec& o) { return o.name == name; });
                return spec != specs.end() && !spec->value.empty() ? 2 : 1;
            }
        return 0;
    };
    std::string s = fmt::format("evgcheck {}", command);
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string_view arg = argv[i];
        if (const size_t words = words_left_out(arg); words > 0) {
            i += words - 1;
            continue;
        }
        s += ' ';
        s += evg::process::shell_quote(arg);
    }
    return s;
}

std::string options_help(std::span<const OptionSpec> specs) {
    std::string out = "Options:\n";
    size_t width = 0;
    for (const OptionSpec& s : specs) width = std::max(width, s.name.size() + s.value.size() + 3);
    for (const OptionSpec& s : specs) {
        std::string left = fmt::format("--{}", s.name);
        if (!s.value.empty()) left += fmt::format(" {}", s.value);
        out += "  " + left + std::string(width + 2 - left.size(), ' ') + std::string(s.help) + "\n";
    }
    return out;
}

void check_output_dir(const std::string& dir, std::string_view option, std::string_view command) {
    namespace fs = std::filesystem;
    auto fail = [&](const std::string& why) {
        throw UsageError(
            fmt::format("evgcheck {}: option --{}: cannot write to '{}': {}", command, option, dir, why));
    };
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) fail(ec.message());
    if (!fs::is_directory(dir, ec)) fail("it is not a folder");
    const fs::path probe = fs::path(dir) / ".evgcheck-write-probe";
    {
        std::ofstream f(probe);
        if (!f || !(f << "probe")) fail("the folder is not writable");
    }
    fs::remove(probe, ec);
}

void check_output_file(const std::string& path, std::string_view option, std::string_view command) {
    namespace fs = std::filesystem;
    auto fail = [&](const std::string& why) {
        throw UsageError(
            fmt::format("evgcheck {}: option --{}: cannot write '{}': {}", command, option, path, why));
    };
    std::error_code ec;
    if (fs::is_directory(path, ec)) fail("it is a folder");
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty() && !fs::is_directory(parent, ec))
        fail(fmt::format("the folder '{}' does not exist (create it first)", parent.string()));
    const bool existed = fs::exists(path, ec);
    {
        std::ofstream f(path, std::ios::app);
        if (!f) fail("the file cannot be opened for writing");
    }
    if (!existed) fs::remove(path, ec);
}

void check_timeline_file(const std::string& path, std::string_view command) {
    if (!path.ends_with(".json") && !path.ends_with(".html"))
        throw UsageError(
            fmt::format("evgcheck {}: option --timeline: the file must end in .json (Chrome trace / "
                        "Perfetto) or .html (a page), "
                        "found '{}'",
                        command, path));
    check_output_file(path, "timeline", command);
}

}  // namespace evgcheck
