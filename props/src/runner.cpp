#include "evg/props/runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "evg/props/regression.hpp"
#include "evg/props/require.hpp"
#include "rc_bridge.hpp"

namespace evg::props {

namespace {

struct ShrinkState {
    bool failed = false;
    int steps = 0;
    std::chrono::steady_clock::time_point first_failure;
    bool exhausted = false;
    std::optional<Case> best;
    std::string reason;
    std::string tag;  // the first failure's tag: a shrink candidate must fail with it to be kept
};

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

int scaled_cases(int cases) {
    if (const char* n = std::getenv("EVG_PROPS_CASE_COUNT")) return std::max(1, std::atoi(n));
    if (const char* f = std::getenv("EVG_PROPS_CASES")) return std::max(1, cases * std::atoi(f));
    return cases;
}

uint64_t env_seed(uint64_t fallback) {
    if (const char* s = std::getenv("EVG_PROPS_SEED")) return std::strtoull(s, nullptr, 10);
    return fallback;
}

Outcome check_property(const std::string& name, const Property& property, const RunConfig& cfg,
                       Coverage* coverage) {
    ShrinkState st;
    int passed = 0;
    // EVG_PROPS_PROGRESS=1 (set by `evgcheck check`): one line per passing case, for its progress bar.
    const char* progress_env = std::getenv("EVG_PROPS_PROGRESS");
    const bool progress_lines = progress_env != nullptr && std::string(progress_env) == "1";
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
        const rc_bridge::BodyResult r = rc_bridge::run_body([&] { property(c); });
        if (r.kind == rc_bridge::Kind::failure || r.kind == rc_bridge::Kind::exception) {
            const std::string tag = failure_tag(r);
            // A shrink candidate that fails for another reason is another fault: it counts as passing, so
            // rapidcheck does not move to it.
            if (st.failed && tag != st.tag) return;
            if (!st.failed) {
                st.first_failure = std::chrono::steady_clock::now();
                st.tag = tag;
            }
            st.failed = true;
            st.best = c;
            st.reason = r.description;
        }
        if (r.thrown) std::rethrow_exception(r.thrown);
        if (!st.failed) {
            if (coverage) coverage->record(c);
            ++passed;
            if (cfg.progress) cfg.progress(passed, cfg.cases);
            if (progress_lines) fmt::print(stderr, "evg-progress: {} {}/{}\n", name, passed, cfg.cases);
        }
    };
    rc_bridge::CheckParams params;
    params.name = name;
    params.seed = cfg.seed;
    params.cases = cfg.cases;
    params.max_size = cfg.max_size;
    params.max_discard_ratio = cfg.max_discard_ratio;
    params.shrink = cfg.shrink;
    const rc::Gen<Case> gen = cfg.case_source ? *cfg.case_source : case_gen(cfg.gen);
    const std::optional<std::string> failure = rc_bridge::check(
        [&] {
            const Case c = *gen;
            testable(c);
        },
        params);

    Outcome out;
    out.passed = passed;
    if (failure || st.failed) {
        out.ok = false;
        out.tag = st.tag;
        out.minimal = st.best;
        out.reason = st.reason;
        out.shrink_steps = st.steps;
        out.shrink_seconds =
            st.failed
                ? std::chrono::duration<double>(std::chrono::steady_clock::now() - st.first_failure).count()
                : 0;
        out.budget_exhausted = st.exhausted;
        std::string replay;
        if (cfg.save_dir && out.minimal) out.saved = save_case(*out.minimal, name, *cfg.save_dir);
        if (out.saved && cfg.save_dir == cfg.regression_dir) {
            replay = fmt::format("{} --gtest_filter='Regressions.{}'   # replays {}",
                                 cfg.replay_binary.empty() ? "evg_props_tests" : cfg.replay_binary,
                                 out.saved->stem().string(), out.saved->string());
        } else {
            std::string filter = cfg.replay_filter;
            if (filter.empty()) {  // the gtest name: "Props/Name" runs as TEST(Props, Name...)
                filter = name;
                std::replace(filter.begin(), filter.end(), '/', '.');
                filter += "*";
            }
            replay = fmt::format("EVG_PROPS_SEED={} {} --gtest_filter='{}'", cfg.seed,
                                 cfg.replay_binary.empty() ? "evg_props_tests" : cfg.replay_binary, filter);
            if (out.saved)
                replay += fmt::format(
                    "\n# the minimal case is saved as {}; to keep it as a regression test copy it into "
                    "props/regressions/ (or run with EVG_PROPS_SAVE_TO_SOURCE=1)",
                    out.saved->string());
        }
        std::string reason = out.reason;
        if (out.budget_exhausted)
            reason +=
                fmt::format("\n(shrink budget of {} steps / {} s ran out: this is the best case so far)",
                            cfg.shrink_steps, cfg.shrink_seconds);
        if (out.minimal)
            out.report = failure_report(*out.minimal, name, reason, cfg.seed, replay);
        else
            out.report = fmt::format("property {} failed: {}", name, failure.value_or("?"));
    }
    return out;
}

}  // namespace evg::props
