// The replay program of a fuzz target (fuzz_<target>_replay): LLVMFuzzerTestOneInput, built with the
// project's compiler and without libFuzzer, run over inputs given on the command line.
//
//   fuzz_<target>_replay [options] PATH...      every file of each PATH (a file, or a folder: its files, not
//                                               hidden ones, in name order)
//   --corpus DIR        a folder that must exist and hold at least one input (the target's seed corpus)
//   --regressions DIR   a folder of saved findings; missing or empty is allowed and said
//   -runs=N             also run N random inputs (bytes from -seed, lengths up to -max_len; half of them
//                       mutations of the inputs above) for a smoke run
//   -seed=S -max_len=L  (default 1, 4096)
//   -timeout=S          an input running longer than S seconds is a failure (default 0: no limit)
// libFuzzer's flags that make no sense here (-artifact_prefix=..., -rss_limit_mb=...) are accepted and
// ignored, so a replay command line can reuse a libFuzzer one. A failing input aborts the program (the target
// aborts); the program prints which input first. The last line is a summary:
//   replay: 12 corpus + 3 regression + 0 other inputs + 1000 random (seed 1) in 0.42 s, 0 failed
// Exit code: 0 every input ran, 1 a folder given with --corpus is missing or empty, 2 bad options.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) __attribute__((weak));

namespace {

namespace fs = std::filesystem;

char g_current[1024] = "(none)";
unsigned g_timeout = 0;

void set_current(const std::string& what) {
    std::snprintf(g_current, sizeof g_current, "%s", what.c_str());
}

extern "C" void on_fatal(int sig) {
    char line[1200];
    const int n = std::snprintf(line, sizeof line, "replay: %s while running input %s\n",
                                sig == SIGALRM ? "timeout" : "crash", g_current);
    if (n > 0) {
        const ssize_t ignored = ::write(2, line, static_cast<size_t>(std::min<int>(n, sizeof line - 1)));
        (void)ignored;
    }
    if (sig == SIGALRM) ::_exit(70);
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

std::vector<uint8_t> read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The files of a path: itself, or a folder's non-hidden regular files in name order.
std::vector<fs::path> files_of(const fs::path& p) {
    if (!fs::is_directory(p)) return {p};
    std::vector<fs::path> out;
    for (const fs::directory_entry& e : fs::directory_iterator(p)) {
        if (e.is_regular_file() && !e.path().filename().string().starts_with(".")) out.push_back(e.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

void run_one(const std::vector<uint8_t>& bytes, const std::string& name) {
    set_current(name);
    if (g_timeout != 0) ::alarm(g_timeout);
    // A copy in a buffer of exactly the input's size, so that ASan catches reads past its end.
    std::unique_ptr<uint8_t[]> copy(new uint8_t[bytes.size() + (bytes.empty() ? 1 : 0)]);
    std::copy(bytes.begin(), bytes.end(), copy.get());
    LLVMFuzzerTestOneInput(copy.get(), bytes.size());
    if (g_timeout != 0) ::alarm(0);
}

bool flag_value(std::string_view arg, std::string_view name, long long& out) {
    if (!arg.starts_with(name)) return false;
    const std::string value(arg.substr(name.size()));
    char* end = nullptr;
    out = std::strtoll(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || out < 0) {
        std::fprintf(stderr, "replay: %.*s expects a non-negative integer, found '%s'\n",
                     static_cast<int>(name.size() - 1), name.data(), value.c_str());
        std::exit(2);
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
    long long runs = 0, seed = 1, max_len = 4096, timeout = 0;
    std::vector<std::string> corpus_dirs, regression_dirs, paths;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if ((a == "--corpus" || a == "--regressions") && i + 1 < argc) {
            (a == "--corpus" ? corpus_dirs : regression_dirs).emplace_back(argv[++i]);
        } else if (flag_value(a, "-runs=", runs) || flag_value(a, "-seed=", seed) ||
                   flag_value(a, "-max_len=", max_len) || flag_value(a, "-timeout=", timeout)) {
        } else if (a.starts_with("-") && a.find('=') != std::string_view::npos) {
            // another libFuzzer flag: ignored
        } else if (a == "-h" || a == "--help" || a.starts_with("-")) {
            std::fprintf(stderr,
                         "usage: %s [--corpus DIR] [--regressions DIR] [-runs=N] [-seed=S] [-max_len=L] "
                         "[-timeout=S] [PATH...]\n",
                         argv[0]);
            return a.starts_with("-h") || a == "--help" ? 0 : 2;
        } else {
            paths.emplace_back(a);
        }
    }
    g_timeout = static_cast<unsigned>(timeout);
    for (const int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGALRM}) std::signal(sig, on_fatal);

    const auto start = std::chrono::steady_clock::now();
    std::vector<std::vector<uint8_t>> pool;  // every replayed input: the seeds of the random mutations
    auto replay = [&](const fs::path& file) {
        pool.push_back(read_file(file));
        run_one(pool.back(), file.string());
    };
    size_t n_corpus = 0, n_regressions = 0, n_other = 0;
    for (const std::string& d : corpus_dirs) {
        if (!fs::is_directory(d)) {
            std::fprintf(stderr, "replay: the corpus folder %s does not exist (a target needs seed inputs)\n",
                         d.c_str());
            return 1;
        }
        const auto files = files_of(d);
        if (files.empty()) {
            std::fprintf(stderr, "replay: the corpus folder %s is empty (a target needs seed inputs)\n",
                         d.c_str());
            return 1;
        }
        for (const fs::path& f : files) replay(f);
        n_corpus += files.size();
    }
    for (const std::string& d : regression_dirs) {
        if (!fs::is_directory(d)) {
            std::printf("replay: no regressions folder %s (0 regression inputs)\n", d.c_str());
            continue;
        }
        const auto files = files_of(d);
        for (const fs::path& f : files) replay(f);
        n_regressions += files.size();
    }
    for (const std::string& p : paths) {
        if (!fs::exists(p)) {
            std::fprintf(stderr, "replay: %s does not exist\n", p.c_str());
            return 2;
        }
        const auto files = files_of(p);
        for (const fs::path& f : files) replay(f);
        n_other += files.size();
    }

    std::mt19937_64 rng(static_cast<uint64_t>(seed));
    for (long long r = 0; r < runs; ++r) {
        std::vector<uint8_t> input;
        if (!pool.empty() && rng() % 2 == 0) {
            input = pool[rng() % pool.size()];
            const size_t edits = 1 + rng() % 4;
            for (size_t e = 0; e < edits; ++e) {
                const uint64_t op = rng() % 3;
                if (op == 0 && !input.empty()) {
                    input[rng() % input.size()] = static_cast<uint8_t>(rng());
                } else if (op == 1 && !input.empty()) {
                    input.erase(input.begin() + static_cast<std::ptrdiff_t>(rng() % input.size()));
                } else if (static_cast<long long>(input.size()) < max_len) {
                    input.insert(input.begin() + static_cast<std::ptrdiff_t>(rng() % (input.size() + 1)),
                                 static_cast<uint8_t>(rng()));
                }
            }
        } else {
            input.resize(static_cast<size_t>(rng() % static_cast<uint64_t>(max_len + 1)));
            for (uint8_t& b : input) b = static_cast<uint8_t>(rng());
        }
        run_one(input, "random #" + std::to_string(r) + " (seed " + std::to_string(seed) + ")");
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf(
        "replay: %zu corpus + %zu regression + %zu other inputs + %lld random (seed %lld) in %.2f s, "
        "0 failed\n",
        n_corpus, n_regressions, n_other, runs, seed, secs);
    if (n_corpus + n_regressions + n_other + static_cast<size_t>(runs) == 0) {
        std::fprintf(stderr, "replay: no input ran (give a folder, a file or -runs=N)\n");
        return 1;
    }
    return 0;
}
