// require_clean and its recorded tag (require.hpp).
#include "evg/props/require.hpp"

#include <rapidcheck.h>

namespace evg::props {

namespace {
thread_local std::optional<std::string> g_tag;
}  // namespace

void require_clean(const verify::Verdict& v, const std::string& context) {
    if (v.clean()) return;
    g_tag = std::string(verify::tag_name(*v.first_tag()));
    RC_FAIL((context.empty() ? "" : context + "\n") + v.text());
}

std::optional<std::string> take_failure_tag() {
    std::optional<std::string> t = std::move(g_tag);
    g_tag.reset();
    return t;
}

}  // namespace evg::props
