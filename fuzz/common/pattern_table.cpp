// The pattern table of a fuzz target's process (pattern_table.hpp).
#include "pattern_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>

#include "evg/hw/fnv1a.hpp"

// One libFuzzer extra counter per pattern, its slot in the table, so two patterns never share a counter. In a
// libFuzzer binary libFuzzer finds the section and clears it before each input; elsewhere nothing reads it.
extern "C" {
__attribute__((used, section("__libfuzzer_extra_counters")))
uint8_t evg_fuzz_pattern_counters[evg::fuzz::kPatternTableSlots];
}

namespace evg::fuzz {

namespace {

// The table lives in fixed storage, so that counting an input allocates nothing even when the input reaches a
// new pattern: libFuzzer runs every input with new coverage a second time, and a full leak check after it,
// when the first run left more allocations than frees (a map node per new pattern did, on exactly the inputs
// that matter). A sync_program session reaches 150-250 distinct patterns, an epilogue_mutation one fewer; a
// name is under 120 characters.
constexpr size_t kNameBytes = 160;
struct Slot {
    bool used = false;
    uint8_t len = 0;
    std::array<char, kNameBytes> name{};
    PatternCount count;
};
std::array<Slot, kPatternTableSlots>& slots() {
    static std::array<Slot, kPatternTableSlots> table;  // zero-initialised storage, no allocation
    return table;
}
// Reaches of patterns that got no slot (pattern_index).
PatternCount& unlisted() {
    static PatternCount c;
    return c;
}
constexpr const char* kUnlistedPatterns = "(patterns without a slot: the table full or the name too long)";

}  // namespace

size_t pattern_index(std::string_view name) {
    // A name longer than a slot holds, or a new name once every slot is taken, gets no slot: it is counted as
    // unlisted rather than merged into another pattern's row (neither happens: names are under 120 characters
    // and sessions reach a few hundred patterns).
    if (name.size() >= kNameBytes) return kNoPatternSlot;
    const uint64_t h = hw::Fnv1a64().add(name).value();
    auto& table = slots();
    for (size_t probe = 0; probe < kPatternTableSlots; ++probe) {
        const size_t i = (h + probe) % kPatternTableSlots;
        Slot& s = table[i];
        if (!s.used) {
            s.used = true;
            s.len = static_cast<uint8_t>(name.size());
            std::copy(name.begin(), name.end(), s.name.begin());
            return i;
        }
        if (std::string_view(s.name.data(), s.len) == name) return i;
    }
    return kNoPatternSlot;
}

std::map<std::string, PatternCount> pattern_table() {
    std::map<std::string, PatternCount> out;
    for (const Slot& s : slots())
        if (s.used && (s.count.inputs || s.count.disagreements)) {
            PatternCount& c = out[std::string(s.name.data(), s.len)];
            c.inputs += s.count.inputs;
            c.disagreements += s.count.disagreements;
        }
    if (unlisted().inputs || unlisted().disagreements) out[kUnlistedPatterns] = unlisted();
    return out;
}

void count_patterns(const std::vector<std::string>& patterns, bool disagreement) {
    for (const auto& name : patterns) {
        const size_t i = pattern_index(name);
        PatternCount& c = i == kNoPatternSlot ? unlisted() : slots()[i].count;
        if (disagreement)
            ++c.disagreements;
        else
            ++c.inputs;
    }
}

std::string pattern_table_text() {
    const std::map<std::string, PatternCount> table = pattern_table();
    std::string s = fmt::format("pattern coverage: {} patterns\n  {:>9} {:>13}  pattern\n", table.size(),
                                "inputs", "disagreements");
    for (const auto& [name, c] : table)
        s += fmt::format("  {:>9} {:>13}  {}\n", c.inputs, c.disagreements, name);
    return s;
}

// One line of the file: "<inputs>\t<disagreements>\t<pattern>".
constexpr const char* kPatternLine = "%llu\t%llu\t%s\n";

bool write_pattern_table(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) return false;
    for (const auto& [name, c] : pattern_table())
        std::fprintf(f, kPatternLine, static_cast<unsigned long long>(c.inputs),
                     static_cast<unsigned long long>(c.disagreements), name.c_str());
    return std::fclose(f) == 0;
}

std::vector<std::pair<std::string, PatternCount>> read_pattern_table(std::string_view text) {
    std::vector<std::pair<std::string, PatternCount>> out;
    while (!text.empty()) {
        const size_t nl = text.find('\n');
        const std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        const size_t t1 = line.find('\t');
        const size_t t2 = t1 == std::string_view::npos ? t1 : line.find('\t', t1 + 1);
        if (t2 == std::string_view::npos || t2 + 1 >= line.size()) continue;
        PatternCount c;
        const auto a = std::from_chars(line.data(), line.data() + t1, c.inputs);
        const auto b = std::from_chars(line.data() + t1 + 1, line.data() + t2, c.disagreements);
        if (a.ec != std::errc{} || a.ptr != line.data() + t1 || b.ec != std::errc{} ||
            b.ptr != line.data() + t2)
            continue;
        out.emplace_back(std::string(line.substr(t2 + 1)), c);
    }
    return out;
}

namespace {
const std::vector<std::string>* g_running = nullptr;  // the patterns of the input being run
}  // namespace

void write_pattern_table_if_asked() {
    if (const char* path = std::getenv("EVG_FUZZ_PATTERNS")) write_pattern_table(path);
}

InputPatterns::InputPatterns(const std::vector<std::string>& patterns) {
    static const bool at_exit =
        std::getenv("EVG_FUZZ_PATTERNS") && std::atexit(write_pattern_table_if_asked) == 0;
    (void)at_exit;
    g_running = &patterns;
    count_patterns(patterns, false);
    for (const std::string& name : patterns)
        if (const size_t slot = pattern_index(name); slot != kNoPatternSlot)
            evg_fuzz_pattern_counters[slot] = 1;
}

InputPatterns::~InputPatterns() {
    g_running = nullptr;
}

void count_disagreement() {
    if (g_running) count_patterns(*g_running, true);
}

}  // namespace evg::fuzz
