#include "evg/hw/report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "evg/hw/call_chain.hpp"
#include "evg/hw/rules.hpp"

namespace evg::hw {

// Each row of the table says what reports its kind and when it fires.
#define EVG_VIOLATION_KIND(name, finder, what)                               \
    static_assert(sizeof(finder) > 1, #name ": the finder column is empty"); \
    static_assert(sizeof(what) > 1, #name ": the meaning column is empty");
#include "evg/hw/violation_kinds.def"

std::string_view violation_kind_name(ViolationKind k) {
    switch (k) {
#define EVG_VIOLATION_KIND(name, finder, what) \
    case ViolationKind::name:                  \
        return #name;
#include "evg/hw/violation_kinds.def"
    }
    return "?";
}

std::string_view violation_kind_meaning(ViolationKind k) {
    switch (k) {
#define EVG_VIOLATION_KIND(name, finder, what) \
    case ViolationKind::name:                  \
        return what;
#include "evg/hw/violation_kinds.def"
    }
    return "?";
}

std::string_view violation_kind_finder(ViolationKind k) {
    switch (k) {
#define EVG_VIOLATION_KIND(name, finder, what) \
    case ViolationKind::name:                  \
        return finder;
#include "evg/hw/violation_kinds.def"
    }
    return "?";
}

std::string_view scheduler_name(SchedulerKind k) {
    return k == SchedulerKind::adversarial ? "adversarial" : "in_order";
}

void ScheduleCoverage::merge(const ScheduleCoverage& o) {
    plain_over_plain += o.plain_over_plain;
    plain_over_set += o.plain_over_set;
    wait_over_plain += o.wait_over_plain;
    core_handoffs += o.core_handoffs;
}

bool Report::clean() const {
    for (const auto& v : violations)
        if (v.severity == Severity::error) return false;
    return true;
}

size_t Report::count(ViolationKind k) const {
    size_t n = 0;
    for (const auto& v : violations) n += v.kind == k;
    return n;
}

const Violation* Report::first(ViolationKind k) const {
    for (const auto& v : violations)
        if (v.kind == k) return &v;
    return nullptr;
}

namespace {
std::string location_text(const Location& l, const std::string& launch_site) {
    std::string s;
    if (l.instr) s += fmt::format("#{} ", l.instr);
    if (!l.op.empty()) s += l.op;
    if (!l.pipe.empty()) s += fmt::format(" on {}", l.pipe);
    if (!l.core_name.empty()) s += fmt::format(" of {}", l.core_name);
    if (!l.memory.empty())
        s += fmt::format(", {} {} [{}, {})", l.access.empty() ? "touches" : l.access, l.memory, l.begin,
                         l.end);
    if (!l.site.empty()) s += fmt::format(", issued at {}", l.site);
    if (l.owner == "catlass") s += " (Catlass)";
    if (!l.node.empty()) s += fmt::format("{} by node {}", l.site.empty() ? "," : "", l.node);
    if (!l.chain.empty()) {
        s += ", called from ";
        // "a.hpp:1 < b.hpp:2 (Catlass) < mine.cpp:3": Catlass's run of frames is marked once, at its end.
        for (size_t i = 0; i < l.chain.size(); ++i) {
            const bool run_ends = i + 1 == l.chain.size() || l.chain[i + 1].owner != l.chain[i].owner;
            s += fmt::format("{}{}{}", i ? " < " : "", l.chain[i].site,
                             run_ends && l.chain[i].owner == "catlass" ? " (Catlass)" : "");
        }
    }
    if (!l.user_site.empty() && l.user_site != l.site && l.user_site == launch_site)
        s += fmt::format(", from {} (your kernel launch)", l.user_site);
    return s;
}

// The frames of a location's chain a reader wants: Catlass's, up to and with the first of the user's; the
// model's own frames, the system's and those without a line are left out, and so is a first frame that is the
// instruction's own site (the call of the AscendC API). Empty when no Catlass or user frame is known.
std::vector<Location::Frame> reader_chain(const Location& l) {
    std::vector<Location::Frame> out;
    for (const ChainFrame& f : call_chain_frames(l.chain_id)) {
        if (f.owner != SiteOwner::catlass && f.owner != SiteOwner::user) continue;
        const std::string site = f.str();
        if (out.empty() && site == l.site) continue;
        if (!out.empty() && out.back().site == site) continue;  // recursion, or a line with two calls
        out.push_back({site, std::string(site_owner_name(f.owner)), f.function});
        if (f.owner == SiteOwner::user) break;
    }
    return out;
}

// The user's line a finding is about: the first location issued from the user's own code, else the first
// issued through a line of the user's (its call chain), else the first that came from the launch; empty when
// none is known.
std::string headline_site(const Violation& v, const std::string& launch_site) {
    for (const Location& l : v.locations)
        if (!l.user_site.empty() && l.user_site == l.site) return l.user_site;
    for (const Location& l : v.locations)
        if (!l.user_site.empty() && l.user_site != launch_site) return l.user_site;
    for (const Location& l : v.locations)
        if (!l.user_site.empty()) return l.user_site;
    return {};
}
}  // namespace

std::string Report::schedule_text() const {
    if (stats.scheduler != SchedulerKind::adversarial) return {};
    const auto& c = stats.coverage;
    return fmt::format(
        "schedule: adversarial, seed {}, {} step(s); out of order: {} plain over plain, {} plain over set, "
        "{} "
        "wait over plain, {} core hand-off(s)\n",
        stats.seed, stats.steps, c.plain_over_plain, c.plain_over_set, c.wait_over_plain, c.core_handoffs);
}

void Report::set_launch_site(const Site& site) {
    launch_site = site.str();
    launch_source = source_text(site);
    std::vector<uint32_t> chain_ids;
    for (const Violation& v : violations)
        for (const Location& l : v.locations)
            if (l.chain_id) chain_ids.push_back(l.chain_id);
    resolve_call_chains(chain_ids);
    for (Violation& v : violations)
        for (Location& l : v.locations) {
            // The user's own line needs no chain to be found; its chain still names its node (a functor's
            // instruction, by the Compute visitor that called it).
            if (l.chain_id && l.chain.empty() && l.owner != "user") l.chain = reader_chain(l);
            if (l.chain_id && l.node.empty())
                if (const ChainNodeNamer namer = chain_node_namer()) {
                    std::string gm;
                    for (const GmBuffer& b : buffers)
                        if (b.name == l.memory) gm = l.memory;
                    l.node = namer(call_chain_frames(l.chain_id), gm).label;
                }
            if (!l.user_site.empty() || (l.owner != "catlass" && l.owner != "evgcheck")) continue;
            if (!l.chain.empty() && l.chain.back().owner == "user") {
                l.user_site = l.chain.back().site;
                // The frame's text, read from its file as the site's is.
                for (const ChainFrame& f : call_chain_frames(l.chain_id))
                    if (f.owner == SiteOwner::user && f.str() == l.user_site) {
                        l.user_source = source_text(Site{f.file.c_str(), f.line});
                        break;
                    }
                continue;
            }
            l.user_site = launch_site;
            l.user_source = launch_source;
        }
}

std::string Report::text() const {
    std::string out;
    size_t errors = 0, warnings = 0;
    for (const auto& v : violations) (v.severity == Severity::error ? errors : warnings)++;
    if (host())
        out += fmt::format("evgcheck report: host calls, after the launches: {} error(s), {} warning(s)\n",
                           errors, warnings);
    else
        out +=
            fmt::format("evgcheck report: {} on {} block(s): {} instruction(s), {} error(s), {} warning(s)\n",
                        arch, block_dim, stats.instructions, errors, warnings);
    for (const auto& v : violations) {
        // A program's findings are headed by the user's line (a harness's report has no launch site).
        const std::string head = launch_site.empty() ? std::string() : headline_site(v, launch_site);
        out += fmt::format("{} [{}] {}{}", v.severity == Severity::error ? "error" : "warning",
                           violation_kind_name(v.kind), head.empty() ? "" : head + ": ", v.message);
        if (v.occurrences > 1) out += fmt::format(" ({} occurrences)", v.occurrences);
        out += "\n";
        for (const auto& l : v.locations) out += "    at " + location_text(l, launch_site) + "\n";
        if (const std::string assumed = assumed_rules_text(v); !assumed.empty())
            out += "    " + assumed + "\n";
    }
    for (const GmBuffer& b : buffers)
        out +=
            fmt::format("  GM buffer {}: {} bytes, {}\n", b.name, b.bytes,
                        b.origin.empty() ? std::string("allocated by the harness without a name") : b.origin);
    out += schedule_text();
    out += fp_text();
    if (violations.empty()) out += "no violations\n";
    for (const auto& m : mutations_unapplied) out += "sync mutation not applied: " + m + "\n";
    return out;
}

namespace {
nlohmann::json chain_json(const std::vector<Location::Frame>& chain) {
    nlohmann::json out = nlohmann::json::array();
    for (const Location::Frame& f : chain)
        out.push_back({{"site", f.site}, {"owner", f.owner}, {"function", f.function}});
    return out;
}
}  // namespace

std::string FpCounts::InGm::text() const {
    std::vector<std::string> what;
    if (nan) what.push_back(fmt::format("{} NaN", nan));
    if (inf) what.push_back(fmt::format("{} infinite", inf));
    if (what.empty()) return {};
    const uint64_t all = nan + inf;
    return fmt::format("{} holds {} ({})", buffer, fmt::join(what, " and "),
                       from_inputs == 0 ? std::string("all made by the launch: the findings say where")
                       : from_inputs == all
                           ? std::string("all passed on from the inputs")
                           : fmt::format("{} of them passed on from the inputs", from_inputs));
}

std::string Report::fp_text() const {
    if (!fp.on) return {};
    std::vector<std::string> parts;
    for (const FpCounts::InGm& g : fp.gm)
        if (std::string t = g.text(); !t.empty()) parts.push_back(std::move(t));
    if (fp.subnormal) parts.push_back(fmt::format("{} subnormal result(s)", fp.subnormal));
    if (fp.padding)
        parts.push_back(
            fmt::format("{} NaN or infinite result(s) on never-written lanes (padding)", fp.padding));
    if (fp.born_lost) parts.push_back(fmt::format("{} born lane(s) past the findings kept", fp.born_lost));
    if (parts.empty()) return {};
    return fmt::format("numeric: {}\n", fmt::join(parts, "; "));
}

std::string Report::json() const {
    nlohmann::json j;
    j["arch"] = arch;
    j["block_dim"] = block_dim;
    if (host()) j["host"] = true;
    if (!launch_site.empty()) j["launch_site"] = {{"site", launch_site}, {"source", launch_source}};
    j["clean"] = clean();
    j["stats"] = {{"instructions", stats.instructions},
                  {"per_pipe", stats.per_pipe},
                  {"ub_peak", stats.ub_peak},
                  {"events_set", stats.events_set},
                  {"events_waited", stats.events_waited}};
    j["schedule"] = {{"scheduler", scheduler_name(stats.scheduler)},
                     {"seed", stats.seed},
                     {"steps", stats.steps},
                     {"plain_over_plain", stats.coverage.plain_over_plain},
                     {"plain_over_set", stats.coverage.plain_over_set},
                     {"wait_over_plain", stats.coverage.wait_over_plain},
                     {"core_handoffs", stats.coverage.core_handoffs}};
    if (fp.on) {
        nlohmann::json gm = nlohmann::json::array();
        for (const FpCounts::InGm& g : fp.gm)
            gm.push_back(
                {{"buffer", g.buffer}, {"nan", g.nan}, {"inf", g.inf}, {"from_inputs", g.from_inputs}});
        j["fp"] = {{"subnormal", fp.subnormal},
                   {"born", fp.born},
                   {"padding", fp.padding},
                   {"born_lost", fp.born_lost},
                   {"gm", gm}};
    }
    if (!mutations_unapplied.empty()) j["mutations_unapplied"] = mutations_unapplied;
    if (!buffers.empty()) {
        auto& bs = j["buffers"] = nlohmann::json::array();
        for (const GmBuffer& b : buffers)
            bs.push_back({{"name", b.name}, {"bytes", b.bytes}, {"origin", b.origin}});
    }
    auto& vs = j["violations"] = nlohmann::json::array();
    for (const auto& v : violations) {
        nlohmann::json jv{{"kind", violation_kind_name(v.kind)},
                          {"severity", v.severity == Severity::error ? "error" : "warning"},
                          {"message", v.message},
                          {"occurrences", v.occurrences}};
        auto& rs = jv["rules"] = nlohmann::json::array();
        for (const RuleId id : rules_of(v)) rs.push_back(rule_info(id).code);
        auto& ls = jv["locations"] = nlohmann::json::array();
        for (const auto& l : v.locations)
            ls.push_back({{"instr", l.instr},
                          {"core", l.core},
                          {"core_name", l.core_name},
                          {"pipe", l.pipe},
                          {"op", l.op},
                          {"memory", l.memory},
                          {"begin", l.begin},
                          {"end", l.end},
                          {"access", l.access},
                          {"site", l.site},
                          {"source", l.source},
                          {"node", l.node},
                          {"owner", l.owner},
                          {"user_site", l.user_site},
                          {"user_source", l.user_source},
                          {"chain", chain_json(l.chain)}});
        vs.push_back(std::move(jv));
    }
    return j.dump(2);
}

namespace {

// Reads the JSON json() writes, saying where a key is missing: every read names its place.
class JsonReader {
  public:
    JsonReader(const nlohmann::json& j, std::string where) : j_(j), where_(std::move(where)) {}

    const nlohmann::json& at(std::string_view key) const {
        const auto it = j_.find(key);
        if (it == j_.end()) throw ReportJsonError(fmt::format("report JSON: {} has no '{}'", where_, key));
        return *it;
    }
    bool has(std::string_view key) const { return j_.contains(key); }
    template <class T>
    T get(std::string_view key) const {
        try {
            return at(key).get<T>();
        } catch (const nlohmann::json::exception& e) {
            throw ReportJsonError(
                fmt::format("report JSON: {}.{} is not what json() writes: {}", where_, key, e.what()));
        }
    }
    JsonReader object(std::string_view key) const {
        const nlohmann::json& o = at(key);
        if (!o.is_object())
            throw ReportJsonError(fmt::format("report JSON: {}.{} is not an object", where_, key));
        return {o, fmt::format("{}.{}", where_, key)};
    }
    // Each element of the array under `key`, as a reader named by its index.
    std::vector<JsonReader> array(std::string_view key) const {
        const nlohmann::json& a = at(key);
        if (!a.is_array())
            throw ReportJsonError(fmt::format("report JSON: {}.{} is not an array", where_, key));
        std::vector<JsonReader> out;
        out.reserve(a.size());
        for (size_t i = 0; i < a.size(); ++i)
            out.emplace_back(a[i], fmt::format("{}.{}[{}]", where_, key, i));
        return out;
    }
    const std::string& where() const { return where_; }

  private:
    const nlohmann::json& j_;
    std::string where_;
};

ViolationKind kind_named(const std::string& name, const std::string& where) {
    for (const ViolationKind k : kViolationKinds)
        if (violation_kind_name(k) == name) return k;
    throw ReportJsonError(
        fmt::format("report JSON: {}.kind '{}' is no kind of violation_kinds.def", where, name));
}

SchedulerKind scheduler_named(const std::string& name, const std::string& where) {
    for (const SchedulerKind k : {SchedulerKind::in_order, SchedulerKind::adversarial})
        if (scheduler_name(k) == name) return k;
    throw ReportJsonError(fmt::format("report JSON: {}.scheduler '{}' is no scheduler", where, name));
}

// The bits of Violation::rules: the rules listed that the kind does not rest on already.
uint64_t rule_bits(const std::vector<std::string>& codes, ViolationKind kind, const std::string& where) {
    const std::vector<RuleId> of_kind = rules_of(kind);
    uint64_t bits = 0;
    for (const std::string& code : codes) {
        const RuleInfo* found = nullptr;
        for (const RuleInfo& r : all_rules())
            if (r.code == code) found = &r;
        if (!found)
            throw ReportJsonError(
                fmt::format("report JSON: {}.rules names '{}', no rule of rules.def", where, code));
        if (std::find(of_kind.begin(), of_kind.end(), found->id) == of_kind.end())
            bits |= rule_bit(found->id);
    }
    return bits;
}

Location location_from(const JsonReader& l) {
    Location out;
    out.instr = l.get<uint64_t>("instr");
    out.core = l.get<int>("core");
    out.core_name = l.get<std::string>("core_name");
    out.pipe = l.get<std::string>("pipe");
    out.op = l.get<std::string>("op");
    out.memory = l.get<std::string>("memory");
    out.begin = l.get<uint64_t>("begin");
    out.end = l.get<uint64_t>("end");
    out.access = l.get<std::string>("access");
    out.site = l.get<std::string>("site");
    out.source = l.get<std::string>("source");
    out.node = l.get<std::string>("node");
    out.owner = l.get<std::string>("owner");
    out.user_site = l.get<std::string>("user_site");
    out.user_source = l.get<std::string>("user_source");
    for (const JsonReader& f : l.array("chain"))
        out.chain.push_back(
            {f.get<std::string>("site"), f.get<std::string>("owner"), f.get<std::string>("function")});
    return out;
}

Violation violation_from(const JsonReader& v) {
    Violation out;
    out.kind = kind_named(v.get<std::string>("kind"), v.where());
    const std::string severity = v.get<std::string>("severity");
    if (severity != "error" && severity != "warning")
        throw ReportJsonError(
            fmt::format("report JSON: {}.severity '{}' is neither error nor warning", v.where(), severity));
    out.severity = severity == "error" ? Severity::error : Severity::warning;
    out.message = v.get<std::string>("message");
    out.occurrences = v.get<uint64_t>("occurrences");
    out.rules = rule_bits(v.get<std::vector<std::string>>("rules"), out.kind, v.where());
    for (const JsonReader& l : v.array("locations")) out.locations.push_back(location_from(l));
    return out;
}

}  // namespace

Report Report::from_json(std::string_view text) {
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        throw ReportJsonError("report JSON: the text is not a JSON object");
    const JsonReader r(j, "the report");
    Report out;
    out.arch = r.get<std::string>("arch");
    out.block_dim = r.get<int>("block_dim");
    if (r.has("launch_site")) {
        const JsonReader ls = r.object("launch_site");
        out.launch_site = ls.get<std::string>("site");
        out.launch_source = ls.get<std::string>("source");
    }
    const JsonReader st = r.object("stats");
    out.stats.instructions = st.get<uint64_t>("instructions");
    out.stats.per_pipe = st.get<std::map<std::string, uint64_t>>("per_pipe");
    out.stats.ub_peak = st.get<uint32_t>("ub_peak");
    out.stats.events_set = st.get<uint64_t>("events_set");
    out.stats.events_waited = st.get<uint64_t>("events_waited");
    const JsonReader sc = r.object("schedule");
    out.stats.scheduler = scheduler_named(sc.get<std::string>("scheduler"), sc.where());
    out.stats.seed = sc.get<uint64_t>("seed");
    out.stats.steps = sc.get<uint64_t>("steps");
    out.stats.coverage.plain_over_plain = sc.get<uint64_t>("plain_over_plain");
    out.stats.coverage.plain_over_set = sc.get<uint64_t>("plain_over_set");
    out.stats.coverage.wait_over_plain = sc.get<uint64_t>("wait_over_plain");
    out.stats.coverage.core_handoffs = sc.get<uint64_t>("core_handoffs");
    if (r.has("fp")) {
        const JsonReader fp = r.object("fp");
        out.fp.on = true;
        out.fp.subnormal = fp.get<uint64_t>("subnormal");
        out.fp.born = fp.get<uint64_t>("born");
        out.fp.padding = fp.get<uint64_t>("padding");
        out.fp.born_lost = fp.get<uint64_t>("born_lost");
        for (const JsonReader& g : fp.array("gm"))
            out.fp.gm.push_back({g.get<std::string>("buffer"), g.get<uint64_t>("nan"), g.get<uint64_t>("inf"),
                                 g.get<uint64_t>("from_inputs")});
    }
    if (r.has("mutations_unapplied"))
        out.mutations_unapplied = r.get<std::vector<std::string>>("mutations_unapplied");
    if (r.has("buffers"))
        for (const JsonReader& b : r.array("buffers"))
            out.buffers.push_back(
                {b.get<std::string>("name"), b.get<uint64_t>("bytes"), b.get<std::string>("origin")});
    for (const JsonReader& v : r.array("violations")) out.violations.push_back(violation_from(v));
    // What json() derives, checked against what it wrote: a report whose flags disagree is not one json()
    // wrote.
    if (r.get<bool>("clean") != out.clean())
        throw ReportJsonError("report JSON: 'clean' disagrees with the report's violations");
    if (r.has("host") != out.host())
        throw ReportJsonError("report JSON: 'host' disagrees with the report's block_dim");
    return out;
}

}  // namespace evg::hw
