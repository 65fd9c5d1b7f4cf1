// evgcheck's subcommands. Each returns the exit code: 0 success, 1 a failed check, 2 bad input (it throws
// UsageError or InputError for that; main prints them), 3 an internal error or an exhausted time budget.
#pragma once
#include <span>

namespace evgcheck {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitInternal = 3;

int run_command(std::span<const char* const> args);
int emit_command(std::span<const char* const> args);
int check_command(std::span<const char* const> args);
int conformance_command(std::span<const char* const> args);
int sync_table_command(std::span<const char* const> args);
int fuzz_command(std::span<const char* const> args);
int run_program_command(std::span<const char* const> args);
int report_command(std::span<const char* const> args);

// Stops the process with exit code 3 and a message naming the option when `seconds` pass (SIGALRM).
void arm_time_budget(double seconds, const char* option);

}  // namespace evgcheck
