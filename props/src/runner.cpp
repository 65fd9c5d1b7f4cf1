#include "evg/props/runner.hpp"

#include <fmt/format.h>
#include <rapidcheck.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "evg/props/regression.hpp"

namespace evg::props {

namespace {

struct ShrinkState {
    bool failed = false;
    int steps = 0;
    std::chrono::steady_clock::time_point first_failure;
    bool exhausted = false;
    std::optional<Case> best;
    std::string reason;
};

}  // namespace

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
        try {
            property(c);
        } catch (const rc::detail::CaseResult& r) {
            if (r.type == rc::detail::CaseResult::Type::Failure) {
                if (!st.failed) st.first_failure = std::chrono::steady_clock::now();
                st.failed = true;
                st.best = c;
                st.reason = r.description;
            }
            throw;
        } catch (const std::exception& e) {
            if (!st.failed) st.first_failure = std::chrono::steady_clock::now();
            st.failed = true;
            st.best = c;
            st.reason = std::string("exception: ") + e.what();
            throw;
        }
        if (!st.failed) {
            if (coverage) coverage->record(c);
            ++passed;
            if (cfg.progress) cfg.progress(passed, cfg.cases);
            if (progress_lines) fmt::print(stderr, "evg-progress: {} {}/{}\n", name, passed, cfg.cases);
        }
    };
    rc::detail::TestParams params;
    params.seed = cfg.seed;
    params.maxSuccess = cfg.cases;
    params.maxSize = cfg.max_size;
    params.maxDiscardRatio = cfg.max_discard_ratio;
    params.disableShrinking = !cfg.shrink;
    rc::detail::TestMetadata meta;
    meta.id = name;
    meta.description = name;
    const rc::Gen<Case> gen = case_gen(cfg.gen);
    const auto result = rc::detail::checkTestable(
        [&] {
            const Case c = *gen;
            testable(c);
        },
        meta, params);

    Outcome out;
    out.passed = passed;
    rc::detail::FailureResult failure;
    if (result.match(failure) || st.failed) {
        out.ok = false;
        out.minimal = st.best;
        out.reason = st.reason;
        out.shrink_steps = st.steps;
        out.shrink_seconds =
            st.failed
                ? std::chrono::duration<double>(std::chrono::steady_clock::now() - st.first_failure).count()
                : 0;
        out.budget_exhausted = st.exhausted;
        std::string replay;
        if (cfg.save_dir && out.minimal) {
            out.saved = save_case(*out.minimal, name, *cfg.save_dir);
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
        }
        std::string reason = out.reason;
        if (out.budget_exhausted)
            reason +=
                fmt::format("\n(shrink budget of {} steps / {} s ran out: this is the best case so far)",
                            cfg.shrink_steps, cfg.shrink_seconds);
        if (out.minimal)
            out.report = failure_report(*out.minimal, name, reason, cfg.seed, replay);
        else
            out.report = fmt::format("property {} failed: {}", name, failure.description);
    }
    return out;
}

}  // namespace evg::props
