// evgcheck: run an epilogue graph on the model, check the properties, print a graph as C++.
// Nothing a user types may crash the tool: every exception ends here with a message and an exit code.
#include <csignal>
#include <cstring>
#include <exception>
#include <iostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "args.hpp"
#include "commands.hpp"
#include "evg/hw/error.hpp"
#include "evg/process/subprocess.hpp"
#include "load.hpp"

#ifndef EVGCHECK_VERSION
#error "EVGCHECK_VERSION (the project version) is set by tools/CMakeLists.txt"
#endif

namespace evgcheck {

namespace {

// The subcommands, once: the dispatch, the usage text and the unknown-command message read this table.
struct Command {
    std::string_view name;
    std::string_view operands;  // shown after the name in the usage
    std::string_view summary;
    int (*run)(std::span<const char* const>);
};
constexpr Command kCommands[] = {
    {"run", "GRAPH", "run the graph's GEMM + epilogue on the model, check it, compare with the oracle",
     run_command},
    {"check", "", "run the random-graph properties (progress bar, shrunk counterexample on failure)",
     check_command},
    {"emit", "GRAPH", "print the graph as Catlass C++", emit_command},
    {"conformance", "", "run the conformance catalogue and write the report (HTML, Markdown, JSON, JUnit)",
     conformance_command},
    {"fuzz", "TARGET",
     "run a fuzz session with a libFuzzer target (findings minimised, with replay commands)", fuzz_command},
    {"sync-table", "",
     "mutate the sync of real kernels, classify each mutation against the schedule explorer",
     sync_table_command},
    {"report", "merge SHARD...",
     "merge the reports of a sharded run's shards into the report of the whole run", report_command},
    {"run-program", "BINARY [args]",
     "run a Catlass program built with evgcheck_add_program on the model, checked", run_program_command},
};

std::string usage() {
    std::string out =
        "Usage: evgcheck COMMAND [options]\n"
        "\n"
        "evgcheck runs Catlass Epilogue Visitor Graphs on a CPU model of the Ascend AI core and checks "
        "them.\n"
        "\n"
        "Commands:\n";
    for (const Command& c : kCommands) {
        const std::string head =
            c.operands.empty() ? std::string(c.name) : fmt::format("{} {}", c.name, c.operands);
        out += fmt::format("  {:<25} {}\n", head, c.summary);
    }
    out +=
        "\n"
        "`evgcheck COMMAND --help` describes each command's options; `evgcheck --version` prints the "
        "version.\n"
        "GRAPH is a file in the graph text format (docs/graph-format.md; tools/examples/ has some), or - "
        "for\n"
        "standard input. Exit codes: 0 success, 1 a failed check, 2 bad input, 3 internal error or "
        "exhausted\n"
        "time budget.\n";
    return out;
}

char g_budget_message[256];

extern "C" void on_time_budget(int) {
    evg::process::signal_children(SIGTERM);  // what the command started ends with it
    const ssize_t ignored = ::write(2, g_budget_message, std::strlen(g_budget_message));
    (void)ignored;
    ::_exit(kExitInternal);
}

}  // namespace

void arm_time_budget(double seconds, const char* option) {
    std::snprintf(g_budget_message, sizeof g_budget_message,
                  "evgcheck: stopped after %.0f s (the time budget; raise it with %s)\n", seconds, option);
    std::signal(SIGALRM, on_time_budget);
    ::alarm(static_cast<unsigned>(seconds < 1 ? 1 : seconds + 0.5));
}

int dispatch(int argc, char** argv) {
    const std::span<const char* const> all(const_cast<const char* const*>(argv), static_cast<size_t>(argc));
    if (argc < 2) {
        std::cerr << usage();
        return kExitBadInput;
    }
    const std::string_view command = argv[1];
    const auto rest = all.subspan(2);
    for (const Command& c : kCommands)
        if (command == c.name) return c.run(rest);
    if (command == "--version" || command == "version") {
        std::cout << "evgcheck " << EVGCHECK_VERSION << "\n";
        return kExitOk;
    }
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << usage();
        return kExitOk;
    }
    std::vector<std::string_view> names;
    for (const Command& c : kCommands) names.push_back(c.name);
    std::string msg = fmt::format("evgcheck: unknown command '{}'", command);
    if (const std::string near = closest(command, names); !near.empty())
        msg += "; did you mean '" + near + "'?";
    throw UsageError(msg + fmt::format(" (commands: {}; see evgcheck --help)", fmt::join(names, ", ")));
}

}  // namespace evgcheck

int main(int argc, char** argv) {
    using namespace evgcheck;
    try {
        return dispatch(argc, argv);
    } catch (const UsageError& e) {
        std::cerr << e.what() << "\n";
        return kExitBadInput;
    } catch (const InputError& e) {
        std::cerr << e.what() << "\n";
        return kExitBadInput;
    } catch (const evg::Error& e) {
        std::cerr << "evgcheck: " << e.what() << "\n";
        return kExitBadInput;
    } catch (const std::exception& e) {
        std::cerr << "evgcheck: internal error: " << e.what() << "\n";
        return kExitInternal;
    } catch (...) {
        std::cerr << "evgcheck: internal error: an unknown exception\n";
        return kExitInternal;
    }
}
