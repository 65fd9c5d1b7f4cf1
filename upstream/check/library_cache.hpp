// The upstream check's cache of compiled libraries of corpus instances (upstream_check.hpp): one CMake
// project per source text, checkout and evgcheck build, in <work>/lib-<hash>, configured with the build
// folder's package (evg_upstream_side_library) and built with the build's compiler. A project built before is
// only brought up to date (Ninja: nothing to do unless a header of the checkout or a library of the package
// changed). Two checks sharing the work folder build one library one at a time (a file lock per library).
#pragma once
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace evg::upstream::check {

// What makes a library of instances besides its source and the checkout: the evgcheck build it is compiled
// against and loaded by (its package folder and the package's files, which carry the build's flags, a
// sanitizer's among them; its compiler; its version; its runner). Builds that share a work folder (the
// default ~/.cache/evgcheck/upstream) keep apart libraries: a release check never loads a sanitizer build's.
std::string build_identity();

class LibraryCache {
  public:
    // `budget`: seconds of compiling for libraries not built before; `stop`: the command's time budget;
    // `optimize`: the -O level of the libraries' kernel code (evg_upstream_side_library's OPTIMIZE): 1 for
    // graphs whose cases run (upstream's kernel code runs slower at 0:
    // cmake/evg_upstream_side_library.cmake), 0 for the node suite's cells, which a build compiles 3 to 5
    // times faster and runs once.
    LibraryCache(std::filesystem::path work, std::string root, double budget,
                 std::chrono::steady_clock::time_point stop, int optimize = 1);

    struct Result {
        std::optional<std::filesystem::path> library;
        std::string error;   // the compiler's words (tail) when it failed
        std::string output;  // the build's whole output when it failed (every note of every error)
        bool budget_spent = false;
        bool cached = false;
    };

    // The library of `source` (a file of corpus instances), compiled or brought up to date.
    Result build(const std::string& source);
    // The same of several files of instances (instance indices distinct across them), compiled side by side.
    Result build(const std::vector<std::string>& sources);
    // Compiles with no limit on the errors a compile reports (-fmax-errors=0, which the kernel compiler's
    // launcher passes to Clang as -ferror-limit=0; Clang stops at 20 by default): a library of several
    // instances that each fail reports every one's failure in one compile (upstream/kernel_rules). Call it
    // before the first build; its libraries are not those of a cache without it.
    void report_every_error();
    // A library the runner refused as stale (its ABI stamp is not the runner's: runner_protocol.hpp's
    // kExitStale), built again from nothing: its build folder is removed, its source compiled anew.
    Result rebuild(const std::filesystem::path& library);

    double spent() const { return spent_; }
    double budget() const { return budget_; }
    int compiles() const { return compiles_; }
    int cached() const { return cached_; }

  private:
    std::filesystem::path work_;
    std::string root_, identity_;
    double budget_, spent_ = 0;
    std::chrono::steady_clock::time_point stop_;
    int optimize_;
    bool every_error_ = false;
    int compiles_ = 0, cached_ = 0;
};

// The work folder a command uses when given none: $XDG_CACHE_HOME/evgcheck/upstream, else
// ~/.cache/evgcheck/upstream (absolute).
std::filesystem::path default_work_dir();
// Why this evgcheck cannot compile libraries against a checkout ("" when it can): no build folder package.
std::string compile_setup_error();

}  // namespace evg::upstream::check
