// Pattern coverage of a fuzz target's process: named features of what its inputs reached (sync_program: how a
// program uses flags and cross-core counters; epilogue_mutation: which mutation of which component the
// checkers and the explorer classified how). Each pattern has a slot, the same for the process's life, which
// the libFuzzer binary sets as one of libFuzzer's extra counters, so that an input reaching a new pattern is
// kept; with EVG_FUZZ_PATTERNS=FILE the target writes the table at exit and before a disagreement aborts, and
// `evgcheck fuzz` reports it. Counting allocates nothing, even for a new pattern (libFuzzer re-runs, with a
// leak check, an input that allocated more than it freed).
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace evg::fuzz {

// Per pattern: the inputs that reached it and the disagreements (findings) among them.
struct PatternCount {
    uint64_t inputs = 0, disagreements = 0;
};
// The table, by name (made when asked: counting allocates nothing).
std::map<std::string, PatternCount> pattern_table();
// Counts an input that reached `patterns` (disagreement = false), or a disagreement on it (true).
void count_patterns(const std::vector<std::string>& patterns, bool disagreement);
// The slot of a pattern in the table, the same for the process's life, one per pattern (libFuzzer's extra
// counter of the pattern, in the libFuzzer binary); kNoPatternSlot when it gets none (counted as unlisted).
inline constexpr size_t kPatternTableSlots = 1024;
inline constexpr size_t kNoPatternSlot =
    kPatternTableSlots;  // no slot: the table is full, or the name too long
size_t pattern_index(std::string_view name);
std::string pattern_table_text();  // "pattern coverage: N patterns" and one line per pattern
// Writes the table as lines "<inputs>\t<disagreements>\t<pattern>"; false when the file cannot be written.
bool write_pattern_table(const std::string& path);
// Reads what write_pattern_table wrote (`evgcheck fuzz` reads the file a session's target leaves), in the
// file's order; lines that do not have that form are skipped.
std::vector<std::pair<std::string, PatternCount>> read_pattern_table(std::string_view text);

// What a target does with one input's patterns, for as long as the input runs: counts them as reached, sets
// each one's libFuzzer extra counter (libFuzzer clears them before each input; other binaries never read
// them), and keeps them (by reference: `patterns` must outlive it) so that count_disagreement() can count
// them when the input breaks an invariant. The first one made registers writing the table at exit when
// EVG_FUZZ_PATTERNS=FILE is set.
class InputPatterns {
  public:
    explicit InputPatterns(const std::vector<std::string>& patterns);
    ~InputPatterns();
    InputPatterns(const InputPatterns&) = delete;
    InputPatterns& operator=(const InputPatterns&) = delete;
};
// Counts the running input's patterns (an InputPatterns alive) as a disagreement; nothing when none is.
void count_disagreement();
// Writes the table to the file EVG_FUZZ_PATTERNS names, when it is set (before a disagreement aborts).
void write_pattern_table_if_asked();

}  // namespace evg::fuzz
