// A small command-line parser for evgcheck's subcommands: `--name value`, `--name=value` and flags. Every
// mistake becomes a UsageError whose sentence names the option, so main can print it and exit 2.
#pragma once
#include <initializer_list>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "evg/shard.hpp"

namespace evgcheck {

// Bad command-line input: exit code 2.
class UsageError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct OptionSpec {
    std::string_view name;   // without the dashes: "m", "compute-length"
    std::string_view value;  // placeholder for the help ("N|max"); empty for a flag
    std::string_view help;
};

class Args {
  public:
    // Parses argv (without the program and subcommand names). `max_positional` operands are allowed.
    static Args parse(std::span<const char* const> argv, std::span<const OptionSpec> specs,
                      std::string_view command, size_t max_positional);
    // Parses the options that come first, up to the first word that is not an option (or the word after
    // `--`), whose index goes to `operands_at` (argv.size() when there is none): what follows is another
    // command's (`evgcheck run-program [options] BINARY [its args]`). Whether an option takes a value comes
    // from `specs`.
    static Args parse_options_then_operands(std::span<const char* const> argv,
                                            std::span<const OptionSpec> specs, std::string_view command,
                                            size_t& operands_at);

    bool has(std::string_view name) const { return values_.count(std::string(name)) != 0; }
    std::optional<std::string> get(std::string_view name) const;
    const std::vector<std::string>& positional() const { return positional_; }

    // The option's value as an integer in [lo, hi]; UsageError naming the option otherwise.
    std::optional<long long> integer(std::string_view name, long long lo, long long hi) const;
    // The option's value as one of `choices`, in the spelling of `choices` (option values are matched without
    // regard to case, for every option: --data SPECIAL, --compute-length MAX, --arch atlasa2); UsageError
    // listing the choices otherwise.
    std::optional<std::string> choice(std::string_view name, std::span<const std::string_view> choices) const;
    // The option's value as a number of seconds (> 0, at most `hi`).
    std::optional<double> seconds(std::string_view name, double hi) const;
    // The option's value as a number in [lo, hi]; UsageError naming the option otherwise.
    std::optional<double> number(std::string_view name, double lo, double hi) const;
    // --jobs N in [1, 256]; without it the number of online cores (std::thread::hardware_concurrency, at
    // least 1).
    int jobs() const;
    // --shard K/N (evg/shard.hpp); UsageError naming the option and what is wrong otherwise.
    std::optional<evg::Shard> shard() const;

  private:
    static Args parse_words(std::span<const char* const> argv, std::span<const OptionSpec> specs,
                            std::string_view command, size_t max_positional, size_t* operands_at);
    std::string command_;
    std::map<std::string, std::string> values_;
    std::vector<std::string> positional_;
};

// "evgcheck COMMAND ARG..." as a shell reads it (an argument with a space or a shell character in single
// quotes), without the options named in `left_out` and their values (an option has a value when its spec
// names one): the command line a report names.
std::string command_text(std::string_view command, std::span<const char* const> argv,
                         std::span<const OptionSpec> specs, std::initializer_list<std::string_view> left_out);

// "Options:" followed by one aligned line per option.
std::string options_help(std::span<const OptionSpec> specs);

// Output locations are checked before any work, so that a long run never ends on an unwritable path. An
// output folder (--out) is created if missing and a file is written and removed in it. A file option's path
// (--json, --timeline) must not be a folder and its parent folder must exist: it is never created, so a typo
// cannot make folders anywhere. UsageError naming the option and the command otherwise.
void check_output_dir(const std::string& dir, std::string_view option, std::string_view command);
void check_output_file(const std::string& path, std::string_view option, std::string_view command);
// --timeline's file: as check_output_file, and its name ends in .json (Chrome trace / Perfetto) or .html.
void check_timeline_file(const std::string& path, std::string_view command);

// `word` equals one of `choices` without regard to case: that choice's spelling, else nullopt.
std::optional<std::string> match_choice(std::string_view word, std::span<const std::string_view> choices);

// The chips by name without regard to case ("AtlasA2", "atlasa2", "ASCEND950"), and the names to list.
inline constexpr std::string_view kArchNames[] = {"AtlasA2", "Ascend950"};

// The closest of `candidates` to `word` within an edit distance of 2 (for "did you mean"), or empty.
std::string closest(std::string_view word, std::span<const std::string_view> candidates);

}  // namespace evgcheck
