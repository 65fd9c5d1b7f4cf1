// The only place that touches rapidcheck's internals (rc::detail): running a property body and telling a
// failure from a discard, and running a check over a generator with our parameters. runner.cpp uses it;
// nothing else includes it.
#pragma once
#include <rapidcheck.h>

#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string>

namespace evg::props::rc_bridge {

enum class Kind { pass, failure, discard, exception };

struct BodyResult {
    Kind kind = Kind::pass;
    std::string description;    // the failure's message, or "exception: <what>"
    std::exception_ptr thrown;  // what the body threw (rethrown to rapidcheck), null when it returned
};

// Runs `body` (a property call) and classifies how it ended.
BodyResult run_body(const std::function<void()>& body);

struct CheckParams {
    std::string name;
    uint64_t seed = 1;
    int cases = 100, max_size = 100, max_discard_ratio = 10;
    bool shrink = true;
};

// rapidcheck's check of `testable` (which draws its own values) with `params`; the failure's description
// when it failed, nullopt when it passed.
std::optional<std::string> check(const std::function<void()>& testable, const CheckParams& params);

}  // namespace evg::props::rc_bridge
