// rc_bridge.hpp over rapidcheck's rc::detail.
#include "rc_bridge.hpp"

namespace evg::props::rc_bridge {

BodyResult run_body(const std::function<void()>& body) {
    BodyResult r;
    try {
        body();
    } catch (const rc::detail::CaseResult& c) {
        r.thrown = std::current_exception();
        r.description = c.description;
        r.kind = c.type == rc::detail::CaseResult::Type::Failure   ? Kind::failure
                 : c.type == rc::detail::CaseResult::Type::Discard ? Kind::discard
                                                                   : Kind::pass;
    } catch (const std::exception& e) {
        r.thrown = std::current_exception();
        r.kind = Kind::exception;
        r.description = std::string("exception: ") + e.what();
    }
    return r;
}

std::optional<std::string> check(const std::function<void()>& testable, const CheckParams& params) {
    rc::detail::TestParams p;
    p.seed = params.seed;
    p.maxSuccess = params.cases;
    p.maxSize = params.max_size;
    p.maxDiscardRatio = params.max_discard_ratio;
    p.disableShrinking = !params.shrink;
    rc::detail::TestMetadata meta;
    meta.id = params.name;
    meta.description = params.name;
    const auto result = rc::detail::checkTestable([&] { testable(); }, meta, p);
    rc::detail::FailureResult failure;
    if (result.match(failure)) return failure.description;
    return std::nullopt;
}

}  // namespace evg::props::rc_bridge
