// A plain replay driver for the sync_program target (GCC build, no libFuzzer): runs LLVMFuzzerTestOneInput
// over files and directories given as arguments, over random inputs (`--random N [--seed S] [--mix]`), and
// over inputs the structure-aware mutator makes (`--mutate N [--seed S]`: each is a mutation of a file given,
// or of an earlier mutant, kept in a pool of at most 4096 inputs). The input being run is kept in
// ./sync_program_current.bin, so that an abort leaves it behind. At the end it prints the counts and the
// pattern coverage of every input run (`--no-patterns`: the counts only).
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "sync_program.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::map<std::string, int> collected;

void save(const std::string& path, const std::vector<uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

void run(const std::vector<uint8_t>& bytes, bool keep) {
    if (keep) save("sync_program_current.bin", bytes);
    try {
        LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    } catch (const evg::fuzz::Disagreement& d) {
        // EVG_SYNC_COLLECT=<dir>: keep the input under the first words of the disagreement, and go on.
        std::string what = d.what();
        std::string kind = what.substr(0, what.find(':'));
        for (char& ch : kind)
            if (ch == ' ') ch = '-';
        int n = collected[kind]++;
        std::filesystem::create_directories(std::getenv("EVG_SYNC_COLLECT"));
        std::string base =
            std::string(std::getenv("EVG_SYNC_COLLECT")) + "/" + kind + "-" + std::to_string(n);
        save(base + ".bin", bytes);
        std::ofstream(base + ".txt") << what << "\n";
    }
}

std::vector<std::vector<uint8_t>> pool;  // --mutate: the inputs mutants are made from

void run_file(const std::filesystem::path& f) {
    std::ifstream in(f, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::fprintf(stderr, "%s\n", f.c_str());
    run(bytes, false);
    pool.push_back(std::move(bytes));
}

}  // namespace

int main(int argc, char** argv) {
    uint64_t random = 0, mutate = 0, seed = 1;
    bool mix = false;  // --mix: random inputs decode to mix launches (AIC + two AIVs) only
    bool patterns = true;
    std::vector<std::string> paths;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--random") && i + 1 < argc)
            random = std::stoull(argv[++i]);
        else if (!std::strcmp(argv[i], "--mutate") && i + 1 < argc)
            mutate = std::stoull(argv[++i]);
        else if (!std::strcmp(argv[i], "--mix"))
            mix = true;
        else if (!std::strcmp(argv[i], "--no-patterns"))
            patterns = false;
        else if (!std::strcmp(argv[i], "--write-seeds") && i + 1 < argc) {
            std::filesystem::create_directories(argv[i + 1]);
            for (const auto& [name, program] : evg::fuzz::sync_program_seeds())
                save(std::string(argv[i + 1]) + "/" + name + ".bin", evg::fuzz::encode_sync_program(program));
            ++i;
        } else if (!std::strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = std::stoull(argv[++i]);
        else
            paths.push_back(argv[i]);
    }
    for (const auto& p : paths) {
        if (std::filesystem::is_directory(p)) {
            for (const auto& e : std::filesystem::directory_iterator(p))
                if (e.is_regular_file()) run_file(e.path());
        } else {
            run_file(p);
        }
    }
    std::mt19937_64 rng(seed);
    for (uint64_t n = 0; n < random; ++n) {
        std::vector<uint8_t> bytes(std::uniform_int_distribution<size_t>(1, 96)(rng));
        for (auto& b : bytes) b = static_cast<uint8_t>(rng());
        if (mix) bytes[0] |= 4;
        run(bytes, true);
    }
    if (mutate > 0 && pool.empty()) {
        std::fprintf(stderr, "sync_program_campaign: --mutate needs input files to start from\n");
        return 2;
    }
    constexpr size_t kPool = 4096, kMaxLen = 256;
    for (uint64_t n = 0; n < mutate; ++n) {
        const std::vector<uint8_t>& from = pool[static_cast<size_t>(rng() % pool.size())];
        std::vector<uint8_t> bytes = evg::fuzz::mutate_sync_program(from.data(), from.size(), kMaxLen, rng());
        if (bytes.empty()) continue;
        run(bytes, true);
        if (pool.size() < kPool)
            pool.push_back(std::move(bytes));
        else
            pool[static_cast<size_t>(rng() % kPool)] = std::move(bytes);
    }
    const auto& s = evg::fuzz::sync_program_stats();
    std::printf(
        "sync_program: %llu inputs, %llu compared (%llu clean, %llu with set-twice, %llu memory-checked "
        "under 20 "
        "adversarial schedules), %llu with ambiguous cross-core matching (named by both), %llu exploration "
        "incomplete, %llu happens-before decision given up\n",
        (unsigned long long)s.inputs, (unsigned long long)s.compared, (unsigned long long)s.clean,
        (unsigned long long)s.set_twice, (unsigned long long)s.memory_checked,
        (unsigned long long)s.ambiguous, (unsigned long long)s.incomplete, (unsigned long long)s.undecided);
    for (const auto& [kind, n] : collected)
        std::printf("  disagreement '%s': %d input(s)\n", kind.c_str(), n);
    if (patterns) std::printf("%s", evg::fuzz::pattern_table_text().c_str());
    return 0;
}
