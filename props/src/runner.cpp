// The property runner in one process: a rapidcheck run with shrinking, and the Outcome with its report and
// replay line; with jobs > 1 the cases are split over forked workers (workers.cpp).
#include "evg/props/runner.hpp"

#include "evg/hw/checker.hpp"
#include "evg/process/shell_quote.hpp"
#include "evg/props/progress_line.hpp"

#include <fmt/format.h>

#include <cstdio>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <vector>

#include "attempt.hpp"
#include "evg/hw/error.hpp"
#include "evg/props/regression.hpp"
#include "evg/props/require.hpp"
#include "rc_bridge.hpp"

namespace evg::props {

namespace {

// The tag of a failure the body just ended with (require.hpp).
std::string failure_tag(const rc_bridge::BodyResult& r) {
    if (auto t = take_failure_tag()) return *t;
    return r.kind == rc_bridge::Kind::exception ? "exception" : "assertion";
}

}  // namespace

std::optional<Failure> failure_of(const Property& property, const Case& c) {
    take_failure_tag();
    const rc_bridge::BodyResult r = rc_bridge::run_body([&] { property(c); });
    if (r.kind == rc_bridge::Kind::failure || r.kind == rc_bridge::Kind::exception)
        return Failure{failure_tag(r), r.description};
    take_failure_tag();
    return std::nullopt;
}

void tally(const std::string& name, long long n) {
    detail::process_tallies()[name] += n;
}

uint64_t worker_seed(uint64_t seed, int worker) {
    // splitmix64's finaliser, a bijection of 64-bit words, over seed + (worker + 1) * the golden ratio.
    uint64_t z = seed + (static_cast<uint64_t>(worker) + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

namespace {

// The variable's value as a whole number in [lo, hi]; nullopt when it is unset or empty. Anything else is
// refused naming the variable, as the model's own variables are (acl.h).
std::optional<uint64_t> env_number(const char* name, uint64_t lo, uint64_t hi) {
    const char* s = std::getenv(name);
    if (s == nullptr || *s == '\0') return std::nullopt;
    uint64_t v = 0;
    const char* end = s + std::strlen(s);
    const auto [at, ec] = std::from_chars(s, end, v);
    if (ec != std::errc() || at != end || v < lo || v > hi)
        throw evg::Error(fmt::format("{}='{}': expected a whole number from {} to {}", name, s, lo, hi));
    return v;
}

}  // namespace

int env_jobs(int fallback) {
    if (const auto j = env_number("EVG_PROPS_JOBS", 1, 256)) return static_cast<int>(*j);
    return fallback;
}

int scaled_cases(int cases) {
    constexpr uint64_t kMax = 100'000'000;  // `evgcheck check --cases` takes as many
    if (const auto n = env_number("EVG_PROPS_CASE_COUNT", 1, kMax)) return static_cast<int>(*n);
    if (const auto f = env_number("EVG_PROPS_CASES", 1, kMax / std::max(1, cases)))
        return static_cast<int>(static_cast<uint64_t>(cases) * *f);
    return cases;
}

uint64_t env_seed(uint64_t fallback) {
    if (const auto s = env_number("EVG_PROPS_SEED", 0, std::numeric_limits<uint64_t>::max())) return *s;
    return fallback;
}

namespace detail {

std::map<std::string, long long>& process_tallies() {
    static std::map<std::string, long long> tallies;
    return tallies;
}

// One rapidcheck run of `cases` cases from `seed` in this process, shrinking a failure (see the header).
Attempt attempt(const std::string& name, const Property& property, const RunConfig& cfg, uint64_t seed,
                int cases, Coverage* coverage, const Hooks& hooks) {
    Attempt a;
    ShrinkState& st = a.st;
    auto testable = [&](const Case& c) {
        if (st.exhausted) return;  // passes: rapidcheck keeps the best failing case so far
        if (st.failed) {
            ++st.steps;
            const double secs =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - st.first_failure).count();
            if (st.steps > cfg.shrink_steps || secs > cfg.shrink_seconds) {
                st.exhausted = true;
                return;  // passes: rapidcheck keeps the best failing case so far
            }
        }
        take_failure_tag();  // nothing left over from an earlier call
        case_outcome_tags().clear();
        const rc_bridge::BodyResult r = rc_bridge::run_body([&] { property(c); });
        if (r.kind == rc_bridge::Kind::failure || r.kind == rc_bridge::Kind::exception) {
            const std::string tag = failure_tag(r);
            // A shrink candidate that fails for another reason is another fault: it counts as passing, so
            // rapidcheck does not move to it.
            if (st.failed && tag != st.tag) return;
            if (!st.failed) {
                st.first_failure = std::chrono::steady_clock::now();
                st.tag = tag;
                st.first = c;
                if (hooks.on_first_failure) hooks.on_first_failure();
            }
            st.failed = true;
            st.best = c;
            st.reason = r.description;
        }
        if (r.thrown) std::rethrow_exception(r.thrown);
        if (!st.failed) {
            if (coverage) {
                coverage->record(c);
                for (const std::string& t : case_outcome_tags()) coverage->note(t);
            }
            ++a.passed;
            if (hooks.on_pass) hooks.on_pass(a.passed);
        }
    };
    rc_bridge::CheckParams params;
    params.name = name;
    params.seed = seed;
    params.cases = cases;
    params.max_size = cfg.max_size;
    params.max_discard_ratio = cfg.max_discard_ratio;
    params.shrink = cfg.shrink;
    const rc::Gen<Case> gen = cfg.case_source ? *cfg.case_source : case_gen(cfg.gen);
    a.rc_failure = rc_bridge::check(
        [&] {
            const Case c = *gen;
            testable(c);
        },
        params);
    if (st.failed)
        a.shrink_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - st.first_failure).count();
    return a;
}

}  // namespace detail

namespace {

using evg::process::shell_quote;

// The binary in the replay line: RunConfig::replay_binary, else this process's executable by its absolute
// path, so that the line runs as printed from any folder.
std::string binary_of(const RunConfig& cfg) {
    if (!cfg.replay_binary.empty()) return shell_quote(cfg.replay_binary);
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return shell_quote(ec ? std::string("evg_props_tests") : self.string());
}

// The gtest filter that runs the property alone.
std::string filter_of(const std::string& name, const RunConfig& cfg) {
    if (!cfg.replay_filter.empty()) return cfg.replay_filter;
    std::string filter = name;  // the gtest name: "Props/Name" runs as TEST(Props, Name...)
    std::replace(filter.begin(), filter.end(), '/', '.');
    return filter + "*";
}

// The environment that replays the run: with jobs > 1 the worker's seed and case count in one process.
// EVG_PROPS_PLANTED (the upstream hazards a property binary switches on, `evgcheck check --planted`) is part
// of it when set: without it the replay would run the library without the planted fault.
std::string planted_env() {
    const char* planted = std::getenv("EVG_PROPS_PLANTED");
    std::string env = planted != nullptr && *planted != '\0'
                          ? fmt::format("EVG_PROPS_PLANTED={} ", shell_quote(planted))
                          : std::string();
    // And the NaN/infinity policy (`evgcheck check --fp`), which every launch of the binary reads.
    if (const char* fp = std::getenv(evg::hw::kFpEnvName); fp != nullptr && *fp != '\0')
        env += fmt::format("{}={} ", evg::hw::kFpEnvName, shell_quote(fp));
    return env;
}

std::string replay_env(uint64_t seed, int cases, bool worker) {
    const std::string hazards = planted_env();
    // The case count too: the cases drawn depend on it (rapidcheck grows the size with the case number).
    if (!worker) return fmt::format("{}EVG_PROPS_SEED={} EVG_PROPS_CASE_COUNT={}", hazards, seed, cases);
    return fmt::format("{}EVG_PROPS_SEED={} EVG_PROPS_CASE_COUNT={} EVG_PROPS_JOBS=1", hazards, seed, cases);
}

}  // namespace

namespace detail {

// The Outcome of a run that drew `cases` cases from `seed` (a worker's when `worker`).
Outcome conclude(const std::string& name, const RunConfig& cfg, const Attempt& a, uint64_t seed, int cases,
                 bool worker) {
    Outcome out;
    out.passed = a.passed;
    out.seed = seed;
    out.cases = cases;
    if (!a.rc_failure && !a.st.failed && a.error.empty()) return out;
    const ShrinkState& st = a.st;
    out.ok = false;
    out.tag = st.tag;
    out.minimal = st.best;
    out.first = st.first;
    out.reason = st.reason;
    out.shrink_steps = st.steps;
    out.shrink_seconds = a.shrink_seconds;
    out.budget_exhausted = st.exhausted;
    std::string replay;
    if (cfg.save_dir && out.minimal) out.saved = save_case(*out.minimal, name, *cfg.save_dir);
    if (out.saved && cfg.save_dir == cfg.regression_dir) {
        replay = fmt::format("{}{} --gtest_filter='Regressions.{}'   # replays {}", planted_env(),
                             binary_of(cfg), out.saved->stem().string(), out.saved->string());
    } else {
        replay = fmt::format("{} {} --gtest_filter='{}'", replay_env(seed, cases, worker), binary_of(cfg),
                             filter_of(name, cfg));
        if (out.saved)
            replay += fmt::format(
                "\n# the minimal case is saved as {}; to keep it as a regression test copy it into "
                "props/regressions/ (or run with EVG_PROPS_SAVE_TO_SOURCE=1)",
                out.saved->string());
    }
    std::string reason = out.reason;
    if (out.budget_exhausted)
        reason += fmt::format("\n(shrink budget of {} steps / {} s ran out: this is the best case so far)",
                              cfg.shrink_steps, cfg.shrink_seconds);
    if (out.minimal)
        out.report = failure_report(*out.minimal, name, reason, seed, replay, cfg.dialect);
    else if (!a.error.empty())
        out.report = fmt::format("property {} failed: {}\n--- replay ---\n{}\n", name, a.error, replay);
    else
        out.report = fmt::format("property {} failed: {}", name, a.rc_failure.value_or("?"));
    return out;
}

}  // namespace detail

Outcome check_property(const std::string& name, const Property& property, const RunConfig& cfg,
                       Coverage* coverage) {
    // EVG_PROPS_PROGRESS=1 (set by `evgcheck check`): one line per passing case, for its progress bar.
    const char* progress_env = std::getenv("EVG_PROPS_PROGRESS");
    const bool progress_lines = progress_env != nullptr && std::string(progress_env) == "1";
    if (cfg.jobs > 1 && cfg.cases > 1)
        return detail::check_in_workers(name, property, cfg, coverage, progress_lines);
    detail::process_tallies().clear();
    detail::Hooks hooks;
    hooks.on_pass = [&](int passed) {
        if (cfg.progress) cfg.progress(passed, cfg.cases);
        if (progress_lines) std::fputs(progress_line(name, passed, cfg.cases).c_str(), stderr);
    };
    const detail::Attempt a = detail::attempt(name, property, cfg, cfg.seed, cfg.cases, coverage, hooks);
    Outcome out = detail::conclude(name, cfg, a, cfg.seed, cfg.cases, false);
    out.tallies = detail::process_tallies();
    return out;
}

}  // namespace evg::props
