// A plain replay driver for the sync_program target (GCC build, no libFuzzer): runs LLVMFuzzerTestOneInput
// over files and directories given as arguments, or over random inputs (`--random N [--seed S] [--mix]`).
// The input being run is kept in ./sync_program_current.bin, so that an abort leaves it behind.
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

void run_file(const std::filesystem::path& f) {
    std::ifstream in(f, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::fprintf(stderr, "%s\n", f.c_str());
    run(bytes, false);
}

}  // namespace

int main(int argc, char** argv) {
    uint64_t random = 0, seed = 1;
    bool mix = false;  // --mix: random inputs decode to mix launches (AIC + two AIVs) only
    std::vector<std::string> paths;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--random") && i + 1 < argc)
            random = std::stoull(argv[++i]);
        else if (!std::strcmp(argv[i], "--mix"))
            mix = true;
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
        std::vector<uint8_t> bytes(std::uniform_int_distribution<size_t>(1, 64)(rng));
        for (auto& b : bytes) b = static_cast<uint8_t>(rng());
        if (mix) bytes[0] |= 4;
        run(bytes, true);
    }
    const auto& s = evg::fuzz::sync_program_stats();
    std::printf(
        "sync_program: %llu inputs, %llu compared (%llu clean, %llu with set-twice, %llu memory-checked "
        "under 20 "
        "adversarial schedules), %llu with ambiguous cross-core matching (compared only with "
        "EVG_SYNC_STRICT=1), %llu exploration incomplete\n",
        (unsigned long long)s.inputs, (unsigned long long)s.compared, (unsigned long long)s.clean,
        (unsigned long long)s.set_twice, (unsigned long long)s.memory_checked,
        (unsigned long long)s.ambiguous, (unsigned long long)s.incomplete);
    for (const auto& [kind, n] : collected)
        std::printf("  disagreement '%s': %d input(s)\n", kind.c_str(), n);
    return 0;
}
